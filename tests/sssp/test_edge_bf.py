"""edge-bf and edge-bf-flags (Agarwal & Dutta) against scipy, under the simulator or on a GPU."""

import numpy as np
import pytest

import warpath
from sssp._gpu_reference import (LOOPS, assert_matches_reference, assert_negative_cycle,
                                  negative_cycle_graphs, small_graphs)

METHODS = ("edge-bf", "edge-bf-flags")
GRAPHS = small_graphs()


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(method, loop, name, graph):
    result = warpath.sssp(graph, 0, method=method, device="cuda", loop=loop)
    assert_matches_reference(graph, 0, result)
    assert result.stats["loop"] == loop


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[name for name, _ in negative_cycle_graphs()])
def test_negative_cycle(method, loop, name, graph):
    with pytest.raises(warpath.NegativeCycleError) as info:
        warpath.sssp(graph, 0, method=method, device="cuda", loop=loop)
    assert_negative_cycle(graph, info.value)


def test_other_source_and_no_predecessors():
    g = warpath.generators.grid(4, 4, seed=3)
    result = warpath.sssp(g, 5, method="edge-bf-flags", device="cuda", predecessors=False)
    assert result.predecessors is None
    np.testing.assert_array_equal(result.distances,
                                  warpath.sssp(g, 5, method="dijkstra", device="cpu").distances)


def test_flags_relax_fewer_arcs_than_basic():
    g = warpath.generators.grid(5, 5, seed=4)
    basic = warpath.sssp(g, 0, method="edge-bf", device="cuda", loop="paper")
    flags = warpath.sssp(g, 0, method="edge-bf-flags", device="cuda", loop="paper")
    assert flags.stats["relaxations"] < basic.stats["relaxations"]
    # the paper loop launches RELAX + COPYFLAG per round and reads the flag each round
    assert flags.stats["launches"] >= 2 * flags.stats["iterations"]
    assert flags.stats["host_syncs"] >= flags.stats["iterations"]


def test_fast_loop_reads_back_a_constant_number_of_times():
    g = warpath.generators.ring(25, seed=5)
    fast = warpath.sssp(g, 0, method="edge-bf-flags", device="cuda", loop="fast")
    paper = warpath.sssp(g, 0, method="edge-bf-flags", device="cuda", loop="paper")
    assert fast.stats["host_syncs"] == 1  # the counters and the flags, in one read at the end
    # the paper loop reads the flag after every round, then the counters once
    assert paper.stats["host_syncs"] == paper.stats["iterations"] + 1


def test_bad_loop_option():
    with pytest.raises(ValueError, match="loop"):
        warpath.sssp(warpath.generators.ring(3, seed=0), 0, method="edge-bf", device="cuda",
                     loop="slow")


@pytest.mark.gpu
@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("method", METHODS)
def test_larger_graphs_on_gpu(method, loop):
    for g in (warpath.generators.grid(40, 50, seed=1),
              warpath.generators.rmat(12, 8, seed=2),
              warpath.generators.with_negative_weights(
                  warpath.generators.random(3000, 15000, seed=3), seed=4)):
        assert_matches_reference(g, 0, warpath.sssp(g, 0, method=method, device="cuda", loop=loop))
