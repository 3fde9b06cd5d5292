"""The predecessor recording pass: tight arcs, and a BFS tree when arcs can be 0 or negative."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath.cuda.predecessors import HEAVY_DEGREE, record_predecessors
from warpath.cuda.problem import Problem
from warpath.result import walk_predecessors


def _check_tree(g, source, d, pred):
    n = g.num_vertices
    for v in range(n):
        if v == source or not np.isfinite(d[v]):
            assert pred[v] == -1
            continue
        path = walk_predecessors(pred, source, v)  # raises on a predecessor cycle
        assert path[0] == source and path[-1] == v


def _hub(leaves: int) -> warpath.Graph:
    """0 -> hub 1 -> ``leaves`` leaves -> one sink -> 1, every arc of weight 0: the sink's
    offer to the hub closes a loop, so the pass is the search over tight arcs, in which the
    hub is expanded by the whole grid and every leaf offers itself to the sink."""
    sink = leaves + 2
    leaf = np.arange(2, leaves + 2)
    tails = np.concatenate([[0], np.ones(leaves, np.int64), leaf, [sink]])
    heads = np.concatenate([[1], leaf, np.full(leaves, sink), [1]])
    return warpath.Graph.from_edges(tails, heads, np.zeros(tails.size, np.int32))


@pytest.mark.parametrize("graph", [
    warpath.Graph.from_edges([0, 1, 1, 2, 3, 2], [1, 2, 3, 3, 2, 4], [0, 0, 1, 0, 0, 5]),
    _hub(HEAVY_DEGREE + 100),
    warpath.generators.with_negative_weights(warpath.generators.grid(4, 4, seed=1), seed=2),
    warpath.generators.grid(4, 5, seed=3),
    warpath.generators.random(30, 80, seed=4, weights="float"),
], ids=["zero-cycles", "heavy-hub", "negative", "positive-int", "positive-float"])
def test_recorded_predecessors_form_a_shortest_path_tree(graph):
    import scipy.sparse.csgraph as csgraph

    d = csgraph.bellman_ford(graph.to_scipy(), indices=0)
    dtype = graph.weights.dtype
    raw = d.copy()
    if dtype.kind == "i":
        raw[~np.isfinite(raw)] = np.iinfo(dtype).max
    problem = Problem(graph, 0, distances=cuda.to_device(raw.astype(dtype)[None, :]))
    pred = record_predecessors(problem).copy_to_host()
    assert problem.tally.launches >= 1
    _check_tree(graph, 0, d, pred)
    for v in np.flatnonzero(np.isfinite(d)):
        if v:
            u = pred[v]
            hit = graph.neighbors(u) == v
            assert np.isclose(d[u] + graph.edge_weights(u)[hit].min(), d[v])


@pytest.mark.parametrize("graph,checks,searches", [
    (warpath.Graph.from_edges([0, 1, 1, 2, 3, 2], [1, 2, 3, 3, 2, 4], [0, 0, 1, 0, 0, 5]), 1, 1),
    (warpath.Graph.from_edges([0, 1, 2], [1, 2, 2], [-1, 0, 0]), 1, 1),   # a self-loop of 0
    (warpath.generators.with_negative_weights(warpath.generators.grid(6, 6, seed=1), seed=2),
     1, 0),
    (warpath.Graph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], [0, 0, 0, 0]), 1, 0),   # ties, no loop
    (warpath.Graph.from_edges([0, 1, 2], [1, 2, 3], [2, 0, 1], directed=False), 0, 1),
    (warpath.generators.grid(5, 5, seed=7, directed=False), 0, 0),   # one pass, no check
], ids=["zero-cycle", "zero-self-loop", "negative-no-zero-cycle", "zero-no-cycle",
        "undirected-zero-edge", "undirected-positive"])
def test_the_search_runs_only_when_the_offers_loop(graph, checks, searches, monkeypatch):
    """Negative or zero weights: one pass of offers, checked by pointer jumping; the search
    over tight arcs only when an offer chain loops instead of reaching the source, or at
    once (no pass, no check) for an undirected graph with an edge of weight 0."""
    import scipy.sparse.csgraph as csgraph

    from warpath.cuda import predecessors

    calls = []
    search, check = predecessors._search_tight_arcs, predecessors._OfferCheck
    monkeypatch.setattr(predecessors, "_search_tight_arcs",
                        lambda *args: calls.append("search") or search(*args))
    monkeypatch.setattr(predecessors, "_OfferCheck",
                        lambda *args: calls.append("check") or check(*args))
    d = csgraph.bellman_ford(graph.to_scipy(), indices=0)
    raw = np.where(np.isfinite(d), d, np.iinfo(np.int32).max).astype(graph.weights.dtype)
    pred = record_predecessors(Problem(graph, 0, distances=cuda.to_device(raw[None, :])))
    assert (calls.count("check"), calls.count("search")) == (checks, searches)
    _check_tree(graph, 0, d, pred.copy_to_host())
