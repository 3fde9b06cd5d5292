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
from ..traversal import NO_LIMIT, bfs_queue
from ..result import BFSResult

@register("bfs", "queue", "cpu", limit=True, auto_rank=0, negative_weights=True,
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
