"""repeated-sssp on the GPU (one GPU SSSP per source) against scipy, simulator or GPU."""

import numpy as np
import pytest
from apsp._gpu_checks import assert_gpu_stats, assert_rows
from graph_strategies import assert_negative_cycle
from sssp._gpu_reference import negative_cycle_graphs, small_graphs

import warpath
from warpath import generators as gen

GRAPHS = dict(small_graphs())


def run(graph, sources, **options):
    return warpath.multi_source(graph, sources, method="repeated-sssp", device="cuda", **options)


@pytest.mark.parametrize("predecessors", [True, False])
@pytest.mark.parametrize("name", ["random-int", "disconnected", "negative", "zero-cycles",
                                  "random-float-undirected", "float32"])
def test_rows_match_scipy(name, predecessors):
    graph = GRAPHS[name]
    heard = []
    matrix = run(graph, [0, 4, 2], predecessors=predecessors,
                 progress=lambda done, total: heard.append((done, total)))
    assert_rows(graph, matrix, predecessors=predecessors)
    assert_gpu_stats(matrix, "repeated-sssp")
    assert matrix.stats["sssp"] == "hbf" and heard[-1] == (3, 3)


def test_apsp_with_another_sssp_method():
    graph = gen.grid(3, 3, seed=2)
    matrix = warpath.apsp(graph, method="repeated-sssp", device="cuda", sssp="edge-bf-flags")
    assert_rows(graph, matrix)
    assert matrix.stats["sssp"] == "edge-bf-flags"
    assert matrix._arrays._raw().dtype == np.int32


def test_a_reachable_negative_cycle_raises_with_the_cycle():
    name, graph = negative_cycle_graphs()[0]
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(graph, [0])
    assert_negative_cycle(graph, caught.value.cycle)


@pytest.mark.parametrize("sssp", ["dijkstra", "no-such-method", 3])
def test_sssp_must_name_a_gpu_sssp_method(sssp):
    with pytest.raises(warpath.OptionError, match="sssp must name a GPU SSSP method"):
        run(gen.ring(4, seed=0), [0], sssp=sssp)
