"""networkx's bidirectional Dijkstra, step for step, in numba.

``nx.bidirectional_dijkstra`` (and ``nx.shortest_path`` with a source, a
target and a weight) alternates one pop from a forward heap and one from a
backward heap, the two sharing one push counter, keeps the best meeting node
seen so far, and stops when a node is settled in both directions.  Which of
several equal paths it returns depends on all of that, so this kernel
replays it on the successor and predecessor CSR arrays (the heap helpers
are :mod:`.dijkstra_order`'s).

Examples
--------
>>> import numpy as np
>>> succ = (np.array([0, 2, 3, 3]), np.array([1, 2, 2]), np.array([1, 5, 1]))
>>> pred = (np.array([0, 0, 1, 3]), np.array([0, 0, 1]), np.array([1, 5, 1]))
>>> bidirectional_dijkstra(succ, pred, 0, 2)
(2, [0, 1, 2])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dijkstra_order import _pair_pop, _pair_push

NO_NODE = -2  # not reached in that direction (-1 is networkx's ``None``: the search's start)


@njit(cache=True)
def _bidirectional_kernel(succ_ptr, succ_idx, succ_w, pred_ptr, pred_idx, pred_w, source, target):
    n = succ_ptr.shape[0] - 1
    settled = np.zeros((2, n), np.bool_)
    dists = np.zeros((2, n), succ_w.dtype)
    seen = np.zeros((2, n), np.bool_)
    tentative = np.zeros((2, n), succ_w.dtype)
    preds = np.full((2, n), NO_NODE, np.int64)
    capacity = max(succ_idx.shape[0], pred_idx.shape[0]) + 2
    hk = np.empty((2, capacity), succ_w.dtype)
    hs = np.empty((2, capacity), np.int64)
    pushed = np.empty(succ_idx.shape[0] + pred_idx.shape[0] + 2, np.int64)  # node by counter
    size = np.zeros(2, np.int64)
    zero = np.zeros(1, succ_w.dtype)[0]
    preds[0, source] = -1
    preds[1, target] = -1
    seen[0, source] = True
    seen[1, target] = True
    pushed[0] = source
    pushed[1] = target
    _pair_push(hk[0], hs[0], 0, zero, 0)
    _pair_push(hk[1], hs[1], 0, zero, 1)
    size[:] = 1
    counter = 2
    final = zero
    has_final = False
    meet = -1
    direction = 1
    while size[0] > 0 and size[1] > 0:
        direction = 1 - direction
        other = 1 - direction
        dist = hk[direction, 0]
        v = pushed[hs[direction, 0]]
        _pair_pop(hk[direction], hs[direction], size[direction])
        size[direction] -= 1
        if settled[direction, v]:
            continue
        settled[direction, v] = True
        dists[direction, v] = dist
        if settled[other, v]:
            return 0, final, meet, preds
        if direction == 0:
            ptr, idx, wts = succ_ptr, succ_idx, succ_w
        else:
            ptr, idx, wts = pred_ptr, pred_idx, pred_w
        for e in range(ptr[v], ptr[v + 1]):
            w = idx[e]
            length = dist + wts[e]
            if settled[direction, w]:
                if length < dists[direction, w]:
                    return 2, final, meet, preds
            elif not seen[direction, w] or length < tentative[direction, w]:
                seen[direction, w] = True
                tentative[direction, w] = length
                pushed[counter] = w
                _pair_push(hk[direction], hs[direction], size[direction], length, counter)
                size[direction] += 1
                counter += 1
                preds[direction, w] = v
                if seen[other, w]:
                    through = length + tentative[other, w]
                    if not has_final or final > through:
                        final = through
                        has_final = True
                        meet = w
    return 1, final, meet, preds


def bidirectional_dijkstra(succ_csr, pred_csr, source: int, target: int):
    """networkx's ``bidirectional_dijkstra`` between node indices: ``(length, path)`` or ``None``.

    ``succ_csr`` and ``pred_csr`` are ``(indptr, indices, weights)`` of the
    arcs out of and into each node, both in networkx's adjacency order.

    Raises
    ------
    ValueError
        networkx's ``"Contradictory paths found: negative weights?"``.

    Examples
    --------
    >>> import numpy as np
    >>> succ = (np.array([0, 2, 3, 3]), np.array([1, 2, 2]), np.array([1.0, 5.0, 1.0]))
    >>> pred = (np.array([0, 0, 1, 3]), np.array([0, 0, 1]), np.array([1.0, 5.0, 1.0]))
    >>> bidirectional_dijkstra(succ, pred, 0, 2), bidirectional_dijkstra(succ, pred, 2, 0)
    ((2.0, [0, 1, 2]), None)
    """
    if source == target:
        return 0, [source]
    status, final, meet, preds = _bidirectional_kernel(*succ_csr, *pred_csr, np.int64(source),
                                                       np.int64(target))
    if status == 2:
        raise ValueError("Contradictory paths found: negative weights?")
    if status == 1:
        return None
    path = []
    v = int(meet)
    while v != -1:
        path.append(v)
        v = int(preds[0, v])
    path.reverse()
    v = int(preds[1, meet])
    while v != -1:
        path.append(v)
        v = int(preds[1, v])
    return (final.item() if hasattr(final, "item") else final), path
