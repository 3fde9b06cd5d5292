"""DIMACS .gr / .co: round trips, the real Helsinki road graph, and every malformed case."""

from __future__ import annotations

import io

import numpy as np
import pytest

import warpath
from warpath.formats import dimacs
from formats._graphs import arc_dict, assert_same_graph, min_arcs, python_edges

def gr(text: str):
    return io.BytesIO(text.encode())


def write_text(tmp_path, text, name="bad.gr"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_helsinki_matches_an_independent_parse(datasets_dir):
    path = f"{datasets_dir}/helsinki-osm-drive.gr.gz"
    g = warpath.read(path)
    assert (g.num_vertices, g.num_edges, g.directed) == (1437, 2126, True)
    assert g.labels.tolist() == list(range(1, 1438))
    assert g.weights.dtype == np.int32 and g.weighted
    assert g.name == "helsinki-osm-drive"
    assert arc_dict(g) == min_arcs(python_edges(path, tag="a"))


@pytest.mark.parametrize("weights", [
    np.array([3, 1, 4, 1, 5], dtype=np.int32),
    np.array([-3, 1, 2**40, 0, 5], dtype=np.int64),
    np.array([0.1, 1 / 3, 1e-300, 2.5e22, -7.0]),
])
def test_round_trip_keeps_csr_and_weight_dtype(tmp_path, weights):
    g = warpath.Graph.from_edges([0, 0, 1, 3, 4], [1, 4, 2, 0, 4], weights, num_vertices=6,
                                 labels=np.arange(1, 7))
    path = tmp_path / "g.gr"
    dimacs.write_dimacs(g, path)
    assert_same_graph(dimacs.read_dimacs(path), g)


def test_float32_weights_come_back_as_the_same_values():
    g = warpath.Graph.from_edges([0], [1], np.array([0.1], dtype=np.float32))
    out = io.BytesIO()
    dimacs.write_dimacs(g, out)
    back = dimacs.read_dimacs(io.BytesIO(out.getvalue()))
    assert back.weights.dtype == np.float64 and back.weights[0] == np.float32(0.1)


def test_undirected_graph_round_trips_with_directed_false():
    rng = np.random.default_rng(3)
    g = warpath.Graph.from_edges(rng.integers(0, 30, 80), rng.integers(0, 30, 80),
                                 rng.integers(1, 9, 80).astype(np.int32), num_vertices=30,
                                 directed=False)
    out = io.BytesIO()
    dimacs.write_dimacs(g, out)
    back = dimacs.read_dimacs(io.BytesIO(out.getvalue()), directed=False)
    assert_same_graph(back, g, labels=False)


def test_header_comment_names_the_source():
    out = io.BytesIO()
    dimacs.write_dimacs(warpath.Graph.from_edges([0], [1], name="demo"), out)
    first, header = out.getvalue().decode().splitlines()[:2]
    assert first.startswith("c written by warpath") and "demo" in first
    assert header == "p sp 2 1"


def test_unweighted_graph_is_written_with_weight_one():
    out = io.BytesIO()
    dimacs.write_dimacs(warpath.Graph.from_edges([0, 1], [1, 0]), out)
    back = dimacs.read_dimacs(io.BytesIO(out.getvalue()))
    assert back.weights.tolist() == [1, 1]


def test_duplicate_arcs_keep_the_minimum_and_blank_lines_and_comments_are_skipped():
    g = dimacs.read_dimacs(gr("c a\n\np sp 3 3\nc mid\na 1 2 9\n  \na 1 2 4\na 3 1 2\n"))
    assert g.num_edges == 2 and g.edge_weights(0).tolist() == [4]


def test_crlf_line_endings_and_tabs():
    g = dimacs.read_dimacs(gr("p sp 2 1\r\na\t1\t2\t7\r\n"))
    assert g.edge_weights(0).tolist() == [7]


def test_large_integer_weights_stay_int64():
    g = dimacs.read_dimacs(gr(f"p sp 2 1\na 1 2 {2**62}\n"))
    assert g.weights.dtype == np.int64 and g.weights[0] == 2**62


def test_mixed_int_and_real_weights_give_float64():
    g = dimacs.read_dimacs(gr("p sp 3 2\na 1 2 3\na 2 3 0.5\n"))
    assert g.weights.dtype == np.float64 and g.weights.tolist() == [3.0, 0.5]


@pytest.mark.parametrize("text, line, words", [
    ("a 1 2 3\np sp 2 1\n", 1, "before the 'p sp"),
    ("c only comments\n", None, "no 'p sp"),
    ("p sp 2\na 1 2 3\n", 1, "malformed header"),
    ("p xx 2 1\na 1 2 3\n", 1, "malformed header"),
    ("p sp 2 1\np sp 2 1\na 1 2 3\n", 2, "duplicate header"),
    ("p sp 2 2\na 1 2 3\na 1 x 3\n", 3, "bad token 'x'"),
    ("p sp 2 1\na 1 2 3x\n", 2, "bad token '3x'"),
    ("p sp 2 1\na 0 2 3\n", 2, "vertex id 0 is out of range (1..2)"),
    ("p sp 2 1\na 1 3 3\n", 2, "vertex id 3 is out of range (1..2)"),
    ("p sp 2 1\na 1 2 3\na 2 1 3\n", 3, "more data lines"),
    ("c x\np sp 2 3\na 1 2 3\na 2 1 3\n", 4, "announces 3 arcs, found 2"),
    ("p sp 2 1\na 1 2 nan\n", 2, "not a finite number"),
    ("p sp 2 1\na 1 2 -inf\n", 2, "not a finite number"),
    ("p sp 2 1\na 1 2 1e999\n", 2, "not a finite number"),
    ("p sp 2 1\na 1 2\n", 2, "wrong number of columns"),
    ("p sp 2 1\na 1 2 3 4\n", 2, "wrong number of columns"),
    ("p sp 2 1\nx 1 2 3\n", 2, "unexpected line"),
    ("p sp 2 1\na 1 99999999999999999999 3\n", 2, "does not fit in 64 bits"),
    ("p sp 2 1000000\na 1 2 3\n", 1, "truncated"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, text, line, words):
    path = write_text(tmp_path, text)
    with pytest.raises(warpath.GraphFormatError) as info:
        warpath.read(path)
    assert info.value.line == line
    assert info.value.path == str(path)
    assert words in str(info.value)
    assert str(path) in str(info.value)


def test_truncated_gzip_is_a_format_error(tmp_path):
    good = tmp_path / "g.gr.gz"
    dimacs.write_dimacs(warpath.Graph.from_edges(np.arange(500), np.arange(1, 501)), good)
    cut = tmp_path / "cut.gr.gz"
    cut.write_bytes(good.read_bytes()[:-40])
    with pytest.raises(warpath.GraphFormatError, match="truncated"):
        warpath.read(cut)


def test_coordinates_round_trip_and_attach(tmp_path):
    xy = np.array([[-73_530_767, 41_085_396], [-73_530_538, 41_086_098], [5, -6]])
    co = tmp_path / "g.co"
    dimacs.write_coordinates(xy, co)
    np.testing.assert_array_equal(dimacs.read_coordinates(co), xy)
    path = tmp_path / "g.gr"
    dimacs.write_dimacs(warpath.Graph.from_edges([0, 1], [1, 2], [1, 1]), path)
    g = warpath.read(path, coordinates=co)
    np.testing.assert_array_equal(g.coordinates, xy)
    real = np.array([[0.5, -1.25], [3.0, 1e-3]])
    dimacs.write_coordinates(real, co)
    np.testing.assert_array_equal(dimacs.read_coordinates(co), real)


@pytest.mark.parametrize("text, line, words", [
    ("p aux sp co 2\nv 1 0 0\nv 1 1 1\n", 3, "second 'v' line"),
    ("p aux sp co 2\nv 1 0 0\nv 3 1 1\n", 3, "out of range"),
    ("p aux sp co 2\nv 1 0 0\n", 2, "announces 2 vertices, found 1"),
    ("p aux sp co 1\nv 1 0\n", 2, "wrong number of columns"),
])
def test_malformed_coordinates(tmp_path, text, line, words):
    path = write_text(tmp_path, text, "bad.co")
    with pytest.raises(warpath.GraphFormatError) as info:
        dimacs.read_coordinates(path)
    assert info.value.line == line and words in str(info.value)


def test_coordinates_must_match_the_graph(tmp_path):
    co = tmp_path / "g.co"
    dimacs.write_coordinates(np.zeros((5, 2), dtype=np.int64), co)
    with pytest.raises(warpath.GraphFormatError, match="5 vertices"):
        dimacs.read_dimacs(gr("p sp 2 1\na 1 2 3\n"), coordinates=co)
