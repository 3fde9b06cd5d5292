"""Repeated SSSP on the GPU (``repeated-sssp``): one GPU single-source run per source.

Harish & Narayanan's APSP by SSSP (Alg. 7), the baseline both of the papers
measure the many-source methods against: the graph stays on the GPU, each
source runs a GPU SSSP method (``hbf``, the best of them, unless ``sssp=``
names another) and its row is copied into the host matrix, so the GPU holds
one row at a time.  Use :mod:`~warpath.apsp.task_parallel` for speed; this
method is the reference it is measured against.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [3, -4])
>>> warpath.multi_source(g, [0, 1], method="repeated-sssp", device="cuda").distances.tolist()
[[0.0, 3.0, -1.0], [inf, 0.0, -4.0]]
"""

from __future__ import annotations

import numpy as np

from .. import methods
from ..errors import OptionError
from ..methods import register
from ..result import DistanceMatrix
from .gpu_rows import gpu_memory

#: The GPU SSSP method each source runs unless ``sssp=`` names another.
DEFAULT_SSSP = "hbf"


def sssp_method(name: str, graph):
    """The registered GPU SSSP method ``name``, checked against the graph's weights.

    Raises
    ------
    OptionError
        For a name that is not a GPU SSSP method.
    NegativeWeightError
        For a method that cannot take the graph's negative weights.

    Examples
    --------
    >>> import warpath
    >>> sssp_method("hbf", warpath.generators.ring(3, seed=0)).name
    'hbf'
    """
    names = sorted(m.name for m in methods.available("sssp", "cuda"))
    if name not in names:
        raise OptionError(f"sssp must name a GPU SSSP method ({', '.join(names)}), not {name!r}")
    return methods.resolve("sssp", graph, name, "cuda")


@register("apsp", "repeated-sssp", "cuda", negative_weights=True, auto_rank=2,
          options=("sssp",), memory=gpu_memory,
          summary="one GPU SSSP (hbf) per source, rows copied to the host (Harish & "
                  "Narayanan Alg. 7)")
@register("multi_source", "repeated-sssp", "cuda", negative_weights=True, auto_rank=2,
          options=("sssp",), memory=gpu_memory,
          summary="one GPU SSSP (hbf) per source, rows copied to the host (Harish & "
                  "Narayanan Alg. 7)")
def repeated_sssp(graph, sources, *, predecessors=True, progress=None, sssp=DEFAULT_SSSP):
    """Shortest paths from each of ``sources``, one GPU SSSP run each.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : ndarray of int64
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)`` after each chunk of sources.
    sssp : str
        The GPU SSSP method each source runs (default ``"hbf"``).

    Returns
    -------
    DistanceMatrix
        Distances in the GPU's type; ``stats`` sums the runs' iterations,
        relaxations, launches and host_syncs.

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> a = warpath.apsp(g, method="repeated-sssp", device="cuda", sssp="edge-bf")
    >>> bool((a.distances == warpath.apsp(g, device="cpu").distances).all())
    True
    """
    from ..cuda.device_graph import device_graph
    from ..dtypes import unreached_value
    from .memory import in_chunks, result_dtype
    from .matrices import empty_matrices

    dgraph = device_graph(graph)
    solver = sssp_method(sssp, dgraph)
    n = dgraph.num_vertices
    dtype = result_dtype(dgraph, "cuda")
    dist, pred = empty_matrices(len(sources), n, dtype, unreached_value(dtype), predecessors)
    totals = {"iterations": 0, "relaxations": 0, "launches": 0, "host_syncs": 0}

    def rows(start, stop):
        for row in range(start, stop):
            result = solver.run(dgraph, int(sources[row]), predecessors=predecessors)
            result.device_distances.copy_to_host(dist[row])
            if predecessors:
                pred[row] = result.predecessors
            for key in totals:
                totals[key] += int(result.stats.get(key, 0))

    in_chunks(len(sources), n, rows, progress)
    return DistanceMatrix(sources, dist, pred if predecessors else None,
                          {**totals, "sssp": solver.name})
