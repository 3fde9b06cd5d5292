"""Launch shapes and cooperative grid sizes."""

import numpy as np
from numba import cuda

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
        assert 1 <= blocks <= runtime.PERSISTENT_BLOCKS_PER_SM * sms
        _mark[blocks, runtime.THREADS](big)
        assert int(big.copy_to_host().sum()) == min(big.shape[0], blocks * runtime.THREADS)
