"""SNAP edge lists: the two real SNAP graphs, sparse labels, CSV, round trips, malformed lines."""

from __future__ import annotations

import io

import numpy as np
import pytest

import warpath
from warpath.formats import snap
from formats._graphs import arc_dict, assert_same_graph, min_arcs, python_edges

def edges(text: str, **kwargs):
    return snap.read_snap(io.BytesIO(text.encode()), **kwargs)


def test_facebook_undirected_matches_an_independent_parse(datasets_dir):
    path = f"{datasets_dir}/facebook_combined.txt.gz"
    g = warpath.read(path, directed=False)
    assert (g.num_vertices, g.num_edges, g.directed, g.weighted) == (4039, 176468, False, False)
    assert g.labels.tolist() == list(range(4039))
    assert arc_dict(g) == min_arcs(python_edges(path), undirected=True)


def test_facebook_directed_by_default(datasets_dir):
    g = warpath.read(f"{datasets_dir}/facebook_combined.txt.gz")
    assert g.directed and g.num_edges == 88234


def test_bitcoin_csv_matches_an_independent_parse(datasets_dir):
    path = f"{datasets_dir}/soc-sign-bitcoinalpha.csv.gz"
    g = warpath.read(path)
    assert (g.num_vertices, g.num_edges, g.directed) == (3783, 24186, True)
    parsed = python_edges(path, sep=",")
    ids = sorted({u for u, _, _ in parsed} | {v for _, v, _ in parsed})
    assert g.labels.tolist() == ids                    # sparse ids, sorted order
    assert g.labels.max() == 7604 and g.has_negative_weights
    assert g.weights.dtype == np.int32
    assert arc_dict(g) == min_arcs(parsed)
    assert g.index_of(7604) == 3782


def test_sparse_ids_are_compacted_in_sorted_order_and_weights_kept():
    g = edges("# c\n% c\n900 -5 2.5\n12 900 1\n")
    assert g.labels.tolist() == [-5, 12, 900]
    assert g.weights.dtype == np.float64
    assert arc_dict(g) == {(900, -5): 2.5, (12, 900): 1.0}


def test_huge_sparse_ids_use_the_sorting_path():
    g = edges(f"{2**62} 3\n3 {2**40}\n")
    assert g.labels.tolist() == [3, 2**40, 2**62]


def test_csv_header_line_is_skipped_and_extra_columns_ignored():
    g = edges("source,target,rating,time\n7,3,-2,1407470400\n3,7,5,1407470401\n")
    assert arc_dict(g) == {(7, 3): -2, (3, 7): 5}


def test_comma_with_spaces_and_tabs():
    g = edges("1 ,\t2, 4\n2,1 ,5\n")
    assert arc_dict(g) == {(1, 2): 4, (2, 1): 5}


@pytest.mark.parametrize("weights", [None, np.array([4, -1, 7], np.int32), np.array([0.25, 1e300, -3.5])])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("suffix", [".txt", ".txt.gz", ".csv.xz"])
def test_round_trip(tmp_path, weights, directed, suffix):
    g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 2], weights, directed=directed,
                                 labels=np.array([3, 10, 99]))
    path = tmp_path / f"g{suffix}"
    warpath.write(g, path)
    assert_same_graph(warpath.read(path), g)   # 'Undirected graph' header restores direction


def test_isolated_vertices_are_dropped_with_a_warning():
    g = warpath.Graph.from_edges([0], [1], num_vertices=3)
    with pytest.warns(UserWarning, match="1 of 3"):
        text = snap.format_snap(g)
    assert snap.read_snap(io.BytesIO(text)).num_vertices == 2


def test_non_integer_labels_cannot_be_written():
    g = warpath.Graph.from_edges([0], [1], labels=["a", "b"])
    with pytest.raises(warpath.GraphError, match="integers"):
        snap.format_snap(g)


@pytest.mark.parametrize("text, line, words", [
    ("1 2\n2 3 4\n", 2, "wrong number of columns"),
    ("1 2 5\n2 3\n", 2, "wrong number of columns"),
    ("# h\n1\n", 2, "wrong number of columns"),
    ("1 2\n2 x\n", 2, "bad token 'x'"),
    ("1 2 3\n2 1 inf\n", 2, "not a finite number"),
    ("1 2 3\n2 1 NaN\n", 2, "not a finite number"),
    ("1,2,3\n2,,3\n", 2, "bad token"),
    ("1 2\n1.5 2\n", 2, "bad token '1.5'"),
    ("1 2\n3 4\n\n5 99999999999999999999\n", 4, "does not fit in 64 bits"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(warpath.GraphFormatError) as info:
        warpath.read(path)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value) and str(path) in str(info.value)


def test_empty_edge_list_is_an_empty_graph():
    assert edges("# nothing\n").num_vertices == 0


@pytest.mark.parametrize("data", [False, ["weight"]])
def test_networkx_undirected_edge_list_warns_and_reads_whole_with_directed_false(tmp_path, data):
    """Issue 16: networkx's write_edgelist of a Graph names each edge once and says nothing
    about direction; read as directed it has half the arcs, so warpath warns."""
    import networkx as nx

    g = nx.les_miserables_graph()
    g = nx.convert_node_labels_to_integers(g)
    path = tmp_path / "lesmis.edges"
    nx.write_edgelist(g, path, data=data)
    with pytest.warns(warpath.DirectionWarning, match="directed=False"):
        halved = warpath.read(path)
    assert halved.directed and halved.num_edges == g.number_of_edges()
    whole = warpath.read(path, directed=False)   # no warning: the caller said
    expected = warpath.Graph.from_networkx(g, weight="weight" if data else None)
    assert whole.num_edges == expected.num_edges == 2 * g.number_of_edges()
    weight = "weight" if data else (lambda u, v, attributes: 1)
    lengths = nx.single_source_dijkstra_path_length(g, 0, weight=weight)
    distances = warpath.sssp(whole, whole.index_of(0)).distances
    assert {int(whole.labels[v]): d for v, d in enumerate(distances)} == lengths
