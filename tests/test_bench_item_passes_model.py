"""bench/item_passes_model.py: the items' rounds reach scipy's distances, and each way of
walking an item needs no more warp passes than the one before it."""

import numpy as np
import pytest
from scipy.sparse import csgraph

import warpath
from bench_scripts import load_bench_script

model_script = load_bench_script("item_passes_model")


@pytest.mark.parametrize("delta", [0, 10])
def test_the_rounds_give_the_distances_and_fewer_passes_each_form(delta):
    graph = warpath.generators.random(300, 1800, seed=4)
    sources = np.array([0, 5, 5, 77, 120, 299], np.int64)
    expected = csgraph.dijkstra(graph.to_scipy(), indices=sources)
    (rounds, items, relaxations, lane, spread, packed, histogram,
     d) = model_script.launch_model(np.asarray(graph.indptr, np.int64),
                                    np.asarray(graph.indices, np.int64),
                                    np.asarray(graph.weights, np.int64), sources,
                                    np.int64(delta))
    for row, want in enumerate(expected):
        reached = np.isfinite(want)
        np.testing.assert_array_equal(d[reached, row], want[reached])
        assert (d[~reached, row] == model_script.NO_BOUND).all()
    assert histogram.sum() == items and histogram[len(sources) + 1:].sum() == 0
    assert relaxations >= graph.num_edges   # every reached arc at least once per row
    assert packed <= spread <= lane and rounds > 1


def test_with_one_row_every_item_walks_its_arcs_once():
    # one source: every scattering item has k = 1, so a lane a row takes d passes, one
    # relaxation each, and spread takes ceil(d / 32)
    graph = warpath.generators.rmat(7, 8, seed=6)
    indptr = np.asarray(graph.indptr, np.int64)
    (_, items, relaxations, lane, spread, _, histogram,
     _) = model_script.launch_model(indptr, np.asarray(graph.indices, np.int64),
                                    np.asarray(graph.weights, np.int64),
                                    np.array([0], np.int64), np.int64(0))
    assert lane == relaxations and histogram[1] + histogram[0] == items
    degrees = np.diff(indptr)
    assert spread < lane and spread >= -(-relaxations // 32)
    assert lane >= degrees[0]


def test_near_far_relaxes_less_in_more_rounds():
    graph = warpath.generators.random(400, 2400, seed=5)
    args = (np.asarray(graph.indptr, np.int64), np.asarray(graph.indices, np.int64),
            np.asarray(graph.weights, np.int64), np.arange(0, 320, 10, dtype=np.int64))
    plain = model_script.launch_model(*args, np.int64(0))
    near_far = model_script.launch_model(*args, np.int64(10))
    assert near_far[2] < plain[2] and near_far[0] > plain[0]


def test_the_script_prints_the_passes(capsys):
    assert model_script.main(["--vertices", "300", "--launches", "1", "--delta", "20"]) == 0
    out = capsys.readouterr().out
    assert "a lane a row" in out and "spread" in out and "packed" in out and "k=1" in out
