"""Distances on the device: infinity, the negative-cycle floor, filled arrays.

The distance *type* follows the one rule of :func:`warpath.dtypes.distance_dtype`
(the GPU asks for int32 when every path sum fits, and keeps float32).
Unreachable is the dtype's maximum for integers (the sentinel
:class:`~warpath.SSSPResult` understands) and ``inf`` for floats.

Examples
--------
>>> import numpy as np
>>> int(infinity(np.dtype(np.int32))) == 2**31 - 1
True
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..dtypes import path_length_bound, unreached_value
from .fills import fill_job, run_fills
from .launch import launch
from .runtime import SIMULATOR, THREADS, blocks_for


#: The 'unreachable' value of a distance type (the one rule, in :mod:`warpath.dtypes`).
infinity = unreached_value


@cuda.jit(device=True)
def bound_past(nearest, delta, inf):
    """A near-far bucket's next bound: ``nearest + delta``, or ``inf`` (every distance
    taken) where that sum does not lie strictly between ``nearest`` and ``inf``: a float
    too large to move by ``delta``, or an integer sum past the distance type (numba sums
    int32 values in int64, so the sum itself does not wrap).

    Examples
    --------
    >>> @cuda.jit
    ... def bounds(out):
    ...     out[0] = bound_past(np.int32(10), np.int32(5), np.int32(100))
    ...     out[1] = bound_past(np.int32(98), np.int32(5), np.int32(100))
    >>> out = cuda.to_device(np.zeros(2, np.int32))
    >>> bounds[1, 1](out); out.copy_to_host().tolist()
    [15, 100]
    """
    moved = nearest + delta
    return moved if nearest < moved < inf else inf


def floor_value(graph, dtype):
    """A distance below every simple path's length: reaching it proves a negative cycle.

    Twice the simple-path bound, minus one; with the margin that
    :func:`~warpath.dtypes.integer_distance_dtype` keeps, ``floor + weight``
    cannot overflow an integer type.  Relax steps refuse to go below it, so
    distances stay bounded while a negative cycle is being detected.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [5, -7])
    >>> int(floor_value(g, np.dtype(np.int32)))
    -29
    >>> int(floor_value(warpath.Graph.from_edges([0], [1], [2**30]), np.dtype(np.int32)))
    -2147483648
    """
    dtype = np.dtype(dtype)
    floor = -(2 * path_length_bound(graph) + 1)
    if dtype.kind == "i":
        # Distances of a type chosen elsewhere (BFS levels, a recording pass) need no floor
        # below their type: clip instead of overflowing (the SSSP rule leaves the margin).
        floor = max(floor, int(np.iinfo(dtype).min))
    return dtype.type(floor)


def device_full(size: int, value, dtype, at: int = -1, at_value=0):
    """A device array of ``size`` copies of ``value`` (``at_value`` at index ``at`` when
    ``at >= 0``), filled on the GPU by one fill job (:mod:`warpath.cuda.fills`): one
    launch, nothing uploaded, whatever ``size``.

    Examples
    --------
    >>> device_full(3, -1, np.int32).copy_to_host().tolist()
    [-1, -1, -1]
    >>> device_full(4, 0, np.uint8, at=2, at_value=1).copy_to_host().tolist()
    [0, 0, 1, 0]
    """
    array = cuda.device_array(max(size, 0), dtype=np.dtype(dtype))
    if size > 0:   # one fill job (an index beyond the array is no exception)
        run_fills([fill_job(array, size, value, at if at < size else -1, at_value)])
    return array


def rows_of(matrix, rows, keepdims: bool = False):
    """Views of ``rows`` of the C-contiguous 2-D device array ``matrix``: one-dimensional,
    or of shape (1, n) with ``keepdims``.

    Made directly over its memory: numba's indexing of a device array costs
    tens of microseconds of host time (H100 host), several times a query.

    Examples
    --------
    >>> m = cuda.to_device(np.array([[1, 1, 1], [2, 2, 2]], np.int32))
    >>> [row.copy_to_host().tolist() for row in rows_of(m, (1, 0))]
    [[2, 2, 2], [1, 1, 1]]
    >>> rows_of(m, (0,), keepdims=True)[0].shape
    (1, 3)
    """
    if SIMULATOR or not matrix.flags["C_CONTIGUOUS"]:
        return tuple(matrix[r:r + 1] if keepdims else matrix[r] for r in rows)
    from numba.cuda.cudadrv.devicearray import DeviceNDArray

    length, item = matrix.shape[1], matrix.dtype.itemsize
    row_bytes = length * item
    shape, strides = ((1, length), (row_bytes, item)) if keepdims else ((length,), (item,))
    return tuple(DeviceNDArray(shape, strides, matrix.dtype,
                               gpu_data=matrix.gpu_data.view(r * row_bytes, (r + 1) * row_bytes))
                 for r in rows)


@cuda.jit
def _unreach_beyond(row, limit, inf):
    v = cuda.grid(1)
    if v < row.shape[0] and row[v] > limit:
        row[v] = inf


def unreach_beyond(row, limit, inf) -> None:
    """Distances above ``limit`` become ``inf`` (unreachable), in place on the GPU.

    Examples
    --------
    >>> row = cuda.to_device(np.array([0, 5, 9], np.int32))
    >>> unreach_beyond(row, 6, np.int32(99)); row.copy_to_host().tolist()
    [0, 5, 99]
    """
    limit = float(limit)
    launch(_unreach_beyond, blocks_for(row.shape[0]), THREADS, (row, limit, inf))
