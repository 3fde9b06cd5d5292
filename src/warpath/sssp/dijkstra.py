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

A sift moves and compares heap entries, so the heap keeps one int64 word per
entry.  Two layouts (:func:`heap_layout`), both ``key | vertex`` with the
vertex in the low ``shift`` bits (``shift`` = the bits of the largest vertex
id, at least 1):

``"packed"``
    Integer weights whose path lengths leave room: the key is ``distance <<
    shift``, exact; a sift moves one word and compares once per level.
``"rounded"``
    Float weights, or integer path lengths too long to pack: the key is the
    int64 bit pattern of ``float64(distance)`` with its low ``shift`` bits
    cleared, so it keeps 52 - ``shift`` of the 52 mantissa bits (31 at 2M
    vertices; the exponent whole for any graph of up to 2**52 vertices, more
    than fits in memory).  One-word keys took the float 514 x 514 grid from
    60 to 42 ms and float random(2M, 12M) from 3.4 to 2.5 s per source on
    the CI box against keys and vertices in two arrays (float32 keys then);
    float64 keys run as fast, with fewer collisions (``docs/performance.md``).

Why rounded keys still give exact distances: the distances are computed and
stored in float64 (or int64) as before; only the heap order is rounded.
Non-negative float64 bit patterns order like the values (as int64 they are
positive, below 2**63), and both ``float64()`` of an int64 and clearing low
bits are monotone, so keys order like the distances up to that rounding:
keys pop in order (a scan pushes no key below its own) and only distances
with the same key may pop out of order.  An entry is current while its key
is the key of its vertex's distance now; others are skipped as stale.  A
vertex whose distance improves after its scan, within the key being
scanned, is pushed and scanned again (label-correcting inside one key); an
improvement whose key is still queued above the one being scanned needs no
second entry.  So every reached vertex is scanned at its final distance,
after which no arc can improve a distance.  That fixed point is unique,
since rounded addition is monotone: every distance is the smallest rounded
path sum, the exact order's result to the last bit, and every predecessor
arc is tight (``d[p] + w == d[v]``).  The price, paid only where distances
agree to 52 - ``shift`` mantissa bits (about 9 digits at 2M vertices) and
arcs between them are about that short or zero: ``iterations`` above the
reached vertices (many times above on inputs built for it, as for any
label-correcting order), and a heap that may outgrow one entry per arc and
then doubles.

Pops use the bottom-up ("hole") sift-down with ``arity`` sentinels after the
last entry, which avoids bounds checks and one unpredictable branch per
level.

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

from .. import jit
from ..dtypes import distance_dtype, unreached_value
from ..errors import OptionError
from ..methods import register
from ..result import SSSPResult

INT_UNREACHED = np.iinfo(np.int64).max
#: Up to this many arcs a single-source query runs the kernel's code in Python: about 50 ms
#: at 32K arcs on the 2-core development machine, against about 3.5 s to compile it the first
#: time (0.5 s to load it from numba's cache later).
INTERPRETED_ARCS = 1 << 15
#: Children per heap node unless ``heap_arity=`` says otherwise (2: the papers' binary heap).
DEFAULT_ARITY = 4


def _vertex_bits(num_vertices: int) -> int:
    """Bits for the vertex in a heap entry: those of the largest vertex id, at least 1."""
    return max(1, int(num_vertices - 1).bit_length())


def _packing_shift(num_vertices: int, max_distance: float) -> int:
    """Bits for the vertex in a packed heap entry, or 0 when ``distance << bits`` could overflow."""
    shift = _vertex_bits(num_vertices)
    if max_distance < float(2 ** (62 - shift)):
        return shift
    return 0


def heap_layout(shift: int) -> str:
    """The heap entry layout for :func:`prepare`'s ``shift``: ``"packed"`` or ``"rounded"``.

    ``shift`` is 0 when exact integer distances do not pack beside the
    vertex.  The module docstring describes the layouts.

    Examples
    --------
    >>> heap_layout(10), heap_layout(0)
    ('packed', 'rounded')
    """
    return "packed" if shift > 0 else "rounded"


@njit(cache=True, inline="always")
def _entry_key(d, shift, exact, scratch, bits):
    """Distance ``d`` as the high bits of a one-word heap entry.

    ``exact``: ``d << shift``; otherwise the bit pattern of ``float64(d)``
    (``scratch`` is one float64, ``bits`` its int64 view) with the low
    ``shift`` bits cleared.  Both steps are monotone and non-negative float64
    bit patterns order like the values, so the keys order like the
    distances, up to that rounding.
    """
    if exact:
        return np.int64(d) << shift
    scratch[0] = d
    return (bits[0] >> shift) << shift


@njit(cache=True, inline="always")
def _pop(heap, size, arity, marker):
    """Remove the root of a heap of ``size + 1`` entries, leaving ``size``.

    The hole at the root walks down to a leaf along the smallest children,
    then the last entry sifts up from there ("bottom-up" pop);
    ``heap[size:size + arity]`` hold ``marker`` (larger than every entry),
    so a family is compared whole, without bounds checks.
    """
    last = heap[size]
    heap[size] = marker
    i = 0
    c = 1
    while c < size:
        smallest, key = _smallest_child(heap, c, arity)
        heap[i] = key
        i = smallest
        c = arity * i + 1
    _sift_up(heap, i, last, arity)


@njit(cache=True, inline="always")
def _smallest_child(keys, c, arity):
    """The smallest of ``keys[c:c + arity]`` (the first among equals): ``(index, key)``."""
    smallest = c
    a = keys[c]
    for k in range(1, arity):
        b = keys[c + k]
        if b < a:
            a = b
            smallest = c + k
    return smallest, a


@njit(cache=True, inline="always")
def _push(heap, size, item, arity, marker):
    """Add ``item`` to a heap of ``size`` entries (the caller counts it), keeping the sentinels."""
    heap[size + arity] = marker
    _sift_up(heap, size, item, arity)


@njit(cache=True, inline="always")
def _sift_up(heap, i, item, arity):
    """Put ``item`` into the hole at ``i`` or above it, moving larger parents down."""
    while i > 0:
        p = (i - 1) // arity
        h = heap[p]
        if h <= item:
            break
        heap[i] = h
        i = p
    heap[i] = item


@njit(cache=True)
def _doubled(heap):
    """``heap`` copied into an array twice as long (its sentinels come along)."""
    larger = np.empty(2 * heap.shape[0], heap.dtype)
    larger[:heap.shape[0]] = heap
    return larger


def _one_word_kernel(arity, exact):
    """The kernel whose heap entries are one int64 word: ``key << shift | vertex``.

    ``exact``: the key is the int64 distance (layout ``"packed"``); otherwise
    the float64 bit pattern of the distance, low ``shift`` bits cleared (``"rounded"``).
    """

    @njit(cache=True)
    def one_word(indptr, indices, weights, sources, dist, pred, limit, shift):
        """Dijkstra from each of ``sources`` into the rows of ``dist`` and ``pred``.

        ``dist`` (int64 for exact keys, float64 or int64 otherwise) must hold
        the unreachable marker everywhere; ``pred`` rows are length n (filled)
        or length 0 (not wanted).  Vertices farther than ``limit`` are never
        labelled.  Returns ``(scans, relaxations)`` summed over the sources.
        """
        low = (np.int64(1) << shift) - 1
        marker = np.int64(INT_UNREACHED)
        scratch = np.empty(1, np.float64)
        bits = scratch.view(np.int64)
        want_pred = pred.shape[1] > 0
        max_degree = 0
        for x in range(indptr.shape[0] - 1):
            max_degree = max(max_degree, indptr[x + 1] - indptr[x])
        # Exact keys push each arc at most once, so this never grows.  Rounded keys can
        # scan a vertex again and push its arcs again: the outer loop below grows the heap
        # then, outside the hot loop (reassigning ``heap`` inside it cost 25-35% on the grid).
        heap = np.empty(indices.shape[0] + max_degree + arity + 2, np.int64)
        scans = 0
        relaxations = 0
        for row in range(sources.shape[0]):
            d = dist[row]
            pred_row = pred[row]
            source = sources[row]
            d[source] = 0
            heap[0] = source  # key 0: distance 0, and float64 +0.0 is all zero bits
            heap[1:arity + 1] = marker
            size = 1
            while size > 0:
                if size + max_degree + arity >= heap.shape[0]:
                    heap = _doubled(heap)
                while size > 0 and size + max_degree + arity < heap.shape[0]:
                    top = heap[0]
                    u = top & low
                    size -= 1
                    _pop(heap, size, arity, marker)
                    d_u = d[u]
                    if top - u != _entry_key(d_u, shift, exact, scratch, bits):
                        continue  # stale: u's distance has improved to another key since
                    scans += 1
                    lo = indptr[u]
                    hi = indptr[u + 1]
                    relaxations += hi - lo
                    for e in range(lo, hi):
                        v = indices[e]
                        d_v = d_u + weights[e]
                        if d_v < d[v] and d_v <= limit:
                            key = _entry_key(d_v, shift, exact, scratch, bits)
                            # rounded keys: v's entry under the same key, above the key being
                            # scanned, is still queued (keys pop in order) and will scan v at d_v.
                            # (The unreached marker's key is above every reachable one: inf, or
                            # 2**63 for int64, whose path lengths the dtype guards keep below
                            # 0.75 * 2**63.)
                            queued = (not exact and key > top - u
                                      and key == _entry_key(d[v], shift, exact, scratch, bits))
                            d[v] = d_v
                            if want_pred:
                                pred_row[v] = u
                            if not queued:
                                _push(heap, size, key | v, arity, marker)
                                size += 1
        return scans, relaxations

    return one_word


@functools.lru_cache(maxsize=None)
def heap_kernels(arity: int = DEFAULT_ARITY):
    """The Dijkstra kernels with a lazy ``arity``-ary heap, compiled once per arity.

    ``arity`` is a compile-time constant of the kernels (a run-time one cost
    10-20%).  Returns ``{layout: kernel}`` for the layouts of
    :func:`heap_layout`; each kernel runs from many sources (one row each,
    see :func:`dijkstra_rows`).  The heap array keeps ``heap[size:size +
    arity]`` at int64 max (larger than every entry), so a pop
    compares whole families without bounds checks.

    Examples
    --------
    >>> heap_kernels(2) is heap_kernels(2), heap_kernels(2) is heap_kernels(4)
    (True, False)
    >>> sorted(heap_kernels(2))
    ['packed', 'rounded']
    """
    if isinstance(arity, bool) or not isinstance(arity, (int, np.integer)) \
            or not 2 <= arity <= 16:
        raise OptionError(f"heap_arity must be an integer from 2 to 16, not {arity!r}")
    arity = int(arity)
    return {"packed": _one_word_kernel(arity, exact=True),
            "rounded": _one_word_kernel(arity, exact=False)}


def dijkstra_into(indptr, indices, weights, source, dist, pred, limit, shift,
                  arity=DEFAULT_ARITY, interpreted=False):
    """Run Dijkstra from ``source`` into the prepared ``dist``/``pred`` arrays.

    :func:`dijkstra_rows` with one row: ``dist`` must be filled with the
    unreachable marker and ``pred`` with -1 (or be empty).

    Returns
    -------
    (scans, relaxations)

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
    return dijkstra_rows(indptr, indices, weights, np.array([source], np.int64),
                         dist[np.newaxis], pred[np.newaxis], limit, shift, arity, interpreted)


def dijkstra_rows(indptr, indices, weights, sources, dist, pred, limit, shift,
                  arity=DEFAULT_ARITY, interpreted=False):
    """Dijkstra from each of ``sources`` into the rows of ``dist`` and ``pred`` (one compiled loop).

    ``dist`` has shape (len(sources), n), filled with the unreachable marker;
    ``pred`` is (len(sources), n) filled with -1, or (len(sources), 0).  This
    is the kernel that single-source Dijkstra, repeated SSSP and Johnson's
    algorithm share.  The heap layout is :func:`heap_layout`'s; ``arity``
    children per heap node (2: a binary heap).  ``interpreted`` runs the
    kernel's code in Python (:func:`warpath.jit.interpreted`): no compilation.

    Returns
    -------
    (scans, relaxations)
        Totals over all sources: vertex scans (each reached vertex once, with
        rounded keys possibly more, see the module docstring) and arcs scanned.

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
    layout = heap_layout(shift)
    kernel = heap_kernels(arity)[layout]
    if interpreted:
        kernel = jit.interpreted(kernel)
    return kernel(indptr, indices, weights, sources, dist, pred, limit,
                  shift if layout == "packed" else _vertex_bits(indptr.shape[0] - 1))


def prepare(graph, weights=None, dtype=None, limit=None):
    """The kernel arguments for ``graph``: ``(weights, dtype, marker, limit, shift)``.

    ``weights`` overrides the graph's (Johnson's reweighted arcs); ``dtype``
    the distance type (default :func:`distance_dtype`).

    Examples
    --------
    >>> import warpath
    >>> weights, dtype, marker, cutoff, shift = prepare(warpath.Graph.from_edges([0], [1], [3]))
    >>> dtype, bool(int(cutoff) == marker == np.iinfo(np.int64).max), shift
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
          options=("heap_arity",), interpreted_arcs=INTERPRETED_ARCS)
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

    Graphs of at most ``INTERPRETED_ARCS`` arcs run the same kernel code in
    the Python interpreter (:func:`warpath.jit.interpreted`): the same
    distances, predecessors and counters, without the seconds numba takes
    to compile the kernel on a fresh install (or half a second to load it).

    Returns
    -------
    SSSPResult
        Exact int64 distances for integer weights (float64 with a warning if
        they could overflow), float64 for float weights.  ``stats`` counts
        ``iterations`` (vertex scans) and ``relaxations`` (arcs scanned).
        Each reached vertex is scanned once, except where the rounded heap
        keys (float weights, or integer path lengths too long to pack)
        collide: a vertex whose distance improves within one key is scanned
        again, so both counts can exceed those of a textbook Dijkstra (and
        ``iterations`` the number of vertices).

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
    scans, relaxations = dijkstra_into(graph.indptr, graph.indices, weights, source, dist,
                                       pred, cutoff, shift, heap_arity,
                                       interpreted=jit.runs_interpreted(graph.num_edges,
                                                                        INTERPRETED_ARCS))
    return SSSPResult(source, dist, pred if predecessors else None,
                      stats={"iterations": int(scans), "relaxations": int(relaxations)})
