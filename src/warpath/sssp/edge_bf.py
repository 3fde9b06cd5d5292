"""Edge-parallel Bellman-Ford on the GPU: ``edge-bf`` and ``edge-bf-flags`` (Agarwal & Dutta).

One thread per arc relaxes ``d[v] = min(d[v], d[u] + w)`` with ``atomicMin``
(Alg. 1-3), round after round, until a round changes nothing (at most |V| - 1
rounds; a change in round |V| means a negative cycle).  The two-flag variant
(Alg. 4-7) relaxes only arcs whose tail changed in the previous round: flag
array F1 says which tails are active, RELAX sets F2 for the heads it lowers,
and COPYFLAG moves F2 into F1.  Both are one kernel family, built by
:func:`_kernels` with ``use_flags`` as a compile-time switch.

``loop="paper"`` launches RELAX (and COPYFLAG) once per round and reads the
change flag back after each round.  ``loop="fast"`` (default) runs all rounds
in one persistent cooperative kernel separated by ``grid.sync()``; there the
two flag arrays become one array of round stamps (H-BF's iteration stamps):
``stamp[u] >= r`` means u changed in round r - 1 or later, which needs no
COPYFLAG pass.

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

from ..methods import register

#: numba.cuda, bound by :func:`_kernels` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _kernels(use_flags: bool):
    """One variant's kernels: ``relax``, ``copy_flags`` (paper loop), ``relax_rounds`` (fast)."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.counters import ITERATIONS, RELAXATIONS, flush_count
    from ..cuda.flags import begin_round, mark_changed, round_changed

    @cuda.jit
    def relax(tails, indices, weights, d, inf, floor, f1, f2, conv, counters, r):
        """Agarwal Alg. 3 (RELAX) or, with flags, Alg. 6: one thread per arc."""
        e = cuda.grid(1)
        begin_round(conv, r, e)
        count = 0
        if e < indices.shape[0]:
            u = tails[e]
            if not use_flags or f1[u] != 0:
                du = d[u]
                if du != inf:
                    count = 1
                    v = indices[e]
                    if relax_min(d, v, du + weights[e], floor, conv):
                        mark_changed(conv, r)
                        if use_flags:
                            f2[v] = 1
        flush_count(counters, RELAXATIONS, count)

    @cuda.jit
    def copy_flags(f1, f2):
        """Agarwal Alg. 7 (COPYFLAG): F1 = F2, F2 = 0."""
        v = cuda.grid(1)
        if v < f1.shape[0]:
            f1[v] = f2[v]
            f2[v] = 0

    @cuda.jit
    def relax_rounds(tails, indices, weights, d, inf, floor, stamp, conv, counters, max_rounds):
        """All rounds in one persistent cooperative kernel, one grid.sync() per round."""
        thread = cuda.grid(1)
        stride = cuda.gridsize(1)
        grid = cuda.cg.this_grid()
        count = 0
        r = 0
        while r < max_rounds:
            begin_round(conv, r, thread)
            for e in range(thread, indices.shape[0], stride):
                u = tails[e]
                # >= r, not == r: a tail lowered again during this round is
                # relaxed now with its newer distance, so no round is skipped.
                if not use_flags or stamp[u] >= r:
                    du = d[u]
                    if du != inf:
                        count += 1
                        v = indices[e]
                        if relax_min(d, v, du + weights[e], floor, conv):
                            mark_changed(conv, r)
                            if use_flags:
                                stamp[v] = r + 1
            grid.sync()
            r += 1
            if not round_changed(conv, r - 1):
                break
        if thread == 0:
            counters[ITERATIONS] = r
        flush_count(counters, RELAXATIONS, count)

    return relax, copy_flags, relax_rounds


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
    from ..cuda.distances import device_full
    from ..cuda.flags import vertex_flags
    from ..cuda.loops import host_loop, persistent_launch, persistent_outcome
    from ..cuda.runtime import THREADS, blocks_for
    from ..cuda.sssp_run import SSSPRun, check_loop

    check_loop(loop)
    run = SSSPRun(graph, source)
    relax, copy_flags, relax_rounds = _kernels(use_flags)
    g, tally = run.graph, run.tally
    if loop == "paper":
        flags = vertex_flags(run.n if use_flags else 1, 2, run.source if use_flags else -1)
        f1, f2 = flags[0], flags[1]

        def step(r):
            relax[blocks_for(run.m), THREADS](g.tails, g.indices, g.weights, run.d, run.inf,
                                             run.floor, f1, f2, run.conv.device, run.counters, r)
            tally.launch()
            if use_flags:
                copy_flags[blocks_for(run.n), THREADS](f1, f2)
                tally.launch()

        rounds, negative = host_loop(step, run.conv, tally, run.n)
        stats = {**tally.read_counters(run.counters), "iterations": rounds}
    else:
        stamp = device_full(run.n if use_flags else 1, -1, np.int32)
        if use_flags:
            stamp[run.source:run.source + 1] = np.zeros(1, np.int32)
        tally.launch()
        persistent_launch(relax_rounds, (g.tails, g.indices, g.weights, run.d, run.inf,
                                         run.floor, stamp, run.conv.device, run.counters,
                                         np.int64(run.n)), run.m, tally)
        stats, negative = persistent_outcome(run.conv, run.counters, tally, run.n)
    return run.finish(stats, negative, predecessors=predecessors, loop=loop)


@register("sssp", "edge-bf", "cuda", negative_weights=True, auto_rank=13, options=("loop",),
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
