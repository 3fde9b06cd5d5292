"""Distances on the device: their type, infinity, initialisation and the negative-cycle floor.

Distances stay in the weights' own type family: integer weights give int32
distances when every path sum fits (:func:`warpath.dtypes.integer_distance_dtype`),
else int64, else float64 with a warning; float32 and float64 weights keep
their type.  Unreachable is the dtype's maximum for integers (the sentinel
:class:`~warpath.SSSPResult` understands) and ``inf`` for floats.

Examples
--------
>>> import numpy as np, warpath
>>> distance_dtype(warpath.Graph.from_edges([0], [1], [3]))
dtype('int32')
>>> int(infinity(np.dtype(np.int32))) == 2**31 - 1
True
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..dtypes import integer_distance_dtype, path_length_bound, warn_inexact
from .runtime import THREADS, blocks_for


def distance_dtype(graph) -> np.dtype:
    """The distance type for ``graph`` (a Graph or a DeviceGraph).

    Examples
    --------
    >>> import warpath
    >>> distance_dtype(warpath.Graph.from_edges([0], [1], [0.5]))
    dtype('float64')
    """
    kind = np.dtype(graph.weights.dtype)
    if kind.kind == "f":
        return kind
    dtype = integer_distance_dtype(graph, (np.int32, np.int64))
    if dtype is None:
        warn_inexact(graph)
        return np.dtype(np.float64)
    return dtype


def infinity(dtype):
    """The 'unreachable' value of a distance type: its maximum for integers, ``inf`` for floats.

    Examples
    --------
    >>> float(infinity(np.dtype(np.float32)))
    inf
    """
    dtype = np.dtype(dtype)
    return dtype.type(np.inf) if dtype.kind == "f" else dtype.type(np.iinfo(dtype).max)


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
def _init_distances(d, source, inf):
    v = cuda.grid(1)
    if v < d.shape[0]:
        d[v] = 0 if v == source else inf


def new_distances(num_vertices: int, source: int, dtype):
    """A device array of distances: 0 at ``source``, infinity elsewhere (Agarwal Alg. 2).

    Examples
    --------
    >>> new_distances(3, 1, np.int32).copy_to_host().tolist()
    [2147483647, 0, 2147483647]
    """
    dtype = np.dtype(dtype)
    d = cuda.device_array(num_vertices, dtype=dtype)
    _init_distances[blocks_for(num_vertices), THREADS](d, source, infinity(dtype))
    return d


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
