"""The entry points: validation, dispatch, stats (method behaviour is tested per method)."""

import dataclasses

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra as scipy_dijkstra

import warpath
from warpath import device as device_module
from warpath import (EmptyGraphError, Graph, GraphError, MethodNotAvailable, NegativeWeightError,
                     SourceError)

TRIANGLE = Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])


def test_sssp_defaults_and_stats():
    r = warpath.sssp(TRIANGLE, 0)
    assert r.distances.tolist() == [0.0, 1.0, 2.0]
    for key in ("method", "device", "seconds", "iterations", "relaxations"):
        assert key in r.stats
    expected_device = "cuda" if warpath.gpu_available() and not device_module.simulated() else "cpu"
    assert r.stats["device"] == expected_device
    cpu = warpath.sssp(TRIANGLE, 0, device="cpu")
    assert cpu.stats["device"] == "cpu" and cpu.stats["method"] == "dijkstra"


def test_auto_picks_bellman_ford_for_negative_weights():
    g = Graph.from_edges([0, 1, 0], [1, 2, 2], [4, -3, 2])
    r = warpath.sssp(g, 0, device="cpu")
    assert r.distances.tolist() == [0.0, 4.0, 1.0] and r.stats["method"] == "bellman-ford"


def test_auto_on_a_gpu_machine_picks_a_gpu_method_unless_only_the_cpu_can(monkeypatch):
    monkeypatch.setattr(device_module, "_real_gpu", lambda: True)
    r = warpath.sssp(TRIANGLE, 0)
    assert r.stats["device"] == "cuda" and r.distances.tolist() == [0.0, 1.0, 2.0]
    # hbf takes limit= on the GPU; without a GPU method that does, auto would fall back to the CPU
    limited = warpath.sssp(TRIANGLE, 0, limit=1)
    assert limited.stats["method"] == "hbf" and limited.distances.tolist() == [0.0, 1.0, np.inf]
    hbf = warpath.methods.find("sssp", "hbf", "cuda")
    monkeypatch.setitem(warpath.methods._REGISTRY, ("sssp", "hbf", "cuda"),
                        dataclasses.replace(hbf, limit=False))
    assert warpath.sssp(TRIANGLE, 0, limit=1).stats["device"] == "cpu"
    # BFS has GPU methods (and ignores the weights), and so have APSP and multi-source:
    # Floyd-Warshall for a dense graph, task-parallel for a sparse one
    assert warpath.bfs(TRIANGLE, 0).stats["device"] == "cuda"
    assert warpath.bfs(TRIANGLE, sources=[0, 1]).stats["method"] == "multi-source"
    dense = warpath.methods.resolve("apsp", TRIANGLE)
    assert (dense.name, dense.device) == ("floyd-warshall", "cuda")
    assert warpath.apsp(warpath.generators.ring(40, seed=0)).stats["method"] == "task-parallel"
    assert warpath.multi_source(TRIANGLE, [1]).stats["device"] == "cuda"
    with pytest.raises(MethodNotAvailable, match="limit"):
        warpath.sssp(TRIANGLE, 0, limit=1, device="cuda")


def test_dijkstra_with_negative_weights_names_bellman_ford():
    g = Graph.from_edges([0], [1], [-1])
    with pytest.raises(NegativeWeightError, match="bellman-ford"):
        warpath.sssp(g, 0, method="dijkstra")


@pytest.mark.parametrize("source", [-1, 3, 1.5, "a", None])
def test_bad_sources(source):
    with pytest.raises(SourceError):
        warpath.sssp(TRIANGLE, source)
    with pytest.raises(SourceError):
        warpath.bfs(TRIANGLE, source)


def test_numpy_integer_source_is_accepted():
    assert warpath.sssp(TRIANGLE, np.int64(1)).source == 1


def test_empty_graph_is_an_error():
    with pytest.raises(EmptyGraphError):
        warpath.sssp(Graph([0], []), 0)
    with pytest.raises(EmptyGraphError):
        warpath.apsp(Graph([0], []))


def test_unknown_method_device_and_option():
    with pytest.raises(MethodNotAvailable, match="available"):
        warpath.sssp(TRIANGLE, 0, method="teleport")
    with pytest.raises(MethodNotAvailable):
        warpath.sssp(TRIANGLE, 0, method="queue")  # a bfs method, not an sssp one
    with pytest.raises(ValueError, match="device"):
        warpath.sssp(TRIANGLE, 0, device="quantum")
    with pytest.raises(TypeError, match="no option"):
        warpath.sssp(TRIANGLE, 0, method="dijkstra", warp_size=64)


def test_limit_is_validated():
    with pytest.raises(ValueError, match="non-negative"):
        warpath.sssp(TRIANGLE, 0, method="dijkstra", limit=-1)
    r = warpath.sssp(TRIANGLE, 0, method="dijkstra", limit=1)
    assert r.distances.tolist() == [0.0, 1.0, np.inf]


def test_scipy_and_networkx_inputs():
    m = sp.random_array((30, 30), density=0.1, random_state=5, format="csr") * 10
    expected = scipy_dijkstra(m, indices=0)
    assert np.allclose(warpath.sssp(m, 0).distances, expected)
    nxg = nx.gnp_random_graph(20, 0.2, seed=1, directed=True)
    r = warpath.sssp(nxg, 0)
    lengths = nx.single_source_shortest_path_length(nxg, 0)
    for v, length in lengths.items():
        assert r.distances[v] == length
    with pytest.raises(GraphError, match="expected a warpath.Graph"):
        warpath.sssp([[0, 1], [1, 0]], 0)


def test_multi_source_rows_match_single_source_runs():
    rng = np.random.default_rng(2)
    g = Graph.from_edges(rng.integers(0, 40, 150), rng.integers(0, 40, 150),
                         rng.integers(1, 20, 150), num_vertices=40)
    sources = [5, 0, 5, 39]
    m = warpath.multi_source(g, sources)
    assert m.distances.shape == (4, 40)
    for i, s in enumerate(sources):
        assert np.array_equal(m.distances[i], warpath.sssp(g, s).distances)
    with pytest.raises(SourceError):
        warpath.multi_source(g, [])
    with pytest.raises(SourceError):
        warpath.multi_source(g, [0, 40])


def test_apsp_matches_scipy():
    rng = np.random.default_rng(4)
    g = Graph.from_edges(rng.integers(0, 25, 90), rng.integers(0, 25, 90),
                         rng.integers(1, 9, 90), num_vertices=25)
    expected = scipy_dijkstra(g.to_scipy())
    for method in ("floyd-warshall", "johnson", "repeated-sssp"):
        assert np.array_equal(warpath.apsp(g, method=method).distances, expected), method


def test_bfs_from_several_sources_and_errors():
    g = warpath.generators.grid(4, 4, seed=3)
    m = warpath.bfs(g, sources=[0, 15, 0], device="cpu")
    assert isinstance(m, warpath.BFSMatrix) and m.levels.shape == (3, 16)
    for i, s in enumerate([0, 15, 0]):
        np.testing.assert_array_equal(m.levels[i], warpath.bfs(g, s, device="cpu").levels)
    assert m.stats["method"] == "queue" and m.stats["iterations"] == 3 * 7
    assert len(m.path(15, 0)) == 7
    for bad in ({"source": 0, "sources": [1]}, {}):
        with pytest.raises(SourceError, match="sources"):
            warpath.bfs(g, **bad)
    with pytest.raises(SourceError):
        warpath.bfs(g, sources=[])
    with pytest.raises(SourceError):
        warpath.bfs(g, sources=[0, 16])


def test_bfs_ignores_negative_weights():
    g = Graph.from_edges([0, 1], [1, 2], [-5, 3])
    assert warpath.bfs(g, 0, device="cpu").levels.tolist() == [0, 1, 2]
