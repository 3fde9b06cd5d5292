"""Breadth-first searches in networkx's order, in numba.

networkx's unweighted functions expand one level at a time, scanning each
node's neighbours in adjacency order: a FIFO queue visits nodes in the same
order, and a node's path goes through the node that discovered it.  The
level loop runs while ``cutoff > level``, so a cutoff of 1.5 still reaches
level 2; :func:`bfs_scan` keeps that rule.  :func:`bidirectional_bfs` follows
``_bidirectional_pred_succ``: it grows the smaller fringe (the forward one on
a tie) and stops at the first node both searches have met.

Examples
--------
>>> import numpy as np
>>> run = bfs_scan(np.array([0, 2, 3, 3]), np.array([2, 1, 2]), 0)
>>> run.order.tolist(), run.level.tolist(), run.parent.tolist()
([0, 2, 1], [0, 1, 1], [-1, 0, 0])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

ABSENT = -2  # not met by a bidirectional search (-1 is networkx's ``None``: the start)


@njit(cache=True)
def _bfs_kernel(indptr, indices, source, cutoff):
    n = indptr.shape[0] - 1
    level = np.full(n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    order[0] = source
    level[source] = 0
    head = 0
    tail = 1
    while head < tail:
        v = order[head]
        head += 1
        if not level[v] < cutoff:
            continue  # networkx stops expanding once the level reaches the cutoff
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            if level[w] < 0:
                level[w] = level[v] + 1
                parent[w] = v
                order[tail] = w
                tail += 1
    return order[:tail], level, parent


class BFSRun(NamedTuple):
    """One networkx-order BFS: ``order`` (discovery order), ``level`` (-1 unreached), ``parent``.

    Examples
    --------
    >>> import numpy as np
    >>> run = bfs_scan(np.array([0, 1, 1]), np.array([1]), 0)
    >>> run.order.tolist(), run.level.tolist(), run.parent.tolist()
    ([0, 1], [0, 1], [-1, 0])
    """

    order: np.ndarray
    level: np.ndarray
    parent: np.ndarray


def bfs_scan(indptr, indices, source: int, cutoff=None) -> BFSRun:
    """BFS from ``source`` as networkx's ``_single_shortest_path_length`` runs it.

    Examples
    --------
    >>> import numpy as np
    >>> bfs_scan(np.array([0, 1, 2, 2]), np.array([1, 2]), 0, cutoff=1).order.tolist()
    [0, 1]
    """
    limit = np.inf if cutoff is None else float(cutoff)
    return BFSRun(*_bfs_kernel(indptr, indices, np.int64(source), limit))


def same_level_predecessors(indptr, indices, run: BFSRun):
    """networkx's ``predecessor`` lists: every neighbour one level closer, in BFS order.

    A node is listed under each neighbour one level farther that the search
    reached, as networkx's ``predecessor`` appends it while expanding its level.

    Returns
    -------
    (heads, tails) : ndarrays of int64
        The arcs ``tail -> head`` with ``level[head] == level[tail] + 1``,
        grouped by head in BFS order, each group in BFS order of its tails.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 2, 3, 4, 4]), np.array([1, 2, 3, 3])
    >>> heads, tails = same_level_predecessors(indptr, indices, bfs_scan(indptr, indices, 0))
    >>> heads.tolist(), tails.tolist()
    ([1, 2, 3, 3], [0, 0, 1, 2])
    """
    n = indptr.shape[0] - 1
    rank = np.full(n, n, dtype=np.int64)
    rank[run.order] = np.arange(run.order.size)
    level = run.level
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = (level[tails] >= 0) & (level[indices] == level[tails] + 1)
    tails, heads = tails[keep], indices[keep]
    by = np.lexsort((rank[tails], rank[heads]))
    return heads[by], tails[by]


@njit(cache=True)
def _grow(fringe, size, ptr, idx, mine, theirs, nxt):
    """One level of one side: label new nodes in ``mine``, collect them in ``nxt``.

    Returns ``(count, meet)``: the new fringe's size, and the first neighbour
    the other side has labelled (-1 if none), at which networkx stops.
    """
    count = 0
    for i in range(size):
        v = fringe[i]
        for e in range(ptr[v], ptr[v + 1]):
            w = idx[e]
            if mine[w] == ABSENT:
                mine[w] = v
                nxt[count] = w
                count += 1
            if theirs[w] != ABSENT:
                return count, w
    return count, -1


@njit(cache=True)
def _bidirectional_kernel(succ_ptr, succ_idx, pred_ptr, pred_idx, source, target):
    n = succ_ptr.shape[0] - 1
    pred = np.full(n, ABSENT, np.int64)
    succ = np.full(n, ABSENT, np.int64)
    pred[source] = -1
    succ[target] = -1
    forward = np.empty(n, np.int64)
    backward = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    forward[0] = source
    backward[0] = target
    n_forward = 1
    n_backward = 1
    while n_forward > 0 and n_backward > 0:
        if n_forward <= n_backward:  # the smaller fringe grows, the forward one on a tie
            n_forward, meet = _grow(forward, n_forward, succ_ptr, succ_idx, pred, succ, nxt)
            forward, nxt = nxt, forward
        else:
            n_backward, meet = _grow(backward, n_backward, pred_ptr, pred_idx, succ, pred, nxt)
            backward, nxt = nxt, backward
        if meet >= 0:
            return meet, pred, succ
    return -1, pred, succ


def bidirectional_bfs(succ_csr, pred_csr, source: int, target: int):
    """networkx's ``bidirectional_shortest_path`` from ``source`` to ``target`` (node indices).

    Returns
    -------
    list of int or None
        The path's node indices, ``None`` when there is none.

    Examples
    --------
    >>> import numpy as np
    >>> csr = (np.array([0, 1, 2, 2]), np.array([1, 2]))
    >>> rev = (np.array([0, 0, 1, 2]), np.array([0, 1]))
    >>> bidirectional_bfs(csr, rev, 0, 2), bidirectional_bfs(csr, rev, 2, 0)
    ([0, 1, 2], None)
    """
    if source == target:
        return [source]
    meet, pred, succ = _bidirectional_kernel(succ_csr[0], succ_csr[1], pred_csr[0], pred_csr[1],
                                             np.int64(source), np.int64(target))
    if meet < 0:
        return None
    path = []
    w = int(meet)
    while w != -1:
        path.append(w)
        w = int(pred[w])
    path.reverse()
    w = int(succ[path[-1]])
    while w != -1:
        path.append(w)
        w = int(succ[w])
    return path
