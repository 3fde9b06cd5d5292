"""Floyd-Warshall through the backend against networkx itself (values, predecessors, order)."""

import math

import networkx as nx
import numpy as np
import pytest

from networkx_backend._compare import assert_same, graph_cases, negative_cases

CASES = list(graph_cases(seeds=(0, 1))) + list(negative_cases(seeds=(0,)))


@pytest.mark.parametrize("name, G", CASES, ids=[name for name, _ in CASES])
def test_floyd_warshall_matches_networkx(name, G):
    assert_same(nx.floyd_warshall_predecessor_and_distance, G)
    assert_same(nx.floyd_warshall, G)
    expected = nx.floyd_warshall_numpy(G)
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(G, backend="warpath"), expected)
    nodelist = list(G)[::-1]
    np.testing.assert_array_equal(nx.floyd_warshall_numpy(G, nodelist=nodelist, backend="warpath"),
                                  nx.floyd_warshall_numpy(G, nodelist=nodelist))


def test_missing_keys_answer_infinity_as_networkx():
    G = nx.DiGraph([(0, 1)])
    G.add_node(2)
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, backend="warpath")
    assert math.isinf(dist[1][0]) and math.isinf(dist[0]["not a node"])
    assert pred == {0: {1: 0}}


def test_bad_nodelist_raises_networkx_error():
    G = nx.path_graph(3)
    with pytest.raises(nx.NetworkXError):
        nx.floyd_warshall_numpy(G, nodelist=[0, 1], backend="warpath")
