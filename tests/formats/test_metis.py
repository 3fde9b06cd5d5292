"""METIS / DIMACS 10 .graph: fmt codes, symmetry, round trips and malformed files."""

from __future__ import annotations

import io

import networkx as nx
import numpy as np
import pytest

import warpath
from warpath.formats import metis
from formats._graphs import assert_same_graph


def graph_file(text: str):
    return io.BytesIO(text.encode())


def random_undirected(seed, weighted=True, n=40, m=120):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = src != dst
    weights = rng.integers(1, 50, m).astype(np.int32)[keep] if weighted else None
    return warpath.Graph.from_edges(src[keep], dst[keep], weights, num_vertices=n, directed=False,
                                    labels=np.arange(1, n + 1))


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("suffix", [".graph", ".graph.bz2"])
def test_round_trip(tmp_path, weighted, suffix):
    g = random_undirected(1, weighted)
    path = tmp_path / f"g{suffix}"
    warpath.write(g, path)
    assert_same_graph(warpath.read(path), g)


def test_matches_networkx_on_a_hand_written_file():
    text = "% the METIS manual's style\n4 4\n2 3\n1 3 4\n1 2\n2\n"
    g = metis.read_metis(graph_file(text))
    expected = nx.Graph([(1, 2), (1, 3), (2, 3), (2, 4)])
    assert not g.directed and g.labels.tolist() == [1, 2, 3, 4]
    got = {(int(g.labels[u]), int(g.labels[v])) for u in range(4) for v in g.neighbors(u)}
    assert got == {(u, v) for u, v in expected.edges} | {(v, u) for u, v in expected.edges}


@pytest.mark.parametrize("header, lines", [
    ("3 2 10", ["7 2", "1 1 3", "4 2"]),              # vertex weights
    ("3 2 10 2", ["7 8 2", "1 1 1 3", "4 4 2"]),      # two constraints
    ("3 2 11", ["7 2 5", "1 1 5 3 6", "4 2 6"]),      # vertex and edge weights
    ("3 2 100", ["9 2", "9 1 3", "9 2"]),             # vertex sizes
    ("3 2 001", ["2 5", "1 5 3 6", "2 6"]),           # edge weights, zero-padded code
])
def test_fmt_codes(header, lines):
    g = metis.read_metis(graph_file("\n".join([header] + lines) + "\n"))
    assert g.indices.tolist() == [1, 0, 2, 1]
    if header.endswith(("11", "001")):
        assert g.weights.tolist() == [5, 5, 6, 6]
    else:
        assert not g.weighted


def test_empty_lines_are_isolated_vertices_and_trailing_blank_lines_are_fine():
    g = metis.read_metis(graph_file("3 1\n3\n\n1\n\n\n"))
    assert g.out_degrees().tolist() == [1, 0, 1]


def test_directed_true_keeps_the_arcs_as_listed_without_symmetry_check():
    g = metis.read_metis(graph_file("3 1\n2\n3\n\n"), directed=True)
    assert g.directed and g.indices.tolist() == [1, 2]


@pytest.mark.parametrize("text, line, words", [
    ("3 1\n2\n3\n\n", 2, "vertex 1 lists neighbour 2, but vertex 2 (line 3) does not list 1"),
    ("3 2\n2\n1\n1\n", 4, "found 3 vertex lines and 3 entries"),
    ("2 1 1\n2 5\n1 6\n", 2, "with weight 5"),
    ("2 1\n2\n1\n1\n", 4, "more than the 2 vertex lines"),
    ("3 1\n2\n1\n", 3, "file ends early"),
    ("2 2\n2\n1\n", 3, "found 2 vertex lines and 2 entries"),
    ("2 1\n2 x\n1\n", 2, "bad token 'x'"),
    ("2 1\n3\n1\n", 2, "vertex id 3 is out of range (1..2)"),
    ("2 1\n0\n1\n", 2, "vertex id 0 is out of range"),
    ("2 1 1\n2\n1 5\n", 2, "a neighbour without its edge weight"),
    ("2 1 1\n2 nan\n1 5\n", 2, "not a finite number"),
    ("2 1 1\n2 1.5\n1 1.5\n", 2, "expected an integer"),
    ("2 1 2\n2\n1\n", 1, "malformed header"),
    ("2\n2\n1\n", 1, "malformed header"),
    ("% nothing\n", None, "no '<vertices> <edges>"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.graph"
    path.write_text(text)
    with pytest.raises(warpath.GraphFormatError) as info:
        warpath.read(path)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)
    assert str(path) in str(info.value)


def test_writer_refuses_what_metis_cannot_hold():
    with pytest.raises(warpath.GraphError, match="undirected"):
        metis.format_metis(warpath.Graph.from_edges([0], [1]))
    with pytest.raises(warpath.GraphError, match="real weights"):
        metis.format_metis(warpath.Graph.from_edges([0], [1], [0.5], directed=False))
    with pytest.raises(warpath.GraphError, match="self-loops"):
        metis.format_metis(warpath.Graph.from_edges([0, 0], [0, 1], directed=False))


def test_writer_header_says_fmt_001_when_weighted():
    text = metis.format_metis(random_undirected(2)).decode().splitlines()
    assert text[0].startswith("% written by warpath")
    assert text[1].split()[2] == "001"
