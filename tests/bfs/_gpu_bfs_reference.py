"""Shared checks for the GPU BFS methods: small graphs of every generator shape, and
levels / BFS trees checked against scipy.sparse.csgraph (an independent reference)."""

from __future__ import annotations

import os

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

import warpath
from warpath import generators as gen

#: The road networks (PACE 2016 .gr files) of ../shared/datasets.
ROADS = ["USA-road-NY.pace16.gr.xz", "USA-road-BAY.pace16.gr.xz", "USA-road-COL.pace16.gr.xz",
         "USA-road-FLA.pace16.gr.xz", "USA-road-NW.pace16.gr.xz", "USA-road-NE.pace16.gr.xz"]
#: The small real graphs, quick enough for the simulator.
SMALL_REAL = ["helsinki-osm-drive.gr.gz", "facebook_combined.txt.gz",
              "soc-sign-bitcoinalpha.csv.gz"]


def _disconnected():
    """Two components (0..5 and 6..11) and an isolated vertex 12."""
    a = gen.random(6, 14, seed=7)
    b = gen.random(6, 14, seed=8, directed=False)
    return warpath.Graph.from_edges(np.concatenate([a.tails(), b.tails() + 6]),
                                    np.concatenate([a.indices, b.indices + 6]), num_vertices=13)


def _self_loops_and_duplicates():
    """Self-loops, a repeated arc and a sink, with weights that BFS must ignore."""
    return warpath.Graph.from_edges([0, 0, 0, 1, 1, 2, 3, 3], [0, 1, 1, 1, 2, 3, 0, 4],
                                    [3, 5, 5, -4, 0, 7, -9, 1])


def small_graphs():
    """(id, graph) pairs: every generator, directed and undirected, weighted every way
    (negative weights and a negative cycle included: BFS ignores them)."""
    return [
        ("random", gen.random(40, 160, seed=1)),
        ("random-undirected", gen.random(30, 60, seed=2, directed=False, weights="float")),
        ("rmat", gen.rmat(5, 4, seed=3)),
        ("rmat-undirected", gen.rmat(5, 4, seed=4, directed=False)),
        ("power-law", gen.power_law(50, 3, 15, seed=5)),
        ("power-law-undirected", gen.power_law(40, 3, 12, seed=6, directed=False)),
        ("ring", gen.ring(20, seed=7)),
        ("ring-undirected", gen.ring(15, seed=8, directed=False)),
        ("complete", gen.complete(8, seed=9)),
        ("grid", gen.grid(4, 5, seed=10)),
        ("grid-undirected", gen.grid(4, 4, seed=11, directed=False, weights=None)),
        ("disconnected", _disconnected()),
        ("negative-cycle", gen.with_negative_cycle(gen.random(20, 60, seed=12), seed=13)),
        ("loops-duplicates", _self_loops_and_duplicates()),
        ("one-vertex", warpath.Graph.from_edges([], [], num_vertices=1)),
    ]


def unit_matrix(graph):
    """Every arc with weight 1, as scipy sees a graph (no weight can hide an arc)."""
    n = graph.num_vertices
    return sp.csr_array((np.ones(graph.num_edges), graph.indices, graph.indptr), shape=(n, n))


def scipy_levels(graph, sources):
    """scipy's unweighted shortest paths as int64 levels, -1 where unreachable."""
    hops = csgraph.shortest_path(unit_matrix(graph), unweighted=True, indices=sources)
    return np.where(np.isinf(hops), -1, hops).astype(np.int64)


def assert_bfs_tree(graph, source, levels, parents):
    """Every reached vertex but the source has a parent one level up and an arc from it."""
    assert parents[source] == -1
    reached = levels >= 0
    assert np.all(parents[~reached] == -1)
    child = np.flatnonzero(reached)
    child = child[child != source]
    p = parents[child]
    assert np.all(p >= 0)
    assert np.array_equal(levels[p], levels[child] - 1)
    n = graph.num_vertices
    arcs = graph.tails().astype(np.int64) * n + graph.indices
    assert np.isin(p * n + child, arcs).all()


def assert_bfs(graph, source, result, limit=None):
    """Levels equal scipy's (cut at ``limit``), parents form a BFS tree, paths walk it."""
    expected = scipy_levels(graph, source)
    if limit is not None:
        expected = np.where(expected > limit, -1, expected)
    np.testing.assert_array_equal(result.levels, expected)
    assert result.parents is not None
    assert_bfs_tree(graph, source, result.levels, result.parents)
    far = int(np.argmax(expected))
    assert len(result.path(far)) == expected[far] + 1
    stats = result.stats
    for key in ("iterations", "relaxations", "launches", "host_syncs"):
        assert isinstance(stats[key], int) and stats[key] >= 0, key
    assert stats["device"] == "cuda" and stats["launches"] >= 1


def assert_full_bfs(graph, source, result):
    """:func:`assert_bfs` without a limit, and a level-synchronous BFS expands max level + 1
    frontiers."""
    assert_bfs(graph, source, result)
    assert result.stats["iterations"] == int(result.levels.max()) + 1


def dataset(datasets_dir, name):
    """A graph of the shared datasets; skips the test when this copy lacks the file (a GPU
    machine gets only the files staged for it)."""
    import pytest

    path = os.path.join(datasets_dir, name)
    if not os.path.exists(path):
        pytest.skip(f"{name} is not in {datasets_dir}")
    return warpath.read(path)


def spread_sources(graph, count, seed=0):
    """``count`` seeded sources, the vertex of largest out-degree first."""
    rng = np.random.default_rng(seed)
    first = int(np.argmax(graph.out_degrees()))
    return [first] + rng.integers(0, graph.num_vertices, size=count - 1).tolist()
