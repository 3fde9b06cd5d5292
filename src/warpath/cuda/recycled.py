"""Device memory for results, given back for the next query once a result is dropped.

A result keeps its arrays (a BFS's levels and parents, an SSSP's distances),
so they cannot come from the scratch pool (:mod:`warpath.cuda.scratch`), which
lends working arrays for the length of one query.  A new allocation each time
is costly: on the H100 host a (2, 4M) int32 array took 97 us of host time
(median) and 162 us on average, numba's batched frees included, a tenth of a
warm BFS query on rmat(22, 16) (docs/performance.md).

:func:`recycled_array` hands out an array over a block of device memory that
goes back to a pool when the array and every view of it are
garbage-collected; the next query of the same host thread, GPU context and size
takes it.  :func:`recycled_rows` hands out one-dimensional rows side by side in
one block (a BFS's levels and parents), made directly over its memory: no
two-dimensional array and no numba view of it (a view's owned-pointer
bookkeeping cost ~28 us of host time per query on the H100 host).
A block is only ever reused by the thread that allocated it, so its kernels
are ordered after those of the query that used it before, on that thread's
stream.  At most :data:`KEEP` free blocks are kept per thread and size;
:func:`~warpath.cuda.scratch.release_all` lets them all go (the out-of-memory
retry and the memory estimates call it).  Under the CUDA simulator the arrays
are plain allocations.

Examples
--------
>>> import numpy as np
>>> a = recycled_array((2, 3), np.int32)
>>> a.shape, a.dtype
((2, 3), dtype('int32'))
"""

from __future__ import annotations

import functools
import math
import threading

import numpy as np
from numba import cuda

from .launch import vector_share
from .runtime import SIMULATOR
from .scratch import ScratchPool, retry_out_of_memory

#: Free blocks kept per host thread and size.
KEEP = 2

#: The free blocks, by (allocating thread, ("result", context id, bytes)).
_BLOCKS = ScratchPool()


def recycled_array(shape, dtype):
    """A C-contiguous device array of ``shape`` and ``dtype`` over recycled memory (see the
    module notes); its contents are undefined, as ``cuda.device_array``'s are.

    Parameters
    ----------
    shape : int or tuple of int
    dtype : numpy dtype

    Returns
    -------
    device array

    Examples
    --------
    >>> import numpy as np
    >>> a = recycled_array(4, np.int64)
    >>> a.copy_to_device(np.arange(4)); a.copy_to_host().tolist()
    [0, 1, 2, 3]
    """
    dtype = np.dtype(dtype)   # plain Python on the shapes: numpy's calls cost microseconds
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(map(int, shape))
    size = math.prod(shape)
    if SIMULATOR or size == 0:
        return retry_out_of_memory(lambda: cuda.device_array(shape, dtype=dtype))
    from numba.cuda.cudadrv.devicearray import DeviceNDArray

    memory = _taken_block(cuda.current_context(), size * dtype.itemsize)
    strides = tuple(math.prod(shape[i + 1:]) * dtype.itemsize for i in range(len(shape)))
    return DeviceNDArray(shape, strides, dtype, gpu_data=memory)


def recycled_rows(rows: int, length: int, dtype, context=None) -> tuple:
    """``rows`` one-dimensional device arrays of ``length`` items of ``dtype``, side by side
    in one recycled block (see the module notes), which goes back to the pool only once
    every row is dropped; their contents are undefined.

    Parameters
    ----------
    rows, length : int
    dtype : numpy dtype
    context : numba Context, optional
        The GPU context the rows serve (e.g. the one a caller's device state was made in,
        kept by it: ``cuda.current_context()`` costs ~5 us of host time); the current one
        when not given.

    Returns
    -------
    tuple of device arrays
        Each C-contiguous, its launch parameters already computed
        (:func:`~warpath.cuda.launch.vector_share`).

    Examples
    --------
    >>> import numpy as np
    >>> levels, parents = recycled_rows(2, 3, np.int32)
    >>> levels.copy_to_device(np.arange(3, dtype=np.int32))
    >>> levels.shape, parents.dtype, levels.copy_to_host().tolist()
    ((3,), dtype('int32'), [0, 1, 2])
    """
    dtype, rows, length = np.dtype(dtype), int(rows), int(length)
    if SIMULATOR or rows * length == 0:   # plain memory; rows of one array, as on a GPU
        pair = retry_out_of_memory(lambda: cuda.device_array((rows, length), dtype=dtype))
        return tuple(pair[r] for r in range(rows))
    from numba.cuda.cudadrv.devicearray import DeviceNDArray
    from numba.cuda.cudadrv.driver import MemoryPointer, binding

    context = cuda.current_context() if context is None else context
    row_bytes = length * dtype.itemsize
    # Each row's memory holds the whole block's (its owner): the block's finalizer runs,
    # giving it back, once the last row is gone.
    whole = _taken_block(context, rows * row_bytes)
    base, strides, out = int(whole.device_pointer), (dtype.itemsize,), []
    for r in range(rows):
        address = base + r * row_bytes
        row = DeviceNDArray((length,), strides, dtype, gpu_data=MemoryPointer(
            context, binding.CUdeviceptr(address), row_bytes, owner=whole))
        row._warpath_launch_share = vector_share(dtype, length, address)
        out.append(row)
    return tuple(out)


def _taken_block(context, nbytes: int):
    """A numba memory pointer over a free block of ``nbytes`` of ``context`` (made when the
    pool has none), whose finalizer gives the block back to this thread's pool."""
    from numba.cuda.cudadrv.driver import MemoryPointer

    key = ("result", id(context), nbytes)   # a block serves the context it was made in
    block = _BLOCKS.take(key, lambda: cuda.device_array(nbytes, dtype=np.uint8))
    return MemoryPointer(context, block.gpu_data.device_pointer, nbytes,
                         finalizer=functools.partial(_give_back, key, block,
                                                     threading.get_ident()))


def _give_back(key, block, thread: int) -> None:
    """The finalizer of an array's memory: its block is free again for ``thread``."""
    _BLOCKS.give(key, block, thread=thread, keep=KEEP)


def free_blocks() -> int:
    """How many free blocks the pool holds now (all threads and sizes).

    Examples
    --------
    >>> free_blocks() >= 0
    True
    """
    return len(_BLOCKS)
