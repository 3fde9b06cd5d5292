"""Edge-parallel Bellman-Ford on the GPU: ``edge-bf`` and ``edge-bf-flags`` (Agarwal & Dutta).

One thread per arc relaxes ``d[v] = min(d[v], d[u] + w)`` with ``atomicMin``
(Alg. 1-3), round after round, until a round changes nothing (at most |V| - 1
rounds; a change in round |V| means a negative cycle).  The two-flag variant
(Alg. 4-7) relaxes only arcs whose tail changed in the previous round: flag
array F1 says which tails are active, RELAX sets F2 for the heads it lowers,
and COPYFLAG moves F2 into F1.  Both are one advance over every arc
(:func:`~warpath.cuda.mappings.thread_per_edge`) with a different gather.

``loop="paper"`` launches RELAX (and COPYFLAG) once per round and reads the
change flag back after each round.  ``loop="fast"`` (default) runs all rounds
in one persistent cooperative kernel (the enactor's); there the two flag
arrays become one array of round stamps (H-BF's iteration stamps):
``stamp[u] >= r`` means u changed in round r - 1 or later, which needs no
COPYFLAG pass.  A ``>=``, not ``==``: a tail lowered again during this round is
relaxed now with its newer distance, so no round is skipped.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, -2])
>>> r = warpath.sssp(g, 0, method="edge-bf-flags", device="cuda")
>>> r.distances.tolist(), r.path(2).tolist()
([0.0, 4.0, 1.0], [0, 2])
"""

from __future__ import annotations

import functools

import numpy as np

from ..graph_stats import low_diameter, wide_even_degrees
from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _steps(variant: str, loop: str):
    """The round's steps for ``variant`` ("all", "flags") and ``loop``.

    The state is ``(d, marks, inf, floor)``: ``marks`` is F1/F2 (paper loop,
    shape (2, n)) or the round stamps (fast loop), unused by ``"all"``.
    """
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.flags import mark_changed
    from ..cuda.mappings import thread_per_edge
    from ..cuda.operators import advance, filter_vertices

    @cuda.jit(device=True)
    def every_reached_tail(state, row, u, r):
        """Alg. 3: every arc whose tail has a distance."""
        du = state[0][u]
        return du != state[2], du

    @cuda.jit(device=True)
    def flagged_tail(state, row, u, r):
        """Alg. 6: only arcs whose tail is flagged in F1."""
        du = state[0][u]
        return state[1][0, u] != 0 and du != state[2], du

    @cuda.jit(device=True)
    def stamped_tail(state, row, u, r):
        """Fast loop: only arcs whose tail changed in round r - 1 or later."""
        du = state[0][u]
        return state[1][u] >= r and du != state[2], du

    @cuda.jit(device=True)
    def relax(state, row, u, du, v, w, e, r, conv):
        """Alg. 3 (RELAX): d[v] = min(d[v], d[u] + w)."""
        if relax_min(state[0], v, du + w, state[3], conv):
            mark_changed(conv, r)
            return True
        return False

    @cuda.jit(device=True)
    def relax_and_flag(state, row, u, du, v, w, e, r, conv):
        """Alg. 6: RELAX, and F2[v] = 1 for a lowered head."""
        if relax(state, row, u, du, v, w, e, r, conv):
            state[1][1, v] = 1
        return False

    @cuda.jit(device=True)
    def relax_and_stamp(state, row, u, du, v, w, e, r, conv):
        """Fast loop: RELAX, and stamp a lowered head with the next round."""
        if relax(state, row, u, du, v, w, e, r, conv):
            state[1][v] = r + 1
        return False

    @cuda.jit(device=True)
    def copy_flags(state, row, v, r, conv):
        """Alg. 7 (COPYFLAG): F1 = F2, F2 = 0."""
        state[1][0, v] = state[1][1, v]
        state[1][1, v] = 0
        return False

    arcs = thread_per_edge()
    if variant == "all":
        return [advance(arcs, every_reached_tail, relax)]
    if loop == "paper":
        return [advance(arcs, flagged_tail, relax_and_flag), filter_vertices(copy_flags)]
    return [advance(arcs, stamped_tail, relax_and_stamp)]


def solve(graph, source, *, use_flags: bool, predecessors=True, loop="fast"):
    """Edge-parallel Bellman-Ford from ``source``; the worker behind both registered methods.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    source : int
    use_flags : bool
        Relax only arcs whose tail changed last round (Agarwal Alg. 4-7).
    predecessors : bool
    loop : {"fast", "paper"}

    Returns
    -------
    SSSPResult

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(4, seed=0, weights=None)
    >>> solve(g, 0, use_flags=False, loop="paper").distances.tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    from ..cuda.enactor import check_loop, enact
    from ..cuda.problem import Problem

    check_loop(loop)
    problem = Problem(graph, source, deferred=True)   # its fills run in the first kernel
    n, s = problem.n, problem.source
    if not use_flags:
        marks = problem.filled("edge-bf none", (1,), np.int32, 0)
    elif loop == "paper":   # F1 (source set), F2
        marks = problem.filled("edge-bf F", (2, n), np.uint8, 0, s, 1)
    else:   # the round each vertex last changed in: the source in round -1
        marks = problem.filled("edge-bf stamps", (n,), np.int32, -1, s, 0)
    state = (problem.row, marks, problem.inf, problem.floor)
    steps = _steps("flags" if use_flags else "all", loop)
    outcome = enact(problem, steps, state, loop=loop, later=True)
    return problem.finish_sssp_later(outcome, predecessors=predecessors, loop=loop)


def suits_edge_bf(graph) -> bool:
    """``method="auto"``'s rule for edge-bf on the GPU: small-world graphs (few rounds, each a
    streaming pass over the arcs), but not those of wide, even degrees and non-negative
    weights, where hbf's near-far rounds measured faster
    (:func:`~warpath.graph_stats.wide_even_degrees`).  With negative weights hbf has no
    near-far, and edge-bf stayed ahead (random(2M, 32M): 7.8 against 8.5 ms, H200).

    Examples
    --------
    >>> import warpath
    >>> gen = warpath.generators
    >>> suits_edge_bf(gen.rmat(9, 8, seed=0)), suits_edge_bf(gen.grid(30, 30, seed=0))
    (True, False)
    >>> wide = gen.random(1000, 16000, seed=0)
    >>> suits_edge_bf(wide), suits_edge_bf(gen.with_negative_weights(wide, seed=1))
    (False, True)
    """
    if not low_diameter(graph):
        return False
    return graph.has_negative_weights or not wide_even_degrees(graph)


@register("sssp", "edge-bf", "cuda", negative_weights=True, auto_rank=4, auto_if=suits_edge_bf,
          options=("loop",),
          summary="edge-parallel Bellman-Ford, every arc every round (Agarwal & Dutta Alg. 1-3)")
def run_edge_bf(graph, source, *, predecessors=True, loop="fast"):
    """``edge-bf``: one thread per arc, every arc relaxed each round (see :func:`solve`).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, -1])
    >>> warpath.sssp(g, 0, method="edge-bf", device="cuda").distances.tolist()
    [0.0, 2.0, 1.0]
    """
    return solve(graph, source, use_flags=False, predecessors=predecessors, loop=loop)


@register("sssp", "edge-bf-flags", "cuda", negative_weights=True, auto_rank=11,
          options=("loop",),
          summary="edge-parallel Bellman-Ford with two flag arrays (Agarwal & Dutta Alg. 4-7)")
def run_edge_bf_flags(graph, source, *, predecessors=True, loop="fast"):
    """``edge-bf-flags``: only arcs whose tail changed last round are relaxed (see :func:`solve`).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, -1])
    >>> warpath.sssp(g, 0, method="edge-bf-flags", device="cuda").distances.tolist()
    [0.0, 2.0, 1.0]
    """
    return solve(graph, source, use_flags=True, predecessors=predecessors, loop=loop)
