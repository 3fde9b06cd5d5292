"""locality (Safari & Ebnenasir locality-based relaxation) against scipy, simulator or GPU."""

import numpy as np
import pytest

import warpath
from sssp._gpu_reference import (LOOPS, assert_matches_reference, assert_negative_cycle,
                                 negative_cycle_graphs, small_graphs)
from warpath.sssp.locality import launches_before_check

GRAPHS = small_graphs()


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(loop, name, graph):
    result = warpath.sssp(graph, 0, method="locality", device="cuda", loop=loop)
    assert_matches_reference(graph, 0, result)
    assert result.stats["k"] == 4 and result.stats["vertices_per_thread"] == 2


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[name for name, _ in negative_cycle_graphs()])
def test_negative_cycle(loop, name, graph):
    with pytest.raises(warpath.NegativeCycleError) as info:
        warpath.sssp(graph, 0, method="locality", device="cuda", loop=loop)
    assert_negative_cycle(graph, info.value)


@pytest.mark.parametrize("k,per_thread", [(1, 1), (2, 3), (7, 2)])
def test_other_k_and_vertices_per_thread(k, per_thread):
    g = warpath.generators.with_negative_weights(warpath.generators.grid(4, 6, seed=1), seed=2)
    result = warpath.sssp(g, 0, method="locality", device="cuda", k=k,
                          vertices_per_thread=per_thread)
    assert_matches_reference(g, 0, result)


def test_deeper_waves_need_fewer_rounds():
    g = warpath.generators.ring(30, seed=3)
    shallow = warpath.sssp(g, 0, method="locality", device="cuda", k=1)
    deep = warpath.sssp(g, 0, method="locality", device="cuda", k=6)
    assert deep.stats["iterations"] < shallow.stats["iterations"]


def test_paper_loop_launches_n_times_before_reading_back():
    g = warpath.generators.ring(40, seed=4)
    n_auto = launches_before_check(g, 4)
    assert n_auto == max(1, g.stats().approx_diameter // 8)
    result = warpath.sssp(g, 0, method="locality", device="cuda", loop="paper", launches=5)
    assert result.stats["launches_before_check"] == 5
    # launches = init + rounds (+ predecessor pass); host reads only from round 5 on
    assert result.stats["host_syncs"] <= result.stats["iterations"] - 5 + 2
    np.testing.assert_array_equal(
        result.distances, warpath.sssp(g, 0, method="dijkstra", device="cpu").distances)


@pytest.mark.parametrize("options", [{"k": 0}, {"k": 99}, {"vertices_per_thread": 0},
                                     {"launches": 0}, {"k": 2.5}])
def test_bad_options(options):
    with pytest.raises(ValueError):
        warpath.sssp(warpath.generators.ring(3, seed=0), 0, method="locality", device="cuda",
                     **options)


@pytest.mark.gpu
@pytest.mark.parametrize("loop", LOOPS)
def test_larger_graphs_on_gpu(loop):
    for g in (warpath.generators.grid(80, 80, seed=1),
              warpath.generators.rmat(12, 8, seed=2),
              warpath.generators.with_negative_weights(warpath.generators.grid(30, 30, seed=3),
                                                       seed=4)):
        assert_matches_reference(g, 0, warpath.sssp(g, 0, method="locality", device="cuda",
                                                    loop=loop))
