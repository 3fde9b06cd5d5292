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
from .runtime import THREADS, blocks_for


#: The 'unreachable' value of a distance type (the one rule, in :mod:`warpath.dtypes`).
infinity = unreached_value


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
    """
    return np.dtype(dtype).type(-(2 * path_length_bound(graph) + 1))


@cuda.jit
def _fill(array, value):
    i = cuda.grid(1)
    if i < array.shape[0]:
        array[i] = value


def device_full(size: int, value, dtype):
    """A device array of ``size`` copies of ``value``, filled on the GPU.

    Examples
    --------
    >>> device_full(3, -1, np.int32).copy_to_host().tolist()
    [-1, -1, -1]
    """
    dtype = np.dtype(dtype)
    array = cuda.device_array(max(size, 0), dtype=dtype)
    if size:
        _fill[blocks_for(size), THREADS](array, dtype.type(value))
    return array
