"""Many-source results written to files: the matrix as ``.npy``, the reachable pairs as CSV.

Both writers read the result a block of rows at a time, so writing adds
little to the memory of the matrix itself.  The CSV (long format, one line
per reachable pair: ``source,source_label,target,target_label,distance,
predecessor``) is formatted by one numba kernel
(:func:`warpath.formats._text.format_table`) rather than Python's ``csv``
module: about 13x faster on integer distances (see ``docs/performance.md``).
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

from .formats import _text

PAIRS_HEADER = "source,source_label,target,target_label,distance,predecessor\n"
#: Pairs formatted at a time (bounds the temporaries of a block).
PAIRS_PER_BLOCK = 1 << 20
#: A CSV expected to be larger than this gets a warning before the work starts.
CSV_WARNING_BYTES = 2**30


def write_matrix_npy(path, matrix) -> None:
    """Write the float64 distance matrix (``inf`` = unreachable) as ``.npy``, a block at a time.

    The file equals ``np.save(path, matrix.distances)`` without building the
    float64 copy of an integer result.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "m.npy")
    >>> write_matrix_npy(path, warpath.apsp(warpath.Graph.from_edges([0], [1], [3])))
    >>> np.load(path).tolist()
    [[0.0, 3.0], [inf, 0.0]]
    """
    shape = (len(matrix.sources), _num_vertices(matrix))
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_1_0(
            handle, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float64)),
                     "fortran_order": False, "shape": shape})
        for _, block in matrix.distance_blocks():
            handle.write(np.ascontiguousarray(block).data)


def _num_vertices(matrix) -> int:
    raw = matrix.exact_distances
    return (raw if raw is not None else matrix.distances).shape[1]


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
    integer_labels = labels.dtype.kind in "iu"
    label_text = None if integer_labels else _label_texts(labels)
    exact = matrix.exact_distances
    values = exact if exact is not None else matrix.distances
    predecessors = matrix.predecessors
    n = values.shape[1]
    step = max(1, PAIRS_PER_BLOCK // max(1, n))
    handle = open(path, "wb") if not hasattr(path, "write") else path
    try:
        handle.write(PAIRS_HEADER.encode())
        for start in range(0, values.shape[0], step):
            block = values[start:start + step]
            reached = block != np.iinfo(np.int64).max if exact is not None else np.isfinite(block)
            rows, targets = np.nonzero(reached)
            sources = matrix.sources[start:start + step][rows]
            pred = (np.full(rows.size, -1, np.int64) if predecessors is None
                    else predecessors[start:start + step][rows, targets])
            handle.write(_pair_lines(sources, targets, block[rows, targets], pred, labels,
                                     label_text).data)
    finally:
        if handle is not path:
            handle.close()


def _pair_lines(sources, targets, distances, pred, labels, label_text) -> np.ndarray:
    """The CSV bytes of a block of pairs."""
    count = sources.size
    has_pred = pred >= 0
    pred_vertex = np.where(has_pred, pred, 0)
    ints = [sources, targets]
    texts = []
    if label_text is None:
        ints += [labels[sources], labels[targets], labels[pred_vertex]]
        source_label, target_label, pred_label = 2, 3, 4
    else:
        texts += [label_text[sources], label_text[targets],
                  np.where(has_pred[:, None], label_text[pred_vertex], 0).astype(np.uint8)]
        source_label, target_label, pred_label = -1, -2, -3
    if distances.dtype.kind == "f":
        texts.append(_text.real_text(distances))
        distance = -len(texts)
    else:
        ints.append(distances)
        distance = len(ints) - 1
    layout = np.array([0, source_label, 1, target_label, distance, pred_label], dtype=np.int64)
    int_columns = np.array(ints, dtype=np.int64).reshape(len(ints), count)
    present = np.ones(int_columns.shape, dtype=np.bool_)
    if pred_label >= 0:
        present[pred_label] = has_pred
    width = max((t.shape[1] for t in texts), default=0)
    text_columns = np.zeros((len(texts), count, width), dtype=np.uint8)
    for i, column in enumerate(texts):
        text_columns[i, :, :column.shape[1]] = column
    return _text.format_table(layout, int_columns, present, text_columns, _text.COMMA)


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
