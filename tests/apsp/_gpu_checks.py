"""Shared checks for the GPU many-source methods: scipy's matrices as the reference, every
row's predecessors a shortest-path tree, every path walked and weighed."""

from __future__ import annotations

import numpy as np
from graph_strategies import (assert_distances_equal, assert_path, assert_shortest_path_tree,
                              min_arc_weights, scipy_graph)
from scipy.sparse import csgraph


def scipy_rows(graph, sources=None):
    """scipy's distances from ``sources`` (all vertices when None): Dijkstra, or Johnson
    with negative weights (it raises csgraph.NegativeCycleError on a negative cycle)."""
    matrix = scipy_graph(graph)
    if graph.has_negative_weights:
        return csgraph.johnson(matrix, indices=sources)
    return csgraph.dijkstra(matrix, indices=sources)


def assert_rows(graph, matrix, expected=None, predecessors=True):
    """Distances equal ``expected`` (scipy's by default; exact for integers, also as
    ``exact_distances``), and with ``predecessors`` every row is a shortest-path tree whose
    paths run source -> target with the right weight; without, there are none."""
    sources = matrix.sources.tolist()
    expected = scipy_rows(graph, sources) if expected is None else expected
    if not predecessors:
        assert matrix.predecessors is None
    if graph.weights.dtype == np.float32:
        # The GPU keeps float32 distances; scipy sums in float64: a float32 tolerance, and
        # only the paths' ends (float64 sums of float32 arcs differ from them in ulps).
        assert np.array_equal(np.isinf(matrix.distances), np.isinf(expected))
        finite = np.isfinite(expected)
        np.testing.assert_allclose(matrix.distances[finite], expected[finite], rtol=1e-5,
                                   atol=1e-5)
        for row, source in enumerate(sources):
            for target in np.flatnonzero(finite[row]).tolist() if predecessors else ():
                path = matrix.path(source, target)
                assert path[0] == source and path[-1] == target
        return
    assert_distances_equal(matrix.distances, expected, graph)
    if graph.weights.dtype.kind == "i":
        finite = np.isfinite(expected)
        assert np.array_equal(matrix.exact_distances[finite], expected[finite].astype(np.int64))
    if not predecessors:
        return
    lightest = min_arc_weights(graph)
    for row, source in enumerate(sources):
        assert_shortest_path_tree(graph, source, matrix.distances[row],
                                  matrix.predecessors[row], lightest)
        for target in range(graph.num_vertices):
            assert_path(graph, matrix.path(source, target), source, target,
                        expected[row, target], lightest)


def assert_gpu_stats(matrix, method):
    """The common stats of a GPU run."""
    stats = matrix.stats
    assert stats["method"] == method and stats["device"] == "cuda"
    for key in ("iterations", "relaxations", "launches", "host_syncs"):
        assert isinstance(stats[key], int) and stats[key] >= 0, key
    assert stats["launches"] >= 1
