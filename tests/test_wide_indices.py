"""Graphs past 2**31 vertices or arcs get int64 indices, and every CPU path works on them.

A real graph of 2**31 arcs needs tens of GiB, more than CI has, so these
tests lower the int32 threshold (``warpath.dtypes.INT32_MAX``) until small
graphs take the int64 path, and check that the whole pipeline (construction,
files, every CPU solver) gives the same answers as with int32 indices.
"""

import numpy as np
import pytest

import warpath
from warpath import dtypes, generators


@pytest.fixture
def wide_indices(monkeypatch):
    monkeypatch.setattr(dtypes, "INT32_MAX", 8)


def _narrow_and_wide(make, monkeypatch):
    narrow = make()
    monkeypatch.setattr(dtypes, "INT32_MAX", 8)
    wide = make()
    return narrow, wide


def test_index_arrays_switch_to_int64(wide_indices):
    g = warpath.Graph.from_edges(np.arange(20), np.arange(1, 21))
    assert g.indices.dtype == np.int64 and g.indptr.dtype == np.int64
    assert g.reverse().indices.dtype == np.int64


@pytest.mark.parametrize("problem, method", [
    ("sssp", "dijkstra"), ("sssp", "bellman-ford"), ("bfs", "queue"),
])
def test_single_source_methods_agree_across_index_types(problem, method, monkeypatch):
    narrow, wide = _narrow_and_wide(lambda: generators.grid(6, 7, seed=3), monkeypatch)
    assert narrow.indices.dtype == np.int32 and wide.indices.dtype == np.int64
    solve = getattr(warpath, problem)
    a = solve(narrow, 5, method=method, device="cpu")
    b = solve(wide, 5, method=method, device="cpu")
    assert np.array_equal(a.distances, b.distances)
    assert np.array_equal(a.path(41), b.path(41))


@pytest.mark.parametrize("method", ["floyd-warshall", "johnson", "repeated-sssp"])
def test_apsp_methods_agree_across_index_types(method, monkeypatch):
    narrow, wide = _narrow_and_wide(
        lambda: generators.with_negative_weights(generators.random(30, 120, seed=2), seed=2),
        monkeypatch)
    a = warpath.apsp(narrow, method=method, device="cpu")
    b = warpath.apsp(wide, method=method, device="cpu")
    assert np.array_equal(a.distances, b.distances)


def test_files_round_trip_with_int64_indices(wide_indices, tmp_path):
    g = generators.random(40, 200, seed=1)
    for suffix in (".gr", ".npz", ".mtx"):
        path = tmp_path / f"g{suffix}"
        warpath.write(g, path)
        back = warpath.read(path)
        assert back.indices.dtype == np.int64
        assert np.array_equal(back.indices, g.indices) and np.array_equal(back.weights, g.weights)
