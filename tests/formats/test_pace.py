"""PACE 2016 .gr: the six real DIMACS road topologies, sniffing against DIMACS .gr, round trips,
and every malformed case."""

from __future__ import annotations

import io
import lzma

import numpy as np
import pytest
import scipy.sparse as sp

import warpath
from warpath.formats import pace
from formats._graphs import assert_same_graph

# Vertex and undirected edge counts from ../shared/datasets/MANIFEST.md (the DIMACS 9th
# challenge's own counts, as converted for PACE 2016).
ROAD_NETWORKS = {
    "NY": (264_346, 365_050), "BAY": (321_270, 397_415), "COL": (435_666, 521_200),
    "FLA": (1_070_376, 1_343_951), "NW": (1_207_945, 1_410_387), "NE": (1_524_453, 1_934_010),
}


def road_path(datasets_dir, name):
    return f"{datasets_dir}/USA-road-{name}.pace16.gr.xz"


@pytest.mark.parametrize("name", sorted(ROAD_NETWORKS))
def test_real_road_topologies_have_the_manifest_counts(datasets_dir, name):
    g = warpath.read(road_path(datasets_dir, name))
    vertices, edges = ROAD_NETWORKS[name]
    assert (g.num_vertices, g.directed, g.weighted) == (vertices, False, False)
    assert g.stats().undirected_edges == edges
    assert g.num_edges == 2 * edges   # no self-loops, no repeated edges after the conversion
    assert g.labels[0] == 1 and g.labels[-1] == vertices


def test_new_york_matches_an_independent_parse(datasets_dir):
    path = road_path(datasets_dir, "NY")
    with lzma.open(path, "rt") as handle:
        lines = [line.split() for line in handle if line[:1] not in ("c", "p")]
    pairs = np.array(lines, dtype=np.int64) - 1
    n = ROAD_NETWORKS["NY"][0]
    ones = np.ones(len(pairs))
    matrix = sp.coo_array((ones, (pairs[:, 0], pairs[:, 1])), shape=(n, n)).tocsr()
    expected = ((matrix + matrix.T) > 0).astype(np.int32).tocsr()
    expected.sort_indices()
    g = warpath.read(path)
    np.testing.assert_array_equal(g.indptr, expected.indptr)
    np.testing.assert_array_equal(g.indices, expected.indices)


@pytest.mark.parametrize("header, expected", [("p tw 3 2", "pace"), ("p sp 3 2", "dimacs")])
def test_the_header_tells_pace_from_dimacs_under_the_same_suffix(tmp_path, header, expected):
    lines = ["1 2", "2 3"] if expected == "pace" else ["a 1 2 5", "a 2 3 5"]
    path = tmp_path / "g.gr.gz"
    warpath.formats.write_bytes(path, ("c comment\n" + "\n".join([header] + lines) + "\n").encode())
    g = warpath.read(path)
    assert g.directed == (expected == "dimacs")
    assert g.weighted == (expected == "dimacs")
    assert warpath.formats.sniff(warpath.formats.read_bytes(path)) == expected


def test_no_suffix_is_sniffed_and_format_pace_is_accepted():
    text = b"p tw 4 3\n1 2\n2 3\n4 1\n"
    g = warpath.read(io.BytesIO(text))
    h = warpath.read(io.BytesIO(text), format="pace")
    assert_same_graph(g, h)
    assert sorted(g.neighbors(0).tolist()) == [1, 3]


def test_directed_true_reads_each_line_as_one_arc():
    g = pace.read_pace(io.BytesIO(b"p tw 3 2\n1 2\n3 2\n"), directed=True)
    assert g.directed and g.num_edges == 2
    assert g.neighbors(2).tolist() == [1] and g.neighbors(1).tolist() == []


def test_comments_blank_lines_crlf_and_tabs():
    g = pace.read_pace(io.BytesIO(b"c x\r\np tw 3 2\r\n\r\nc mid-file\n1\t2\r\n 2 3 \n"))
    assert g.num_edges == 4 and sorted(g.neighbors(1).tolist()) == [0, 2]


@pytest.mark.parametrize("suffix", [".gr", ".gr.xz", ".gr.bz2"])
def test_round_trip(tmp_path, suffix):
    rng = np.random.default_rng(8)
    g = warpath.Graph.from_edges(rng.integers(0, 40, 120), rng.integers(0, 40, 120),
                                 num_vertices=45, directed=False, labels=np.arange(1, 46))
    path = tmp_path / f"g{suffix}"
    warpath.write(g, path, format="pace")
    back = warpath.read(path)
    assert_same_graph(back, g)
    header = [line for line in warpath.formats.read_bytes(path).tobytes().decode().splitlines()
              if line.startswith("p")]
    assert header == [f"p tw 45 {g.stats().undirected_edges}"]


@pytest.mark.parametrize("graph, words", [
    (warpath.Graph.from_edges([0], [1]), "directed"),
    (warpath.Graph.from_edges([0], [1], [3], directed=False), "weighted"),
])
def test_writing_a_graph_the_format_cannot_hold_is_an_error(graph, words):
    with pytest.raises(warpath.GraphError, match=words):
        pace.format_pace(graph)


def test_a_pace_file_read_as_dimacs_gets_a_hint(tmp_path):
    path = tmp_path / "g.gr"
    path.write_text("p tw 2 1\n1 2\n")
    with pytest.raises(warpath.GraphFormatError, match="format='pace'") as info:
        warpath.read(path, format="dimacs")
    assert info.value.line == 1


@pytest.mark.parametrize("text, line, words", [
    ("", None, "no 'p tw"),
    ("c only comments\n", None, "no 'p tw"),
    ("1 2\np tw 2 1\n", 1, "'1 2' before the 'p tw"),
    ("p tw 2\n1 2\n", 1, "malformed header"),
    ("p tw 2 x\n1 2\n", 1, "malformed header"),
    ("p tw 2 1 7\n1 2\n", 1, "malformed header"),
    ("p tw 3 2\n1 2\np tw 3 2\n2 3\n", 3, "duplicate header"),
    ("p tw 3 2\n1 2\n2 x\n", 3, "bad token 'x'"),
    ("p tw 3 2\n1 2\n2 3.5\n", 3, "bad token '3.5'"),
    ("p tw 3 2\n1 2\na 2 3\n", 3, "bad token 'a'"),
    ("p tw 3 2\n0 2\n2 3\n", 2, "vertex id 0 is out of range (1..3)"),
    ("p tw 3 2\n1 2\n2 4\n", 3, "vertex id 4 is out of range (1..3)"),
    ("p tw 3 2\n1 2 1\n2 3\n", 2, "wrong number of columns"),
    ("p tw 3 2\n1\n2 3\n", 2, "wrong number of columns"),
    ("p tw 3 1\n1 2\n2 3\n", 3, "announces 1 edges; this is one more"),
    ("p tw 3 3\n1 2\n2 3\n", 3, "file ends early (truncated?): the header (line 1) announces 3"),
    ("p tw 3 2\n1 2\n99999999999999999999 3\n", 3, "does not fit in 64 bits"),
    ("p tw 3 900000000\n1 2\n", 1, "announces 900000000 edges but the file holds only"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.gr"
    path.write_text(text)
    with pytest.raises(warpath.GraphFormatError) as info:
        warpath.read(path, format="pace")
    assert words in info.value.message
    assert info.value.line == line
    assert info.value.path == str(path)


def test_a_truncated_xz_file_is_a_format_error(tmp_path):
    path = tmp_path / "g.gr.xz"
    warpath.write(warpath.Graph.from_edges([0, 1], [1, 2], directed=False), path, format="pace")
    path.write_bytes(path.read_bytes()[:-12])
    with pytest.raises(warpath.GraphFormatError, match="corrupt or truncated xz"):
        warpath.read(path)
