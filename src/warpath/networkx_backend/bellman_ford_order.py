"""Bellman-Ford in networkx's order: its queue, skips and negative-cycle tests, in numba.

networkx's ``_inner_bellman_ford`` is a FIFO label-correcting search
(Goldberg and Radzik's "SPFA" family) with two refinements: a node whose
predecessor is still queued is not scanned (its distance is about to
change), and with ``heuristic=True`` an update that would put a node twice
on the most recent update path reports a negative cycle at once; without
it, the n-th enqueue of a node does.  Its predecessor lists restart at each
strict improvement and grow on each equal distance, and its dicts keep the
order nodes first got a distance.

This kernel replays the same queue on the CSR arrays (neighbours in
networkx's order), so distances, predecessor lists, dict order and the node
at which a negative cycle is detected are the ones networkx finds.  The
predecessor lists are linked lists in one growing pool: ``head[v]`` starts
``v``'s list, ``link[i]`` follows entry ``i``, ``entry[i]`` is the node.

Examples
--------
>>> import numpy as np
>>> run = bellman_ford_scan(np.array([0, 2, 3, 3]), np.array([1, 2, 2]),
...                         np.array([4, 1, -2]), [0])
>>> run.cycle_at, run.discovered.tolist(), run.dist[run.discovered].tolist()
(-1, [0, 1, 2], [0, 4, 1])
>>> run.predecessor_lists()[2]
[0]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


@njit(cache=True)
def _new_entry(entry, link, used, node):
    """Append a pool slot holding ``node`` (growing the pool when full): ``(entry, link, slot)``."""
    if used == entry.shape[0]:
        bigger = np.empty(2 * used, np.int64)
        bigger[:used] = entry
        entry = bigger
        bigger = np.empty(2 * used, np.int64)
        bigger[:used] = link
        link = bigger
    entry[used] = node
    link[used] = -1
    return entry, link, used


@njit(cache=True)
def _append(head, tail, entry, link, used, v, u):
    """Add ``u`` at the end of ``v``'s list: ``(entry, link)`` (the pool may have grown)."""
    entry, link, slot = _new_entry(entry, link, used, u)
    if tail[v] >= 0:
        link[tail[v]] = slot
    else:
        head[v] = slot
    tail[v] = slot
    return entry, link


@njit(cache=True)
def _bellman_ford_kernel(indptr, indices, weights, sources, heuristic):
    n = indptr.shape[0] - 1
    dist = np.zeros(n, weights.dtype)
    has = np.zeros(n, np.bool_)
    discovered = np.empty(n, np.int64)
    found = 0
    head = np.full(n, -1, np.int64)
    tail = np.full(n, -1, np.int64)
    entry = np.empty(max(16, indices.shape[0] + n), np.int64)
    link = np.empty(entry.shape[0], np.int64)
    used = 0
    queue = np.empty(n + 1, np.int64)  # a node is queued at most once at a time
    first = 0
    size = 0
    in_queue = np.zeros(n, np.bool_)
    enqueued = np.zeros(n, np.int64)
    pred_edge = np.full(n, -1, np.int64)
    # the last update path's first arc (a, b); (-1, -1) is networkx's (None, None)
    recent_a = np.full(n, -1, np.int64)
    recent_b = np.full(n, -1, np.int64)
    zero = np.zeros(1, weights.dtype)[0]
    for s in sources:
        dist[s] = zero
        has[s] = True
        discovered[found] = s
        found += 1
        queue[(first + size) % (n + 1)] = s
        size += 1
        in_queue[s] = True
    while size > 0:
        u = queue[first]
        first = (first + 1) % (n + 1)
        size -= 1
        in_queue[u] = False
        blocked = False
        i = head[u]
        while i >= 0:
            if in_queue[entry[i]]:
                blocked = True
                break
            i = link[i]
        if blocked:
            continue
        dist_u = dist[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            dist_v = dist_u + weights[e]
            if (dist_v < dist[v]) if has[v] else (dist_v < np.inf):
                if heuristic:
                    if v == recent_a[u] or v == recent_b[u]:
                        entry, link = _append(head, tail, entry, link, used, v, u)
                        return v, dist, has, discovered[:found], head, entry, link
                    if pred_edge[v] == u:
                        recent_a[v] = recent_a[u]
                        recent_b[v] = recent_b[u]
                    else:
                        recent_a[v] = u
                        recent_b[v] = v
                if not in_queue[v]:
                    queue[(first + size) % (n + 1)] = v
                    size += 1
                    in_queue[v] = True
                    enqueued[v] += 1
                    if enqueued[v] == n:
                        return v, dist, has, discovered[:found], head, entry, link
                if not has[v]:
                    discovered[found] = v
                    found += 1
                dist[v] = dist_v
                has[v] = True
                entry, link, slot = _new_entry(entry, link, used, u)
                used += 1
                head[v] = slot
                tail[v] = slot
                pred_edge[v] = u
            elif has[v] and dist_v == dist[v]:
                entry, link = _append(head, tail, entry, link, used, v, u)
                used += 1
    return -1, dist, has, discovered[:found], head, entry, link


class BellmanFordRun(NamedTuple):
    """What one networkx-order Bellman-Ford found.

    Attributes
    ----------
    cycle_at : int
        -1, or the node at which a negative cycle was detected (the run stopped there).
    dist : ndarray
        Distances (the weights' type), valid where ``reached``.
    reached : ndarray of bool
        Which nodes got a distance (networkx's ``dist`` keys).
    discovered : ndarray of int64
        Nodes in the order they first got a distance (networkx's dict order).
    head, entry, link : ndarrays of int64
        The predecessor lists (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> run = bellman_ford_scan(np.array([0, 1, 1]), np.array([1]), np.array([-3]), [0])
    >>> run.cycle_at, run.dist[run.discovered].tolist()
    (-1, [0, -3])
    """

    cycle_at: int
    dist: np.ndarray
    reached: np.ndarray
    discovered: np.ndarray
    head: np.ndarray
    entry: np.ndarray
    link: np.ndarray

    def predecessors_of(self, v: int) -> list:
        """The predecessor list of node index ``v`` (as networkx holds it when the run ended).

        Examples
        --------
        >>> import numpy as np
        >>> run = bellman_ford_scan(np.array([0, 2, 3, 3]), np.array([1, 2, 2]),
        ...                         np.array([1, 2, 1]), [0])
        >>> run.predecessors_of(2), run.predecessor_lists()
        ([0, 1], {0: [], 1: [0], 2: [0, 1]})
        >>> run.first_predecessors().tolist()
        [-1, 0, 0]
        """
        out = []
        i = int(self.head[v])
        while i >= 0:
            out.append(int(self.entry[i]))
            i = int(self.link[i])
        return out

    def predecessor_lists(self) -> dict:
        """``{v: [u, ...]}`` for every discovered node index, in discovery order.

        Examples
        --------
        >>> import numpy as np
        >>> bellman_ford_scan(np.array([0, 1, 1]), np.array([1]), np.array([4]),
        ...                   [0]).predecessor_lists()
        {0: [], 1: [0]}
        """
        return {int(v): self.predecessors_of(v) for v in self.discovered}

    def first_predecessors(self) -> np.ndarray:
        """The first entry of each node's list (-1 where empty): the last strict improver.

        Examples
        --------
        >>> import numpy as np
        >>> bellman_ford_scan(np.array([0, 1, 1]), np.array([1]), np.array([4]),
        ...                   [0]).first_predecessors().tolist()
        [-1, 0]
        """
        first = np.full(self.head.shape[0], -1, dtype=np.int64)
        listed = self.head >= 0
        first[listed] = self.entry[self.head[listed]]
        return first


def bellman_ford_scan(indptr, indices, weights, sources, heuristic=True) -> BellmanFordRun:
    """Bellman-Ford from ``sources`` (distinct node indices) as networkx's ``_inner_bellman_ford``.

    Examples
    --------
    >>> import numpy as np
    >>> run = bellman_ford_scan(np.array([0, 1, 2]), np.array([1, 0]), np.array([1, -2]), [0])
    >>> run.cycle_at >= 0
    True
    """
    sources = np.asarray(sources, dtype=np.int64)
    return BellmanFordRun(*_bellman_ford_kernel(indptr, indices, weights, sources, bool(heuristic)))
