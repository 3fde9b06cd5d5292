"""Harish & Narayanan's two-kernel SSSP on the GPU (``harish``), with atomics.

Each round, the scatter kernel (Alg. 4; Okuyama Fig. 5) lets every vertex in
the mask M relax its out-arcs into the *updating cost* array U with
``atomicMin``, reading the *cost* array C; then the check kernel (Alg. 5)
copies U into C wherever it is lower and puts those vertices in M.  The loop
(Alg. 3; Okuyama Fig. 3) stops when a round changes nothing.  Two kernels
rather than one keep each round's reads of C consistent (Harish section 3.3).
With negative weights this is Bellman-Ford: a change in round |V| means a
negative cycle.

On the engine a round is an advance (the scatter) and a filter over all
vertices (the check).  ``loop="paper"`` launches both per round and reads the
change flag back after each.  ``loop="fast"`` (default) runs every round in one
persistent cooperative kernel, and M becomes a frontier queue that the check
fills (warp-aggregated enqueue), so the scatter touches only the vertices
that changed.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, -2])
>>> warpath.sssp(g, 0, method="harish", device="cuda").distances.tolist()
[0.0, 4.0, 1.0]
"""

from __future__ import annotations

import functools

import numpy as np

from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _steps(loop: str):
    """Scatter then check, for ``loop``.  State: ``(C, U, inf, floor, M)``."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.flags import mark_changed
    from ..cuda.mappings import frontier, thread_per_vertex
    from ..cuda.operators import QUEUE, advance, filter_vertices

    @cuda.jit(device=True)
    def masked(state, row, u, r):
        """Alg. 4, lines 2-3: a vertex in M leaves it and scatters its cost."""
        mask = state[4]
        if mask[u] == 0:
            return False, state[0][u]
        mask[u] = 0
        return True, state[0][u]

    @cuda.jit(device=True)
    def queued(state, row, u, r):
        """Fast loop: the frontier queue is M; scatter C[u]."""
        return True, state[0][u]

    @cuda.jit(device=True)
    def scatter(state, row, u, du, v, w, e, r, conv):
        """Alg. 4 (CUDA SSSP KERNEL1): U[v] = min(U[v], C[u] + w)."""
        relax_min(state[1], v, du + w, state[3], conv)
        return False

    @cuda.jit(device=True)
    def check_mask(state, row, v, r, conv):
        """Alg. 5 (CUDA SSSP KERNEL2): C = U where lower, and mask those vertices; U = C."""
        cost, update = state[0], state[1]
        if cost[v] > update[v]:
            cost[v] = update[v]
            state[4][v] = 1
            mark_changed(conv, r)
        update[v] = cost[v]
        return False

    @cuda.jit(device=True)
    def check(state, row, v, r, conv):
        """Alg. 5 into the next frontier.  U <= C always holds, so after C = U the
        two agree and Alg. 5's U = C is not needed."""
        cost, update = state[0], state[1]
        if cost[v] > update[v]:
            cost[v] = update[v]
            return True
        return False

    if loop == "paper":
        return [advance(thread_per_vertex(), masked, scatter), filter_vertices(check_mask)]
    return [advance(frontier(), queued, scatter), filter_vertices(check, QUEUE)]


@register("sssp", "harish", "cuda", negative_weights=True, auto_rank=10, options=("loop",),
          summary="two-kernel mask/cost/updating-cost SSSP (Harish & Narayanan Alg. 3-5)")
def run(graph, source, *, predecessors=True, loop="fast"):
    """Harish & Narayanan's SSSP from ``source`` on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    source : int
    predecessors : bool
        Record predecessors after convergence (Okuyama section 5.3).
    loop : {"fast", "paper"}
        ``"paper"``: two launches and a flag read-back per round;
        ``"fast"``: one persistent cooperative kernel.

    Returns
    -------
    SSSPResult
        ``stats`` holds iterations (rounds), relaxations, launches, host_syncs.

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> a = warpath.sssp(g, 0, method="harish", device="cuda", loop="paper")
    >>> b = warpath.sssp(g, 0, method="dijkstra", device="cpu")
    >>> bool((a.distances == b.distances).all())
    True
    """
    from ..cuda.enactor import check_loop, enact
    from ..cuda.problem import Problem

    check_loop(loop)
    problem = Problem(graph, source, deferred=True)   # its fills run in the first kernel
    n, s = problem.n, problem.source
    cost = problem.row
    update = problem.filled("harish U", (n,), problem.dtype, problem.inf, s, 0)  # U = C
    paper = loop == "paper"
    mask = problem.filled("harish M", (n,), np.uint8, 0, s, 1) if paper else cost[:1]
    state = (cost, update, problem.inf, problem.floor, mask)
    outcome = enact(problem, _steps(loop), state, loop=loop,
                    frontier=None if paper else problem.frontier(), later=True)
    return problem.finish_sssp_later(outcome, predecessors=predecessors, loop=loop)
