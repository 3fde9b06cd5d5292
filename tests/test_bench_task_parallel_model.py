"""bench/task_parallel_model.py: the model's rounds reach scipy's distances, and near-far
buckets cut the relaxations of Bellman-Ford rounds."""

import numpy as np
from scipy.sparse import csgraph

import warpath
from bench_scripts import load_bench_script

model_script = load_bench_script("task_parallel_model")


def test_every_order_gives_the_distances_and_buckets_relax_less():
    graph = warpath.generators.random(400, 2400, seed=3)
    sources = [0, 17, 301]
    expected = csgraph.dijkstra(graph.to_scipy(), indices=sources)
    counts = {}
    for delta, jacobi in [(0, False), (0, True), (10, False), (1000, False)]:
        relaxations, rounds, rows = model_script.model(graph, sources, delta, jacobi)
        for row, want in zip(rows, expected):
            reached = np.isfinite(want)
            np.testing.assert_array_equal(row[reached], want[reached])
            assert (row[~reached] == model_script.NO_BOUND).all()
        counts[delta, jacobi] = relaxations, rounds
    assert counts[0, True][0] >= counts[0, False][0] > 1.5   # several scatters an arc
    assert 0.9 < counts[10, False][0] < counts[0, False][0] * 0.7   # near Dijkstra's 1
    assert counts[10, False][1] > counts[0, False][1]   # in more rounds
    assert counts[1000, False][0] == counts[0, False][0]   # one bucket: Bellman-Ford


def test_the_script_prints_a_line_per_order(capsys):
    model_script.main(["--vertices", "300", "--sources", "2", "--deltas", "20"])
    out = capsys.readouterr().out
    assert "Jacobi" in out and "near-far, delta 20" in out and "relaxations per arc" in out
