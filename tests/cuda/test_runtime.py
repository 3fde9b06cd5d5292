"""Launch shapes and cooperative grid sizes, and the simulator's shared memory."""

import threading

import numpy as np
import pytest
from numba import cuda, typeof

from warpath.cuda import runtime


def test_blocks_for():
    assert runtime.blocks_for(0) == 1
    assert runtime.blocks_for(runtime.THREADS) == 1
    assert runtime.blocks_for(runtime.THREADS + 1) == 2


@cuda.jit
def _mark(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = 1
    cuda.cg.this_grid().sync()


def test_cooperative_blocks_fit_the_device_and_the_work():
    a = cuda.to_device(np.zeros(10, np.int32))
    blocks = runtime.cooperative_blocks(_mark, (a,), 10)
    assert blocks == 1  # 10 items need one block, and the simulator allows one
    big = cuda.to_device(np.zeros(10_000_000 if not runtime.SIMULATOR else 100, np.int32))
    blocks = runtime.cooperative_blocks(_mark, (big,), big.shape[0])
    if runtime.SIMULATOR:
        assert blocks == 1
    else:
        sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
        small = runtime.PERSISTENT_BLOCKS_PER_SM * sms
        # 10M items is more than FILL_ITEMS_PER_THREAD per thread of the small grid: the
        # grid fills the GPU (all that can be resident), beyond the small grid
        assert big.shape[0] > runtime.FILL_ITEMS_PER_THREAD * small * runtime.THREADS
        most = _mark.compile((typeof(big),)).max_cooperative_grid_blocks(runtime.THREADS)
        assert small < blocks <= most
        _mark[blocks, runtime.THREADS](big)
        assert int(big.copy_to_host().sum()) == min(big.shape[0], blocks * runtime.THREADS)
        # a middling pass keeps the small grid, and so does a large one told not to fill
        assert runtime.cooperative_blocks(_mark, (big,), 1_000_000) <= small
        assert runtime.cooperative_blocks(_mark, (big,), big.shape[0], fill=False) <= small


def test_read_small_refuses_another_size():
    with pytest.raises(ValueError, match="cannot read 3 x int64 into 2 x int64"):
        runtime.read_small(cuda.to_device(np.arange(3)), np.zeros(2, np.int64))


def test_write_small_copies_and_the_host_array_may_change_at_once():
    device = cuda.device_array(4, np.int32)
    host = np.arange(4, dtype=np.int32)
    runtime.write_small(device, host)
    host[:] = -1   # staged by the driver before the call returned
    assert device.copy_to_host().tolist() == [0, 1, 2, 3]


def test_write_small_refuses_another_size():
    import pytest

    with pytest.raises(ValueError, match="cannot write 2 x int64 into 3 x int64"):
        runtime.write_small(cuda.device_array(3, np.int64), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="cannot write 4 x int32 into 2 x int64"):
        runtime.write_small(cuda.device_array(2, np.int64), np.zeros(4, np.int32))


def test_start_read_lands_after_finish_read_and_refuses_another_size():
    import pytest

    host = runtime.pinned_buffer(3, np.int64, "test start_read")
    device = cuda.to_device(np.array([4, 5, 6], np.int64))
    runtime.start_read(device, host)
    runtime.finish_read()
    assert host.tolist() == [4, 5, 6]
    with pytest.raises(ValueError, match="cannot read 3 x int64 into 2 x int64"):
        runtime.start_read(device, np.zeros(2, np.int64))


def test_pinned_buffers_of_other_purposes_are_apart():
    plain = runtime.pinned_buffer(2, np.int64)
    assert runtime.pinned_buffer(2, np.int64) is plain
    other = runtime.pinned_buffer(2, np.int64, "pending")
    assert other is not plain
    plain[:] = 1
    other[:] = 2
    assert plain.tolist() == [1, 1]


@pytest.mark.skipif(not runtime.SIMULATOR, reason="the simulator's stand-in for shared memory")
def test_simulated_threads_whose_first_calls_interleave_share_one_shared_array():
    """Both threads look the line up before either stores its array (numba's own method then
    gave each thread an array of its own): the look-up and the store are one step."""
    from numba.cuda.simulator.kernelapi import FakeCUDAShared

    both_looked = threading.Barrier(2, timeout=0.5)

    class Allocations(dict):
        def get(self, line):
            found = super().get(line)
            try:
                both_looked.wait()  # times out while the first thread holds the lock
            except threading.BrokenBarrierError:
                pass
            return found

    shared = FakeCUDAShared(0)
    shared._allocations = Allocations()
    got = []
    threads = [threading.Thread(target=lambda: got.append(shared.array(4, np.int64)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got[0] is got[1]
