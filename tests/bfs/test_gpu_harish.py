"""harish (Harish & Narayanan's BFS, Alg. 1-2) on the GPU against scipy, both loops.

The real graphs run on the GPU only (``gpu`` marker): a round scans every vertex,
which the simulator's one block of Python threads makes slow on thousands of vertices.
"""

import numpy as np
import pytest
from bfs._gpu_bfs_reference import (ROADS, SMALL_REAL, assert_bfs, assert_full_bfs,
                                    dataset, small_graphs, spread_sources)

import warpath
from warpath import generators as gen

GRAPHS = small_graphs()
LOOPS = ("fast", "paper")


def run(graph, source, **options):
    return warpath.bfs(graph, source, method="harish", device="cuda", **options)


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(name, graph, loop):
    result = run(graph, 0, loop=loop)
    assert_full_bfs(graph, 0, result)
    assert result.stats["loop"] == loop


def test_paper_loop_reads_the_flag_every_level():
    g = gen.ring(9, seed=30)
    paper = run(g, 0, loop="paper")
    fast = run(g, 0)
    assert paper.stats["host_syncs"] >= 9 > fast.stats["host_syncs"]
    assert paper.stats["launches"] >= 2 * 9 > fast.stats["launches"]


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.parametrize("limit", [0, 2])
def test_limit(loop, limit):
    g = gen.grid(4, 6, seed=31)
    assert_bfs(g, 5, run(g, 5, loop=loop, limit=limit), limit=limit)


def test_not_chosen_by_auto():
    chosen = warpath.methods.choose("bfs", "cuda", gen.ring(30, seed=32))
    assert chosen.name != "harish"
    np.testing.assert_array_equal(run(gen.ring(4, seed=33), 1, predecessors=False).levels,
                                  [3, 0, 1, 2])


@pytest.mark.gpu
@pytest.mark.parametrize("loop", LOOPS)
def test_larger_graphs_on_gpu(loop):
    for g in (gen.grid(100, 100, seed=1), gen.power_law(50000, 6, 1000, seed=2),
              gen.random(100000, 600000, seed=3)):
        for source in spread_sources(g, 2):
            assert_bfs(g, source, run(g, source, loop=loop))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ROADS[:2] + SMALL_REAL)
def test_real_graphs_on_gpu(datasets_dir, name):
    g = dataset(datasets_dir, name)
    for source in spread_sources(g, 2):
        assert_bfs(g, source, run(g, source))
