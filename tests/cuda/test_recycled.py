"""Result memory recycled once a result is dropped, and direct row views."""

import gc

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.distances import rows_of
from warpath.cuda.recycled import KEEP, free_blocks, recycled_array
from warpath.cuda.scratch import release_all


def _address(array) -> int:
    return int(array.device_ctypes_pointer.value or 0)


def test_recycled_arrays_hold_what_is_written():
    a = recycled_array((2, 5), np.int32)
    assert a.shape == (2, 5) and a.strides == (20, 4) and a.dtype == np.int32
    a.copy_to_device(np.arange(10, dtype=np.int32).reshape(2, 5))
    assert a.copy_to_host().tolist() == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert recycled_array(0, np.float64).shape == (0,)


def test_rows_of_matches_numba_indexing():
    pair = cuda.to_device(np.array([[3, 3, 0, 3, 3, 3], [-1] * 6], np.int64))
    first, second = rows_of(pair, (0, 1))
    assert first.copy_to_host().tolist() == pair[0].copy_to_host().tolist() == [3, 3, 0, 3, 3, 3]
    assert second.copy_to_host().tolist() == [-1] * 6
    kept, = rows_of(pair, (1,), keepdims=True)
    assert kept.shape == (1, 6) and kept.copy_to_host().tolist() == [[-1] * 6]
    second.copy_to_device(np.arange(6, dtype=np.int64))   # a view: writes reach the pair
    assert pair.copy_to_host()[1].tolist() == list(range(6))


@pytest.mark.gpu
def test_memory_comes_back_only_when_every_view_is_gone():
    release_all()
    a = recycled_array((2, 1000), np.int32)
    address = _address(a)
    row, = rows_of(a, (1,))
    del a
    gc.collect()
    assert free_blocks() == 0   # the row still uses the block
    other = recycled_array((2, 1000), np.int32)
    assert _address(other) != address
    del row
    gc.collect()
    assert free_blocks() == 1
    again = recycled_array((2, 1000), np.int32)   # same size: the block comes back
    assert _address(again) == address and free_blocks() == 0
    assert _address(recycled_array((3, 1000), np.int32)) != address   # another size: new


@pytest.mark.gpu
def test_at_most_keep_free_blocks_per_size_and_release_all_lets_them_go():
    release_all()
    arrays = [recycled_array(4096, np.float32) for _ in range(KEEP + 3)]
    del arrays
    gc.collect()
    assert free_blocks() == KEEP
    assert release_all() >= KEEP and free_blocks() == 0
    cuda.synchronize()
