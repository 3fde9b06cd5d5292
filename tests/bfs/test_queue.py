"""warpath's CPU queue BFS against scipy.sparse.csgraph (unweighted shortest paths, BFS order)."""

import networkx as nx
import numpy as np
import pytest
from graph_strategies import graphs, load_dataset, min_arc_weights, scipy_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.traversal import bfs_levels


def run(graph, source, **options):
    return warpath.bfs(graph, source, method="queue", device="cpu", **options)


def scipy_levels(graph, source):
    hops = csgraph.shortest_path(abs(scipy_graph(graph)), unweighted=True, indices=source)
    return np.where(np.isinf(hops), -1, hops).astype(np.int64)


def assert_bfs_tree(graph, source, levels, parents):
    arcs = min_arc_weights(graph)
    assert parents[source] == -1
    for v in range(graph.num_vertices):
        if v == source:
            continue
        if levels[v] < 0:
            assert parents[v] == -1
        else:
            p = int(parents[v])
            assert (p, v) in arcs and levels[p] == levels[v] - 1


@settings(max_examples=200, deadline=None)
@given(graphs(negative=False), st.data())
def test_levels_match_scipy(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    expected = scipy_levels(graph, source)
    np.testing.assert_array_equal(result.levels, expected)
    assert_bfs_tree(graph, source, result.levels, result.parents)
    reached = result.levels >= 0
    order = csgraph.breadth_first_order(scipy_graph(graph), source, return_predecessors=False)
    assert set(order.tolist()) == set(np.flatnonzero(reached).tolist())
    assert result.stats["iterations"] == result.levels.max() + 1  # frontiers expanded
    assert result.stats["relaxations"] == graph.out_degrees()[reached].sum()
    np.testing.assert_array_equal(bfs_levels(graph.indptr, graph.indices, source), expected)


@settings(max_examples=80, deadline=None)
@given(graphs(), st.data())
def test_limit_stops_at_that_level(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    limit = data.draw(st.integers(0, 6))
    result = run(graph, source, limit=limit)
    full = scipy_levels(graph, source)
    np.testing.assert_array_equal(result.levels, np.where(full > limit, -1, full))
    assert_bfs_tree(graph, source, result.levels, result.parents)


@settings(max_examples=40, deadline=None)
@given(graphs(max_vertices=20), st.data())
def test_paths_match_networkx(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    expected = nx.single_source_shortest_path_length(graph.to_networkx(), source)
    for target in range(graph.num_vertices):
        path = result.path(target).tolist()
        if target in expected:
            assert len(path) == expected[target] + 1 and path[0] == source
            assert path[-1] == target
        else:
            assert path == [] and result.levels[target] == -1


def test_fractional_limit_and_no_parents():
    g = warpath.generators.ring(6, seed=0)
    result = run(g, 0, limit=2.7, predecessors=False)
    assert result.levels.tolist() == [0, 1, 2, -1, -1, -1]
    assert result.parents is None


def test_weights_are_ignored():
    g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 100, 1])
    assert run(g, 0).levels.tolist() == [0, 1, 1]


@settings(max_examples=60, deadline=None)
@given(graphs(negative=True), st.data())
def test_negative_weights_are_traversed_like_any_other(graph, data):
    """Issue 16: BFS ignores weights, so method="auto" takes graphs with negative ones too."""
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    levels = warpath.bfs(graph, source).levels
    hops = csgraph.shortest_path(abs(scipy_graph(graph)), unweighted=True, indices=source)
    assert np.array_equal(levels, np.where(np.isfinite(hops), hops, -1).astype(np.int64))


def test_errors():
    g = warpath.Graph.from_edges([0], [1])
    with pytest.raises(warpath.SourceError):
        run(g, 2)
    with pytest.raises(warpath.EmptyGraphError):
        run(warpath.Graph([0], []), 0)


def test_facebook_matches_scipy(datasets_dir):
    graph = load_dataset("facebook_combined.txt.gz")
    for source in (0, 107, 4038):
        result = run(graph, source)
        np.testing.assert_array_equal(result.levels, scipy_levels(graph, source))
        assert_bfs_tree(graph, source, result.levels, result.parents)


def test_helsinki_matches_scipy(datasets_dir):
    graph = load_dataset("helsinki-osm-drive.gr.gz")
    for source in (0, 700):
        np.testing.assert_array_equal(run(graph, source).levels, scipy_levels(graph, source))
