"""Repeated single-source shortest paths: one Dijkstra (or Bellman-Ford) per source.

Registered for both ``apsp`` and ``multi_source``.  With non-negative weights
each source runs the numba Dijkstra kernel (all sources in one compiled
loop); with negative weights each runs queue-based Bellman-Ford, so a
negative cycle reachable from any source raises
:class:`~warpath.NegativeCycleError`.

Sources run in chunks (:func:`warpath.apsp.memory.in_chunks`) straight into
the result matrices, so ``progress=`` can report and no chunk copies a row.

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
from ..result import DistanceMatrix
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import dijkstra_rows, distance_dtype, prepare
from .memory import in_chunks


def empty_matrices(rows, num_vertices, dtype, marker, predecessors):
    """Distance rows filled with ``marker`` and predecessor rows filled with -1 (or width 0)."""
    dist = np.full((rows, num_vertices), marker, dtype=dtype)
    pred = np.full((rows, num_vertices if predecessors else 0), -1, dtype=np.int64)
    return dist, pred


@register("apsp", "repeated-sssp", "cpu", negative_weights=True, auto_rank=2,
          summary="Dijkstra (or Bellman-Ford with negative weights) from every vertex (numba)")
@register("multi_source", "repeated-sssp", "cpu", negative_weights=True, auto_rank=0,
          summary="Dijkstra (or Bellman-Ford with negative weights) from each source (numba)")
def repeated_sssp(graph, sources, *, predecessors=True, progress=None):
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
        ``progress(done, total)`` after each chunk of sources.

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
        return _repeated_bellman_ford(graph, sources, predecessors, progress)
    weights, dtype, marker, cutoff, shift = prepare(graph)
    dist, pred = empty_matrices(len(sources), n, dtype, marker, predecessors)
    counts = np.zeros(2, dtype=np.int64)   # vertex scans, arcs scanned

    def rows(start, stop):
        counts[:] += dijkstra_rows(graph.indptr, graph.indices, weights, sources[start:stop],
                                   dist[start:stop], pred[start:stop], cutoff, shift)

    in_chunks(len(sources), n, rows, progress)
    return DistanceMatrix(sources, dist, pred if predecessors else None,
                          stats={"iterations": int(counts[0]), "relaxations": int(counts[1])})


def _repeated_bellman_ford(graph, sources, predecessors, progress):
    dtype = distance_dtype(graph)
    dist = np.empty((len(sources), graph.num_vertices), dtype=dtype)
    pred = np.empty((len(sources), graph.num_vertices if predecessors else 0), dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)   # rounds, relaxations

    def rows(start, stop):
        for row in range(start, stop):
            dist[row], source_pred, source_rounds, source_relaxations = run_bellman_ford(
                graph, [sources[row]], dtype)
            if predecessors:
                pred[row] = source_pred
            counts[:] += (source_rounds, source_relaxations)

    in_chunks(len(sources), graph.num_vertices, rows, progress)
    return DistanceMatrix(sources, dist, pred if predecessors else None,
                          stats={"iterations": int(counts[0]), "relaxations": int(counts[1])})
