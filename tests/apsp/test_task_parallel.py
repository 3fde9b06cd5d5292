"""task-parallel (Okuyama, Ino & Hagihara) against scipy.sparse.csgraph, simulator or GPU."""

import numpy as np
import pytest
from apsp._gpu_checks import assert_gpu_stats, assert_rows, scipy_rows
from graph_strategies import assert_negative_cycle, graphs, scipy_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph
from sssp._gpu_reference import negative_cycle_graphs, small_graphs

import warpath
from warpath import generators as gen

GRAPHS = small_graphs()
IDS = [name for name, _ in GRAPHS]
#: Ten sources in launches of one group of four: three launches, the last one partial.
SOURCES = [0, 3, 1, 7, 2, 9, 4, 8, 6, 5]
SMALL_BATCHES = {"group": 4, "launch_groups": 1}


def run(graph, **options):
    return warpath.apsp(graph, method="task-parallel", device="cuda", **options)


@pytest.mark.parametrize("name,graph", GRAPHS, ids=IDS)
def test_apsp_matches_scipy_with_paths(name, graph):
    matrix = run(graph)
    assert_rows(graph, matrix)
    assert_gpu_stats(matrix, "task-parallel")
    assert matrix.stats["batches"] == 1 and matrix.stats["launch_width"] == graph.num_vertices


@pytest.mark.parametrize("loop, deliver", [("fast", "host"), ("paper", "device")])
@pytest.mark.parametrize("predecessors", [True, False])
@pytest.mark.parametrize("name", ["random-int", "disconnected", "negative", "zero-cycles",
                                  "random-float-undirected", "complete"])
def test_multi_source_in_several_launches(name, predecessors, loop, deliver):
    graph = dict(GRAPHS)[name]
    sources = [s % graph.num_vertices for s in SOURCES]
    heard = []
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  predecessors=predecessors, loop=loop, deliver=deliver,
                                  progress=lambda done, total: heard.append((done, total)),
                                  **SMALL_BATCHES)
    assert matrix.sources.tolist() == sources
    assert_rows(graph, matrix, predecessors=predecessors)
    assert matrix.stats["batches"] == 3 and matrix.stats["launch_width"] == 4
    assert heard == [(4, 10), (8, 10), (10, 10)]
    assert matrix.stats["loop"] == loop and matrix.stats["delivered"] == deliver
    assert (matrix.device_distances is None) == (deliver == "host")


def test_both_loops_agree_and_the_paper_loop_reads_the_flag_every_round():
    graph = gen.ring(12, seed=3)
    fast, paper = (run(graph, loop=loop, predecessors=False) for loop in ("fast", "paper"))
    np.testing.assert_array_equal(fast.distances, paper.distances)
    assert paper.stats["host_syncs"] >= paper.stats["iterations"] >= 2
    assert paper.stats["launches"] > paper.stats["iterations"]
    # start (d and words, the sources' lanes), the flags and counters cleared, rounds,
    # rows; one read of flags and counters.  The paper's sweep starts with one launch.
    assert fast.stats["host_syncs"] == 1 and fast.stats["launches"] == 5
    sweep = run(graph, loop="fast", predecessors=False, frontier=False)
    assert sweep.stats["host_syncs"] == 1 and sweep.stats["launches"] == 4


def test_duplicate_sources_give_equal_rows():
    graph = gen.random(15, 50, seed=4)
    matrix = warpath.multi_source(graph, [3, 3, 0, 3], method="task-parallel", device="cuda")
    assert_rows(graph, matrix)
    np.testing.assert_array_equal(matrix.distances[0], matrix.distances[3])


def test_integer_results_keep_the_gpu_type_and_wide_weights_are_exact():
    small = run(gen.grid(3, 3, seed=1), predecessors=False)
    assert small.stats["delivered"] == "device" and small.device_distances.dtype == np.int32
    assert small._arrays._raw().dtype == np.int32
    wide = dict(GRAPHS)["int64-wide"]
    matrix = run(wide)
    assert matrix._arrays._raw().dtype == np.int64
    assert_rows(wide, matrix)


@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[name for name, _ in negative_cycle_graphs()])
def test_a_reachable_negative_cycle_raises_with_the_cycle(name, graph):
    with pytest.raises(warpath.NegativeCycleError) as caught:
        warpath.multi_source(graph, [0], method="task-parallel", device="cuda")
    assert_negative_cycle(graph, caught.value.cycle)


def test_a_negative_cycle_in_a_later_launch_raises_and_one_out_of_reach_does_not():
    graph = warpath.Graph.from_edges([0, 1, 2, 3, 4, 5, 4], [1, 2, 0, 4, 5, 4, 0],
                                     [1, 1, 1, 2, -3, 1, 1])   # 4 <-> 5 weighs -2
    fine = warpath.multi_source(graph, [0, 1, 2], method="task-parallel", device="cuda",
                                group=2, launch_groups=1)
    assert_rows(graph, fine, expected=csgraph.bellman_ford(scipy_graph(graph), indices=[0, 1, 2]))
    with pytest.raises(warpath.NegativeCycleError) as caught:
        warpath.multi_source(graph, [0, 1, 3], method="task-parallel", device="cuda",
                             group=2, launch_groups=1)
    assert sorted(caught.value.cycle) == [4, 5]


@settings(max_examples=12, deadline=None)
@given(graphs(negative=True, max_vertices=12), st.data())
def test_random_graphs_with_negative_weights(graph, data):
    sources = data.draw(st.lists(st.integers(0, graph.num_vertices - 1), min_size=1,
                                 max_size=6))
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  group=2, launch_groups=2)
    assert_rows(graph, matrix)


def test_auto_takes_it_on_the_gpu_for_both_problems():
    graph = gen.random(200, 600, seed=5)   # sparse: Floyd-Warshall takes the dense ones
    negative = gen.with_negative_weights(graph, seed=5)
    for problem in ("apsp", "multi_source"):
        for g in (graph, negative):
            assert warpath.methods.resolve(problem, g, device="cuda").name == "task-parallel"


def test_a_device_graph_is_taken_as_it_is():
    from warpath.cuda.device_graph import device_graph

    graph = gen.grid(3, 4, seed=6)
    matrix = warpath.multi_source(device_graph(graph), [0, 11], method="task-parallel")
    assert matrix.stats["device"] == "cuda"
    assert_rows(graph, matrix)


@pytest.mark.parametrize("options, message", [
    ({"group": 0}, "group must be a positive integer"),
    ({"group": 2.5}, "group must be a positive integer"),
    ({"launch_groups": -1}, "launch_groups must be a positive integer"),
    ({"loop": "host"}, "loop must be one of"),
    ({"deliver": "disk"}, "deliver must be one of"),
    ({"k": 3}, "has no option k"),
    ({"item_rows": 12}, "item_rows must be one of"),
])
def test_bad_options_are_refused_by_name(options, message):
    with pytest.raises(warpath.OptionError, match=message):
        run(gen.ring(4, seed=0), **options)


@pytest.mark.gpu
def test_larger_graphs_on_the_gpu():
    for graph in (gen.random(3000, 12000, seed=1), gen.power_law(2000, 4, 300, seed=2),
                  gen.with_negative_weights(gen.grid(30, 30, seed=3), seed=4),
                  gen.ring(700, seed=5)):
        sources = np.arange(0, graph.num_vertices, 37)
        expected = scipy_rows(graph, sources)
        for whole_items in (None, False):   # the rule's choice; the queue of items
            matrix = warpath.multi_source(graph, sources, method="task-parallel",
                                          device="cuda", whole_items=whole_items)
            np.testing.assert_array_equal(matrix.distances, expected)
            reached = np.isfinite(expected)
            for row in range(0, len(sources), 9):
                for target in np.flatnonzero(reached[row])[::50]:
                    path = matrix.path(int(sources[row]), int(target))
                    assert path[0] == sources[row] and path[-1] == target


# power-law left out for the simulator's time (rmat is the scale-free shape here)
NON_NEGATIVE = [(name, g) for name, g in GRAPHS if g.min_weight >= 0 and name != "power-law"]


@pytest.mark.parametrize("name,graph", NON_NEGATIVE, ids=[n for n, _ in NON_NEGATIVE])
def test_near_far_matches_scipy_with_paths(name, graph):
    # A bucket of a quarter of the mean weight: many buckets, so rows wait and move up.
    quarter = max(float(np.mean(graph.weights)) / 4, 1e-3) if graph.num_edges else 1.0
    matrix = run(graph, near_far=True, delta=quarter)
    assert_rows(graph, matrix)
    assert matrix.stats["near_far"] and matrix.stats["delta"] > 0


@pytest.mark.parametrize("loop", ["fast", "paper"])
@pytest.mark.parametrize("predecessors", [True, False])
def test_near_far_in_several_launches(loop, predecessors):
    graph = dict(GRAPHS)["disconnected"]
    sources = [s % graph.num_vertices for s in SOURCES]
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  predecessors=predecessors, loop=loop, near_far=True,
                                  delta=3, **SMALL_BATCHES)
    assert_rows(graph, matrix, predecessors=predecessors)
    assert matrix.stats["batches"] == 3 and matrix.stats["delta"] == 3.0


def test_near_far_scatters_fewer_tasks_in_more_rounds():
    # The CPU model's effect (docs/performance.md) on a graph small enough for the
    # simulator: every arc scattered about once per row instead of several times.
    graph = gen.random(48, 288, seed=8)
    sources = np.arange(0, 48, 6)
    plain = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                 predecessors=False)
    ordered = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                   predecessors=False, near_far=True, delta=10)
    np.testing.assert_array_equal(ordered.distances, plain.distances)
    np.testing.assert_array_equal(plain.distances, scipy_rows(graph, sources))
    assert ordered.stats["relaxations"] < 0.75 * plain.stats["relaxations"]
    assert ordered.stats["relaxations"] >= len(sources) * 0.9 * graph.num_edges  # ~Dijkstra
    assert ordered.stats["iterations"] > plain.stats["iterations"]
    # the default bucket is the mean weight
    default = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                   predecessors=False, near_far=True)
    assert default.stats["delta"] == round(float(np.mean(graph.weights)))
    np.testing.assert_array_equal(default.distances, plain.distances)


def test_near_far_refuses_negative_weights_and_johnson_reweights_first():
    graph = dict(GRAPHS)["negative"]
    with pytest.raises(warpath.NegativeWeightError, match="near_far"):
        run(graph, near_far=True)
    matrix = warpath.apsp(graph, method="johnson", device="cuda", near_far=True)
    assert_rows(graph, matrix)
    assert matrix.stats["near_far"]


@pytest.mark.parametrize("delta", [0, -2, "wide", True, float("nan")])
def test_near_far_refuses_a_bad_delta(delta):
    with pytest.raises(warpath.OptionError, match="delta must be a positive number"):
        run(gen.ring(4, seed=0), near_far=True, delta=delta)


def test_delta_is_clamped_to_the_distance_type_and_needs_near_far():
    ring = gen.ring(6, seed=0)   # int32 distances
    expected = run(ring, predecessors=False).distances
    for delta in (1e10, float("inf"), 0.2):   # one bucket; one bucket; rounded up to 1
        matrix = run(ring, near_far=True, delta=delta, predecessors=False)
        np.testing.assert_array_equal(matrix.distances, expected)
    assert run(ring, near_far=True, delta=0.2).stats["delta"] == 1.0
    floats = gen.ring(6, seed=0, weights="float")
    tiny = warpath.Graph(floats.indptr, floats.indices, floats.weights.astype(np.float32))
    with pytest.raises(warpath.OptionError, match="zero in float32"):
        run(tiny, near_far=True, delta=1e-50)
    with pytest.raises(warpath.OptionError, match="near_far=False"):
        run(ring, near_far=False, delta=5)
    assert run(ring, delta=5).stats["near_far"]   # a bucket width alone asks for near-far


def test_near_far_by_default_on_large_graphs_without_negative_weights(monkeypatch):
    from warpath.apsp import task_parallel

    small = gen.random(40, 200, seed=4)
    assert not run(small, predecessors=False).stats["near_far"]   # below the threshold
    monkeypatch.setattr(task_parallel, "NEAR_FAR_MIN_ARCS", small.num_edges)
    on = run(small, predecessors=False)
    assert on.stats["near_far"] and on.stats["delta"] > 0
    np.testing.assert_array_equal(on.distances, csgraph.dijkstra(scipy_graph(small)))
    negative = gen.with_negative_weights(small, seed=1)
    assert not run(negative, predecessors=False).stats["near_far"]   # negative: off
    assert not run(small, frontier=False, predecessors=False).stats["near_far"]


def test_near_far_jumps_a_gap_of_many_buckets_in_one_round():
    # Unit arcs among 12 vertices and one arc of 100,000 to a 13th (the mean weight, the
    # default bucket, is ~750): that vertex is ~130 buckets away, but the bound moves to it
    # at once.
    n = 12
    arcs = [(u, v) for u in range(n) for v in range(n) if u != v] + [(0, n)]
    tails, heads = zip(*arcs)
    weights = np.ones(len(arcs), dtype=np.int32)
    weights[-1] = 100_000
    graph = warpath.Graph.from_edges(tails, heads, weights)
    plain = run(graph, predecessors=False)
    ordered = run(graph, near_far=True, predecessors=False)
    np.testing.assert_array_equal(ordered.distances, plain.distances)
    assert ordered.stats["iterations"] <= plain.stats["iterations"] + 4


@pytest.mark.gpu
@pytest.mark.parametrize("whole_items", [False, None])   # the queue of items; the rule's
def test_near_far_on_larger_graphs_on_the_gpu(whole_items):
    for graph in (gen.random(3000, 18000, seed=1), gen.grid(40, 40, seed=3),
                  gen.ring(700, seed=5), gen.rmat(11, 8, seed=6)):
        sources = np.arange(0, graph.num_vertices, 29)
        plain = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                     predecessors=False, whole_items=whole_items)
        ordered = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                       near_far=True, whole_items=whole_items)
        np.testing.assert_array_equal(ordered.distances, scipy_rows(graph, sources))
        np.testing.assert_array_equal(plain.distances, ordered.distances)
        assert ordered.stats["relaxations"] <= plain.stats["relaxations"]
        reached = np.isfinite(ordered.distances)
        for row in range(0, len(sources), 11):
            for target in np.flatnonzero(reached[row])[::97]:
                path = ordered.path(int(sources[row]), int(target))
                assert path[0] == sources[row] and path[-1] == target


# The two forms of a round: a frontier of (vertex, 32 rows) items (the default) and the
# paper's sweep of every task (frontier=False).
SWEEP_GRAPHS = ["random-int", "disconnected", "negative", "zero-cycles", "complete", "ring"]


@pytest.mark.parametrize("name", [n for n in SWEEP_GRAPHS if n in dict(GRAPHS)])
def test_the_paper_sweep_and_the_frontier_give_the_same_rows(name):
    graph = dict(GRAPHS)[name]
    sources = [s % graph.num_vertices for s in SOURCES]
    sweep = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                 frontier=False)
    assert_rows(graph, sweep)
    assert not sweep.stats["frontier"]
    queued = warpath.multi_source(graph, sources, method="task-parallel", device="cuda")
    assert queued.stats["frontier"]
    np.testing.assert_array_equal(queued.distances, sweep.distances)


@pytest.mark.parametrize("near_far", [False, True])
def test_the_frontier_with_two_items_a_vertex(near_far):
    # 40 rows in one launch: rows 0-31 are a vertex's first item, 32-39 its second
    graph = gen.random(30, 120, seed=11)
    sources = [i % 30 for i in range(40)]
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  group=20, launch_groups=2, near_far=near_far,
                                  predecessors=False)
    assert matrix.stats["launch_width"] == 40 and matrix.stats["batches"] == 1
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))


@pytest.mark.parametrize("item_rows", [8, 16])
@pytest.mark.parametrize("near_far", [False, True])
def test_narrower_items_give_the_same_rows(item_rows, near_far):
    # 20 rows: items of 8 rows make three a vertex (the last with 4 idle lanes), of 16 two
    graph = gen.random(30, 120, seed=14)
    sources = [(7 * i) % 30 for i in range(20)]
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  group=20, near_far=near_far, item_rows=item_rows)
    assert matrix.stats["item_rows"] == item_rows and matrix.stats["batches"] == 1
    assert_rows(graph, matrix)
    wide = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                group=20, near_far=near_far, predecessors=False)
    assert wide.stats["item_rows"] == 32
    np.testing.assert_array_equal(matrix.distances, wide.distances)


def test_narrower_items_in_johnson_and_several_launches():
    graph = gen.with_negative_weights(gen.grid(5, 5, seed=15), seed=16)
    sources = np.arange(0, 25, 2)
    matrix = warpath.multi_source(graph, sources, method="johnson", device="cuda",
                                  item_rows=8, predecessors=False, **SMALL_BATCHES)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))
    assert matrix.stats["item_rows"] == 8 and matrix.stats["batches"] > 1


def test_the_sweeps_near_far_keeps_a_bound_per_row():
    graph = gen.random(40, 200, seed=12)
    sources = np.arange(0, 40, 4)
    matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                  frontier=False, near_far=True, delta=5, predecessors=False,
                                  **SMALL_BATCHES)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))
    assert not matrix.stats["frontier"] and matrix.stats["near_far"]


def test_the_frontiers_far_pile_waits_out_many_buckets():
    # a bucket of 1 on weights up to 100: tasks wait in the far pile through many moves
    graph = gen.random(24, 96, seed=13)
    sources = np.arange(0, 24, 3)
    small = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                 near_far=True, delta=1, predecessors=False)
    np.testing.assert_array_equal(small.distances, scipy_rows(graph, sources))
    plain = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                 predecessors=False)
    assert small.stats["relaxations"] < plain.stats["relaxations"]
    assert small.stats["iterations"] > plain.stats["iterations"]


@pytest.mark.gpu
def test_both_forms_on_larger_graphs_on_the_gpu():
    for graph in (gen.random(4000, 24000, seed=1), gen.rmat(12, 8, seed=2),
                  gen.grid(50, 50, seed=3), gen.ring(900, seed=4)):
        sources = np.arange(0, graph.num_vertices, 17)
        expected = scipy_rows(graph, sources)
        for options in ({"frontier": False}, {}, {"whole_items": False},
                        {"near_far": True}, {"near_far": True, "whole_items": False},
                        {"near_far": True, "delta": 3}, {"launch_groups": 3},
                        {"item_rows": 8}, {"item_rows": 16, "near_far": True}):
            matrix = warpath.multi_source(graph, sources, method="task-parallel",
                                          device="cuda", predecessors=False, **options)
            np.testing.assert_array_equal(matrix.distances, expected, err_msg=str(options))


def test_whole_items_by_default_on_small_world_graphs_without_hubs(monkeypatch):
    from warpath.apsp import task_parallel

    def rows(graph, **options):
        return warpath.multi_source(graph, [0, 7, 13], method="task-parallel", device="cuda",
                                    predecessors=False, **options)

    small = gen.random(40, 200, seed=4)
    assert not rows(small).stats["whole_items"]   # below the threshold
    monkeypatch.setattr(task_parallel, "WHOLE_ITEMS_MIN_ARCS", 10)
    on = rows(small)
    assert on.stats["whole_items"] and not on.stats["near_far"]
    np.testing.assert_array_equal(on.distances, scipy_rows(small, [0, 7, 13]))
    hubs = gen.power_law(60, 4, 40, seed=5)   # out-degrees vary more than their mean
    ring = gen.ring(60, seed=6)               # 59 hops across
    for graph in (hubs, ring):
        matrix = rows(graph)
        assert not matrix.stats["whole_items"]
        np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, [0, 7, 13]))
    assert not rows(small, frontier=False).stats["whole_items"]
    assert not rows(small, item_rows=16).stats["whole_items"]
    assert not rows(small, whole_items=False).stats["whole_items"]
    # Johnson asks the rule of the graph itself: the reweighted copy has no host statistics
    negative = gen.with_negative_weights(small, seed=1)
    johnson = warpath.multi_source(negative, [0, 7, 13], method="johnson", device="cuda",
                                   predecessors=False)
    assert johnson.stats["whole_items"]
    np.testing.assert_array_equal(johnson.distances, scipy_rows(negative, [0, 7, 13]))


def test_items_of_32_rows_are_spread_on_a_gpu_and_narrower_ones_are_not():
    from warpath.cuda.runtime import SIMULATOR

    graph = gen.random(60, 300, seed=11)
    sources = np.arange(0, 60, 5)
    for item_rows, spread in ((32, not SIMULATOR), (16, False)):
        matrix = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                      predecessors=False, item_rows=item_rows)
        assert matrix.stats["spread"] is spread
        np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))


@pytest.mark.gpu
def test_spread_items_and_a_lane_a_row_give_the_same_rows_on_the_gpu(monkeypatch):
    from warpath.apsp import task_parallel

    # a complete graph's second round has items with all 32 rows active; float weights
    # shuffle float distances
    for graph in (gen.power_law(3000, 6, 300, seed=5), gen.grid(40, 40, seed=6),
                  gen.complete(70, seed=7), gen.random(2000, 12000, seed=8, weights="float")):
        sources = np.arange(0, graph.num_vertices, 7)
        if graph.num_vertices == 70:
            sources = np.arange(70)
        expected = scipy_rows(graph, sources)
        for spread in (True, False):
            monkeypatch.setattr(task_parallel, "SPREAD_ITEMS", spread)
            for near_far in (False, True):
                matrix = warpath.multi_source(graph, sources, method="task-parallel",
                                              device="cuda", predecessors=False,
                                              near_far=near_far, whole_items=False)
                assert matrix.stats["spread"] is spread
                np.testing.assert_array_equal(matrix.distances, expected,
                                              err_msg=f"spread={spread} near_far={near_far}")
