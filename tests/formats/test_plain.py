"""The plain path for small DIMACS and SNAP files (no compilation) against the compiled parser."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import warpath
from warpath.formats import _plain, dimacs, snap
from formats._graphs import assert_same_graph


def compiled(data: bytes, parse=dimacs.parse_dimacs):
    """The compiled parser's answer: a Graph or the GraphFormatError it raises."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_plain, "SMALL_FILE_BYTES", -1)
        try:
            return parse(np.frombuffer(data, np.uint8), "t.gr", directed=True)
        except warpath.GraphFormatError as err:
            return err


def plain_snap(data: bytes):
    return snap._parse_plain(np.frombuffer(data, np.uint8), "t.txt", True)


@st.composite
def dimacs_texts(draw):
    """Valid .gr text in the many spellings the compiled parser takes."""
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 30))
    real = draw(st.booleans())
    number = (st.floats(-1e6, 1e6, allow_nan=False).map(repr) if real
              else st.integers(-2**40, 2**40).map(str))
    blank = st.sampled_from([" ", "\t", "  ", " \t"])
    end = st.sampled_from(["\n", "\r\n", " \n"])
    lines = [f"c {draw(st.text('abc xyz', max_size=10))}\n" for _ in range(draw(
        st.integers(0, 2)))]
    lines.append(f"p{draw(blank)}sp{draw(blank)}{n}{draw(blank)}{m}{draw(end)}")
    for _ in range(m):
        u, v = draw(st.integers(1, n)), draw(st.integers(1, n))
        weight = draw(st.one_of(number, st.sampled_from(["+3", "0", "-0", "7.", ".5", "1e2",
                                                         "2.5E-3"])))
        lines.append(f"{draw(blank)}a{draw(blank)}{u}{draw(blank)}{v}{draw(blank)}{weight}"
                     f"{draw(end)}")
    text = "".join(lines)
    return (text.rstrip("\n") if draw(st.booleans()) else text).encode()


@settings(max_examples=300, deadline=None)
@given(dimacs_texts())
def test_plain_path_reads_what_the_compiled_parser_reads(data):
    plain = dimacs._parse_plain(data, "t.gr", None)
    assert plain is not None, data
    assert_same_graph(plain, compiled(data))


@settings(max_examples=400, deadline=None)
@given(dimacs_texts(), st.data())
def test_a_mutated_file_is_never_read_differently(data, draw):
    """Whatever the bytes, the plain path either declines or gives the compiled parser's graph:
    it never accepts what the compiled parser refuses (and names)."""
    mutated = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, max(0, len(mutated) - 1)))
        byte = draw.draw(st.sampled_from(b"0123456789 \t\n\r-+.eEacp_xn#,"))
        action = draw.draw(st.sampled_from(["replace", "insert", "delete"]))
        if action == "insert" or not mutated:
            mutated[at:at] = bytes([byte])
        elif action == "replace":
            mutated[at] = byte
        else:
            del mutated[at]
    plain = dimacs._parse_plain(bytes(mutated), "t.gr", None)
    if plain is not None:
        reference = compiled(bytes(mutated))
        assert isinstance(reference, warpath.Graph), (bytes(mutated), reference)
        assert_same_graph(plain, reference)


@pytest.mark.parametrize("text", [
    b"p sp 2 1\na 1 2 1_000\n",                 # numpy would read 1000
    b"p sp 2 1\na 1 2 nan\n",
    b"p sp 2 1\na 1 2 12345678901234567890\n",  # beyond int64
    b"p sp 2 1\na 1 2 1e999\n",
    b"p sp 2 1\na 1 3 4\n",                     # vertex 3 of 2
    b"p sp 2 2\na 1 2 4\n",                     # one arc short
    b"p sp 2 1\nc late comment\na 1 2 4\n",     # valid, but not the plain shape
])
def test_unusual_files_go_to_the_compiled_parser(text):
    assert dimacs._parse_plain(text, "t.gr", None) is None


def test_the_readme_graph_takes_the_plain_path():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "data" / "helsinki-osm-drive.gr.gz"
    data = warpath.formats.read_bytes(path).tobytes()
    assert len(data) <= _plain.SMALL_FILE_BYTES
    assert_same_graph(dimacs._parse_plain(data, str(path), None), compiled(data))


@st.composite
def snap_texts(draw):
    """Valid edge lists in the spellings both parsers take: 2 or 3 columns, any blanks."""
    weighted = draw(st.booleans())
    blank = st.sampled_from([" ", "\t", "  "])
    end = st.sampled_from(["\n", "\r\n", "\t\n"])
    number = st.one_of(st.integers(-2**40, 2**40).map(str),
                       st.floats(-1e6, 1e6, allow_nan=False).map(repr))
    lines = [f"# {draw(st.text('abc Directed', max_size=12))}\n"
             for _ in range(draw(st.integers(0, 2)))]
    for _ in range(draw(st.integers(0, 25))):
        u, v = draw(st.integers(0, 10**6)), draw(st.integers(0, 40))
        weight = f"{draw(blank)}{draw(number)}" if weighted else ""
        lines.append(f"{draw(blank) if draw(st.booleans()) else ''}{u}{draw(blank)}{v}{weight}"
                     f"{draw(end)}")
    return "".join(lines).encode()


@settings(max_examples=300, deadline=None)
@given(snap_texts())
def test_plain_snap_reads_what_the_compiled_parser_reads(data):
    plain = plain_snap(data)
    assert plain is not None, data
    assert_same_graph(plain, compiled(data, snap.parse_snap))


@settings(max_examples=400, deadline=None)
@given(snap_texts(), st.data())
def test_a_mutated_edge_list_is_never_read_differently(data, draw):
    mutated = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(0, max(0, len(mutated) - 1)))
        byte = draw.draw(st.sampled_from(b"0123456789 \t\n\r-+.eE#%,x_"))
        if draw.draw(st.booleans()) or not mutated:
            mutated[at:at] = bytes([byte])
        else:
            mutated[at] = byte
    plain = plain_snap(bytes(mutated))
    if plain is not None:
        reference = compiled(bytes(mutated), snap.parse_snap)
        assert isinstance(reference, warpath.Graph), (bytes(mutated), reference)
        assert_same_graph(plain, reference)


def test_direction_comes_from_the_comments_on_both_paths():
    for parse in (lambda text: snap.parse_snap(np.frombuffer(text, np.uint8), "t.txt"),
                  lambda text: compiled(text, lambda b, p, directed: snap.parse_snap(b, p))):
        assert not parse(b"# Undirected graph (each unordered pair of nodes is saved once)\n"
                         b"1 2\n").directed
        assert parse(b"# Directed graph: wiki-Vote\n1 2\n").directed
        with pytest.warns(warpath.DirectionWarning, match="read as directed"):
            assert parse(b"1 2\n2 3\n").directed
