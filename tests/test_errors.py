"""The typed errors and their messages."""

import pytest

import warpath
from warpath.errors import GraphFormatError, NegativeCycleError


def test_format_error_names_file_and_line():
    err = GraphFormatError("bad token 'x'", path="roads.gr", line=12)
    assert str(err) == "roads.gr:12: bad token 'x'"
    assert err.path == "roads.gr" and err.line == 12
    assert str(GraphFormatError("no header", path="a.gr")) == "a.gr: no header"
    assert isinstance(err, ValueError) and isinstance(err, warpath.WarpathError)


def test_negative_cycle_error_carries_and_prints_cycle():
    err = NegativeCycleError([4, 7, 1])
    assert err.cycle == [4, 7, 1]
    assert "4 -> 7 -> 1 -> 4" in str(err)
    assert NegativeCycleError().cycle is None
    long_cycle = NegativeCycleError(list(range(50)))
    assert "..." in str(long_cycle)


@pytest.mark.parametrize("name", ["GraphError", "GraphFormatError", "NegativeCycleError",
                                  "NegativeWeightError", "SourceError", "EmptyGraphError",
                                  "MethodNotAvailable", "DeviceError"])
def test_every_public_error_is_a_warpath_error(name):
    assert issubclass(getattr(warpath, name), warpath.WarpathError)


# ---------------------------------------------------------------------------- the contract
# Every public entry point, called wrong: a WarpathError subclass, also the matching built-in
# where there is one, with a message that names the offending value.

import builtins  # noqa: E402
import io  # noqa: E402

import numpy as np  # noqa: E402

from warpath.apsp import memory  # noqa: E402

_G = warpath.generators.grid(3, 3, seed=0)
_NEGATIVE = warpath.generators.with_negative_weights(_G, seed=0)
_NO_PREDECESSORS = warpath.sssp(_G, 0, predecessors=False)
_MATRIX = warpath.multi_source(_G, [0, 4])


def _write_into_missing_folder():
    warpath.write(_G, "/no/such/folder/g.gr")


CASES = [
    # (label, call, warpath error, built-in, text the message must hold)
    ("float source", lambda: warpath.sssp(_G, 1.5), warpath.SourceError, IndexError, "1.5"),
    ("string source", lambda: warpath.sssp(_G, "1"), warpath.SourceError, IndexError, "'1'"),
    ("bool source", lambda: warpath.bfs(_G, True), warpath.SourceError, IndexError, "True"),
    ("source outside", lambda: warpath.sssp(_G, 99), warpath.SourceError, IndexError, "99"),
    ("float sources", lambda: warpath.multi_source(_G, [0, 2.5]), warpath.SourceError,
     IndexError, "2.5"),
    ("no sources", lambda: warpath.multi_source(_G, []), warpath.SourceError, IndexError,
     "sources"),
    ("negative limit", lambda: warpath.sssp(_G, 0, limit=-1), warpath.ArgumentError, ValueError,
     "-1"),
    ("string limit", lambda: warpath.bfs(_G, 0, limit="2"), warpath.ArgumentError, ValueError,
     "'2'"),
    ("device gpu", lambda: warpath.sssp(_G, 0, device="gpu"), warpath.ArgumentError, ValueError,
     "'gpu'"),
    ("unknown method", lambda: warpath.apsp(_G, method="nosuch"), warpath.MethodNotAvailable,
     LookupError, "'nosuch'"),
    ("unknown option", lambda: warpath.sssp(_G, 0, nosuch=1), warpath.OptionError, TypeError,
     "nosuch"),
    ("bad option value", lambda: warpath.sssp(_G, 0, method="dijkstra", heap_arity=0),
     warpath.OptionError, TypeError, "heap_arity"),
    ("bad tile", lambda: warpath.apsp(_G, method="floyd-warshall", tile=0), warpath.OptionError,
     TypeError, "tile"),
    ("limit on a method without", lambda: warpath.sssp(_G, 0, method="bellman-ford", limit=3),
     warpath.MethodNotAvailable, LookupError, "limit"),
    ("dijkstra on negative weights", lambda: warpath.sssp(_NEGATIVE, 0, method="dijkstra"),
     warpath.NegativeWeightError, ValueError, "bellman-ford"),
    ("not a graph", lambda: warpath.sssp([[0, 1]], 0), warpath.GraphError, ValueError, "list"),
    ("string weights", lambda: warpath.Graph.from_edges([0], [1], ["a"]), warpath.GraphError,
     ValueError, "'a'"),
    ("complex weights", lambda: warpath.Graph.from_edges([0], [1], [1 + 2j]), warpath.GraphError,
     ValueError, "(1+2j)"),
    ("uint64 beyond int64", lambda: warpath.Graph.from_edges(
        [0], [1], np.array([2**63], dtype=np.uint64)), warpath.GraphError, ValueError,
     str(2**63)),
    ("float endpoints", lambda: warpath.Graph.from_edges([0], [1.5]), warpath.GraphError,
     ValueError, "integers"),
    ("path without predecessors", lambda: _NO_PREDECESSORS.path(3),
     warpath.MissingPredecessorsError, ValueError, "predecessors=True"),
    ("path target as string", lambda: _MATRIX.path(0, "3"), warpath.SourceError, IndexError,
     "'3'"),
    ("row of a vertex not a source", lambda: _MATRIX.row(5), warpath.SourceError, IndexError,
     "5"),
    ("label not in the graph", lambda: _G.index_of(99), warpath.SourceError, IndexError, "99"),
    ("unhashable label", lambda: warpath.read(io.BytesIO(b"p sp 2 1\na 1 2 3\n"),
                                              format="dimacs").index_of([1]),
     warpath.SourceError, IndexError, "[1]"),
    ("missing file", lambda: warpath.read("/no/such/file.gr"), warpath.GraphFileNotFoundError,
     FileNotFoundError, "/no/such/file.gr"),
    ("unknown format name", lambda: warpath.read(io.BytesIO(b""), format="nosuch"),
     warpath.UnknownFormatError, ValueError, "'nosuch'"),
    ("write into a missing folder", _write_into_missing_folder, warpath.PathNotFoundError,
     FileNotFoundError, "/no/such/folder"),
    ("write with an unknown suffix", lambda: warpath.write(_G, "g.xyz"),
     warpath.UnknownFormatError, ValueError, "'.xyz'"),
    ("generator size", lambda: warpath.generators.grid(0, 3, seed=0), warpath.ArgumentError, ValueError,
     "0"),
    ("generator weights", lambda: warpath.generators.ring(5, weights="str", seed=0),
     warpath.ArgumentError, ValueError, "'str'"),
    ("unknown problem", lambda: warpath.methods.resolve("nosuch", _G), warpath.MethodNotAvailable,
     LookupError, "'nosuch'"),
    ("memory estimate, method", lambda: memory.estimate(_G, method="nosuch"),
     warpath.MethodNotAvailable, LookupError, "'nosuch'"),
]


@pytest.mark.parametrize("label, call, error, builtin, text", CASES,
                         ids=[case[0] for case in CASES])
def test_every_entry_point_called_wrong_raises_a_typed_error_naming_the_value(
        label, call, error, builtin, text):
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, warpath.WarpathError)
    assert isinstance(caught.value, builtin) and builtin in vars(builtins).values()
    assert text in str(caught.value), str(caught.value)


def test_every_public_error_class_derives_from_warpath_error():
    assert issubclass(warpath.DirectionWarning, warpath.WarpathWarning)
    for name in warpath.__all__:
        value = getattr(warpath, name)
        if isinstance(value, type) and issubclass(value, Exception) \
                and not issubclass(value, Warning):
            assert issubclass(value, warpath.WarpathError), name
