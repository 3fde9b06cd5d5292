"""The plain path for small DIMACS files (no compilation) against the compiled parser."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import warpath
from warpath.formats import _plain, dimacs
from formats._graphs import assert_same_graph


def compiled(data: bytes):
    """The compiled parser's answer: a Graph or the GraphFormatError it raises."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_plain, "SMALL_FILE_BYTES", -1)
        try:
            return dimacs.parse_dimacs(np.frombuffer(data, np.uint8), "t.gr")
        except warpath.GraphFormatError as err:
            return err


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
