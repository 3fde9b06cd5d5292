"""warpath's Johnson APSP against scipy.sparse.csgraph.johnson."""

import networkx as nx
import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_negative_cycle,
                              assert_shortest_path_tree, edge_list_graphs, graphs,
                              load_dataset, min_arc_weights, scipy_graph)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.apsp.johnson import johnson_dtype


def run(graph, **options):
    return warpath.apsp(graph, method="johnson", device="cpu", **options)


def scipy_johnson(graph, indices=None):
    return csgraph.johnson(scipy_graph(graph), indices=indices)


def assert_matrix(graph, matrix, expected):
    assert_distances_equal(matrix.distances, expected, graph)
    lightest = min_arc_weights(graph)
    for row, source in enumerate(matrix.sources):
        assert_shortest_path_tree(graph, int(source), matrix.distances[row],
                                  matrix.predecessors[row], lightest)


@settings(max_examples=100, deadline=None)
@given(graphs(max_vertices=25))
def test_non_negative_matches_scipy(graph):
    assert_matrix(graph, run(graph), scipy_johnson(graph))


@settings(max_examples=120, deadline=None)
@given(graphs(negative=True, max_vertices=25))
def test_negative_weights_match_scipy(graph):
    assert_matrix(graph, run(graph), scipy_johnson(graph))


@settings(max_examples=80, deadline=None)
@given(edge_list_graphs(max_vertices=9, min_weight=-4, max_weight=10))
def test_any_negative_cycle_raises(graph):
    try:
        expected = scipy_johnson(graph)
    except csgraph.NegativeCycleError:
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph)
        assert_negative_cycle(graph, caught.value.cycle)
        return
    assert_matrix(graph, run(graph), expected)


@settings(max_examples=40, deadline=None)
@given(graphs(negative_cycle=True, max_vertices=20))
def test_planted_negative_cycle(graph):
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(graph)
    assert_negative_cycle(graph, caught.value.cycle)


@settings(max_examples=60, deadline=None)
@given(graphs(negative=True, max_vertices=25), st.data())
def test_multi_source_rows(graph, data):
    sources = data.draw(st.lists(st.integers(0, graph.num_vertices - 1), min_size=1,
                                 max_size=5))
    matrix = warpath.multi_source(graph, sources, method="johnson", device="cpu")
    assert matrix.sources.tolist() == sources
    assert_matrix(graph, matrix, scipy_johnson(graph, indices=sources))


@settings(max_examples=30, deadline=None)
@given(graphs(negative=True, max_vertices=15))
def test_matches_networkx(graph):
    expected = dict(nx.johnson(graph.to_networkx())) if graph.num_edges else {}
    matrix = run(graph)
    lengths = {s: {t: sum(graph.to_networkx()[u][v]["weight"] for u, v in zip(p, p[1:]))
                   for t, p in paths.items()} for s, paths in expected.items()}
    for s in range(graph.num_vertices):
        for t in range(graph.num_vertices):
            want = lengths.get(s, {}).get(t, 0.0 if s == t else np.inf)
            assert matrix.distances[s, t] == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_unreachable_negative_cycle_still_raises_for_multi_source():
    g = warpath.Graph.from_edges([0, 2, 3], [1, 3, 2], [5, 1, -3])
    with pytest.raises(warpath.NegativeCycleError) as caught:
        warpath.multi_source(g, [0], method="johnson")
    assert sorted(caught.value.cycle) == [2, 3]


def test_wide_weights_fall_back_to_float64_with_a_warning():
    g = warpath.Graph.from_edges([0, 1], [1, 2], np.array([2**61, -1], dtype=np.int64))
    with pytest.warns(RuntimeWarning):
        assert johnson_dtype(g) == np.float64


def test_bitcoin_alpha_has_a_negative_cycle(datasets_dir):
    graph = load_dataset("soc-sign-bitcoinalpha.csv.gz")
    with pytest.raises(warpath.NegativeCycleError) as caught:
        warpath.multi_source(graph, [0], method="johnson")
    assert_negative_cycle(graph, caught.value.cycle)


def test_helsinki_matches_scipy(datasets_dir):
    graph = load_dataset("helsinki-osm-drive.gr.gz")
    assert_distances_equal(run(graph, predecessors=False).distances, scipy_johnson(graph), graph)
