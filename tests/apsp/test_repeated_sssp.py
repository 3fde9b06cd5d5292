"""warpath's repeated-SSSP (APSP and multi-source) against scipy.sparse.csgraph."""

import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_negative_cycle,
                              assert_shortest_path_tree, edge_list_graphs, graphs,
                              load_dataset, min_arc_weights, reaches_negative_cycle, scipy_graph)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.sssp.dijkstra import heap_layout, prepare


def assert_matrix(graph, matrix, expected):
    assert_distances_equal(matrix.distances, expected, graph)
    lightest = min_arc_weights(graph)
    for row, source in enumerate(matrix.sources):
        assert_shortest_path_tree(graph, int(source), matrix.distances[row],
                                  matrix.predecessors[row], lightest)


@settings(max_examples=100, deadline=None)
@given(graphs(max_vertices=25))
def test_apsp_matches_scipy_dijkstra(graph):
    matrix = warpath.apsp(graph, method="repeated-sssp", device="cpu")
    assert_matrix(graph, matrix, csgraph.dijkstra(scipy_graph(graph)))
    reached = np.isfinite(matrix.distances)
    if heap_layout(prepare(graph)[4]) == "packed":
        assert matrix.stats["iterations"] == reached.sum()
    else:  # rounded heap keys may scan a vertex again (warpath.sssp.dijkstra)
        assert matrix.stats["iterations"] >= reached.sum()


@settings(max_examples=80, deadline=None)
@given(graphs(negative=True, max_vertices=25))
def test_apsp_negative_weights_match_scipy_bellman_ford(graph):
    matrix = warpath.apsp(graph, method="repeated-sssp", device="cpu")
    assert_matrix(graph, matrix, csgraph.bellman_ford(scipy_graph(graph)))


@settings(max_examples=100, deadline=None)
@given(graphs(), st.data())
def test_multi_source_matches_scipy(graph, data):
    sources = data.draw(st.lists(st.integers(0, graph.num_vertices - 1), min_size=1,
                                 max_size=6))
    matrix = warpath.multi_source(graph, sources, device="cpu")  # auto: repeated-sssp on the CPU
    assert matrix.stats["method"] == "repeated-sssp"
    assert matrix.sources.tolist() == sources
    assert_matrix(graph, matrix, csgraph.dijkstra(scipy_graph(graph), indices=sources))


@settings(max_examples=80, deadline=None)
@given(edge_list_graphs(max_vertices=9, min_weight=-4, max_weight=10), st.data())
def test_multi_source_raises_only_for_reachable_cycles(graph, data):
    sources = data.draw(st.lists(st.integers(0, graph.num_vertices - 1), min_size=1,
                                 max_size=3))
    if any(reaches_negative_cycle(graph, s) for s in sources):
        with pytest.raises(warpath.NegativeCycleError) as caught:
            warpath.multi_source(graph, sources, method="repeated-sssp", device="cpu")
        assert_negative_cycle(graph, caught.value.cycle)
    else:
        matrix = warpath.multi_source(graph, sources, method="repeated-sssp", device="cpu")
        assert_matrix(graph, matrix, csgraph.bellman_ford(scipy_graph(graph), indices=sources))


def test_duplicate_sources_give_equal_rows():
    g = warpath.generators.grid(3, 4, seed=0)
    matrix = warpath.multi_source(g, [5, 5, 0], method="repeated-sssp", device="cpu")
    assert np.array_equal(matrix.distances[0], matrix.distances[1])
    assert matrix.path(5, 0).tolist()[0] == 5


def test_methods_registered():
    names = {m.name: m for m in warpath.methods.available("multi_source", "cpu")}
    assert names["repeated-sssp"].auto_rank == 0
    ranks = {m.name: m.auto_rank for m in warpath.methods.available("apsp", "cpu")}
    assert ranks["johnson"] < ranks["floyd-warshall"] < ranks["repeated-sssp"]


def test_real_graphs(datasets_dir):
    for name in ("helsinki-osm-drive.gr.gz", "facebook_combined.txt.gz"):
        graph = load_dataset(name)
        sources = [0, graph.num_vertices // 2, graph.num_vertices - 1]
        matrix = warpath.multi_source(graph, sources, method="repeated-sssp", device="cpu")
        assert_matrix(graph, matrix, csgraph.dijkstra(scipy_graph(graph), indices=sources))
