"""Many breadth-first searches at once on the GPU (``multi-source``): one bit per source.

The MS-BFS idea (Then et al., VLDB 2014): up to 64 searches share every pass
over the graph.  Each vertex has three 64-bit words, one bit per source of
the batch: ``seen`` (the searches that have reached it), ``visit`` (those for
which it is on the current frontier) and ``next`` (those that reach it in
this round).  A round

1. expands a frontier queue of the vertices whose ``visit`` word is not empty
   (the engine's advance: virtual warps, high-degree vertices expanded by the
   whole grid): for each arc u -> v, the searches ``visit[u] & ~seen[v]``
   reach v, added to ``next[v]`` by one atomic OR.  One read of u's
   adjacency list serves every search that has u on its frontier.  The bits
   an OR set first are the searches that v's parent u wins;
2. commits, one thread per vertex: ``next`` joins ``seen``, becomes ``visit``,
   gives each of its searches level r + 1 and puts v in the next queue.

Levels are a ``(len(sources), n)`` matrix (row i: the search from
``sources[i]``); more than 64 sources run in chunks of 64, one after the other.
The result is a :class:`~warpath.BFSMatrix`, its arrays left on the GPU until read.

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


@functools.lru_cache(maxsize=None)
def _steps(record: bool, heavy: int):
    """Expand then commit.  State: ``(seen, visit, next, levels, parents)``."""
    global cuda
    from numba import cuda

    from ..cuda.mappings import frontier
    from ..cuda.operators import QUEUE, advance, filter_vertices
    from .gpu_levels import LANES

    @cuda.jit(device=True)
    def searches_at(state, row, u, r):
        """The searches that have u on their frontier."""
        return True, state[1][u]

    @cuda.jit(device=True)
    def reach(state, row, u, du, v, w, e, r, conv):
        """Step 1: the searches of u that have not seen v reach it this round."""
        fresh = du & ~state[0][v]
        if fresh == ZERO or (state[2][v] & fresh) == fresh:  # the cheap reads first
            return False
        won = fresh & ~cuda.atomic.or_(state[2], v, fresh)
        if record:
            while won != ZERO:  # u is v's parent in the searches whose bit it set first
                low = won & (~won + ONE)
                state[4][cuda.popc(low - ONE), v] = u
                won ^= low
        return False

    @cuda.jit(device=True)
    def commit(state, row, v, r, conv):
        """Step 2: next joins seen and becomes visit; each of its searches gives v level r + 1."""
        fresh = state[2][v]
        if fresh == ZERO:
            return False
        state[2][v] = ZERO
        state[0][v] |= fresh
        state[1][v] = fresh
        while fresh != ZERO:
            low = fresh & (~fresh + ONE)
            state[3][cuda.popc(low - ONE), v] = r + 1
            fresh ^= low
        return True

    return [advance(frontier(LANES, heavy_degree=heavy), searches_at, reach),
            filter_vertices(commit, QUEUE, heavy)]


@functools.lru_cache(maxsize=None)
def _start_kernel():
    """The kernel that starts a batch: each vertex's words get the bits of the searches
    that start there (one thread per vertex; at most 64 sources)."""
    global cuda
    from numba import cuda

    @cuda.jit
    def start(seen, visit, following, sources):
        v = cuda.grid(1)
        if v < seen.shape[0]:
            word = ZERO
            for i in range(sources.shape[0]):
                if sources[i] == v:
                    word |= ONE << np.uint64(i)
            seen[v] = word
            visit[v] = word
            following[v] = ZERO

    return start


def _first_frontier(pair, dgraph, sources, heavy: int) -> None:
    """Put the batch's distinct sources in the frontier queues' first level."""
    distinct = np.unique(sources).astype(dgraph.indices.dtype)
    is_heavy = np.array([heavy > 0 and dgraph.degree(int(s)) > heavy for s in distinct],
                        dtype=bool)
    for queue, members in ((pair.light, distinct[~is_heavy]),
                           (pair.heavy_queue, distinct[is_heavy])):
        if queue is None:
            continue
        if members.size:
            queue.queues[0, :members.size].copy_to_device(members)
        queue.counts.copy_to_device(np.array([members.size, 0, 0], dtype=np.int64))


@register("bfs", "multi-source", "cuda", limit=True, batch=True, auto_rank=0,
          negative_weights=True, options=("high_degree", "loop"),
          summary="up to 64 BFS per pass, one bit per source in a 64-bit word per vertex "
                  "(MS-BFS); larger batches in chunks of 64")
def run(graph, sources, *, predecessors=True, limit=None, high_degree=4096, loop="fast"):
    """Breadth-first searches from every vertex of ``sources`` on the GPU, 64 per pass.

    Parameters
    ----------
    graph : Graph or DeviceGraph
        Weights are ignored.
    sources : array of int
        Validated 0-based sources (duplicates give equal rows).
    predecessors : bool
        Record BFS parents per search.
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.
    high_degree : int
        Vertices of more arcs are expanded by the whole grid (0: off).
    loop : {"fast", "paper"}
        One persistent kernel per batch of 64, or one launch per step and a read-back per level.

    Returns
    -------
    BFSMatrix
        ``stats``: iterations (levels expanded, summed over the batches of 64),
        relaxations (arcs looked at), ``batches``, launches, host_syncs.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> m = warpath.bfs(g, sources=[0, 4, 8], method="multi-source", device="cuda")
    >>> [int(m.levels[i].max()) for i in range(3)]
    [4, 2, 4]
    """
    from numba import cuda as _cuda

    from ..cuda.device_graph import device_graph
    from ..cuda.enactor import check_loop, enact
    from ..cuda.problem import FrontierPair, Problem, stand_in_queue
    from ..cuda.frontier import FrontierQueue
    from ..cuda.runtime import THREADS, blocks_for
    from ..result import BFSMatrix
    from .gpu_levels import check_high_degree, rounds_for

    check_loop(loop)
    heavy = check_high_degree(high_degree)
    dgraph = device_graph(graph)
    sources = np.asarray(sources, dtype=np.int64)
    n, k = dgraph.num_vertices, sources.shape[0]
    index = np.dtype(dgraph.indices.dtype)
    levels = _cuda.device_array((k, n), dtype=index)
    parents = _cuda.device_array((k, n) if predecessors else (1, 1), dtype=index)
    words = [_cuda.device_array(n, dtype=np.uint64) for _ in range(3)]
    pair = FrontierPair(FrontierQueue(n, index),
                        FrontierQueue(max(dgraph.count_degree_above(heavy), 1), index)
                        if heavy else None, stand_in_queue(dgraph))
    steps = _steps(bool(predecessors), heavy)
    problem = None
    totals = {"iterations": 0, "relaxations": 0}
    for first in range(0, k, WORD_BITS):
        batch = sources[first:first + WORD_BITS]
        rows = slice(first, first + batch.shape[0])
        problem = Problem(dgraph, int(batch[0]), distances=levels[rows],
                          tally=None if problem is None else problem.tally)
        _fill_rows(problem, levels[rows], -1, batch)
        if predecessors:
            _fill_rows(problem, parents[rows], -1)
        on_device = _cuda.to_device(batch)
        _start_kernel()[blocks_for(n), THREADS](*words, on_device)
        problem.tally.launch(3 if predecessors else 2)
        _first_frontier(pair, dgraph, batch, heavy)
        state = (*words, levels[rows], parents[rows] if predecessors else parents)
        stats, _ = enact(problem, steps, state, loop=loop, frontier=pair,
                         max_rounds=rounds_for(limit, n))
        problem.release_scratch()  # its flags and counters serve the next batch
        for key in totals:
            totals[key] += stats[key]
    totals["batches"] = -(-k // WORD_BITS)
    return BFSMatrix(sources, levels, parents if predecessors else None,
                     problem.tally.as_stats({**totals, "loop": loop}))


def _fill_rows(problem, matrix, value, zero_at=None):
    """Fill a (rows, n) device matrix with ``value`` on the GPU, 0 at ``matrix[i, zero_at[i]]``
    (the engine's start of many-row distances, with ``value`` for infinity; like it, the
    launch also clears the flags and counters of ``problem``, which has not run yet)."""
    from numba import cuda as _cuda

    from ..cuda.problem import _init_rows
    from ..cuda.runtime import THREADS, blocks_for

    rows, n = matrix.shape
    marks = np.full(rows, -1, dtype=np.int64) if zero_at is None else zero_at
    _init_rows[blocks_for(rows * n), THREADS](matrix, _cuda.to_device(marks),
                                              matrix.dtype.type(value), problem.conv.device,
                                              problem.counters)
