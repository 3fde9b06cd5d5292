"""Johnson's algorithm on the GPU (``johnson``): Bellman-Ford potentials, then task-parallel rows.

1. Potentials: ``h[v]`` is the distance to v from a virtual source with a
   zero-weight arc to every vertex, computed by a GPU SSSP method that takes
   negative weights (``hbf`` unless ``potentials=`` names another, such as
   ``edge-bf``) on the graph plus that vertex.  A negative cycle anywhere
   raises :class:`~warpath.NegativeCycleError` with the cycle, even for
   sources that do not reach it (as scipy's ``johnson`` and the CPU method).
2. Reweighting, on the GPU, one thread per arc: ``w'(u, v) = w + h[u] - h[v]``
   is non-negative (float round-off clamped at 0); the largest ``w'`` is read
   back, since the distance type of the reweighted graph follows from it.
3. :func:`warpath.apsp.task_parallel.solve` on the reweighted graph, each
   launch's rows delivered as ``d(s, v) = d'(s, v) - h[s] + h[v]`` and the
   predecessors recorded on the reweighted graph (the same shortest paths:
   every s-t path changes by the same ``h[s] - h[t]``).

Without negative weights the first two steps are skipped and this is the
task-parallel method itself.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], [2, -1, 3])
>>> m = warpath.apsp(g, method="johnson", device="cuda")
>>> m.distances[0].tolist(), m.path(0, 2).tolist()
([0.0, 2.0, 1.0], [0, 1, 2])
"""

from __future__ import annotations

import functools

import numpy as np

from .. import methods
from ..errors import OptionError
from ..methods import register
from .gpu_rows import GROUP, gpu_memory
from .task_parallel import OPTIONS

#: numba.cuda, bound by :func:`_reweight_kernel` on first use so that ``import warpath`` needs
#: no numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: The GPU SSSP method that computes the potentials unless ``potentials=`` names another.
DEFAULT_POTENTIALS = "hbf"


def with_virtual_source(graph):
    """The graph plus a vertex ``n`` with a zero-weight arc to every vertex (host CSR).

    Examples
    --------
    >>> import warpath
    >>> g = with_virtual_source(warpath.Graph.from_edges([0], [1], [-2]))
    >>> g.num_vertices, g.neighbors(2).tolist(), g.edge_weights(2).tolist()
    (3, [0, 1], [0, 0])
    """
    from ..graph import Graph

    n, m = graph.num_vertices, graph.num_edges
    indptr = np.append(np.asarray(graph.indptr, dtype=np.int64), m + n)
    indices = np.concatenate([graph.indices, np.arange(n, dtype=graph.indices.dtype)])
    weights = np.concatenate([graph.weights, np.zeros(n, dtype=graph.weights.dtype)])
    return Graph(indptr, indices, weights, directed=True, validate=False)


def potentials_method(name: str, graph):
    """The registered GPU SSSP method ``name`` for the potentials (it must take negative
    weights).

    Raises
    ------
    OptionError
        For a name that is not a GPU SSSP method taking negative weights.

    Examples
    --------
    >>> import warpath
    >>> potentials_method("edge-bf", warpath.Graph.from_edges([0], [1], [-1])).name
    'edge-bf'
    """
    names = sorted(m.name for m in methods.available("sssp", "cuda") if m.negative_weights)
    if name not in names:
        raise OptionError(f"potentials must name a GPU SSSP method for negative weights "
                          f"({', '.join(names)}), not {name!r}")
    return methods.find("sssp", name, "cuda")


@functools.lru_cache(maxsize=None)
def _reweight_kernel():
    global cuda
    from numba import cuda

    @cuda.jit
    def reweight(tails, heads, weights, h, out, top):
        """w'(u, v) = w + h[u] - h[v], at least 0; top[0] = the largest w'."""
        e = cuda.grid(1)
        if e < heads.shape[0]:
            x = weights[e] + h[tails[e]] - h[heads[e]]
            if x < 0:   # float round-off only: with exact arithmetic w' >= 0
                x = 0
            out[e] = x
            cuda.atomic.max(top, 0, out[e])

    return reweight


def reweighted(dgraph, h, tally):
    """The device graph with weights ``w + h[u] - h[v]`` (same arcs, weights in h's type).

    Examples
    --------
    >>> import warpath
    >>> from numba import cuda as nb
    >>> from warpath.cuda.counters import RunTally
    >>> from warpath.cuda.device_graph import device_graph
    >>> g = device_graph(warpath.Graph.from_edges([0, 1], [1, 2], [-2, 1]))
    >>> r = reweighted(g, nb.to_device(np.array([0, -2, -1])), RunTally())
    >>> r.weights.copy_to_host().tolist(), r.max_abs_weight
    ([0, 0], 0)
    """
    from numba import cuda as _cuda

    from ..cuda.device_graph import DeviceGraph
    from ..cuda.runtime import THREADS, blocks_for

    out = _cuda.device_array(dgraph.num_edges, dtype=h.dtype)
    top = _cuda.to_device(np.zeros(1, dtype=h.dtype))
    if dgraph.num_edges:
        _reweight_kernel()[blocks_for(dgraph.num_edges), THREADS](
            dgraph.tails, dgraph.indices, dgraph.weights, h, out, top)
        tally.launch()
    tally.sync()
    largest = top.copy_to_host()[0].item()
    return DeviceGraph(dgraph.indptr, dgraph.indices, out, directed=dgraph.directed,
                       min_weight=0, max_abs_weight=largest, weighted=True)


@register("apsp", "johnson", "cuda", negative_weights=True, auto_rank=1,
          options=OPTIONS + ("potentials",), memory=gpu_memory,
          summary="Johnson: GPU Bellman-Ford (hbf) potentials, reweighting on the GPU, then "
                  "task-parallel rows")
@register("multi_source", "johnson", "cuda", negative_weights=True, auto_rank=1,
          options=OPTIONS + ("potentials",), memory=gpu_memory,
          summary="Johnson: GPU Bellman-Ford (hbf) potentials, reweighting on the GPU, then "
                  "task-parallel rows")
def johnson(graph, sources, *, predecessors=True, progress=None, group=GROUP,
            launch_groups=None, loop="fast", deliver="auto", near_far=None, delta=None,
            frontier=True, item_rows=32, whole_items=None, potentials=DEFAULT_POTENTIALS):
    """Shortest paths from each of ``sources`` by Johnson's algorithm on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : ndarray of int64
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)`` after each launch of the task-parallel step.
    group, launch_groups, loop, deliver, near_far, delta, frontier, item_rows, whole_items
        As for :func:`warpath.apsp.task_parallel.solve` (``near_far`` runs on the
        reweighted graph, whose weights are non-negative).
    potentials : str
        The GPU SSSP method for the potentials (default ``"hbf"``).

    Returns
    -------
    DistanceMatrix
        ``stats`` as task-parallel's, its iterations, relaxations, launches and
        host_syncs including the potentials' run.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle anywhere.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [4, -2, 1])
    >>> johnson(g, np.arange(3), potentials="edge-bf").distances.tolist()
    [[0.0, 4.0, 2.0], [-1.0, 0.0, -2.0], [1.0, 5.0, 0.0]]
    """
    from ..cuda.counters import RunTally
    from ..cuda.device_graph import device_graph
    from ..cuda.problem import DEVICE_INTEGER_TYPES
    from ..dtypes import distance_dtype
    from ..negative_cycles import host_graph
    from .memory import result_dtype
    from .task_parallel import solve, whole_items_by_default

    options = dict(predecessors=predecessors, progress=progress, group=group,
                   launch_groups=launch_groups, loop=loop, deliver=deliver, near_far=near_far,
                   delta=delta, frontier=frontier, item_rows=item_rows,
                   whole_items=whole_items)
    dgraph = device_graph(graph)
    solver = potentials_method(potentials, dgraph)
    if not dgraph.has_negative_weights:
        return solve(dgraph, sources, **options)
    if whole_items is None:   # the reweighted graph has these arcs, but no host copy to ask
        options["whole_items"] = whole_items_by_default(dgraph, frontier, item_rows)
    virtual = with_virtual_source(host_graph(dgraph))
    first = solver.run(virtual, dgraph.num_vertices, predecessors=False)  # raises on a cycle
    h = first.device_distances[:dgraph.num_vertices]
    tally = RunTally()
    positive = reweighted(dgraph, h, tally)
    dtype = distance_dtype(positive, DEVICE_INTEGER_TYPES, keep_float32=True)
    matrix = solve(positive, sources, dtype=dtype, out_dtype=result_dtype(dgraph, "cuda"),
                   potentials=h, **options)
    extra = {"launches": tally.launches, "host_syncs": tally.host_syncs}
    for key in ("iterations", "relaxations", "launches", "host_syncs"):
        matrix.stats[key] += int(first.stats.get(key, 0)) + extra.get(key, 0)
    matrix.stats["potentials"] = solver.name
    return matrix
