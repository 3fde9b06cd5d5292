"""Harish & Narayanan's BFS on the GPU (``harish``): frontier, visited and cost arrays.

Alg. 1-2 of the paper: one thread per vertex; a vertex whose entry in the
frontier array F is set leaves F and, for every neighbour not in the visited
array X, writes the cost C[v] = C[u] + 1 and puts it in the frontier.  The
host loop repeats the kernel until F is empty.

Alg. 2 writes the new frontier into F itself within the same launch, so a
thread scheduled later may expand a vertex discovered by this very launch
(and a vertex already in F, not yet in X, may have its cost raised): the
level can come out wrong on a GPU that runs the grid in any order.  As the
paper does for its SSSP (Alg. 4-5), the round is split in two: the first
step (Alg. 2) writes the discoveries into an updating frontier Fu; the second
moves Fu into F and X.  All writers of C[v] in a round write the same cost,
so no atomic is needed; the parent is the last of them to write.

On the engine a round is an advance (Alg. 2) and a filter over all vertices
(the second step).  ``loop="paper"`` launches both per level and reads the
change flag back after each; ``loop="fast"`` (default) runs every level in
one persistent cooperative kernel, F becoming a frontier queue that the
filter fills (warp-aggregated enqueue), so Alg. 2 runs over F's vertices only.
Weights are ignored.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1, 3], [1, 2, 3, 4])
>>> warpath.bfs(g, 0, method="harish", device="cuda", loop="paper").levels.tolist()
[0, 1, 1, 2, 3]
"""

from __future__ import annotations

import functools

import numpy as np

from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _steps(loop: str, record: bool):
    """Alg. 2 then the frontier update, for ``loop``.

    State: ``(C, parents, unvisited, F, X, Fu)`` (F a stand-in in the fast loop).
    """
    global cuda
    from numba import cuda

    from ..cuda.flags import mark_changed
    from ..cuda.mappings import frontier, thread_per_vertex
    from ..cuda.operators import QUEUE, advance, filter_vertices

    @cuda.jit(device=True)
    def in_frontier(state, row, u, r):
        """Alg. 2, lines 2-3: a vertex in F leaves it (X was set when it entered)."""
        cost = state[0][u]
        if state[3][u] == 0:
            return False, cost
        state[3][u] = 0
        return True, cost

    @cuda.jit(device=True)
    def queued(state, row, u, r):
        """Fast loop: the frontier queue is F."""
        return True, state[0][u]

    @cuda.jit(device=True)
    def discover(state, row, u, du, v, w, e, r, conv):
        """Alg. 2, lines 4-7, into Fu: an unvisited neighbour costs C[u] + 1."""
        if state[4][v] == 0:
            state[0][v] = du + 1
            if record:
                state[1][v] = u
            state[5][v] = 1
        return False

    paper = loop == "paper"

    @cuda.jit(device=True)
    def into_frontier(state, row, v, r, conv):
        """Second step: X |= Fu, Fu cleared, and F = Fu: the flags (paper loop; a round
        that fills F changed something), or the next frontier queue (True: enqueue v)."""
        if state[5][v] == 0:
            return False
        state[5][v] = 0
        state[4][v] = 1
        if paper:
            state[3][v] = 1
            mark_changed(conv, r)
        return not paper

    if paper:
        return [advance(thread_per_vertex(), in_frontier, discover),
                filter_vertices(into_frontier)]
    return [advance(frontier(), queued, discover), filter_vertices(into_frontier, QUEUE)]


@register("bfs", "harish", "cuda", limit=True, negative_weights=True, options=("loop",),
          summary="one thread per vertex with frontier, visited and cost arrays "
                  "(Harish & Narayanan Alg. 1-2)")
def run(graph, source, *, predecessors=True, limit=None, loop="fast"):
    """Harish & Narayanan's BFS from ``source`` on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
        Weights are ignored.
    source : int
    predecessors : bool
        Record BFS parents.
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.
    loop : {"fast", "paper"}
        ``"paper"``: two launches and a flag read-back per level;
        ``"fast"``: one persistent cooperative kernel.

    Returns
    -------
    BFSResult
        ``stats``: iterations (levels expanded), relaxations (arcs looked at),
        launches, host_syncs.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 4, seed=0)
    >>> a = warpath.bfs(g, 5, method="harish", device="cuda")
    >>> b = warpath.bfs(g, 5, method="queue", device="cpu")
    >>> bool((a.levels == b.levels).all())
    True
    """
    from ..cuda.enactor import check_loop, enact
    from .gpu_levels import LevelRun

    check_loop(loop)
    bfs = LevelRun(graph, predecessors=predecessors)
    state = bfs.start(source, limit)
    problem = bfs.problem
    paper = loop == "paper"
    n, s = problem.n, problem.source
    in_f = problem.filled("harish F", (n,), np.uint8, 0, s, 1) if paper else bfs.levels[:1]
    visited = problem.filled("harish X", (n,), np.uint8, 0, s, 1)
    updating = problem.filled("harish Fu", (n,), np.uint8, 0)
    stats, _ = enact(problem, _steps(loop, bfs.record), state + (in_f, visited, updating),
                     loop=loop, frontier=None if paper else problem.frontier(),
                     max_rounds=bfs.max_rounds)
    return bfs.finish(stats, loop=loop)
