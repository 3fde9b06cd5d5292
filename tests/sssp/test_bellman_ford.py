"""warpath's queue-based Bellman-Ford against scipy.sparse.csgraph.bellman_ford and networkx."""

import networkx as nx
import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_negative_cycle,
                              assert_shortest_path_tree, edge_list_graphs, graphs, load_dataset,
                              reaches_negative_cycle, scipy_sssp)
from hypothesis import given, settings
from hypothesis import strategies as st

import warpath
from warpath.sssp.bellman_ford import (bellman_ford_passes, find_negative_cycle,
                                       run_bellman_ford)


def run(graph, source, **options):
    return warpath.sssp(graph, source, method="bellman-ford", device="cpu", **options)


@settings(max_examples=200, deadline=None)
@given(graphs(negative=True), st.data())
def test_negative_weights_match_scipy(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    assert_distances_equal(result.distances, scipy_sssp(graph, source, "BF"), graph)
    assert_shortest_path_tree(graph, source, result.distances, result.predecessors)
    assert result.stats["relaxations"] >= graph.out_degrees()[np.isfinite(result.distances)].sum()


@settings(max_examples=80, deadline=None)
@given(graphs(), st.data())
def test_non_negative_weights_match_dijkstra_reference(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    assert_distances_equal(result.distances, scipy_sssp(graph, source, "D"), graph)


@settings(max_examples=120, deadline=None)
@given(graphs(negative_cycle=True))
def test_planted_negative_cycle_is_reported(graph):
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(graph, 0)
    assert_negative_cycle(graph, caught.value.cycle)
    assert reaches_negative_cycle(graph, 0)


@settings(max_examples=250, deadline=None)
@given(edge_list_graphs(max_vertices=10, min_weight=-4, max_weight=10), st.data())
def test_arbitrary_signed_graphs_agree_with_scipy(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    if reaches_negative_cycle(graph, source):
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph, source)
        assert_negative_cycle(graph, caught.value.cycle)
    else:
        result = run(graph, source)
        assert_distances_equal(result.distances, scipy_sssp(graph, source, "BF"), graph)
        assert_shortest_path_tree(graph, source, result.distances, result.predecessors)


@settings(max_examples=50, deadline=None)
@given(edge_list_graphs(max_vertices=10, min_weight=-3, max_weight=10, floats=True), st.data())
def test_float_signed_graphs_agree_with_networkx(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    nx_graph = graph.to_networkx()
    try:
        expected = nx.single_source_bellman_ford_path_length(nx_graph, source)
    except nx.NetworkXUnbounded:
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph, source)
        assert_negative_cycle(graph, caught.value.cycle)
        return
    result = run(graph, source)
    for target in range(graph.num_vertices):
        assert result.distances[target] == pytest.approx(expected.get(target, np.inf),
                                                         rel=1e-9, abs=1e-9)


def test_negative_self_loop_is_a_cycle():
    g = warpath.Graph.from_edges([0, 1], [1, 1], [2, -1])
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(g, 0)
    assert caught.value.cycle == [1]


def test_unreachable_negative_cycle_is_not_an_error():
    g = warpath.Graph.from_edges([0, 2, 3], [1, 3, 2], [5, 1, -3])
    result = run(g, 0)
    assert result.distances.tolist() == [0.0, 5.0, np.inf, np.inf]


def test_iterations_count_queue_rounds_on_a_ring():
    g = warpath.generators.ring(10, seed=0)
    result = run(g, 0)
    assert result.stats["iterations"] == 10  # one vertex per round; the last round finds nothing
    assert result.stats["relaxations"] == 10


def test_find_negative_cycle_checks_the_links_against_the_graph():
    g = warpath.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 1], [1, 1, -5, 3])
    assert find_negative_cycle(g, [2, 0, 1]) == [0, 1, 2]
    assert find_negative_cycle(g, [-1, 2, 1]) is None  # 1 -> 2 -> 1 weighs +4
    assert find_negative_cycle(g, [-1, 0, 1]) is None  # a tree
    assert find_negative_cycle(g, [1, 0, -1]) is None  # 1 -> 0 is not an arc
    assert find_negative_cycle(g, [7, -5, 99]) is None  # junk links are ignored
    with pytest.raises(ValueError, match="one entry per vertex"):
        find_negative_cycle(g, [0, 1])


def test_pass_fallback_finds_the_cycle():
    g = warpath.generators.with_negative_cycle(warpath.generators.grid(4, 4, seed=2), seed=2)
    n = g.num_vertices
    marker = np.iinfo(np.int64).max
    dist = np.full(n, marker, np.int64)
    dist[0] = 0
    pred = np.full(n, -1, np.int64)
    vertex = bellman_ford_passes(g.indptr, g.indices, g.weights, dist, pred, marker)
    assert vertex >= 0
    links = np.full(n, -1)
    cycle = [vertex]
    while pred[cycle[-1]] != vertex:
        cycle.append(int(pred[cycle[-1]]))
    links[cycle] = pred[cycle]
    assert_negative_cycle(g, find_negative_cycle(g, links))


def test_virtual_source_distances_are_potentials():
    g = warpath.generators.with_negative_weights(warpath.generators.random(50, 200, seed=4),
                                                 seed=4)
    h, _, _, _ = run_bellman_ford(g, np.arange(g.num_vertices), np.dtype(np.int64))
    reweighted = g.weights + h[g.tails()] - h[g.indices]
    assert h.max() <= 0 and reweighted.min() >= 0


# ---------------------------------------------------------------------- real graphs

def test_bitcoin_alpha_negative_cycle(datasets_dir):
    graph = load_dataset("soc-sign-bitcoinalpha.csv.gz")
    for source in (0, 97, 1000):
        assert reaches_negative_cycle(graph, source)  # scipy agrees there is one
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph, source)
        assert_negative_cycle(graph, caught.value.cycle)


@pytest.mark.parametrize("name", ["helsinki-osm-drive.gr.gz", "facebook_combined.txt.gz"])
def test_real_graphs_match_scipy(datasets_dir, name):
    graph = load_dataset(name)
    for source in np.random.default_rng(1).integers(0, graph.num_vertices, 3):
        result = run(graph, int(source))
        assert_distances_equal(result.distances, scipy_sssp(graph, int(source)), graph)
