"""Small, regular text files parsed without compiled kernels: Python's ``re`` and numpy.

The compiled parsers (:mod:`._text`) read hundreds of MB/s, but numba compiles
them on first use, some ten seconds on a fresh install, which would dominate
reading a small file.  A small file whose lines all have the regular shape
(checked with one regular expression over the whole text) is read here
instead; anything else, including every malformed file, goes to the compiled
parser, which names the line and the problem.  The patterns accept only what
the compiled parser accepts, and numbers convert to the same values (numpy
rounds reals correctly, as the compiled parser does), so both paths give the
same graph.

Examples
--------
>>> numbers([b"3", b"-4"]).tolist(), numbers([b"3", b"2.5"]).tolist()
([3, -4], [3.0, 2.5])
"""

from __future__ import annotations

import numpy as np

from ._text import narrow_integers

#: Files up to this many bytes (decompressed) try the plain path first.
SMALL_FILE_BYTES = 2 * 2**20

#: An integer the compiled parser reads exactly (longer ones it refuses, with a message).
INTEGER = rb"[+-]?\d{1,18}"
#: A vertex id: digits only.
ID = rb"\d{1,18}"
#: A number: an integer, or a real in plain or exponent notation (no nan/inf: the compiled
#: parser refuses them with a message).
NUMBER = (rb"[+-]?(?:\d{1,18}(?![\d.eE])|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d{1,4})?"
          rb"|\d+[eE][+-]?\d{1,4})")
#: Blanks within a line, and the end of a line.
BLANK = rb"[ \t]"
END = rb"[ \t\r]*\n"


def numbers(tokens):
    """Validated number tokens as int32/int64 when all are integers, else float64;
    ``None`` when a real is not finite (the compiled parser then reports it)."""
    text = np.array(tokens, dtype=bytes)
    if not any(b"." in t or b"e" in t or b"E" in t for t in tokens):
        return narrow_integers(text.astype(np.int64))
    values = text.astype(np.float64)
    return values if np.isfinite(values).all() else None


def with_final_newline(data: bytes) -> bytes:
    """The text with a newline after its last line (so every line matches ``END``)."""
    return data if data.endswith(b"\n") or not data else data + b"\n"
