"""Fuzzing ``warpath.read``: random bytes and mutations of valid files of every format.

Whatever the bytes, ``read`` returns a valid Graph or raises GraphFormatError (naming the
file); never another exception, a hang or an inconsistent graph.
"""

from __future__ import annotations

import gzip
import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warpath

FORMATS = ["dimacs", "metis", "snap", "matrix_market", "npz"]
SUFFIX = {"dimacs": ".gr", "metis": ".graph", "snap": ".txt", "matrix_market": ".mtx",
          "npz": ".npz"}


def valid_file(fmt: str) -> bytes:
    g = warpath.generators.random(7, 14, seed=3, directed=fmt != "metis")
    if fmt == "metis":
        g = warpath.Graph.from_edges(g.tails(), g.indices, g.weights, g.num_vertices,
                                     directed=False)
    out = io.BytesIO()
    warpath.write(g, out, format=fmt)
    return out.getvalue()


VALID = {fmt: valid_file(fmt) for fmt in FORMATS}


def assert_valid_graph(g):
    n = g.num_vertices
    assert g.indptr.shape == (n + 1,) and g.indptr[0] == 0 and g.indptr[-1] == g.num_edges
    assert np.all(np.diff(g.indptr) >= 0)
    assert g.indices.shape == g.weights.shape == (g.num_edges,)
    if g.num_edges:
        assert 0 <= g.indices.min() and g.indices.max() < n
    assert g.labels.shape == (n,)
    if g.weights.dtype.kind == "f":
        assert np.isfinite(g.weights).all()


def read_or_format_error(data: bytes, name: str, fmt: str | None):
    try:
        g = warpath.read(io.BytesIO(data) if name is None else _named(data, name), format=fmt)
    except warpath.GraphFormatError as err:
        assert str(err)   # a message, naming the file
        return None
    assert_valid_graph(g)
    return g


def _named(data, name):
    handle = io.BytesIO(data)
    handle.name = name
    return handle


def mutate(data: bytes, draw) -> bytes:
    mutated = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        action = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "duplicate"]))
        at = draw(st.integers(0, max(0, len(mutated) - 1)))
        if action == "truncate":
            del mutated[at:]
        elif action == "duplicate" and mutated:
            stop = min(len(mutated), at + draw(st.integers(1, 40)))
            mutated[at:at] = mutated[at:stop]
        elif action == "delete" and mutated:
            del mutated[at]
        else:
            byte = draw(st.one_of(st.integers(0, 255),
                                  st.sampled_from(b"0123456789-+.eE \t\n\r%#acpv,")))
            if action == "insert" or not mutated:
                mutated[at:at] = bytes([byte])
            else:
                mutated[at] = byte
    return bytes(mutated)


SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.binary(max_size=300), st.sampled_from(FORMATS + [None]))
def test_random_bytes(data, fmt):
    read_or_format_error(data, f"fuzz{SUFFIX.get(fmt, '.bin')}", fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_mutated_valid_files(fmt, data):
    mutated = mutate(VALID[fmt], data.draw)
    read_or_format_error(mutated, f"fuzz{SUFFIX[fmt]}", fmt)
    read_or_format_error(mutated, "fuzz.dat", None)   # sniffed


@pytest.mark.parametrize("fmt", FORMATS)
@SETTINGS
@given(data=st.data())
def test_mutated_compressed_files(fmt, data):
    compressed = gzip.compress(VALID[fmt], mtime=0)
    read_or_format_error(mutate(compressed, data.draw), f"fuzz{SUFFIX[fmt]}.gz", None)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_valid_files_read(fmt):
    assert read_or_format_error(VALID[fmt], f"ok{SUFFIX[fmt]}", None) is not None
