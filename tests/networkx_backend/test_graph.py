"""BackendGraph: networkx's adjacency order, weights with networkx's defaults, exact types."""

import networkx as nx
import numpy as np
import pytest

from warpath.networkx_backend.graph import BackendGraph, weights_array


def test_arcs_keep_networkx_adjacency_order_and_default_weight():
    G = nx.DiGraph()
    G.add_edge("x", "c", weight=2.5)
    G.add_edge("x", "a")
    G.add_edge("c", "a", weight=1)
    g = BackendGraph.from_networkx(G, "weight")
    assert g.nodes == list(G)
    assert [g.nodes[i] for i in g.indices] == [v for u in G for v in G._adj[u]]
    assert g.weights.tolist() == [2.5, 1.0, 1.0] and g.weights.dtype == np.float64


def test_predecessor_order_is_networkx_pred_order():
    G = nx.DiGraph()
    G.add_edges_from([(2, 0), (1, 0), (3, 0)])
    g = BackendGraph.from_networkx(G)
    indptr, indices, _ = g.predecessor_csr()
    zero = g.index[0]
    assert [g.nodes[i] for i in indices[indptr[zero]:indptr[zero + 1]]] == list(G._pred[0])


def test_undirected_graph_keeps_both_directions():
    g = BackendGraph.from_networkx(nx.path_graph(3))
    assert g.indices.size == 4 and not g.is_directed() and 2 in g and "z" not in g
    assert [] not in g  # unhashable: not a node, as networkx says


@pytest.mark.parametrize("raw, dtype", [([1, 2], np.int64), ([1, 2.5], np.float64),
                                         ([True, False], np.int64)])
def test_weights_become_int64_or_float64(raw, dtype):
    assert weights_array(raw, 3).dtype == dtype


@pytest.mark.parametrize("raw", [[None, 1], ["a"], [float("nan")], [2 ** 62],
                                 np.array([1.5], dtype=np.float32).tolist() and
                                 [np.float32(1.5)]])
def test_weights_that_would_not_be_exact_are_refused(raw):
    with pytest.raises(NotImplementedError):
        weights_array(raw, 3)


def test_warpath_graph_is_the_same_arcs():
    G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 2, {"weight": 4})])
    g = BackendGraph.from_networkx(G, "weight").warpath_graph()
    assert g.num_edges == 2 and g.weights.tolist() == [3, 4]


def test_compact_csr_is_the_same_arcs_in_int32_where_exact():
    G = nx.DiGraph([(0, 1, {"weight": -3}), (1, 2, {"weight": 4}), (2, 0, {"weight": 7})])
    g = BackendGraph.from_networkx(G, "weight")
    indptr, indices, weights = g.compact_csr()
    assert (indptr.dtype, indices.dtype, weights.dtype) == (np.int32,) * 3
    assert indptr.tolist() == g.indptr.tolist() and indices.tolist() == g.indices.tolist()
    assert weights.tolist() == g.weights.tolist()
    big = BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"weight": 2 ** 31})]), "weight")
    assert big.compact_csr()[2].dtype == np.int64  # beyond int32: kept exact
    floats = BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"weight": 0.1})]), "weight")
    assert floats.compact_csr()[2].dtype == np.float64


@pytest.mark.parametrize("nodes", [[0, 1, 2, 3], [3, 1, 0, 2], ["a", "b", "c", "d"],
                                   [0, 1, 2, 2 ** 70]])
def test_nodes_at_gives_the_nodes_at_positions(nodes):
    G = nx.Graph()
    G.add_nodes_from(nodes)
    g = BackendGraph.from_networkx(G)
    positions = np.array([3, 0, 2])
    assert g.nodes_at(positions) == [nodes[i] for i in positions]
    assert g.nodes_at(positions[:0]) == []
