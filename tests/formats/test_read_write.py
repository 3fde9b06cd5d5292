"""read()/write(): dispatch on suffix, compression, sniffing, format= and random round trips."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import warpath
from warpath import formats
from formats._graphs import assert_same_graph

COMPRESSIONS = ["", ".gz", ".bz2", ".xz"]


def sample_graph(directed=True, weights="int"):
    rng = np.random.default_rng(11)
    src, dst = rng.integers(0, 50, 200), rng.integers(0, 50, 200)
    keep = src != dst
    w = {"int": rng.integers(-5, 100, 200).astype(np.int32),
         "float": rng.random(200) * 100, None: None}[weights]
    return warpath.Graph.from_edges(src[keep], dst[keep], None if w is None else w[keep],
                                    num_vertices=50, directed=directed,
                                    labels=np.arange(1, 51))


@pytest.mark.parametrize("compression", COMPRESSIONS)
@pytest.mark.parametrize("suffix, directed, weights", [
    (".gr", True, "int"), (".gr", True, "float"),
    (".graph", False, "int"), (".graph", False, None),
    (".txt", True, "int"), (".txt", False, None), (".csv", True, "float"),
    (".mtx", True, "float"), (".mtx", False, "int"), (".mtx", True, None),
    (".npz", True, "float"), (".npz", False, None),
])
def test_round_trip_every_format_and_compression(tmp_path, suffix, directed, weights, compression):
    g = sample_graph(directed, weights)
    path = tmp_path / f"graph{suffix}{compression}"
    warpath.write(g, path)
    back = warpath.read(path)
    assert_same_graph(back, g)
    assert back.name == "graph" or suffix == ".npz"
    magic = path.read_bytes()[:3]
    assert {"": True, ".gz": magic[:2] == b"\x1f\x8b", ".bz2": magic == b"BZh",
            ".xz": magic == b"\xfd7z"}[compression]


@pytest.mark.parametrize("suffix, directed, weights", [
    (".gr", True, "int"), (".graph", False, "int"), (".txt", True, None),
    (".txt", False, "int"), (".mtx", False, "float"), (".npz", True, "int"),
])
def test_sniffing_without_a_telling_suffix(tmp_path, suffix, directed, weights):
    g = sample_graph(directed, weights)
    path = tmp_path / "mystery.dat"
    warpath.write(g, path, format=suffix)
    assert formats.sniff(formats.read_bytes(path)) == formats.format_name(suffix)
    gz = tmp_path / "mystery"          # compressed, no suffix at all: magic bytes say gzip
    gz.write_bytes(__import__("gzip").compress(path.read_bytes()))
    assert_same_graph(warpath.read(path), g)
    assert_same_graph(warpath.read(gz), g)


def test_sniffing_a_csv_with_a_header_line(tmp_path):
    path = tmp_path / "ratings.dat"
    path.write_text("source,target,rating\n7,3,-2\n3,7,5\n")
    assert warpath.read(path).weights.tolist() == [5, -2]


def test_format_override_beats_the_suffix(tmp_path):
    path = tmp_path / "edges.gr"
    path.write_text("1 2\n2 3\n")
    with pytest.raises(warpath.GraphFormatError, match="before the 'p sp"):
        warpath.read(path)
    g = warpath.read(path, format="snap")
    assert g.labels.tolist() == [1, 2, 3]
    assert warpath.read(path, format="edgelist", directed=False).num_edges == 4


def test_real_dataset_through_read_with_sniffing(tmp_path, datasets_dir):
    data = open(f"{datasets_dir}/helsinki-osm-drive.gr.gz", "rb").read()
    path = tmp_path / "road"
    path.write_bytes(data)
    assert warpath.read(path).num_edges == 2126


def test_file_objects(tmp_path):
    g = sample_graph()
    out = io.BytesIO()
    warpath.write(g, out, format="mtx")
    assert_same_graph(warpath.read(io.BytesIO(out.getvalue())), g)
    with pytest.raises(warpath.GraphFormatError, match="suffix"):
        warpath.write(g, io.BytesIO())


@pytest.mark.parametrize("content", [b"hello world\n", b"", b"\x00\x01\x02", b"just one\n"])
def test_unknown_suffix_with_unsniffable_content(tmp_path, content):
    path = tmp_path / "graph.bin"
    path.write_bytes(content)
    with pytest.raises(warpath.GraphFormatError, match="cannot tell the graph format") as info:
        warpath.read(path)
    assert info.value.path == str(path)


def test_errors_for_bad_names_and_missing_files(tmp_path):
    with pytest.raises(warpath.GraphFormatError, match="known: dimacs, metis"):
        warpath.read(io.BytesIO(b"1 2\n"), format="pajek")
    with pytest.raises(warpath.GraphFormatError, match="no such file"):
        warpath.read(tmp_path / "absent.gr")
    with pytest.raises(warpath.GraphFormatError, match="suffix '.png'"):
        warpath.write(sample_graph(), tmp_path / "g.png")
    with pytest.raises(warpath.GraphFormatError, match="coordinates"):
        warpath.read(tmp_path / "x.co")
    with pytest.raises(warpath.GraphFormatError, match="DIMACS .gr files only"):
        warpath.read(io.BytesIO(b"1 2\n"), format="snap", coordinates=io.BytesIO(b""))


@pytest.mark.parametrize("compression", [".gz", ".bz2", ".xz"])
def test_corrupt_compressed_data(tmp_path, compression):
    path = tmp_path / f"g.gr{compression}"
    warpath.write(sample_graph(), path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(warpath.GraphFormatError, match="corrupt or truncated") as info:
        warpath.read(path)
    assert info.value.path == str(path)


@pytest.mark.filterwarnings("ignore:an edge list cannot hold isolated vertices")
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 30), data=st.data(),
       suffix=st.sampled_from([".gr", ".mtx", ".npz", ".txt"]), real=st.booleans())
def test_random_graphs_round_trip(n, data, suffix, real):
    m = data.draw(st.integers(0, 60))
    src = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    dst = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    values = st.floats(-1e6, 1e6, allow_nan=False, width=64) if real else st.integers(-2**40, 2**40)
    w = np.array(data.draw(st.lists(values, min_size=m, max_size=m)),
                 np.float64 if real else np.int64)
    g = warpath.Graph.from_edges(src, dst, w, num_vertices=n, labels=np.arange(1, n + 1))
    if not real and g.num_edges and np.abs(g.weights).max() < 2**31:
        # Text formats give int32 when the (kept, deduplicated) weights fit.
        g = warpath.Graph(g.indptr, g.indices, g.weights.astype(np.int32), labels=g.labels)
    out = io.BytesIO()
    warpath.write(g, out, format=suffix)
    back = warpath.read(io.BytesIO(out.getvalue()), format=suffix)
    if suffix == ".txt":   # an edge list drops isolated vertices: compare the arcs by label
        from formats._graphs import arc_dict

        assert arc_dict(back) == arc_dict(g)
        assert back.weights.dtype == g.weights.dtype or g.num_edges == 0
    else:
        assert_same_graph(back, g, dtype=g.num_edges > 0)


def test_byte_order_mark_is_ignored():
    g = warpath.read(io.BytesIO(b"\xef\xbb\xbfp sp 2 1\na 1 2 3\n"))
    assert g.num_edges == 1


@pytest.mark.parametrize("text, words", [
    ("p sp 99999999999999999 0\n", "larger than the memory"),
    ("p sp 9999999999999999999999 0\n", "malformed header"),
])
def test_absurd_headers_are_format_errors_not_crashes(tmp_path, text, words):
    path = tmp_path / "huge.gr"
    path.write_text(text)
    with pytest.raises(warpath.GraphFormatError, match=words):
        warpath.read(path)
