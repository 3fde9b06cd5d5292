"""The reference check: right answers pass, wrong distances and wrong trees are caught, also by
the certificate that replaces Johnson on large graphs with negative weights."""

import numpy as np
import pytest
from scipy.sparse import csgraph

import warpath
from warpath.benchmark import reference
from warpath.benchmark.reference import (ArcIndex, certify_distances, check_predecessors,
                                         compare_distances, reference_distances, uses_certificate)


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


def _negative_graph(seed, **options):
    base = warpath.generators.random(150, 700, seed=seed, **options)
    return warpath.generators.with_negative_weights(base, seed=seed)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["int", "float"])
def test_certificate_accepts_the_true_distances(seed, weights):
    graph = _negative_graph(seed, weights=weights)
    for source in (0, 17, 149):
        truth = csgraph.johnson(graph.to_scipy(), indices=source)
        assert certify_distances(truth, graph, source) is None


@pytest.mark.parametrize("seed", range(6))
def test_certificate_rejects_every_kind_of_wrong_answer(seed):
    graph = _negative_graph(seed)
    truth = csgraph.johnson(graph.to_scipy(), indices=0)
    reached = np.flatnonzero(np.isfinite(truth) & (np.arange(truth.size) != 0))
    rng = np.random.default_rng(seed)
    v = int(rng.choice(reached))
    too_long = truth.copy()
    too_long[v] += 1
    too_short = truth.copy()
    too_short[v] -= 1
    lost = truth.copy()
    lost[v] = np.inf
    nan = truth.copy()
    nan[v] = np.nan
    moved_source = truth.copy()
    moved_source[0] = -1
    for wrong in (too_long, too_short, lost, nan, moved_source, truth[:-1]):
        assert certify_distances(wrong, graph, 0) is not None


def test_certificate_catches_a_distance_below_every_path():
    # a feasible answer that is too low everywhere after the source: no arc improves it,
    # but no path of exact arcs reaches the vertices
    graph = warpath.Graph.from_edges([0, 1], [1, 2], [-3, -4])
    assert certify_distances(np.array([0.0, -3.0, -7.0]), graph, 0) is None
    message = certify_distances(np.array([0.0, -5.0, -9.0]), graph, 0)
    assert message.startswith("vertex 1") and "exact arcs" in message


def test_certificate_demands_inf_exactly_where_unreachable():
    graph = warpath.Graph.from_edges([0, 2], [1, 3], [2, -1], num_vertices=4)
    assert certify_distances(np.array([0.0, 2.0, np.inf, np.inf]), graph, 0) is None
    assert "unreachable" in certify_distances(np.array([0.0, 2.0, 5.0, 4.0]), graph, 0)


def test_certificate_is_used_only_where_johnson_is_too_slow(monkeypatch):
    negative = _negative_graph(1)
    assert not uses_certificate(negative, "sssp")
    monkeypatch.setattr(reference, "JOHNSON_MAX_ARCS", 10)
    assert uses_certificate(negative, "sssp")
    assert not uses_certificate(warpath.generators.random(150, 700, seed=1), "sssp")
    assert not uses_certificate(negative, "apsp")
