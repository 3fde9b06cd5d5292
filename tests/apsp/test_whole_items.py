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


@pytest.mark.parametrize("name, predecessors, deliver", [
    ("negative", True, "host"), ("zero-cycles", True, "device"),
])
def test_launches_padded_with_idle_rows_deliver_only_their_own(monkeypatch, name,
                                                                predecessors, deliver):
    # PAD_SHARE=1 pads a launch of 20 rows to 32 (12 idle rows, at most one in one) and
    # leaves one of 10 as it is (22 idle rows would be too many): launches of 20, 20 and
    # 10 keep 32, 32 and 10 entries a vertex, and only their own rows are delivered
    from warpath.apsp import gpu_rows

    monkeypatch.setattr(gpu_rows, "PAD_SHARE", 1)
    graph = dict(GRAPHS)[name]
    sources = [(7 * i) % graph.num_vertices for i in range(50)]
    matrix = run(graph, sources, predecessors=predecessors, deliver=deliver, group=20,
                 launch_groups=1)
    assert matrix.stats["idle_rows"] == 24 and matrix.stats["batches"] == 3
    assert matrix.distances.shape == (50, graph.num_vertices)
    assert_rows(graph, matrix, predecessors=predecessors)


def test_a_padded_last_launch_narrower_than_the_first():
    # 71 sources in launches of 40: the first keeps 40 rows a vertex (24 idle rows would be
    # too many), the last 31 keep 32 (one idle row), inside the first's arrays
    graph = dict(GRAPHS)["random-int"]
    sources = [(5 * i) % graph.num_vertices for i in range(71)]
    matrix = run(graph, sources, deliver="host", group=20, launch_groups=2)
    assert matrix.stats["idle_rows"] == 1 and matrix.stats["launch_width"] == 40
    assert_rows(graph, matrix)


def test_johnson_in_padded_launches(monkeypatch):
    from warpath.apsp import gpu_rows

    monkeypatch.setattr(gpu_rows, "PAD_SHARE", 1)
    graph = gen.with_negative_weights(gen.grid(5, 5, seed=15), seed=16)
    sources = np.arange(20)
    matrix = warpath.multi_source(graph, sources, method="johnson", device="cuda",
                                  whole_items=True, group=20, launch_groups=1)
    assert matrix.stats["idle_rows"] == 12
    assert_rows(graph, matrix)


def test_the_same_rows_as_items_of_lane_bits_and_every_row_relaxes():
    graph = gen.random(60, 300, seed=12)
    sources = np.arange(0, 60, 3)
    whole = run(graph, sources, predecessors=False)
    bits = warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                predecessors=False, item_rows=32, near_far=False)
    np.testing.assert_array_equal(whole.distances, bits.distances)
    # a queued item relaxes all its rows, whether their bit would be set or not
    assert whole.stats["relaxations"] > bits.stats["relaxations"]


@pytest.fixture
def gpu_gather(monkeypatch):
    """Whole items' ``gather`` as on a GPU, under the simulator too: every row of the
    launch active, an unreached one (``inf``) left for ``relax`` to reject.  (The
    simulator's lane-per-row walk otherwise skips such a row; its stride loop walks with
    ``expand`` whatever ``shares_arcs_by_shuffles`` says, so no shuffle is needed.)"""
    from warpath.apsp import task_parallel, whole_items
    from warpath.cuda import operators

    monkeypatch.setattr(operators, "shares_arcs_by_shuffles", lambda shuffled: shuffled)
    monkeypatch.setattr(task_parallel, "whole_item_steps",
                        whole_items.whole_item_steps.__wrapped__)   # steps built afresh


@pytest.mark.parametrize("weights", [
    [2, -5, 1], [2, -5 * 2**33, 1], np.array([2, -5, 1], np.float32), [2.5, -5.0, 1.0]],
    ids=["int32", "int64", "float32", "float64"])
def test_an_unreached_row_lowers_nothing_over_a_negative_arc(gpu_gather, weights):
    # rows 0 and 1 share every item, and row 1's source (vertex 4) reaches nothing else:
    # when row 0 lowers vertex 1, vertex 1's item is expanded for row 1 too, at distance
    # inf, and inf + (-5) must not lower vertex 2 for row 1 (int32: the 64-bit sum is
    # below inf; int64: it wraps below every distance, so the floor must not see it).
    # 40 rows: the second item of a vertex has 8 rows and 24 idle lanes, past the last
    graph = warpath.Graph.from_edges([0, 1, 2], [1, 2, 3], weights=weights, num_vertices=5)
    sources = [0, 4] * 20
    matrix = run(graph, sources, predecessors=False)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))
    assert np.isinf(matrix.distances[1::2, :4]).all()


def test_each_round_clears_the_marks_of_the_round_after_next():
    # one row on a directed ring: round r expands vertex r alone, so 12 relaxations in 12
    # rounds; a mark left in its slot would expand vertex r again in round r + 3
    matrix = run(gen.ring(12, seed=5), [0], predecessors=False)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(gen.ring(12, seed=5), [0]))
    assert matrix.stats["iterations"] == 12
    assert matrix.stats["relaxations"] == 12


#: Graphs for near-far (non-negative weights), few: the simulator runs a round slowly.
NEAR_FAR = [(name, graph) for name, graph in GRAPHS
            if name in ("random-int", "disconnected", "zero-cycles", "float32", "int64-wide")]


@pytest.mark.parametrize("name,graph", NEAR_FAR, ids=[n for n, _ in NEAR_FAR])
def test_near_far_matches_scipy_with_paths(name, graph):
    sources = sorted({s % graph.num_vertices for s in (0, 3, 7, 11)})
    matrix = run(graph, sources, near_far=True)   # buckets of the mean weight
    assert_rows(graph, matrix)
    assert matrix.stats["whole_items"] and matrix.stats["near_far"]
    assert matrix.stats["delta"] == pytest.approx(float(np.mean(graph.weights)), rel=0.02)


@pytest.mark.parametrize("options", [
    {"group": 20, "launch_groups": 2},   # one launch, two items a vertex
    {"group": 4, "launch_groups": 2, "loop": "paper"},   # two launches
])
def test_near_far_in_several_launches_and_two_items_a_vertex(options):
    graph = gen.random(30, 120, seed=11)
    # 40 rows in one launch (rows 32-39: each vertex's second item), or 8 + 4
    sources = [i % 30 for i in range(40 if options["group"] == 20 else 12)]
    matrix = run(graph, sources, predecessors=False, near_far=True, delta=25, **options)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))


def test_near_far_waits_in_buckets():
    # small buckets on a grid: more rounds (the bound moves bucket by bucket), the same
    # distances
    graph = gen.grid(6, 6, seed=21)
    sources = np.arange(0, 36, 7)
    near = run(graph, sources, predecessors=False, near_far=True, delta=20)
    plain = run(graph, sources, predecessors=False, near_far=False)
    np.testing.assert_array_equal(near.distances, plain.distances)
    np.testing.assert_array_equal(near.distances, scipy_rows(graph, sources))
    assert near.stats["iterations"] > plain.stats["iterations"]


def test_near_far_refuses_negative_weights():
    graph = dict(GRAPHS)["negative"]
    with pytest.raises(warpath.NegativeWeightError, match="non-negative"):
        run(graph, [0], near_far=True)


@pytest.mark.parametrize("near_far", [False, True])
def test_64_bit_positions_give_the_same_rows(monkeypatch, near_far):
    # graphs too large for 32-bit positions take the 64-bit steps: forced here
    from warpath.apsp import task_parallel, whole_items

    used = []

    def steps(narrow, *options):
        used.append(narrow)
        return whole_items.whole_item_steps(narrow, *options)

    monkeypatch.setattr(whole_items.WholeItems, "narrow", lambda self, arcs: False)
    monkeypatch.setattr(task_parallel, "whole_item_steps", steps)
    graph = gen.random(20, 80, seed=17)
    sources = [0, 5, 9, 13]
    matrix = run(graph, sources, predecessors=False, near_far=near_far)
    np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))
    assert used == [False]


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
    ({"item_rows": 16}, "items of 32 rows"),
    ({"frontier": False}, "needs frontier=True"),
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
        variants = [{}, {"launch_groups": 3}, {"loop": "paper"}]
        if graph.weights.min() >= 0:
            variants += [{"near_far": True}, {"near_far": True, "delta": 5,
                                              "launch_groups": 3}]
        for options in variants:
            matrix = run(graph, sources, predecessors=False, **options)
            np.testing.assert_array_equal(matrix.distances, expected, err_msg=str(options))
        assert_rows(graph, run(graph, sources[:40]))


@pytest.mark.gpu
@pytest.mark.parametrize("shuffles, paired", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("near_far", [False, True])
def test_arcs_loaded_by_each_lane_or_shared_by_shuffles_on_the_gpu(monkeypatch, near_far,
                                                                    shuffles, paired):
    # the simulator has no shuffles: both ways of reading an item's arcs run on a GPU only;
    # 273 rows are 9 groups, so a warp's 32 items split between vertices unevenly
    from warpath.apsp import task_parallel

    monkeypatch.setattr(task_parallel, "WHOLE_ITEM_SHUFFLES", shuffles)
    monkeypatch.setattr(task_parallel, "WHOLE_ITEM_PAIRS", paired)
    for graph in (gen.random(3000, 18000, seed=21), gen.complete(60, seed=22),
                  gen.power_law(2000, 6, 300, seed=23), gen.grid(40, 40, seed=24)):
        sources = np.arange(0, graph.num_vertices, 11)
        matrix = run(graph, sources, predecessors=False, near_far=near_far)
        np.testing.assert_array_equal(matrix.distances, scipy_rows(graph, sources))


@pytest.mark.gpu
@pytest.mark.parametrize("claims, chunks", [(False, 0), (True, 0), (True, 1), (True, 4)])
def test_warps_claim_chunks_or_take_every_strideth_on_the_gpu(monkeypatch, claims, chunks):
    # 20,000 vertices: 20,000 chunks of 32 items with 1,000 rows (32 groups), more than the
    # grid's warps, so warps claim several times, one or four chunks a claim (0: the
    # grid's rule), and rounds run dry and clear the next round's counter.  Launches of
    # 273 rows (9 groups: a chunk spans vertices) in two batches restart the counters;
    # the paper loop's thread a task has fewer chunks than warps and strides.
    from warpath.apsp import task_parallel

    monkeypatch.setattr(task_parallel, "WHOLE_ITEM_CLAIMS", claims)
    monkeypatch.setattr(task_parallel, "WHOLE_ITEM_CLAIM_CHUNKS", chunks)
    graph = gen.random(20_000, 120_000, seed=26)
    sources = np.arange(0, 20_000, 20)
    expected = scipy_rows(graph, sources)
    for options in ({}, {"loop": "paper"}):
        matrix = run(graph, sources, predecessors=False, **options)
        assert matrix.stats["launch_width"] == 1000
        np.testing.assert_array_equal(matrix.distances, expected, err_msg=str(options))
    matrix = run(graph, sources[:546], predecessors=False, group=91, launch_groups=3)
    assert matrix.stats["launch_width"] == 273 and matrix.stats["batches"] == 2
    np.testing.assert_array_equal(matrix.distances, expected[:546])


@pytest.mark.gpu
@pytest.mark.parametrize("paired", [False, True])
def test_many_groups_and_items_past_the_grid_on_the_gpu(monkeypatch, paired):
    # 1,024 rows (32 groups an item's vertex) and more items than the grid has threads:
    # warps make several trips, carrying their vertex and group across the stride
    from warpath.apsp import task_parallel

    monkeypatch.setattr(task_parallel, "WHOLE_ITEM_PAIRS", paired)
    graph = gen.random(3000, 18000, seed=25)
    sources = np.arange(1024) % graph.num_vertices
    expected = scipy_rows(graph, sources)
    for near_far in (False, True):
        matrix = run(graph, sources, predecessors=False, near_far=near_far)
        assert matrix.stats["launch_width"] == 1024
        np.testing.assert_array_equal(matrix.distances, expected)
