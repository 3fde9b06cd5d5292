"""johnson on the GPU (GPU potentials, GPU reweighting, task-parallel rows) against scipy."""

import numpy as np
import pytest
from apsp._gpu_checks import assert_gpu_stats, assert_rows, scipy_rows
from graph_strategies import assert_negative_cycle, edge_list_graphs, scipy_graph
from hypothesis import given, settings
from numba import cuda
from scipy.sparse import csgraph
from sssp._gpu_reference import negative_cycle_graphs, small_graphs

import warpath
from warpath import generators as gen
from warpath.apsp.gpu_johnson import reweighted, with_virtual_source
from warpath.cuda.counters import RunTally
from warpath.cuda.device_graph import device_graph

GRAPHS = dict(small_graphs())


def run(graph, **options):
    return warpath.apsp(graph, method="johnson", device="cuda", **options)


@pytest.mark.parametrize("name", ["negative", "negative-grid", "negative-zero-cycle",
                                  "random-int", "int64-wide"])
def test_apsp_matches_scipy_johnson(name):
    graph = GRAPHS[name]
    matrix = run(graph)
    assert_rows(graph, matrix, expected=csgraph.johnson(scipy_graph(graph)))
    assert_gpu_stats(matrix, "johnson")
    assert ("potentials" in matrix.stats) == graph.has_negative_weights


def test_negative_float_weights_and_several_launches():
    graph = gen.with_negative_weights(gen.random(20, 70, seed=3, weights="float"), seed=4)
    heard = []
    matrix = warpath.multi_source(graph, [5, 0, 19, 7, 3], method="johnson", device="cuda",
                                  group=2, launch_groups=1, potentials="edge-bf",
                                  progress=lambda done, total: heard.append(done))
    assert_rows(graph, matrix)
    assert heard == [2, 4, 5] and matrix.stats["potentials"] == "edge-bf"


@settings(max_examples=10, deadline=None)
@given(edge_list_graphs(max_vertices=8, min_weight=-4, max_weight=10))
def test_any_negative_cycle_raises_else_scipy_s_rows(graph):
    try:
        expected = scipy_rows(graph)
    except csgraph.NegativeCycleError:
        with pytest.raises(warpath.NegativeCycleError) as caught:
            run(graph)
        assert_negative_cycle(graph, caught.value.cycle)
        return
    assert_rows(graph, run(graph), expected=expected)


def test_a_cycle_the_sources_do_not_reach_raises_too():
    name, graph = negative_cycle_graphs()[0]
    unreached = warpath.Graph.from_edges(np.append(graph.tails() + 1, 0),
                                         np.append(graph.indices + 1, 0),
                                         np.append(graph.weights, 1), num_vertices=graph.num_vertices + 1)
    with pytest.raises(warpath.NegativeCycleError) as caught:
        warpath.multi_source(unreached, [0], method="johnson", device="cuda")
    assert_negative_cycle(unreached, caught.value.cycle)


def test_reweighting_gives_non_negative_weights_that_keep_shortest_paths():
    graph = GRAPHS["negative"]
    h = csgraph.bellman_ford(scipy_graph(with_virtual_source(graph)),
                             indices=graph.num_vertices)[:-1].astype(np.int64)
    positive = reweighted(device_graph(graph), cuda.to_device(h), RunTally())
    w = positive.weights.copy_to_host()
    expected = graph.weights + h[graph.tails()] - h[graph.indices]
    assert w.tolist() == expected.tolist() and w.min() >= 0 and positive.max_abs_weight == w.max()


def test_virtual_source_reaches_every_vertex_at_zero():
    graph = GRAPHS["disconnected"]
    virtual = with_virtual_source(graph)
    assert virtual.num_vertices == graph.num_vertices + 1
    assert virtual.neighbors(graph.num_vertices).tolist() == list(range(graph.num_vertices))
    assert (virtual.edge_weights(graph.num_vertices) == 0).all()


@pytest.mark.parametrize("potentials", ["dijkstra", "bfs", None])
def test_potentials_must_name_a_gpu_method_for_negative_weights(potentials):
    with pytest.raises(warpath.OptionError, match="potentials must name"):
        run(GRAPHS["negative-zero-cycle"], potentials=potentials)
