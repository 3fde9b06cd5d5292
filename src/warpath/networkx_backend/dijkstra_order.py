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
is ``distance << bits | counter``, one int64 word, and the heap is warpath's
own (:mod:`warpath.sssp.dijkstra`: bottom-up pops over sentinels); float
distances keep the counter in a second array.  The CSR arrays may be int32
(:meth:`~.graph.BackendGraph.compact_csr`), distances are always int64 or
float64.  Measured on the Bremen road graph (40K nodes, 85K arcs, a
``gc.collect()`` before each search as in the benchmark), 4.1 ms per search
with a top-down binary-compare heap and int64 arrays, 2.4 ms with this heap,
int32 arrays and without the parent records when only lengths are wanted
(``record=False``); warpath's own Dijkstra, free to break ties its way, 2.3 ms.

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

from ..sssp.dijkstra import _pop, _push

#: Status codes the kernel returns.
DONE, CONTRADICTION = 0, 1

ARITY = 4  # children per heap node: half the levels of a binary heap (as warpath's Dijkstra)
MARKER = np.iinfo(np.int64).max  # the packed heap's sentinel, above every entry


@njit(cache=True, inline="always")
def _before(key_a, seq_a, key_b, seq_b):
    """Whether float entry ``a`` pops before ``b``: smaller distance, then smaller counter."""
    return key_a < key_b or (key_a == key_b and seq_a < seq_b)


@njit(cache=True, inline="always")
def _pair_push(hk, hs, size, key, seq):
    """Add ``(key, seq)`` to a float heap of ``size`` entries (a hole moves up to its place)."""
    i = size
    while i > 0:
        p = (i - 1) // ARITY
        if not _before(key, seq, hk[p], hs[p]):
            break
        hk[i] = hk[p]
        hs[i] = hs[p]
        i = p
    hk[i] = key
    hs[i] = seq


@njit(cache=True, inline="always")
def _pair_pop(hk, hs, size):
    """Remove the root of a float heap of ``size`` entries: the last entry sinks from the root."""
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
            if _before(hk[c], hs[c], hk[best], hs[best]):
                best = c
        if not _before(hk[best], hs[best], key, seq):
            break
        hk[i] = hk[best]
        hs[i] = hs[best]
        i = best
    hk[i] = key
    hs[i] = seq


# The two heaps behind one interface: ``new(capacity, dist)``, ``add(hk, hs, size, d, seq,
# shift)``, ``top(hk, hs, low)`` (the root's counter) and ``drop(hk, hs, size)``.

@njit(cache=True, inline="always")
def _packed_new(capacity, dist):
    heap = np.empty(capacity + ARITY + 1, np.int64)
    heap[:ARITY] = MARKER
    return heap, heap[:0]


@njit(cache=True, inline="always")
def _packed_add(hk, hs, size, d, seq, shift):
    _push(hk, size, (np.int64(d) << shift) | seq, ARITY, MARKER)


@njit(cache=True, inline="always")
def _packed_top(hk, hs, low):
    return hk[0] & low


@njit(cache=True, inline="always")
def _packed_drop(hk, hs, size):
    _pop(hk, size - 1, ARITY, MARKER)


@njit(cache=True, inline="always")
def _pair_new(capacity, dist):
    return np.empty(capacity, dist.dtype), np.empty(capacity, np.int64)


@njit(cache=True, inline="always")
def _pair_add(hk, hs, size, d, seq, shift):
    _pair_push(hk, hs, size, d, seq)


@njit(cache=True, inline="always")
def _pair_top(hk, hs, low):
    return hs[0]


@njit(cache=True, inline="always")
def _pair_drop(hk, hs, size):
    _pair_pop(hk, hs, size)


@functools.lru_cache(maxsize=None)
def _kernel(packed: bool):
    """The replay, compiled for packed integer keys or for float keys (ties by counter)."""
    new, add, top, drop = ((_packed_new, _packed_add, _packed_top, _packed_drop) if packed
                           else (_pair_new, _pair_add, _pair_top, _pair_drop))

    @njit(cache=True)
    def dijkstra(indptr, indices, weights, sources, dist, cutoff, has_cutoff, target, shift,
                 record):
        return _dijkstra_body(indptr, indices, weights, sources, dist, cutoff, has_cutoff,
                              target, shift, record, new, add, top, drop)

    return dijkstra


@njit(cache=True, inline="always")
def _dijkstra_body(indptr, indices, weights, sources, dist, cutoff, has_cutoff, target, shift,
                   record, new, add, top, drop):
    """Fills ``dist`` (int64 or float64, length n) at the nodes it reaches.

    ``shift`` > 0 with packed keys: integer distances keyed ``d << shift |
    counter`` (the caller checked they fit).  ``record``: also the parents and
    the discovery order (empty arrays otherwise, which lengths alone do not need).
    """
    n = indptr.shape[0] - 1
    # 0: unseen, 1: pushed, 2: settled (networkx's ``seen`` and ``dist`` dicts).  A node's
    # tentative distance when it settles is its final one (its latest, shortest entry pops
    # first), so one array holds both.
    state = np.zeros(n, np.int8)
    parent = np.full(n if record else 0, -1, np.int64)
    order = np.empty(n, np.int64)
    order_dist = np.empty(n, dist.dtype)  # dist[order], written in order: no gather later
    discovered = np.empty(n if record else 0, np.int64)
    capacity = indices.shape[0] + sources.shape[0] + 1
    hk, hs = new(capacity, dist)
    pushed = np.empty(capacity, indices.dtype)  # the node of each push, by counter
    low = (np.int64(1) << shift) - 1
    size = 0
    seq = 0
    settled = 0
    found = 0
    zero = np.zeros(1, dist.dtype)[0]
    for s in sources:
        if record and state[s] == 0:
            discovered[found] = s
            found += 1
        state[s] = 1
        dist[s] = zero
        pushed[seq] = s
        add(hk, hs, size, zero, seq, shift)
        size += 1
        seq += 1
    while size > 0:
        v = pushed[top(hk, hs, low)]
        drop(hk, hs, size)
        size -= 1
        if state[v] == 2:
            continue
        state[v] = 2
        d_v = dist[v]
        order[settled] = v
        order_dist[settled] = d_v
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
                    return (CONTRADICTION, order[:settled], order_dist[:settled], parent,
                            discovered[:found])
            elif state[u] == 0 or vu < dist[u]:
                if record:
                    if state[u] == 0:
                        discovered[found] = u
                        found += 1
                    parent[u] = v
                state[u] = 1
                dist[u] = vu
                pushed[seq] = u
                add(hk, hs, size, vu, seq, shift)
                size += 1
                seq += 1
    return DONE, order[:settled], order_dist[:settled], parent, discovered[:found]


@njit(cache=True)
def _stream_into_cache(indptr, indices, weights):
    """Read one element per 64-byte line of the CSR arrays, in order; returns their sum.

    A search reads the arcs in a random order, one cache miss at a time on a
    cold cache; a sequential pass first lets the hardware prefetcher bring
    them in at full bandwidth.  On the Bremen road graph after
    ``gc.collect()`` (which walks the networkx graph and evicts everything,
    as between the benchmark's calls) the search took 2.4 ms without this
    pass and 1.9-2.0 ms with it (the pass itself 0.1 ms); with the arrays
    already cached the pass costs 0.01 ms.  The sum is returned so that the
    loads cannot be optimised away.
    """
    total = 0
    for i in range(0, indptr.shape[0], 16):
        total += indptr[i]
    for i in range(0, indices.shape[0], 16):
        total += indices[i] + weights[i]
    return total


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
    """What one networkx-order Dijkstra found (see :func:`dijkstra_scan`).

    Attributes
    ----------
    order : ndarray of int64
        The settled nodes in the order networkx settles them (its ``dist`` dict order).
    dist : ndarray
        Distances (int64 for integer weights, else float64); valid at ``order`` only.
    order_dist : ndarray
        ``dist[order]``, recorded as the nodes settle (a cache-friendly copy for results).
    parent : ndarray of int64
        The node each settled node's path comes from (-1 for sources); empty
        when the run did not record it.
    discovered : ndarray of int64
        Nodes in the order they were first pushed (networkx's predecessor-dict order);
        empty when the run did not record it.

    Examples
    --------
    >>> import numpy as np
    >>> run = dijkstra_scan(np.array([0, 1, 1]), np.array([1]), np.array([3]), [0])
    >>> run.order.tolist(), run.order_dist.tolist(), run.parent.tolist()
    ([0, 1], [0, 3], [-1, 0])
    """

    order: np.ndarray
    dist: np.ndarray
    order_dist: np.ndarray
    parent: np.ndarray
    discovered: np.ndarray


def dijkstra_scan(indptr, indices, weights, sources, cutoff=None, target=-1,
                  largest=None, *, record=True) -> DijkstraRun:
    """Dijkstra from ``sources`` (node indices, in networkx's iteration order), as networkx runs it.

    ``record=False`` skips the parents and the discovery order (both come
    back empty): the lengths and their order are the same.

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
    >>> dijkstra_scan(np.array([0, 1, 2, 2]), np.array([1, 2]), np.array([2, 3]), [0],
    ...               record=False).order.tolist()
    [0, 1, 2]
    """
    sources = np.asarray(sources, dtype=np.int64)
    has_cutoff = cutoff is not None
    if largest is None:  # max |weight|: callers that run often pass it, known once per graph
        largest = np.abs(weights).max() if weights.size else 0
    integer = weights.dtype.kind in "iu"
    shift = packing_shift(indptr.shape[0] - 1, indices.shape[0], largest, integer, sources.size)
    dist = np.empty(indptr.shape[0] - 1, np.int64 if integer else np.float64)
    _stream_into_cache(indptr, indices, weights)
    status, order, order_dist, parent, discovered = _kernel(shift > 0)(
        indptr, indices, weights, sources, dist, float(cutoff) if has_cutoff else 0.0,
        has_cutoff, int(target), shift, bool(record))
    if status == CONTRADICTION:
        raise ValueError("Contradictory paths found:", "negative weights?")
    return DijkstraRun(order, dist, order_dist, parent, discovered)


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

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices, weights = np.array([0, 2, 3, 4, 4]), np.array([1, 2, 3, 3]), np.ones(4)
    >>> heads, tails = tight_predecessors(indptr, indices, weights,
    ...                                   dijkstra_scan(indptr, indices, weights, [0]))
    >>> heads.tolist(), tails.tolist()
    ([1, 2, 3, 3], [0, 0, 1, 2])
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
