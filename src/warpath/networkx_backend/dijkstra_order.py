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

The heap is 4-ary with one entry per push (a strict improvement), so at
most one per arc plus the sources; an entry is its key and its push counter,
and the counter finds the node in a push log.  With integer weights the key
is ``distance << bits | counter``, one int64 compared once per step (on
the CI box, 184 ms per search on a 250K x 1M random graph with a binary
heap of (distance, counter, node) entries, 127-144 ms with this; warpath's
own Dijkstra, free to break ties its way, 59-74 ms); float distances keep
the counter beside them.

Examples
--------
>>> import numpy as np
>>> indptr, indices = np.array([0, 2, 3, 3]), np.array([1, 2, 2])
>>> run = dijkstra_scan(indptr, indices, np.array([1, 4, 1]), [0])
>>> run.order.tolist(), run.dist[run.order].tolist(), run.parent.tolist()
([0, 1, 2], [0, 1, 2], [-1, 0, 1])
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from numba import njit

#: Status codes the kernel returns.
DONE, CONTRADICTION = 0, 1


ARITY = 4  # children per heap node: half the levels of a binary heap (as warpath's Dijkstra)


@njit(cache=True, inline="always")
def _before(key_a, seq_a, key_b, seq_b, packed):
    """Whether entry ``a`` pops before ``b``: smaller distance, then smaller push counter.

    Packed keys hold the counter in their low bits, so one comparison decides.
    """
    if packed:
        return key_a < key_b
    return key_a < key_b or (key_a == key_b and seq_a < seq_b)


@njit(cache=True, inline="always")
def _put(hk, hs, i, key, seq, packed):
    """Write entry ``(key, seq)`` into slot ``i`` (packed keys carry their counter)."""
    hk[i] = key
    if not packed:
        hs[i] = seq


@njit(cache=True, inline="always")
def _push(hk, hs, size, key, seq, packed):
    """Add ``(key, seq)`` to a heap of ``size`` entries (a hole moves up to its place)."""
    i = size
    while i > 0:
        p = (i - 1) // ARITY
        if not _before(key, seq, hk[p], hs[p], packed):
            break
        _put(hk, hs, i, hk[p], hs[p], packed)
        i = p
    _put(hk, hs, i, key, seq, packed)


@njit(cache=True, inline="always")
def _pop_root(hk, hs, size, packed):
    """Remove the root of a heap of ``size`` entries: the last entry sinks from the root."""
    last = size - 1
    key = hk[last]
    seq = hs[last]
    i = 0
    while True:
        first = ARITY * i + 1
        if first >= last:
            break
        best = first
        for c in range(first + 1, min(first + ARITY, last)):
            if _before(hk[c], hs[c], hk[best], hs[best], packed):
                best = c
        if not _before(hk[best], hs[best], key, seq, packed):
            break
        _put(hk, hs, i, hk[best], hs[best], packed)
        i = best
    _put(hk, hs, i, key, seq, packed)


@njit(cache=True, inline="always")
def _packed_key(d, shift, seq):
    return (np.int64(d) << shift) | seq


@njit(cache=True, inline="always")
def _plain_key(d, shift, seq):
    return d


@njit(cache=True, inline="always")
def _packed_seq(hk, hs, low):
    return hk[0] & low


@njit(cache=True, inline="always")
def _plain_seq(hk, hs, low):
    return hs[0]


@njit(cache=True, inline="always")
def _packed_keys(capacity, weights):
    return np.empty(capacity, np.int64)


@njit(cache=True, inline="always")
def _plain_keys(capacity, weights):
    return np.empty(capacity, weights.dtype)


@functools.lru_cache(maxsize=None)
def _kernel(packed: bool):
    """The replay, compiled for packed integer keys or for plain keys (ties by counter)."""
    key_of = _packed_key if packed else _plain_key
    seq_of = _packed_seq if packed else _plain_seq
    new_keys = _packed_keys if packed else _plain_keys

    @njit(cache=True)
    def dijkstra(indptr, indices, weights, sources, cutoff, has_cutoff, target, shift):
        return _dijkstra_body(indptr, indices, weights, sources, cutoff, has_cutoff, target,
                              shift, packed, key_of, seq_of, new_keys)

    return dijkstra


@njit(cache=True, inline="always")
def _dijkstra_body(indptr, indices, weights, sources, cutoff, has_cutoff, target, shift, packed,
                   key_of, seq_of, new_keys):
    """``shift`` > 0 with ``packed``: integer distances keyed ``d << shift | counter`` (the
    caller checked they fit); otherwise keys are the distances, ties by the counter."""
    n = indptr.shape[0] - 1
    # 0: unseen, 1: pushed, 2: settled (networkx's ``seen`` and ``dist`` dicts)
    state = np.zeros(n, np.int8)
    dist = np.zeros(n, weights.dtype)
    tentative = np.zeros(n, weights.dtype)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    discovered = np.empty(n, np.int64)
    capacity = indices.shape[0] + sources.shape[0] + 1
    hk = new_keys(capacity, weights)
    hs = np.empty(capacity, np.int64)  # unused with packed keys, which hold their counters
    pushed = np.empty(capacity, np.int64)  # the node of each push, by counter
    low = (np.int64(1) << shift) - 1
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
        pushed[seq] = s
        _push(hk, hs, size, key_of(zero, shift, seq), seq, packed)
        size += 1
        seq += 1
    while size > 0:
        v = pushed[seq_of(hk, hs, low)]
        d_v = tentative[v]
        _pop_root(hk, hs, size, packed)
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
                pushed[seq] = u
                _push(hk, hs, size, key_of(vu, shift, seq), seq, packed)
                size += 1
                seq += 1
    return DONE, order[:settled], dist, parent, discovered[:found]


def packing_shift(num_nodes, num_arcs, largest, integer, num_sources) -> int:
    """Bits for the push counter in a packed integer key, or 0 when keys cannot be packed.

    Packing needs integer weights (``integer``) and ``|distance| << bits``
    inside int64: distances are at most ``(n - 1) * largest`` in absolute
    value (``largest`` = max |weight|; networkx's Dijkstra on negative weights
    stops before a path repeats a node), counters below ``arcs + sources``.

    Examples
    --------
    >>> packing_shift(2, 1, 5, True, 1), packing_shift(2, 1, 5.0, False, 1)
    (2, 0)
    """
    if not integer:
        return 0
    bits = max(1, int(num_arcs + num_sources).bit_length())
    return bits if int(largest) * max(num_nodes - 1, 1) < 2 ** (62 - bits) else 0


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


def dijkstra_scan(indptr, indices, weights, sources, cutoff=None, target=-1,
                  largest=None) -> DijkstraRun:
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
    if largest is None:  # max |weight|: callers that run often pass it, known once per graph
        largest = np.abs(weights).max() if weights.size else 0
    shift = packing_shift(indptr.shape[0] - 1, indices.shape[0], largest,
                          weights.dtype.kind == "i", sources.size)
    status, order, dist, parent, discovered = _kernel(shift > 0)(
        indptr, indices, weights, sources, float(cutoff) if has_cutoff else 0.0, has_cutoff,
        int(target), shift)
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
