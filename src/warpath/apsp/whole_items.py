"""Task-parallel rounds over whole items (``whole_items=True`` of ``task-parallel``).

The frontier form of :mod:`warpath.apsp.task_parallel` keeps a word of lane bits
per item (a vertex and 32 rows) and expands only the rows whose bit is set.  On
random(1M, 6M) about 1.5 of an item's 32 rows are active in a round, so most of a
warp's lanes idle, and the bits cost an atomic ``or`` per lowered distance, a
queue entry per item and a warp barrier per item.  Here an item in the round
relaxes **all** its rows, a lane per row, every lane reading the same arcs.  A row
whose distance did not change since it last relaxed these arcs lowers nothing,
and its read of the head's distance shares a 128-byte line with the rows that do
change, so it costs no extra traffic.

No queue either: each item has three mark bytes, one per round in turn
(:func:`mark_slots`).  A lowering in round r sets the head's item's mark for round
r + 1 (a plain store, whoever stores it), and round r sweeps every item's mark for
r, a warp reading 32 at once (:func:`~warpath.cuda.operators.advance_marked`), so
joining the next round costs no atomic and no wait.  The same sweep clears each
item's mark for round r + 2: round r - 1 read it and round r + 1 marks it again,
after the barrier.  (Until the thirtieth session two slots needed a second step
after the barrier to clear the marks for r, and a second sweep.)  (One stamp an item, "due in
round r", stored over by a lowering in round r, lost its round when the lowering
came before the sweep reached it: on a ring, every item waited behind its
predecessor's, and the rounds ran past the negative-cycle bound.)  Each lane takes
four arcs at once: it loads their heads, then its row's distance at each head,
before relaxing any.

A CPU model of the rounds on random(1M, 6M), 32 sources
(``bench/whole_items_model.py``) expands 53-85M (item, arc) pairs a launch, 8.8 to
14 per arc, in 28-35 rounds: 7.9-12.7 GB of distance lines, 2-3 ms at the H200's
bandwidth.  Measured there (H200, 1,000 sources, same call): 48.7M pairs and 13.3 ms
a launch, 0.425 s in all against 0.490 s for the default (items of lane bits with
near-far); on Okuyama's V = 4,677 graphs faster on the random (0.018 against 0.050 s)
and complete ones, slower on the power-law graph (0.129 against 0.030 s: a warp walks
a hub's 834 arcs alone) and on the ring (every round sweeps every mark).  So it is an
option, not the default (docs/performance.md, twenty-sixth session).  Its positions
computed without numba's wraparound (:func:`~warpath.cuda.indices.at`) took the 1,000
sources from 0.426 to 0.344 s (twenty-seventh session), and 32-bit positions, wider
launches and arcs shared by shuffles to about 0.21 s (twenty-eighth).  Since the
twenty-ninth session it is the default on small-world graphs without hubs
(:func:`~warpath.apsp.task_parallel.whole_items_by_default`); a vertex of at most 32
arcs loads its bounds and arcs once for all the items of a warp's chunk.  Since the
thirtieth, a round is one step (three mark slots, see above), and on a GPU the warps
claim their chunks from a counter of the round
(:data:`~warpath.apsp.task_parallel.WHOLE_ITEM_CLAIMS`) rather than each taking every
stride-th chunk, so that no round waits for the warp that drew the heaviest chunks.

Since the thirty-fourth session a launch of whole items keeps a multiple of 32 rows a
vertex when that adds at most one idle row in 16 (:func:`~warpath.apsp.gpu_rows.padded_rows`;
an idle row has source -1, stays at ``inf`` and is not delivered): 1,000 rows keep 1,024,
so that every item is one aligned 128-byte line, not two, for its reads and its
``atomicMin``; 0.167 -> 0.158 s for the 1,000 sources, with the start's fill made
grid-stride (docs/performance.md).

**Near-far buckets** (``near_far=True``).  Without them an item is expanded in every
round in which any of its 32 rows was lowered, 8.8 times per arc in the model's
launch, because the rows' searches pass a vertex in different rounds.  With them,
each item also keeps its least lowered row since it was last expanded (two slots, one
per round's parity, lowered by ``atomicMin``), and a round expands only the marked
items whose least row is below the launch's bound.  The others wait: the step after
the barrier carries their mark and least row into the next round's slots.  When no
lowering of a round fell below the bound, the bound moves to ``delta`` past the
nearest waiting row (each round keeps that least waiting value in one word).  An
item then gathers the lowerings of many rows before it is expanded once for all of
them.  In the model (``nf_items`` in docs/performance.md, twenty-eighth session),
buckets of 50-200 cut the pairs per arc from 8.8 to 5.0-5.7, in 46-82 rounds instead
of 28.  Positions are 32-bit (:func:`~warpath.cuda.indices.at32`) whenever every
array of the launch fits (:func:`fits_32_bits`).

State: ``(d, marks, W, items, inf, floor, groups)`` (:meth:`WholeItems.start`), the
marks for round r at ``(r mod 3) * items + item``; near-far keeps two slots (``r & 1``)
and adds ``(lows, bounds, near, delta, nearest)``: the least lowered rows (two slots an
item, as the marks), and per round parity the bound, whether a lowering fell below it,
and the least value that waits.  Last comes ``claims``, the rounds' three counters of
claimed chunks (:data:`CLAIMS`, :data:`CLAIMS_NEAR_FAR`).

Examples
--------
>>> import warpath
>>> g = warpath.generators.random(50, 200, seed=3)
>>> a = warpath.multi_source(g, [0, 7], device="cuda", whole_items=True)
>>> b = warpath.multi_source(g, [0, 7], device="cpu")
>>> bool((a.distances == b.distances).all()), a.stats["whole_items"]
(True, True)
"""

from __future__ import annotations

import functools

import numpy as np

#: numba.cuda, bound by :func:`whole_item_steps` on first use (a module global, not a
#: local: the CUDA simulator swaps module globals).
cuda = None

#: The rows of a whole item: a warp, a lane per row.
ITEM_ROWS = 32


@functools.lru_cache(maxsize=None)
def whole_item_steps(narrow: bool = False, near_far: bool = False,
                     shuffled: bool = False, paired: bool = False,
                     claimed: bool = False, claim_chunks: int = 0) -> list:
    """The steps of a round over whole items: an
    :func:`~warpath.cuda.operators.advance_marked` over the items marked for the round,
    which clears the marks of the round after next as it passes (:func:`mark_slots`);
    with near-far, then a :func:`~warpath.cuda.operators.filter_indices` that clears the
    round's marks and carries the waiting items into the next round.
    ``narrow=True`` computes every position in unsigned 32-bit arithmetic
    (:func:`~warpath.cuda.indices.at32`), for launches whose arrays and graph all have
    fewer than 2**32 entries (:func:`fits_32_bits`).  ``near_far=True`` expands only
    the items whose least lowered row is below the launch's bound (see the module notes).
    ``shuffled=True`` loads a vertex's arcs a lane each and shares them by shuffles, and
    ``paired=True`` (with it) walks two items of a vertex at once, and ``claimed=True``
    has each warp claim its next chunks of items from a counter of the round,
    ``claim_chunks`` at a time (0: as the grid's size says)
    (:func:`~warpath.cuda.operators.advance_marked`'s ``claims``).

    Examples
    --------
    >>> steps = whole_item_steps()
    >>> len(steps), steps[0].mapping.kind, steps[0].mapping.lanes
    (1, 'marked-items', (32, 32))
    >>> len(whole_item_steps(near_far=True))
    2
    """
    global cuda
    from numba import cuda

    from ..cuda.distances import bound_past
    from ..cuda.flags import NEGATIVE_CYCLE, mark_changed
    from ..cuda.indices import at, at32
    from ..cuda.operators import advance_marked, filter_indices, shares_arcs_by_shuffles

    position = at32 if narrow else at
    walks_shared = shares_arcs_by_shuffles(shuffled)   # gather: see its note
    slots = mark_slots(near_far)
    counters_at = CLAIMS_NEAR_FAR if near_far else CLAIMS

    @cuda.jit(device=True)
    def slot_of(r):
        """The slot of round r's marks: r mod :func:`mark_slots`."""
        if slots == 2:
            return np.uint32(r & 1)
        return np.uint32(r % 3)

    @cuda.jit(device=True)
    def active(state, item, r):
        """Whether ``item`` is marked for round r (near-far: and its least lowered row is
        below the bound; one above it waits, and its distance joins the round's nearest)."""
        slot = position(slot_of(r), state[3], item)
        if state[1][slot] == 0:
            return False
        if near_far:
            low = state[7][slot]
            if low >= state[8][r & 1]:
                if low < state[11][r & 1]:
                    cuda.atomic.min(state[11], r & 1, low)
                return False
        return True

    @cuda.jit(device=True)
    def gather(state, row, u, r):
        """Row ``row`` of u's item: its distance; rows past the launch's last stay idle, at
        ``inf``.  When the warp walks the arcs by shuffles, an unreached row (``inf``) is
        active too, and :func:`relax` lowers nothing from it: every row is visited there
        anyway (see :func:`~warpath.cuda.operators.advance_marked`), and ``active`` only
        decides whether its visits count, so the ``relaxations`` of a GPU count an unreached
        row's arcs, and an idle row's (source -1, padding the launch).  (Until the
        thirty-second session the walk branched on ``active``, and a test of the distance
        here made the lane wait for its load before it peeked: 13% of the stall samples of a
        1,000-row launch, H200 profile, thirty-first session.)  A lane that walks its own
        arcs (the simulator, or ``shuffled=False``) skips such a row, and the walk."""
        if row >= state[2]:
            return False, state[4]
        du = state[0][position(u, state[2], row)]
        return walks_shared or du != state[4], du

    @cuda.jit(device=True)
    def peek(state, row, v):
        """Row ``row``'s distance at the head v, read before the arc's relaxation."""
        return state[0][position(v, state[2], row)]

    @cuda.jit(device=True)
    def relax(state, row, u, du, v, w, dv, e, r, conv):
        """d[v, row] = min(d[v, row], du + w) when the peeked ``dv`` says it lowers and
        u is reached (``du`` below ``inf``), and
        v's item is then marked for round r + 1 (near-far: its least lowered row kept,
        and the round told whether a lowering fell below the bound, or how near above
        it).  A candidate below the floor proves a negative cycle and is not written."""
        candidate = du + w
        if not candidate < dv:   # first: dv's load must not wait behind a test of du alone
            return False
        if du == state[4]:   # an unreached or idle row (inf + w < dv with a negative w)
            return False
        if candidate < state[5]:
            conv[NEGATIVE_CYCLE] = 1
            return False
        cuda.atomic.min(state[0], position(v, state[2], row), candidate)
        slot = position(slot_of(r + 1), state[3], position(v, state[6], row // ITEM_ROWS))
        state[1][slot] = 1
        if near_far:
            if candidate < state[7][slot]:
                cuda.atomic.min(state[7], slot, candidate)
            if candidate < state[8][r & 1]:
                if state[9][r & 1] == 0:
                    state[9][r & 1] = 1
            elif candidate < state[11][r & 1]:
                cuda.atomic.min(state[11], r & 1, candidate)
        return True

    @cuda.jit(device=True)
    def retire(state, item, r):
        """Clear ``item``'s mark of round r + 2 (three slots): round r - 1 read it, round
        r + 1 marks it."""
        state[1][position(slot_of(r + 2), state[3], item)] = 0

    @cuda.jit(device=True)
    def every_item(graph, frontier, state, conv, r, thread):
        """Every item; near-far: thread 0 sets round r + 1's books (the bound moves to
        ``delta`` past the nearest waiting row when no lowering fell below it)."""
        if near_far and thread == 0:
            now, then = r & 1, (r + 1) & 1
            bound, nearest = state[8][now], state[11][now]
            if state[9][now] == 0 and nearest < state[4]:
                bound = bound_past(nearest, state[10], state[4])
            state[8][then] = bound
            state[9][then] = 0
            state[11][then] = state[4]
            if nearest < state[4]:   # rows wait: the rounds go on
                mark_changed(conv, r)
        return state[3]

    @cuda.jit(device=True)
    def unmark(state, row, item, r, conv):
        """Clear ``item``'s mark for round r (every lane has read it); near-far: an item
        that waited moves, with its least lowered row, into round r + 1's."""
        now = position(r & 1, state[3], item)
        if near_far and state[1][now] != 0:
            low = state[7][now]
            if low >= state[8][r & 1]:
                then = position((r + 1) & 1, state[3], item)
                state[1][then] = 1
                if low < state[7][then]:
                    state[7][then] = low
            state[7][now] = state[4]
        state[1][now] = 0
        return False

    counted = counters_at if claimed else None
    if not near_far:   # three slots: each round's sweep clears the marks of the round after next
        return [advance_marked(active, gather, peek, relax, narrow, shuffled, paired, retire,
                               counted, claim_chunks)]
    return [advance_marked(active, gather, peek, relax, narrow, shuffled, paired,
                           claims=counted, claim_chunks=claim_chunks),
            filter_indices(every_item, unmark)]


#: Where the state tuple keeps the counters of claimed chunks: after the seven common
#: entries, or after near-far's five more.
CLAIMS, CLAIMS_NEAR_FAR = 7, 12


def mark_slots(near_far: bool) -> int:
    """The slots of marks an item keeps, one per round in turn: three, or two with
    near-far.

    Round r reads slot r mod 3 and marks slot r + 1.  Three slots let round r's sweep
    clear slot r + 2 as it passes each item (round r - 1 read it, round r + 1 will mark
    it), so a round is one step.  Near-far's waiting items must move into the next
    round's slot after the round's barrier, so it keeps two slots and a second step
    that clears them.

    Examples
    --------
    >>> mark_slots(False), mark_slots(True)
    (3, 2)
    """
    return 2 if near_far else 3


@functools.lru_cache(maxsize=None)
def _mark_kernel():
    """``mark(marks, d, lows, sources, groups, claims)``: each row's distance 0 at its
    source, round 0's mark on the row's source item and (near-far, ``lows`` longer than
    one) its least lowered row, the source's 0 (after ``gpu_rows``' start kernel has
    filled d with ``inf`` and cleared every mark); the counters of claimed chunks
    cleared.  A row whose source is -1 is idle (a launch padded to whole items,
    :func:`~warpath.apsp.gpu_rows.padded_rows`): it stays at ``inf`` and lowers nothing."""
    global cuda
    from numba import cuda

    from ..cuda.indices import at

    @cuda.jit
    def mark(marks, d, lows, sources, groups, claims):
        row = cuda.grid(1)
        if row < claims.shape[0]:
            claims[row] = 0
        if row < sources.shape[0] and sources[row] >= 0:   # -1: an idle row (padding)
            d[at(sources[row], sources.shape[0], row)] = 0
            item = sources[row] * groups + row // ITEM_ROWS
            marks[item] = 1
            if lows.shape[0] > 1:
                lows[item] = 0

    return mark


def fits_32_bits(n: int, width: int, arcs: int) -> bool:
    """Whether every position of a launch of ``width`` rows on ``n`` vertices and ``arcs``
    arcs (distances, three slots of marks, arcs) is below 2**32: then
    :func:`whole_item_steps` ``(narrow=True)`` serves it.

    Examples
    --------
    >>> fits_32_bits(1_000_000, 1024, 6_000_000), fits_32_bits(2**27, 64, 6_000_000)
    (True, False)
    >>> fits_32_bits(1000, 32, 2**32 - 40), fits_32_bits(1000, 32, 2**32 - 20)
    (True, False)
    """
    from ..cuda.indices import AT32_LIMIT
    from ..cuda.mappings import item_groups

    marks = mark_slots(False) * n * item_groups(width)
    # the arc walks step past the last arc by up to a warp before they stop
    return max(n * width, marks, arcs + ITEM_ROWS, n + 1) < AT32_LIMIT


class WholeItems:
    """The whole items' marks (:func:`mark_slots` bytes an item) for launches of up to ``width`` rows on
    ``n`` vertices, and with ``near_far`` each item's least lowered row, two an item, in
    the distances' ``dtype``.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> from warpath.cuda.problem import Problem
    >>> from numba import cuda as nb
    >>> dgraph = device_graph(warpath.generators.ring(3, seed=0, weights=None))
    >>> items = WholeItems(3, 40)   # two items a vertex
    >>> d = nb.device_array(3 * 2, np.int32)
    >>> problem = Problem(dgraph, [2, 1], distances=d)
    >>> state = items.start(d, nb.to_device(np.array([2, 1])), problem)
    >>> state[1].copy_to_host().tolist(), d.copy_to_host().tolist()[:4]
    ([0, 1, 1, 0, 0, 0, 0, 0, 0], [2147483647, 2147483647, 2147483647, 0])
    >>> far = WholeItems(3, 40, np.int32, near_far=True)
    >>> state = far.start(d, nb.to_device(np.array([2, 1])), problem, np.int32(5))
    >>> state[7].copy_to_host().tolist()[:3], state[8].copy_to_host().tolist()
    ([2147483647, 0, 0], [5, 5])
    """

    def __init__(self, n: int, width: int, dtype=None, near_far: bool = False):
        from numba import cuda as _cuda

        from ..cuda.mappings import item_groups

        self.n = n
        self.width = width
        self.near_far = bool(near_far)
        items = n * item_groups(width)
        self.marks = _cuda.device_array(mark_slots(near_far) * items, dtype=np.uint8)
        self.lows = _cuda.device_array(2 * items if near_far else 1, dtype=dtype or np.int32)
        self.claims = _cuda.device_array(3, dtype=np.uint32)

    def narrow(self, arcs: int) -> bool:
        """Whether this launch width's positions fit in 32 bits on a graph of ``arcs``
        arcs (:func:`fits_32_bits`)."""
        return fits_32_bits(self.n, self.width, arcs)

    def start(self, d, on_device, problem, delta=None) -> tuple:
        """Start a launch of the rows ``on_device`` (sources on the GPU): the state tuple
        of :func:`whole_item_steps`; near-far's first bound is ``delta``."""
        from numba import cuda as _cuda

        from ..cuda.fills import fill_job, run_fills
        from ..cuda.mappings import item_groups
        from ..cuda.runtime import THREADS, blocks_for, stride_blocks
        from . import gpu_rows

        rows = on_device.shape[0]
        groups = item_groups(rows)
        items = self.n * groups
        marks = self.marks[:mark_slots(self.near_far) * items]
        lows = self.lows[:2 * items] if self.near_far else self.lows
        start_items = gpu_rows._kernels()[3]   # d filled with inf, every mark cleared
        start_items[stride_blocks(max(d.shape[0], marks.shape[0])), THREADS](
            d, marks, on_device, problem.inf)
        if self.near_far:
            run_fills([fill_job(lows, lows.shape[0], problem.inf)])
        _mark_kernel()[blocks_for(max(rows, 3)), THREADS](marks, d, lows, on_device,
                                                           np.int64(groups), self.claims)
        problem.tally.launch(3 if self.near_far else 2)
        state = (d, marks, np.int64(rows), np.int64(items), problem.inf, problem.floor,
                 np.int64(groups))
        if not self.near_far:
            return state + (self.claims,)
        kind = d.dtype.type
        books = (_cuda.to_device(np.array([delta, delta], d.dtype)),
                 _cuda.to_device(np.zeros(2, np.uint8)), kind(delta),
                 _cuda.to_device(np.array([problem.inf, problem.inf], d.dtype)))
        return state + (lows,) + books + (self.claims,)
