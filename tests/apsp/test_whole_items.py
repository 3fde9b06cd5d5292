"""task-parallel over whole items (``whole_items=True``) against scipy.sparse.csgraph."""

import numpy as np
import pytest
from apsp._gpu_checks import assert_gpu_stats, assert_rows, scipy_rows
from graph_strategies import assert_negative_cycle
from sssp._gpu_reference import negative_cycle_graphs, small_graphs

import warpath
from warpath import generators as gen

GRAPHS = small_graphs()
IDS = [name for name, _ in GRAPHS]
#: Ten sources in launches of one group of four: three launches, the last one partial.
SOURCES = [0, 3, 1, 7, 2, 9, 4, 8, 6, 5]


def run(graph, sources=None, **options):
    if sources is None:
        return warpath.apsp(graph, method="task-parallel", device="cuda", whole_items=True,
                            **options)
    return warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                whole_items=True, **options)


@pytest.mark.parametrize("name,graph", GRAPHS, ids=IDS)
def test_apsp_matches_scipy_with_paths(name, graph):
    matrix = run(graph)
    assert_rows(graph, matrix)
    assert_gpu_stats(matrix, "task-parallel")
    assert matrix.stats["whole_items"] and not matrix.stats["near_far"]
    assert not matrix.stats["spread"]


@pytest.mark.parametrize("name, predecessors, loop, deliver", [
    ("random-int", True, "fast", "host"), ("disconnected", False, "paper", "device"),
    ("negative", True, "paper", "device"), ("zero-cycles", True, "fast", "device"),
    ("random-float-undirected", False, "fast", "host"), ("complete", True, "fast", "host"),
])
def test_several_launches(name, predecessors, loop, deliver):
    graph = dict(GRAPHS)[name]
    sources = [s % graph.num_vertices for s in SOURCES]
    matrix = run(graph, sources, predecessors=predecessors, loop=loop, deliver=deliver,
                 group=4, launch_groups=1)
    assert matrix.sources.tolist() == sources
    assert_rows(graph, matrix, predecessors=predecessors)
    assert matrix.stats["batches"] == 3 and matrix.stats["launch_width"] == 4


def test_two_items_a_vertex():
    # 40 rows in one launch: rows 0-31 are a vertex's first item, 32-39 its second
    graph = gen.random(30, 120, seed=11)
    sources = [i % 30 for i in range(40)]
    matrix = run(graph, sources, group=20, launch_groups=2, predecessors=False)
    assert matrix.stats["launch_width"] == 40 and matrix.stats["batches"] == 1
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))


def test_the_same_rows_as_items_of_lane_bits_and_every_row_relaxes():
    graph = gen.random(60, 300, seed=12)
    sources = np.arange(0, 60, 3)
    whole = run(graph, sources, predecessors=False)
    bits = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                predecessors=False, item_rows=32, near_far=False)
    np.testing.assert_array_equal(whole.distances, bits.distances)
    # a queued item relaxes its reached rows whether their bit would be set or not
    assert whole.stats["relaxations"] > bits.stats["relaxations"]


@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[n for n, _ in negative_cycle_graphs()])
def test_a_reachable_negative_cycle_raises_with_the_cycle(name, graph):
    with pytest.raises(warpath.NegativeCycleError) as caught:
        run(graph, [0])
    assert_negative_cycle(graph, caught.value.cycle)


def test_johnson_takes_whole_items():
    graph = gen.with_negative_weights(gen.grid(5, 5, seed=15), seed=16)
    sources = np.arange(0, 25, 2)
    matrix = warpath.multi_source(graph, sources, method="johnson", device="cuda",
                                  whole_items=True, predecessors=False, group=4,
                                  launch_groups=1)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))
    assert matrix.stats["whole_items"] and matrix.stats["batches"] > 1


@pytest.mark.parametrize("options, message", [
    ({"near_far": True}, "no near-far buckets"),
    ({"item_rows": 16}, "items of 32 rows"),
    ({"frontier": False}, "needs frontier=True"),
    ({"delta": 5}, "so no delta"),
])
def test_options_it_cannot_take_are_refused_by_name(options, message):
    with pytest.raises(warpath.OptionError, match=message):
        run(gen.ring(4, seed=0), **options)


def test_a_value_that_is_not_a_bool_is_refused():
    with pytest.raises(warpath.OptionError, match="whole_items must be True or False"):
        warpath.multi_source(gen.ring(4, seed=0), [0], method="task-parallel",
                             device="cuda", whole_items="yes")


@pytest.mark.gpu
def test_larger_graphs_on_the_gpu():
    for graph in (gen.random(4000, 24000, seed=1), gen.rmat(12, 8, seed=2),
                  gen.grid(50, 50, seed=3), gen.ring(900, seed=4),
                  gen.random(2000, 12000, seed=8, weights="float"),
                  gen.with_negative_weights(gen.grid(30, 30, seed=9), seed=10),
                  gen.complete(70, seed=7)):
        sources = np.arange(0, graph.num_vertices, 7)
        expected = scipy_rows(graph, sources)
        for options in ({}, {"launch_groups": 3}, {"loop": "paper"}):
            matrix = run(graph, sources, predecessors=False, **options)
            np.testing.assert_array_equal(matrix.distances, expected, err_msg=str(options))
        assert_rows(graph, run(graph, sources[:40]))
