"""warpath's CPU Dijkstra against scipy.sparse.csgraph.dijkstra and networkx."""

import warnings

import networkx as nx
import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_path, assert_shortest_path_tree,
                              graphs, load_dataset, min_arc_weights, scipy_graph, scipy_sssp)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.sssp.dijkstra import dijkstra, prepare


def run(graph, source, **options):
    return warpath.sssp(graph, source, method="dijkstra", device="cpu", **options)


@settings(max_examples=250, deadline=None)
@given(graphs(), st.data())
def test_matches_scipy_on_random_graphs(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    assert_distances_equal(result.distances, scipy_sssp(graph, source), graph)
    assert_shortest_path_tree(graph, source, result.distances, result.predecessors)
    reached = np.isfinite(result.distances)
    assert result.stats["iterations"] == reached.sum()
    assert result.stats["relaxations"] == graph.out_degrees()[reached].sum()
    if graph.weights.dtype.kind == "i":
        assert np.array_equal(result.exact_distances[reached], result.distances[reached])


@settings(max_examples=100, deadline=None)
@given(graphs(), st.data())
def test_limit_matches_scipy(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    limit = data.draw(st.one_of(st.integers(0, 60), st.floats(0, 60)))
    result = run(graph, source, limit=limit)
    expected = csgraph.dijkstra(scipy_graph(graph), indices=source, limit=limit)
    assert_distances_equal(result.distances, expected, graph)
    assert np.all(result.distances[np.isfinite(result.distances)] <= limit)
    assert_shortest_path_tree(graph, source, result.distances, result.predecessors)


@settings(max_examples=60, deadline=None)
@given(graphs(max_vertices=20), st.data())
def test_paths_match_networkx(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    expected = nx.single_source_dijkstra_path_length(graph.to_networkx(), source)
    lightest = min_arc_weights(graph)
    for target in range(graph.num_vertices):
        if target in expected:
            assert result.distances[target] == pytest.approx(expected[target], rel=1e-9)
        else:
            assert result.distances[target] == np.inf
        assert_path(graph, result.path(target), source, target, result.distances[target],
                    lightest)


def test_without_predecessors():
    g = warpath.generators.grid(4, 4, seed=1)
    result = run(g, 3, predecessors=False)
    assert result.predecessors is None
    assert_distances_equal(result.distances, scipy_sssp(g, 3), g)
    with pytest.raises(ValueError, match="predecessors"):
        result.path(0)


@pytest.mark.parametrize("weights", ["int", "float"])
def test_road_sized_grid(weights):
    g = warpath.generators.grid(120, 130, seed=7, weights=weights)
    for source in (0, 7777, g.num_vertices - 1):
        result = run(g, source)
        assert_distances_equal(result.distances, scipy_sssp(g, source), g)


def test_wide_integer_weights_use_the_two_array_heap():
    # 2**50 weights leave no room to pack distance and vertex in one word
    g = warpath.generators.random(300, 1500, seed=3, weights="int", max_weight=2**50)
    assert prepare(g)[4] == 0
    for source in (0, 150):
        assert_distances_equal(run(g, source).distances, scipy_sssp(g, source), g)


def test_overflowing_integer_weights_fall_back_to_float_with_a_warning():
    big = 2**62
    g = warpath.Graph.from_edges([0, 1], [1, 2], np.array([big, big], dtype=np.int64))
    with pytest.warns(RuntimeWarning, match="overflow"):
        result = run(g, 0)
    assert result.distances.tolist() == [0.0, float(big), float(2 * big)]


def test_float32_weights():
    g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([0.5, 0.25, 1.0], np.float32))
    assert run(g, 0).distances.tolist() == [0.0, 0.5, 0.75]


def test_unreachable_vertices_and_isolated_source():
    g = warpath.Graph.from_edges([0, 2], [1, 3], [1, 1], num_vertices=5)
    result = run(g, 4)
    assert result.distances.tolist() == [np.inf, np.inf, np.inf, np.inf, 0.0]
    assert result.predecessors.tolist() == [-1] * 5
    assert result.path(0).tolist() == []
    assert result.path(4).tolist() == [4]


def test_negative_weights_are_refused_naming_bellman_ford():
    g = warpath.Graph.from_edges([0, 1], [1, 2], [1, -1])
    with pytest.raises(warpath.NegativeWeightError, match="bellman-ford"):
        run(g, 0)


def test_source_out_of_range():
    g = warpath.Graph.from_edges([0], [1], [1])
    for source in (-1, 2, 1.5, "x"):
        with pytest.raises(warpath.SourceError):
            run(g, source)


def test_empty_graph():
    with pytest.raises(warpath.EmptyGraphError):
        run(warpath.Graph([0], []), 0)


def test_nan_weights_are_rejected_at_construction():
    with pytest.raises(warpath.GraphError, match="finite"):
        warpath.Graph.from_edges([0], [1], [np.nan])
    with pytest.raises(warpath.GraphError, match="finite"):
        warpath.Graph([0, 1, 1], [1], [np.inf])


def test_direct_call_matches_entry_point():
    g = warpath.generators.power_law(200, 4, 30, seed=2)
    ours = dijkstra(g, 5)
    assert np.array_equal(ours.distances, run(g, 5).distances)


# ---------------------------------------------------------------------- real graphs

@pytest.mark.parametrize("name", ["helsinki-osm-drive.gr.gz", "facebook_combined.txt.gz",
                                  "soc-sign-bitcoinalpha.csv.gz"])
def test_real_graphs_match_scipy(datasets_dir, name):
    graph = load_dataset(name)
    if graph.has_negative_weights:  # bitcoin-alpha: its absolute ratings make a Dijkstra test
        graph = warpath.Graph(graph.indptr, graph.indices, np.abs(graph.weights),
                              directed=graph.directed)
    lightest = min_arc_weights(graph)
    for source in np.random.default_rng(0).integers(0, graph.num_vertices, 5):
        result = run(graph, int(source))
        assert_distances_equal(result.distances, scipy_sssp(graph, int(source)), graph)
        assert_shortest_path_tree(graph, int(source), result.distances, result.predecessors,
                                  lightest)


def test_bitcoin_alpha_negative_ratings_refused(datasets_dir):
    graph = load_dataset("soc-sign-bitcoinalpha.csv.gz")
    assert graph.has_negative_weights
    with pytest.raises(warpath.NegativeWeightError, match="bellman-ford"):
        run(graph, 0)


def test_no_warning_for_ordinary_integer_graphs():
    g = warpath.generators.grid(5, 5, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(g, 0)


@pytest.mark.parametrize("arity", [2, 3, 4, 16])
@pytest.mark.parametrize("weights", ["int", "float", "wide"])
def test_big_heaps_match_scipy(weights, arity):
    """Many heap moves: a random graph (the heap grows to thousands of entries), a star (one
    pop pushes every vertex) and arcs whose pushes arrive in decreasing order (every push sifts
    up to the root) exercise the d-ary heap's sentinels in both heap layouts."""
    rng = np.random.default_rng(11)
    n = 3000
    star_weights = np.arange(n - 1, 0, -1)
    chain = np.arange(n - 1)
    cases = [warpath.generators.random(n, 8 * n, seed=3,
                                       weights="float" if weights == "float" else "int"),
             warpath.Graph.from_edges(np.zeros(n - 1, np.int64), np.arange(1, n), star_weights,
                                      num_vertices=n),
             warpath.Graph.from_edges(np.concatenate([np.zeros(n - 1, np.int64), chain]),
                                      np.concatenate([np.arange(1, n), chain + 1]),
                                      np.concatenate([rng.integers(n, 2 * n, n - 1),
                                                      np.ones(n - 1, np.int64)]))]
    for graph in cases:
        if weights == "wide":  # exact in int64, too wide to pack beside the vertex: two arrays
            graph = warpath.Graph.from_edges(graph.tails(), graph.indices,
                                             graph.weights.astype(np.int64) * 2**35)
            assert prepare(graph)[4] == 0
        for source in (0, n // 2):
            result = run(graph, source, heap_arity=arity)
            assert_distances_equal(result.distances, scipy_sssp(graph, source), graph)
            assert_shortest_path_tree(graph, source, result.distances, result.predecessors)


@pytest.mark.parametrize("arity", [1, 17, 2.5, True, "4"])
def test_heap_arity_out_of_range_is_a_clear_error(arity):
    graph = warpath.generators.grid(3, 3, seed=0)
    with pytest.raises(ValueError, match="heap_arity must be an integer from 2 to 16"):
        run(graph, 0, heap_arity=arity)
