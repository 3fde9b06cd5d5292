"""warpath.shared_rows: a matrix made of stripe files mapped side by side, written by
other processes, against the same rows written into a plain array."""

import multiprocessing
import os

import numpy as np
import pytest

from warpath import shared_rows

pytestmark = pytest.mark.skipif(not shared_rows.supported(), reason="stripe files need Linux")


PAGE = shared_rows.PAGE


@pytest.mark.parametrize("shape, dtype, stripe_bytes", [
    ((7, PAGE // 4), np.int32, 2 * PAGE),   # a row per page, two rows a file, the last 1
    ((100, 3), np.int64, 1),                # less than a page: one file
    ((2500, 3), np.int64, 1),               # 24-byte rows cut across page-sized files
    ((64, 513), np.float64, 3 * PAGE),      # rows of an odd length cut across files
    ((1, 1), np.int32, None),               # one entry in one page
])
def test_rows_written_anywhere_read_back_in_place(tmp_path, shape, dtype, stripe_bytes):
    matrix = shared_rows.striped_matrix(shape, dtype, str(tmp_path), stripe_bytes=stripe_bytes)
    rows, cols = shape
    span = matrix.files.stripe_bytes
    assert span % PAGE == 0 and span >= (stripe_bytes or shared_rows.STRIPE_BYTES)
    nbytes = rows * cols * np.dtype(dtype).itemsize
    assert len(matrix.paths) == -(-nbytes // span)
    assert matrix.array.shape == shape and matrix.array.dtype == dtype
    assert matrix.array.flags.c_contiguous and not matrix.array.any()  # sparse files read 0
    expected = np.arange(rows * cols, dtype=dtype).reshape(shape) + 1
    # Blocks of uneven sizes, written in no particular order, each split at the files' edges.
    edges = sorted({0, rows, *np.random.default_rng(0).integers(0, rows, 6).tolist()})
    for start, end in reversed(list(zip(edges, edges[1:]))):
        matrix.files.write(start, expected[start:end])
    np.testing.assert_array_equal(matrix.array, expected)
    for path in matrix.paths:  # the files hold the bytes too, file after file
        assert os.path.getsize(path) % PAGE == 0
    on_disk = np.concatenate([np.fromfile(p, dtype=np.uint8) for p in matrix.paths])
    np.testing.assert_array_equal(on_disk[:nbytes], expected.view(np.uint8).ravel())
    matrix.unlink()
    assert not os.listdir(tmp_path)
    np.testing.assert_array_equal(matrix.array, expected)  # the map outlives the files


def test_pieces_cover_the_block_once_and_stay_in_one_file():
    files = shared_rows.RowFiles("/x/rows", offset=0, row_bytes=40, stripe_bytes=96)
    for start, count in [(0, 1), (0, 7), (3, 30), (6, 2), (14, 7), (20, 100), (5, 0)]:
        pieces = files.pieces(start, count)
        assert sum(p[3] for p in pieces) == count * 40
        assert [p[2] for p in pieces] == np.cumsum([0] + [p[3] for p in pieces])[:-1].tolist()
        for path, position, first, size in pieces:
            at = start * 40 + first  # the piece's first byte in the matrix
            assert path == files.path_of(at // 96) == files.path_of((at + size - 1) // 96)
            assert position == at % 96
    assert shared_rows.RowFiles("d.npy", 128, 40).pieces(3, 0) == []


def _write_half(files, half, rows):
    files.write(half * rows.shape[0], rows)


def test_other_processes_write_into_the_clients_array(tmp_path):
    # As Dask workers do: the RowFiles travel (pickled) to two processes that write half
    # the rows each; the client sees them in its array with no copy.
    matrix = shared_rows.striped_matrix((64, 1024), np.int32, str(tmp_path),
                                        stripe_bytes=8 * PAGE)
    expected = np.arange(64 * 1024, dtype=np.int32).reshape(64, 1024)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_half, args=(matrix.files, h, expected[32 * h:][:32]))
               for h in (0, 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    np.testing.assert_array_equal(matrix.array, expected)
    matrix.unlink()


def test_the_mapping_goes_when_the_last_view_does(tmp_path):
    matrix = shared_rows.striped_matrix((4, 1024), np.int32, str(tmp_path))
    view = matrix.array[2:]
    base, size = matrix.array.ctypes.data, matrix.array.nbytes
    matrix.unlink()
    del matrix
    view[:] = 5  # still mapped: the view holds the memory
    mapped = [line for line in open("/proc/self/maps")
              if int(line.split("-")[0], 16) == base]
    assert mapped
    del view
    import gc
    gc.collect()
    assert not [line for line in open("/proc/self/maps")
                if int(line.split("-")[0], 16) == base], f"{size} bytes still mapped"


def test_a_folder_that_cannot_hold_the_files_raises(tmp_path):
    with pytest.raises(OSError):
        shared_rows.striped_matrix((4, 4), np.int32, str(tmp_path / "missing"))


def test_preallocation_allocates_every_page_of_each_file(tmp_path):
    paths = []
    for i, size in enumerate((3 * 2**20, 5000, 0)):
        path = tmp_path / f"f{i}"
        path.write_bytes(b"")
        os.truncate(path, size)
        paths.append(str(path))
    shared_rows.Preallocation(paths).stop(wait_for_all=True)
    for path in paths:
        assert os.stat(path).st_blocks * 512 >= os.path.getsize(path)
    shared_rows.Preallocation([str(tmp_path / "gone")]).stop(wait_for_all=True)  # no error


def test_a_failure_midway_leaves_no_file_and_no_mapping(tmp_path, monkeypatch):
    made = []
    real = os.ftruncate

    def full_after_two(fd, length):
        if len(made) == 2:
            raise OSError(28, "No space left on device")
        made.append(fd)
        real(fd, length)

    monkeypatch.setattr(shared_rows.os, "ftruncate", full_after_two)
    before = open("/proc/self/maps").read().count("\n")
    with pytest.raises(OSError, match="No space"):
        shared_rows.striped_matrix((8, PAGE // 4), np.int32, str(tmp_path), stripe_bytes=PAGE)
    assert not os.listdir(tmp_path)
    assert open("/proc/self/maps").read().count("\n") <= before


def test_no_address_range_leaves_no_folder(tmp_path, monkeypatch):
    def no_memory(*args):
        raise OSError(12, "mmap of the range failed: Cannot allocate memory")

    monkeypatch.setattr(shared_rows, "_map", no_memory)
    with pytest.raises(OSError, match="Cannot allocate"):
        shared_rows.striped_matrix((4, 4), np.int32, str(tmp_path))
    assert not os.listdir(tmp_path)


def test_a_thread_reading_the_matrix_at_exit_does_not_crash(tmp_path):
    # The map is not undone by the interpreter's exit handlers: a daemon thread that still
    # reads the matrix while they run must not meet unmapped memory (a SIGSEGV before).
    script = f"""
import threading, numpy as np
from warpath import shared_rows
m = shared_rows.striped_matrix((1024, 16384), np.int32, {str(tmp_path)!r})
m.unlink()
def read():
    while True:
        m.array.sum()
threading.Thread(target=read, daemon=True).start()
"""
    import subprocess
    import sys
    source = os.path.dirname(os.path.dirname(shared_rows.__file__))  # this warpath
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", script], timeout=120, env=env)
        assert done.returncode == 0


def test_a_large_matrix_gets_larger_stripes_not_more_files(tmp_path, monkeypatch):
    monkeypatch.setattr(shared_rows, "MAX_STRIPES", 4)
    matrix = shared_rows.striped_matrix((10, PAGE // 8), np.int64, str(tmp_path),
                                        stripe_bytes=PAGE)   # 10 pages: 4 files of 3 pages
    assert len(matrix.paths) == 4 and matrix.files.stripe_bytes == 3 * PAGE
    expected = np.arange(10 * (PAGE // 8)).reshape(10, -1)
    matrix.files.write(0, expected)
    np.testing.assert_array_equal(matrix.array, expected)
    matrix.unlink()
