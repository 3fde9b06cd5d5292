"""Copies after marked work, on a stream of their own (warpath.cuda.side_stream)."""

import threading

import numpy as np
import pytest
from numba import cuda
from slow_kernel import slow_fill

from warpath.cuda import runtime, side_stream


@cuda.jit
def _fill_rows(rows, value):
    i, j = cuda.grid(2)
    if i < rows.shape[0] and j < rows.shape[1]:
        rows[i, j] = value + i * rows.shape[1] + j


def test_copies_what_the_marked_kernels_wrote():
    rows = cuda.device_array((6, 40), np.int32)
    _fill_rows[(1, 2), (8, 32)](rows, 7)
    done = side_stream.mark()
    host = cuda.pinned_array(6 * 40 * 4, np.uint8)
    # a block of rows of a larger array, as the distributed hand-over copies them
    done.copy_to_host(rows[2:5], host[:3 * 40 * 4])
    expected = 7 + np.arange(6 * 40, dtype=np.int32).reshape(6, 40)
    np.testing.assert_array_equal(host[:3 * 40 * 4].view(np.int32).reshape(3, 40),
                                  expected[2:5])
    done.release()
    done.release()  # a second release does nothing


@pytest.mark.gpu
@pytest.mark.skipif(runtime.SIMULATOR, reason="the simulator runs each kernel at its launch")
def test_the_copy_waits_for_the_marked_kernel_and_not_for_later_ones():
    rows = cuda.to_device(np.zeros(4096, np.int32))
    slow_fill[1, 256](rows, 1, 300)    # still running when the copy is asked for
    done = side_stream.mark()
    slow_fill[1, 256](rows, 2, 300)    # queued after the mark: the copy must not wait
    host = cuda.pinned_array(4096, np.int32)
    done.copy_to_host(rows, host)
    done.release()
    # A copy that did not wait would read zeros; one that waited for everything, twos.
    assert set(host.tolist()) == {1}
    cuda.synchronize()
    assert set(rows.copy_to_host().tolist()) == {2}


def test_each_thread_copies_on_its_own_stream():
    rows = cuda.to_device(np.arange(100, dtype=np.int64))
    done = side_stream.mark()
    copies = [np.zeros(100, np.int64) for _ in range(3)]
    threads = [threading.Thread(target=done.copy_to_host, args=(rows, host)) for host in copies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.release()
    for host in copies:
        np.testing.assert_array_equal(host, np.arange(100))


def test_refuses_other_sizes_and_a_released_mark():
    rows = cuda.to_device(np.zeros((2, 3), np.float32))
    done = side_stream.mark()
    with pytest.raises(ValueError, match="the sizes differ"):
        done.copy_to_host(rows, np.zeros(5, np.float32))
    with pytest.raises(ValueError, match="C-contiguous arrays only"):
        done.copy_to_host(rows, np.zeros((3, 2), np.float32).T)
    done.release()
    with pytest.raises(ValueError, match="released"):
        done.copy_to_host(rows, np.zeros((2, 3), np.float32))


class _Context:
    """Like numba's context: equal by handle, so not hashable."""

    def __init__(self, handle):
        self.handle = handle

    def __eq__(self, other):
        return isinstance(other, _Context) and self.handle == other.handle


def test_a_stream_per_context_object_and_thread(monkeypatch):
    driver = pytest.importorskip("cuda.bindings.driver")
    made = []

    def create(flags):
        made.append(flags)
        return driver.CUresult.CUDA_SUCCESS, f"stream {len(made)}"

    monkeypatch.setattr(driver, "cuStreamCreate", create)
    monkeypatch.setattr(side_stream, "_streams", threading.local())
    first, again = _Context(7), _Context(7)   # the same handle, as after cuda.close()
    monkeypatch.setattr(side_stream.cuda, "current_context", lambda: first)
    assert side_stream._own_stream() == side_stream._own_stream() == "stream 1"
    monkeypatch.setattr(side_stream.cuda, "current_context", lambda: again)
    assert side_stream._own_stream() == "stream 2"
    other = []
    thread = threading.Thread(target=lambda: other.append(side_stream._own_stream()))
    thread.start()
    thread.join()
    assert other == ["stream 3"]
    assert made == [driver.CUstream_flags.CU_STREAM_NON_BLOCKING.value] * 3
