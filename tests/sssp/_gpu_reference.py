"""Shared checks for the GPU SSSP methods: small graphs of every generator and
cross-checks against scipy.sparse.csgraph (an independent reference)."""

from __future__ import annotations

import numpy as np
import scipy.sparse.csgraph as csgraph

import warpath
from warpath import generators as gen

LOOPS = ("paper", "fast")


def _disconnected():
    """Two components (0..4 and 5..9) plus an isolated vertex 10."""
    a = gen.random(5, 12, seed=7)
    b = gen.random(5, 12, seed=8)
    src = np.concatenate([a.tails(), b.tails() + 5])
    dst = np.concatenate([a.indices, b.indices + 5])
    w = np.concatenate([a.weights, b.weights])
    return warpath.Graph.from_edges(src, dst, w, num_vertices=11)


def _zero_weight_cycles():
    """Tight zero-weight cycles (0 <-> 1, 2 -> 3 -> 4 -> 2) that a naive
    tight-arc predecessor choice would turn into predecessor cycles."""
    src = [0, 1, 0, 1, 2, 3, 4, 3, 4, 5]
    dst = [1, 0, 2, 2, 3, 4, 2, 5, 5, 6]
    w = [0, 0, 3, 3, 0, 0, 0, 2, 2, 0]
    return warpath.Graph.from_edges(src, dst, w)


def _negative_zero_cycle():
    """A cycle of total weight 0 with a negative arc (u -> v: -2, v -> u: +2)."""
    return warpath.Graph.from_edges([0, 1, 2, 1, 3], [1, 2, 1, 3, 4], [1, -2, 2, 4, -1])


def small_graphs():
    """(id, graph) pairs: every generator, directed and undirected, int and float
    weights, disconnected, negative weights, zero-weight cycles, wide integers."""
    return [
        ("random-int", gen.random(30, 100, seed=1)),
        ("random-float-undirected", gen.random(30, 60, seed=2, weights="float", directed=False)),
        ("rmat", gen.rmat(5, 4, seed=3)),
        ("power-law", gen.power_law(50, 3, 15, seed=4)),
        ("ring", gen.ring(20, seed=5)),
        ("ring-undirected", gen.ring(15, seed=6, directed=False)),
        ("complete", gen.complete(8, seed=7)),
        ("grid", gen.grid(4, 5, seed=8)),
        ("grid-unweighted", gen.grid(4, 4, seed=9, weights=None)),
        ("disconnected", _disconnected()),
        ("negative", gen.with_negative_weights(gen.random(35, 120, seed=10), seed=11)),
        ("negative-grid", gen.with_negative_weights(gen.grid(4, 5, seed=12), seed=13)),
        ("zero-cycles", _zero_weight_cycles()),
        ("negative-zero-cycle", _negative_zero_cycle()),
        ("float32", _retyped(gen.random(30, 100, seed=14, weights="float"), np.float32)),
        ("int64-wide", _retyped(gen.grid(3, 4, seed=15), np.int64, scale=2**40)),
    ]


def _retyped(g, dtype, scale=1):
    return warpath.Graph(g.indptr, g.indices, g.weights.astype(dtype) * dtype(scale),
                         directed=g.directed)


def reference(g, source):
    """scipy's distances (Bellman-Ford with negative weights, else Dijkstra)."""
    matrix = g.to_scipy()
    if g.has_negative_weights:
        return csgraph.bellman_ford(matrix, indices=source)
    return csgraph.dijkstra(matrix, indices=source)


def arc_weight(g, u, v):
    """The weight of arc u -> v (Graph keeps the minimum of duplicates)."""
    heads = g.neighbors(u)
    hit = np.flatnonzero(heads == v)
    assert hit.size, f"{u} -> {v} is not an arc"
    return g.edge_weights(u)[hit].min()


def assert_matches_reference(g, source, result):
    """Distances equal scipy's (exact for integers), predecessors form a
    shortest-path tree and every path() terminates and has the right length."""
    expected = reference(g, source)
    got = result.distances
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    finite = np.isfinite(expected)
    if g.weights.dtype.kind == "i":
        exact = result.exact_distances
        assert exact is not None
        assert np.array_equal(exact[finite].astype(np.float64), expected[finite])
    else:
        rtol = 1e-5 if g.weights.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got[finite], expected[finite], rtol=rtol, atol=1e-6)
    pred = result.predecessors
    assert pred is not None and pred[source] == -1
    assert np.all(pred[~finite] == -1)
    for t in np.flatnonzero(finite):
        path = result.path(int(t))
        assert path[0] == source and path[-1] == t
        assert len(set(path.tolist())) == len(path)
        length = sum(float(arc_weight(g, a, b)) for a, b in zip(path[:-1], path[1:]))
        assert np.isclose(length, expected[t], rtol=1e-5, atol=1e-6)
    stats = result.stats
    for key in ("iterations", "relaxations", "launches", "host_syncs"):
        assert isinstance(stats[key], int) and stats[key] >= 0, key
    assert stats["device"] == "cuda" and stats["launches"] >= 1 and stats["host_syncs"] >= 1


def assert_tight_predecessors(g, source, result):
    """Distances equal scipy's and each reached vertex's predecessor is the tail of a tight
    arc into it (a shortest-path tree when weights are positive); vectorised, for graphs
    too large to walk every path in Python."""
    expected = reference(g, source)
    np.testing.assert_array_equal(result.distances, expected)
    d, pred = result.distances, result.predecessors
    n = g.num_vertices
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(g.indptr))
    heads = np.asarray(g.indices, dtype=np.int64)
    tight = d[tails] + g.weights == d[heads]
    reached = np.isfinite(d)
    reached[source] = False
    chosen = pred[reached].astype(np.int64) * n + np.flatnonzero(reached)
    assert np.isin(chosen, tails[tight] * n + heads[tight]).all()
    assert (pred[~reached] == -1).all()


def assert_negative_cycle(g, error):
    """The error carries a real cycle of negative total weight."""
    cycle = error.cycle
    assert cycle is not None and len(cycle) >= 1
    closed = list(cycle) + [cycle[0]]
    total = sum(float(arc_weight(g, a, b)) for a, b in zip(closed[:-1], closed[1:]))
    assert total < 0


def negative_cycle_graphs():
    """(id, graph) pairs that hold a negative cycle reachable from vertex 0."""
    return [
        ("planted-random", gen.with_negative_cycle(gen.random(14, 35, seed=21), seed=22)),
        ("planted-grid", gen.with_negative_cycle(gen.grid(3, 4, seed=23), seed=24)),
        ("self-loop", warpath.Graph.from_edges([0, 1, 1], [1, 1, 2], [2, -1, 3])),
        ("two-cycle", warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [5, -3, 1])),
    ]
