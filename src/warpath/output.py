"""Many-source results written as CSV, one line per reachable pair.

(The ``.npy`` matrix needs no writer here: :func:`warpath.apsp` writes it
during the run with ``out=``, see :mod:`warpath.apsp.matrices`.)  The writer
reads the result a block of rows at a time, so writing adds little to the
memory of the matrix itself.  The CSV (long format, one line
per reachable pair: ``source,source_label,target,target_label,distance,
predecessor``) is formatted by one numba kernel rather than Python's ``csv`` module (see
``docs/performance.md`` for the speed-up).
It is still about three times the size of the ``.npy`` matrix, so for large
graphs :func:`csv_warning` says so before the work starts.

Examples
--------
>>> import os, tempfile, warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [4, 5], labels=[10, 20, 30])
>>> path = os.path.join(tempfile.mkdtemp(), "pairs.csv")
>>> write_pairs_csv(path, g, warpath.apsp(g))
>>> print(open(path).read().splitlines()[3])
0,10,2,30,9,20
"""

from __future__ import annotations

import csv
import io

import numpy as np
from numba import njit

from .formats import _text
from .formats._text import COMMA, LF

PAIRS_HEADER = "source,source_label,target,target_label,distance,predecessor\n"
#: Pairs formatted at a time (bounds the temporaries of a block: about 100 bytes a pair).
PAIRS_PER_BLOCK = 1 << 18
#: A CSV expected to be larger than this gets a warning before the work starts.
CSV_WARNING_BYTES = 2**30


def write_pairs_csv(path, graph, matrix) -> None:
    """Write one CSV line per reachable (source, target) pair of a many-source result.

    Columns: ``source,source_label,target,target_label,distance,predecessor``
    (indices 0-based, labels the graph's; distances exact for integer
    weights; the predecessor's label, empty when there is none or
    predecessors were not kept).

    Examples
    --------
    >>> import io, warpath
    >>> g = warpath.Graph.from_edges([0], [1], [2.5])
    >>> out = io.BytesIO()
    >>> write_pairs_csv(out, g, warpath.apsp(g, predecessors=False))
    >>> out.getvalue().decode().splitlines()
    ['source,source_label,target,target_label,distance,predecessor', '0,0,0,0,0.0,', '0,0,1,1,2.5,', '1,1,1,1,0.0,']
    """
    labels = graph.labels
    if labels.dtype.kind in "iu":
        fields = _vertex_fields(labels.astype(np.int64), np.zeros((0, 0), np.uint8))
    else:
        fields = _vertex_fields(np.zeros(0, np.int64), _label_texts(labels))
    exact = matrix.exact_distances
    values = exact if exact is not None else matrix.distances
    predecessors = matrix.predecessors
    n = values.shape[1]
    step = max(1, PAIRS_PER_BLOCK // max(1, n))
    no_pred = np.zeros((0, 0), np.int64)
    handle = open(path, "wb") if not hasattr(path, "write") else path
    try:
        handle.write(PAIRS_HEADER.encode())
        for start in range(0, values.shape[0], step):
            block = values[start:start + step]
            if exact is not None:
                reached = block != np.iinfo(np.int64).max
                ints, value_text = block, np.zeros((0, 0), np.uint8)
            else:
                reached = np.isfinite(block)
                ints, value_text = no_pred, _text.real_text(block[reached])
            pred = no_pred if predecessors is None else predecessors[start:start + step]
            handle.write(_pair_lines(matrix.sources[start:start + step], reached, ints, value_text,
                                     pred, *fields).data)
    finally:
        if handle is not path:
            handle.close()


@njit(cache=True)
def _digits(value):
    """Decimal digits of a non-negative int64 (comparisons, no division)."""
    digits = 1
    power = 10
    while digits < 19 and value >= power:
        digits += 1
        power *= 10
    return digits


@njit(cache=True)
def _put_int(out, pos, value):
    if value < 0:
        out[pos] = 45   # '-'
        pos += 1
        value = -value
    end = pos + _digits(value)
    rest = np.uint64(value)   # unsigned: division by 10 without sign fix-ups
    for k in range(end - 1, pos - 1, -1):
        out[k] = 48 + rest % np.uint64(10)
        rest //= np.uint64(10)
    return end


@njit(cache=True)
def _put_bytes(out, pos, text, lengths, row):
    for k in range(lengths[row]):
        out[pos + k] = text[row, k]
    return pos + lengths[row]


@njit(cache=True)
def _vertex_fields(int_labels, label_text):
    """Per vertex, the text of ``index,label`` and of ``label`` alone, formatted once
    (a pair line copies them instead of formatting the same numbers again)."""
    n = max(int_labels.size, label_text.shape[0])
    label_width = label_text.shape[1] if label_text.shape[0] else 20
    both = np.zeros((n, 21 + label_width), dtype=np.uint8)
    both_length = np.zeros(n, dtype=np.int64)
    label = np.zeros((n, label_width), dtype=np.uint8)
    label_length = np.zeros(n, dtype=np.int64)
    for v in range(n):
        if label_text.shape[0]:
            k = 0
            while k < label_width and label_text[v, k] != 0:
                label[v, k] = label_text[v, k]
                k += 1
            label_length[v] = k
        else:
            label_length[v] = _put_int(label[v], 0, int_labels[v])
        pos = _put_int(both[v], 0, v)
        both[v, pos] = COMMA
        for k in range(label_length[v]):
            both[v, pos + 1 + k] = label[v, k]
        both_length[v] = pos + 1 + label_length[v]
    return both, both_length, label, label_length


@njit(cache=True)
def _pair_lines(sources, reached, ints, value_text, pred, both, both_length, label,
                label_length):
    """The CSV lines of the reached pairs of a block of rows, in one pass.

    ``ints`` holds integer distances (or has no columns: then the ``k``-th
    reached pair's distance is row ``k`` of ``value_text``, NUL-padded);
    ``pred`` has no columns when predecessors were not kept; ``both`` /
    ``label`` are :func:`_vertex_fields`.
    """
    rows, n = reached.shape
    count = 0
    for r in range(rows):
        for t in range(n):
            if reached[r, t]:
                count += 1
    line = 2 * both.shape[1] + label.shape[1] + max(20, value_text.shape[1]) + 4
    out = np.empty(count * line, dtype=np.uint8)
    pos = 0
    k = 0
    for r in range(rows):
        source = sources[r]
        for t in range(n):
            if not reached[r, t]:
                continue
            pos = _put_bytes(out, pos, both, both_length, source)
            out[pos] = COMMA
            pos = _put_bytes(out, pos + 1, both, both_length, t)
            out[pos] = COMMA
            pos += 1
            if ints.shape[1]:
                pos = _put_int(out, pos, ints[r, t])
            else:
                for c in range(value_text.shape[1]):
                    if value_text[k, c] == 0:
                        break
                    out[pos] = value_text[k, c]
                    pos += 1
            k += 1
            out[pos] = COMMA
            pos += 1
            if pred.shape[1] and pred[r, t] >= 0:
                pos = _put_bytes(out, pos, label, label_length, pred[r, t])
            out[pos] = LF
            pos += 1
    return out[:pos]


def _label_texts(labels) -> np.ndarray:
    """Each label as CSV field bytes (quoted where CSV needs it), NUL-padded: ``(n, width)``."""
    fields = []
    for label in labels.tolist():
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="").writerow([label])
        fields.append(buffer.getvalue().encode())
    width = max((len(f) for f in fields), default=1) or 1
    return np.frombuffer(b"".join(f.ljust(width, b"\0") for f in fields),
                         dtype=np.uint8).reshape(len(fields), width)


def pairs_csv_bytes(graph, rows: int) -> int:
    """About how large the pairs CSV of ``rows`` sources gets if every pair is reachable.

    Counts the digits of the indices, the labels' text and of a typical
    distance (the largest weight times the square root of n, as on a road
    network or a grid); an estimate to warn with, not a promise.

    Examples
    --------
    >>> import warpath
    >>> pairs_csv_bytes(warpath.generators.grid(10, 10, seed=0), 100) > 100 * 100 * 10
    True
    """
    n = graph.num_vertices
    index = len(str(max(n - 1, 0)))
    sample = graph.labels[:: max(1, n // 1000)].tolist()
    label = sum(len(str(x)) for x in sample) / max(1, len(sample))
    if graph.weights.dtype.kind == "f":
        distance = 18
    else:
        distance = len(str(int(max(1, graph.max_abs_weight) * max(1.0, n ** 0.5))))
    return int(rows * n * (2 * index + 3 * label + distance + 6))


def csv_warning(path, graph, rows: int) -> str | None:
    """A warning to give before writing a large pairs CSV (``None`` when it is not large).

    Examples
    --------
    >>> import warpath
    >>> csv_warning("a.csv", warpath.generators.ring(10, seed=0), 10) is None
    True
    """
    size = pairs_csv_bytes(graph, rows)
    if size < CSV_WARNING_BYTES:
        return None
    npy = rows * graph.num_vertices * 8
    return (f"{path}: a CSV of up to {rows * graph.num_vertices:,} pairs, about "
            f"{size / 1e9:,.1f} GB; the .npy matrix would be {npy / 1e9:,.1f} GB and much "
            "faster to write and to read (numpy.load)")
