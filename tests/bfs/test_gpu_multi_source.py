"""multi-source BFS (64 searches per pass, one bit each) on the GPU against scipy:
every row's levels, every row's BFS tree, batches of more than 64 sources."""

import numpy as np
import pytest
from bfs._gpu_bfs_reference import (ROADS, SMALL_REAL, assert_bfs, assert_bfs_tree, dataset,
                                    scipy_levels, small_graphs, spread_sources)

import warpath
from warpath import generators as gen

GRAPHS = small_graphs()


def run(graph, sources, **options):
    return warpath.bfs(graph, sources=sources, method="multi-source", device="cuda", **options)


def assert_rows(graph, sources, matrix, limit=None):
    expected = scipy_levels(graph, sources)
    if limit is not None:
        expected = np.where(expected > limit, -1, expected)
    np.testing.assert_array_equal(matrix.levels, expected)
    for i, source in enumerate(sources):
        assert_bfs_tree(graph, source, matrix.levels[i], matrix.parents[i])
    assert isinstance(matrix, warpath.BFSMatrix) and matrix.stats["device"] == "cuda"


@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_matches_scipy(name, graph):
    sources = np.arange(min(graph.num_vertices, 20))
    assert_rows(graph, sources, run(graph, sources))


def test_more_than_64_sources_run_in_batches_of_64():
    g = gen.random(24, 70, seed=50, directed=False)
    sources = np.arange(70) % 23  # duplicates give equal rows
    m = run(g, sources, high_degree=4)
    assert_rows(g, sources, m)
    assert m.stats["batches"] == 2
    np.testing.assert_array_equal(m.levels[69], m.levels[0])


def test_one_pass_serves_every_search():
    g = gen.rmat(5, 6, seed=51)
    sources = np.arange(0, 32, 3)
    batched = run(g, sources)
    singles = sum(warpath.bfs(g, int(s), method="queue", device="cuda").stats["relaxations"]
                  for s in sources)
    assert batched.stats["relaxations"] < singles


@pytest.mark.parametrize("limit", [0, 2])
def test_limit_and_no_parents(limit):
    g = gen.grid(5, 5, seed=52)
    sources = [0, 12, 24]
    assert_rows(g, sources, run(g, sources, limit=limit), limit=limit)
    bare = run(g, sources, limit=limit, predecessors=False)
    assert bare.parents is None
    np.testing.assert_array_equal(bare.levels, run(g, sources, limit=limit).levels)


def test_paper_loop():
    g = gen.power_law(40, 3, 10, seed=53, directed=False)
    assert_rows(g, [0, 5, 9], run(g, [0, 5, 9], loop="paper"))


def test_one_source_gives_a_bfs_result():
    g = gen.ring(6, seed=54)
    r = warpath.bfs(g, 4, method="multi-source", device="cuda")
    assert isinstance(r, warpath.BFSResult)
    assert_bfs(g, 4, r)


def test_auto_picks_it_for_a_batch_on_the_gpu():
    g = gen.ring(6, seed=55)
    assert warpath.methods.choose("bfs", "cuda", g, batch=True).name == "multi-source"
    assert warpath.methods.choose("bfs", "cuda", g).name != "multi-source"
    m = warpath.bfs(g, sources=[1, 2], device="cuda")
    assert m.stats["method"] == "multi-source"


def test_small_real_graph(datasets_dir):
    g = dataset(datasets_dir, SMALL_REAL[1])
    sources = spread_sources(g, 2)
    assert_rows(g, sources, run(g, sources))


@pytest.mark.gpu
def test_larger_graphs_on_gpu():
    for g in (gen.rmat(14, 16, seed=1, directed=False), gen.power_law(30000, 6, 5000, seed=2),
              gen.grid(100, 100, seed=3), gen.random(50000, 300000, seed=4)):
        sources = spread_sources(g, 100)
        assert_rows(g, sources, run(g, sources))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ROADS[:2] + SMALL_REAL)
def test_real_graphs_on_gpu(datasets_dir, name):
    g = dataset(datasets_dir, name)
    sources = spread_sources(g, 64)
    m = run(g, sources, predecessors=False)
    np.testing.assert_array_equal(m.levels[:8], scipy_levels(g, sources[:8]))


@pytest.mark.parametrize("alpha,pulls,wide", [(0, False, 32), (1e12, True, 32), (1e12, True, 0),
                                               (1e12, True, 2)],
                         ids=["push", "pull", "pull-one-arc-a-thread", "pull-split-at-2"])
@pytest.mark.parametrize("name,graph", GRAPHS, ids=[name for name, _ in GRAPHS])
def test_each_direction_alone_matches_scipy(name, graph, alpha, pulls, wide):
    sources = np.arange(0, graph.num_vertices, 3)[:40]
    m = run(graph, sources, alpha=alpha, pull_wide=wide)
    assert_rows(graph, sources, m)
    expands = graph.out_degrees()[sources].sum() > 0   # else no round has arcs to weigh
    assert (m.stats["pull_rounds"] > 0) == (pulls and expands)


def test_a_pull_stops_reading_once_every_search_has_reached_the_vertex():
    # a complete graph, the sources its first 30 vertices: a pull finds every search among
    # the first 32 in-arcs of a vertex (in-arcs ascend by tail), and the next round has
    # nothing left to look for, so it reads about half the arcs that one push reads.  Each
    # vertex's 59 in-arcs in one thread (pull_wide): a thread stops on what it has seen, and
    # the threads of a split vertex run at once, each reading its whole segment on a GPU.
    g = gen.complete(60, seed=56)
    sources = np.arange(30)
    pushed, pulled = run(g, sources, alpha=0), run(g, sources, alpha=1e12, pull_wide=64)
    np.testing.assert_array_equal(pulled.levels, pushed.levels)
    assert pulled.stats["pull_rounds"] >= 1
    assert pulled.stats["relaxations"] < g.num_edges <= pushed.stats["relaxations"]


def test_a_search_whose_frontier_emptied_does_not_keep_pulls_reading():
    # vertex 60 has no arcs: its search is on round 1's frontier, which pulls every arc
    # looking for it, and on no later one: round 2 reads nothing (waiting for every bit of
    # the batch, it would read every arc again)
    src, dst = np.nonzero(~np.eye(60, dtype=bool))
    g = warpath.Graph.from_edges(src, dst, num_vertices=61)
    sources = np.append(np.arange(29), 60)
    pulled = run(g, sources, alpha=1e12)
    assert_rows(g, sources, pulled)
    assert pulled.stats["relaxations"] == g.num_edges


def test_queries_in_a_row_reuse_their_state_without_leaking_between_batches():
    g = gen.rmat(6, 6, seed=57, directed=False)
    first = run(g, np.arange(64) % g.num_vertices, limit=2)
    second = run(g, [5, 9], predecessors=False)
    assert_rows(g, [5, 9], run(g, [5, 9]))
    np.testing.assert_array_equal(second.levels, scipy_levels(g, [5, 9]))
    assert_rows(g, np.arange(64) % g.num_vertices, first, limit=2)


def test_alpha_and_pull_wide_must_be_non_negative():
    with pytest.raises(ValueError, match="alpha"):
        run(gen.ring(4, seed=58), [0], alpha=-1)
    with pytest.raises(ValueError, match="pull_wide"):
        run(gen.ring(4, seed=58), [0], pull_wide=-1)
