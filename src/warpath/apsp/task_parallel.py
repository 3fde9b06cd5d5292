"""Okuyama, Ino & Hagihara's task-parallel shortest paths on the GPU (``task-parallel``).

Many single-source problems run at once (section 5.1): every (vertex, source)
pair is a task with a thread of its own, and the state is interleaved
vertex-major (Fig. 8(b), :mod:`warpath.apsp.gpu_rows`): the distance of
vertex ``v`` in row ``s`` of a launch of ``W`` rows is ``d[v * W + s]`` (whole items'
``W`` may include idle rows that pad it to a multiple of 32,
:func:`~warpath.apsp.gpu_rows.padded_rows`).  The
threads of a warp are the rows of one vertex: they read the vertex's arcs at
the same addresses (one broadcast read serves them all) and relax a
neighbour's W distances, contiguous words, together.  On the engine a round
is one :func:`~warpath.cuda.operators.advance` over every task (the
:func:`~warpath.cuda.mappings.tasks` mapping) and the rounds run under one
:func:`~warpath.cuda.enactor.enact` call, in the persistent kernel
(``loop="fast"``) or the paper's host loop (``loop="paper"``).

Harish's arrays (Okuyama Fig. 7): the scatter of each task <u, s> in the set
M lowers ``d[v, s]`` for each arc u -> v.  Here the cost array C and the
updating-cost array U are one array lowered by ``atomicMin`` (half the memory
and no checking pass over every task each round), so M is two byte arrays,
this round's and the next round's, used in turn: a task of this round's M
leaves it as it scatters (only its own thread touches it this round), and a
relaxation that lowers ``d[v, s]`` puts <v, s> in the next round's.  A
lowering that races with the task's own scatter is therefore never lost: the
task scatters again next round, with the lower distance.  (A clearing reader
and a setting relaxer on one array could lose it; a round stamp per task that
nobody clears would wrap around.)

By default (``frontier=True``) a round does not sweep every task: M is a word of
lane bits per item, an item being a vertex and 32 rows, and the round expands the
items of a frontier queue, a warp each (:func:`_frontier_steps`); ``frontier=False``
is the paper's sweep described above.  On sparse rounds an item has one or two active
rows of its 32, so the warp deals the item's (arc, active row) pairs over its lanes
(:mod:`warpath.cuda.lanes`) instead of each lane walking every arc for its own row.

Sources run in launches of whole groups of ``group`` sources (the paper's N =
32, a warp), as many groups per launch as :func:`~warpath.apsp.gpu_rows.launch_width`
allows; each launch's rows are delivered row-major (and ``progress(done,
total)`` told) before the next starts: into a matrix left on the GPU when the
result fits there (read to the host on first read, as every GPU result),
else streamed into host matrices (``deliver=``).  Negative weights
are exact without a negative cycle; a reachable one (a round |V| that still
lowers a distance, or a distance below every simple path's length) raises
:class:`~warpath.NegativeCycleError` with the cycle.  Paths: section 5.3,
:mod:`warpath.apsp.gpu_predecessors`.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 0], [4, 1, -2, 3])
>>> m = warpath.apsp(g, method="task-parallel", device="cuda")
>>> m.distances.tolist(), m.path(1, 0).tolist()
([[0.0, 4.0, 1.0], [1.0, 0.0, -2.0], [3.0, 7.0, 0.0]], [1, 2, 0])
"""

from __future__ import annotations

import functools

import numpy as np

from ..methods import register
from .gpu_rows import GROUP, gpu_memory
from .whole_items import WholeItems, whole_item_steps

#: numba.cuda, bound by :func:`_round_step` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: The options of the registered method (johnson on the GPU takes them too).
OPTIONS = ("group", "launch_groups", "loop", "deliver", "near_far", "delta", "frontier",
           "item_rows", "whole_items")


@functools.lru_cache(maxsize=None)
def _scatter():
    """The visit of a task's arcs.  State: ``(d, masks, W, T, inf, floor, ...)`` (see
    :func:`~warpath.apsp.gpu_rows.mask_functions`)."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from .gpu_rows import mask_functions

    _, join_next = mask_functions()

    @cuda.jit(device=True)
    def scatter(state, row, u, du, v, w, e, r, conv):
        """Fig. 9 line 25 with Fig. 7 lines 13-15: d[v, s] = min(d[v, s], d[u, s] + w),
        and a lowered <v, s> joins the next round's M."""
        i = v * state[2] + row
        if relax_min(state[0], i, du + w, state[5], conv):
            join_next(state, i, r, conv)
        return False

    return scatter


@functools.lru_cache(maxsize=None)
def _round_step():
    """One round: the scatter of every task in M (Fig. 9 lines 8 and 22: <u, s> leaves M)."""
    from ..cuda.mappings import tasks
    from ..cuda.operators import advance
    from .gpu_rows import mask_functions

    in_mask, _ = mask_functions()
    return advance(tasks(), in_mask, _scatter())


@functools.lru_cache(maxsize=None)
def _near_far_steps():
    """A round in near-far order, with a bucket per row (``near_far=True``).

    Only the tasks of M whose distance is below their row's bound scatter; the
    others wait in the next round's M.  A second step, per row, moves the bound
    when the row had no task below it and some above: to ``delta`` past the
    nearest waiting task (a gap of many buckets costs one round, not one round
    per bucket).  Its effect, from a CPU model of the rounds on random(1M, 6M)
    with weights in [1, 100] (``bench/task_parallel_model.py``,
    docs/performance.md): Bellman-Ford rounds scatter every arc 3.1-3.6 times
    per source (the H100 measured 3.17), near-far with a bucket of 50 (about
    the mean weight) 1.2 times, in about twice the rounds.
    State: ``(d, masks, W, T, inf, floor, bounds, seen, delta, nearest)``,
    ``bounds`` one per row, ``seen`` 2 W bytes (the rows that scattered this
    round, then the rows that had tasks waiting), ``nearest`` one per row (the
    least distance of a waiting task, ``inf`` when none).
    """
    global cuda
    from numba import cuda

    from ..cuda.distances import bound_past
    from ..cuda.flags import mark_changed
    from ..cuda.mappings import tasks
    from ..cuda.operators import advance, per_row
    from .gpu_rows import mask_functions

    in_mask, _ = mask_functions()

    @cuda.jit(device=True)
    def in_bucket(state, row, u, r):
        """Fig. 9 line 8, within the row's bucket: <u, s> leaves M and scatters if
        d[u, s] is below the bound, else waits in the next round's M."""
        active, du = in_mask(state, row, u, r)
        if not active:
            return False, du
        # Every task of a row shares the row's flags and nearest: each is read first and
        # written only when it would change, so the waiting tasks of a round do not all
        # queue on the same few words (with a write or an atomic each, a round of 32M tasks
        # took ~1.5 ms on the H100).  A stale read only costs a redundant write.
        if du >= state[6][row]:
            state[1][((r + 1) & 1) * state[3] + u * state[2] + row] = 1
            if state[7][state[2] + row] == 0:
                state[7][state[2] + row] = 1
            if du < state[9][row]:
                cuda.atomic.min(state[9], row, du)
            return False, state[4]
        if state[7][row] == 0:
            state[7][row] = 1
        return True, du

    @cuda.jit(device=True)
    def next_bucket(state, row, r, conv):
        """After the scatters: a row with tasks waiting is not done, and when none of its
        tasks scattered this round its bucket moves to delta past the nearest one (or to
        infinity, taking every task, where adding delta no longer changes a float)."""
        waiting = state[2] + row
        if state[7][waiting] != 0:
            mark_changed(conv, r)
            if state[7][row] == 0:
                state[6][row] = bound_past(state[9][row], state[8], state[4])
        state[9][row] = state[4]
        state[7][row] = 0
        state[7][waiting] = 0

    return [advance(tasks(), in_bucket, _scatter()), per_row(next_bucket)]


#: The frontier form's persistent kernel's register cap for items that are not spread
#: (8 or 16 rows, or 32 with SPREAD_ITEMS off): 40 let more warps stay resident for little
#: spilling (H100, random(1M, 6M), 1,000 sources, 32 rows a lane a row: 0.93 s against
#: 1.02 s uncapped and 1.05 s at 64; with near-far 0.72 against 0.81; docs/performance.md).
FRONTIER_REGISTERS = 40

#: Whether items of 32 rows deal their (arc, active row) pairs over the warp's lanes
#: (:func:`~warpath.cuda.mappings.frontier_tasks` with ``spread=True``) instead of a lane
#: walking every arc for its own row.
SPREAD_ITEMS = True
#: The spread items' register cap: at 40 they spill (H100, random(1M, 6M), 1,000 sources,
#: near-far: 1.01 s at 40, 0.48 s at 64, 0.55 s uncapped; swept before items with all 32
#: rows active got their own loop; docs/performance.md).
SPREAD_REGISTERS = 64
#: The whole items' register cap (:mod:`warpath.apsp.whole_items`; H200, random(1M, 6M),
#: 1,000 sources in one launch).  Twenty-eighth session, one item at a time, same call:
#: 0.231 s at 48, 0.244 s at 56, 0.258 s at 64, 0.234 s at 40; with shuffles 0.211 s at
#: 48, 0.226 s at 56 and 64.  Twenty-ninth, two items at a time (:data:`WHOLE_ITEM_PAIRS`):
#: 0.199 and 0.206 s at 64 against 0.214 and 0.219 s for one at a time at 48 (same call),
#: 0.221 s at 56, and at 48 they spill (0.259 s); docs/performance.md.
WHOLE_ITEM_REGISTERS = 64
#: Whether whole items load an item's arcs a lane each and share them by shuffles
#: (:func:`~warpath.cuda.operators.advance_marked` ``shuffled``; the GPU only): 0.211 s
#: against 0.227 s at 48 registers (twenty-eighth session, same call).
WHOLE_ITEM_SHUFFLES = True
#: Whether shuffled whole items walk two items of a vertex of at most 32 arcs at once
#: (:func:`~warpath.cuda.operators.advance_marked` ``paired``): eight peeks in flight a
#: lane instead of four (figures at :data:`WHOLE_ITEM_REGISTERS`).
WHOLE_ITEM_PAIRS = True
#: Whether whole items' warps claim their chunks of items from a counter of the round
#: instead of taking every stride-th chunk (:func:`~warpath.cuda.operators.advance_marked`
#: ``claims``; the GPU only).  A model of the rounds on random(1M, 6M) put the wait for
#: the unluckiest warp at 7-9% of a round; measured (thirtieth session, H200, 1,000
#: sources), 0.199 s against 0.203 s without, 1-2%.
WHOLE_ITEM_CLAIMS = True
#: Chunks of 32 items a claim takes (0: four on large launches, else one;
#: :data:`~warpath.cuda.operators.CLAIMS_A_WARP`); tests set it to reach either size.
WHOLE_ITEM_CLAIM_CHUNKS = 0


@functools.lru_cache(maxsize=None)
def _frontier_steps(near_far: bool, item_rows: int = 32, spread: bool = False):
    """A round over a frontier of items instead of every task (``frontier=True``).

    An item is a vertex and a group of ``item_rows`` rows (32 by default; 8 or 16: four
    or two items to a warp, :func:`~warpath.cuda.mappings.frontier_tasks`): as many
    lanes expand it, a lane per row, or with ``spread`` (32 rows) the warp's lanes
    share out the item's pairs of (arc, active row).  Instead of a mask byte per
    task, M is a word of lane bits per item, two of them (this round's, the next
    round's), and the frontier queue holds the items whose word is not zero.  A
    relaxation that lowers ``d[v, s]`` sets lane s of v's item in the next round's
    words, and the one call that makes the word non-zero enqueues the item; the warp
    expanding an item reads its word and clears it.  A round then costs what its
    frontier holds: the sweep of every task (about 0.15 ms a round on random(1M, 6M)
    with 32 rows) is gone.  (A queue of single tasks,
    a thread each, kept every lane busy but ran 2.2 s against 1.0 s: a dedup atomic and
    an uncoalesced read per task cost more than idle lanes.)

    With ``near_far`` the rows of a launch share one bound: a task below it scatters;
    a task at or above it, or lowered to a value at or above it, waits in a *far pile*,
    a third word of lanes per item, without being looked at again each round.  After a
    round in which nothing scattered, a second step moves the bound to ``delta`` past
    the nearest waiting task and puts the far pile back into the next round's M (one
    pass over the items per bucket, where re-reading the waiting tasks every round cost
    ~0.5 ms a round on random(1M, 6M)).  One bound for all rows instead of one per
    row: the rows of a launch start together, and on the graphs measured their
    distances grow at about the same pace.

    A head's distance and a lane's words are read before their atomics, which are
    skipped when they would change nothing.  (Straight to the atomics, one access on a
    lane's chain of loads instead of two, was measured on the H100 and removed: 0.85 s
    against 0.48 s for 1,000 sources on random(1M, 6M); ``docs/performance.md``.)

    State: ``(d, marks, W, items, inf, floor, G)``, then for near-far ``(bounds,
    scattered, delta, nearest, far)``: ``bounds``, ``scattered`` (a byte: some task
    scattered) and ``nearest`` (the least waiting distance) two slots each, round r
    using slot ``r & 1`` and the second step writing the other for round r + 1.
    """
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min, take_lane
    from ..cuda.distances import bound_past
    from ..cuda.flags import mark_changed
    from ..cuda.mappings import frontier_tasks
    from ..cuda.operators import QUEUE, advance, filter_indices

    width = item_rows
    mapping = frontier_tasks(width, spread)

    @cuda.jit(device=True)
    def lane_bit(words, row):
        return words.dtype.type(1) << words.dtype.type(row % width)

    @cuda.jit(device=True)
    def join_next(state, item, row, r):
        """Lane ``row`` of ``item`` into round r + 1's words; True for the one call that
        made the word non-zero (its caller enqueues the item)."""
        marks = state[1]
        slot = ((r + 1) & 1) * state[3] + item
        bit = lane_bit(marks, row)
        if (marks[slot] & bit) != 0:
            return False
        return cuda.atomic.or_(marks, slot, bit) == 0

    @cuda.jit(device=True)
    def wait(state, item, row, dv, r):
        """Near-far: lane ``row`` of ``item``, at distance ``dv``, into the far pile."""
        far, bit = state[11], lane_bit(state[11], row)
        if (far[item] & bit) == 0:
            cuda.atomic.or_(far, item, bit)
        if dv < state[10][r & 1]:
            cuda.atomic.min(state[10], r & 1, dv)

    @cuda.jit(device=True)
    def in_item(state, row, u, r):
        """Fig. 9 line 8: lane ``row`` of u's item leaves M and scatters (near-far: if
        below the bound, else it waits in the far pile)."""
        item = u * state[6] + row // width
        # The distance and the bound are read before the word, not after it: the three
        # loads then wait together (any value read in round r will do: a later lowering
        # sets the lane again for round r + 1).
        du = state[0][u * state[2] + row] if row < state[2] else state[4]   # a lane past
        bound = state[7][r & 1] if near_far else du   # the last row has no distance
        if not take_lane(state[1], (r & 1) * state[3] + item, row % width, width):
            return False, state[4]
        if near_far:
            if du >= bound:
                wait(state, item, row, du, r)
                return False, state[4]
            if state[8][r & 1] == 0:
                state[8][r & 1] = 1
        return True, du

    @cuda.jit(device=True)
    def scatter(state, row, u, du, v, w, e, r, conv):
        """d[v, s] = min(d[v, s], d[u, s] + w); True when v's item must be queued."""
        candidate = du + w
        if not relax_min(state[0], v * state[2] + row, candidate, state[5], conv):
            return False
        item = v * state[6] + row // width
        if near_far and candidate >= state[7][r & 1]:
            wait(state, item, row, candidate, r)
            return False
        return join_next(state, item, row, r)

    @cuda.jit(device=True)
    def far_items(graph, frontier, state, conv, r, thread):
        """After each round: the items to put back from the far pile (all of them, when
        nothing scattered and tasks wait; else none), and thread 0's books for r + 1."""
        now, then = r & 1, (r + 1) & 1
        nearest = state[10][now]
        waiting = nearest < state[4]
        moving = waiting and state[8][now] == 0
        if thread == 0:
            bound = state[7][now]
            if moving:
                bound = bound_past(nearest, state[9], state[4])
            state[7][then] = bound
            state[8][then] = 0
            state[10][then] = state[4] if moving else nearest
            if waiting:
                mark_changed(conv, r)
        return state[3] if moving else 0

    @cuda.jit(device=True)
    def from_far(state, row, item, r, conv):
        """Item ``item``'s waiting lanes into round r + 1's M (empty in a round that
        scattered nothing); True if it has any (it joins the frontier)."""
        lanes = state[11][item]
        if lanes == 0:
            return False
        state[11][item] = 0
        state[1][((r + 1) & 1) * state[3] + item] = lanes
        return True

    rounds = advance(mapping, in_item, scatter, QUEUE)
    return [rounds, filter_indices(far_items, from_far, QUEUE)] if near_far else [rounds]


#: ``near_far=None`` turns near-far on for frontier rounds on graphs of at least this many
#: arcs.  Near-far trades relaxations for rounds; a small graph's rounds cost more than
#: the relaxations they save.  H100, same call (docs/performance.md, twenty-third
#: session): random(1M, 6M), 1,000 sources, 0.48 s on against 0.66 s off; Okuyama's
#: complete graph (21.9M arcs) 0.445 against 0.467 s; his random and ring graphs (16K and
#: 4.7K arcs) 0.066 against 0.039 s and 0.31 against 0.14 s.
NEAR_FAR_MIN_ARCS = 1 << 22


def near_far_by_default(dgraph, frontier: bool = True) -> bool:
    """Whether ``near_far=None`` means near-far on ``dgraph`` for the queue of items:
    frontier rounds, at least :data:`NEAR_FAR_MIN_ARCS` arcs, and no negative weight.
    Whole items (:func:`whole_items_by_default`) take no buckets unless asked.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> near_far_by_default(device_graph(warpath.generators.ring(5, seed=0)))
    False
    """
    return bool(frontier and dgraph.num_edges >= NEAR_FAR_MIN_ARCS and dgraph.min_weight >= 0)


#: ``whole_items=None`` takes whole items only on graphs of at least this many arcs.  The
#: smallest graph measured with whole items ahead is Okuyama's random one (16,384 arcs,
#: 0.017 against 0.062 s); smaller graphs keep the queue of items, unmeasured.
WHOLE_ITEMS_MIN_ARCS = 1 << 13


def whole_items_by_default(dgraph, frontier: bool = True, item_rows: int = 32) -> bool:
    """Whether ``whole_items=None`` means whole items on ``dgraph``: frontier rounds over
    items of 32 rows, at least :data:`WHOLE_ITEMS_MIN_ARCS` arcs, a small-world graph
    (:func:`~warpath.graph_stats.low_diameter`) whose out-degrees are not skewed
    (:func:`~warpath.graph_stats.skewed_degrees`).

    Measured on an H200, each pair in one call (docs/performance.md, twenty-ninth
    session): whole items ahead on random(1M, 6M) with 1,000 sources (0.21 against 0.47
    s) and on Okuyama's random and complete graphs (0.017 against 0.062 s, 0.20 against
    0.41 s); behind on his power-law graph (0.115 against 0.035 s: a warp walks a hub's
    arcs for each of its items) and on his ring (0.163 against 0.088 s: 9,354 rounds,
    each sweeping every item's mark).  A device graph without a host copy has no
    statistics: the queue of items.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> gen = warpath.generators
    >>> whole_items_by_default(device_graph(gen.random(3000, 12000, seed=0)))
    True
    >>> [whole_items_by_default(device_graph(g)) for g in (gen.ring(9000, seed=0),
    ...     gen.power_law(3000, 4, 600, seed=0), gen.random(300, 1200, seed=0))]
    [False, False, False]
    """
    from ..graph_stats import low_diameter, skewed_degrees

    if not frontier or item_rows != 32 or dgraph.num_edges < WHOLE_ITEMS_MIN_ARCS:
        return False
    if dgraph.host is None or not low_diameter(dgraph):
        return False
    stats = dgraph.host.stats()
    return not skewed_degrees(stats.avg_out_degree, stats.std_out_degree)


def bucket_width(dgraph, delta=None) -> float:
    """Near-far's bucket width on ``dgraph``: ``delta``, checked, or the mean arc weight
    (at least 1 for integer weights), computed once per graph.

    Raises
    ------
    NegativeWeightError
        When the graph has a negative weight (near-far needs non-negative ones).
    OptionError
        For a ``delta`` that is not a positive number.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> bucket_width(device_graph(warpath.Graph.from_edges([0, 1], [1, 2], [2, 7])))
    4.0
    >>> bucket_width(device_graph(warpath.Graph.from_edges([0], [1], [0]))), bucket_width(
    ...     device_graph(warpath.Graph.from_edges([0, 1], [1, 2], [0.5, 1.0])))
    (1.0, 0.75)
    """
    from ..errors import NegativeWeightError, OptionError

    if dgraph.min_weight < 0:
        raise NegativeWeightError("near_far needs non-negative weights (the GPU's johnson "
                                  "method reweights a graph with negative ones first)")
    if delta is None:
        delta = dgraph.cached("task_parallel_delta", lambda: _mean_weight(dgraph))
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.number)) or \
            not delta > 0:
        raise OptionError(f"delta must be a positive number, not {delta!r}")
    return float(delta)


def _delta_in(dtype, delta, longest):
    """``delta`` in the distance type: rounded to a whole number (at least 1) for integer
    distances, at most ``longest + 1`` (one bucket then holds every path), never zero.

    Examples
    --------
    >>> int(_delta_in(np.dtype(np.int32), 2.6, 100)), int(_delta_in(np.dtype(np.int32), 1e12, 100))
    (3, 101)
    >>> float(_delta_in(np.dtype(np.float32), float("inf"), 7.5))
    8.5
    """
    from ..errors import OptionError

    delta = min(float(delta), float(longest) + 1)
    if dtype.kind in "iu":
        return dtype.type(max(1, round(delta)))
    value = dtype.type(delta)
    if not value > 0:
        raise OptionError(f"delta {delta!r} is zero in {dtype.name} distances")
    return value


def _mean_weight(dgraph) -> float:
    from ..negative_cycles import host_graph

    host = host_graph(dgraph)
    mean = float(np.mean(host.weights)) if host.num_edges else 0.0
    if host.weights.dtype.kind in "iu" or mean == 0:
        return float(max(1, round(mean)))
    return mean


def solve(graph, sources, *, predecessors=True, progress=None, group=GROUP, launch_groups=None,
          loop="fast", deliver="auto", near_far=None, delta=None, frontier=True, item_rows=32,
          whole_items=None, dtype=None, out_dtype=None, potentials=None):
    """Shortest paths from each of ``sources``, task-parallel; the worker behind the
    registered method and the GPU's Johnson.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : ndarray of int64
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)`` after each launch's rows are delivered.
    group : int
        Sources per group (the paper's N); launches take whole groups.
    launch_groups : int, optional
        Groups per launch; default as many as the L2 cache and the free memory allow
        (:func:`~warpath.apsp.gpu_rows.launch_width`).
    loop : {"fast", "paper"}
    deliver : {"auto", "device", "host"}
        Where the result goes: a matrix left on the GPU (read to the host on first read),
        or host matrices each launch's rows are streamed into; ``"auto"``: the GPU when
        the result fits in its free memory (:func:`~warpath.apsp.gpu_rows.choose_delivery`).
    near_far : bool, optional
        Scatter each row's tasks in buckets of distance (:func:`_near_far_steps`): fewer
        relaxations, more rounds; non-negative weights only.  Default (``None``): on
        where it pays, see :func:`near_far_by_default`, and off with whole items (asked
        for, ``near_far=True`` or a ``delta`` gives whole items' own buckets).
    delta : number, optional
        The bucket width with ``near_far`` (default: the mean weight, :func:`bucket_width`).
    frontier : bool
        Rounds over a frontier of (vertex, 32 rows) items instead of every task
        (:func:`_frontier_steps`); with ``near_far`` the rows share one bound.
    item_rows : {32, 16, 8}
        ``frontier`` only: rows an item (a warp, half, a quarter).  Items of 32 rows
        (the default) spread their (arc, active row) pairs over the warp's lanes; 8 and
        16 put a lane on each row, as many items a warp.  On random(1M, 6M), where about
        1.5 of an item's 32 rows are active in a round, 32 spread was fastest (H100,
        1,000 sources: 0.67 s against 0.94 s for 32 a lane a row; in an earlier run of
        the same day, 32 a lane a row 0.93 s, 16 rows 1.22 s and 8 rows 1.55 s).
    whole_items : bool, optional
        ``frontier`` with items of 32 rows only: an item in the round relaxes every row,
        a lane each, and the round's items are found by a sweep of their mark bytes
        instead of a queue (:mod:`warpath.apsp.whole_items`).  With ``near_far=True``
        (not on by default for whole items) an item waits while its least lowered row is
        at or above the launch's bound.  Default (``None``): on where it pays, see
        :func:`whole_items_by_default`.
    dtype : numpy dtype, optional
        The distance type on the GPU (default: the GPU rule of
        :func:`warpath.dtypes.distance_dtype`).
    out_dtype : numpy dtype, optional
        The result's distance type (default ``dtype``).
    potentials : device array, optional
        Johnson's h: the rows are delivered as d - h[s] + h[v].

    Returns
    -------
    DistanceMatrix
        ``stats``: iterations (rounds, summed over launches), relaxations (arcs scattered,
        per task; on a GPU whole items count the arcs of unreached and idle rows too, see
        :mod:`~warpath.apsp.whole_items`), ``batches`` (launches of the method),
        ``launch_width``, launches, host_syncs, ``loop``, ``delivered`` (``"device"`` or
        ``"host"``), ``near_far`` and its ``delta`` (``None`` without it), ``frontier``,
        ``item_rows``, ``whole_items`` and ``spread`` (whether the rounds spread items'
        pairs over the lanes: False under the CUDA simulator, which walks a lane a row),
        ``idle_rows`` (rows of no source that padded whole items' launches to a multiple of
        32, :func:`~warpath.apsp.gpu_rows.padded_rows`, summed over launches).

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.
    NegativeWeightError
        With ``near_far`` on a graph with negative weights.
    OptionError
        For ``whole_items`` without ``frontier`` or with items of other than 32 rows.
    MemoryLimitError
        When not even one group fits in the GPU's free memory, or ``deliver="device"``
        and the result does not.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(5, seed=0, weights=None)
    >>> m = solve(g, np.array([0, 3, 4]), group=2, launch_groups=1, predecessors=False)
    >>> m.distances.tolist()[1], m.stats["batches"], m.stats["launch_width"]
    ([2.0, 3.0, 4.0, 0.0, 1.0], 2, 2)
    >>> solve(g, np.array([3]), near_far=True, delta=2).distances.tolist()
    [[2.0, 3.0, 4.0, 0.0, 1.0]]
    >>> solve(g, np.array([3, 0]), frontier=True, near_far=True).distances.tolist()[1]
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    from numba import cuda as _cuda

    from ..cuda.counters import RunTally
    from ..cuda.device_graph import device_graph
    from ..cuda.enactor import check_loop, enact
    from ..cuda.mappings import frontier_tasks
    from ..cuda.predecessors import _strictly_increasing
    from ..cuda.problem import DEVICE_INTEGER_TYPES, Problem
    from ..dtypes import distance_dtype, path_length_bound
    from ..errors import NegativeCycleError
    from ..negative_cycles import negative_cycle_from
    from . import gpu_rows
    from .gpu_predecessors import record_predecessors
    from .memory import gpu_free_memory

    check_loop(loop)
    gpu_rows.check_group_options(group, launch_groups, deliver)
    frontier_tasks(item_rows)   # checks the width before any work
    if whole_items is not None:
        whole_items = _check_whole_items(whole_items, frontier, item_rows)
    dgraph = device_graph(graph)
    if whole_items is None:
        whole_items = whole_items_by_default(dgraph, frontier, item_rows)
    if near_far is None:   # whole items: buckets only when asked for (docs/performance.md,
        # twenty-eighth session: as fast or slower, in 3x the rounds)
        near_far = delta is not None or (not whole_items
                                         and near_far_by_default(dgraph, frontier))
    if near_far:
        delta = bucket_width(dgraph, delta)
    elif delta is not None:
        from ..errors import OptionError

        raise OptionError("delta is the bucket width of near-far, which near_far=False "
                          "turns off; leave near_far out or pass True with it")
    sources = np.asarray(sources, dtype=np.int64)
    n, k = dgraph.num_vertices, sources.shape[0]
    if dtype is None:
        dtype = distance_dtype(dgraph, DEVICE_INTEGER_TYPES, keep_float32=True)
    dtype = np.dtype(dtype)
    out_dtype = dtype if out_dtype is None else np.dtype(out_dtype)
    index = np.dtype(dgraph.indices.dtype)
    pull = predecessors and _strictly_increasing(dgraph, dtype)
    if pull:
        dgraph.reverse()   # uploaded before the plan reads the free memory
    where = gpu_rows.choose_delivery(
        deliver, gpu_rows.result_bytes(k, n, out_dtype, index, predecessors),
        min(k, group) * n * gpu_rows.pair_bytes(dtype, index, None, predecessors),
        gpu_free_memory())
    out = gpu_rows.Destination(where, k, n, out_dtype, index, predecessors)
    # the frontier form's words of lanes (both rounds' and the far pile's, uint32) and its
    # two rounds' queue entries (up to int64): at most 28 bytes an item, shared by its rows
    item_bytes = -(-28 // int(item_rows)) if frontier else 0
    width = gpu_rows.launch_width(
        n, k, group=group, launch_groups=launch_groups,
        pair_bytes=out.pair_bytes(dtype, index) + item_bytes,
        state_bytes=dtype.itemsize + (item_bytes if frontier else gpu_rows.MASK_BYTES),
        free_bytes=gpu_free_memory(), cache_bytes=gpu_rows.l2_cache_bytes(),
        min_groups=gpu_rows.frontier_groups(where) if frontier else 1)
    out.stage(width)
    # Whole items: a launch padded with idle rows (source -1) to whole 128-byte items.  A
    # narrower last launch never keeps more than the first: it rounds up to the same 32 at
    # most, and only when the first does too.
    kept = gpu_rows.padded_rows if whole_items else int   # entries a vertex, by launch rows
    stride = kept(width)
    d_all = _cuda.device_array(n * stride, dtype=dtype)
    masks_all = _cuda.device_array(2 * n * stride if predecessors or not frontier else 1,
                                   dtype=np.uint8)
    pred_all = _cuda.device_array(n * stride if predecessors else 1, dtype=index)
    tally = RunTally()
    totals = {"iterations": 0, "relaxations": 0, "idle_rows": 0}
    steps, max_rounds, items = [_round_step()], None, None
    spread = bool(frontier and SPREAD_ITEMS and item_rows == 32 and not whole_items)
    if whole_items:
        whole = WholeItems(n, stride, dtype, bool(near_far))
        steps = whole_item_steps(whole.narrow(dgraph.num_edges), bool(near_far),
                                 WHOLE_ITEM_SHUFFLES, WHOLE_ITEM_PAIRS, WHOLE_ITEM_CLAIMS,
                                 WHOLE_ITEM_CLAIM_CHUNKS)
    elif frontier:
        steps = _frontier_steps(bool(near_far), int(item_rows), spread)
        items = _ItemFrontier(dgraph, n, width, int(item_rows))
    elif near_far:
        steps = _near_far_steps()
    if near_far:
        step_of_delta = _delta_in(dtype, delta, path_length_bound(dgraph))
        # No negative cycle (non-negative weights): the bound only stops a runaway loop.
        max_rounds = min(n * (int(path_length_bound(dgraph) / float(step_of_delta)) + 2),
                         2**62)
    for start in range(0, k, width):
        batch = sources[start:start + width]
        rows = batch.shape[0]
        launch = np.concatenate([batch, np.full(kept(rows) - rows, -1, np.int64)])
        d, masks = d_all[:n * launch.shape[0]], masks_all[:2 * n * launch.shape[0]]
        problem = Problem(dgraph, launch, distances=d, tally=tally)
        on_device = _cuda.to_device(launch)
        if whole_items:
            state = whole.start(d, on_device, problem, step_of_delta if near_far else None)
        elif frontier:
            state = items.start(d, batch, on_device, problem)
        else:
            gpu_rows.start_rows(d, masks, on_device, problem.inf, tally)
            state = (d, masks, np.int64(rows), np.int64(n * rows), problem.inf, problem.floor)
        if near_far and not whole_items:   # the first bucket is [0, delta): one bound for
            # all rows, or each row's
            state += (items.near_far_state(rows, dtype, step_of_delta, problem.inf) if frontier
                      else _row_buckets(rows, dtype, step_of_delta, problem.inf))
        stats, negative = enact(problem, steps, state, loop=loop, max_rounds=max_rounds,
                                frontier=items.pair if items is not None else None,
                                max_registers=_register_cap(frontier, spread, whole_items))
        if negative:
            raise NegativeCycleError(negative_cycle_from(dgraph, batch))
        for key in ("iterations", "relaxations"):
            totals[key] += stats[key]
        totals["idle_rows"] += launch.shape[0] - rows
        pred = pred_all[:n * launch.shape[0]] if predecessors else None
        if predecessors:
            record_predecessors(problem, masks, pred, on_device, pull, loop)
        out.write(start, d, on_device, problem.inf, tally, pred=pred, potentials=potentials,
                  rows=rows)
        problem.release_scratch()  # its flags and counters serve the next batch
        if progress is not None:
            progress(start + rows, k)
    stats = {**totals, "batches": -(-k // width), "launch_width": width, "loop": loop,
             "near_far": bool(near_far), "delta": float(step_of_delta) if near_far else None,
             "frontier": bool(frontier), "item_rows": int(item_rows) if frontier else None,
             "whole_items": whole_items,
             "spread": bool(frontier) and steps[0].mapping.spreads_lanes}
    return out.matrix(sources, tally.as_stats(stats))


def _register_cap(frontier: bool, spread: bool, whole_items: bool = False) -> int:
    """The persistent kernel's register cap for the round's form (0: none).

    Examples
    --------
    >>> _register_cap(True, True), _register_cap(True, False), _register_cap(False, False)
    (64, 40, 0)
    >>> _register_cap(True, False, True) == WHOLE_ITEM_REGISTERS
    True
    """
    if whole_items:
        return WHOLE_ITEM_REGISTERS
    if not frontier:
        return 0
    return SPREAD_REGISTERS if spread else FRONTIER_REGISTERS


def _check_whole_items(whole_items, frontier, item_rows) -> bool:
    """``whole_items`` as a bool, checked against the options it needs.

    Raises
    ------
    OptionError
        For a value that is not a bool, or with ``frontier=False`` or ``item_rows`` other
        than 32.

    Examples
    --------
    >>> _check_whole_items(True, True, 32)
    True
    >>> _check_whole_items(True, False, 32)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    warpath.errors.OptionError: whole_items=True needs frontier=True and items of 32 rows, ...
    """
    from ..errors import OptionError

    if not isinstance(whole_items, (bool, np.bool_)):
        raise OptionError(f"whole_items must be True or False, not {whole_items!r}")
    if not whole_items:
        return False
    if not frontier or item_rows != 32:
        raise OptionError("whole_items=True needs frontier=True and items of 32 rows, "
                          f"not frontier={frontier!r}, item_rows={item_rows!r}")
    return True


def _row_buckets(rows: int, dtype, delta, inf) -> tuple:
    """The sweep's near-far part of the state for a launch (:func:`_near_far_steps`):
    every row's bound ``delta``, nothing scattered or waiting, no nearest waiting task."""
    from numba import cuda as _cuda

    return (_cuda.to_device(np.full(rows, delta, dtype=dtype)),
            _cuda.to_device(np.zeros(2 * rows, dtype=np.uint8)), delta,
            _cuda.to_device(np.full(rows, inf, dtype=dtype)))


class _ItemFrontier:
    """The frontier form's arrays for launches of up to ``width`` rows on ``dgraph``: the
    two rounds' words of lanes (uint32, one per item), the far pile's (near-far) and the
    queue of items.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> from warpath.cuda.problem import Problem
    >>> from numba import cuda as nb
    >>> dgraph = device_graph(warpath.generators.ring(3, seed=0, weights=None))
    >>> items = _ItemFrontier(dgraph, 3, 40)   # two items a vertex
    >>> items.words.shape, items.pair.light.queues.shape
    ((12,), (2, 6))
    >>> d = nb.device_array(3 * 2, np.int32)
    >>> state = items.start(d, np.array([2, 1]), nb.to_device(np.array([2, 1])),
    ...                     Problem(dgraph, [2, 1], distances=d))
    >>> [int(x) for x in state[2:4]], int(state[6])
    ([2, 3], 1)
    """

    def __init__(self, dgraph, n: int, width: int, item_rows: int = 32):
        from numba import cuda as _cuda

        from ..cuda.frontier import FrontierQueue
        from ..cuda.mappings import item_groups
        from ..cuda.problem import FrontierPair, stand_in_queue

        self.item_rows = item_rows
        capacity = n * item_groups(width, item_rows)
        self.words = _cuda.device_array(2 * capacity, dtype=np.uint32)
        index = np.int32 if capacity < 2**31 else np.int64
        self.pair = FrontierPair(FrontierQueue(capacity, index),
                                 stand_in=stand_in_queue(dgraph))
        self.n = n
        self._far = None

    def start(self, d, batch, on_device, problem) -> tuple:
        """Start a launch of the rows ``batch`` (``on_device`` the same on the GPU): the
        state tuple of :func:`_frontier_steps`, without near-far's part."""
        from ..cuda.mappings import item_groups
        from . import gpu_rows

        groups = item_groups(batch.shape[0], self.item_rows)
        words = self.words[:2 * self.n * groups]
        gpu_rows.start_items(d, words, on_device, batch, problem.inf, self.pair.light,
                             problem.tally, self.item_rows)
        return (d, words, np.int64(batch.shape[0]), np.int64(self.n * groups), problem.inf,
                problem.floor, np.int64(groups))

    def near_far_state(self, rows: int, dtype, delta, inf) -> tuple:
        """The near-far part of the state for a launch of ``rows`` rows: round 0's bound
        ``delta``, nothing scattered or waiting, an empty far pile."""
        from numba import cuda as _cuda

        from ..cuda.fills import fill_job, run_fills
        from ..cuda.mappings import item_groups

        if self._far is None:
            self._far = _cuda.device_array(self.words.shape[0] // 2, dtype=np.uint32)
        far = self._far[:self.n * item_groups(rows, self.item_rows)]
        run_fills([fill_job(far, far.shape[0], 0)])
        bounds = _cuda.to_device(np.array([delta, inf], dtype=dtype))
        nearest = _cuda.to_device(np.array([inf, inf], dtype=dtype))
        scattered = _cuda.to_device(np.zeros(2, dtype=np.uint8))
        return (bounds, scattered, delta, nearest, far)


@register("apsp", "task-parallel", "cuda", negative_weights=True, auto_rank=0, options=OPTIONS,
          memory=gpu_memory,
          summary="many SSSP at once, vertex-major interleaved state, one thread per "
                  "(vertex, source) (Okuyama, Ino & Hagihara)")
@register("multi_source", "task-parallel", "cuda", negative_weights=True, auto_rank=0,
          options=OPTIONS, memory=gpu_memory,
          summary="many SSSP at once, vertex-major interleaved state, one thread per "
                  "(vertex, source) (Okuyama, Ino & Hagihara)")
def task_parallel(graph, sources, *, predecessors=True, progress=None, group=GROUP,
                  launch_groups=None, loop="fast", deliver="auto", near_far=None, delta=None,
                  frontier=True, item_rows=32, whole_items=None):
    """Shortest paths from each of ``sources`` by Okuyama et al.'s task-parallel method.

    Called through :func:`warpath.multi_source` and :func:`warpath.apsp` on the GPU
    (their default there); see the module notes and :func:`solve`.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : ndarray of int64
        Validated 0-based sources (``arange(n)`` for APSP; duplicates give equal rows).
    predecessors : bool
        Record a shortest-path tree per source (Okuyama section 5.3).
    progress : callable, optional
        ``progress(done, total)`` after each launch.
    group, launch_groups : int
        Sources per group (32) and groups per launch (default: by cache and free memory).
    loop : {"fast", "paper"}
        One persistent kernel per launch, or the paper's launch and flag read per round.
    deliver : {"auto", "device", "host"}
        The result left on the GPU until read (``"auto"``: when it fits there), or
        streamed to host memory launch by launch.
    near_far : bool, optional
        Each row's tasks scattered in buckets of ``delta`` (non-negative weights);
        default: on for frontier rounds on large graphs (:func:`near_far_by_default`)
        unless they take whole items.
    delta : number, optional
        The bucket width (default the mean weight).
    frontier : bool
        Rounds over a queue of (vertex, 32 rows) items with a word of lane bits each,
        instead of a sweep of every task (:func:`_frontier_steps`).
    item_rows : {32, 16, 8}
        The frontier form's rows an item (a warp, or two or four items a warp).
    whole_items : bool, optional
        An item in the round relaxes all its 32 rows, without lane bits or a queue
        (:mod:`warpath.apsp.whole_items`); default: on small-world graphs without hubs
        (:func:`whole_items_by_default`).

    Returns
    -------
    DistanceMatrix
        Distances in the GPU's type (int32 where every path fits: ``exact_distances``
        gives them as int64), int64 predecessors; ``stats`` as :func:`solve`'s.

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> a = warpath.multi_source(g, [0, 8], method="task-parallel", device="cuda")
    >>> b = warpath.multi_source(g, [0, 8], method="johnson", device="cpu")
    >>> bool((a.distances == b.distances).all()), a.path(8, 0)[[0, -1]].tolist()
    (True, [8, 0])
    """
    return solve(graph, sources, predecessors=predecessors, progress=progress, group=group,
                 launch_groups=launch_groups, loop=loop, deliver=deliver, near_far=near_far,
                 delta=delta, frontier=frontier, item_rows=item_rows, whole_items=whole_items)
