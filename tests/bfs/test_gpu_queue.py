"""queue (frontier-queue BFS with CAS-claimed levels) on the GPU against scipy.

Under the simulator: every generator shape, both loops, high-degree vertices
expanded by the whole grid, limit=, the small real graphs.  On the GPU
(``gpu`` marker): larger graphs with many blocks and full warps, and every
real road network.
"""

import numpy as np
import pytest
from bfs._gpu_bfs_reference import (ROADS, SMALL_REAL, assert_bfs, assert_full_bfs,
                                    dataset, small_graphs, spread_sources)

import warpath
from warpath import generators as gen

GRAPHS = small_graphs()
OPTIONS = [{}, {"high_degree": 2}, {"high_degree": 0}, {"virtual_warps": "block"},
           {"virtual_warps": "block", "high_degree": 2}]
OPTION_IDS = ["fast", "high-degree-2", "no-high-degree", "block-balance",
              "block-balance-high-degree-2"]
#: The paper loop launches a thread per (vertex, lane) every level: a few graphs under the simulator.
PAPER_GRAPHS = [(name, g) for name, g in GRAPHS if name in ("rmat", "grid", "disconnected")]


def run(graph, source, **options):
    return warpath.bfs(graph, source, method="queue", device="cuda", **options)


@pytest.mark.parametrize("options", OPTIONS, ids=OPTION_IDS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(name, graph, options):
    result = run(graph, 0, **options)
    assert_full_bfs(graph, 0, result)
    assert result.stats["relaxations"] == graph.out_degrees()[result.levels >= 0].sum()


@pytest.mark.parametrize("name,graph", PAPER_GRAPHS, ids=[name for name, _ in PAPER_GRAPHS])
def test_paper_loop(name, graph):
    result = run(graph, 0, loop="paper")
    assert_bfs(graph, 0, result)
    assert result.stats["host_syncs"] >= result.stats["iterations"]


@pytest.mark.parametrize("limit", [0, 1, 2, 3.5])
def test_limit(limit):
    g = gen.grid(5, 5, seed=20)
    assert_bfs(g, 12, run(g, 12, limit=limit), limit=np.floor(limit))


def test_a_tiny_frontier_spreads_over_warps_and_expands_each_vertex_once():
    """Source 0 -> three hubs of 30 leaves each.  One launch per round (the paper loop)
    gives a grid of one thread per vertex and lane (94 blocks of 32 under the simulator),
    so round 0's lone source is expanded by a group of several warps; every arc of a
    reached vertex is looked at exactly once.  With ``high_degree=2`` the source and the
    hubs go to the heavy queue and the light queue is empty in those rounds (the case
    that once made a zero-step loop)."""
    tails = [0, 0, 0] + [h for h in (1, 2, 3) for _ in range(30)]
    heads = [1, 2, 3] + list(range(4, 94))
    g = warpath.Graph.from_edges(tails, heads)
    for loop in ("paper", "fast"):
        for options in ({}, {"high_degree": 2}):   # the hubs alone (an empty light queue)
            result = warpath.bfs(g, 0, method="queue", device="cuda", loop=loop, **options)
            assert_bfs(g, 0, result)
            assert result.stats["relaxations"] == g.num_edges


def test_every_source_and_no_parents():
    g = gen.rmat(5, 3, seed=21, directed=False)
    for source in range(0, g.num_vertices, 5):
        assert_bfs(g, source, run(g, source))
    bare = run(g, 3, predecessors=False)
    assert bare.parents is None
    np.testing.assert_array_equal(bare.levels, run(g, 3).levels)
    with pytest.raises(ValueError, match="parents"):
        bare.path(1)


def test_levels_stay_on_the_device_until_read():
    r = run(gen.ring(6, seed=22), 2)
    assert r._arrays.device_distances is not None and r.levels.tolist() == [4, 5, 0, 1, 2, 3]


def test_bad_options_are_clear_errors():
    g = gen.ring(4, seed=23)
    with pytest.raises(ValueError, match="high_degree"):
        run(g, 0, high_degree=-1)
    with pytest.raises(ValueError, match="loop"):
        run(g, 0, loop="sometimes")
    with pytest.raises(TypeError, match="alpha"):
        run(g, 0, alpha=3)
    with pytest.raises(ValueError, match="virtual_warps"):
        run(g, 0, virtual_warps=False)


@pytest.mark.parametrize("name", SMALL_REAL)
def test_small_real_graphs(datasets_dir, name):
    g = dataset(datasets_dir, name)
    source = spread_sources(g, 1)[0]
    assert_bfs(g, source, run(g, source))


@pytest.mark.gpu
@pytest.mark.parametrize("options", OPTIONS + [{"loop": "paper"}], ids=OPTION_IDS + ["paper"])
def test_larger_graphs_on_gpu(options):
    for g in (gen.grid(200, 200, seed=1), gen.power_law(50000, 6, 8000, seed=2),
              gen.rmat(16, 16, seed=3, directed=False), gen.random(100000, 600000, seed=4),
              gen.ring(5000, seed=5, directed=False)):
        for source in spread_sources(g, 2):
            assert_bfs(g, source, run(g, source, **options))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ROADS)
def test_road_networks_on_gpu(datasets_dir, name):
    g = dataset(datasets_dir, name)
    for source in spread_sources(g, 2):
        assert_bfs(g, source, run(g, source))
