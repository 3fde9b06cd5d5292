"""GPU Floyd-Warshall (both variants, DPX off) against scipy's floyd_warshall.

Under the CUDA simulator every thread is a Python thread: graphs stay tiny and tiles
small (4 or 8), with sizes that the tile does not divide, so padding and several
rounds of the three phases run.
"""

import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_negative_cycle,
                              assert_shortest_path_tree, min_arc_weights, scipy_graph)
from scipy.sparse import csgraph

import warpath
from warpath.cuda.runtime import SIMULATOR
from warpath.apsp.gpu_floyd_warshall import is_dense, matrix_dtype

pytestmark = pytest.mark.skipif(not warpath.gpu_available(), reason="needs numba-cuda")

VARIANTS = [{"variant": "blocked", "tile": 4}, {"variant": "blocked", "tile": 8},
            {"variant": "harish"}]


def run(graph, **options):
    options.setdefault("dpx", False)
    return warpath.apsp(graph, method="floyd-warshall", device="cuda", **options)


def graph_of(kind):
    if kind == "random":
        return warpath.generators.random(13, 40, seed=4)
    if kind == "dense":
        return warpath.generators.complete(9, seed=5, weights="float")
    if kind == "disconnected":
        left = warpath.generators.random(6, 14, seed=6)
        return warpath.Graph.from_edges(np.concatenate([left.tails(), left.tails() + 7]),
                                        np.concatenate([left.indices, left.indices + 7]),
                                        np.concatenate([left.weights, left.weights]),
                                        num_vertices=14)
    return warpath.generators.with_negative_weights(warpath.generators.random(11, 36, seed=7),
                                                    seed=7)


def assert_matrix(graph, matrix):
    expected = csgraph.floyd_warshall(scipy_graph(graph))
    assert_distances_equal(matrix.distances, expected, graph)
    lightest = min_arc_weights(graph)
    for source in range(graph.num_vertices):
        assert_shortest_path_tree(graph, source, matrix.distances[source],
                                  matrix.predecessors[source], lightest)


@pytest.mark.parametrize("kind", ["random", "dense", "disconnected", "negative"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_matches_scipy_with_paths(kind, options):
    graph = graph_of(kind)
    matrix = run(graph, **options)
    assert matrix.stats["device"] == "cuda" and matrix.stats["dpx"] is False
    assert_matrix(graph, matrix)


@pytest.mark.parametrize("options", VARIANTS[::2], ids=["blocked", "harish"])
def test_predecessors_off(options):
    graph = graph_of("negative")
    matrix = run(graph, predecessors=False, **options)
    assert matrix.predecessors is None
    assert_distances_equal(matrix.distances, csgraph.floyd_warshall(scipy_graph(graph)), graph)


@pytest.mark.parametrize("predecessors", [True, False])
@pytest.mark.parametrize("options", VARIANTS[::2], ids=["blocked", "harish"])
def test_negative_cycle_raises_with_a_cycle(options, predecessors):
    bad = warpath.generators.with_negative_cycle(warpath.generators.random(10, 30, seed=2),
                                                 seed=2)
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(bad, predecessors=predecessors, **options)
    assert_negative_cycle(bad, caught.value.cycle)


def test_negative_self_loop_is_a_cycle():
    g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 2], [1, 1, -1])
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(g, tile=4)
    assert caught.value.cycle == [2]


def test_int64_distances_for_long_paths():
    g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], np.array([2**40, 3, -2], dtype=np.int64))
    assert matrix_dtype(g) == np.int64
    matrix = run(g, tile=4)
    assert matrix.stats["distance_dtype"] == "int64"
    assert matrix.exact_distances[0].tolist() == [0, 2**40, 2**40 + 3]
    assert_matrix(g, matrix)


def test_dtype_and_out(tmp_path):
    graph = graph_of("disconnected")
    expected = csgraph.floyd_warshall(scipy_graph(graph))
    path = tmp_path / "d.npy"
    matrix = run(graph, tile=4, dtype="int32", out=path, predecessors=False)
    stored = np.load(path)
    assert stored.dtype == np.int32
    np.testing.assert_array_equal(np.where(np.isinf(expected), 2**31 - 1, expected), stored)
    halved = run(graph, tile=8, dtype="float32")
    np.testing.assert_array_equal(halved.distances, expected)
    assert halved._arrays._raw().dtype == np.float32


def test_progress_and_stats():
    graph = graph_of("random")
    heard = []
    matrix = run(graph, tile=4, progress=lambda done, total: heard.append((done, total)))
    assert heard == [(4, 13), (8, 13), (12, 13), (13, 13)]
    assert matrix.stats["iterations"] == 13 and matrix.stats["relaxations"] == 13 ** 3
    assert matrix.stats["tile"] == 4 and matrix.stats["variant"] == "blocked"


def test_auto_takes_it_for_dense_graphs():
    dense, sparse = warpath.generators.complete(6, seed=1), warpath.generators.ring(40, seed=0)
    assert is_dense(dense) and not is_dense(sparse)
    chosen = warpath.methods.resolve("apsp", dense, device="cuda")
    assert (chosen.name, chosen.device) == ("floyd-warshall", "cuda")


@pytest.mark.parametrize("options, match", [
    ({"variant": "nosuch"}, "variant must be one of"),
    ({"tile": 6}, "multiple of 4"),
    ({"tile": 128}, "at most 64 fits"),
    ({"dpx": "yes"}, "dpx must be"),
    pytest.param({"dpx": True}, "dpx=True cannot run here",
                 marks=pytest.mark.skipif(not SIMULATOR, reason="a real GPU may run DPX")),
])
def test_bad_options(options, match):
    with pytest.raises(warpath.OptionError, match=match):
        run(warpath.generators.complete(5, seed=0), **options)


def test_dpx_needs_int32():
    g = warpath.generators.complete(5, seed=0, weights="float")
    with pytest.raises(warpath.OptionError, match="needs int32 distances"):
        run(g, dpx=True)


def test_the_memory_rule_counts_gpu_bytes(monkeypatch):
    from warpath.apsp import memory

    g = warpath.generators.complete(100, seed=0)
    with_p = memory.estimate(g, method="floyd-warshall", device="cuda")
    without = memory.estimate(g, method="floyd-warshall", device="cuda", predecessors=False)
    assert without.gpu_bytes >= 128 * 128 * 4            # int32 distances, padded to the tile
    assert with_p.gpu_bytes - without.gpu_bytes == 128 * 128 * 4   # int32 predecessors
    monkeypatch.setattr(memory, "gpu_free_memory", lambda: with_p.gpu_bytes - 1)
    with pytest.raises(warpath.MemoryLimitError, match="of GPU memory"):
        warpath.apsp(g, method="floyd-warshall", device="cuda")
