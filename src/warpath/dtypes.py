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


def distance_dtype(graph, integer_types=(np.int64,), *, keep_float32: bool = False,
                   warn: bool = True) -> np.dtype:
    """The type the distances of ``graph`` are computed in: the one rule for CPU and GPU.

    Integer weights give the narrowest of ``integer_types`` that holds every
    path length (:func:`integer_distance_dtype`), else float64 with a
    :func:`warn_inexact` warning.  Float weights give float64, or float32 for
    float32 weights with ``keep_float32``.  The CPU methods use the defaults
    (int64 / float64); the GPU methods ask for ``(np.int32, np.int64)`` and
    ``keep_float32=True``, since every byte moved costs time there.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [3])
    >>> distance_dtype(g), distance_dtype(g, (np.int32, np.int64))
    (dtype('int64'), dtype('int32'))
    >>> f = warpath.Graph.from_edges([0], [1], np.array([0.5], np.float32))
    >>> distance_dtype(f), distance_dtype(f, keep_float32=True)
    (dtype('float64'), dtype('float32'))
    """
    weights = np.dtype(graph.weights.dtype)
    if weights.kind == "f":
        return weights if keep_float32 else np.dtype(np.float64)
    exact = integer_distance_dtype(graph, integer_types)
    if exact is not None:
        return exact
    if warn:
        warn_inexact(graph)
    return np.dtype(np.float64)


def unreached_value(dtype):
    """The 'unreachable' distance of ``dtype``: its maximum for integers, ``inf`` for floats.

    Examples
    --------
    >>> int(unreached_value(np.int32)) == 2**31 - 1, float(unreached_value(np.float32))
    (True, inf)
    """
    dtype = np.dtype(dtype)
    return dtype.type(np.inf) if dtype.kind == "f" else dtype.type(np.iinfo(dtype).max)


def warn_inexact(graph) -> None:
    """Warn that integer distances are computed in float64 and may round above 2**53."""
    warnings.warn(
        f"integer weights up to {graph.max_abs_weight} on {graph.num_vertices} vertices could "
        "overflow int64 path lengths; distances are computed in float64 and are exact only "
        "below 2**53",
        RuntimeWarning,
        stacklevel=3,
    )
