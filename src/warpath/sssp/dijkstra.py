"""Dijkstra's algorithm on the CPU: a lazy 4-ary heap in numba.

The heap is *lazy* (no decrease-key): an improved vertex is pushed again and
stale entries are skipped when popped.  Measured on a 514 x 514 road-like
grid (264k vertices, 1.05M arcs) this beat an indexed heap with decrease-key
(about 44 ms against 55 ms per source): the heap stays small (~900 entries on
average), so the extra pushes cost less than maintaining a position array.
On random graphs (degree 6, diameter ~14) the heap grows to millions of
entries and each level of a pop is a cache miss; a 4-ary heap (the children of
``i`` at ``4i + 1 .. 4i + 4``, one cache line) has half the levels of a binary
one.  On the CI box it took random(2M, 12M) from 3.0 s to 2.3 s per source and
the road grid from 40 to 36 ms (``docs/performance.md``).

For integer weights whose path lengths leave room, the distance and the
vertex are packed into one int64 heap entry (``distance << bits | vertex``),
so a sift moves one word and compares once per level; otherwise the heap
keeps keys and vertices in two parallel arrays.  Pops use the bottom-up
("hole") sift-down with ``arity`` sentinels after the last entry, which avoids
bounds checks and one unpredictable branch per level.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, 2])
>>> warpath.sssp(g, 0, method="dijkstra").distances.tolist()
[0.0, 4.0, 1.0]
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ..dtypes import integer_distance_dtype, warn_inexact
from ..methods import register
from ..result import SSSPResult

INT_UNREACHED = np.iinfo(np.int64).max
#: Children per heap node unless ``heap_arity=`` says otherwise (2: the papers' binary heap).
DEFAULT_ARITY = 4


def distance_dtype(graph, *, warn: bool = True) -> np.dtype:
    """The type distances of ``graph`` are computed in: int64 or float64.

    Integer weights give exact int64 distances when no path length can
    overflow; otherwise (and for float weights) distances are float64, and for
    integer weights a ``RuntimeWarning`` says they may be inexact.

    Examples
    --------
    >>> import warpath
    >>> distance_dtype(warpath.Graph.from_edges([0], [1], [3]))
    dtype('int64')
    >>> distance_dtype(warpath.Graph.from_edges([0], [1], [0.5]))
    dtype('float64')
    """
    exact = integer_distance_dtype(graph, (np.int64,))
    if exact is not None:
        return np.dtype(np.int64)
    if warn and graph.weights.dtype.kind == "i":
        warn_inexact(graph)
    return np.dtype(np.float64)


def unreached_value(dtype):
    """The 'unreachable' marker for distances of ``dtype``: int64 max or ``inf``.

    Examples
    --------
    >>> unreached_value(np.float64)
    inf
    """
    return INT_UNREACHED if np.dtype(dtype).kind == "i" else np.inf


def _packing_shift(num_vertices: int, max_distance: float) -> int:
    """Bits for the vertex in a packed heap entry, or 0 when ``distance << bits`` could overflow."""
    shift = max(1, int(num_vertices - 1).bit_length())
    if max_distance < float(2 ** (62 - shift)):
        return shift
    return 0


@functools.lru_cache(maxsize=None)
def heap_kernels(arity: int = DEFAULT_ARITY):
    """The Dijkstra kernels with a lazy ``arity``-ary heap, compiled once per arity.

    ``arity`` is a compile-time constant of the kernels (a run-time one cost
    10-20%).  Returns ``(packed, keyed, rows_packed, rows_keyed)``: one
    source with packed integer entries or with key and vertex arrays, and the
    same over many sources (:func:`dijkstra_rows`).  The heap arrays keep
    ``heap[size:size + arity]`` at the unreachable marker (larger than every
    entry), so a pop compares whole families without bounds checks.

    Examples
    --------
    >>> heap_kernels(2) is heap_kernels(2), heap_kernels(2) is heap_kernels(4)
    (True, False)
    """
    if isinstance(arity, bool) or not isinstance(arity, (int, np.integer)) \
            or not 2 <= arity <= 16:
        raise ValueError(f"heap_arity must be an integer from 2 to 16, not {arity!r}")
    arity = int(arity)

    @njit(cache=True)
    def packed(indptr, indices, weights, source, dist, pred, limit, shift):
        """Dijkstra with integer distances packed beside the vertex in one int64 heap word.

        ``dist`` (int64) must hold the unreachable marker everywhere; ``pred`` is
        length n (filled) or length 0 (not wanted).  Vertices farther than
        ``limit`` are never labelled.  Returns ``(settled, relaxations)``.
        """
        mask = (np.int64(1) << shift) - 1
        top_marker = np.int64(INT_UNREACHED)
        heap = np.empty(indices.shape[0] + arity + 2, np.int64)
        want_pred = pred.shape[0] > 0
        dist[source] = 0
        heap[0] = source
        heap[1:arity + 1] = top_marker
        size = 1
        settled = 0
        relaxations = 0
        while size > 0:
            top = heap[0]
            d_u = top >> shift
            u = top & mask
            # pop: walk the hole down to a leaf along the smallest children, then
            # sift the last entry up from there (heap[size:size + arity] are sentinels).
            size -= 1
            last = heap[size]
            heap[size] = top_marker
            i = 0
            c = 1
            while c < size:
                smallest = c
                a = heap[c]
                for k in range(1, arity):
                    b = heap[c + k]
                    if b < a:
                        a = b
                        smallest = c + k
                heap[i] = a
                i = smallest
                c = arity * i + 1
            while i > 0:
                p = (i - 1) // arity
                h = heap[p]
                if h <= last:
                    break
                heap[i] = h
                i = p
            heap[i] = last
            if d_u > dist[u]:
                continue  # a stale entry: u was settled at a smaller distance
            settled += 1
            lo = indptr[u]
            hi = indptr[u + 1]
            relaxations += hi - lo
            for e in range(lo, hi):
                v = indices[e]
                d_v = d_u + weights[e]
                if d_v < dist[v] and d_v <= limit:
                    dist[v] = d_v
                    if want_pred:
                        pred[v] = u
                    item = (d_v << shift) | v
                    i = size
                    size += 1
                    heap[size + arity - 1] = top_marker
                    while i > 0:
                        p = (i - 1) // arity
                        h = heap[p]
                        if h <= item:
                            break
                        heap[i] = h
                        i = p
                    heap[i] = item
        return settled, relaxations


    @njit(cache=True)
    def keyed(indptr, indices, weights, source, dist, pred, limit):
        """Dijkstra with heap keys and vertices in two arrays (float or wide integer distances).

        Same contract as ``packed``; ``dist`` is float64 (``inf``
        unreachable) or int64 (int64 max unreachable).  The weights must be
        non-negative.  Returns ``(settled, relaxations)``.
        """
        top_marker = dist[source]  # the unreachable marker, larger than every key
        size_cap = indices.shape[0] + arity + 2
        keys = np.empty(size_cap, dist.dtype)
        verts = np.empty(size_cap, np.int64)
        want_pred = pred.shape[0] > 0
        dist[source] = 0
        keys[0] = 0
        verts[0] = source
        keys[1:arity + 1] = top_marker
        size = 1
        settled = 0
        relaxations = 0
        while size > 0:
            d_u = keys[0]
            u = verts[0]
            size -= 1
            last_key = keys[size]
            last_vert = verts[size]
            keys[size] = top_marker
            i = 0
            c = 1
            while c < size:
                smallest = c
                a = keys[c]
                for k in range(1, arity):
                    if keys[c + k] < a:
                        a = keys[c + k]
                        smallest = c + k
                keys[i] = a
                verts[i] = verts[smallest]
                i = smallest
                c = arity * i + 1
            while i > 0:
                p = (i - 1) // arity
                if keys[p] <= last_key:
                    break
                keys[i] = keys[p]
                verts[i] = verts[p]
                i = p
            keys[i] = last_key
            verts[i] = last_vert
            if d_u > dist[u]:
                continue
            settled += 1
            lo = indptr[u]
            hi = indptr[u + 1]
            relaxations += hi - lo
            for e in range(lo, hi):
                v = indices[e]
                d_v = d_u + weights[e]
                if d_v < dist[v] and d_v <= limit:
                    dist[v] = d_v
                    if want_pred:
                        pred[v] = u
                    i = size
                    size += 1
                    keys[size + arity - 1] = top_marker
                    while i > 0:
                        p = (i - 1) // arity
                        if keys[p] <= d_v:
                            break
                        keys[i] = keys[p]
                        verts[i] = verts[p]
                        i = p
                    keys[i] = d_v
                    verts[i] = v
        return settled, relaxations

    @njit(cache=True)
    def rows_packed(indptr, indices, weights, sources, dist, pred, limit, shift):
        settled = 0
        relaxations = 0
        for row in range(sources.shape[0]):
            s, r = packed(indptr, indices, weights, sources[row], dist[row], pred[row], limit,
                          shift)
            settled += s
            relaxations += r
        return settled, relaxations

    @njit(cache=True)
    def rows_keyed(indptr, indices, weights, sources, dist, pred, limit):
        settled = 0
        relaxations = 0
        for row in range(sources.shape[0]):
            s, r = keyed(indptr, indices, weights, sources[row], dist[row], pred[row], limit)
            settled += s
            relaxations += r
        return settled, relaxations

    return packed, keyed, rows_packed, rows_keyed


def dijkstra_into(indptr, indices, weights, source, dist, pred, limit, shift,
                  arity=DEFAULT_ARITY):
    """Run Dijkstra from ``source`` into the prepared ``dist``/``pred`` arrays.

    Picks the packed heap when ``shift > 0`` (integer distances that fit,
    see :func:`prepare`), else the two-array heap; ``arity`` children per
    heap node (2: a binary heap).  ``dist`` must be filled
    with the unreachable marker and ``pred`` with -1 (or be empty).

    Returns
    -------
    (settled, relaxations)

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 3])
    >>> weights, dtype, marker, cutoff, shift = prepare(g)
    >>> dist = np.full(3, marker, dtype)
    >>> dijkstra_into(g.indptr, g.indices, weights, 0, dist, np.empty(0, np.int64), cutoff, shift)
    (3, 2)
    >>> dist.tolist()
    [0, 2, 5]
    """
    packed, keyed, _, _ = heap_kernels(arity)
    if shift > 0:
        return packed(indptr, indices, weights, source, dist, pred, limit, shift)
    return keyed(indptr, indices, weights, source, dist, pred, limit)


def dijkstra_rows(indptr, indices, weights, sources, dist, pred, limit, shift,
                  arity=DEFAULT_ARITY):
    """Dijkstra from each of ``sources`` into the rows of ``dist`` and ``pred`` (one compiled loop).

    ``dist`` has shape (len(sources), n), filled with the unreachable marker;
    ``pred`` is (len(sources), n) filled with -1, or (len(sources), 0).  This
    is the kernel that repeated SSSP and Johnson's algorithm reuse.

    Returns
    -------
    (settled, relaxations)
        Totals over all sources.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 0], [2, 3])
    >>> weights, dtype, marker, cutoff, shift = prepare(g)
    >>> dist = np.full((2, 2), marker, dtype)
    >>> pred = np.full((2, 2), -1, np.int64)
    >>> dijkstra_rows(g.indptr, g.indices, weights, np.array([0, 1]), dist, pred, cutoff, shift)
    (4, 4)
    >>> dist.tolist(), pred.tolist()
    ([[0, 2], [3, 0]], [[-1, 0], [1, -1]])
    """
    _, _, rows_packed, rows_keyed = heap_kernels(arity)
    if shift > 0:
        return rows_packed(indptr, indices, weights, sources, dist, pred, limit, shift)
    return rows_keyed(indptr, indices, weights, sources, dist, pred, limit)


def prepare(graph, weights=None, dtype=None, limit=None):
    """The kernel arguments for ``graph``: ``(weights, dtype, marker, limit, shift)``.

    ``weights`` overrides the graph's (Johnson's reweighted arcs); ``dtype``
    the distance type (default :func:`distance_dtype`).

    Examples
    --------
    >>> import warpath
    >>> weights, dtype, marker, cutoff, shift = prepare(warpath.Graph.from_edges([0], [1], [3]))
    >>> dtype, int(cutoff) == marker == np.iinfo(np.int64).max, shift
    (dtype('int64'), True, 1)
    """
    if weights is None:
        weights = graph.weights
    dtype = distance_dtype(graph) if dtype is None else np.dtype(dtype)
    marker = unreached_value(dtype)
    if dtype.kind == "i":
        cutoff = marker if limit is None else int(min(np.floor(limit), marker))
        largest = graph.max_abs_weight if weights is graph.weights else \
            (float(np.abs(weights).max()) if weights.size else 0.0)
        bound = float(largest) * max(graph.num_vertices - 1, 1)
        if limit is not None:
            bound = min(bound, float(limit))
        shift = _packing_shift(graph.num_vertices, bound)
    else:
        cutoff = np.inf if limit is None else float(limit)
        shift = 0
    return weights, dtype, marker, dtype.type(cutoff), shift


@register("sssp", "dijkstra", "cpu", negative_weights=False, limit=True, auto_rank=0,
          summary="Dijkstra with a lazy 4-ary heap (numba; heap_arity=2: binary)",
          options=("heap_arity",))
def dijkstra(graph, source, *, predecessors=True, limit=None, heap_arity=DEFAULT_ARITY):
    """Single-source shortest paths by Dijkstra's algorithm (non-negative weights).

    Called through :func:`warpath.sssp` (``method="dijkstra"``), which has
    already checked the source and that no weight is negative.

    Parameters
    ----------
    graph : Graph
        Non-negative weights.
    source : int
        0-based source vertex.
    predecessors : bool
        Whether to record the predecessor of each vertex.
    limit : float, optional
        Stop at this distance: vertices farther away are reported unreachable
        (``inf``, predecessor -1); a vertex exactly at ``limit`` is kept.
    heap_arity : int
        Children per heap node, 2 to 16: 4 (default) is the fastest measured
        on road and random graphs; 2 is the textbook binary heap of the
        papers' sequential baseline.

    Returns
    -------
    SSSPResult
        Exact int64 distances for integer weights (float64 with a warning if
        they could overflow), float64 for float weights.  ``stats`` counts
        ``iterations`` (vertices settled) and ``relaxations`` (arcs scanned).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
    >>> r = dijkstra(g, 0)
    >>> r.distances.tolist(), r.path(2).tolist(), r.stats["iterations"]
    ([0.0, 1.0, 2.0], [0, 1, 2], 3)
    >>> dijkstra(g, 0, limit=1).distances.tolist()
    [0.0, 1.0, inf]
    >>> warpath.sssp(g, 0, method="dijkstra", heap_arity=2).distances.tolist()
    [0.0, 1.0, 2.0]
    """
    heap_kernels(heap_arity)  # checks heap_arity before any work
    weights, dtype, marker, cutoff, shift = prepare(graph, limit=limit)
    n = graph.num_vertices
    dist = np.full(n, marker, dtype=dtype)
    pred = np.full(n if predecessors else 0, -1, dtype=np.int64)
    settled, relaxations = dijkstra_into(graph.indptr, graph.indices, weights, source, dist,
                                         pred, cutoff, shift, heap_arity)
    return SSSPResult(source, dist, pred if predecessors else None,
                      stats={"iterations": int(settled), "relaxations": int(relaxations)})
