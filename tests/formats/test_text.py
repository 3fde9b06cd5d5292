"""The shared numba number parser: every token parses exactly as Python's int() / float()."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from warpath.formats import _text


def parse(token: str):
    buf = np.frombuffer(token.encode(), dtype=np.uint8)
    kind, ival, fval, end = _text.parse_number(buf, 0, buf.size, False)
    if kind == _text.SLOW_FLOAT:
        slow = np.array([[0, 0, 0, buf.size]])
        values = np.zeros((1, 1))
        assert _text.fix_slow_floats(buf, slow, values) is None
        return _text.FLOAT, values[0, 0], end
    return int(kind), ival if kind == _text.INT else fval, end


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_reals_parse_exactly_as_python(value):
    for token in (repr(value), f"{value:.17e}", f"{value:.6f}", f"{value:.3g}"):
        if not np.isfinite(float(token)):   # rounding up past the largest double
            continue
        kind, parsed, end = parse(token)
        assert kind == _text.FLOAT or (kind == _text.INT and "." not in token and "e" not in token)
        assert parsed == float(token), token
        assert end == len(token)


@settings(max_examples=200, deadline=None)
@given(st.integers(-2**63 + 1, 2**63 - 1))
def test_integers_parse_exactly(value):
    kind, parsed, _ = parse(str(value))
    assert kind == _text.INT and parsed == value


@pytest.mark.parametrize("token, kind", [
    ("9223372036854775808", _text.OVERFLOW), ("123456789012345678901", _text.OVERFLOW),
    ("nan", _text.NONFINITE), ("-Infinity", _text.NONFINITE), ("+inf", _text.NONFINITE),
    ("abc", _text.BAD), ("1-2", _text.BAD), ("1e", _text.BAD), (".", _text.BAD),
    ("-", _text.BAD), ("infx", _text.BAD), ("0x10", _text.BAD),
])
def test_special_tokens(token, kind):
    buf = np.frombuffer(token.encode(), dtype=np.uint8)
    assert _text.parse_number(buf, 0, buf.size, False)[0] == kind


def test_leading_zeros_and_long_fractions():
    assert parse("000000000000000000000000012")[1] == 12
    assert parse("0.1000000000000000000000000001")[1] == 0.1
    assert parse("1" + "0" * 30 + ".5")[1] == float("1" + "0" * 30 + ".5")


def test_format_rows_writes_what_parse_reads():
    columns = np.array([[1, -20, 2**62], [0, 5, -7]], dtype=np.int64)
    text = _text.format_rows(np.frombuffer(b"a ", np.uint8), columns,
                             _text.real_text(np.array([0.1, 1e-300, -2.5])), _text.SPACE)
    assert text.tobytes() == f"a 1 0 0.1\na -20 5 1e-300\na {2**62} -7 -2.5\n".encode()
