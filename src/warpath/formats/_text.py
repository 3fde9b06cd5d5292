"""The fast text machinery shared by the parsers and writers: numba kernels over raw bytes.

Every text format is read the same way: the whole (decompressed) file is one
``uint8`` array and a ``@njit`` kernel walks it once, parsing numbers in place
with no Python-level loop per line.  A kernel that meets something wrong stops
and returns an error code and the byte offset where it happened; only then does
Python look at the text again (:func:`raise_at`) to name the line number, the
token and what is wrong.  So the fast path pays nothing for good messages.

Numbers: integers are parsed exactly into int64 (a token too large for int64 is
an error, not a wrap-around).  Reals take Clinger's fast path (mantissa below
2**53, decimal exponent within +-22: one correctly rounded multiplication or
division by an exact power of ten, so the result equals ``float(token)``); any
other real token is recorded and converted afterwards by numpy's own parser
(:func:`fix_slow_floats`), so every value is the correctly rounded double.

Examples
--------
>>> import numpy as np
>>> buf = np.frombuffer(b"12 -3.5e1 x", dtype=np.uint8)
>>> kind, ival, fval, end = parse_number(buf, 0, buf.size, False)
>>> int(kind) == INT, int(ival), int(end)
(True, 12, 2)
>>> kind, ival, fval, end = parse_number(buf, 3, buf.size, False)
>>> int(kind) == FLOAT, float(fval)
(True, -35.0)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import GraphFormatError

# Token kinds returned by parse_number.
INT, FLOAT, SLOW_FLOAT, BAD, OVERFLOW, NONFINITE = 0, 1, 2, 3, 4, 5

# Status codes returned by the kernels (0 is success).
OK = 0
BAD_TOKEN = 1      # not a number where a number belongs (at the token)
DUP_HEADER = 2     # a second header line (at the line)
ID_RANGE = 3       # vertex id outside the allowed range (at the token)
TOO_MANY = 4       # more data lines than the header announced (at the line)
COLUMNS = 5        # wrong number of fields on a line (at the line)
NOT_FINITE = 6     # nan / inf (at the token)
TOO_LARGE = 7      # integer beyond int64 (at the token)
UNKNOWN_LINE = 8   # a line that is neither data, comment nor header (at the line)
TOO_FEW = 9        # fewer data lines / entries than announced (at the end)

LF, CR, SPACE, TAB, COMMA = 10, 13, 32, 9, 44

_POW10 = np.array([10.0 ** k for k in range(23)])
_MANTISSA_LIMIT = 2 ** 53


@njit(cache=True)
def is_blank(c):
    """Space, tab, carriage return, vertical tab or form feed (not the newline)."""
    return c == SPACE or c == TAB or c == CR or c == 11 or c == 12


@njit(cache=True)
def ends_token(buf, pos, end, allow_comma):
    """Whether position ``pos`` is just past the end of a token."""
    if pos >= end:
        return True
    c = buf[pos]
    return c == LF or is_blank(c) or (allow_comma and c == COMMA)


@njit(cache=True)
def skip_blanks(buf, pos, end):
    """The first position at or after ``pos`` that is not a blank (may be a newline or ``end``)."""
    while pos < end and is_blank(buf[pos]):
        pos += 1
    return pos


@njit(cache=True)
def skip_separator(buf, pos, end, allow_comma):
    """Skip blanks and at most one comma between two fields."""
    pos = skip_blanks(buf, pos, end)
    if allow_comma and pos < end and buf[pos] == COMMA:
        pos = skip_blanks(buf, pos + 1, end)
    return pos


@njit(cache=True)
def next_line(buf, pos, end):
    """The position just past the next newline at or after ``pos`` (or ``end``)."""
    while pos < end and buf[pos] != LF:
        pos += 1
    return pos + 1 if pos < end else end


@njit(cache=True)
def skip_token(buf, pos, end, allow_comma):
    """The position just past the token that starts at ``pos``."""
    while not ends_token(buf, pos, end, allow_comma):
        pos += 1
    return pos


@njit(cache=True)
def _lower(c):
    return c + 32 if 65 <= c <= 90 else c


@njit(cache=True)
def _matches_word(buf, pos, end, word):
    if pos + word.size > end:
        return False
    for i in range(word.size):
        if _lower(buf[pos + i]) != word[i]:
            return False
    return True


_NAN = np.frombuffer(b"nan", dtype=np.uint8).copy()
_INF = np.frombuffer(b"inf", dtype=np.uint8).copy()
_INFINITY = np.frombuffer(b"infinity", dtype=np.uint8).copy()


@njit(cache=True)
def parse_number(buf, pos, end, allow_comma):
    """Parse the number starting at ``pos``.

    Returns ``(kind, int_value, float_value, end_of_token)``: ``kind`` is INT
    (exact ``int_value``), FLOAT (``float_value`` correctly rounded),
    SLOW_FLOAT (a real the fast path does not round exactly: convert the token
    text afterwards), BAD, OVERFLOW (an integer beyond int64) or NONFINITE
    (nan, inf, infinity).
    """
    start = pos
    negative = False
    if pos < end and (buf[pos] == 45 or buf[pos] == 43):  # '-' or '+'
        negative = buf[pos] == 45
        pos += 1
    if pos < end and (_lower(buf[pos]) == 110 or _lower(buf[pos]) == 105):  # 'n' / 'i'
        for word in (_INFINITY, _NAN, _INF):
            if _matches_word(buf, pos, end, word) and ends_token(buf, pos + word.size, end, allow_comma):
                return NONFINITE, 0, 0.0, pos + word.size
        return BAD, 0, 0.0, skip_token(buf, start, end, allow_comma)
    mantissa = 0
    digits = 0
    exponent = 0
    inexact = False   # the mantissa lost digits: only the slow path is exact
    while pos < end:
        d = np.int64(buf[pos]) - 48
        if d < 0 or d > 9:
            break
        # Below 18 digits nothing can overflow: test only the rare long tokens.
        if digits < 18 or mantissa <= (9223372036854775807 - d) // 10:
            mantissa = mantissa * 10 + d
        else:
            inexact = True
            exponent += 1
        digits += 1
        pos += 1
    is_real = False
    if pos < end and buf[pos] == 46:  # '.'
        is_real = True
        pos += 1
        while pos < end:
            d = np.int64(buf[pos]) - 48
            if d < 0 or d > 9:
                break
            if digits < 18 or mantissa <= (9223372036854775807 - d) // 10:
                mantissa = mantissa * 10 + d
                exponent -= 1
            else:
                inexact = True
            digits += 1
            pos += 1
    if digits == 0:
        return BAD, 0, 0.0, skip_token(buf, start, end, allow_comma)
    if pos < end and (buf[pos] == 101 or buf[pos] == 69):  # 'e' / 'E'
        is_real = True
        pos += 1
        exp_negative = False
        if pos < end and (buf[pos] == 45 or buf[pos] == 43):
            exp_negative = buf[pos] == 45
            pos += 1
        exp_digits = 0
        written = 0
        while pos < end and 48 <= buf[pos] <= 57:
            if written < 100000:
                written = written * 10 + (buf[pos] - 48)
            exp_digits += 1
            pos += 1
        if exp_digits == 0:
            return BAD, 0, 0.0, skip_token(buf, start, end, allow_comma)
        exponent += -written if exp_negative else written
    if not ends_token(buf, pos, end, allow_comma):
        return BAD, 0, 0.0, skip_token(buf, start, end, allow_comma)
    if not is_real:
        if inexact:
            return OVERFLOW, 0, 0.0, pos
        return INT, -mantissa if negative else mantissa, 0.0, pos
    if inexact or mantissa >= _MANTISSA_LIMIT or exponent > 22 or exponent < -22:
        return SLOW_FLOAT, 0, 0.0, pos
    value = float(mantissa)
    if exponent >= 0:
        value = value * _POW10[exponent]
    else:
        value = value / _POW10[-exponent]
    return FLOAT, 0, -value if negative else value, pos


@njit(cache=True)
def _grow_rows(array):
    bigger = np.empty((2 * array.shape[0], array.shape[1]), dtype=array.dtype)
    bigger[:array.shape[0]] = array
    return bigger


@njit(cache=True)
def scan_rows(buf, pos, tag, comment_a, comment_b, header_tag, allow_comma,
              num_ids, max_values, num_columns, id_low, id_high, capacity, exact_capacity):
    """Parse the data lines of an edge-list-like file, from ``pos`` to the end.

    A data line is ``[tag] id_1 .. id_{num_ids} [value ...] [skipped ...]``:
    ``num_ids`` integer ids in ``[id_low, id_high]``, then up to
    ``max_values`` numbers (ints or reals), then any further tokens, which are
    skipped.  Lines whose first non-blank byte is ``comment_a`` or
    ``comment_b`` are comments, blank lines are skipped, a line starting with
    ``header_tag`` is a duplicate header.  ``tag`` 0 means data lines have no
    tag byte.  ``num_columns`` is the exact number of fields (after the tag),
    or -1 to take it from the first data line.  ``capacity`` is the number
    of rows to allocate (an upper bound such as the number of lines, or the
    count a header announced); one more row is TOO_MANY, and with
    ``exact_capacity`` fewer rows is TOO_FEW.

    Returns ``(status, error_pos, rows, num_columns, ids, int_values,
    float_values, real_columns, slow_tokens, num_slow)``.  ``ids`` is
    ``(num_ids, capacity)``; value column ``j`` is ``float_values[j]`` when
    ``real_columns[j]`` else ``int_values[j]``; ``slow_tokens[:num_slow]`` are
    ``(row, column, start, stop)`` of reals still to convert.
    """
    end = buf.size
    ids = np.empty((num_ids, capacity), dtype=np.int64)
    int_values = np.empty((max_values, capacity), dtype=np.int64)
    float_values = np.empty((max_values, 0), dtype=np.float64)
    real_columns = np.zeros(max_values, dtype=np.bool_)
    any_real = False
    slow = np.empty((16, 4), dtype=np.int64)
    num_slow = 0
    rows = 0
    num_values = min(num_columns - num_ids, max_values) if num_columns >= 0 else 0
    while pos < end:
        line = pos
        pos = skip_blanks(buf, pos, end)
        if pos >= end:
            break
        c = buf[pos]
        if c == LF:
            pos += 1
            continue
        if c == comment_a or c == comment_b:
            pos = next_line(buf, pos, end)
            continue
        if header_tag != 0 and c == header_tag:
            return DUP_HEADER, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
        if tag != 0:
            if c != tag or not ends_token(buf, pos + 1, end, False):
                return UNKNOWN_LINE, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
            pos = skip_blanks(buf, pos + 1, end)
        if rows == capacity:
            return TOO_MANY, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
        value_limit = num_ids + (max_values if num_columns < 0 and rows == 0 else num_values)
        fields = 0
        while True:
            if pos >= end or buf[pos] == LF:
                break
            if num_columns >= 0 and fields >= num_columns:
                return COLUMNS, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
            token = pos
            if fields < num_ids:
                kind, ival, fval, pos = parse_number(buf, pos, end, allow_comma)
                if kind == OVERFLOW:
                    return TOO_LARGE, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                if kind != INT:
                    return BAD_TOKEN, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                if ival < id_low or ival > id_high:
                    return ID_RANGE, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                ids[fields, rows] = ival
            elif fields < value_limit:
                j = fields - num_ids
                kind, ival, fval, pos = parse_number(buf, pos, end, allow_comma)
                if kind == BAD:
                    return BAD_TOKEN, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                if kind == NONFINITE:
                    return NOT_FINITE, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                if kind == OVERFLOW:
                    return TOO_LARGE, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                if kind == INT:
                    int_values[j, rows] = ival
                    if any_real:
                        float_values[j, rows] = float(ival)
                else:
                    int_values[j, rows] = 0
                    if not any_real:
                        # First real number: from now on keep a float copy of every value.
                        any_real = True
                        float_values = np.empty((max_values, capacity), dtype=np.float64)
                        for jj in range(max_values):
                            for r in range(rows):
                                float_values[jj, r] = float(int_values[jj, r])
                        for jj in range(j):
                            float_values[jj, rows] = float(int_values[jj, rows])
                    real_columns[j] = True
                    float_values[j, rows] = fval
                    if kind == SLOW_FLOAT:
                        if num_slow == slow.shape[0]:
                            slow = _grow_rows(slow)
                        slow[num_slow, 0] = rows
                        slow[num_slow, 1] = j
                        slow[num_slow, 2] = token
                        slow[num_slow, 3] = pos
                        num_slow += 1
            else:
                if buf[pos] == COMMA:   # an empty field between two commas
                    return BAD_TOKEN, token, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
                pos = skip_token(buf, pos, end, allow_comma)
            fields += 1
            pos = skip_separator(buf, pos, end, allow_comma)
        if num_columns < 0:
            if fields < num_ids:
                return COLUMNS, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
            num_columns = fields
            num_values = min(fields - num_ids, max_values)
        elif fields != num_columns:
            return COLUMNS, line, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
        rows += 1
        pos = next_line(buf, pos, end)
    if exact_capacity and rows < capacity:
        return TOO_FEW, end, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow
    return OK, end, rows, num_columns, ids, int_values, float_values, real_columns, slow, num_slow


def check_slow_floats(buf, slow, float_values, path, allow_comma=False):
    """:func:`fix_slow_floats`, raising GraphFormatError at the first value that is not finite."""
    bad = fix_slow_floats(buf, slow, float_values)
    if bad is not None:
        token = token_text(buf, slow[bad, 2], allow_comma)
        raise_at(buf, slow[bad, 2], f"weight {token!r} is not a finite number", path)


def fix_slow_floats(buf, slow, float_values):
    """Convert the real tokens the fast path left aside, with numpy's exact parser.

    Returns the index into ``slow`` of the first token that is not finite
    (such as ``1e999``), or ``None``.
    """
    if slow.shape[0] == 0:
        return None
    widths = slow[:, 3] - slow[:, 2]
    width = int(widths.max())
    text = _gather_tokens(buf, slow[:, 2], widths, width)
    values = text.view(f"S{width}").ravel().astype(np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        return int(np.argmax(bad))
    float_values[slow[:, 1], slow[:, 0]] = values
    return None


@njit(cache=True)
def _gather_tokens(buf, starts, widths, width):
    text = np.zeros((starts.size, width), dtype=np.uint8)
    for i in range(starts.size):
        for k in range(widths[i]):
            text[i, k] = buf[starts[i] + k]
    return text


def values_column(int_values, float_values, real_columns, j, rows):
    """Value column ``j`` as float64 if any real was seen in it, else int32 when it fits, else int64."""
    if real_columns[j]:
        return float_values[j, :rows]
    return narrow_integers(int_values[j, :rows])


def narrow_integers(values):
    """int64 values as int32 when every one fits (weights keep their narrowest exact type).

    Examples
    --------
    >>> narrow_integers(np.array([1, -5])).dtype
    dtype('int32')
    >>> narrow_integers(np.array([2**40])).dtype
    dtype('int64')
    """
    info = np.iinfo(np.int32)
    if values.size == 0 or (values.min() >= info.min and values.max() <= info.max):
        return values.astype(np.int32)
    return values


# ---------------------------------------------------------------------- error messages

def line_number(buf, pos) -> int:
    """The 1-based number of the line holding byte ``pos``."""
    pos = min(int(pos), buf.size)
    return int(np.count_nonzero(buf[:pos] == LF)) + 1


def line_text(buf, pos, limit=80) -> str:
    """The text of the line holding byte ``pos`` (shortened to ``limit`` characters)."""
    pos = min(int(pos), buf.size)
    data = buf.tobytes() if buf.size < 4096 else None
    if data is None:
        start = pos
        while start > 0 and buf[start - 1] != LF and pos - start < 4096:
            start -= 1
        stop = pos
        while stop < buf.size and buf[stop] != LF and stop - pos < 4096:
            stop += 1
        text = buf[start:stop].tobytes()
    else:
        start = data.rfind(b"\n", 0, pos) + 1
        stop = data.find(b"\n", pos)
        text = data[start:] if stop < 0 else data[start:stop]
    text = text.decode("utf-8", "replace").rstrip("\r")
    return text if len(text) <= limit else text[:limit] + "..."


def token_text(buf, pos, allow_comma=False) -> str:
    """The token that starts at byte ``pos``."""
    pos = min(int(pos), buf.size)
    stop = int(skip_token(buf, pos, buf.size, allow_comma))
    if stop == pos and pos < buf.size:
        stop = pos + 1
    return buf[pos:min(stop, pos + 40)].tobytes().decode("utf-8", "replace")


def raise_at(buf, pos, message, path, last_line=False):
    """Raise GraphFormatError naming the line that holds ``pos`` (or the file's last line)."""
    if last_line:
        end = buf.size
        while end > 0 and buf[end - 1] in (LF, CR, SPACE, TAB):
            end -= 1
        pos = max(end - 1, 0)
    raise GraphFormatError(message, path=path, line=line_number(buf, pos))


def explain_scan_error(status, pos, buf, path, *, what, allow_comma=False, id_range=None,
                       expected=None):
    """Turn a :func:`scan_rows` status into a GraphFormatError with file, line and reason.

    ``what`` names a data line (``"arc line 'a <tail> <head> <weight>'"``),
    ``id_range`` the allowed ids as text, ``expected`` a description of the
    row count for TOO_MANY / TOO_FEW.
    """
    token = token_text(buf, pos, allow_comma)
    line = line_text(buf, pos)
    if status == BAD_TOKEN:
        message = f"bad token {token!r} (expected a number) in {line!r}"
    elif status == NOT_FINITE:
        message = f"weight {token!r} is not a finite number (NaN and infinity are not allowed)"
    elif status == TOO_LARGE:
        message = f"integer {token!r} does not fit in 64 bits"
    elif status == ID_RANGE:
        message = f"vertex id {token} is out of range ({id_range}) in {line!r}"
    elif status == COLUMNS:
        fields = len(line.replace(",", " ").split()) if allow_comma else len(line.split())
        message = f"wrong number of columns in {line!r} ({fields} fields; expected {what})"
    elif status == DUP_HEADER:
        message = f"duplicate header line {line!r}"
    elif status == UNKNOWN_LINE:
        message = f"unexpected line {line!r} (expected {what})"
    elif status == TOO_MANY:
        message = f"more data lines than announced: {expected}"
    elif status == TOO_FEW:
        raise_at(buf, pos, f"file ends early (truncated?): {expected}", path, last_line=True)
    else:  # pragma: no cover - every status above is handled
        message = f"parse error (status {status})"
    raise_at(buf, pos, message, path)


# ---------------------------------------------------------------------- writing


@njit(cache=True)
def _count_digits(value):
    if value < 0:
        return 1 + _count_digits(-value) if value > -9223372036854775807 else 20
    digits = 1
    while value >= 10:
        value //= 10
        digits += 1
    return digits


@njit(cache=True)
def _write_int(out, pos, value):
    if value < 0:
        out[pos] = 45
        pos += 1
        value = -value
    digits = _count_digits(value)
    for k in range(digits - 1, -1, -1):
        out[pos + k] = 48 + value % 10
        value //= 10
    return pos + digits


@njit(cache=True)
def _text_width(text, i):
    width = 0
    while width < text.shape[1] and text[i, width] != 0:
        width += 1
    return width


@njit(cache=True)
def format_rows(prefix, columns, real_text, separator):
    """Lines ``prefix c_0 sep c_1 ... [sep real]``: integer columns, then an optional pre-formatted real.

    ``columns`` is ``(num_columns, rows)`` int64; ``real_text`` is ``(rows,
    width)`` bytes, NUL-padded (width 0 for none).  Returns the bytes.
    """
    rows = columns.shape[1]
    has_real = real_text.shape[1] > 0
    total = 0
    for r in range(rows):
        total += prefix.size + columns.shape[0] + 1 - (0 if has_real else 1)
        for c in range(columns.shape[0]):
            total += _count_digits(columns[c, r])
        if has_real:
            total += _text_width(real_text, r)
    out = np.empty(total, dtype=np.uint8)
    pos = 0
    for r in range(rows):
        for k in range(prefix.size):
            out[pos] = prefix[k]
            pos += 1
        for c in range(columns.shape[0]):
            if c:
                out[pos] = separator
                pos += 1
            pos = _write_int(out, pos, columns[c, r])
        if has_real:
            out[pos] = separator
            pos += 1
            for k in range(_text_width(real_text, r)):
                out[pos] = real_text[r, k]
                pos += 1
        out[pos] = LF
        pos += 1
    return out


def real_text(values):
    """Float values as NUL-padded shortest round-trip text, one row each (``(n, width)`` uint8).

    Examples
    --------
    >>> real_text(np.array([0.5, 1e-300])).view("S6").ravel().tolist()
    [b'0.5', b'1e-300']
    """
    text = np.asarray(values, dtype=np.float64).astype("S32")
    width = max(1, int(np.char.str_len(text).max())) if text.size else 1
    return np.ascontiguousarray(text.astype(f"S{width}")).view(np.uint8).reshape(text.size, width)


def no_real_text(rows=0):
    """The empty ``real_text`` argument of :func:`format_rows`."""
    return np.zeros((rows, 0), dtype=np.uint8)


# ---------------------------------------------------------------------- headers


@njit(cache=True)
def first_content_line(buf, pos, comment_a, comment_b):
    """``(start, stop)`` of the first line at or after ``pos`` that is neither blank nor a comment.

    ``start`` is its first non-blank byte, ``stop`` the position just past its
    newline; both are ``buf.size`` when there is none.
    """
    end = buf.size
    while pos < end:
        first = skip_blanks(buf, pos, end)
        if first >= end:
            break
        c = buf[first]
        if c == LF or c == comment_a or c == comment_b:
            pos = next_line(buf, first, end)
            continue
        return first, next_line(buf, first, end)
    return end, end


@njit(cache=True)
def nth_content_line(buf, pos, comment_a, comment_b, index):
    """The start of the ``index``-th (0-based) non-blank, non-comment line at or after ``pos``."""
    for _ in range(index):
        first, pos = first_content_line(buf, pos, comment_a, comment_b)
    first, pos = first_content_line(buf, pos, comment_a, comment_b)
    return first


def header_fields(buf, start, stop):
    """The blank-separated fields of the line ``buf[start:stop]``.

    Split as bytes, on the ASCII blanks the kernels skip: ``str.split`` would
    also split on control characters such as ``\x1f`` and see no field in a
    line the kernels call non-blank.
    """
    return [f.decode("utf-8", "replace") for f in buf[start:stop].tobytes().split()]


def parse_count(text):
    """A non-negative integer header field, or ``None`` when it is not one."""
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None   # counts beyond 10**18 cannot be real and would overflow int64 kernels
    return int(text)
