"""warpath.csr: the numpy path for small inputs builds the same CSR as the numba kernel, and
the reverse CSR matches a stable sort by head."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpath import csr


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.data())
def test_small_path_equals_the_kernel(n, data):
    m = data.draw(st.integers(0, 120))
    vertex = st.integers(0, n - 1)
    src = np.array(data.draw(st.lists(vertex, min_size=m, max_size=m)), dtype=np.int64)
    dst = np.array(data.draw(st.lists(vertex, min_size=m, max_size=m)), dtype=np.int64)
    kind = data.draw(st.sampled_from(["none", "int", "float"]))
    weights = None
    if kind == "int":
        weights = np.array(data.draw(st.lists(st.integers(-9, 9), min_size=m, max_size=m)),
                           dtype=np.int32)
    elif kind == "float":
        weights = np.array(data.draw(st.lists(st.floats(-5, 5), min_size=m, max_size=m)))
    small = csr._build_csr_small(src, dst, weights, n)
    kernel = csr._build_csr(src, dst, np.zeros(1, np.int32) if weights is None else weights, n,
                            weights is not None)
    for got, expected in zip(small[:2], kernel[:2]):
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
    if weights is not None:
        assert small[2].dtype == kernel[2].dtype and np.array_equal(small[2], kernel[2])


def test_large_inputs_take_the_kernel(monkeypatch):
    taken = []
    monkeypatch.setattr(csr, "_build_csr", lambda *args: taken.append(1) or (
        np.zeros(3, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32)))
    csr.build_csr(np.zeros(csr.SMALL_ARCS + 1, np.int64), np.ones(csr.SMALL_ARCS + 1, np.int64),
                  None, 2)
    assert taken == [1]


def _reverse_by_sort(indptr, heads, weights, n):
    """The reverse graph the plain way: a stable sort of the arcs by head."""
    order = np.argsort(heads, kind="stable")
    tails = np.repeat(np.arange(n), np.diff(indptr))
    counts = np.bincount(heads, minlength=n)
    return (np.concatenate([[0], np.cumsum(counts)]), tails[order],
            None if weights is None else weights[order])


@pytest.mark.parametrize("counting_sort", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_reverse_csr_matches_a_stable_sort_by_head(monkeypatch, counting_sort, seed):
    if counting_sort:   # the numba path, as graphs above SMALL_ARCS arcs take it
        monkeypatch.setattr(csr, "SMALL_ARCS", 0)
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    m = int(rng.integers(0, 300))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)   # parallel arcs and loops too
    order = np.argsort(src, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n))])
    heads = dst[order].astype([np.int32, np.int64][seed % 2])
    weights = None if seed == 3 else rng.normal(size=m)[order]
    got = csr.reverse_csr(indptr, heads, weights, n)
    want = _reverse_by_sort(indptr, heads, weights, n)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert got[1].dtype == heads.dtype
    if weights is None:
        assert got[2] is None
    else:
        np.testing.assert_array_equal(got[2], want[2])


def test_graph_reverse_through_the_counting_sort_matches_the_sort(monkeypatch):
    """``Graph.reverse`` hands the counting sort read-only int32 arrays (a separate
    compilation from the test above's)."""
    import warpath

    monkeypatch.setattr(csr, "SMALL_ARCS", 0)
    g = warpath.generators.rmat(8, 6, seed=2, directed=True)
    reverse = g.reverse()
    want = _reverse_by_sort(g.indptr, g.indices, g.weights, g.num_vertices)
    np.testing.assert_array_equal(reverse.indptr, want[0])
    np.testing.assert_array_equal(reverse.indices, want[1])
    np.testing.assert_array_equal(reverse.weights, want[2])
    assert reverse.indices.dtype == g.indices.dtype and reverse.weights.dtype == g.weights.dtype
    empty = warpath.Graph.from_edges([], [], num_vertices=3).reverse()
    assert empty.indptr.tolist() == [0, 0, 0, 0] and empty.num_edges == 0
