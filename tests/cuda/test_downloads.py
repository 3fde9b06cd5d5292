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
