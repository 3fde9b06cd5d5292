"""Okuyama, Ino & Hagihara's task-parallel shortest paths on the GPU (``task-parallel``).

Many single-source problems run at once (section 5.1): every (vertex, source)
pair is a task with a thread of its own, and the state is interleaved
vertex-major (Fig. 8(b), :mod:`warpath.apsp.gpu_rows`): the distance of
vertex ``v`` in row ``s`` of a launch of ``W`` rows is ``d[v * W + s]``.  The
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

#: numba.cuda, bound by :func:`_round_step` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: The options of the registered method (johnson on the GPU takes them too).
OPTIONS = ("group", "launch_groups", "loop", "deliver")


@functools.lru_cache(maxsize=None)
def _round_step():
    """One round: the scatter of every task in M.  State: ``(d, masks, W, T, inf, floor)``
    (see :func:`~warpath.apsp.gpu_rows.mask_functions`)."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import relax_min
    from ..cuda.mappings import tasks
    from ..cuda.operators import advance
    from .gpu_rows import mask_functions

    in_mask, join_next = mask_functions()   # Fig. 9 lines 8 and 22: <u, s> leaves M

    @cuda.jit(device=True)
    def scatter(state, row, u, du, v, w, e, r, conv):
        """Fig. 9 line 25 with Fig. 7 lines 13-15: d[v, s] = min(d[v, s], d[u, s] + w),
        and a lowered <v, s> joins the next round's M."""
        i = v * state[2] + row
        if relax_min(state[0], i, du + w, state[5], conv):
            join_next(state, i, r, conv)
        return False

    return advance(tasks(), in_mask, scatter)


def solve(graph, sources, *, predecessors=True, progress=None, group=GROUP, launch_groups=None,
          loop="fast", deliver="auto", dtype=None, out_dtype=None, potentials=None):
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
        ``stats``: iterations (rounds, summed over launches), relaxations (arcs
        scattered, per task), ``batches`` (launches of the method), ``launch_width``,
        launches, host_syncs, ``loop``, ``delivered`` (``"device"`` or ``"host"``).

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.
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
    """
    from numba import cuda as _cuda

    from ..cuda.counters import RunTally
    from ..cuda.device_graph import device_graph
    from ..cuda.enactor import check_loop, enact
    from ..cuda.predecessors import _strictly_increasing
    from ..cuda.problem import DEVICE_INTEGER_TYPES, Problem
    from ..dtypes import distance_dtype
    from ..errors import NegativeCycleError
    from ..negative_cycles import negative_cycle_from
    from . import gpu_rows
    from .gpu_predecessors import record_predecessors
    from .memory import gpu_free_memory

    check_loop(loop)
    gpu_rows.check_group_options(group, launch_groups, deliver)
    dgraph = device_graph(graph)
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
    width = gpu_rows.launch_width(
        n, k, group=group, launch_groups=launch_groups, pair_bytes=out.pair_bytes(dtype, index),
        state_bytes=dtype.itemsize + gpu_rows.MASK_BYTES, free_bytes=gpu_free_memory(),
        cache_bytes=gpu_rows.l2_cache_bytes())
    out.stage(width)
    d_all = _cuda.device_array(n * width, dtype=dtype)
    masks_all = _cuda.device_array(2 * n * width, dtype=np.uint8)
    pred_all = _cuda.device_array(n * width if predecessors else 1, dtype=index)
    tally = RunTally()
    totals = {"iterations": 0, "relaxations": 0}
    step = _round_step()
    for start in range(0, k, width):
        batch = sources[start:start + width]
        rows = batch.shape[0]
        d, masks = d_all[:n * rows], masks_all[:2 * n * rows]
        problem = Problem(dgraph, batch, distances=d, tally=tally)
        on_device = _cuda.to_device(batch)
        gpu_rows.start_rows(d, masks, on_device, problem.inf, tally)
        state = (d, masks, np.int64(rows), np.int64(n * rows), problem.inf, problem.floor)
        stats, negative = enact(problem, [step], state, loop=loop)
        if negative:
            raise NegativeCycleError(negative_cycle_from(dgraph, batch))
        for key in totals:
            totals[key] += stats[key]
        pred = pred_all[:n * rows] if predecessors else None
        if predecessors:
            record_predecessors(problem, masks, pred, on_device, pull, loop)
        out.write(start, d, on_device, problem.inf, tally, pred=pred, potentials=potentials)
        problem.release_scratch()  # its flags and counters serve the next batch
        if progress is not None:
            progress(start + rows, k)
    stats = {**totals, "batches": -(-k // width), "launch_width": width, "loop": loop}
    return out.matrix(sources, tally.as_stats(stats))


@register("apsp", "task-parallel", "cuda", negative_weights=True, auto_rank=0, options=OPTIONS,
          memory=gpu_memory,
          summary="many SSSP at once, vertex-major interleaved state, one thread per "
                  "(vertex, source) (Okuyama, Ino & Hagihara)")
@register("multi_source", "task-parallel", "cuda", negative_weights=True, auto_rank=0,
          options=OPTIONS, memory=gpu_memory,
          summary="many SSSP at once, vertex-major interleaved state, one thread per "
                  "(vertex, source) (Okuyama, Ino & Hagihara)")
def task_parallel(graph, sources, *, predecessors=True, progress=None, group=GROUP,
                  launch_groups=None, loop="fast", deliver="auto"):
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
                 launch_groups=launch_groups, loop=loop, deliver=deliver)
