"""Integer and distance type rules, in one place.

Vertex indices and CSR offsets are int32 while they fit and int64 beyond;
integer distances are summed in a type that cannot overflow on any simple
path, or the caller is told that it could.

Examples
--------
>>> import numpy as np
>>> index_dtype(1000) is np.dtype(np.int32)
True
>>> index_dtype(2**31) is np.dtype(np.int64)
True
"""

from __future__ import annotations

import warnings

import numpy as np

INT32_MAX = np.iinfo(np.int32).max

WEIGHT_DTYPES = (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float32), np.dtype(np.float64))


def index_dtype(count: int) -> np.dtype:
    """The index type for arrays that must hold values up to ``count``: int32 while it fits.

    Examples
    --------
    >>> index_dtype(5)
    dtype('int32')
    """
    return np.dtype(np.int32) if count <= INT32_MAX else np.dtype(np.int64)


def weight_dtype(dtype) -> np.dtype:
    """Map any numeric dtype onto one of the four weight types warpath keeps.

    Small signed integers widen to int32, unsigned ones to the next signed
    type that holds them, booleans to int32, float16 to float32.

    Examples
    --------
    >>> weight_dtype(np.uint32)
    dtype('int64')
    >>> weight_dtype(np.float64)
    dtype('float64')
    """
    dtype = np.dtype(dtype)
    if dtype in WEIGHT_DTYPES:
        return dtype
    if dtype == np.bool_ or dtype.kind == "i" and dtype.itemsize < 4:
        return np.dtype(np.int32)
    if dtype.kind == "u":
        return np.dtype(np.int32) if dtype.itemsize < 4 else np.dtype(np.int64)
    if dtype.kind == "f":
        return np.dtype(np.float32) if dtype.itemsize <= 4 else np.dtype(np.float64)
    raise TypeError(f"weights of type {dtype} are not supported (use integers or floats)")


def path_length_bound(graph) -> float:
    """An upper bound on the absolute length of any simple path: max |w| * (n - 1).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [5, -7])
    >>> path_length_bound(g)
    14.0
    """
    return float(graph.max_abs_weight) * max(graph.num_vertices - 1, 1)


def integer_distance_dtype(graph, candidates=(np.int32, np.int64)):
    """The narrowest integer type among ``candidates`` that holds every path length.

    With negative weights a Bellman-Ford pass can see walks of up to n edges
    before it detects a negative cycle, so the bound gets one edge of margin
    and a factor of two.  Returns ``None`` for float weights, or when no
    candidate is wide enough (then the caller computes in float64 and should
    call :func:`warn_inexact`).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [3])
    >>> integer_distance_dtype(g)
    dtype('int32')
    >>> big = warpath.Graph.from_edges([0, 1], [1, 2], [2**40, 2**40])
    >>> integer_distance_dtype(big)
    dtype('int64')
    """
    if graph.weights.dtype.kind != "i":
        return None
    bound = 2.0 * float(graph.max_abs_weight) * (graph.num_vertices + 1)
    for candidate in candidates:
        if bound < np.iinfo(candidate).max:
            return np.dtype(candidate)
    return None


def warn_inexact(graph) -> None:
    """Warn that integer distances are computed in float64 and may round above 2**53."""
    warnings.warn(
        f"integer weights up to {graph.max_abs_weight} on {graph.num_vertices} vertices could "
        "overflow int64 path lengths; distances are computed in float64 and are exact only "
        "below 2**53",
        RuntimeWarning,
        stacklevel=3,
    )
