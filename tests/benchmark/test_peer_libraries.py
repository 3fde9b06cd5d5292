"""Each installed peer gives scipy's answer; BFS levels from parent arrays are right."""

import numpy as np
import pytest
from scipy.sparse import csgraph

import warpath
from warpath.benchmark.peers import PEERS, levels_from_parents, peer_status, skip_reason


@pytest.fixture(scope="module")
def graph():
    return warpath.generators.random(150, 700, seed=5)


@pytest.mark.parametrize("name, problem", [(name, problem) for name, peer in sorted(PEERS.items())
                                           for problem in peer.problems])
def test_peer_matches_scipy(graph, name, problem):
    peer = PEERS[name]
    available, reason = peer_status(name)
    if not available:
        assert "not installed" in reason and "pip install" in reason
        pytest.skip(reason)
    sources = {"sssp": 7, "bfs": 7, "multi_source": np.array([7, 9]),
               "apsp": np.arange(graph.num_vertices)}[problem]
    matrix = graph.to_scipy()
    expected = csgraph.dijkstra(matrix, indices=None if problem == "apsp" else sources,
                                unweighted=problem == "bfs")
    raw = peer.solve(peer.prepare(graph), graph, sources, problem)
    assert np.array_equal(peer.to_distances(raw, graph, sources), expected)


def test_levels_from_parents_match_bfs():
    graph = warpath.generators.rmat(9, 4, seed=3)
    order, parents = csgraph.breadth_first_order(graph.to_scipy(), 5, directed=True)
    expected = csgraph.dijkstra(graph.to_scipy(), indices=5, unweighted=True)
    assert np.array_equal(levels_from_parents(parents, 5), expected)


def test_skip_reasons():
    negative = warpath.generators.with_negative_weights(warpath.generators.random(30, 90, seed=1),
                                                        seed=1)
    assert "negative weights" in skip_reason(PEERS["scipy-dijkstra"], negative, "sssp")
    assert skip_reason(PEERS["scipy-johnson"], negative, "sssp") is None
    assert "does not solve bfs" in skip_reason(PEERS["scipy-dijkstra"], negative, "bfs")
