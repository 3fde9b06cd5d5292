"""The unweighted (breadth-first) functions through the backend against networkx itself."""

import networkx as nx
import pytest

from networkx_backend._compare import assert_same, graph_cases, some_nodes

CASES = list(graph_cases(weights_kinds=(None,), seeds=(0, 1, 2)))


@pytest.mark.parametrize("name, G", CASES, ids=[name for name, _ in CASES])
def test_breadth_first_functions_match_networkx(name, G):
    s, t, other = some_nodes(G)
    for cutoff in (None, 0, 1, 2, 2.5):
        assert_same(nx.single_source_shortest_path_length, G, s, cutoff=cutoff)
        assert_same(nx.single_target_shortest_path_length, G, t, cutoff=cutoff)
        assert_same(nx.single_source_shortest_path, G, s, cutoff=cutoff)
        assert_same(nx.single_target_shortest_path, G, t, cutoff=cutoff)
        assert_same(nx.predecessor, G, s, cutoff=cutoff)
        assert_same(nx.predecessor, G, s, target=t, cutoff=cutoff, return_seen=True)
    for a, b in ((s, t), (t, s), (s, s), (other, t)):
        assert_same(nx.bidirectional_shortest_path, G, a, b)
        assert_same(nx.predecessor, G, a, target=b)


@pytest.mark.parametrize("name, G", CASES[::4], ids=[name for name, _ in CASES[::4]])
def test_all_pairs_breadth_first_matches_networkx(name, G):
    for cutoff in (None, 2):
        assert_same(nx.all_pairs_shortest_path_length, G, cutoff=cutoff)
        assert_same(nx.all_pairs_shortest_path, G, cutoff=cutoff)


def test_missing_nodes_raise_node_not_found():
    G = nx.path_graph(3)
    for func in (nx.single_source_shortest_path_length, nx.single_target_shortest_path,
                 nx.single_source_shortest_path, nx.predecessor):
        with pytest.raises(nx.NodeNotFound):
            func(G, "x", backend="warpath")
    with pytest.raises(nx.NodeNotFound):
        nx.bidirectional_shortest_path(G, 0, "x", backend="warpath")
    G.add_node(9)
    with pytest.raises(nx.NetworkXNoPath):
        nx.bidirectional_shortest_path(G, 0, 9, backend="warpath")
