"""The weighted functions through the backend against networkx itself: values, order, errors."""

import networkx as nx
import pytest

from networkx_backend._compare import (assert_same, graph_cases, negative_cases, outcome,
                                       some_nodes)

CASES = list(graph_cases())
NEGATIVE = list(negative_cases())


@pytest.mark.parametrize("name, G", CASES, ids=[name for name, _ in CASES])
def test_dijkstra_family_matches_networkx(name, G):
    s, t, other = some_nodes(G)
    for cutoff in (None, 0, 7, 12.5):
        assert_same(nx.single_source_dijkstra_path_length, G, s, cutoff=cutoff)
        assert_same(nx.single_source_dijkstra_path, G, s, cutoff=cutoff)
        assert_same(nx.single_source_dijkstra, G, s, cutoff=cutoff)
        assert_same(nx.single_source_dijkstra, G, s, target=t, cutoff=cutoff)
        assert_same(nx.dijkstra_predecessor_and_distance, G, s, cutoff=cutoff)
        assert_same(nx.multi_source_dijkstra_path_length, G, {s, other}, cutoff=cutoff)
    for sources in ([t, s], {s}, [other, other]):
        assert_same(nx.multi_source_dijkstra, G, sources)
        assert_same(nx.multi_source_dijkstra_path, G, sources)
        assert_same(nx.multi_source_dijkstra, G, sources, target=t)
    for a, b in ((s, t), (t, s), (s, s), (other, t)):
        assert_same(nx.dijkstra_path, G, a, b)
        assert_same(nx.dijkstra_path_length, G, a, b)
        assert_same(nx.bidirectional_dijkstra, G, a, b)


@pytest.mark.parametrize("name, G", CASES[::5], ids=[name for name, _ in CASES[::5]])
def test_all_pairs_dijkstra_matches_networkx(name, G):
    assert_same(nx.all_pairs_dijkstra_path_length, G)
    assert_same(nx.all_pairs_dijkstra_path_length, G, cutoff=5)
    assert_same(nx.all_pairs_dijkstra_path, G)
    assert_same(nx.all_pairs_dijkstra, G)


@pytest.mark.parametrize("name, G", CASES, ids=[name for name, _ in CASES])
def test_bellman_ford_family_matches_networkx(name, G):
    s, t, _ = some_nodes(G)
    for heuristic in (False, True):
        assert_same(nx.bellman_ford_predecessor_and_distance, G, s, heuristic=heuristic)
    assert_same(nx.single_source_bellman_ford, G, s)
    assert_same(nx.single_source_bellman_ford, G, s, target=t)
    assert_same(nx.single_source_bellman_ford_path, G, s)
    assert_same(nx.single_source_bellman_ford_path_length, G, s)
    assert_same(nx.bellman_ford_path, G, s, t)
    assert_same(nx.bellman_ford_path_length, G, t, s)
    assert_same(nx.negative_edge_cycle, G)


@pytest.mark.parametrize("name, G", NEGATIVE, ids=[name for name, _ in NEGATIVE])
def test_negative_weights_match_networkx(name, G):
    s = 0  # the planted negative cycle is reachable from vertex 0
    t = some_nodes(G, 1, seed=3)[0]
    assert_same(nx.bellman_ford_predecessor_and_distance, G, s)
    assert_same(nx.single_source_bellman_ford, G, s)
    assert_same(nx.bellman_ford_path, G, s, t)
    assert_same(nx.bellman_ford_path_length, G, s, t)
    assert_same(nx.all_pairs_bellman_ford_path_length, G)
    assert_same(nx.johnson, G)
    cycle = assert_same(nx.negative_edge_cycle, G)
    assert cycle == ("value", "negative-cycle" in name)
    assert_same(nx.find_negative_cycle, G, s)
    # Dijkstra on negative weights: networkx raises or answers; the backend does the same.
    assert_same(nx.single_source_dijkstra, G, s)
    assert_same(nx.dijkstra_predecessor_and_distance, G, s)


@pytest.mark.parametrize("name, G", CASES[::7], ids=[name for name, _ in CASES[::7]])
def test_johnson_and_all_pairs_bellman_ford_match_networkx(name, G):
    assert_same(nx.johnson, G)
    assert_same(nx.all_pairs_bellman_ford_path, G)
    assert_same(nx.all_pairs_bellman_ford_path_length, G)


def test_missing_nodes_raise_networkx_errors():
    G = nx.path_graph(4)
    for func, args in ((nx.single_source_dijkstra, ("x",)), (nx.dijkstra_path, ("x", 1)),
                       (nx.bellman_ford_path_length, ("x", 1)),
                       (nx.bidirectional_dijkstra, (0, "x")),
                       (nx.multi_source_dijkstra_path_length, ({0, "x"},)),
                       (nx.find_negative_cycle, ("x",))):
        assert outcome(func, G, *args, backend="warpath") == ("raises", nx.NodeNotFound)
        assert_same(func, G, *args)
    G.add_node("lonely")
    assert outcome(nx.dijkstra_path, G, 0, "lonely", backend="warpath") == \
        ("raises", nx.NetworkXNoPath)


def test_negative_cycle_raises_unbounded():
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 0, {"weight": 1})])
    assert outcome(nx.single_source_bellman_ford, G, 0, backend="warpath") == \
        ("raises", nx.NetworkXUnbounded)
    assert outcome(nx.find_negative_cycle, G, 0, backend="warpath") == \
        outcome(nx.find_negative_cycle, G, 0)


def test_cutoff_and_ties_follow_networkx_order():
    # Two equal paths to 3: networkx keeps the one through the node pushed first (1).
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 2, 1), (0, 1, 1), (1, 3, 1), (2, 3, 1)])
    dist, paths = nx.single_source_dijkstra(G, 0, backend="warpath")
    assert list(dist) == [0, 2, 1, 3] and paths[3] == [0, 2, 3]
    assert nx.single_source_dijkstra_path_length(G, 0, cutoff=1, backend="warpath") == \
        {0: 0, 2: 1, 1: 1}


def test_infinite_and_mixed_weights_match_networkx():
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=float("inf"))
    G.add_edge(0, 2, weight=2)
    G.add_edge(2, 3, weight=0.5)
    G.add_edge(3, 1)
    for func in (nx.single_source_dijkstra, nx.single_source_bellman_ford,
                 nx.dijkstra_predecessor_and_distance):
        assert_same(func, G, 0)
