"""The task-parallel path recording: both passes give shortest-path trees (scipy's distances),
the tight-arc search also where zero-weight cycles would fool a tight-arc choice."""

import numpy as np
import pytest
from graph_strategies import assert_shortest_path_tree, scipy_graph
from numba import cuda
from scipy.sparse import csgraph
from sssp._gpu_reference import small_graphs

import warpath
from warpath.apsp.gpu_predecessors import record_predecessors
from warpath.cuda.problem import Problem
from warpath.result import walk_predecessors

GRAPHS = dict(small_graphs())


def recorded(graph, sources, pull):
    """Record parents from scipy's exact distances, laid out vertex-major as a launch's."""
    sources = np.asarray(sources, dtype=np.int64)
    width, n = len(sources), graph.num_vertices
    exact = csgraph.johnson(scipy_graph(graph), indices=sources)
    dtype = np.int32 if graph.weights.dtype.kind == "i" else np.float64
    big = np.iinfo(np.int32).max if dtype == np.int32 else np.inf
    rows = np.where(np.isinf(exact), big, exact).astype(dtype)
    d = cuda.to_device(np.ascontiguousarray(rows.T).reshape(-1))
    pred = cuda.device_array(n * width, dtype=graph.indices.dtype)
    masks = cuda.device_array(2 * n * width, dtype=np.uint8)
    problem = Problem(graph, sources, distances=d)
    record_predecessors(problem, masks, pred, cuda.to_device(sources), pull=pull)
    parents = pred.copy_to_host().reshape(n, width).T.astype(np.int64)
    parents[np.arange(width), sources] = -1   # what delivery does for each row's source
    return exact, parents


@pytest.mark.parametrize("pull", [True, False])
@pytest.mark.parametrize("name", ["random-int", "grid", "disconnected", "power-law"])
def test_both_passes_give_shortest_path_trees(name, pull):
    graph = GRAPHS[name]
    sources = [0, 2, 5, 1, 0]
    exact, parents = recorded(graph, sources, pull)
    for row, source in enumerate(sources):
        assert_shortest_path_tree(graph, source, exact[row], parents[row])
        for target in np.flatnonzero(np.isfinite(exact[row])):
            assert walk_predecessors(parents[row], source, int(target))[0] == source


@pytest.mark.parametrize("name", ["zero-cycles", "negative-zero-cycle", "grid-unweighted",
                                  "negative"])
def test_the_search_never_closes_a_cycle_of_tight_arcs(name):
    graph = GRAPHS[name]
    sources = list(range(graph.num_vertices))[:6]
    exact, parents = recorded(graph, sources, pull=False)
    for row, source in enumerate(sources):
        assert_shortest_path_tree(graph, source, exact[row], parents[row])
        for target in np.flatnonzero(np.isfinite(exact[row])):   # raises on a cycle
            assert walk_predecessors(parents[row], source, int(target))[0] == source


def test_a_tight_arc_choice_closes_a_cycle_that_the_search_avoids():
    """Why the search exists: from 0, both arcs of 1 <-> 2 (weight 0) are tight, and the
    one-pass choice (the last tight in-arc) picks them both."""
    graph = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, 0, 0])
    _, chosen = recorded(graph, [0], pull=True)
    assert chosen[0].tolist() == [-1, 2, 1]
    with pytest.raises(RuntimeError, match="cycle"):
        walk_predecessors(chosen[0], 0, 2)
    _, searched = recorded(graph, [0], pull=False)
    assert searched[0].tolist() == [-1, 0, 1]
