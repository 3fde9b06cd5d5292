"""Repeated single-source shortest paths: one Dijkstra (or Bellman-Ford) per source.

Registered for both ``apsp`` and ``multi_source``.  With non-negative weights
each source runs the numba Dijkstra kernel (all sources in one compiled
loop); with negative weights each runs queue-based Bellman-Ford, so a
negative cycle reachable from any source raises
:class:`~warpath.NegativeCycleError`.

Sources run in blocks of rows (:meth:`warpath.apsp.matrices.RowMatrices.fill`)
straight into the result matrices, so ``progress=`` can report, no block
copies a row unless ``dtype=``/``out=`` ask for another type or a file.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [3, 4])
>>> warpath.multi_source(g, [0, 1], method="repeated-sssp").distances.tolist()
[[0.0, 3.0, 7.0], [inf, 0.0, 4.0]]
"""

from __future__ import annotations

import numpy as np

from ..methods import register
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import dijkstra_rows, distance_dtype, prepare, unreached_value
from .matrices import RowMatrices, empty_matrices  # noqa: F401  (its historical home)


@register("apsp", "repeated-sssp", "cpu", negative_weights=True, auto_rank=2,
          summary="Dijkstra (or Bellman-Ford with negative weights) from every vertex (numba)")
@register("multi_source", "repeated-sssp", "cpu", negative_weights=True, auto_rank=0,
          summary="Dijkstra (or Bellman-Ford with negative weights) from each source (numba)")
def repeated_sssp(graph, sources, *, predecessors=True, progress=None, output=None):
    """Shortest paths from each of ``sources``, one single-source run each.

    Called through :func:`warpath.multi_source` or :func:`warpath.apsp`
    (``method="repeated-sssp"``).

    Parameters
    ----------
    graph : Graph
    sources : ndarray of int64
        Validated 0-based sources (``arange(n)`` for APSP).
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)`` after each block of sources.
    output : Output, optional
        The result's type and place (:mod:`warpath.apsp.matrices`).

    Returns
    -------
    DistanceMatrix

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, -1, 2])
    >>> repeated_sssp(g, np.array([0, 2])).distances.tolist()
    [[0.0, 1.0, 0.0], [2.0, 3.0, 0.0]]
    """
    n = graph.num_vertices
    if graph.has_negative_weights:
        return _repeated_bellman_ford(graph, sources, predecessors, progress, output)
    weights, dtype, marker, cutoff, shift = prepare(graph)
    matrices = RowMatrices(len(sources), n, dtype, marker, predecessors, output)
    counts = np.zeros(2, dtype=np.int64)   # vertex scans, arcs scanned

    def rows(start, stop, dist, pred):
        counts[:] += dijkstra_rows(graph.indptr, graph.indices, weights, sources[start:stop],
                                   dist, pred, cutoff, shift)

    matrices.fill(rows, progress)
    return matrices.result(sources, {"iterations": int(counts[0]),
                                     "relaxations": int(counts[1])})


def _repeated_bellman_ford(graph, sources, predecessors, progress, output):
    dtype = distance_dtype(graph)
    matrices = RowMatrices(len(sources), graph.num_vertices, dtype, unreached_value(dtype),
                           predecessors, output)
    counts = np.zeros(2, dtype=np.int64)   # rounds, relaxations

    def rows(start, stop, dist, pred):
        for row in range(start, stop):
            dist[row - start], source_pred, source_rounds, source_relaxations = \
                run_bellman_ford(graph, [sources[row]], dtype)
            if predecessors:
                pred[row - start] = source_pred
            counts[:] += (source_rounds, source_relaxations)

    matrices.fill(rows, progress)
    return matrices.result(sources, {"iterations": int(counts[0]),
                                     "relaxations": int(counts[1])})
