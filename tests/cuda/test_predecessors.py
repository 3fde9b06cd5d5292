"""The predecessor recording pass: tight arcs, and a BFS tree when arcs can be 0 or negative."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath.cuda.predecessors import record_predecessors
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


@pytest.mark.parametrize("graph", [
    warpath.Graph.from_edges([0, 1, 1, 2, 3, 2], [1, 2, 3, 3, 2, 4], [0, 0, 1, 0, 0, 5]),
    warpath.generators.with_negative_weights(warpath.generators.grid(4, 4, seed=1), seed=2),
    warpath.generators.grid(4, 5, seed=3),
    warpath.generators.random(30, 80, seed=4, weights="float"),
], ids=["zero-cycles", "negative", "positive-int", "positive-float"])
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
