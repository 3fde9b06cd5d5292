"""Operators: the steps of a round, each compiled for a mapping and a method's device functions.

A GPU method supplies small device functions and the operators supply the
loops around them (Gunrock's advance/filter, in numba):

- :func:`advance` expands vertices (all arcs, all vertices, a frontier, or
  many-source tasks, all of them or a frontier's, per the
  :class:`~warpath.cuda.mappings.Mapping`).  For
  each expanded vertex it calls ``gather(state, row, u, r) -> (active, du)``
  once (read u's distance, test and clear its flag ...), and for each arc
  ``u -> v`` of weight ``w`` (arc index ``e``) of an active vertex it calls
  ``visit(state, row, u, du, v, w, e, r, conv) -> bool`` (relax, claim a
  level ...).  With ``output=QUEUE`` a ``True`` puts ``v`` in the next frontier.
- :func:`filter_vertices` calls ``apply(state, row, v, r, conv) -> bool`` on
  every vertex; with ``output=QUEUE`` a ``True`` puts ``v`` in the next
  frontier (Harish's check kernel builds its mask this way).
- :func:`filter_items` does the same over a queue the method keeps (its
  ``items`` device function names the queue and may skip the step), and
  :func:`filter_indices` over a range of indices the method sizes each round.
- :func:`compute` calls ``work(graph, state, v, r, conv) -> int`` on every
  vertex, for steps that walk arcs their own way (Safari's k-step waves); it
  returns the relax operations done.
- :func:`together` runs two steps as one, with no barrier between them.
- :func:`per_row` calls ``work(state, row, r, conv)`` once per row of a
  many-source launch, for books kept per row between rounds (task-parallel's
  near-far buckets).

Every operator is a device function
``op(graph, frontier, state, conv, rows, r, thread, stride) -> relaxations``
that the :mod:`~warpath.cuda.enactor` calls, in a one-round kernel or inside
its persistent loop.  ``graph`` is ``(indptr, heads, weights, tails)``,
``frontier`` is ``(queues, counts, heavy_queues, heavy_counts)``
(:class:`~warpath.cuda.frontier.FrontierQueue` twice), ``state`` is the
method's own tuple of arrays and scalars.  Enqueueing into the next frontier
also marks the round as changed, so "no change" and "empty frontier" are one
stop condition.  Operators are cached: one mapping and one set of device
functions compile once per process.

Examples
--------
>>> import numpy as np, warpath
>>> from warpath.cuda.mappings import thread_per_edge
>>> op = advance(thread_per_edge(), _demo_gather, _demo_visit, NO_OUTPUT)
>>> op is advance(thread_per_edge(), _demo_gather, _demo_visit, NO_OUTPUT)
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numba import cuda

from .flags import mark_changed
from .frontier import enqueue, enqueue_single
from .mappings import Mapping, tasks, thread_per_vertex, virtual_warp_lanes

#: ``output=`` of an operator: nothing, or the next frontier queue.
NO_OUTPUT, QUEUE = 0, 1


@functools.lru_cache(maxsize=None)
def pusher(aggregated: bool = True):
    """``push(graph, frontier, v, keep, r, heavy_degree, conv)``: put ``v`` in round
    ``r + 1``'s frontier if ``keep``; vertices of more than ``heavy_degree`` arcs
    (when > 0) go to the heavy queue.  ``aggregated``: warp-aggregated enqueue
    (every lane calls it), else one atomic per vertex."""
    put = enqueue if aggregated else enqueue_single

    @cuda.jit(device=True)
    def push(graph, frontier, v, keep, r, heavy_degree, conv):
        slot = (r + 1) % 3
        if heavy_degree > 0:
            heavy = False
            if keep:
                heavy = graph[0][v + 1] - graph[0][v] > heavy_degree
            put(frontier[0][(r + 1) % 2], frontier[1], slot, v, keep and not heavy)
            put(frontier[2][(r + 1) % 2], frontier[3], slot, v, heavy)
        else:
            put(frontier[0][(r + 1) % 2], frontier[1], slot, v, keep)
        if keep:
            mark_changed(conv, r)

    return push


push = pusher(True)


@dataclass(frozen=True)
class Operator:
    """A compiled step of a round: the ``device`` function and the ``mapping`` that sizes its grid."""

    device: object
    mapping: Mapping

    def items(self, num_vertices: int, num_edges: int, rows: int) -> int:
        """Threads one pass of this operator wants (see :meth:`Mapping.items`)."""
        return self.mapping.items(num_vertices, num_edges, rows)

    @property
    def reads_tails(self) -> bool:
        """Whether the step maps over arcs and so reads the graph's tails array."""
        return self.mapping.kind == "edges"


@functools.lru_cache(maxsize=None)
def advance(mapping, gather, visit, output: int = NO_OUTPUT, heavy_out: int = 0,
            aggregated: bool = True) -> Operator:
    """The advance operator for ``mapping`` with the method's ``gather`` and ``visit``.

    ``heavy_out`` is the degree above which an output vertex goes to the heavy
    queue (the *next* round's mapping's ``heavy_degree``); ``aggregated=False``
    enqueues with one atomic per vertex instead of one per warp.  See the module
    notes and the example there.
    """
    push = pusher(aggregated)
    kind = mapping.kind
    low, high = mapping.lanes
    heavy_in = mapping.heavy_degree
    wide = mapping.wide   # validated: its lanes reach 32
    queued = output == QUEUE

    @cuda.jit(device=True)
    def expand(graph, frontier, state, conv, row, u, r, first, step):
        """Visit u's arcs first, first + step, ... (one lane of a virtual warp)."""
        count = 0
        active, du = gather(state, row, u, r)
        if active:
            indptr, heads, weights = graph[0], graph[1], graph[2]
            for e in range(indptr[u] + first, indptr[u + 1], step):
                v = heads[e]
                keep = visit(state, row, u, du, v, weights[e], e, r, conv)
                count += 1
                if queued:
                    push(graph, frontier, v, keep, r, heavy_out, conv)
        return count

    if kind == "edges":
        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            count = 0
            tails, heads, weights = graph[3], graph[1], graph[2]
            for e in range(thread, heads.shape[0], stride):
                u = tails[e]
                for row in range(rows):
                    active, du = gather(state, row, u, r)
                    if active:
                        count += 1
                        v = heads[e]
                        keep = visit(state, row, u, du, v, weights[e], e, r, conv)
                        if queued:
                            push(graph, frontier, v, keep, r, heavy_out, conv)
            return count
    elif kind == "vertices":
        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            count = 0
            n = graph[0].shape[0] - 1
            for u in range(thread, n, stride):
                for row in range(rows):
                    count += expand(graph, frontier, state, conv, row, u, r, 0, 1)
            return count
    elif kind == "tasks":
        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            count = 0
            n = graph[0].shape[0] - 1
            # task i = u * rows + row for i = thread, thread + stride, ...: (u, row) stepped
            # by (stride // rows, stride % rows) with a carry, not a 64-bit division per task
            u, row = thread // rows, thread % rows
            u_step, row_step = stride // rows, stride % rows
            while u < n:
                count += expand(graph, frontier, state, conv, row, u, r, 0, 1)
                row += row_step
                u += u_step
                if row >= rows:
                    row -= rows
                    u += 1
            return count
    elif kind == "frontier-tasks":
        @cuda.jit(device=True)
        def expand_row(graph, frontier, state, conv, row, u, groups, group, r):
            """One lane of an item: its row's scatter over u's arcs; a True visit puts
            the head's item (same group of rows) in the next frontier."""
            count = 0
            active, du = gather(state, row, u, r)
            if active:
                indptr, heads, weights = graph[0], graph[1], graph[2]
                for e in range(indptr[u], indptr[u + 1]):
                    v = heads[e]
                    keep = visit(state, row, u, du, v, weights[e], e, r, conv)
                    count += 1
                    if queued:
                        push(graph, frontier, v * groups + group, keep, r, 0, conv)
            return count

        width = mapping.lanes[0]   # rows an item, lanes a task group

        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            count = 0
            size = frontier[1][r % 3]
            queue = frontier[0][r % 2]
            groups = (rows + width - 1) // width
            lane = thread % width
            # ``width`` lanes an item: the lanes of an item have the same trip count, so
            # gather may synchronise them (to read and clear the item's word together)
            for i in range(thread // width, size, stride // width):
                item = queue[i]
                u = item // groups
                group = item - u * groups
                count += expand_row(graph, frontier, state, conv, group * width + lane,
                                    u, groups, group, r)
            return count

        if mapping.spreads_lanes:   # not under the simulator, which has no votes
            op = _spread_items(gather, visit, push, queued)
    elif kind == "frontier":
        @cuda.jit(device=True)
        def in_warps(graph, frontier, state, conv, r, thread, stride):
            """H-BF 5.2: each vertex of the queue expanded by a virtual warp (several
            warps on a tiny frontier of a ``wide`` mapping)."""
            count = 0
            size = frontier[1][r % 3]
            queue = frontier[0][r % 2]
            lanes = virtual_warp_lanes(stride, size, low, high)
            if wide and lanes == 32 and 0 < size * 32 * WIDE_FROM <= stride:
                lanes = virtual_warp_lanes(stride, size, 32, stride)   # several warps a vertex
            lane = thread % lanes
            groups = stride // lanes   # wide groups: at least size of them, one pass
            # Same trip count for every lane of a warp: enqueue is warp-aggregated.
            for start in range(0, size, groups):
                i = start + thread // lanes
                if i < size:
                    count += expand(graph, frontier, state, conv, 0, queue[i], r, lane, lanes)
            return count

        @cuda.jit(device=True)
        def heavies(graph, frontier, state, conv, r, thread, stride):
            """H-BF 5.3: each heavy vertex expanded by the whole grid, arcs striped over it."""
            count = 0
            if heavy_in > 0:
                heavy = frontier[2][r % 2]
                for i in range(frontier[3][r % 3]):
                    count += expand(graph, frontier, state, conv, 0, heavy[i], r, thread, stride)
            return count

        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            return (in_warps(graph, frontier, state, conv, r, thread, stride)
                    + heavies(graph, frontier, state, conv, r, thread, stride))

        if mapping.balanced:
            op = _balanced_frontier(mapping, op, heavies, gather, visit, push, queued, heavy_out)
    else:
        raise ValueError(f"advance does not take a {kind!r} mapping")
    return Operator(op, mapping)


def _spread_items(gather, visit, push, queued: bool):
    """The frontier-tasks advance of a ``spread`` mapping (32 rows an item, a warp each).

    Every lane gathers its row of the item, as in the lane-per-row loop; a vote then
    gives the item's active rows, k of them, and the warp deals the item's k x d pairs
    (arc, active row) over its lanes, 32 at a time (:mod:`~warpath.cuda.lanes`): lane j
    of the first k holds the j-th active row and its distance, which the others pick
    by rank.  The k lanes of one arc read its head and weight at one address and relax
    neighbouring words of the head's rows.  An item with all 32 rows active walks its
    arcs a lane a row, as without spread (the picks would only add work; H100, Okuyama's
    complete graph: 0.59 s with picks against 0.50 s before spread).  GPU only (votes and
    shuffles).
    """
    from .lanes import first_pair, next_pair, nth_set_bit, pair_steps, pick, vote

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        size = frontier[1][r % 3]
        queue = frontier[0][r % 2]
        indptr, heads, weights = graph[0], graph[1], graph[2]
        groups = (rows + 31) // 32
        lane = thread % 32
        step = stride // 32
        i = thread // 32
        following = queue[i] if i < size else 0
        while i < size:   # the same trips for the warp
            # The next item's queue entry is read now, and this item's arc bounds before
            # its gather: neither waits on the chain of loads before it.
            item, i = following, i + step
            if i < size:
                following = queue[i]
            u, group = item, item - item   # one group of rows: no 64-bit division
            if groups > 1:
                u = item // groups
                group = item - u * groups
            start, end = indptr[u], indptr[u + 1]
            active, du = gather(state, group * 32 + lane, u, r)
            mask = vote(active)
            if mask == 0:
                continue
            k = np.int64(cuda.popc(mask))
            if k == 32:   # every row active: a lane a row, its own distance, no picks
                for e in range(start, end):
                    v = heads[e]
                    keep = visit(state, group * 32 + lane, u, du, v, weights[e], e, r, conv)
                    count += 1
                    if queued:
                        push(graph, frontier, v * groups + group, keep, r, 0, conv)
                continue
            ranked_row = nth_set_bit(mask, lane)   # lane j < k: the j-th active row
            ranked_du = pick(du, ranked_row)
            total = k * (end - start)
            arc, rank = first_pair(lane, k)
            steps = pair_steps(k)
            for base in range(0, total, 32):
                row = pick(ranked_row, rank)
                row_du = pick(ranked_du, rank)
                if base + lane < total:
                    e = start + arc
                    v = heads[e]
                    keep = visit(state, group * 32 + row, u, row_du, v, weights[e], e, r,
                                 conv)
                    count += 1
                    if queued:
                        push(graph, frontier, v * groups + group, keep, r, 0, conv)
                arc, rank = next_pair(arc, rank, k, steps)
        return count

    return op


#: Arcs a lane of :func:`advance_marked` takes at once (its loops are written out for four).
PEEK_ARCS = 4


def shares_arcs_by_shuffles(shuffled: bool) -> bool:
    """Whether :func:`advance_marked` with ``shuffled`` walks a vertex's arcs by
    shuffles, every lane of the warp through every arc.  Not under the simulator,
    which has no shuffles: there each lane walks its own row's arcs, so a method's
    ``gather`` that finds a row with nothing to offer saves the whole walk by saying so.

    Examples
    --------
    >>> shares_arcs_by_shuffles(False)
    False
    >>> from warpath.cuda.runtime import SIMULATOR
    >>> shares_arcs_by_shuffles(True) == (not SIMULATOR)
    True
    """
    from .runtime import SIMULATOR
    return shuffled and not SIMULATOR


@functools.lru_cache(maxsize=None)
def advance_marked(active, gather, peek, visit, narrow: bool = False,
                   shuffled: bool = False, paired: bool = False, retire=None,
                   claims=None, claim_chunks: int = 0) -> Operator:
    """:func:`advance` over the items marked for the round (a
    :func:`~warpath.cuda.mappings.marked_items` mapping): no queue.

    Each warp takes 32 items at a time and asks ``active(state, item, r) -> bool``
    (which must only read) of each, one lane per item on a GPU (then a vote), every
    lane in turn under the simulator, which has no votes.  The warp then expands the
    active items vertex by vertex: the items of one vertex (its groups of 32 rows) share
    one load of the vertex's arc bounds.  For each item a lane takes a row:
    ``gather(state, row, u, r) -> (active, du)``, and :data:`PEEK_ARCS` arcs at once,
    loading their heads and weights, then ``peek(state, row, v) -> dv`` at each (reads
    only: it may be called for any row of the launch, even one ``gather`` found idle),
    before ``visit(state, row, u, du, v, w, dv, e, r, conv) -> bool`` of any.  In the
    lane-per-row walk a row that ``gather`` finds idle walks nothing; there the compiler
    moves a row's peeks into the branch on its ``active``, so an ``active`` that tests the
    loaded ``du`` makes the peeks wait for that load (seen in sm_90 SASS).  The walk by
    shuffles (``shuffled``) has no such branch: every row is visited, active or not, and
    ``active`` only says whether its visits count.  So there ``visit`` must reject the
    ``du`` of an idle row (an unreached row's ``inf``, whose sum with a negative weight can
    still be below ``dv``) before it uses ``row``, which past the launch's last row is out
    of the problem's range (the peeks use the last row in its stead).  ``visit``
    marks the head's item for round r + 1 itself and returns True when it did; the
    round is then marked changed once per thread.  A lane waits for one chain of loads
    per four arcs, and joining the next round costs a store.  The marks of round r must
    stay readable until the round ends (the method clears them in a later step, or in a
    later round's sweep through ``retire``: the simulator's lanes read them one after
    another).

    ``narrow=True`` walks the arcs with unsigned 32-bit positions
    (:func:`~warpath.cuda.indices.at32`): for graphs of fewer than 2**32 arcs, whose
    method's own positions fit in 32 bits too.  ``shuffled=True`` (GPU only; the
    simulator has no shuffles) loads up to 32 of a vertex's arcs at once, a lane each,
    and hands them to every lane by shuffles (:func:`~warpath.cuda.lanes.pick`); every
    lane peeks and visits, whether its row is idle or not (see above), so an item's chain
    of loads is its row's distance and the peeks side by side.  A vertex of at most 32
    arcs loads them once for all its items; a wider one once per item.  ``paired=True``
    (with ``shuffled``) takes two items of a vertex of at most 32 arcs at once: eight peeks
    in flight.

    ``retire(state, item, r)``, when given, is called once on every item of the sweep,
    marked or not, by one lane, before the item's walk: a method that keeps its marks in
    three slots (round r reads slot r mod 3, its visits mark slot r + 1) clears the
    slot of round r + 2 there, since round r - 1 read it and round r + 1 marks it.  The
    step that clears the marks after the round's barrier is then not needed.

    ``claims``, when given, is the position in ``state`` of an array of three unsigned
    32-bit counters, zero when the launch starts.  On a GPU a warp then claims chunks of 32
    items from the round's counter (r mod 3; thread 0 clears the counter of round r + 1
    during round r) instead of taking every stride-th chunk: a warp that drew light chunks
    takes more, so the round does not wait for the unluckiest warp.  It claims
    ``claim_chunks`` at a time, or with 0, :data:`CLAIMED_CHUNKS` when the grid has at
    least :data:`CLAIMS_A_WARP` claims of that many a warp, else one at a time (a few
    heavy chunks a warp, as on a complete graph, must not pile up in a few warps).  A
    grid with no more chunks than warps (the paper loop's thread per task) strides: a
    warp has one chunk at most.  The simulator, which has no shuffles to share a claim,
    keeps the stride.

    Examples
    --------
    >>> op = advance_marked(_demo_item_active, _demo_item_gather, _demo_peek, _demo_peeked)
    >>> op.mapping.kind, op is advance_marked(_demo_item_active, _demo_item_gather,
    ...                                       _demo_peek, _demo_peeked)
    ('marked-items', True)
    """
    from .indices import at, at32, narrow as narrow_position, wide
    from .lanes import held, pick, vote
    from .mappings import ITEM_ROWS, marked_items
    from .runtime import SIMULATOR

    width = ITEM_ROWS
    position = at32 if narrow else at
    arc = narrow_position if narrow else wide

    @cuda.jit(device=True)
    def next_within(e, last):
        """The arc position after ``e``, or ``last`` past it."""
        following = arc(e + arc(1))
        return following if following < last else last

    @cuda.jit(device=True)
    def visit_four(state, row, u, du, v0, v1, v2, v3, w0, w1, w2, w3, d0, d1, d2, d3,
                   e0, many, r, conv):
        """The visits of four peeked arcs of u for this lane's row, at positions e0 to
        e0 + 3; only the first ``many`` (1 to 4) are real, the others copies clamped at
        the row's last arc.  One count instead of four positions kept through the peeks:
        three registers fewer where the kernel is tightest.  ``(visits, changed)``."""
        changed = visit(state, row, u, du, v0, w0, d0, e0, r, conv)
        if many > arc(1):   # arc(): no float compare of a uint64 with an int
            changed |= visit(state, row, u, du, v1, w1, d1, arc(e0 + arc(1)), r, conv)
        if many > arc(2):
            changed |= visit(state, row, u, du, v2, w2, d2, arc(e0 + arc(2)), r, conv)
        if many > arc(3):
            changed |= visit(state, row, u, du, v3, w3, d3, arc(e0 + arc(3)), r, conv)
        return many, changed

    @cuda.jit(device=True)
    def peek_four(state, row, v0, v1, v2, v3):
        """Row ``row``'s distances at four heads (reads only)."""
        return (peek(state, row, v0), peek(state, row, v1), peek(state, row, v2),
                peek(state, row, v3))

    @cuda.jit(device=True)
    def peek_and_visit(state, row, u, du, v0, v1, v2, v3, w0, w1, w2, w3, e0, many, r,
                       conv):
        """Four arcs of u from position e0 for this lane's row, ``many`` of them real: the
        heads' distances peeked, then the visits.  ``(visits, changed)``."""
        d0, d1, d2, d3 = peek_four(state, row, v0, v1, v2, v3)
        return visit_four(state, row, u, du, v0, v1, v2, v3, w0, w1, w2, w3, d0, d1, d2, d3,
                          e0, many, r, conv)

    @cuda.jit(device=True)
    def bounds(graph, u):
        """Vertex u's arc positions ``[start, stop)``."""
        indptr = graph[0]
        return arc(indptr[position(u, 1, 0)]), arc(indptr[position(u, 1, 1)])

    @cuda.jit(device=True)
    def next_item(bits, shift, lane, rows):
        """The lowest of ``bits`` (items of one vertex, bit b its group b + shift): this
        lane's row of that item, the row it peeks (the launch's last in its stead past
        it), and the bits left."""
        row = (cuda.ffs(bits) - 1 + shift) * width + lane
        return row, row if row < rows else rows - 1, np.uint32(bits & (bits - np.uint32(1)))

    @cuda.jit(device=True)
    def expand(graph, state, conv, rows, u, bits, shift, lane, r):
        """The arcs of vertex u for this lane's row of each of u's items in ``bits`` (bit
        b: group b + shift), a lane loading its own arcs, the bounds loaded once:
        ``(relaxations, changed)``."""
        start, stop = bounds(graph, u)
        heads, weights = graph[1], graph[2]
        count = 0
        changed = False
        while bits != 0:
            row, _, bits = next_item(bits, shift, lane, rows)
            live, du = gather(state, row, u, r)
            e0 = start
            while live and e0 < stop:
                last = arc(stop - arc(1))   # inside: an item without arcs computes none
                # Past the row's last arc a lane loads the last arc again (the same line,
                # no branch) and does not visit it.
                e1 = next_within(e0, last)
                e2 = next_within(e1, last)
                e3 = next_within(e2, last)
                many = arc(stop - e0)
                did, lowered = peek_and_visit(
                    state, row, u, du, heads[e0], heads[e1], heads[e2], heads[e3],
                    weights[e0], weights[e1], weights[e2], weights[e3], e0,
                    many if many < arc(PEEK_ARCS) else arc(PEEK_ARCS), r, conv)
                count += did
                changed |= lowered
                e0 = arc(e0 + arc(PEEK_ARCS))
        return count, changed

    @cuda.jit(device=True)
    def lane_arc(graph, window, stop, lane):
        """This lane's arc of the window of up to 32 arcs from ``window`` (the window's
        last again past it): ``(head, weight, arcs in the window)``."""
        last = arc(stop - arc(1))
        mine = arc(window + arc(lane))
        mine = mine if mine < last else last
        here = arc(stop - window)
        return graph[1][mine], graph[2][mine], here if here < arc(width) else arc(width)

    @cuda.jit(device=True)
    def picked(my_head, my_weight, k):
        """Arc ``k`` of the window, from the lane that loaded it: ``(head, weight)``."""
        return pick(my_head, np.int32(k)), pick(my_weight, np.int32(k))

    @cuda.jit(device=True)
    def four_picked(my_head, my_weight, window, k0, top):
        """Arcs k0 .. k0 + 3 of the window (the window's arc ``top`` again past it), from the
        lanes that loaded them: four heads, four weights, the first one's position and
        how many of the four are real (1 to 4)."""
        k1 = next_within(k0, top)
        k2 = next_within(k1, top)
        k3 = next_within(k2, top)
        v0, w0 = picked(my_head, my_weight, k0)
        v1, w1 = picked(my_head, my_weight, k1)
        v2, w2 = picked(my_head, my_weight, k2)
        v3, w3 = picked(my_head, my_weight, k3)
        many = arc(top + arc(1) - k0)
        return (v0, v1, v2, v3, w0, w1, w2, w3, arc(window + k0),
                many if many < arc(PEEK_ARCS) else arc(PEEK_ARCS))

    @cuda.jit(device=True)
    def visit_window(state, u, my_head, my_weight, window, here, row_a, seen_a, live_a, du_a,
                     row_b, seen_b, live_b, du_b, both, r, conv):
        """The ``here`` arcs of u's window starting at ``window`` for this lane's row, or
        two rows with ``both=True``, handed round by shuffles four at a time; each lane
        peeks the four arcs for each row before visiting any.  With ``both=False`` (a
        constant) the second row's visits compile away, and its peeks, of ``seen_b =
        seen_a``, are the first row's loads again, which the compiler merges.  An idle
        row (``live`` false) is visited too, with the ``du`` that ``gather`` returned for
        it, which ``visit`` rejects, and its visits are not counted: a branch on ``live``
        would move the row's peeks into it, behind the other row's, with a wait for a
        row's distance between them.
        ``(relaxations, changed)``."""
        count = 0
        changed = False
        top = arc(here - arc(1))
        k0 = arc(0)
        while k0 < here:
            v0, v1, v2, v3, w0, w1, w2, w3, e0, many = four_picked(
                my_head, my_weight, window, k0, top)
            a0, a1, a2, a3 = peek_four(state, seen_a, v0, v1, v2, v3)
            b0, b1, b2, b3 = peek_four(state, seen_b, v0, v1, v2, v3)
            did, lowered = visit_four(state, row_a, u, du_a, v0, v1, v2, v3, w0, w1, w2, w3,
                                      a0, a1, a2, a3, e0, many, r, conv)
            count += did if live_a else arc(0)
            changed |= lowered
            if both:
                did, lowered = visit_four(state, row_b, u, du_b, v0, v1, v2, v3, w0, w1, w2,
                                          w3, b0, b1, b2, b3, e0, many, r, conv)
                count += did if live_b else arc(0)
                changed |= lowered
            # Else the compiler widens du once, before the loop, and the lane waits
            # there for du's load before it sends the first peeks (8% of the stall
            # samples, H200 profile, thirty-second session).
            du_a = held(du_a)
            if both:
                du_b = held(du_b)
            k0 = arc(k0 + arc(PEEK_ARCS))
        return count, changed

    @cuda.jit(device=True)
    def expand_shuffled(graph, state, conv, rows, u, bits, shift, lane, r):
        """:func:`expand` with u's arcs loaded 32 at a time, a lane each, and handed
        round by shuffles: once for all of u's items when u has at most 32 arcs, else
        once per item (a row's distance is then read once, not once per window).  Every
        lane walks the arcs (a shuffle needs the whole warp); a lane whose row is idle
        visits them with the ``du`` its ``gather`` gave, which lowers nothing, and does
        not count them."""
        start, stop = bounds(graph, u)
        count = 0
        changed = False
        if stop - start <= arc(width):
            if start == stop:
                return count, changed
            my_head, my_weight, here = lane_arc(graph, start, stop, lane)
            while bits != 0:
                row, seen, bits = next_item(bits, shift, lane, rows)
                live, du = gather(state, row, u, r)
                if paired and bits != 0:
                    row_b, seen_b, bits = next_item(bits, shift, lane, rows)
                    live_b, du_b = gather(state, row_b, u, r)
                    did, lowered = visit_window(state, u, my_head, my_weight, start, here,
                                                row, seen, live, du, row_b, seen_b, live_b,
                                                du_b, True, r, conv)
                else:
                    did, lowered = visit_window(state, u, my_head, my_weight, start, here,
                                                row, seen, live, du, row, seen, live, du,
                                                False, r, conv)
                count += did
                changed |= lowered
            return count, changed
        while bits != 0:
            row, seen, bits = next_item(bits, shift, lane, rows)
            live, du = gather(state, row, u, r)
            window = start
            while window < stop:
                my_head, my_weight, here = lane_arc(graph, window, stop, lane)
                did, lowered = visit_window(state, u, my_head, my_weight, window, here, row,
                                            seen, live, du, row, seen, live, du, False, r,
                                            conv)
                count += did
                changed |= lowered
                window = arc(window + arc(width))
        return count, changed

    walk = expand_shuffled if shares_arcs_by_shuffles(shuffled) else expand
    retiring = retire is not None
    retire_item = retire if retiring else _no_retire
    claiming = claims is not None and not SIMULATOR
    counters_at = claims if claims is not None else 0

    @cuda.jit(device=True)
    def walk_chunk(graph, state, conv, rows, r, base, u0, g0, lane, items, groups):
        """The chunk of 32 items from ``base`` (vertex u0, group g0): each lane asks
        about one item, the warp votes, then walks the active items vertex by vertex
        (GPU only).  ``(relaxations, changed)``."""
        count = 0
        changed = False
        mine = base + lane < items and active(state, base + lane, r)
        mask = np.uint32(vote(mine))
        while mask != 0:
            bit = cuda.ffs(mask) - 1   # the lowest set bit
            u, group = u0 + bit, g0
            if groups > 1:
                u, group = u0, g0 + bit
                while group >= groups:
                    group -= groups
                    u += 1
            # u's items in this chunk: the set bits below bit - group + groups
            end = bit - group + groups
            same = mask
            if end < width:
                same = np.uint32(mask & ((np.uint32(1) << np.uint32(end))
                                         - np.uint32(1)))
            mask = np.uint32(mask ^ same)
            did, lowered = walk(graph, state, conv, rows, u, same, group - bit, lane, r)
            count += did
            changed |= lowered
        return count, changed

    @cuda.jit(device=True)
    def moved(u, g, step_u, step_g, groups):
        """The vertex and group of the item ``step_u * groups + step_g`` items past item
        (u, g), with ``step_g < groups``: no division."""
        g += step_g
        u += step_u
        if g >= groups:
            g -= groups
            u += 1
        return u, g

    @cuda.jit(device=True)
    def claim(counter, r, lane):
        """The warp's next claim of round r (lane 0 takes it, every lane gets it)."""
        taken = np.int32(0)
        if lane == 0:
            taken = np.int32(cuda.atomic.add(counter, np.uint32(r % 3),
                                             np.uint32(1)))
        return pick(taken, np.int32(0))

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        changed = False
        groups = (rows + width - 1) // width
        items = (graph[0].shape[0] - 1) * groups
        lane = thread % width
        first = thread - lane
        # Item i is vertex i // groups, group i % groups.  A division per item was a sixth
        # of the instructions (H200 profile, 1,000 rows): the warp's first item and the
        # stride are divided once, and each chunk's vertex and group are carried forward.
        if claiming:
            counter = state[counters_at]
            if thread == 0:
                counter[np.uint32((r + 1) % 3)] = 0
            chunk_u = width // groups
            chunk_g = width - chunk_u * groups
            many = items > stride   # more chunks than warps: claimed, else one a warp
            claimed = 1   # chunks a claim
            if many:
                claimed = claim_chunks
                if claimed == 0:
                    claimed = 1
                    if items >= stride * (CLAIMED_CHUNKS * CLAIMS_A_WARP):
                        claimed = CLAIMED_CHUNKS
            base = first
            if many:
                base = np.int64(claim(counter, r, lane)) * (claimed * width)
            while base < items:
                u0 = base // groups
                g0 = base - u0 * groups
                stop = base + claimed * width
                while base < stop and base < items:
                    if retiring and base + lane < items:
                        retire_item(state, base + lane, r)
                    did, lowered = walk_chunk(graph, state, conv, rows, r, base, u0, g0,
                                              lane, items, groups)
                    count += did
                    changed |= lowered
                    base += width
                    u0, g0 = moved(u0, g0, chunk_u, chunk_g, groups)
                base = items
                if many:
                    base = np.int64(claim(counter, r, lane)) * (claimed * width)
            if changed:
                mark_changed(conv, r)
            return count
        u0 = first // groups
        g0 = first - u0 * groups
        stride_u = stride // groups
        stride_g = stride - stride_u * groups
        for base in range(first, items, stride):   # 32 items a warp, same trips
            if retiring and base + lane < items:
                retire_item(state, base + lane, r)
            if SIMULATOR:   # no votes: every lane asks about each item in turn
                for bit in range(width):
                    item = base + bit
                    if item < items and active(state, item, r):
                        u = item // groups
                        did, lowered = expand(graph, state, conv, rows, u, np.uint32(1),
                                              item - u * groups, lane, r)
                        count += did
                        changed |= lowered
            else:
                did, lowered = walk_chunk(graph, state, conv, rows, r, base, u0, g0, lane,
                                          items, groups)
                count += did
                changed |= lowered
            u0, g0 = moved(u0, g0, stride_u, stride_g, groups)
        if changed:
            mark_changed(conv, r)
        return count

    return Operator(op, marked_items())


@cuda.jit(device=True)
def _no_retire(state, item, r):
    """:func:`advance_marked` without ``retire``: nothing (never called)."""
    return


#: Chunks of 32 items a warp of :func:`advance_marked` claims at once with ``claims`` on a
#: large launch: a counter's atomic per 128 items, and a round's last claim about 0.1 ms of
#: work on random(1M, 6M) with 1,000 rows (237 chunks a warp).
CLAIMED_CHUNKS = 4
#: Claims of :data:`CLAIMED_CHUNKS` each warp must have for them (else one chunk a claim).
#: Okuyama's complete graph (12,300 chunks of 150K arcs' work for 4,224 warps) took 0.269 s
#: with claims of four, against 0.204 s taking every stride-th chunk: the busiest warps did
#: four chunks instead of three.
CLAIMS_A_WARP = 8


#: Arcs a thread of :func:`sweep` takes at once (its loop is written out for four).
SWEEP_ARCS = 4


@functools.lru_cache(maxsize=None)
def sweep(gather, visit, output: int = NO_OUTPUT, heavy_out: int = 0,
          aggregated: bool = True, narrow: bool = False, early: bool = False) -> Operator:
    """:func:`advance` over every arc of a one-row problem (``thread_per_edge``), each thread
    taking :data:`SWEEP_ARCS` arcs ``stride`` apart at once: their tails, then their tails'
    ``gather`` (which must only read), are loaded before any ``visit``, so a thread waits
    for one chain of loads per group of arcs instead of one per arc.  A sweep in which most
    tails are inactive (a wide round's frontier is still a minority of the vertices) is
    then bound by the arcs' bytes rather than by each load's latency.

    ``narrow=True`` computes the arc positions and the tails' vertex ids as unsigned 32-bit
    values, so their loads carry neither numba's negative-index wraparound nor 64-bit
    arithmetic; ``gather`` and ``visit`` then receive u as an unsigned 32-bit value.  For
    graphs where :func:`sweeps_narrow` holds (the caller checks).

    ``early=True`` also loads the four arcs' heads and weights with their tails, before
    the gathers, instead of inside each active arc's visit: an active arc's visit is then
    one step shorter (its head's own loads go out at once), at the price of 8 bytes an arc
    read for the inactive tails too.  For a round where most tails are active (measured
    against the default on a GPU: thirty-second session's notes, docs/performance.md).

    Examples
    --------
    >>> import numpy as np, warpath
    >>> from warpath.cuda.problem import Problem
    >>> from warpath.cuda.enactor import run_once
    >>> problem = Problem(warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [3, 4, 1]), 0)
    >>> run_once(problem, sweep(_demo_gather, _demo_visit), (problem.distances[0], problem.inf))
    >>> problem.distances.copy_to_host().tolist()
    [[0, 3, 4]]
    >>> problem = Problem(warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [3, 4, 1]), 0)
    >>> run_once(problem, sweep(_demo_gather, _demo_visit, narrow=True),
    ...          (problem.distances[0], problem.inf))
    >>> problem.distances.copy_to_host().tolist()
    [[0, 3, 4]]
    >>> problem = Problem(warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [3, 4, 1]), 0)
    >>> run_once(problem, sweep(_demo_gather, _demo_visit, early=True),
    ...          (problem.distances[0], problem.inf))
    >>> problem.distances.copy_to_host().tolist()
    [[0, 3, 4]]
    """
    from .indices import narrow as narrow_position

    push = pusher(aggregated)
    queued = output == QUEUE
    position = narrow_position if narrow else _as_it_is

    @cuda.jit(device=True)
    def visit_arc(graph, frontier, state, conv, r, e, u, du, v, w):
        """Arc e (u -> v, weight w) visited, v pushed when kept: v and w as loaded with the
        tails (``early``), else loaded here."""
        if not early:
            v, w = graph[1][e], graph[2][e]
        keep = visit(state, 0, u, du, v, w, e, r, conv)
        if queued:
            push(graph, frontier, v, keep, r, heavy_out, conv)

    @cuda.jit(device=True)
    def head_of(graph, e, first, m):
        """Arc e's head and weight, or arc ``first``'s past the last arc."""
        at = e if e < m else first
        return graph[1][at], graph[2][at]

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        tails = graph[3]
        m = position(tails.shape[0])
        step = position(stride)
        e0 = position(thread)
        while e0 < m:
            e1 = position(e0 + step)
            e2 = position(e1 + step)
            e3 = position(e2 + step)
            u0 = position(tails[e0])
            u1 = position(tails[e1]) if e1 < m else u0
            u2 = position(tails[e2]) if e2 < m else u0
            u3 = position(tails[e3]) if e3 < m else u0
            v0, w0 = graph[1][e0], graph[2][e0]   # (compiled away unless early)
            v1, w1 = head_of(graph, e1, e0, m)
            v2, w2 = head_of(graph, e2, e0, m)
            v3, w3 = head_of(graph, e3, e0, m)
            a0, d0 = gather(state, 0, u0, r)
            a1, d1 = gather(state, 0, u1, r)
            a2, d2 = gather(state, 0, u2, r)
            a3, d3 = gather(state, 0, u3, r)
            if a0:
                visit_arc(graph, frontier, state, conv, r, e0, u0, d0, v0, w0)
                count += 1
            if a1 and e1 < m:
                visit_arc(graph, frontier, state, conv, r, e1, u1, d1, v1, w1)
                count += 1
            if a2 and e2 < m:
                visit_arc(graph, frontier, state, conv, r, e2, u2, d2, v2, w2)
                count += 1
            if a3 and e3 < m:
                visit_arc(graph, frontier, state, conv, r, e3, u3, d3, v3, w3)
                count += 1
            e0 = position(e3 + step)
        return count

    return Operator(op, Mapping("edges"))


@cuda.jit(device=True)
def _as_it_is(x):
    """``x`` unchanged (the wide form of a position helper)."""
    return x


def sweeps_narrow(num_vertices: int, num_arcs: int, threads: int | None = None) -> bool:
    """Whether :func:`sweep` ``(narrow=True)`` serves a graph of these sizes: every vertex id
    and arc position, and a thread's last step past the arcs (four strides of ``threads``),
    below 2**32.  ``threads`` (the grid's) defaults to the most any launch of the sweep
    takes: a thread an arc, rounded up to whole blocks (the paper loop's and
    ``run_once``'s grids; the persistent kernel's is smaller).

    Examples
    --------
    >>> sweeps_narrow(8_388_608, 155_288_153), sweeps_narrow(1000, 900_000_000)
    (True, False)
    >>> sweeps_narrow(1000, 900_000_000, threads=2**20)
    True
    """
    from .indices import AT32_LIMIT
    from .runtime import THREADS

    if threads is None:
        threads = num_arcs + THREADS
    return max(num_vertices, num_arcs + SWEEP_ARCS * threads) < AT32_LIMIT


def _balanced_frontier(mapping, unbalanced, heavies, gather, visit, push, queued: bool,
                       heavy_out: int):
    """The frontier advance with arcs dealt evenly over each block (``mapping.balanced``).

    A block takes chunks of as many frontier vertices as it has threads (chunk
    ``b``, ``b + blocks``, ...).  Each thread gathers one vertex of the chunk
    (an inactive one counts 0 arcs); a block-wide prefix sum of the degrees
    numbers the chunk's arcs 0 .. total - 1, and thread ``t`` visits arcs ``t``,
    ``t + threads``, ..., finding each arc's vertex by a binary search in the
    prefix sums.  The vertex, its first arc and its gathered value wait in
    shared memory.  Every lane of a block runs the same trip counts (the
    barriers and the warp-aggregated enqueue need it).

    A frontier smaller than :data:`BALANCE_FROM` of the grid's threads goes to
    the virtual-warp advance instead (``unbalanced``, heavy vertices included):
    each of its vertices gets a warp of 16 or 32 lanes there, balanced enough,
    and a round of a road graph's thousands is latency, which the chunk's
    barriers and search would lengthen.  Heavy vertices are expanded by the
    whole grid (``heavies``) either way.
    """
    import numba
    import numpy as np

    from .runtime import THREADS
    from .scan import block_inclusive_scan, upper_bound

    value_type = numba.from_dtype(np.dtype(mapping.value_type))
    few = BALANCE_FROM

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        size = frontier[1][r % 3]
        if size * few <= stride:
            return unbalanced(graph, frontier, state, conv, rows, r, thread, stride)
        ends = cuda.shared.array(THREADS, numba.int64)
        bases = cuda.shared.array(THREADS, numba.int64)
        owners = cuda.shared.array(THREADS, numba.int64)
        values = cuda.shared.array(THREADS, value_type)
        indptr, heads, weights = graph[0], graph[1], graph[2]
        count = 0
        queue = frontier[0][r % 2]
        tid = cuda.threadIdx.x
        for chunk in range(cuda.blockIdx.x * THREADS, size, cuda.gridDim.x * THREADS):
            i = chunk + tid
            degree = 0
            first = 0
            if i < size:
                u = queue[i]
                active, du = gather(state, 0, u, r)
                if active:
                    first = indptr[u]
                    degree = indptr[u + 1] - first
                    owners[tid] = u
                    values[tid] = du
            total = block_inclusive_scan(ends, tid, degree)
            if degree > 0:  # arc k of the chunk's run is arc bases[j] + k of the graph
                bases[tid] = first - (ends[tid] - degree)
            cuda.syncthreads()
            for k in range(tid, (total + THREADS - 1) // THREADS * THREADS, THREADS):
                keep = False
                v = 0
                if k < total:
                    j = upper_bound(ends, 0, THREADS, k)
                    e = bases[j] + k
                    v = heads[e]
                    keep = visit(state, 0, owners[j], values[j], v, weights[e], e, r, conv)
                    count += 1
                if queued:
                    push(graph, frontier, v, keep, r, heavy_out, conv)
            cuda.syncthreads()  # the chunk's shared entries are read: the next may write
        return count + heavies(graph, frontier, state, conv, r, thread, stride)

    return op


#: A ``wide`` mapping widens groups past a warp only when one-warp groups would leave all but
#: 1 / WIDE_FROM of the grid idle.  A tiny frontier of a small-world graph (4 to 32 vertices,
#: one of thousands of arcs) gains ~15x on that round, but a road graph's frontiers of
#: hundreds of degree-3 vertices paid for the idle lanes' loads in each of thousands of rounds
#: (H100, `queue` on NY: 3.49 ms with warps, 3.90 ms widened at every size).
WIDE_FROM = 64

#: A balanced frontier advance deals arcs over blocks only when the frontier holds more
#: vertices than 1 / BALANCE_FROM of the grid's threads (see :func:`_balanced_frontier`).
BALANCE_FROM = 16


@functools.lru_cache(maxsize=None)
def filter_vertices(apply, output: int = NO_OUTPUT, heavy_out: int = 0) -> Operator:
    """``apply`` on every vertex (one thread each); with ``QUEUE`` its ``True``s form the
    next frontier.  Returns an operator (relaxations: 0)."""
    queued = output == QUEUE

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        n = graph[0].shape[0] - 1
        for start in range(0, n, stride):  # one trip count per warp (enqueue)
            v = start + thread
            for row in range(rows):
                keep = False
                if v < n:
                    keep = apply(state, row, v, r, conv)
                if queued:
                    push(graph, frontier, v, keep, r, heavy_out, conv)
        return 0

    return Operator(op, thread_per_vertex())


@functools.lru_cache(maxsize=None)
def filter_items(items, apply, output: int = NO_OUTPUT, heavy_out: int = 0) -> Operator:
    """``apply`` on the items of a queue the method keeps (Gunrock's filter over a queue).

    ``items(graph, frontier, state, conv, r, thread) -> (queue, size)`` names the queue
    for round ``r`` (every thread must get the same answer; size 0 skips the
    step, and thread 0 may do the step's bookkeeping there); ``apply(state, row,
    v, r, conv) -> bool`` is called on each item, and with ``QUEUE`` its
    ``True``s join the next frontier.  Returns an operator (relaxations: 0).
    """
    queued = output == QUEUE

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        queue, size = items(graph, frontier, state, conv, r, thread)
        for start in range(0, size, stride):  # one trip count per warp (enqueue)
            i = start + thread
            keep = False
            v = 0
            if i < size:
                v = queue[i]
                keep = apply(state, 0, v, r, conv)
            if queued:
                push(graph, frontier, v, keep, r, heavy_out, conv)
        return 0

    return Operator(op, thread_per_vertex())


@functools.lru_cache(maxsize=None)
def filter_indices(count, apply, output: int = NO_OUTPUT) -> Operator:
    """``apply`` on the indices 0, 1, ... of a range the method sizes each round: Gunrock's
    filter over every item of a many-source frontier (a vertex and a group of rows), say.

    ``count(graph, frontier, state, conv, r, thread) -> size`` (every thread must get
    the same answer; 0 skips the step, and thread 0 may keep the step's books there);
    ``apply(state, 0, i, r, conv) -> bool`` on each index, and with ``QUEUE`` the
    ``True`` indices join the next frontier.  Its mapping is
    :func:`~warpath.cuda.mappings.frontier_tasks`, so a grid sized for that advance is
    not shrunk for it.  Returns an operator (relaxations: 0).
    """
    from .mappings import frontier_tasks

    queued = output == QUEUE

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        size = count(graph, frontier, state, conv, r, thread)
        for start in range(0, size, stride):  # one trip count per warp (enqueue)
            i = start + thread
            keep = False
            if i < size:
                keep = apply(state, 0, i, r, conv)
            if queued:
                push(graph, frontier, i, keep, r, 0, conv)
        return 0

    return Operator(op, frontier_tasks())


@functools.lru_cache(maxsize=None)
def compute(mapping, work) -> Operator:
    """``work(graph, state, v, r, conv) -> relaxations`` on every vertex, in
    ``mapping``'s vertex groups.  Returns an operator."""
    if mapping.kind != "vertex-groups":
        raise ValueError(f"compute takes a vertex-groups mapping, not {mapping.kind!r}")
    per_thread = mapping.per_thread

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        n = graph[0].shape[0] - 1
        for group in range(thread, (n + per_thread - 1) // per_thread, stride):
            for v in range(group * per_thread, min(n, (group + 1) * per_thread)):
                count += work(graph, state, v, r, conv)
        return count

    return Operator(op, mapping)


@functools.lru_cache(maxsize=None)
def together(first: Operator, second: Operator) -> Operator:
    """One step that runs ``first`` then ``second`` with no barrier between them (a round
    has at most three steps): for steps that do not read what the other writes, e.g. two
    sums over the frontier a filter has just built.  Its mapping is ``first``'s; the
    relaxations are both steps'.

    Examples
    --------
    >>> both = together(filter_vertices(_demo_keep), filter_vertices(_demo_keep))
    >>> both is together(filter_vertices(_demo_keep), filter_vertices(_demo_keep))
    True
    """
    one, two = first.device, second.device

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        return (one(graph, frontier, state, conv, rows, r, thread, stride)
                + two(graph, frontier, state, conv, rows, r, thread, stride))

    return Operator(op, first.mapping)


@functools.lru_cache(maxsize=None)
def per_row(work) -> Operator:
    """``work(state, row, r, conv)`` once for each row of the launch (a step that keeps
    per-row books between rounds, beside a :func:`~warpath.cuda.mappings.tasks` advance).

    Its mapping is :func:`~warpath.cuda.mappings.tasks`, so a persistent grid sized for
    the advance is not shrunk for it; the rows are dealt grid-stride.  Returns an operator.
    """

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        for row in range(thread, rows, stride):
            work(state, row, r, conv)
        return 0

    return Operator(op, tasks())


@cuda.jit(device=True)
def _demo_gather(state, row, u, r):
    """Docstring example: every reached vertex active, carrying its distance (``state`` is
    ``(distances, infinity)``; an unreached tail's infinity plus a weight would overflow)."""
    du = state[0][u]
    return du != state[1], du


@cuda.jit(device=True)
def _demo_visit(state, row, u, du, v, w, e, r, conv):
    """Docstring example: an atomic relax that reports a change (to the caller, and to the
    round's flag, so that the enactor runs another round)."""
    lowered = cuda.atomic.min(state[0], v, du + w) > du + w
    if lowered:
        mark_changed(conv, r)
    return lowered


@cuda.jit(device=True)
def _demo_keep(state, row, v, r, conv):
    """Docstring example: keep nothing."""
    return False


@cuda.jit(device=True)
def _demo_item_gather(state, row, u, r):
    """Docstring example: row ``row`` of vertex u in a one-row problem (``state`` as
    :func:`_demo_gather`'s), active when reached."""
    return _demo_gather(state, row, u, r)


@cuda.jit(device=True)
def _demo_peek(state, row, v):
    """Docstring example: the head's distance."""
    return state[0][v]


@cuda.jit(device=True)
def _demo_peeked(state, row, u, du, v, w, dv, e, r, conv):
    """Docstring example: :func:`_demo_visit` after the peeked distance says it may lower."""
    if du + w >= dv:
        return False
    return _demo_visit(state, row, u, du, v, w, e, r, conv)


@cuda.jit(device=True)
def _demo_item_active(state, item, r):
    """Docstring example: every item active."""
    return True
