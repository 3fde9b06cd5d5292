"""hbf (H-BF, Busato & Bombieri) against scipy: every optimization on, and each one off.

Under the simulator: every generator shape, int32/int64/float32/float64
weights, negative weights and cycles, the small real graphs.  On the GPU
(``gpu`` marker): larger graphs with many blocks, virtual warps of every size,
heavy vertices expanded by the whole grid, and every real road network.
"""

import os

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

import warpath
from sssp._gpu_reference import (assert_matches_reference, assert_negative_cycle,
                                 assert_tight_predecessors, negative_cycle_graphs,
                                 small_graphs)
from warpath import generators as gen
from warpath.sssp import hbf
from warpath.sssp.hbf import DIRECT, NORMAL, SKIP, arc_classes, repeats_an_arc

GRAPHS = small_graphs()
ALL_ON = {}
EACH_OFF = [{"dedup": False}, {"classify": False}, {"coalesced_enqueue": False},
            {"virtual_warps": False}, {"high_degree": 0}]
OPTIONS = [ALL_ON, *EACH_OFF, {"high_degree": 2}, {"near_far": True, "delta": 7.0},
           {"near_far": False}, {"virtual_warps": True}, {"virtual_warps": True, "high_degree": 2},
           {"dense": True}, {"dense": 0.001, "dedup": False, "high_degree": 2}]
OPTION_IDS = ["all-on", "no-dedup", "no-classify", "no-coalesced", "no-virtual-warps",
              "no-high-degree", "high-degree-2", "near-far", "no-near-far",
              "paper-virtual-warps", "paper-virtual-warps-high-degree-2", "dense",
              "dense-sweeps-no-dedup-high-degree-2"]
NEAR_FAR_OPTIONS = [{}, {"dedup": False}, {"classify": False}, {"virtual_warps": False},
                    {"high_degree": 2}, {"delta": 1.0}, {"delta": 1e9}]


@pytest.mark.parametrize("options", OPTIONS, ids=OPTION_IDS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(name, graph, options):
    if options.get("near_far") and graph.has_negative_weights:
        with pytest.raises(warpath.NegativeWeightError, match="near_far"):
            warpath.sssp(graph, 0, method="hbf", device="cuda", **options)
        return
    result = warpath.sssp(graph, 0, method="hbf", device="cuda", **options)
    assert_matches_reference(graph, 0, result)


@pytest.mark.parametrize("options", NEAR_FAR_OPTIONS,
                         ids=["all-on", "no-dedup", "no-classify", "no-virtual-warps",
                              "high-degree-2", "narrow-buckets", "one-bucket"])
@pytest.mark.parametrize("graph", [gen.grid(9, 9, seed=40), gen.ring(30, seed=41),
                                   gen.random(60, 150, seed=42, weights="float"),
                                   gen.power_law(80, 2, 20, seed=43),
                                   gen.random(64, 512, seed=45), gen.rmat(6, 16, seed=46)],
                         ids=["grid", "ring", "random-float", "power-law", "random-wide",
                              "rmat-wide"])
def test_near_far_matches_scipy(graph, options):
    """Near-far on every graph shape and with each other option off; run twice, since
    the far pile's bookkeeping is shared by threads (a race would show as a difference).
    The last two are wide (average degree 5 or more): their rounds read before the atomic."""
    for _ in range(2):
        result = warpath.sssp(graph, 0, method="hbf", device="cuda", near_far=True, **options)
        assert_matches_reference(graph, 0, result)
        assert result.stats["near_far"] is True


def test_near_far_relaxes_less_on_a_road_like_grid():
    g = gen.grid(30, 30, seed=44)
    dijkstra = warpath.sssp(g, 0, method="dijkstra", device="cpu").stats["relaxations"]
    plain = warpath.sssp(g, 0, method="hbf", device="cuda", near_far=False)
    # A bucket as wide as the mean weight: with the default (wider, sized for a GPU's many
    # threads) the simulator's thread interleaving makes the count vary from run to run.
    ordered = warpath.sssp(g, 0, method="hbf", device="cuda", near_far=True,
                           delta=float(g.weights.mean()))
    np.testing.assert_array_equal(plain.distances, ordered.distances)
    assert ordered.stats["relaxations"] < plain.stats["relaxations"]
    assert ordered.stats["relaxations"] <= 3 * dijkstra  # issue 11: within 3x of Dijkstra's


def hub_graph():
    """A wide graph (average degree 6) of skewed degrees: two hubs of 201 arcs (1% of the
    200 vertices, a third of the arcs) linked to every vertex and back, plus arcs
    v -> v + 1, v + 2."""
    n, hubs = 200, (0, 1)
    others = list(range(2, n))
    tails, heads = [0, 1], [1, 0]
    for hub in hubs:
        tails += [hub] * len(others) + others
        heads += others + [hub] * len(others)
    tails += list(range(n)) * 2
    heads += [(v + 1) % n for v in range(n)] + [(v + 2) % n for v in range(n)]
    rng = np.random.default_rng(49)
    return warpath.Graph.from_edges(tails, heads, rng.integers(1, 100, len(tails)))


def test_skewed_degrees_graphs_sweep_their_wide_rounds_by_default():
    """The default plan (issue 11): hub-dominated graphs sweep wide rounds, other
    non-negative graphs take near-far, with a narrower bucket on wide graphs."""
    from warpath.cuda.device_graph import device_graph
    from warpath.sssp import hbf

    for wide in (gen.random(64, 512, seed=45), gen.rmat(6, 16, seed=46)):   # near-far's
        assert hbf._wide_rounds(device_graph(wide))   # wide cases in the test above
    g = hub_graph()
    hubs = device_graph(g)
    assert hbf._wide_rounds(hubs) and hbf._skewed_degrees(hubs)
    assert hbf._round_plan(hubs, None, None, None, True) == (False, 0.0, hbf.DENSE)
    assert hbf._round_plan(hubs, None, None, None, False) == (False, 0.0, 0.0)   # 64-bit
    result = warpath.sssp(g, 5, method="hbf", device="cuda")
    assert result.stats["near_far"] is False and result.stats["dense_rounds"] > 0
    assert_matches_reference(g, 5, result)
    even = gen.random(400, 4000, seed=51)
    assert not hbf._skewed_degrees(device_graph(even))
    near_far, delta, share = hbf._round_plan(device_graph(even), None, None, None, True)
    assert near_far and share == 0.0
    assert delta == pytest.approx(8 * float(even.weights.mean()) / 10)
    road = gen.grid(6, 6, seed=52)
    degree = road.num_edges / road.num_vertices
    assert hbf._round_plan(device_graph(road), None, None, None, True)[1] == pytest.approx(
        64 * float(road.weights.mean()) / degree)


def test_near_far_defaults_and_refusals():
    road = gen.grid(5, 5, seed=45)  # average degree < 5, non-negative: on by default
    assert warpath.sssp(road, 0, method="hbf", device="cuda").stats["near_far"] is True
    wide = gen.random(20, 200, seed=46)   # wide, no hubs: near-far too
    assert warpath.sssp(wide, 0, method="hbf", device="cuda").stats["near_far"] is True
    asked = warpath.sssp(wide, 0, method="hbf", device="cuda", dense=True)
    assert asked.stats["near_far"] is False   # the sweep asked for: no near-far
    hubs = hub_graph()   # the sweep, not near-far
    assert warpath.sssp(hubs, 0, method="hbf", device="cuda").stats["near_far"] is False
    negative = gen.with_negative_weights(gen.grid(4, 4, seed=47), seed=48)
    assert warpath.sssp(negative, 0, method="hbf", device="cuda").stats["near_far"] is False
    with pytest.raises(warpath.NegativeWeightError):
        warpath.sssp(negative, 0, method="hbf", device="cuda", near_far=True)
    with pytest.raises(ValueError, match="delta"):
        warpath.sssp(road, 0, method="hbf", device="cuda", near_far=True, delta=0)


CYCLE_OPTIONS = [(o, i) for o, i in zip(OPTIONS, OPTION_IDS) if "near_far" not in o]


@pytest.mark.parametrize("options", [o for o, _ in CYCLE_OPTIONS],
                         ids=[i for _, i in CYCLE_OPTIONS])
@pytest.mark.parametrize("name,graph", negative_cycle_graphs(),
                         ids=[name for name, _ in negative_cycle_graphs()])
def test_negative_cycle(name, graph, options):
    with pytest.raises(warpath.NegativeCycleError) as info:
        warpath.sssp(graph, 0, method="hbf", device="cuda", **options)
    assert_negative_cycle(graph, info.value)


def test_float64_and_every_source():
    g = gen.random(25, 90, seed=30, weights="float")
    for source in range(0, 25, 4):
        assert_matches_reference(g, source, warpath.sssp(g, source, method="hbf",
                                                         device="cuda"))


def test_classes_follow_algorithm_4():
    # 0 -> 1 (1 has in-degree 1: direct), 0 -> 2, 1 -> 1 (self-loop: skip),
    # 1 -> 2, 2 -> 3 (3 is a sink: skip), 3 has no arcs; 2 -> 2 negative self-loop stays normal
    g = warpath.Graph.from_edges([0, 0, 1, 1, 2, 2], [1, 2, 1, 2, 3, 2], [1, 1, 1, 1, 1, -1])
    classes = dict(zip(zip(g.tails().tolist(), g.indices.tolist()), arc_classes(g).tolist()))
    assert classes[(0, 1)] == NORMAL  # 1 also has its self-loop: in-degree 2
    assert classes[(1, 1)] == SKIP and classes[(2, 3)] == SKIP
    assert classes[(2, 2)] == NORMAL and classes[(0, 2)] == NORMAL
    line = warpath.Graph.from_edges([0, 1], [1, 2], [1, 1])
    assert arc_classes(line).tolist() == [DIRECT, SKIP]


@pytest.mark.parametrize("keyed", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_repeated_arcs_are_found_as_a_set_of_pairs_would_find_them(monkeypatch, keyed, seed):
    if not keyed:   # the pairs' sort that graphs past 3e9 vertices take
        monkeypatch.setattr(hbf, "_KEYED_VERTICES", 0)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    tails = np.sort(rng.integers(0, n, size=int(rng.integers(1, 120))))
    heads = rng.integers(0, n, size=tails.size)
    if seed % 2:   # rows sorted, as the CSR builder leaves them: the one-pass answer
        heads = heads[np.lexsort((heads, tails))]
    pairs = list(zip(tails.tolist(), heads.tolist()))
    assert repeats_an_arc(tails, heads, n) == (len(set(pairs)) < len(pairs))
    built = warpath.Graph.from_edges(tails, heads, np.ones(tails.size))   # keeps one of each
    assert not repeats_an_arc(built.tails(), built.indices, n)


def test_classification_saves_relax_operations_on_a_tree_like_graph():
    g = gen.power_law(300, 2, 40, seed=31)
    on = warpath.sssp(g, 0, method="hbf", device="cuda")
    off = warpath.sssp(g, 0, method="hbf", device="cuda", classify=False)
    np.testing.assert_array_equal(on.distances, off.distances)
    assert on.stats["skipped_arcs"] > 0 and off.stats["skipped_arcs"] == 0


def test_dedup_enqueues_each_vertex_once_per_round():
    g = gen.random(200, 3000, seed=32)
    traced = warpath.sssp(g, 0, method="hbf", device="cuda", trace=True)
    sizes = traced.stats["frontier_sizes"]
    assert len(sizes) == traced.stats["iterations"] and sizes[0] == 1
    assert max(sizes) <= g.num_vertices
    loose = warpath.sssp(g, 0, method="hbf", device="cuda", dedup=False, trace=True)
    assert sum(loose.stats["frontier_sizes"]) >= sum(sizes)
    np.testing.assert_array_equal(traced.distances, loose.distances)


@pytest.mark.parametrize("weights", ["int", "float32"])
def test_wide_frontiers_are_swept_arc_by_arc_with_the_same_answer(weights):
    """``dense`` (32-bit distances): rounds whose frontier holds more than the share of the
    vertices sweep every arc, relaxing those out of vertices the last round lowered;
    negative weights too."""
    if weights == "int":
        g = gen.with_negative_weights(gen.random(300, 4000, seed=34), seed=35)
    else:
        g = gen.random(300, 4000, seed=34, weights="float")
        g = warpath.Graph(g.indptr, g.indices, g.weights.astype(np.float32))
    swept = warpath.sssp(g, 0, method="hbf", device="cuda", dense=0.02)
    queued = warpath.sssp(g, 0, method="hbf", device="cuda", dense=False)
    assert_matches_reference(g, 0, swept)
    np.testing.assert_array_equal(swept.distances, queued.distances)
    assert swept.stats["dense_rounds"] > 0 and queued.stats["dense_rounds"] == 0
    near_far = warpath.sssp(gen.random(300, 4000, seed=34), 0, method="hbf", device="cuda",
                            near_far=True, dense=0.02)
    assert near_far.stats["dense_rounds"] == 0   # parked vertices carry older rounds: off
    with pytest.raises(warpath.OptionError, match="dense must be"):
        warpath.sssp(g, 0, method="hbf", device="cuda", dense=-1)


@pytest.mark.parametrize("early, heavy", [(True, True), (False, False)])
def test_the_sweeps_bench_forms_give_the_same_answer(monkeypatch, early, heavy):
    """The dense sweep's bench-only forms (``SWEEP_EARLY``: heads and weights loaded with
    the tails; ``SWEEP_HEAVY`` off: no heavy split of what a sweep enqueues), on the hub
    graph of the default plan and on negative weights, with a heavy threshold the hubs
    pass."""
    from warpath.sssp import hbf

    monkeypatch.setattr(hbf, "SWEEP_EARLY", early)
    monkeypatch.setattr(hbf, "SWEEP_HEAVY", heavy)
    for g, source in ((hub_graph(), 5),
                      (gen.with_negative_weights(gen.random(300, 4000, seed=34), seed=35), 0)):
        result = warpath.sssp(g, source, method="hbf", device="cuda", dense=0.02,
                              high_degree=8)
        assert result.stats["dense_rounds"] > 0
        assert_matches_reference(g, source, result)


def test_limit_matches_dijkstra_with_limit():
    g = gen.grid(6, 7, seed=33)
    for limit in (0, 50, 300):
        got = warpath.sssp(g, 0, method="hbf", device="cuda", limit=limit)
        want = warpath.sssp(g, 0, method="dijkstra", device="cpu", limit=limit)
        np.testing.assert_array_equal(got.distances, want.distances)
        for t in np.flatnonzero(np.isfinite(want.distances)):
            assert got.path(int(t))[-1] == t


def test_limit_with_negative_weights_is_refused():
    g = gen.with_negative_weights(gen.grid(3, 3, seed=34), seed=35)
    with pytest.raises(warpath.NegativeWeightError):
        warpath.sssp(g, 0, method="hbf", device="cuda", limit=10)


def test_bad_high_degree_is_a_clear_error():
    with pytest.raises(ValueError, match="high_degree"):
        warpath.sssp(gen.ring(4, seed=0), 0, method="hbf", device="cuda", high_degree=-1)


def test_bad_virtual_warps_is_a_clear_error():
    with pytest.raises(ValueError, match="virtual_warps"):
        warpath.sssp(gen.ring(4, seed=0), 0, method="hbf", device="cuda", virtual_warps="grid")


def test_block_balance_spreads_hubs_and_agrees_with_virtual_warps():
    """The source's four children have 100, 3, 60 and 1 arcs (the last starts a chain):
    their round deals 164 arcs over the block.  A tree, so no vertex is lowered twice:
    distances, paths and relax counts agree exactly with the paper's virtual warps."""
    tails, heads = [0, 0, 0, 0], [1, 2, 3, 4]
    following = 5
    for hub, degree in ((1, 100), (2, 3), (3, 60), (4, 1)):
        tails += [hub] * degree
        heads += list(range(following, following + degree))
        following += degree
    chain = list(range(following - 1, following + 20))  # from vertex 4's one child
    tails += chain[:-1]
    heads += chain[1:]
    g = warpath.Graph.from_edges(tails, heads, np.arange(1, len(tails) + 1))
    block = warpath.sssp(g, 0, method="hbf", device="cuda", high_degree=0)
    paper = warpath.sssp(g, 0, method="hbf", device="cuda", high_degree=0, virtual_warps=True)
    assert_matches_reference(g, 0, block)
    np.testing.assert_array_equal(block.distances, paper.distances)
    assert block.stats["relaxations"] == paper.stats["relaxations"] == g.num_edges
    assert block.path(chain[-1]).tolist() == [0, 4, *chain]


def test_auto_prefers_hbf_on_the_gpu_for_high_diameter_graphs():
    """hbf on road-like graphs; edge-bf on small-world ones (docs/performance.md, issue 11
    after the fixed-cost change), unless their degrees are wide and even (twenty-fifth
    session)."""
    assert warpath.methods.choose("sssp", "cuda", gen.grid(30, 30, seed=0)).name == "hbf"
    assert warpath.methods.choose("sssp", "cuda", gen.rmat(9, 8, seed=0)).name == "edge-bf"
    # small-world, but wide and even degrees: hbf's near-far rounds (measured faster there)
    assert warpath.methods.choose("sssp", "cuda", gen.random(2000, 32000, seed=0)).name == "hbf"
    assert warpath.methods.choose("sssp", "cuda", gen.random(2000, 12000, seed=0)).name \
        == "edge-bf"
    assert warpath.methods.choose("sssp", "cuda", gen.rmat(11, 32, seed=0)).name == "edge-bf"
    negative = gen.with_negative_weights(gen.random(2000, 32000, seed=0), seed=1)
    assert warpath.methods.choose("sssp", "cuda", negative).name == "edge-bf"   # no near-far
    # edge-bf has no limit= and none of hbf's options: asking for them still gets hbf
    small_world = gen.rmat(9, 8, seed=0)
    assert warpath.methods.choose("sssp", "cuda", small_world, limit=True).name == "hbf"
    assert warpath.methods.choose("sssp", "cuda", small_world, options=["trace"]).name == "hbf"
    traced = warpath.sssp(small_world, 0, device="cuda", trace=True)
    assert traced.stats["method"] == "hbf" and traced.stats["frontier_sizes"]


def test_helsinki_matches_scipy(datasets_dir):
    g = warpath.read(os.path.join(datasets_dir, "helsinki-osm-drive.gr.gz"))
    for source in (0, 700):
        assert_matches_reference(g, source, warpath.sssp(g, source, method="hbf",
                                                         device="cuda"))


def _float32(g):
    return warpath.Graph(g.indptr, g.indices, g.weights.astype(np.float32), directed=g.directed)


@pytest.mark.gpu
@pytest.mark.parametrize("options", OPTIONS, ids=OPTION_IDS)
def test_larger_graphs_on_gpu(options):
    for g in (gen.grid(60, 60, seed=1), gen.power_law(20000, 6, 5000, seed=2),
              gen.rmat(14, 8, seed=3),
              gen.with_negative_weights(gen.grid(30, 30, seed=3), seed=4),
              gen.random(20000, 100000, seed=5, weights="float"),
              _float32(gen.random(5000, 40000, seed=6, weights="float"))):
        if options.get("near_far") and g.has_negative_weights:
            with pytest.raises(warpath.NegativeWeightError, match="near_far"):
                warpath.sssp(g, 0, method="hbf", device="cuda", **options)
            continue
        assert_matches_reference(g, 0, warpath.sssp(g, 0, method="hbf", device="cuda",
                                                    **options))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["bremen-osm-dist.gr.gz", "seattle-south-osm-car.gr.gz",
                                  "soc-sign-bitcoinalpha.csv.gz", "facebook_combined.txt.gz"])
def test_real_graphs_on_gpu(datasets_dir, name):
    g = warpath.read(os.path.join(datasets_dir, name))
    if g.has_negative_weights:
        with pytest.raises(warpath.NegativeCycleError) as info:
            warpath.sssp(g, int(np.argmax(np.diff(g.indptr))), method="hbf", device="cuda")
        assert_negative_cycle(g, info.value)
        return
    for source in (0, g.num_vertices // 2):
        got = warpath.sssp(g, source, method="hbf", device="cuda")
        np.testing.assert_array_equal(got.distances,
                                      csgraph.dijkstra(g.to_scipy(), indices=source))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["NY", "BAY", "COL"])
def test_dimacs_road_networks_on_gpu(datasets_dir, name):
    """The papers' road networks (seeded weights in [1, 1000], as the benchmarks give them):
    near-far by default, every answer equal to scipy's."""
    path = os.path.join(datasets_dir, f"USA-road-{name}.pace16.gr.xz")
    if not os.path.isfile(path):
        pytest.skip(f"{path} is not here")
    g = warpath.read(path).with_random_weights(1, 1000, seed=1)
    for source in (0, g.num_vertices // 2):
        got = warpath.sssp(g, source, method="hbf", device="cuda")
        assert got.stats["near_far"] is True
        assert_tight_predecessors(g, source, got)


def test_the_passes_after_the_rounds_are_queued_before_the_outcome_is_read(monkeypatch):
    """The arcs into sinks, the unpacking and the predecessor pass go behind the rounds
    before the host waits for them (``enact(later=True)``)."""
    from warpath.cuda import enactor

    read_at = []
    wait = enactor.PendingOutcome.wait

    def watched(self):
        read_at.append(self._tally.launches)
        return wait(self)

    monkeypatch.setattr(enactor.PendingOutcome, "wait", watched)
    g = gen.grid(6, 6, seed=53)   # int weights (packed words); corners' arcs ...
    g = warpath.Graph.from_edges([*np.repeat(np.arange(36), np.diff(g.indptr)), 35],
                                 [*g.indices, 36], [*g.weights, 5])   # ... and a sink
    result = warpath.sssp(g, 0, method="hbf", device="cuda")
    assert result.stats["skipped_arcs"] >= 1
    assert read_at and read_at[0] >= 4   # the rounds, sinks, unpacking, predecessors
    assert_matches_reference(g, 0, result)
