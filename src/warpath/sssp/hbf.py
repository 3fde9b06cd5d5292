"""H-BF on the GPU (``hbf``): frontier-based Bellman-Ford with the optimizations of Busato & Bombieri.

Alg. 3: only the vertices whose distance fell in a round (the frontier) are
expanded in the next; the rounds run inside the enactor's persistent kernel,
so a road graph's thousands of rounds cost no host round trip each.  Each
optimization is a keyword option, all on by default:

- ``dedup`` (Sec. 4.2, Alg. 5-6): a vertex enters a round's frontier once.
  For 32-bit distances the distance and the round number share one 64-bit
  word (distance in the high half, round in the low half) updated by one
  64-bit ``atomicMin``: the thread whose minimum replaced a stamp of another
  round enqueues the vertex.  float32 distances go through an order-preserving
  integer encoding (negative values included).  64-bit distances keep their
  own array and a per-vertex round stamp advanced by ``atomicMax``: the thread
  that moves it to this round enqueues.  Off: every lowering enqueues, and the
  frontier can hold a vertex once per in-arc.
- ``classify`` (Sec. 4.1, Alg. 4): arcs are classified once per graph (cached
  on the device graph; a byte per arc beside the arcs, since the paper's two
  top bits of the head id do not exist for graphs of 2^30 vertices or more).
  Self-loops of non-negative weight are skipped; arcs into sinks (out-degree
  0, or degree 1 in an undirected graph of non-negative weights) are skipped
  during the rounds and relaxed by one final pass over just those arcs; arcs
  into vertices of in-degree 1 are written without an atomic (one writer);
  arcs out of the source in round 0 too (when the graph has no parallel arcs).
- ``coalesced_enqueue`` (Sec. 5.1): frontier writes aggregated per warp, one
  global atomic per warp instead of one per vertex.
- ``virtual_warps`` (Sec. 5.2): each frontier vertex is expanded by a group of
  lanes sized every round to the largest power of two <= resident threads /
  frontier size, within [4, 32]; off (False), one thread per vertex.  The
  default, ``"block"``, goes beyond the paper: a round whose frontier would
  give each vertex fewer than 16 lanes deals its arcs evenly over each block
  instead (a prefix sum of a chunk's degrees in shared memory, then a search
  per arc), since on skewed degrees a 4-lane warp holding a vertex of 3,000
  arcs keeps its warp busy long after the others are done (H100: R-MAT 2M
  vertices 12.7 -> 8.9 ms, a power-law graph of 820K vertices 15.5 -> 5.2 ms;
  ``docs/performance.md``).  Small frontiers keep the virtual warps.
- ``high_degree`` (Sec. 5.3): vertices of more than this many arcs (4096, the
  paper's T_DP) are kept in a second queue that the whole persistent grid
  expands together, in place of the paper's dynamic-parallelism launches; 0
  turns it off.

Read-only cache hints: numba-cuda has no ``__ldg`` intrinsic; the arcs are
read through ordinary loads, which Hopper's unified L1 caches alike.

Negative weights without a negative cycle give exact distances; a reachable
negative cycle raises :class:`~warpath.NegativeCycleError` (a relax below every
simple path's length, or a frontier still non-empty after |V| rounds).

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1, 2], [1, 2, 2, 3], [4, 1, -2, 5])
>>> r = warpath.sssp(g, 0, method="hbf", device="cuda")
>>> r.distances.tolist(), r.path(3).tolist()
([0.0, 4.0, 1.0, 6.0], [0, 2, 3])
"""

from __future__ import annotations

import functools

import numpy as np

from ..dtypes import path_length_bound
from ..errors import NegativeWeightError, OptionError
from ..graph_stats import skewed_degrees
from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: Arc classes (Alg. 4).
NORMAL, SKIP, DIRECT = 0, 1, 2
#: The round stamp of a vertex never enqueued (low half of the packed word).
NEVER = 0xFFFFFFFF
#: The share of the vertices above which a round's frontier is swept arc by arc (``dense``).
DENSE = 0.02
#: The lowest bucket of an empty far pile.
NO_BUCKET = np.iinfo(np.int64).max
#: The average degree from which a graph's rounds count as wide (:func:`_wide_rounds`).
WIDE_DEGREE = 5
#: The cap on the persistent kernel's registers a thread, applied except in near-far's
#: rounds on a road graph (0: none; see :func:`warpath.cuda.enactor.persistent_kernel`):
#: 80 (of 88) gives wide rounds more resident warps (H100: random(2M, 32M) 8.5 -> 7.7 ms,
#: power-law 3.3 -> 3.1, R-MAT 5.7 -> 5.5), where the near-far rounds of a road graph, a
#: chain of loads each, got slower (CAL-size grid 25.7 -> 29.8 ms; docs/performance.md).
KERNEL_REGISTERS = 80
#: Bench-only switches of the dense rounds' sweep (``bench/gpu_sssp_split.py``'s
#: ``hbf:_sweep_early=True`` and ``hbf:_sweep_heavy=False``), to be measured against the
#: defaults: load each group of four arcs' heads and weights with their tails
#: (:func:`~warpath.cuda.operators.sweep`'s ``early``), and whether the vertices a sweep
#: enqueues are split into the heavy queue by degree (a test of two offsets a vertex).
SWEEP_EARLY = False
SWEEP_HEAVY = True


def arc_classes(graph) -> np.ndarray:
    """Alg. 4's classes of every arc: NORMAL, SKIP (non-negative self-loop, or head a sink),
    DIRECT (head of in-degree 1).  Host-side numpy, once per graph.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 1, 2, 0], [1, 1, 1, 1, 1])
    >>> arc_classes(g).tolist()
    [0, 0, 1, 0, 2]
    """
    n = graph.num_vertices
    tails = np.repeat(np.arange(n), np.diff(graph.indptr))
    heads = np.asarray(graph.indices, dtype=np.int64)
    out_degree = np.diff(graph.indptr)
    in_degree = np.bincount(heads, minlength=n)
    sink = out_degree == 0
    if not graph.directed and graph.min_weight >= 0:
        sink = out_degree <= 1
    classes = np.zeros(heads.shape[0], dtype=np.uint8)
    classes[in_degree[heads] == 1] = DIRECT
    classes[sink[heads] & (tails != heads)] = SKIP
    classes[(tails == heads) & (np.asarray(graph.weights) >= 0)] = SKIP
    return classes


#: Up to this many vertices ``tail * n + head`` fits in an int64.
_KEYED_VERTICES = 3_037_000_499


def repeats_an_arc(tails, heads, n: int) -> bool:
    """Whether some (tail, head) pair appears twice among the arcs (CSR order: tails
    nondecreasing).  One pass when every row's heads are increasing, as the CSR
    builder leaves them; a sort otherwise.  (Not ``np.unique`` over one key an arc:
    with numpy 2.4 it took 21 s on 20M keys where a sort takes 0.5 s, and a key
    ``tail * n + head`` would overflow int64 past 3e9 vertices: those graphs sort the
    pairs instead.)  ``n`` is the vertex count.

    Examples
    --------
    >>> repeats_an_arc(np.array([0, 0, 1]), np.array([1, 2, 0]), 3)
    False
    >>> repeats_an_arc(np.array([0, 0, 1]), np.array([2, 2, 0]), 3)
    True
    >>> repeats_an_arc(np.array([0, 0, 0]), np.array([2, 1, 2]), 3)   # unsorted row
    True
    """
    tails, heads = np.asarray(tails), np.asarray(heads)
    if tails.size < 2:
        return False
    new_row = tails[1:] != tails[:-1]
    if (new_row | (heads[1:] > heads[:-1])).all():
        return False
    if int(n) <= _KEYED_VERTICES:   # one int64 key an arc, sorted
        keys = tails.astype(np.int64) * int(n) + heads
        keys.sort()
        return bool((keys[1:] == keys[:-1]).any())
    order = np.lexsort((heads, tails))
    tails, heads = tails[order], heads[order]
    return bool(((tails[1:] == tails[:-1]) & (heads[1:] == heads[:-1])).any())



def _classification(dgraph):
    """Classes, the arcs into sinks (tails, heads, weights) and whether any arc repeats,
    on the device, cached on the device graph."""
    from numba import cuda as _cuda

    from ..negative_cycles import host_graph

    def build():
        host = host_graph(dgraph)
        classes = arc_classes(host)
        tails = np.repeat(np.arange(host.num_vertices, dtype=host.indices.dtype),
                          np.diff(host.indptr))
        into_sink = (classes == SKIP) & (tails != host.indices)
        parallel = repeats_an_arc(tails, host.indices, host.num_vertices)
        sink_arcs = (_cuda.to_device(np.zeros(1, host.indptr.dtype)),
                     _cuda.to_device(host.indices[into_sink]),
                     _cuda.to_device(host.weights[into_sink]),
                     _cuda.to_device(tails[into_sink]))
        return _cuda.to_device(classes), sink_arcs, parallel

    return dgraph.cached("hbf_classes", build)


@functools.lru_cache(maxsize=None)
def _steps(packing, dedup: bool, classify: bool, source_class: bool,
           aggregated: bool, lanes: tuple, heavy: int, near_far: bool, balanced: bool,
           value_type: str, dense: float = 0.0, read_first: bool = True,
           narrow: bool = False, sweep_early: bool = False, sweep_heavy: bool = True):
    """The round's steps and the final passes for one set of options.

    ``packing`` is the distance dtype's name for 32-bit distances (the packed
    words), or None; ``balanced``: the frontier's wide rounds dealt over blocks
    (``virtual_warps="block"``), ``value_type`` the distance dtype's name;
    ``dense`` > 0 (packed words only, no near-far): rounds whose frontier holds more
    than that share of the vertices sweep every arc instead (see :func:`run`);
    ``read_first``: a relax reads the head's packed word before its ``atomicMin`` (see
    :func:`_wide_rounds`); ``narrow``: the sweep's positions in unsigned 32-bit arithmetic
    (:func:`~warpath.cuda.operators.sweep`, for graphs where
    :func:`~warpath.cuda.operators.sweeps_narrow` holds); ``sweep_early``, ``sweep_heavy``:
    see :data:`SWEEP_EARLY`, :data:`SWEEP_HEAVY`.  State:
    ``(d, info, classes, inf, floor, source, buckets, piles, pile_counts, far_stamp,
    delta, lowest, counters)``: ``d`` the distance row, ``info`` the packed words or the
    round stamps; ``buckets`` to ``lowest`` serve ``near_far`` (see
    :func:`_working_arrays`); ``counters`` the problem's, where the sweeping rounds are
    counted.
    """
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.counters import COUNTED
    from ..cuda.direction import either
    from ..cuda.flags import NEGATIVE_CYCLE, mark_changed
    from ..cuda.frontier import enqueue
    from ..cuda.mappings import frontier, thread_per_edge
    from ..cuda.operators import (QUEUE, Operator, advance, filter_items, filter_vertices,
                                  sweep)
    from ..cuda.packing import codec

    packed = packing is not None
    encode, decode = codec(packing) if packed else (None, None)

    @cuda.jit(device=True)
    def unpack(state, key):
        return decode(key >> 32)

    @cuda.jit(device=True)
    def gather(state, row, u, r):
        """Alg. 3: dequeue u and read its distance."""
        if packed:
            return True, unpack(state, state[1][u])
        return True, state[0][u]

    @cuda.jit(device=True)
    def distance(state, v):
        if packed:
            return unpack(state, state[1][v])
        return state[0][v]

    @cuda.jit(device=True)
    def near_or_far(state, v, candidate, keep, r, conv, bucket):
        """Near-far: a vertex lowered beyond this round's ``bucket`` goes to the far pile
        (once per bucket), not to the next frontier; that is a change too."""
        if not near_far or not keep:
            return keep
        if candidate < (bucket + 1) * state[10]:
            return True
        first = cuda.atomic.max(state[9], v, bucket) < bucket   # once per bucket
        park(state, v, candidate, state[6][r % 3, 1], first)
        mark_changed(conv, r)
        return False

    @cuda.jit(device=True)
    def park(state, v, dv, pile, keep):
        """Put v in far pile ``pile`` if ``keep`` (every calling lane of a warp calls it:
        one ``atomicAdd`` a warp), keeping the pile's lowest bucket up to date (read
        first: on a wide round most parks are no lower than the pile's lowest so far)."""
        enqueue(state[7][pile % 2], state[8], pile % 3, v, keep)
        if keep:
            bucket = np.int64(dv // state[10])
            if bucket < state[11][pile % 3]:
                cuda.atomic.min(state[11], pile % 3, bucket)

    @cuda.jit(device=True)
    def next_bucket(state, r):
        """The bucket a refill moves to: the next one, or the pile's lowest if that is
        higher (empty buckets are skipped, not walked one round each)."""
        return max(state[6][r % 3, 0] + 1, state[11][state[6][r % 3, 1] % 3])

    @cuda.jit(device=True)
    def pile_size(state, r):
        """How many vertices wait in round r's far pile."""
        return state[8][state[6][r % 3, 1] % 3]

    @cuda.jit(device=True)
    def refill_round(graph, frontier, state, r, thread):
        """Whether round r refills: its frontier is empty and the far pile is not.  Such a
        round expands nothing, so a round is a refill or an advance (one grid barrier)."""
        # the frontier first: a round that has one (most) waits for one load, not three
        return frontier[1][r % 3] + frontier[3][r % 3] == 0 and pile_size(state, r) > 0

    def keeping_books(advancing):
        """``advancing``, with the grid's last thread keeping the books of a round that
        does not refill: the same bucket and pile for round r + 1 (:func:`far_pile` moves
        them on in a refill round), and the round marked changed while the far pile holds
        vertices.  The last thread, since a small frontier's vertices go to the first
        threads: the books' four loads stay off the path of the round's work."""
        expand = advancing.device

        @cuda.jit(device=True)
        def op(graph, frontier, state, conv, rows, r, thread, stride):
            count = expand(graph, frontier, state, conv, rows, r, thread, stride)
            if thread == stride - 1:
                buckets = state[6]
                buckets[(r + 1) % 3, 0] = buckets[r % 3, 0]
                buckets[(r + 1) % 3, 1] = buckets[r % 3, 1]
                # (a plain read of a counter others may be adding to: a park this round
                # marks the round changed itself, so only an earlier pile matters here)
                if pile_size(state, r) > 0:
                    mark_changed(conv, r)  # work still waits in the far pile: not converged
            return count

        return Operator(op, advancing.mapping)

    @cuda.jit(device=True)
    def far_pile(graph, frontier, state, conv, r, thread):
        """Near-far refill (a round whose frontier is empty): the far pile of the current
        bucket is re-examined for the next bucket; thread 0 keeps the books."""
        buckets, counts = state[6], state[8]
        pile = buckets[r % 3, 1]
        size = counts[pile % 3]
        if thread == 0:
            buckets[(r + 1) % 3, 0] = next_bucket(state, r)
            buckets[(r + 1) % 3, 1] = pile + 1
            counts[(pile + 2) % 3] = 0  # the pile before this one: free for the next
            state[11][(pile + 2) % 3] = NO_BUCKET
            mark_changed(conv, r)  # work waited in the far pile: not converged
        return state[7][pile % 2], size

    @cuda.jit(device=True)
    def promote(state, row, v, r, conv):
        """A far vertex now within the new bucket joins the frontier; the others move to
        the new pile.  (Called only when the refill happens: the new bucket and pile are
        computed here too, since their slot is being written by thread 0.)"""
        bucket = next_bucket(state, r)
        dv = distance(state, v)
        near = dv < (bucket + 1) * state[10]
        if not near:
            state[9][v] = bucket
        park(state, v, dv, state[6][r % 3, 1] + 1, not near)
        return near

    @cuda.jit(device=True)
    def relax(state, row, u, du, v, w, e, r, conv):
        """Alg. 4 then Alg. 6: classified arcs, else an atomic relax with duplicate removal.
        Near-far's bucket is read before the relax, so that its load waits beside the
        relax's, not after it."""
        bucket = state[6][r % 3, 0] if near_far else 0  # no refill this round: its bucket
        keep = relax_arc(state, u, du, v, w, e, r, conv)
        return near_or_far(state, v, du + w, keep, r, conv, bucket)

    @cuda.jit(device=True)
    def relax_arc(state, u, du, v, w, e, r, conv):
        cls = NORMAL
        if classify:
            cls = state[2][e]
            if cls == SKIP:
                return False
            if source_class and r == 0 and u == state[5]:
                cls = DIRECT  # Alg. 4: the source's arcs, round 0: nothing set them yet
        candidate = du + w
        if candidate < state[4]:
            conv[NEGATIVE_CYCLE] = 1  # below every simple path: a negative cycle
            return False
        if packed:
            info = state[1]
            key = (encode(candidate) << 32) | r
            if cls == DIRECT and dedup:  # one writer: no atomic (Alg. 4, in-degree class)
                if key >= info[v]:
                    return False
                info[v] = key
                return True
            if read_first and key >= info[v]:  # the cheap read first: most tests fail
                return False  # (off for near-far's small rounds: they wait on latency)
            old = cuda.atomic.min(info, v, key)
            if not dedup:
                return unpack(state, old) > candidate
            return unpack(state, old) > candidate and (old & NEVER) != r
        d = state[0]
        if cls == DIRECT and dedup:
            if candidate >= d[v]:
                return False
            d[v] = candidate
            state[1][v] = r
            return True
        if not relax_min(d, v, candidate, state[4], conv):
            return False
        if not dedup:
            return True
        return cuda.atomic.max(state[1], v, np.int32(r)) < r  # the first to stamp this round enqueues

    @cuda.jit(device=True)
    def sink_tail(state, row, u, r):
        """Final pass: an arc into a sink whose tail was reached."""
        if packed:
            du = unpack(state, state[1][u])
        else:
            du = state[0][u]
        return du != state[3], du

    @cuda.jit(device=True)
    def relax_sink(state, row, u, du, v, w, e, r, conv):
        """Alg. 4's out-degree class, done once after the rounds."""
        candidate = du + w
        if packed:
            cuda.atomic.min(state[1], v, encode(candidate) << 32)
        else:
            relax_min(state[0], v, candidate, state[4], conv)
        return False

    @cuda.jit(device=True)
    def unpack_distance(state, row, v, r, conv):
        """Packed words back into the distance row."""
        state[0][v] = unpack(state, state[1][v])
        return False

    @cuda.jit(device=True)
    def wide_round(graph, queues, state, r, thread):
        """Whether round r sweeps every arc: its frontier holds more than ``dense`` x n
        vertices (every thread reads the same counters, which the last round completed);
        thread 0 counts such rounds in the problem's counters (``state[12]``)."""
        size = queues[1][r % 3] + queues[3][r % 3]
        sweep = r > 0 and size > dense * (graph[0].shape[0] - 1)
        if sweep and thread == 0:
            state[12][COUNTED] += 1
        return sweep

    @cuda.jit(device=True)
    def lowered_last_round(state, row, u, r):
        """A sweeping round r: u is on its frontier if round r - 1 lowered it last (the
        round in its packed word).  A vertex lowered again since is queued for round
        r + 1 and expanded then, with its newer distance."""
        key = state[1][u]
        return (key & NEVER) == ((r - 1) & NEVER), unpack(state, key)

    mapping = frontier(lanes, heavy_degree=heavy, balanced=balanced, value_type=value_type)
    queued = advance(mapping, gather, relax, QUEUE, heavy, aggregated)
    if dense > 0:
        queued = either(wide_round, queued, sweep(lowered_last_round, relax, QUEUE,
                                                  heavy if sweep_heavy else 0, aggregated,
                                                  narrow, sweep_early))
    round_step = [queued]
    if near_far:
        round_step = [either(refill_round, keeping_books(queued),
                             filter_items(far_pile, promote, QUEUE, heavy))]
    sinks = advance(thread_per_edge(), sink_tail, relax_sink)
    unpacking = filter_vertices(unpack_distance)
    return tuple(round_step), sinks, unpacking


def _check_options(high_degree, limit, graph):
    if not isinstance(high_degree, (int, np.integer)) or isinstance(high_degree, bool) \
            or high_degree < 0:
        raise OptionError(f"high_degree must be a non-negative integer (0: off), "
                         f"not {high_degree!r}")
    if limit is not None and graph.has_negative_weights:
        raise NegativeWeightError("hbf takes limit= only on graphs without negative weights "
                                  "(a vertex beyond the limit could lead back below it)")


@register("sssp", "hbf", "cuda", negative_weights=True, limit=True, auto_rank=5,
          options=("dedup", "classify", "coalesced_enqueue", "virtual_warps", "high_degree",
                   "near_far", "delta", "dense", "trace"),
          summary="H-BF frontier Bellman-Ford with duplicate removal, edge classification, "
                  "virtual warps, high-degree load balancing (Busato & Bombieri)")
def run(graph, source, *, predecessors=True, limit=None, dedup=True, classify=True,
        coalesced_enqueue=True, virtual_warps="block", high_degree=4096, near_far=None,
        delta=None, dense=None, trace=False):
    """H-BF from ``source`` on the GPU (see the module notes for each option).

    Parameters
    ----------
    graph : Graph or DeviceGraph
    source : int
    predecessors : bool
    limit : number, optional
        Vertices farther than this are reported unreachable (non-negative weights).
    dedup, classify, coalesced_enqueue : bool
        The paper's optimizations, each on by default.
    virtual_warps : True, False or "block"
        The paper's virtual warps (True), one thread per vertex (False), or virtual
        warps on small frontiers and arcs dealt over blocks on large ones ("block",
        the default).
    high_degree : int
        Degree above which the whole grid expands a vertex (0: off).
    near_far : bool or None
        Davidson et al.'s near-far ordering (non-negative weights only): a round
        expands only vertices closer than the current bucket's bound, the others
        wait in a far pile.  ``None`` (default): on for non-negative weights, except
        on wide graphs of skewed degrees (see ``dense``) or when ``dense`` is asked
        for.  On the H100 it took a uniform random graph of 32M arcs from 9.0 to 6.2
        ms, with a third of the relaxations (``docs/performance.md``).
    delta : number, optional
        The bucket width for ``near_far``; default 64 x mean weight / average degree
        on road-like graphs (average degree below 5), 8 x on the others.
    dense : bool, float or None
        Beyond the paper, as direction-optimizing BFS does with its pulls: a round whose
        frontier holds more than this share of the vertices (``True``: :data:`DENSE`)
        sweeps every arc, one thread each, relaxing those whose tail the last round
        lowered (the round number in the packed word), instead of dealing the queue's
        arcs over the grid.  ``None`` (default): on for graphs of average degree 5 or
        more whose out-degrees vary more than their mean (R-MAT: 6.1 to 3.6 ms on the
        H100), off otherwise (a uniform random graph of 32M arcs: 9.0 to 11.1 ms).
        Only with 32-bit distances and without ``near_far`` (whose parked vertices
        carry older rounds); ignored otherwise.
    trace : bool
        Record the frontier size of every round in ``stats["frontier_sizes"]``.

    Returns
    -------
    SSSPResult
        ``stats`` holds iterations (rounds), relaxations (arcs looked at),
        launches, host_syncs, ``skipped_arcs`` (the arcs classified away) and
        ``dense_rounds`` (the rounds that swept every arc).

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(4, 4, seed=1)
    >>> a = warpath.sssp(g, 0, method="hbf", device="cuda", dedup=False, classify=False)
    >>> b = warpath.sssp(g, 0, method="dijkstra", device="cpu")
    >>> bool((a.distances == b.distances).all())
    True
    """
    from numba import cuda as _cuda

    from ..cuda.enactor import enact, run_once
    from ..cuda.mappings import frontier_lanes
    from ..cuda.operators import sweeps_narrow
    from ..cuda.problem import Problem

    problem = Problem(graph, source, deferred=True)   # its fills run in the first kernel
    _check_options(high_degree, limit, problem.graph)
    lanes, balanced = frontier_lanes(virtual_warps)
    n, dtype = problem.n, problem.dtype
    packed = dtype.itemsize == 4
    near_far, delta, dense = _round_plan(problem.graph, near_far, delta, dense, packed)
    # near-far on a road graph: rounds of a few hundred vertices, each a chain of loads
    # (no read before the atomic, no register cap); on a wide graph its rounds are wide
    chained = near_far and not _wide_rounds(problem.graph)
    classes, sink_arcs, parallel = _classification(problem.graph) if classify else (
        problem.row[:1], None, True)
    d = problem.row
    arrays = problem.scratch(("hbf", dtype.str if packed else None, near_far),
                             lambda: _working_arrays(problem, packed, near_far))
    _restart_working_arrays(problem, arrays, packed, near_far)
    info, buckets, piles, pile_counts, far_stamp, lowest, _ = arrays
    state = (d, info, classes, problem.inf, problem.floor,
             problem.graph.indices.dtype.type(problem.source),
             buckets, piles, pile_counts, far_stamp, np.float64(delta), lowest,
             problem.counters)
    heavy = int(high_degree) if high_degree else 0
    round_step, sinks, unpacking = _steps(dtype.name if packed else None, bool(dedup), bool(classify),
                                          bool(classify) and not parallel,
                                          bool(coalesced_enqueue), lanes, heavy, near_far,
                                          balanced, dtype.name, dense, not chained,
                                          bool(dense) and sweeps_narrow(n, problem.m),
                                          bool(SWEEP_EARLY), bool(SWEEP_HEAVY))
    queues = problem.frontier(capacity=None if dedup else problem.m + 1, heavy_degree=heavy,
                              repeats=not dedup)
    sizes = _cuda.device_array(min(n, 1 << 20), dtype=np.int64) if trace else None
    bound = None
    if near_far:  # no negative cycle possible: the bound only guards against a runaway loop
        bound = min(problem.n * (int(path_length_bound(problem.graph) / delta) + 2), 2**62)
    outcome = enact(problem, list(round_step), state, frontier=queues, trace=sizes,
                    max_rounds=bound, counted="dense_rounds",
                    max_registers=0 if chained else KERNEL_REGISTERS, later=True)
    # the passes after the rounds queue behind them before the outcome is read (after a
    # negative cycle they work on meaningless distances, within bounds, and the result
    # is never made)
    if classify and sink_arcs[1].shape[0]:
        run_once(problem, sinks, state, graph=sink_arcs)
    if packed:
        run_once(problem, unpacking, state)
    if limit is not None:
        _apply_limit(problem, limit)
    extra = {"dedup": bool(dedup), "classify": bool(classify), "near_far": near_far,
             "skipped_arcs": int(sink_arcs[1].shape[0]) if classify else 0}
    if trace:
        rounds = outcome.wait()[0]["iterations"]
        extra["frontier_sizes"] = sizes.copy_to_host()[:rounds].tolist()
    return problem.finish_sssp_later(outcome, predecessors=predecessors, **extra)


def _dense_share(dense) -> float:
    """The ``dense`` option as a share of the vertices (0.0: off).

    Examples
    --------
    >>> _dense_share(True) == DENSE, _dense_share(False), _dense_share(0.25)
    (True, 0.0, 0.25)
    >>> _dense_share(2)
    Traceback (most recent call last):
    warpath.errors.OptionError: dense must be True, False or a share of the vertices in (0, 1], not 2
    """
    if isinstance(dense, (bool, np.bool_)):
        return DENSE if dense else 0.0
    if isinstance(dense, (int, float, np.number)) and 0 < dense <= 1:
        return float(dense)
    raise OptionError(f"dense must be True, False or a share of the vertices in (0, 1], "
                      f"not {dense!r}")


def _round_plan(dgraph, near_far, delta, dense, packed: bool) -> tuple:
    """``(near_far, delta, dense share)`` after the defaults (see :func:`run`): on a wide
    graph of skewed degrees (:func:`_wide_rounds`, :func:`_skewed_degrees`), wide rounds
    sweep every arc; on any other graph of non-negative weights, near-far; ``dense``
    asked for turns the default near-far off.  The dense sweep needs packed (32-bit)
    distances and no near-far, and is off otherwise.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> ring = device_graph(warpath.generators.ring(4, seed=0, weights=None))
    >>> _round_plan(ring, None, None, None, True)
    (True, 64.0, 0.0)
    >>> _round_plan(ring, None, None, True, True)
    (False, 0.0, 0.02)
    >>> _round_plan(ring, None, None, True, False)   # 64-bit distances: no sweep to ask for
    (True, 64.0, 0.0)
    """
    usable = dgraph.min_weight >= 0 and dgraph.max_abs_weight > 0
    asked = _dense_share(dense) if dense is not None else 0.0   # validated in any case
    asked = asked if packed else 0.0   # 64-bit distances have no sweep
    defaults = near_far is None or (dense is None and packed)
    skewed = defaults and _wide_rounds(dgraph) and _skewed_degrees(dgraph)
    if near_far is None:
        near_far = usable and not skewed and not asked
    if near_far or not packed:
        share = 0.0
    else:
        share = (DENSE if skewed else 0.0) if dense is None else asked
    return (*_near_far_choice(dgraph, near_far, delta, usable), share)


def _near_far_choice(dgraph, near_far: bool, delta, usable: bool) -> tuple:
    """``(near_far, delta)``: the bucket width checked, or its default (once per graph)."""
    if not near_far:
        return False, 0.0
    if not usable:
        raise NegativeWeightError("near_far needs non-negative weights, not all zero")
    if delta is None:  # once per graph: the mean weight reads every arc
        delta = dgraph.cached("hbf_delta", lambda: _default_delta(dgraph))
    if not delta > 0:
        raise OptionError(f"delta must be a positive number, not {delta!r}")
    return True, float(delta)


def _wide_rounds(dgraph) -> bool:
    """Whether a round's frontier grows wide: an average degree of :data:`WIDE_DEGREE` or
    more (small-world graphs, where a round holds many thousands of vertices), not a
    road graph's few hundred a round.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> _wide_rounds(device_graph(warpath.generators.grid(8, 8, seed=0)))
    False
    >>> _wide_rounds(device_graph(warpath.generators.random(64, 640, seed=0)))
    True
    """
    return dgraph.num_edges >= WIDE_DEGREE * dgraph.num_vertices


def _skewed_degrees(dgraph) -> bool:
    """Whether the out-degrees vary more than their mean
    (:func:`warpath.graph_stats.skewed_degrees`), once per graph.  Such a
    graph's hubs reach most vertices in a few rounds, so plain rounds re-relax little
    (2.4 relaxations an arc on R-MAT against 4.5 on a uniform random graph), and
    near-far's extra rounds cost more than the relaxations they save.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> star = warpath.Graph.from_edges([0] * 60 + [1], list(range(1, 61)) + [2], [1] * 61)
    >>> _skewed_degrees(device_graph(star))
    True
    >>> _skewed_degrees(device_graph(warpath.generators.grid(8, 8, seed=0)))
    False
    """
    def measure():
        host = getattr(dgraph, "host", None)   # the offsets only, not the whole graph
        indptr = host.indptr if host is not None else dgraph.indptr.copy_to_host()
        degrees = np.diff(indptr).astype(np.float64)
        if not degrees.shape[0]:
            return False
        return skewed_degrees(degrees.mean(), degrees.std())

    return dgraph.cached("hbf_skew", measure)


def _default_delta(dgraph) -> float:
    """The bucket width near-far uses by default: 64 x mean weight / average degree on
    road graphs, whose rounds wait on latency (on the H100, 10-12% faster than 32 x on a
    road grid and on the NE and NW road networks), 8 x on wide graphs, whose rounds are
    bound by their work (random(2M, 32M): 6.6 ms at 25 = 8 x against 11.2 ms at 64 x;
    ``docs/performance.md``)."""
    from ..negative_cycles import host_graph

    host = host_graph(dgraph)
    mean = float(np.mean(host.weights)) if host.num_edges else 1.0
    degree = max(host.num_edges / max(host.num_vertices, 1), 1.0)
    return (8.0 if _wide_rounds(dgraph) else 64.0) * mean / degree


def _working_arrays(problem, packed: bool, near_far: bool) -> tuple:
    """``(info, buckets, piles, pile_counts, far_stamp, pile_lowest, books)``,
    uninitialised (:func:`_restart_working_arrays` fills them; a pool keeps them between
    queries).  ``books``: one int64 block of 9 holding ``buckets`` and ``pile_counts``.

    ``info`` holds the packed (distance, round) words, or the round stamps of
    64-bit distances.  Near-far's arrays: the (bucket, pile) pair of each round
    in three rotating slots, two far piles and their three rotating counters (as
    frontier queues have), each vertex's last bucket in a pile, and the lowest
    bucket in each pile (same rotation as the counters); one-slot stand-ins
    without near-far.
    """
    from numba import cuda as _cuda

    n = problem.n
    far_n = n if near_far else 1
    index = problem.graph.indices.dtype
    books = _cuda.device_array(9, dtype=np.int64)
    return (_cuda.device_array(n, dtype=np.int64 if packed else np.int32),
            books[:6].reshape(3, 2),
            _cuda.device_array((2, far_n), dtype=index),
            books[6:],
            _cuda.device_array(far_n, dtype=np.int64),
            _cuda.device_array(3, dtype=np.int64),
            books)


def _restart_working_arrays(problem, arrays: tuple, packed: bool, near_far: bool):
    """Packed words: infinity everywhere, 0 at the source, no round (or round stamps: none);
    near-far: bucket 0 in pile 0, empty piles, no vertex parked.  Fills of ``problem``
    (run by its first kernel: nothing of size n is uploaded, nothing launched here)."""
    from ..cuda.packing import encode_host

    info, _, _, _, far_stamp, lowest, books = arrays
    if packed:
        everywhere = (encode_host(problem.inf) << 32) | NEVER
        at_source = (encode_host(problem.dtype.type(0)) << 32) | NEVER
        problem.fill(info, problem.n, everywhere, problem.source, at_source)
    else:
        problem.fill(info, problem.n, -1)
    if near_far:
        problem.fill(books, 9, 0)
        problem.fill(lowest, 3, NO_BUCKET)
        problem.fill(far_stamp, far_stamp.shape[0], -1)
    problem.settle()


def _apply_limit(problem, limit):
    """Vertices farther than ``limit`` become unreachable (on the GPU, no round trip)."""
    from ..cuda.distances import unreach_beyond

    unreach_beyond(problem.row, limit, problem.inf)
    problem.tally.launch()
