"""Many breadth-first searches at once on the GPU (``multi-source``): one bit per source.

The MS-BFS idea (Then et al., VLDB 2014): up to 64 searches share every pass
over the graph.  Each vertex has three 64-bit words, one bit per source of
the batch: ``seen`` (the searches that have reached it), ``visit`` (those for
which it is on the current frontier) and ``next`` (those that reach it in
this round).  Round 0 seeds ``next`` with the sources; every round then

1. expands, in one of two directions (picked on the device every round):

   - *push* (a small frontier): the engine's advance over the frontier queue of
     the vertices whose ``visit`` word is not empty (virtual warps,
     high-degree vertices expanded by the whole grid): for each arc u -> v,
     the searches ``visit[u] & ~seen[v]`` reach v, added to ``next[v]`` by one
     atomic OR.  One read of u's adjacency list serves every search that has u
     on its frontier; the bits an OR set first are the searches that v's
     parent u wins;
   - *pull* (a large frontier; :func:`~warpath.cuda.direction.pull_fold`): every
     vertex with in-arcs that some search has not reached ORs the ``visit``
     words of its in-neighbours into ``next``, and stops as soon as every
     search on the frontier has reached it (a step after the commit ORs the
     next frontier's words: the searches still going, one atomic per warp).
     The in-arcs come in segments of at most ``pull_wide``, a thread each: a
     vertex of one segment writes ``next`` itself, without atomics; the
     segments of a split vertex join into it by atomic ORs.  A bitmap of the
     frontier, made after each commit, is read before an in-neighbour's word:
     most are off the frontier.  In the dense
     middle rounds of a small-world graph most vertices are complete after a
     few in-arcs, or were already, and most arcs are never read;

   Pull when the frontier's out-arcs (what a push reads) times ``alpha`` exceed
   the graph's arcs (what a pull reads at most): Beamer's test, with m for the
   arcs into unvisited vertices, which many searches at once do not track;
2. commits, one thread per vertex: ``next`` joins ``seen``, becomes ``visit``,
   gives each of its searches level r and puts v in the next queue; ``visit``
   of every other vertex is cleared, so a pull reads the frontier alone.

Levels are a ``(len(sources), n)`` matrix (row i: the search from
``sources[i]``); more than 64 sources run in chunks of 64, one after the other.
The device state is kept from query to query as the single-source methods keep
theirs (:class:`~warpath.bfs.gpu_levels.LevelRun`); a batch is one launch, its
set-up fills inside it.  The result is a :class:`~warpath.BFSMatrix`, its arrays
left on the GPU until read.

Chosen by ``warpath.bfs(graph, sources=[...])`` on the GPU (``method="auto"``);
with one source, ``warpath.bfs(graph, s, method="multi-source")`` returns that
row's :class:`~warpath.BFSResult`.  Weights are ignored.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0])
>>> m = warpath.bfs(g, sources=[0, 2], method="multi-source", device="cuda")
>>> m.levels.tolist(), m.path(2, 1).tolist()
([[0, 1, 2], [1, 2, 0]], [2, 0, 1])
"""

from __future__ import annotations

import functools

import numpy as np

from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: Searches per pass: the bits of a word.
WORD_BITS = 64
ONE, ZERO = np.uint64(1), np.uint64(0)
#: Pull when the frontier's out-arcs times ALPHA exceed the graph's arcs (see the notes).
ALPHA = 4.0
#: Places in the state: the words, the levels and parents, the reverse CSR (offsets,
#: tails, and its arcs cut in segments of at most ``pull_wide``: their first arcs and
#: vertices), the degree tally, the batch, the searches on each round's frontier (three
#: words in rotation), the batch's bits, alpha, m, the problem's counters and the frontier's
#: bitmap (bit v: ``visit[v]`` is not empty).
SEEN, VISIT, NEXT, LEVELS, PARENTS, IN_ARCS = 0, 1, 2, 3, 4, 5
TALLY, BATCH, ACTIVE, FULL, ALPHA_AT, ARCS, COUNTERS, FRONT = 9, 10, 11, 12, 13, 14, 15, 16
BIT = np.uint32(1)
#: A pull gives each thread at most this many in-arcs: the in-arcs of a vertex of more are
#: cut in segments, each scanned by its own thread and joined into the vertex by atomics.
PULL_WIDE = 8
#: The batch's kernel is capped at this many registers a thread: 4 blocks of 256 a SM
#: instead of 3 (75 registers).  Its rounds wait on memory latency, and the extra warps
#: hide more of it than the spills cost (H100, rmat(20, 16): 64 keys 2.25 -> 2.07-2.10
#: ms of kernel, 64 random vertices 1.75 -> 1.67-1.68 ms; 48 registers was no better,
#: 40 slower; single queries are slower capped, so they are not).
REGISTERS = 64


@functools.lru_cache(maxsize=None)
def _steps(record: bool, heavy: int):
    """Seed (round 0) or expand (push or pull), then commit, then the next frontier's
    degrees and searches."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import warp_or_into
    from ..cuda.counters import COUNTED
    from ..cuda.direction import OUT_ARCS, either, frontier_degrees, pull_fold
    from ..cuda.mappings import frontier, thread_per_vertex
    from ..cuda.operators import QUEUE, Operator, advance, filter_vertices, together
    from .gpu_levels import LANES

    @cuda.jit(device=True)
    def set_parent(state, v, u, won):
        """u is v's parent in the searches of ``won``."""
        while won != ZERO:
            low = won & (~won + ONE)
            state[PARENTS][cuda.popc(low - ONE), v] = u
            won ^= low

    @cuda.jit(device=True)
    def searches_at(state, row, u, r):
        """Push: the searches that have u on their frontier."""
        return True, state[VISIT][u]

    @cuda.jit(device=True)
    def reach(state, row, u, du, v, w, e, r, conv):
        """Push: the searches of u that have not seen v reach it this round."""
        fresh = du & ~state[SEEN][v]
        if fresh == ZERO or (state[NEXT][v] & fresh) == fresh:  # the cheap reads first
            return False
        won = fresh & ~cuda.atomic.or_(state[NEXT], v, fresh)
        if record:
            set_parent(state, v, u, won)
        return False

    @cuda.jit(device=True)
    def incomplete(state, v, r):
        """Pull: v looks if a search on this round's frontier has not reached it; the fold
        starts from the searches that have (next: a split vertex's, in this round)."""
        got = state[SEEN][v] | state[NEXT][v]
        return (state[ACTIVE][r % 3] & ~got) != ZERO, got

    @cuda.jit(device=True)
    def frontier_word(state, u, r):
        """Pull: u's frontier word; the bitmap first, which stays in the L1 cache where
        the words would not (most in-neighbours are off the frontier)."""
        if (state[FRONT][u >> 5] >> np.uint32(u & 31)) & BIT == 0:
            return ZERO
        return state[VISIT][u]

    @cuda.jit(device=True)
    def join(state, v, u, x, acc, r):
        """Pull: the searches on u's frontier that v had not got reach v, u its parent."""
        won = x & ~acc
        if won != ZERO:
            if record:
                set_parent(state, v, u, won)
            acc |= won
        return acc

    @cuda.jit(device=True)
    def join_shared(state, v, u, x, acc, r, conv):
        """Pull, a split vertex: as :func:`join`, by an atomic OR (threads share v)."""
        fresh = x & ~acc
        if fresh != ZERO:
            reach(state, 0, u, fresh, v, 0, 0, r, conv)
        return acc | fresh

    @cuda.jit(device=True)
    def complete(state, v, acc, r):
        """Pull: every search still on a frontier has reached v (a search whose frontier
        is empty, e.g. from a source without arcs, never will)."""
        return (state[ACTIVE][r % 3] & ~acc) == ZERO

    @cuda.jit(device=True)
    def keep_next(state, v, acc, r, conv):
        """Pull: what v got this round waits in next for the commit (v's thread alone)."""
        fresh = acc & ~state[SEEN][v]
        if fresh != ZERO:
            state[NEXT][v] = fresh
        return False

    @cuda.jit(device=True)
    def commit(state, row, v, r, conv):
        """next joins seen and becomes visit; each of its searches gives v level r (the rows
        in order, not v's bits alone: the lanes of a warp then write one row together)."""
        fresh = state[NEXT][v]
        if fresh == ZERO:
            if state[VISIT][v] != ZERO:   # off the frontier: a pull must not see it
                state[VISIT][v] = ZERO
            return False
        state[NEXT][v] = ZERO
        state[SEEN][v] |= fresh
        state[VISIT][v] = fresh
        levels = state[LEVELS]
        for i in range(levels.shape[0]):   # every lane the same row at once: coalesced
            if (fresh >> np.uint64(i)) & ONE:
                levels[i, v] = r
        return True

    @cuda.jit(device=True)
    def union_op(graph, frontier_, state, conv, rows, r, thread, stride):
        """After the commit: the searches on the next frontier, the OR of its vertices'
        visit words, into ``state[ACTIVE][(r + 1) % 3]`` (thread 0 clears the slot of
        round r + 2, last read in round r - 1), and its bitmap, one thread a word."""
        active = state[ACTIVE]
        if thread == 0:
            active[(r + 2) % 3] = ZERO
        bits = ZERO
        light, heavy_queue = frontier_[0][(r + 1) % 2], frontier_[2][(r + 1) % 2]
        for i in range(thread, frontier_[1][(r + 1) % 3], stride):
            bits |= state[VISIT][light[i]]
        for i in range(thread, frontier_[3][(r + 1) % 3], stride):
            bits |= state[VISIT][heavy_queue[i]]
        warp_or_into(active, (r + 1) % 3, bits)   # every lane: the loops have ended
        visit, front = state[VISIT], state[FRONT]
        n = visit.shape[0]
        for w in range(thread, front.shape[0], stride):   # the next frontier's bitmap
            word = np.uint32(0)
            for j in range(min(32, n - 32 * w)):
                if visit[32 * w + j] != ZERO:
                    word |= BIT << np.uint32(j)
            front[w] = word
        return 0

    @cuda.jit(device=True)
    def seed_op(graph, frontier_, state, conv, rows, r, thread, stride):
        """Round 0: the batch's rows of levels (and parents) to -1, row by row (no fill
        job: a fill takes a flat view of the rows, which costs host time to make), and
        search i starts at batch[i] (an OR: sources may repeat)."""
        levels, parents = state[LEVELS], state[PARENTS]
        for i in range(levels.shape[0]):
            for v in range(thread, levels.shape[1], stride):
                levels[i, v] = -1
                if record:
                    parents[i, v] = -1
        batch = state[BATCH]
        for i in range(thread, cuda.popc(state[FULL]), stride):
            cuda.atomic.or_(state[NEXT], batch[i], ONE << np.uint64(i))
        return 0

    @cuda.jit(device=True)
    def seeding(graph, frontier_, state, r, thread):
        return r == 0

    @cuda.jit(device=True)
    def pulls(graph, frontier_, state, r, thread):
        """Pull when the frontier's out-arcs times alpha exceed m; thread 0 counts it."""
        pulling = state[TALLY][r % 3, OUT_ARCS] * state[ALPHA_AT] > state[ARCS]
        if pulling and thread == 0:
            state[COUNTERS][COUNTED] += 1
        return pulling

    push = advance(frontier(LANES, heavy_degree=heavy), searches_at, reach)
    pull = pull_fold(IN_ARCS, incomplete, frontier_word, join, complete, keep_next,
                     merge=join_shared)
    seed = Operator(seed_op, thread_per_vertex())
    union = Operator(union_op, thread_per_vertex())
    return [either(seeding, either(pulls, push, pull), seed),
            filter_vertices(commit, QUEUE, heavy),
            together(frontier_degrees(IN_ARCS, TALLY), union)]


class _Words:
    """The three words per vertex and the three of the frontiers' searches in one block
    (``flat``, one fill clears them), the batch's sources (64 slots) and the frontier's
    bitmap (made by every round; read only after), borrowed from a problem's scratch pool."""

    def __init__(self, n: int, index):
        self.flat = cuda.device_array(3 * n + 3, dtype=np.uint64)
        self.rows = tuple(self.flat[i * n:(i + 1) * n] for i in range(3))
        self.active = self.flat[3 * n:]
        self.batch = cuda.device_array(WORD_BITS, dtype=index)
        self.front = cuda.device_array(-(-n // 32), dtype=np.uint32)


@register("bfs", "multi-source", "cuda", limit=True, batch=True, auto_rank=0,
          negative_weights=True, options=("alpha", "pull_wide", "high_degree", "loop"),
          summary="up to 64 BFS per pass, one bit per source in a 64-bit word per vertex "
                  "(MS-BFS), pushing or pulling each round; larger batches in chunks of 64")
def run(graph, sources, *, predecessors=True, limit=None, alpha=ALPHA, pull_wide=PULL_WIDE,
        high_degree=4096, loop="fast"):
    """Breadth-first searches from every vertex of ``sources`` on the GPU, 64 per pass.

    Parameters
    ----------
    graph : Graph or DeviceGraph
        Weights are ignored; directed graphs pull over their reverse graph.
    sources : array of int
        Validated 0-based sources (duplicates give equal rows).
    predecessors : bool
        Record BFS parents per search.
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.
    alpha : float
        Pull in rounds whose frontier's out-arcs times ``alpha`` exceed the graph's
        arcs (0: never pull).
    pull_wide : int
        A pull gives each thread at most this many in-arcs: a vertex of more has its
        in-arcs cut in segments over several threads (0: one arc a thread).
    high_degree : int
        In push rounds, vertices of more arcs are expanded by the whole grid (0: off).
    loop : {"fast", "paper"}
        One persistent kernel per batch of 64, or one launch per step and a read-back per level.

    Returns
    -------
    BFSMatrix
        ``stats``: iterations (levels expanded, summed over the batches of 64),
        relaxations (arcs looked at), ``pull_rounds``, ``batches``, launches, host_syncs.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> m = warpath.bfs(g, sources=[0, 4, 8], method="multi-source", device="cuda")
    >>> [int(m.levels[i].max()) for i in range(3)]
    [4, 2, 4]
    """
    from ..cuda.counters import RunTally
    from ..cuda.direction import direction_arrays, restart_direction
    from ..cuda.enactor import check_loop
    from ..cuda.recycled import recycled_array
    from ..cuda.runtime import write_small
    from ..result import BFSMatrix
    from .gpu_levels import LevelRun, check_high_degree, rounds_for

    check_loop(loop)
    heavy = check_high_degree(high_degree)
    if not (isinstance(alpha, (int, float, np.number)) and alpha >= 0):
        raise ValueError(f"alpha must be a non-negative number, not {alpha!r}")
    pull_wide = check_high_degree(pull_wide, "pull_wide", "one in-arc a thread")
    steps = _steps(bool(predecessors), heavy)   # binds numba.cuda
    bfs = LevelRun.reused(graph, ("multi-source",), predecessors=predecessors,
                          heavy_degree=heavy)
    problem, record, index = bfs.problem, bfs.record, bfs.index
    dgraph, n = problem.graph, problem.n
    reverse = dgraph.reverse()
    sources = np.asarray(sources, dtype=np.int64)
    k = sources.shape[0]
    levels = recycled_array((k, n), index)
    parents = recycled_array((k, n), index) if record else _no_parents(dgraph, index)
    words = bfs.kept("words", lambda: problem.scratch(("multi-source words", n, index.str),
                                                     lambda: _Words(n, index)))
    arrays = bfs.kept("direction", lambda: direction_arrays(problem))
    in_arcs = (reverse.indptr, reverse.indices, *reverse.arc_segments(max(pull_wide, 1)),
               arrays.tally, words.batch, words.active)
    choice = (np.float64(alpha), np.int64(problem.m))
    totals, tally = {"iterations": 0, "relaxations": 0, "pull_rounds": 0}, RunTally()
    padded = np.zeros(WORD_BITS, dtype=index)
    for first in range(0, k, WORD_BITS):
        batch = sources[first:first + WORD_BITS]
        b = batch.shape[0]
        problem.reset(int(batch[0]))
        problem.fill(words.flat, 3 * n + 3, 0, standing=True)
        problem.restart_frontier(bfs.frontier, heavy, first=False)
        restart_direction(problem, arrays, 0, 0)
        padded[:b] = batch
        write_small(words.batch, padded)
        bfs.max_rounds = rounds_for(limit, n) + 1   # round 0 seeds
        state = (*words.rows, _rows(levels, first, b),
                 _rows(parents, first, b) if record else parents, *in_arcs,
                 np.uint64((1 << b) - 1), *choice, problem.counters, words.front)
        stats = bfs.rounds(steps, state, loop=loop, counted="pull_rounds",
                           max_registers=REGISTERS)
        stats["iterations"] -= 1
        for key in totals:
            totals[key] += stats[key]
        tally.launch(problem.tally.launches)
        tally.sync(problem.tally.host_syncs)
    bfs.release()
    totals["batches"] = -(-k // WORD_BITS)
    return BFSMatrix(sources, levels, parents if record else None,
                     tally.as_stats({**totals, "loop": loop}))


def _rows(matrix, first: int, count: int):
    """Rows ``first .. first + count - 1`` of a (rows, n) device matrix: the matrix itself
    when that is all of it (a batch of at most 64; a numba view costs tens of us)."""
    return matrix if first == 0 and count == matrix.shape[0] else matrix[first:first + count]


def _no_parents(dgraph, index):
    """The parents' stand-in when none are recorded (the kernels never write it)."""
    return dgraph.cached(("multi-source no parents", index.str),
                         lambda: cuda.device_array((1, 1), dtype=index))
