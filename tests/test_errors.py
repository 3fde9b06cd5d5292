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
