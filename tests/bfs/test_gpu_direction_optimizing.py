"""direction-optimizing BFS on the GPU against scipy: push only, pull as much as it can,
Beamer's switching in between, directed graphs pulling over their reverse graph."""

import numpy as np
import pytest
from bfs._gpu_bfs_reference import (ROADS, SMALL_REAL, assert_bfs, assert_full_bfs,
                                    dataset, small_graphs, spread_sources)

import warpath
from warpath import generators as gen
from warpath.graph_stats import low_diameter

GRAPHS = small_graphs()
#: Beamer's constants; never pull; pull from the first growing round until the frontier empties.
OPTIONS = [{}, {"alpha": 0}, {"alpha": 1e12, "beta": 1e12},
           {"alpha": 0, "virtual_warps": "block"}]
OPTION_IDS = ["beamer", "push-only", "pull-mostly", "push-only-block-balance"]


def run(graph, source, **options):
    return warpath.bfs(graph, source, method="direction-optimizing", device="cuda", **options)


@pytest.mark.parametrize("options", OPTIONS, ids=OPTION_IDS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(name, graph, options):
    result = run(graph, 0, **options)
    assert_full_bfs(graph, 0, result)
    if options.get("alpha") == 0:
        assert result.stats["pull_rounds"] == 0


def test_pulling_reads_fewer_arcs_on_a_small_world_graph():
    g = gen.rmat(8, 8, seed=40, directed=False)
    push = run(g, 0, alpha=0)
    switched = run(g, 0)
    np.testing.assert_array_equal(push.levels, switched.levels)
    assert switched.stats["pull_rounds"] >= 1
    assert switched.stats["relaxations"] < push.stats["relaxations"]


def test_directed_graph_pulls_over_in_arcs():
    # 0 -> 1 -> 2 and 3 -> 2: 2's in-arcs are 1 and 3; a pull must find 1 (on the frontier),
    # never follow 2 -> 3 backwards.
    g = warpath.Graph.from_edges([0, 1, 3, 2, 0, 0], [1, 2, 2, 4, 5, 6])
    result = run(g, 0, alpha=1e12, beta=1e12)
    assert result.stats["pull_rounds"] >= 1
    assert_bfs(g, 0, result)
    assert result.levels[3] == -1


@pytest.mark.parametrize("loop,limit", [("fast", 0), ("fast", 1), ("fast", 3), ("paper", 2)])
def test_limit_and_loops(loop, limit):
    g = gen.power_law(60, 4, 20, seed=41, directed=False)
    assert_bfs(g, 2, run(g, 2, limit=limit, loop=loop, alpha=1e12, beta=1e12), limit=limit)


def test_no_parents():
    g = gen.random(50, 400, seed=42)
    bare = run(g, 1, predecessors=False, alpha=1e12, beta=1e12)
    assert bare.parents is None
    np.testing.assert_array_equal(bare.levels, run(g, 1).levels)


@pytest.mark.parametrize("bad", [{"alpha": -1}, {"beta": "x"}, {"high_degree": 1.5},
                                 {"virtual_warps": 4}])
def test_bad_options_are_clear_errors(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        run(gen.ring(4, seed=43), 0, **bad)


def test_auto_picks_it_on_low_diameter_graphs_only():
    small_world = gen.rmat(8, 8, seed=44)
    road_like = gen.grid(30, 30, seed=45)
    assert low_diameter(small_world) and not low_diameter(road_like)
    assert warpath.methods.choose("bfs", "cuda", small_world).name == "direction-optimizing"
    assert warpath.methods.choose("bfs", "cuda", road_like).name == "queue"


@pytest.mark.parametrize("name", SMALL_REAL[1:])
def test_small_real_graphs(datasets_dir, name):
    g = dataset(datasets_dir, name)
    source = spread_sources(g, 1)[0]
    assert_bfs(g, source, run(g, source))


@pytest.mark.gpu
@pytest.mark.parametrize("options", OPTIONS + [{"loop": "paper"}],
                         ids=OPTION_IDS + ["paper"])
def test_larger_graphs_on_gpu(options):
    for g in (gen.rmat(16, 16, seed=1, directed=False), gen.rmat(15, 8, seed=2),
              gen.power_law(50000, 6, 8000, seed=3), gen.random(100000, 600000, seed=4),
              gen.grid(200, 200, seed=5)):
        for source in spread_sources(g, 2):
            assert_bfs(g, source, run(g, source, **options))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ROADS + SMALL_REAL)
def test_real_graphs_on_gpu(datasets_dir, name):
    g = dataset(datasets_dir, name)
    for source in spread_sources(g, 2):
        assert_bfs(g, source, run(g, source))
