"""bench/whole_items_model.py: the model's rounds reach scipy's distances in both orders,
Gauss-Seidel order needs no more rounds or pairs than Jacobi order, and every reached
distance but the sources' is lowered at least once."""

import numpy as np
from scipy.sparse import csgraph

import warpath
from bench_scripts import load_bench_script

model_script = load_bench_script("whole_items_model")


def test_both_orders_give_the_distances():
    graph = warpath.generators.random(400, 2400, seed=3)
    sources = np.array([0, 17, 301, 17])
    expected = csgraph.dijkstra(graph.to_scipy(), indices=sources)
    counts = {}
    for jacobi in (True, False):
        rounds, pairs, expanded, lowerings, d = model_script.item_rounds(
            graph.indptr, graph.indices, graph.weights.astype(np.int64), sources, jacobi)
        reached = np.isfinite(expected.T)
        np.testing.assert_array_equal(d[reached], expected.T[reached])
        assert (d[~reached] == model_script.UNREACHED).all()
        counts[jacobi] = rounds, pairs
        assert pairs >= graph.num_edges * 0.9   # nearly every arc relaxed at least once
        # each reached entry off the sources was lowered from unreached at least once, and
        # no more often than its row relaxed arcs
        assert reached.sum() - len(sources) <= lowerings <= pairs * len(sources)
    assert counts[False][0] <= counts[True][0] and counts[False][1] <= counts[True][1]


def test_the_script_prints_both_orders(capsys):
    model_script.main(["--vertices", "300", "--rows", "4", "--sources", "8"])
    out = capsys.readouterr().out
    assert "Jacobi" in out and "Gauss-Seidel" in out and "2 launches" in out
    assert "lowerings" in out and "ms of atomics in all" in out
