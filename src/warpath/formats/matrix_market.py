"""Matrix Market ``.mtx`` coordinate files: entry ``(i, j)`` is the arc i -> j, ids 1-based.

Supported: ``%%MatrixMarket matrix coordinate <field> <symmetry>`` with field
``pattern`` (unweighted), ``integer`` (int32/int64 weights) or ``real`` /
``double`` (float64) and symmetry ``general`` (a directed graph) or
``symmetric`` (an undirected graph; the file stores one triangle).  Dense
``array`` files, ``complex`` and ``skew-symmetric`` / ``hermitian`` matrices
are errors.  Stored zeros are arcs of weight 0 (scipy.sparse.csgraph's
convention for explicit entries).  Labels are ``1..n``.

Examples
--------
>>> import io
>>> text = b"%%MatrixMarket matrix coordinate integer symmetric\\n3 3 2\\n2 1 4\\n3 2 5\\n"
>>> g = read_matrix_market(io.BytesIO(text))
>>> g.directed, g.num_edges, g.edge_weights(1).tolist()
(False, 4, [4, 5])
"""

from __future__ import annotations

import numpy as np

from ..errors import GraphFormatError
from ..graph import Graph
from . import _text
from ._csr import with_attributes
from ._io import provenance, read_bytes, source_name, split_suffixes, write_bytes

_PERCENT = ord("%")
_FIELDS = {"pattern": 0, "integer": 1, "real": 1, "double": 1}


def read_matrix_market(source, *, directed=None):
    """Read a Matrix Market coordinate file (optionally compressed).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None``: as the file says (``symmetric`` is undirected, ``general``
        directed).  ``True``/``False`` override it.

    Returns
    -------
    Graph

    Raises
    ------
    GraphFormatError
        Naming the file and line: a bad banner, an unknown or unsupported
        field / symmetry / format, a non-square size line, a bad token, an
        index outside 1..n, a NaN/inf value, a wrong number of columns, or an
        entry count that does not match the size line.

    Examples
    --------
    >>> import io
    >>> text = b"%%MatrixMarket matrix coordinate pattern general\\n2 2 1\\n1 2\\n"
    >>> read_matrix_market(io.BytesIO(text)).neighbors(0).tolist()
    [1]
    """
    return parse_matrix_market(read_bytes(source), source_name(source), directed=directed)


def _read_banner(buf, path):
    stop = int(_text.next_line(buf, 0, buf.size))
    words = buf[:stop].tobytes().decode("utf-8", "replace").lower().split()
    if not words or not words[0].startswith("%%matrixmarket"):
        _text.raise_at(buf, 0, "missing '%%MatrixMarket matrix coordinate <field> <symmetry>' "
                       "banner", path)
    if len(words) != 5 or words[1] != "matrix":
        _text.raise_at(buf, 0, f"malformed banner {_text.line_text(buf, 0)!r}", path)
    layout, field, symmetry = words[2:]
    if layout != "coordinate":
        _text.raise_at(buf, 0, f"unsupported Matrix Market format {layout!r} (only sparse "
                       "'coordinate' matrices are graphs)", path)
    if field not in _FIELDS:
        _text.raise_at(buf, 0, f"unknown Matrix Market field {field!r} (expected pattern, "
                       "integer or real)", path)
    if symmetry not in ("general", "symmetric"):
        _text.raise_at(buf, 0, f"unsupported Matrix Market symmetry {symmetry!r} (expected "
                       "general or symmetric)", path)
    return field, symmetry == "symmetric", stop


def parse_matrix_market(buf, path=None, *, directed=None):
    """Parse the bytes of a Matrix Market file (see :func:`read_matrix_market`).

    Examples
    --------
    >>> import numpy as np
    >>> text = b"%%MatrixMarket matrix coordinate real general\\n1 1 1\\n1 1 2.5\\n"
    >>> parse_matrix_market(np.frombuffer(text, np.uint8)).weights.tolist()
    [2.5]
    """
    field, symmetric, body = _read_banner(buf, path)
    start, stop = _text.first_content_line(buf, body, _PERCENT, 0)
    if start >= buf.size:
        raise GraphFormatError("no '<rows> <columns> <entries>' size line (truncated?)", path=path)
    sizes = [_text.parse_count(f) for f in _text.header_fields(buf, start, stop)]
    if len(sizes) != 3 or None in sizes:
        _text.raise_at(buf, start, f"malformed size line {_text.line_text(buf, start)!r} "
                       "(expected '<rows> <columns> <entries>')", path)
    rows, cols, nnz = sizes
    if rows != cols:
        _text.raise_at(buf, start, f"a graph needs a square matrix, not {rows} x {cols}", path)
    if nnz > buf.size // 4 + 1:
        _text.raise_at(buf, start, f"the size line announces {nnz} entries but the file holds "
                       f"only {buf.size} bytes (truncated?)", path)
    num_values = _FIELDS[field]
    status, pos, count, _, ids, ints, reals, real_cols, slow, num_slow = _text.scan_rows(
        buf, stop, 0, _PERCENT, 0, 0, False, 2, num_values, 2 + num_values, 1, rows, nnz, True)
    if status != _text.OK:
        what = "'<row> <column>'" if num_values == 0 else "'<row> <column> <value>'"
        _text.explain_scan_error(
            status, pos, buf, path, what=what, id_range=f"1..{rows}",
            expected=f"the size line (line {_text.line_number(buf, start)}) announces {nnz} "
                     f"entries, found {count}")
    _text.check_slow_floats(buf, slow[:num_slow], reals, path)
    weights = None
    if field == "integer":
        if real_cols[0]:
            row = int(np.argmax(reals[0, :count] != ints[0, :count]))
            line = _text.nth_content_line(buf, stop, _PERCENT, 0, row)
            _text.raise_at(buf, line, f"field is 'integer' but {_text.line_text(buf, line)!r} "
                           "holds a real number", path)
        weights = _text.narrow_integers(ints[0, :count])
    elif num_values:
        weights = reals[0, :count] if real_cols[0] else ints[0, :count].astype(np.float64)
    stem = split_suffixes(path)[0] or None
    # A symmetric file holds one triangle: build both directions, then honour directed=True.
    build_directed = not symmetric and directed is not False
    graph = Graph.from_edges(ids[0, :count] - 1, ids[1, :count] - 1, weights, rows,
                            directed=build_directed, labels=np.arange(1, rows + 1, dtype=np.int64),
                            name=stem)
    if symmetric and directed:
        graph = with_attributes(graph, directed=True)
    return graph


def format_matrix_market(graph) -> bytes:
    """The Matrix Market text of ``graph``.

    ``symmetric`` with the lower triangle for an undirected graph, ``general``
    otherwise; field ``pattern`` when unweighted, ``integer`` or ``real``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [2.5])
    >>> format_matrix_market(g).decode().splitlines()[2:]
    ['2 2 1', '1 2 2.5']
    """
    tails = graph.tails()
    heads = graph.indices
    weights = graph.weights
    if not graph.directed:
        lower = tails >= heads
        tails, heads, weights = tails[lower], heads[lower], weights[lower]
    real = graph.weights.dtype.kind == "f"
    field = "pattern" if not graph.weighted else "real" if real else "integer"
    symmetry = "general" if graph.directed else "symmetric"
    n = graph.num_vertices
    header = (f"%%MatrixMarket matrix coordinate {field} {symmetry}\n% {provenance(graph)}\n"
              f"{n} {n} {tails.size}\n")
    columns = np.empty((3 if field == "integer" else 2, tails.size), dtype=np.int64)
    columns[0] = tails
    columns[0] += 1
    columns[1] = heads
    columns[1] += 1
    if field == "integer":
        columns[2] = weights
    reals = _text.real_text(weights) if field == "real" else _text.no_real_text(tails.size)
    body = _text.format_rows(np.zeros(0, np.uint8), columns, reals, _text.SPACE)
    return header.encode() + body.tobytes()


def write_matrix_market(graph, target) -> None:
    """Write ``graph`` as a Matrix Market ``.mtx`` file (compressed by suffix).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.mtx"
    >>> write_matrix_market(warpath.Graph.from_edges([0], [1], directed=False), path)
    >>> read_matrix_market(path).directed
    False
    """
    write_bytes(target, format_matrix_market(graph))

