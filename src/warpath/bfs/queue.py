"""Breadth-first search on the CPU: a FIFO queue in numba.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1, 3], [1, 2, 3, 4])
>>> warpath.bfs(g, 0, method="queue").levels.tolist()
[0, 1, 1, 2, 3]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..methods import register
from ..result import BFSResult

NO_LIMIT = np.iinfo(np.int64).max


@njit(cache=True)
def bfs_queue(indptr, indices, source, parents, max_level):
    """FIFO BFS from ``source``; returns ``(levels, num_levels, arcs_scanned)``.

    ``levels`` is int64 with -1 for vertices not reached (or beyond
    ``max_level``).  ``parents`` is length n (filled with -1 by the caller)
    or length 0 when not wanted.  ``num_levels`` counts the levels expanded.
    """
    n = indptr.shape[0] - 1
    levels = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    want_parents = parents.shape[0] > 0
    levels[source] = 0
    queue[0] = source
    head = 0
    tail = 1
    arcs = 0
    expanded = 0
    while head < tail:
        u = queue[head]
        head += 1
        next_level = levels[u] + 1
        if next_level > max_level:
            break  # FIFO order: every vertex left in the queue is at max_level too
        if next_level > expanded:
            expanded = next_level
        lo = indptr[u]
        hi = indptr[u + 1]
        arcs += hi - lo
        for e in range(lo, hi):
            v = indices[e]
            if levels[v] < 0:
                levels[v] = next_level
                if want_parents:
                    parents[v] = u
                queue[tail] = v
                tail += 1
    return levels, expanded, arcs


@njit(cache=True)
def bfs_levels(indptr, indices, source):
    """The BFS level (hop distance) of every vertex from ``source``, -1 where unreachable.

    A numba function over raw CSR arrays, for use inside other kernels and
    for graph statistics (:func:`warpath.graph_stats.approximate_diameter`).

    Parameters
    ----------
    indptr, indices : arrays of int
        The CSR offsets and arc heads (``graph.indptr``, ``graph.indices``).
    source : int

    Returns
    -------
    ndarray of int64

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2])
    >>> bfs_levels(g.indptr, g.indices, 1).tolist()
    [-1, 0, 1]
    """
    return bfs_queue(indptr, indices, source, np.empty(0, np.int64), NO_LIMIT)[0]


@register("bfs", "queue", "cpu", limit=True, auto_rank=0,
          summary="FIFO-queue breadth-first search (numba)")
def bfs(graph, source, *, predecessors=True, limit=None):
    """Breadth-first search levels and parents, called through :func:`warpath.bfs`.

    Parameters
    ----------
    graph : Graph
        Weights are ignored.
    source : int
    predecessors : bool
        Whether to record BFS parents.
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.

    Returns
    -------
    BFSResult
        ``stats["iterations"]`` counts the frontiers (levels) expanded,
        ``stats["relaxations"]`` the arcs scanned.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 3])
    >>> r = bfs(g, 0, limit=2)
    >>> r.levels.tolist(), r.path(2).tolist()
    ([0, 1, 2, -1], [0, 1, 2])
    """
    max_level = NO_LIMIT if limit is None else int(min(np.floor(limit), NO_LIMIT))
    parents = np.full(graph.num_vertices if predecessors else 0, -1, dtype=np.int64)
    levels, expanded, arcs = bfs_queue(graph.indptr, graph.indices, source, parents, max_level)
    return BFSResult(source, levels, parents if predecessors else None,
                     stats={"iterations": int(expanded), "relaxations": int(arcs)})
