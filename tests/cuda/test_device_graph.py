"""DeviceGraph: upload once, wrap GPU arrays, validate them on the GPU."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath.cuda.device_graph import DeviceGraph, device_graph


def test_uploaded_once_and_cached_on_the_graph():
    g = warpath.generators.random(30, 90, seed=1)
    dg = device_graph(g)
    assert device_graph(g) is dg and dg.host is g
    np.testing.assert_array_equal(dg.indices.copy_to_host(), g.indices)
    np.testing.assert_array_equal(dg.weights.copy_to_host(), g.weights)
    assert (dg.num_vertices, dg.num_edges, dg.directed) == (30, 90, True)
    assert dg.min_weight == g.min_weight and dg.max_abs_weight == g.max_abs_weight


def test_tails_built_on_the_device():
    g = warpath.generators.power_law(40, 3, 10, seed=2)
    np.testing.assert_array_equal(device_graph(g).tails.copy_to_host(), g.tails())


def test_from_cuda_arrays_summarises_on_the_device():
    g = warpath.generators.with_negative_weights(warpath.generators.grid(3, 3, seed=3), seed=4)
    dg = DeviceGraph.from_cuda_arrays(cuda.to_device(g.indptr), cuda.to_device(g.indices),
                                      cuda.to_device(g.weights), directed=True)
    assert dg.host is None
    assert dg.min_weight == g.min_weight and dg.has_negative_weights
    assert dg.max_abs_weight == g.max_abs_weight


def test_from_cuda_arrays_unweighted():
    dg = DeviceGraph.from_cuda_arrays(cuda.to_device(np.array([0, 2, 2, 2])),
                                      cuda.to_device(np.array([1, 2])))
    assert not dg.weighted and dg.weights.copy_to_host().tolist() == [1, 1]


@pytest.mark.parametrize("indptr,indices,weights,match", [
    ([0, 1, 1], [5], [1], "outside"),
    ([0, 1, 1], [1], [np.nan], "finite"),
    ([0, 2, 2], [1], [1], "ends at"),
    ([0, 1, 1], [1], [1, 2], "weights for"),
])
def test_from_cuda_arrays_rejects_bad_arrays(indptr, indices, weights, match):
    with pytest.raises(warpath.GraphError, match=match):
        DeviceGraph.from_cuda_arrays(cuda.to_device(np.array(indptr)),
                                     cuda.to_device(np.array(indices)),
                                     cuda.to_device(np.array(weights)))


def test_from_cuda_arrays_rejects_host_arrays_and_bad_types():
    with pytest.raises(warpath.GraphError, match="on the GPU"):
        DeviceGraph.from_cuda_arrays(np.array([0, 0]), np.array([], dtype=np.int32))
    with pytest.raises(warpath.GraphError, match="int32 or int64"):
        DeviceGraph.from_cuda_arrays(cuda.to_device(np.array([0.0, 0.0])),
                                     cuda.to_device(np.array([], dtype=np.int32)))


@pytest.mark.gpu
def test_cupy_arrays_without_a_host_round_trip():
    cupy = pytest.importorskip("cupy")
    g = warpath.generators.grid(20, 20, seed=5)
    dg = DeviceGraph.from_cuda_arrays(cupy.asarray(g.indptr), cupy.asarray(g.indices),
                                      cupy.asarray(g.weights))
    result = warpath.sssp(dg, 0, method="locality")
    expected = warpath.sssp(g, 0, method="dijkstra", device="cpu").distances
    np.testing.assert_array_equal(result.distances, expected)


@pytest.mark.gpu
def test_torch_arrays_without_a_host_round_trip():
    torch = pytest.importorskip("torch")
    g = warpath.generators.grid(20, 20, seed=6)
    on_gpu = [torch.as_tensor(a).cuda() for a in (g.indptr, g.indices, g.weights)]
    result = warpath.sssp(DeviceGraph.from_cuda_arrays(*on_gpu), 0, method="harish")
    expected = warpath.sssp(g, 0, method="dijkstra", device="cpu").distances
    np.testing.assert_array_equal(result.distances, expected)


def test_reverse_is_built_once_and_undirected_graphs_are_their_own():
    g = warpath.generators.random(20, 60, seed=9)
    dg = device_graph(g)
    rev = dg.reverse()
    assert rev is dg.reverse() and rev.directed
    np.testing.assert_array_equal(rev.indptr.copy_to_host(), g.reverse().indptr)
    np.testing.assert_array_equal(rev.indices.copy_to_host(), g.reverse().indices)
    undirected = device_graph(warpath.generators.ring(5, seed=1, directed=False))
    assert undirected.reverse() is undirected
    bare = DeviceGraph.from_cuda_arrays(dg.indptr, dg.indices)
    np.testing.assert_array_equal(bare.reverse().indices.copy_to_host(), g.reverse().indices)


def test_a_graph_without_arcs_still_has_a_one_slot_tails_stand_in():
    """A slice of an empty device array fails on a real GPU (not in the simulator), so the
    kernels' unused tails argument must not be one."""
    from warpath.cuda.problem import Problem

    g = warpath.Graph([0, 0], [])
    assert device_graph(g).no_tails.shape == (1,)
    assert Problem(g, 0).graph_arrays()[3].shape == (1,)


def test_vertices_with_arcs_are_listed_once_in_order():
    g = device_graph(warpath.Graph.from_edges([3, 0, 3, 5], [1, 2, 4, 0], num_vertices=7))
    listed = g.vertices_with_arcs()
    assert listed.copy_to_host().tolist() == [0, 3, 5]
    assert np.dtype(listed.dtype) == np.int32 and g.vertices_with_arcs() is listed
    assert device_graph(warpath.Graph([0, 0, 0], [])).vertices_with_arcs().shape == (0,)


@pytest.mark.parametrize("most", [1, 2, 5, 10**6])
def test_arc_segments_cut_each_vertex_in_pieces_of_at_most_most_arcs(most):
    g = warpath.generators.power_law(60, 3, 20, seed=9)
    firsts, owners = (a.copy_to_host() for a in device_graph(g).arc_segments(most))
    degrees = np.diff(g.indptr)
    assert firsts[0] == 0 and firsts[-1] == g.indptr[-1] and np.all(np.diff(firsts) >= 1)
    assert np.all(np.diff(firsts) <= most)
    vertices = np.where(owners >= 0, owners, ~owners)
    # every arc in exactly one segment, of its own vertex, in CSR order
    arc_vertex = np.repeat(vertices, np.diff(firsts))
    np.testing.assert_array_equal(arc_vertex, np.repeat(np.arange(g.num_vertices), degrees))
    # negated exactly where the vertex's arcs span several segments
    np.testing.assert_array_equal(owners < 0, degrees[vertices] > most)
    assert device_graph(g).arc_segments(most)[0] is device_graph(g).arc_segments(most)[0]


def test_arc_segments_of_a_graph_without_arcs_and_of_a_huge_length():
    empty = device_graph(warpath.Graph([0, 0, 0], [])).arc_segments(4)
    assert empty[0].copy_to_host().tolist() == [0] and empty[1].shape == (0,)
    g = warpath.generators.power_law(60, 3, 20, seed=9)
    firsts, owners = (a.copy_to_host() for a in device_graph(g).arc_segments(2**63))
    assert owners.tolist() == np.flatnonzero(np.diff(g.indptr)).tolist()   # nothing split
    assert firsts.tolist() == sorted(set(g.indptr.tolist()))


def test_arc_segments_need_at_least_one_arc_each():
    with pytest.raises(ValueError, match="at least one arc"):
        device_graph(warpath.generators.ring(4, seed=0)).arc_segments(0)
