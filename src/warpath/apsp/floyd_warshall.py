"""Blocked (tiled) Floyd-Warshall on the CPU, with predecessors.

The n x n matrix is cut into ``tile x tile`` blocks and each round ``kb`` of
pivots runs in the three phases of Venkataraman et al.'s blocked algorithm
(the scheme the GPU APSP papers tile for shared memory): (1) the diagonal
block, (2) the blocks of pivot row and column ``kb``, (3) every other block,
which reads only finished phase-2 blocks, so its loops may run i-k-j with
``D[i, k]`` held in a register and the row ``D[k, :]`` streamed.  A 64 x 64
tile of int64 is 32 KiB: three of them stay in L2.

Negative weights are allowed.  A negative cycle makes the matrix undefined
(and integer sums could overflow), so graphs with negative weights first get
a Bellman-Ford pass from a virtual source (as Johnson's potentials), which
raises :class:`~warpath.NegativeCycleError` with the cycle's vertices.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 2, 3])
>>> warpath.apsp(g, method="floyd-warshall").distances.tolist()
[[0.0, 1.0, 3.0], [5.0, 0.0, 2.0], [3.0, 4.0, 0.0]]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import OptionError
from ..methods import register
from ..result import DistanceMatrix
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import distance_dtype, unreached_value
from .memory import matrix_bytes, workspace_bytes

TILE = 64


@njit(cache=True)
def _initial_matrices(indptr, indices, weights, dist, pred):
    """Arc weights (the lightest of parallel arcs), 0 on the diagonal, the tail as predecessor."""
    n = dist.shape[0]
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            w = weights[e]
            if w < dist[u, v]:
                dist[u, v] = w
                pred[u, v] = u
        if dist[u, u] >= 0:  # a non-negative self-loop never shortens the empty path
            dist[u, u] = 0
            pred[u, u] = -1


@njit(cache=True)
def _pivot_block(dist, pred, k0, k1, i0, i1, j0, j1, marker):
    """Relax block [i0:i1, j0:j1] through pivots k0..k1-1, pivot-major (phases 1 and 2)."""
    for k in range(k0, k1):
        for i in range(i0, i1):
            d_ik = dist[i, k]
            if d_ik == marker:
                continue
            for j in range(j0, j1):
                d_kj = dist[k, j]
                if d_kj != marker and d_ik + d_kj < dist[i, j]:
                    dist[i, j] = d_ik + d_kj
                    pred[i, j] = pred[k, j]


@njit(cache=True)
def _outer_block(dist, pred, k0, k1, i0, i1, j0, j1, marker):
    """Relax block [i0:i1, j0:j1] through pivots k0..k1-1, row-major (phase 3).

    Valid because the pivot row and column blocks are final for this round.
    """
    for i in range(i0, i1):
        for k in range(k0, k1):
            d_ik = dist[i, k]
            if d_ik == marker:
                continue
            for j in range(j0, j1):
                d_kj = dist[k, j]
                if d_kj != marker and d_ik + d_kj < dist[i, j]:
                    dist[i, j] = d_ik + d_kj
                    pred[i, j] = pred[k, j]


@njit(cache=True)
def blocked_floyd_warshall(dist, pred, tile, marker):
    """In-place blocked Floyd-Warshall over ``dist`` (unreachable = ``marker``) and ``pred``."""
    n = dist.shape[0]
    for k0 in range(0, n, tile):
        k1 = min(k0 + tile, n)
        _pivot_block(dist, pred, k0, k1, k0, k1, k0, k1, marker)
        for b0 in range(0, n, tile):
            if b0 == k0:
                continue
            b1 = min(b0 + tile, n)
            _pivot_block(dist, pred, k0, k1, k0, k1, b0, b1, marker)  # pivot rows
            _pivot_block(dist, pred, k0, k1, b0, b1, k0, k1, marker)  # pivot columns
        for i0 in range(0, n, tile):
            if i0 == k0:
                continue
            i1 = min(i0 + tile, n)
            for j0 in range(0, n, tile):
                if j0 == k0:
                    continue
                _outer_block(dist, pred, k0, k1, i0, i1, j0, min(j0 + tile, n), marker)


def memory(graph, rows, predecessors):
    """The ``memory=`` hook: the n x n distance and predecessor matrices live while it runs
    (predecessors or not), plus the rows asked for when they are not all of them."""
    n = graph.num_vertices
    extra = matrix_bytes(rows, n, predecessors) if rows != n else 0
    return matrix_bytes(n, n, True) + extra + workspace_bytes(graph), 0


@register("apsp", "floyd-warshall", "cpu", negative_weights=True, auto_rank=1,
          summary="blocked Floyd-Warshall with predecessors (numba)", options=("tile",),
          memory=memory)
def floyd_warshall(graph, sources, *, predecessors=True, tile=TILE):
    """All-pairs shortest paths by blocked Floyd-Warshall, called through :func:`warpath.apsp`.

    O(n**3) time and O(n**2) memory whatever the number of arcs: the method
    of choice for small dense graphs; Johnson (the CPU default) wins on
    sparse ones.

    Parameters
    ----------
    graph : Graph
    sources : ndarray of int64
        ``arange(n)`` (all pairs).
    predecessors : bool
    tile : int
        Block edge length (64: three int64 tiles fit in L2).

    Returns
    -------
    DistanceMatrix
        ``stats["iterations"]`` is n (pivots), ``stats["relaxations"]`` the
        n**3 pair updates tried.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle (``.cycle`` holds one).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [2, -1, 4])
    >>> m = floyd_warshall(g, np.arange(3))
    >>> m.distances.tolist(), m.path(2, 1).tolist()
    ([[0.0, 2.0, 1.0], [3.0, 0.0, -1.0], [4.0, 6.0, 0.0]], [2, 0, 1])
    """
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)) or tile < 1:
        raise OptionError(f"tile must be a positive integer, not {tile!r}")
    n = graph.num_vertices
    dtype = distance_dtype(graph)
    if graph.has_negative_weights:
        run_bellman_ford(graph, np.arange(n), dtype)  # raises on a negative cycle
    marker = dtype.type(unreached_value(dtype))
    dist = np.full((n, n), marker, dtype=dtype)
    pred = np.full((n, n), -1, dtype=np.int64)
    _initial_matrices(graph.indptr, graph.indices, graph.weights, dist, pred)
    blocked_floyd_warshall(dist, pred, int(tile), marker)
    full = np.arange(n, dtype=np.int64)
    rows = np.asarray(sources, dtype=np.int64)
    if not np.array_equal(rows, full):
        dist, pred = dist[rows], pred[rows]
    return DistanceMatrix(rows, dist, pred if predecessors else None,
                          stats={"iterations": n, "relaxations": n ** 3})
