"""harish (Harish & Narayanan two-kernel method) against scipy, simulator or GPU."""

import numpy as np
import pytest

import warpath
from sssp._gpu_reference import (LOOPS, assert_matches_reference, assert_negative_cycle,
                                 negative_cycle_graphs, small_graphs)

GRAPHS = small_graphs()


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(loop, name, graph):
    result = warpath.sssp(graph, 0, method="harish", device="cuda", loop=loop)
    assert_matches_reference(graph, 0, result)


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[name for name, _ in negative_cycle_graphs()])
def test_negative_cycle(loop, name, graph):
    with pytest.raises(warpath.NegativeCycleError) as info:
        warpath.sssp(graph, 0, method="harish", device="cuda", loop=loop)
    assert_negative_cycle(graph, info.value)


def test_both_loops_do_the_same_rounds():
    """The fast loop's queue holds exactly the paper's mask, so rounds and relaxations agree."""
    g = warpath.generators.grid(5, 5, seed=2)
    paper = warpath.sssp(g, 0, method="harish", device="cuda", loop="paper")
    fast = warpath.sssp(g, 0, method="harish", device="cuda", loop="fast")
    assert paper.stats["iterations"] == fast.stats["iterations"]
    assert paper.stats["relaxations"] == fast.stats["relaxations"]
    assert paper.stats["launches"] > fast.stats["launches"]
    np.testing.assert_array_equal(paper.distances, fast.distances)


def test_device_graph_from_gpu_arrays():
    from numba import cuda

    from warpath.cuda.device_graph import DeviceGraph

    g = warpath.generators.random(20, 60, seed=6)
    dg = DeviceGraph.from_cuda_arrays(cuda.to_device(g.indptr), cuda.to_device(g.indices),
                                      cuda.to_device(g.weights))
    result = warpath.sssp(dg, 0, method="harish")
    assert result.stats["device"] == "cuda"
    assert_matches_reference(g, 0, result)
    with pytest.raises(warpath.DeviceError):
        warpath.sssp(dg, 0, method="harish", device="cpu")


@pytest.mark.gpu
@pytest.mark.parametrize("loop", LOOPS)
def test_larger_graphs_on_gpu(loop):
    for g in (warpath.generators.grid(60, 60, seed=1),
              warpath.generators.power_law(20000, 6, 1000, seed=2),
              warpath.generators.with_negative_weights(warpath.generators.grid(30, 30, seed=3),
                                                       seed=4)):
        assert_matches_reference(g, 0, warpath.sssp(g, 0, method="harish", device="cuda",
                                                    loop=loop))
