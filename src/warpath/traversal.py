"""Breadth-first traversal over raw CSR arrays (numba): the one CPU BFS kernel.

Used by the ``queue`` BFS method (:mod:`warpath.bfs.queue`) and by the graph
statistics (:mod:`warpath.graph_stats`), which must not depend on a method module.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2])
>>> bfs_levels(g.indptr, g.indices, 0).tolist()
[0, 1, 2]
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


