"""shortest_path, shortest_path_length and has_path through the backend against networkx."""

import networkx as nx
import pytest

from networkx_backend._compare import assert_same, graph_cases, some_nodes

CASES = list(graph_cases(seeds=(0, 1)))


@pytest.mark.parametrize("name, G", CASES, ids=[name for name, _ in CASES])
def test_generic_functions_match_networkx(name, G):
    s, t, _ = some_nodes(G)
    for weight in (None, "weight"):
        for method in ("dijkstra", "bellman-ford"):
            for source, target in ((s, t), (s, None), (None, t)):
                assert_same(nx.shortest_path, G, source, target, weight=weight, method=method)
                assert_same(nx.shortest_path_length, G, source, target, weight=weight,
                            method=method)
    assert_same(nx.has_path, G, s, t)
    assert_same(nx.has_path, G, t, s)


@pytest.mark.parametrize("name, G", CASES[::6], ids=[name for name, _ in CASES[::6]])
def test_generic_all_pairs_match_networkx(name, G):
    for weight, method in ((None, "dijkstra"), ("weight", "dijkstra"), ("weight", "bellman-ford")):
        assert_same(nx.shortest_path, G, weight=weight, method=method)
        assert_same(nx.shortest_path_length, G, weight=weight, method=method)


def test_unknown_method_raises_value_error():
    with pytest.raises(ValueError, match="method not supported"):
        nx.shortest_path(nx.path_graph(3), 0, 2, weight="weight", method="a*", backend="warpath")
