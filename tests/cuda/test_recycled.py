"""Result memory recycled once a result is dropped, and direct row views."""

import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.distances import rows_of
from warpath.cuda.recycled import KEEP, free_blocks, recycled_array, recycled_rows
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


def test_recycled_rows_are_separate_one_dimensional_arrays():
    levels, parents = recycled_rows(2, 5, np.int32)
    assert levels.shape == parents.shape == (5,) and levels.dtype == np.int32
    levels.copy_to_device(np.arange(5, dtype=np.int32))
    parents.copy_to_device(np.full(5, -1, np.int32))
    assert levels.copy_to_host().tolist() == [0, 1, 2, 3, 4]
    assert parents.copy_to_host().tolist() == [-1] * 5
    assert [row.shape for row in recycled_rows(1, 0, np.int64)] == [(0,)]


#: Run without the simulator, on numba's own device arrays over made-up addresses: the
#: driver is never called (blocks come from a stub), so the pool's bookkeeping is checked
#: on a machine without a GPU too.
_ROWS_ON_THE_CPU = """
import gc
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.devicearray import DeviceNDArray
from numba.cuda.cudadrv.driver import MemoryPointer, binding
from warpath.cuda import launch, recycled

context, made = object(), []

def block(nbytes, dtype):
    made.append((1 + len(made)) << 32)
    memory = MemoryPointer(context, binding.CUdeviceptr(made[-1]), nbytes)
    return DeviceNDArray((nbytes,), (1,), np.uint8, gpu_data=memory)

cuda.device_array = block
address = lambda row: int(row.device_ctypes_pointer.value)
levels, parents = recycled.recycled_rows(2, 1000, np.int32, context)
assert (address(levels), address(parents)) == (made[0], made[0] + 4000)
for row in (levels, parents):
    kept = row.__dict__.pop("_warpath_launch_share")
    assert kept == launch._array_share(row), (kept, launch._array_share(row))
del row, levels
gc.collect()
assert recycled.free_blocks() == 0   # parents still use the block
other, = recycled.recycled_rows(1, 2000, np.int32, context)
assert address(other) == made[1]
del parents
gc.collect()
assert recycled.free_blocks() == 1
again = recycled.recycled_rows(2, 1000, np.int32, context)
assert address(again[0]) == made[0] and recycled.free_blocks() == 0 and len(made) == 2
print("ok")
"""


def test_rows_share_one_block_that_comes_back_when_both_are_dropped():
    environment = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    source = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [source,
                                                                environment.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_ROWS_ON_THE_CPU)],
                          env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.gpu
def test_recycled_rows_on_the_gpu_share_a_block_until_both_are_dropped():
    release_all()
    levels, parents = recycled_rows(2, 1000, np.int32)
    assert _address(parents) == _address(levels) + 4000
    levels.copy_to_device(np.zeros(1000, np.int32))
    parents.copy_to_device(np.ones(1000, np.int32))
    assert levels.copy_to_host().sum() == 0 and parents.copy_to_host().sum() == 1000
    address = _address(levels)
    del levels
    gc.collect()
    assert free_blocks() == 0
    del parents
    gc.collect()
    assert free_blocks() == 1 and _address(recycled_rows(2, 1000, np.int32)[0]) == address


@pytest.mark.gpu
def test_release_all_also_lets_go_of_the_rows_a_kept_run_made_for_its_next_query():
    """A pooled BFS run holds the next query's rows; letting the run go gives their block
    back to the recycled pool, which release_all empties too, whatever the pools' order."""
    import warpath

    g = warpath.generators.rmat(8, 8, seed=1, directed=False)
    result = warpath.bfs(g, 0, method="queue", device="cuda")
    del result
    gc.collect()
    assert free_blocks() >= 1   # the result's block came back
    release_all()
    gc.collect()
    assert free_blocks() == 0
