"""Harish & Narayanan's two-kernel SSSP on the GPU (``harish``), with atomics.

Each round, the scatter kernel (Alg. 4; Okuyama Fig. 5) lets every vertex in
the mask M relax its out-arcs into the *updating cost* array U with
``atomicMin``, reading the *cost* array C; then the check kernel (Alg. 5)
copies U into C wherever it is lower and puts those vertices in M.  The loop
(Alg. 3; Okuyama Fig. 3) stops when a round changes nothing.  Two kernels
rather than one keep each round's reads of C consistent (Harish section 3.3).
With negative weights this is Bellman-Ford: a change in round |V| means a
negative cycle.

``loop="paper"`` launches both kernels per round and reads the change flag
back after each.  ``loop="fast"`` (default) runs every round in one
persistent cooperative kernel (two ``grid.sync()`` per round), and M becomes
a frontier queue filled by the check phase with warp-aggregated enqueue, so
the scatter phase touches only the vertices that changed.

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

#: numba.cuda, bound by :func:`_kernels` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _kernels():
    """``scatter`` and ``check`` (paper loop) and ``scatter_check_rounds`` (fast loop)."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.counters import ITERATIONS, RELAXATIONS, flush_count
    from ..cuda.flags import begin_round, mark_changed, round_changed
    from ..cuda.frontier import begin_level, enqueue

    @cuda.jit
    def scatter(indptr, indices, weights, mask, cost, update, floor, conv, counters, r):
        """Harish Alg. 4 (CUDA SSSP KERNEL1): a masked vertex relaxes its arcs into U."""
        v = cuda.grid(1)
        begin_round(conv, r, v)
        count = 0
        if v < mask.shape[0] and mask[v] != 0:
            mask[v] = 0
            cv = cost[v]
            for e in range(indptr[v], indptr[v + 1]):
                count += 1
                relax_min(update, indices[e], cv + weights[e], floor, conv)
        flush_count(counters, RELAXATIONS, count)

    @cuda.jit
    def check(mask, cost, update, conv, r):
        """Harish Alg. 5 (CUDA SSSP KERNEL2): C = U where lower, and mask those vertices."""
        v = cuda.grid(1)
        if v < mask.shape[0]:
            if cost[v] > update[v]:
                cost[v] = update[v]
                mask[v] = 1
                mark_changed(conv, r)
            update[v] = cost[v]

    @cuda.jit
    def scatter_check_rounds(indptr, indices, weights, cost, update, floor, queues, counts,
                             conv, counters, max_rounds):
        """Every round in one persistent cooperative kernel; M is a frontier queue."""
        thread = cuda.grid(1)
        stride = cuda.gridsize(1)
        grid = cuda.cg.this_grid()
        n = cost.shape[0]
        count = 0
        r = 0
        while r < max_rounds:
            begin_round(conv, r, thread)
            begin_level(counts, r, thread)
            for i in range(thread, counts[r % 3], stride):  # scatter (Alg. 4)
                v = queues[r % 2, i]
                cv = cost[v]
                for e in range(indptr[v], indptr[v + 1]):
                    count += 1
                    relax_min(update, indices[e], cv + weights[e], floor, conv)
            grid.sync()
            # check (Alg. 5); the same trip count in every thread keeps warps
            # whole for the warp-aggregated enqueue.  U <= C always holds, so
            # after C = U the two agree and Alg. 5's U = C is not needed.
            for start in range(0, n, stride):
                v = start + thread
                changed = False
                if v < n and cost[v] > update[v]:
                    cost[v] = update[v]
                    changed = True
                    mark_changed(conv, r)
                enqueue(queues[(r + 1) % 2], counts, (r + 1) % 3, v, changed)
            grid.sync()
            r += 1
            if not round_changed(conv, r - 1):
                break
        if thread == 0:
            counters[ITERATIONS] = r
        flush_count(counters, RELAXATIONS, count)

    return scatter, check, scatter_check_rounds


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
    from ..cuda.frontier import FrontierQueue
    from ..cuda.flags import vertex_flags
    from ..cuda.loops import host_loop, persistent_launch, persistent_outcome
    from ..cuda.runtime import THREADS, blocks_for
    from ..cuda.sssp_run import SSSPRun, check_loop

    check_loop(loop)
    run = SSSPRun(graph, source)
    scatter, check, scatter_check_rounds = _kernels()
    g, tally = run.graph, run.tally
    cost = run.d
    update = _copy(cost)
    if loop == "paper":
        mask = vertex_flags(run.n, 1, run.source)[0]
        blocks = blocks_for(run.n)

        def step(r):
            scatter[blocks, THREADS](g.indptr, g.indices, g.weights, mask, cost, update,
                                     run.floor, run.conv.device, run.counters, r)
            check[blocks, THREADS](mask, cost, update, run.conv.device, r)
            tally.launch(2)

        rounds, negative = host_loop(step, run.conv, tally, run.n)
        stats = {**tally.read_counters(run.counters), "iterations": rounds}
    else:
        frontier = FrontierQueue(run.n, run.graph.indices.dtype, first=run.source)
        persistent_launch(scatter_check_rounds,
                          (g.indptr, g.indices, g.weights, cost, update, run.floor,
                           frontier.queues, frontier.counts, run.conv.device, run.counters,
                           np.int64(run.n)), run.n, tally)
        stats, negative = persistent_outcome(run.conv, run.counters, tally, run.n)
    return run.finish(stats, negative, predecessors=predecessors, loop=loop)


def _copy(array):
    """A device copy of a device array (U starts equal to C, Harish Alg. 3 line 4)."""
    from numba import cuda

    out = cuda.device_array_like(array)
    out.copy_to_device(array)
    return out
