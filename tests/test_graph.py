"""Graph: construction, validation, conversions, labels, reverse."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import warpath
from warpath import Graph, GraphError, SourceError
from warpath.csr import build_csr


def test_from_edges_builds_sorted_csr():
    g = Graph.from_edges([2, 0, 0, 1], [0, 2, 1, 2], [7, 3, 1, 5])
    assert g.indptr.tolist() == [0, 2, 3, 4]
    assert g.indices.tolist() == [1, 2, 2, 0]
    assert g.weights.tolist() == [1, 3, 5, 7]
    assert g.num_vertices == 3 and g.num_edges == 4 and g.directed


def test_duplicates_keep_minimum_not_sum():
    g = Graph.from_edges([0, 0, 0, 1], [1, 1, 1, 0], [5, 2, 9, 4])
    assert g.num_edges == 2
    assert g.edge_weights(0).tolist() == [2]
    # scipy's COO conversion would sum the duplicates to 16
    assert sp.coo_array(([5, 2, 9], ([0, 0, 0], [1, 1, 1])), shape=(2, 2)).tocsr()[0, 1] == 16


def test_self_loops_kept_and_undirected_stores_both_directions():
    g = Graph.from_edges([0, 1], [0, 2], [3, 4], directed=False)
    assert g.neighbors(0).tolist() == [0]
    assert g.neighbors(1).tolist() == [2]
    assert g.neighbors(2).tolist() == [1]
    assert g.num_edges == 3


def test_undirected_duplicate_in_both_orientations_keeps_minimum():
    g = Graph.from_edges([0, 1], [1, 0], [8, 3], directed=False)
    assert g.edge_weights(0).tolist() == [3] and g.edge_weights(1).tolist() == [3]


def test_unweighted_graph_has_unit_int_weights():
    g = Graph.from_edges([0, 1], [1, 2])
    assert not g.weighted
    assert g.weights.dtype == np.int32 and g.weights.tolist() == [1, 1]


@pytest.mark.parametrize("dtype, kept", [(np.int32, np.int32), (np.int64, np.int64),
                                         (np.float32, np.float32), (np.float64, np.float64),
                                         (np.int16, np.int32), (np.uint32, np.int64),
                                         (np.float16, np.float32)])
def test_weight_types_are_kept_or_widened(dtype, kept):
    g = Graph.from_edges([0], [1], np.array([3], dtype=dtype))
    assert g.weights.dtype == kept


@pytest.mark.parametrize("build", ["from_edges", "from_scipy", "constructor"])
def test_uint64_weights_convert_exactly_or_refuse(build):
    """Issue 16: uint64 weights of 2**63 or more were stored negative (sssp said -1.0)."""
    import scipy.sparse as sp

    def graph(weights):
        weights = np.array(weights, dtype=np.uint64)
        if build == "from_edges":
            return Graph.from_edges([0, 1], [1, 2], weights)
        if build == "from_scipy":
            return Graph.from_scipy(sp.csr_array((weights, ([0, 1], [1, 2])), shape=(3, 3)))
        return Graph([0, 1, 2, 2], [1, 2], weights)

    g = graph([2**63 - 1, 5])
    assert g.weights.dtype == np.int64 and g.weights.tolist() == [2**63 - 1, 5]
    small = graph([2**40, 5])
    assert warpath.sssp(small, 0).exact_distances.tolist() == [0, 2**40, 2**40 + 5]
    with pytest.raises(GraphError, match=f"weight {2**63} .* below 2\\*\\*63"):
        graph([2**63, 1])


@pytest.mark.parametrize("make", [
    lambda nx: nx.grid_2d_graph(3, 4),                                  # tuple nodes
    lambda nx: nx.relabel_nodes(nx.cycle_graph(5), lambda v: f"v{v}"),  # strings
    lambda nx: nx.relabel_nodes(nx.path_graph(4), {0: "a", 1: (1, 2), 2: 2.5, 3: 7}),  # mixed
])
def test_networkx_labels_stay_one_per_vertex_whatever_the_nodes(make):
    """Issue 16: tuple nodes became a 2-D label array and index_of raised a bare ValueError."""
    import networkx as nx

    nx_graph = make(nx)
    g = Graph.from_networkx(nx_graph)
    nodes = list(nx_graph.nodes)
    assert g.labels.shape == (len(nodes),)
    assert [g.index_of(node) for node in nodes] == list(range(len(nodes)))
    source, target = nodes[0], nodes[-1]
    r = warpath.sssp(g, g.index_of(source))
    path = [g.labels[v] for v in r.path(g.index_of(target)).tolist()]
    assert path[0] == source and path[-1] == target
    assert len(path) - 1 == nx.shortest_path_length(nx_graph, source, target)
    with pytest.raises(SourceError, match="no vertex is labelled"):
        g.index_of((9, 9))


def test_index_types_are_int32_while_they_fit():
    g = Graph.from_edges([0], [1])
    assert g.indices.dtype == np.int32 and g.indptr.dtype == np.int32


def test_arrays_are_read_only():
    g = Graph.from_edges([0], [1], [2])
    for array in (g.indptr, g.indices, g.weights):
        with pytest.raises(ValueError):
            array[0] = 5


def test_constructor_does_not_alias_callers_arrays():
    indptr = np.array([0, 1, 1])
    Graph(indptr, [1], [1.0])
    indptr[0] = 0  # still writeable for the caller
    assert indptr.flags.writeable


@pytest.mark.parametrize("weights", [[1.0, np.nan], [np.inf, 1.0], [1.0, -np.inf]])
def test_non_finite_weights_are_rejected_with_the_edge(weights):
    with pytest.raises(GraphError, match="weight"):
        Graph.from_edges([0, 1], [1, 0], weights)
    with pytest.raises(GraphError, match="arc"):
        Graph([0, 1, 2], [1, 0], weights)


@pytest.mark.parametrize("indptr, indices, message", [
    ([0, 2], [0], "end at the number of arcs"),
    ([1, 1], [], "start at 0"),
    ([0, 2, 1, 2], [0, 1], "non-decreasing"),
    ([0, 1], [3], "outside"),
    ([0, 1], [-1], "outside"),
])
def test_inconsistent_csr_is_rejected(indptr, indices, message):
    with pytest.raises(GraphError, match=message):
        Graph(indptr, indices)


def test_from_edges_argument_errors():
    with pytest.raises(GraphError, match="one length"):
        Graph.from_edges([0, 1], [1])
    with pytest.raises(GraphError, match="non-negative"):
        Graph.from_edges([-1], [1])
    with pytest.raises(GraphError, match="out of range"):
        Graph.from_edges([0], [5], num_vertices=3)
    with pytest.raises(GraphError, match="weights given"):
        Graph.from_edges([0], [1], [1, 2])
    with pytest.raises(GraphError, match="integers"):
        Graph.from_edges([0.5], [1.0])


def test_isolated_vertices_and_empty_graph():
    g = Graph.from_edges([0], [1], num_vertices=5)
    assert g.num_vertices == 5 and g.out_degrees().tolist() == [1, 0, 0, 0, 0]
    empty = Graph([0], [])
    assert empty.num_vertices == 0 and empty.num_edges == 0


def test_scipy_round_trip_and_explicit_zeros():
    rng = np.random.default_rng(3)
    dense = rng.integers(0, 4, size=(6, 6))
    m = sp.csr_array(dense)
    g = Graph.from_scipy(m)
    assert (g.to_scipy().toarray() == dense).all()
    coo = sp.coo_array(([0, 4], ([0, 1], [1, 2])), shape=(3, 3))
    assert Graph.from_scipy(coo).num_edges == 2  # the explicit zero is an arc


def test_scipy_undirected_uses_arcs_both_ways():
    g = Graph.from_scipy(sp.csr_array([[0, 5], [0, 0]]), directed=False)
    assert g.neighbors(1).tolist() == [0] and not g.directed


def test_from_dense_null_values():
    g = Graph.from_dense([[0, 2, np.inf], [np.nan, 0, 1], [0, 0, 0]])
    assert g.num_edges == 2
    g = Graph.from_dense([[-1, 0], [-1, -1]], null_value=-1)
    assert g.num_edges == 1 and g.edge_weights(0).tolist() == [0]
    with pytest.raises(GraphError, match="square"):
        Graph.from_dense([[1, 2, 3]])


def test_networkx_round_trip_keeps_labels_and_weights():
    nxg = nx.DiGraph()
    nxg.add_weighted_edges_from([("a", "b", 2.5), ("b", "c", 1.0), ("c", "a", 4.0)])
    g = Graph.from_networkx(nxg)
    assert g.labels.tolist() == ["a", "b", "c"]
    assert g.index_of("c") == 2
    back = g.to_networkx()
    assert back[0][1]["weight"] == 2.5 and back.nodes[2]["label"] == "c"


def test_networkx_multigraph_keeps_minimum_and_unweighted_graph():
    m = nx.MultiDiGraph()
    m.add_edge(0, 1, weight=9)
    m.add_edge(0, 1, weight=4)
    assert Graph.from_networkx(m).edge_weights(0).tolist() == [4]
    assert not Graph.from_networkx(nx.path_graph(4)).weighted


def test_labels_and_index_of():
    g = Graph.from_edges([0, 1], [1, 2], labels=[10, 30, 20])
    assert g.has_labels and g.index_of(20) == 2
    with pytest.raises(SourceError, match="labelled 99"):
        g.index_of(99)
    plain = Graph.from_edges([0], [1])
    assert plain.labels.tolist() == [0, 1] and plain.index_of(1) == 1
    with pytest.raises(SourceError):
        plain.index_of(2)
    with pytest.raises(GraphError, match="labels given"):
        Graph.from_edges([0], [1], labels=[1, 2, 3])


def test_reverse_is_cached_and_correct():
    rng = np.random.default_rng(0)
    src, dst = rng.integers(0, 30, 200), rng.integers(0, 30, 200)
    g = Graph.from_edges(src, dst, rng.integers(1, 9, 200), num_vertices=30)
    r = g.reverse()
    assert r is g.reverse()
    assert (r.to_scipy().toarray() == g.to_scipy().toarray().T).all()
    u = Graph.from_edges([0], [1], directed=False)
    assert u.reverse() is u


def test_degrees_weights_and_tails():
    g = Graph.from_edges([0, 0, 2], [1, 2, 1], [3, -4, 5])
    assert g.in_degrees().tolist() == [0, 2, 1]
    assert g.tails().tolist() == [0, 0, 2]
    assert g.min_weight == -4 and g.max_abs_weight == 5 and g.has_negative_weights


def test_build_csr_matches_a_global_sort_on_shuffled_arcs():
    rng = np.random.default_rng(9)
    src, dst = rng.integers(0, 50, 3000), rng.integers(0, 50, 3000)
    weights = rng.integers(-5, 20, 3000)
    indptr, heads, kept = build_csr(src, dst, weights, 50)
    best = {}
    for u, v, w in zip(src.tolist(), dst.tolist(), weights.tolist()):
        best[u, v] = min(w, best.get((u, v), w))
    expected = sorted(best)
    assert heads.tolist() == [v for _, v in expected]
    assert kept.tolist() == [best[arc] for arc in expected]
    assert indptr.tolist() == np.searchsorted([u for u, _ in expected], np.arange(51)).tolist()


def test_repr_mentions_kind_and_size():
    assert "undirected, 2 vertices, 2 arcs" in repr(Graph.from_edges([0], [1], directed=False))


def test_with_random_weights_is_the_generator_function():
    from warpath import generators

    g = Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False)
    a = g.with_random_weights(1, 50, seed=9)
    b = generators.with_random_weights(g, 1, 50, seed=9)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert g.weighted is False and a.weighted   # the original is untouched (immutable)
