"""Large device arrays into host memory through staged chunks (warpath.cuda.downloads)."""

import threading

import numpy as np
import pytest
from numba import cuda
from slow_kernel import slow_fill

from warpath.cuda import downloads, runtime


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Chunks of three pages, no small-array shortcut: every path of the staging runs."""
    monkeypatch.setattr(downloads, "CHUNK_BYTES", 3 * 4096)
    monkeypatch.setattr(downloads, "SMALL_BYTES", 0)


@cuda.jit
def _fill_rows(rows, value):
    i, j = cuda.grid(2)
    if i < rows.shape[0] and j < rows.shape[1]:
        rows[i, j] = value + i * rows.shape[1] + j


def _rows(count, width, value, dtype=np.int32):
    rows = cuda.device_array((count, width), dtype)
    _fill_rows[((count + 7) // 8, (width + 31) // 32), (8, 32)](rows, value)
    return rows, value + np.arange(count * width, dtype=dtype).reshape(count, width)


@pytest.mark.parametrize("count, width", [(1, 5), (7, 1000), (13, 3001)])
def test_copies_every_byte_across_chunks_and_pieces(tiny_chunks, count, width):
    rows, expected = _rows(count, width, 11)
    host = np.full((count, width), -1, np.int32)
    with downloads.Download() as job:
        job.copy(rows, host)
    np.testing.assert_array_equal(host, expected)


def test_blocks_of_rows_into_their_places_then_the_buffer_reused(tiny_chunks):
    # as the task-parallel delivery does: one device buffer, refilled for each block
    host = np.empty((9, 2500), np.int64)
    buffer = cuda.device_array((3, 2500), np.int64)
    expected = np.empty_like(host)
    with downloads.Download() as job:
        for block in range(3):
            _fill_rows[(1, 79), (8, 32)](buffer, 1000 * block)
            job.copy(buffer, host[3 * block:3 * block + 3])
            expected[3 * block:3 * block + 3] = 1000 * block + np.arange(7500).reshape(3, 2500)
    np.testing.assert_array_equal(host, expected)


def test_any_shape_and_type_of_the_same_size(tiny_chunks):
    rows, expected = _rows(4, 3000, 5)
    flat = np.empty(4 * 3000 * 4, np.uint8)
    downloads.download(rows, flat)
    np.testing.assert_array_equal(flat.view(np.int32).reshape(4, 3000), expected)


def test_small_arrays_are_copied_at_once():
    rows, expected = _rows(2, 3, 1)
    assert rows.size * 4 <= downloads.SMALL_BYTES
    np.testing.assert_array_equal(downloads.download(rows), expected)


def test_refuses_other_sizes_and_strided_arrays():
    rows, _ = _rows(2, 8, 0)
    with pytest.raises(ValueError, match="sizes differ"):
        downloads.download(rows, np.empty((2, 7), np.int32))
    with pytest.raises(ValueError, match="C-contiguous"):
        downloads.download(rows, np.empty((2, 16), np.int32)[:, ::2])


def test_pieces_cover_a_chunk_in_whole_pages():
    pieces = list(downloads._pieces(10 * 4096 + 5, 4))
    assert pieces[0] == (0, 3 * 4096) and pieces[-1][1] == 10 * 4096 + 5
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    assert list(downloads._pieces(0, 4)) == []


def test_each_thread_has_its_own_staging(tiny_chunks):
    seen = {}

    def stage(name):
        seen[name] = downloads._staging()

    threads = [threading.Thread(target=stage, args=(name,)) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen["a"] is not seen["b"]
    assert downloads._staging() is downloads._staging()
    assert downloads._staging().chunks[0].size == downloads.CHUNK_BYTES


@pytest.mark.gpu
@pytest.mark.skipif(runtime.SIMULATOR, reason="the simulator runs each kernel at its launch")
def test_waits_for_the_kernels_before_it_and_holds_back_those_after(tiny_chunks):
    rows = cuda.to_device(np.zeros(1 << 16, np.int32))
    slow_fill[1, 256](rows, 1, 200)    # still running when the copy is queued
    host = np.empty(1 << 16, np.int32)
    job = downloads.Download()
    job.copy(rows, host)
    slow_fill[1, 256](rows, 2, 0)      # queued after: must not overwrite what is read
    job.finish()
    assert set(host.tolist()) == {1}
    cuda.synchronize()
    assert set(rows.copy_to_host().tolist()) == {2}


def test_two_open_downloads_of_one_thread_share_its_chunks_safely(tiny_chunks):
    # each waits for the other's host tasks before it reuses a chunk
    first_rows, first_expected = _rows(6, 3000, 1)
    second_rows, second_expected = _rows(6, 3000, 50_000)
    first_host, second_host = np.empty((6, 3000), np.int32), np.empty((6, 3000), np.int32)
    first, second = downloads.Download(), downloads.Download()
    first.copy(first_rows, first_host)
    second.copy(second_rows, second_host)
    first.finish()
    second.finish()
    np.testing.assert_array_equal(first_host, first_expected)
    np.testing.assert_array_equal(second_host, second_expected)


def test_a_failed_host_copy_is_raised_by_its_own_download(tiny_chunks, monkeypatch):
    rows, expected = _rows(3, 3000, 7)

    def broken(*args):
        raise OSError("disk gone")

    monkeypatch.setattr(downloads, "_unload", broken)
    failing = downloads.Download()
    failing.copy(rows, np.empty((3, 3000), np.int32))
    monkeypatch.undo()
    monkeypatch.setattr(downloads, "CHUNK_BYTES", 3 * 4096)
    monkeypatch.setattr(downloads, "SMALL_BYTES", 0)
    host = np.empty((3, 3000), np.int32)
    with downloads.Download() as fine:   # another download on the thread is not hurt
        fine.copy(rows, host)
    np.testing.assert_array_equal(host, expected)
    with pytest.raises(OSError, match="disk gone"):
        failing.finish()


def test_rows_delivered_to_the_host_in_chunks_over_several_launches(tiny_chunks):
    import warpath
    from warpath import generators as gen

    graph = gen.random(300, 1500, seed=5)
    sources = list(range(0, 300, 7))
    host = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                deliver="host", group=8, launch_groups=2)
    device = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  deliver="device", group=8, launch_groups=2)
    assert host.stats["delivered"] == "host" and host.stats["batches"] == 3
    np.testing.assert_array_equal(host.distances, device.distances)
    np.testing.assert_array_equal(host.predecessors, device.predecessors)
