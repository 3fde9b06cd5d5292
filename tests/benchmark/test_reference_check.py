"""The reference check: right answers pass, wrong distances and wrong trees are caught."""

import numpy as np
from scipy.sparse import csgraph

import warpath
from warpath.benchmark.reference import (ArcIndex, check_predecessors, compare_distances,
                                         reference_distances)


def test_reference_matches_scipy_and_handles_negative_weights():
    graph = warpath.generators.with_negative_weights(warpath.generators.random(200, 900, seed=2),
                                                     seed=2)
    assert graph.has_negative_weights
    expected = csgraph.bellman_ford(graph.to_scipy(), indices=5)
    assert np.allclose(reference_distances(graph, "sssp", 5), expected)


def test_compare_catches_wrong_distances_and_reach():
    graph = warpath.generators.grid(5, 5, seed=0)
    ref = reference_distances(graph, "sssp", 0)
    assert compare_distances(ref.copy(), ref, graph) is None
    wrong = ref.copy()
    wrong[7] += 1
    assert compare_distances(wrong, ref, graph).startswith("vertex 7")
    unreached = ref.copy()
    unreached[3] = np.inf
    assert "vertex 3" in compare_distances(unreached, ref, graph)
    assert "shape" in compare_distances(ref[:-1], ref, graph)


def test_float_weights_get_a_relative_tolerance():
    graph = warpath.generators.random(50, 300, seed=1, weights="float")
    ref = reference_distances(graph, "sssp", 0)
    assert compare_distances(ref * (1 + 1e-7), ref, graph) is None
    assert compare_distances(ref * 1.01 + 0.01, ref, graph) is not None


def test_predecessor_trees():
    graph = warpath.generators.random(300, 2000, seed=4)
    result = warpath.sssp(graph, 0, method="dijkstra")
    arcs = ArcIndex(graph)
    assert check_predecessors(result.predecessors, result.distances, graph, 0, arcs=arcs) is None
    broken = result.predecessors.copy()
    v = int(np.flatnonzero(broken >= 0)[3])
    broken[v] = (broken[v] + 1) % graph.num_vertices
    assert check_predecessors(broken, result.distances, graph, 0, arcs=arcs) is not None


def test_bfs_reference_is_hop_count():
    graph = warpath.generators.ring(6, seed=0)
    assert reference_distances(graph, "bfs", 2).tolist() == [4, 5, 0, 1, 2, 3]
