"""Recovering a negative cycle on the host."""

import warpath
from warpath.negative_cycles import negative_cycle_from as negative_cycle


def _weight(g, cycle):
    closed = cycle + cycle[:1]
    return sum(g.edge_weights(a)[g.neighbors(a) == b].min() for a, b in zip(closed, closed[1:]))


def test_planted_cycles_are_found_and_negative():
    for seed in range(5):
        g = warpath.generators.with_negative_cycle(warpath.generators.random(30, 90, seed=seed),
                                                   seed=seed)
        cycle = negative_cycle(g, 0)
        assert cycle is not None and _weight(g, cycle) < 0


def test_float_weights_and_device_graph_input():
    from warpath.cuda.device_graph import DeviceGraph
    from numba import cuda

    g = warpath.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 1], [0.5, -1.0, 0.25, 0.5])
    assert sorted(negative_cycle(g, 0)) == [1, 2, 3]
    dg = DeviceGraph.from_cuda_arrays(cuda.to_device(g.indptr), cuda.to_device(g.indices),
                                      cuda.to_device(g.weights))
    assert sorted(negative_cycle(dg, 0)) == [1, 2, 3]


def test_no_cycle_or_unreachable_cycle():
    g = warpath.Graph.from_edges([0, 2, 3], [1, 3, 2], [1, -5, 1])  # cycle 2-3 not reachable
    assert negative_cycle(g, 0) is None
    assert negative_cycle(warpath.generators.grid(3, 3, seed=1), 0) is None
