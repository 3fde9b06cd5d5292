"""Block-wide prefix sums and searches in shared memory, for load-balanced expansion.

A block that expands a chunk of frontier vertices together needs, for each
vertex, where its arcs start in the chunk's run of arcs (a prefix sum of the
degrees), and each thread, given an arc's position in that run, needs the
vertex it belongs to (a search in the prefix sums).  Both work on a shared
array of one entry per thread of the block.

On the GPU the scan goes warp by warp with shuffles, then adds the warps'
totals; the simulator has no shuffles, so there it is the plain doubling
scan over the shared array (the same result, more barriers).

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def prefix(values, out, total):
...     ends = cuda.shared.array(32, np.int64)
...     t = cuda.threadIdx.x
...     total[0] = block_inclusive_scan(ends, t, values[t])
...     out[t] = ends[t]
>>> values = np.arange(32, dtype=np.int64) % 3
>>> out, total = cuda.device_array(32, np.int64), cuda.device_array(1, np.int64)
>>> prefix[1, 32](cuda.to_device(values), out, total)
>>> bool((out.copy_to_host() == np.cumsum(values)).all()), int(total.copy_to_host()[0])
(True, 31)
"""

from __future__ import annotations

from numba import cuda

from .runtime import SIMULATOR

if SIMULATOR:
    @cuda.jit(device=True)
    def block_inclusive_scan(ends, tid, value):
        """Fill ``ends[t]`` with the sum of the values of threads 0..t of the block
        (``ends`` is shared, one entry per thread; every thread calls it) and return
        the block's total.  Simulator: the doubling scan (see the module example)."""
        ends[tid] = value
        cuda.syncthreads()
        offset = 1
        size = cuda.blockDim.x
        while offset < size:
            before = ends[tid - offset] if tid >= offset else 0
            cuda.syncthreads()
            ends[tid] += before
            cuda.syncthreads()
            offset *= 2
        return ends[size - 1]
else:
    @cuda.jit(device=True)
    def block_inclusive_scan(ends, tid, value):
        """Fill ``ends[t]`` with the sum of the values of threads 0..t of the block
        (``ends`` is shared, one entry per thread, at least 32 entries; every thread
        calls it) and return the block's total; see the module example.

        Each warp scans its 32 values with ``shfl_up_sync`` (5 steps), the last
        lane of each warp writes the warp's total at the warp's last entry, and
        after one barrier each thread adds the totals of the warps before its own
        (at most 7 reads of shared memory for 256 threads), then writes its sum
        back.  Three barriers in all.
        """
        lane = tid % 32
        offset = 1
        while offset < 32:
            before = cuda.shfl_up_sync(0xFFFFFFFF, value, offset)
            if lane >= offset:
                value += before
            offset *= 2
        ends[tid] = value
        cuda.syncthreads()
        for warp_end in range(31, tid - lane, 32):  # the last entry of each earlier warp
            value += ends[warp_end]
        cuda.syncthreads()
        ends[tid] = value
        cuda.syncthreads()
        return ends[cuda.blockDim.x - 1]


@cuda.jit(device=True)
def upper_bound(ends, low, high, k):
    """The first index ``j`` in ``[low, high)`` with ``ends[j] > k`` (``ends`` non-decreasing
    there and ``ends[high - 1] > k``): the vertex that owns arc ``k`` of the chunk's run.

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def owners(ends, out):
    ...     out[cuda.threadIdx.x] = upper_bound(ends, 0, ends.shape[0], cuda.threadIdx.x)
    >>> ends, out = cuda.to_device(np.array([2, 2, 5, 6])), cuda.device_array(6, np.int64)
    >>> owners[1, 6](ends, out); out.copy_to_host().tolist()
    [0, 0, 2, 2, 2, 3]
    """
    high -= 1
    while low < high:
        middle = (low + high) // 2
        if ends[middle] > k:
            high = middle
        else:
            low = middle + 1
    return low


__all__ = ["block_inclusive_scan", "upper_bound"]
