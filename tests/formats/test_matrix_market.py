"""Matrix Market .mtx: compared with scipy.io, round trips and malformed files."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import warpath
from warpath.formats import matrix_market
from formats._graphs import assert_same_graph


def mtx(text: str, **kwargs):
    return matrix_market.read_matrix_market(io.BytesIO(text.encode()), **kwargs)


@pytest.mark.parametrize("field, symmetry", [("real", "general"), ("integer", "general"),
                                             ("pattern", "general"), ("real", "symmetric"),
                                             ("integer", "symmetric")])
def test_agrees_with_scipy_mmwrite(field, symmetry):
    rng = np.random.default_rng(5)
    dense = rng.integers(1, 9, (12, 12)) * (rng.random((12, 12)) < 0.3)
    if field == "real":
        dense = dense * 0.37
    if symmetry == "symmetric":
        dense = np.tril(dense) + np.tril(dense, -1).T
    buffer = io.BytesIO()
    scipy.io.mmwrite(buffer, sp.coo_array(dense), field=field, symmetry=symmetry)
    g = matrix_market.read_matrix_market(io.BytesIO(buffer.getvalue()))
    assert g.directed == (symmetry == "general")
    expected = (dense != 0).astype(int) if field == "pattern" else dense
    np.testing.assert_allclose(g.to_scipy().toarray(), expected, rtol=0, atol=0)
    if field == "integer":
        assert g.weights.dtype == np.int32
    if field == "real":
        assert g.weights.dtype == np.float64


@pytest.mark.parametrize("weights", [None, np.array([2, -3, 0], np.int32),
                                     np.array([0.1, -2.5e-10, 7.0])])
@pytest.mark.parametrize("directed", [True, False])
def test_round_trip(tmp_path, weights, directed):
    g = warpath.Graph.from_edges([0, 2, 3], [1, 2, 0], weights, num_vertices=5, directed=directed,
                                 labels=np.arange(1, 6))
    path = tmp_path / "g.mtx.gz"
    warpath.write(g, path)
    assert_same_graph(warpath.read(path), g)
    back = scipy.io.mmread(path)       # our files are valid for scipy too
    assert back.shape == (5, 5)


def test_explicit_zeros_are_arcs_and_directed_override():
    g = mtx("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 0\n")
    assert g.num_edges == 2 and g.weights.tolist() == [0.0, 0.0]
    assert mtx("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 0\n",
               directed=True).directed
    h = mtx("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n", directed=False)
    assert not h.directed and h.num_edges == 2


@pytest.mark.parametrize("text, line, words", [
    ("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
     "unknown Matrix Market field 'complex'"),
    ("%%MatrixMarket matrix array real general\n1 1\n1\n", 1, "unsupported Matrix Market format"),
    ("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1, "unsupported"),
    ("%%MatrixMarket matrix coordinate\n1 1 1\n1 1\n", 1, "malformed banner"),
    ("1 1 1\n1 1 1\n", 1, "missing '%%MatrixMarket"),
    ("%%MatrixMarket matrix coordinate real general\n% c\n2 3 1\n1 1 1\n", 3, "square"),
    ("%%MatrixMarket matrix coordinate real general\n2 2\n1 1 1\n", 2, "malformed size line"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", 3, "announces 2 entries, found 1"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", 4, "more data lines"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", 3, "out of range (1..2)"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n", 3, "not a finite number"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", 3, "wrong number of columns"),
    ("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 4\n", 3, "wrong number of columns"),
    ("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 4\n1 2 4.5\n", 4, "holds a real number"),
    ("%%MatrixMarket matrix coordinate integer general\n% only comments\n", None, "no '<rows>"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.mtx"
    path.write_text(text)
    with pytest.raises(warpath.GraphFormatError) as info:
        warpath.read(path)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value) and str(path) in str(info.value)
