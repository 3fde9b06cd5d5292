"""Dijkstra in networkx's order: the same scans, ties and early stops, in numba.

networkx's ``_dijkstra_multisource`` pops ``(distance, push counter, node)``
from a binary heap, so among equal distances the node pushed first is
settled first; a node's path goes through the first settled neighbour that
reached its final distance, and a later equal one only joins the
predecessor list.  This kernel keeps the same key, pushes under the same
conditions (unseen, or strictly shorter; nothing beyond ``cutoff``) and
stops at the target, so it settles the same nodes in the same order with the
same parents, and its float sums are the same additions.  On negative
weights it finds the same contradiction networkx reports with
``ValueError("Contradictory paths found:", "negative weights?")``.

The heap entries are three parallel arrays (distance, counter, node), one
push per strict improvement, so at most one entry per arc plus the sources.

Examples
--------
>>> import numpy as np
>>> indptr, indices = np.array([0, 2, 3, 3]), np.array([1, 2, 2])
>>> run = dijkstra_scan(indptr, indices, np.array([1, 4, 1]), [0])
>>> run.order.tolist(), run.dist[run.order].tolist(), run.parent.tolist()
([0, 1, 2], [0, 1, 2], [-1, 0, 1])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

#: Status codes the kernel returns.
DONE, CONTRADICTION = 0, 1


@njit(cache=True, inline="always")
def _before(hd, hs, i, j):
    """Whether heap entry ``i`` pops before ``j``: smaller distance, then smaller counter."""
    return hd[i] < hd[j] or (hd[i] == hd[j] and hs[i] < hs[j])


@njit(cache=True, inline="always")
def _swap(hd, hs, hv, i, j):
    hd[i], hd[j] = hd[j], hd[i]
    hs[i], hs[j] = hs[j], hs[i]
    hv[i], hv[j] = hv[j], hv[i]


@njit(cache=True, inline="always")
def _push(hd, hs, hv, size, d, seq, v):
    i = size
    hd[i] = d
    hs[i] = seq
    hv[i] = v
    while i > 0:
        p = (i - 1) >> 1
        if not _before(hd, hs, i, p):
            break
        _swap(hd, hs, hv, i, p)
        i = p


@njit(cache=True, inline="always")
def _pop_root(hd, hs, hv, size):
    """Move the last of ``size`` entries to the root and sift it down (``size - 1`` remain)."""
    last = size - 1
    hd[0] = hd[last]
    hs[0] = hs[last]
    hv[0] = hv[last]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= last:
            break
        if c + 1 < last and _before(hd, hs, c + 1, c):
            c += 1
        if not _before(hd, hs, c, i):
            break
        _swap(hd, hs, hv, i, c)
        i = c


@njit(cache=True)
def _dijkstra_kernel(indptr, indices, weights, sources, cutoff, has_cutoff, target):
    n = indptr.shape[0] - 1
    # 0: unseen, 1: pushed, 2: settled (networkx's ``seen`` and ``dist`` dicts)
    state = np.zeros(n, np.int8)
    dist = np.zeros(n, weights.dtype)
    tentative = np.zeros(n, weights.dtype)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    discovered = np.empty(n, np.int64)
    capacity = indices.shape[0] + sources.shape[0] + 1
    hd = np.empty(capacity, weights.dtype)
    hs = np.empty(capacity, np.int64)
    hv = np.empty(capacity, np.int64)
    size = 0
    seq = 0
    settled = 0
    found = 0
    zero = np.zeros(1, weights.dtype)[0]
    for s in sources:
        if state[s] == 0:
            discovered[found] = s
            found += 1
        state[s] = 1
        tentative[s] = zero
        _push(hd, hs, hv, size, zero, seq, s)
        size += 1
        seq += 1
    while size > 0:
        d_v = hd[0]
        v = hv[0]
        _pop_root(hd, hs, hv, size)
        size -= 1
        if state[v] == 2:
            continue
        state[v] = 2
        dist[v] = d_v
        order[settled] = v
        settled += 1
        if v == target:
            break
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            vu = d_v + weights[e]
            if has_cutoff and vu > cutoff:
                continue
            if state[u] == 2:
                if vu < dist[u]:
                    return CONTRADICTION, order[:settled], dist, parent, discovered[:found]
            elif state[u] == 0 or vu < tentative[u]:
                if state[u] == 0:
                    discovered[found] = u
                    found += 1
                state[u] = 1
                tentative[u] = vu
                parent[u] = v
                _push(hd, hs, hv, size, vu, seq, u)
                size += 1
                seq += 1
    return DONE, order[:settled], dist, parent, discovered[:found]


class DijkstraRun(NamedTuple):
    """What one networkx-order Dijkstra found.

    Attributes
    ----------
    order : ndarray of int64
        The settled nodes in the order networkx settles them (its ``dist`` dict order).
    dist : ndarray
        Distances (int64 or float64, the weights' type); valid at ``order`` only.
    parent : ndarray of int64
        The node each settled node's path comes from (-1 for sources).
    discovered : ndarray of int64
        Nodes in the order they were first pushed (networkx's predecessor-dict order).
    """

    order: np.ndarray
    dist: np.ndarray
    parent: np.ndarray
    discovered: np.ndarray


def dijkstra_scan(indptr, indices, weights, sources, cutoff=None, target=-1) -> DijkstraRun:
    """Dijkstra from ``sources`` (node indices, in networkx's iteration order), as networkx runs it.

    Raises
    ------
    ValueError
        networkx's ``"Contradictory paths found:"`` when negative weights make a
        settled node shorter.

    Examples
    --------
    >>> import numpy as np
    >>> run = dijkstra_scan(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([2.0, 3.0]), [0],
    ...                     cutoff=4)
    >>> run.order.tolist()
    [0, 1]
    """
    sources = np.asarray(sources, dtype=np.int64)
    has_cutoff = cutoff is not None
    status, order, dist, parent, discovered = _dijkstra_kernel(
        indptr, indices, weights, sources, float(cutoff) if has_cutoff else 0.0, has_cutoff,
        int(target))
    if status == CONTRADICTION:
        raise ValueError("Contradictory paths found:", "negative weights?")
    return DijkstraRun(order, dist, parent, discovered)


def tight_predecessors(indptr, indices, weights, run: DijkstraRun):
    """networkx's predecessor lists of a full run (no target): for each settled node, every
    settled neighbour ``u`` with ``dist[u] + w == dist[v]``, in the order ``u`` was settled.

    networkx appends ``u`` when its scan finds an equal distance, and a strict
    improvement restarts the list with the improving node, which is the first
    tight one settled; so the lists are the tight arcs taken in settle order.

    Returns
    -------
    (heads, tails) : ndarrays of int64
        The tight arcs grouped by head in ``run.order``, each group in settle
        order of its tails.
    """
    n = indptr.shape[0] - 1
    rank = np.full(n, n, dtype=np.int64)
    rank[run.order] = np.arange(run.order.size)
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    settled = rank < n
    keep = settled[tails] & settled[indices]
    keep[keep] = run.dist[tails[keep]] + weights[keep] == run.dist[indices[keep]]
    tails, heads = tails[keep], indices[keep]
    by = np.lexsort((rank[tails], rank[heads]))
    return heads[by], tails[by]
