"""warpath's blocked Floyd-Warshall against scipy.sparse.csgraph.floyd_warshall."""

import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_negative_cycle, assert_path,
                              assert_shortest_path_tree, edge_list_graphs, graphs,
                              load_dataset, min_arc_weights, scipy_graph)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.apsp.floyd_warshall import floyd_warshall


def run(graph, **options):
    return warpath.apsp(graph, method="floyd-warshall", device="cpu", **options)


def scipy_has_negative_cycle(graph):
    # scipy's floyd_warshall zeroes the diagonal, so it misses negative self-loops
    if np.any((graph.tails() == graph.indices) & (graph.weights < 0)):
        return True
    try:
        csgraph.floyd_warshall(scipy_graph(graph))
    except csgraph.NegativeCycleError:
        return True
    return False


def assert_matrix(graph, matrix, expected):
    assert_distances_equal(matrix.distances, expected, graph)
    lightest = min_arc_weights(graph)
    for source in range(graph.num_vertices):
        assert_shortest_path_tree(graph, source, matrix.distances[source],
                                  matrix.predecessors[source], lightest)


@settings(max_examples=120, deadline=None)
@given(graphs(max_vertices=25), st.integers(1, 9))
def test_matches_scipy(graph, tile):
    # small tiles cut even these graphs into many blocks, ragged at the edge
    matrix = run(graph, tile=tile)
    assert_matrix(graph, matrix, csgraph.floyd_warshall(scipy_graph(graph)))


@settings(max_examples=80, deadline=None)
@given(graphs(negative=True, max_vertices=25), st.integers(2, 9))
def test_negative_weights_match_scipy(graph, tile):
    matrix = run(graph, tile=tile)
    assert_matrix(graph, matrix, csgraph.floyd_warshall(scipy_graph(graph)))


@settings(max_examples=80, deadline=None)
@given(edge_list_graphs(max_vertices=9, min_weight=-4, max_weight=10))
def test_signed_graphs_raise_exactly_when_scipy_does(graph):
    if scipy_has_negative_cycle(graph):
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph, tile=3)
        assert_negative_cycle(graph, caught.value.cycle)
    else:
        assert_matrix(graph, run(graph, tile=3), csgraph.floyd_warshall(scipy_graph(graph)))


@settings(max_examples=40, deadline=None)
@given(graphs(negative_cycle=True, max_vertices=20))
def test_planted_negative_cycle(graph):
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(graph)
    assert_negative_cycle(graph, caught.value.cycle)


def test_paths_and_rows():
    g = warpath.generators.random(70, 300, seed=8, weights="float")
    matrix = run(g, tile=16)
    lightest = min_arc_weights(g)
    for s, t in [(0, 69), (5, 5), (33, 12), (69, 0)]:
        assert_path(g, matrix.path(s, t), s, t, matrix.distances[s, t], lightest)
    assert np.array_equal(matrix.row(33).distances, matrix.distances[33])


def test_predecessors_false_and_direct_call():
    g = warpath.generators.complete(10, seed=1)
    matrix = run(g, predecessors=False)
    assert matrix.predecessors is None
    direct = floyd_warshall(g, np.arange(10))
    assert np.array_equal(direct.distances, matrix.distances)


def test_memory_guard_counts_the_predecessor_matrix_it_keeps(monkeypatch):
    from warpath.apsp import memory

    g = warpath.generators.ring(20, seed=0)
    needed = memory.estimate(g, method="floyd-warshall", device="cpu", predecessors=False)
    assert needed.host_bytes >= 20 * 20 * 16   # distances and predecessors while it runs
    monkeypatch.setattr(memory, "available_memory", lambda: needed.host_bytes - 1)
    with pytest.raises(warpath.MemoryLimitError, match="GiB"):
        warpath.apsp(g, method="floyd-warshall", device="cpu", predecessors=False)


def test_helsinki_matches_scipy(datasets_dir):
    graph = load_dataset("helsinki-osm-drive.gr.gz")
    matrix = run(graph, predecessors=False)
    assert_distances_equal(matrix.distances, csgraph.floyd_warshall(scipy_graph(graph)), graph)
