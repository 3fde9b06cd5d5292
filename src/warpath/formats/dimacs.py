"""DIMACS 9th Implementation Challenge shortest-path files: ``.gr`` graphs and ``.co`` coordinates.

A ``.gr`` file is ``c`` comment lines, one ``p sp <n> <m>`` header, and ``m``
arc lines ``a <tail> <head> <weight>`` with vertex ids 1..n.  The graph is
directed; the Graph keeps the ids as labels (``labels = 1..n``, internal
index = id - 1).  A ``.co`` file is ``p aux sp co <n>`` and ``v <id> <x> <y>``
lines.  Integer weights stay integers (int32 when they fit); a file with real
weights gives float64.

Examples
--------
>>> import io, warpath
>>> text = b"c tiny\\np sp 3 2\\na 1 2 7\\na 2 3 5\\n"
>>> g = read_dimacs(io.BytesIO(text))
>>> g.num_vertices, g.num_edges, g.labels.tolist()
(3, 2, [1, 2, 3])
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import GraphError, GraphFormatError
from ..graph import Graph
from . import _plain, _text
from ._csr import with_attributes
from ._io import provenance, read_bytes, source_name, split_suffixes, write_bytes

_C, _P, _A, _V = ord("c"), ord("p"), ord("a"), ord("v")
_SHORTEST_ARC_LINE = len("a 1 1 0\n")

# The plain path (small files, no compilation): comments, then 'p sp n m', then arc lines only.
_B, _E = _plain.BLANK, _plain.END
_PLAIN_HEADER = re.compile(rb"(?:[ \t\r]*(?:c[^\n]*)?\n)*" + _B + rb"*p" + _B + rb"+sp" + _B
                           + rb"+(" + _plain.ID + rb")" + _B + rb"+(" + _plain.ID + rb")" + _E)
_PLAIN_ARCS = re.compile(rb"(?:" + _B + rb"*a" + _B + rb"+" + _plain.ID + _B + rb"+" + _plain.ID
                         + _B + rb"+" + _plain.NUMBER + _E + rb")*")


def read_dimacs(source, *, directed=None, coordinates=None):
    """Read a DIMACS 9 shortest-path ``.gr`` file (optionally compressed).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None`` or ``True``: the arcs as listed (DIMACS graphs are directed).
        ``False``: every arc is an undirected edge.
    coordinates : str, path or binary file object, optional
        A matching ``.co`` file; its coordinates become ``g.coordinates``.

    Returns
    -------
    Graph
        Labels ``1..n`` (the file's ids), weights int32/int64 or float64.

    Raises
    ------
    GraphFormatError
        Naming the file and line: a missing or duplicate ``p`` header, a bad
        token, an id of 0 or above n, a NaN/inf weight, a wrong number of
        columns, or an arc count that does not match the header.

    Examples
    --------
    >>> import io
    >>> g = read_dimacs(io.BytesIO(b"p sp 2 1\\na 2 1 -4\\n"))
    >>> g.neighbors(1).tolist(), g.edge_weights(1).tolist()
    ([0], [-4])
    """
    graph = parse_dimacs(read_bytes(source), source_name(source), directed=directed)
    return graph if coordinates is None else attach_coordinates(graph, coordinates)


def attach_coordinates(graph, coordinates):
    """``graph`` with the coordinates of a ``.co`` file (which must have as many vertices).

    Examples
    --------
    >>> import io, warpath
    >>> g = warpath.Graph.from_edges([0], [1])
    >>> attach_coordinates(g, io.BytesIO(b"p aux sp co 2\\nv 1 0 0\\nv 2 3 4\\n")).coordinates[1]
    array([3, 4])
    """
    xy = read_coordinates(coordinates)
    if xy.shape[0] != graph.num_vertices:
        raise GraphFormatError(
            f"has {xy.shape[0]} vertices but the graph {graph.name or ''} has "
            f"{graph.num_vertices}", path=source_name(coordinates))
    return with_attributes(graph, coordinates=xy)


def _read_header(buf, path, what, fields_expected, words):
    """Find the ``p`` line; return its numbers and the position after it."""
    start, stop = _text.first_content_line(buf, 0, _C, 0)
    if start >= buf.size:
        raise GraphFormatError(f"no '{what}' header line (empty file?)", path=path)
    fields = _text.header_fields(buf, start, stop)
    if fields[0] != "p":
        problem = "a data line" if fields[0] in ("a", "v") else f"{_text.line_text(buf, start)!r}"
        _text.raise_at(buf, start, f"{problem} before the '{what}' header", path)
    numbers = [_text.parse_count(f) for f in fields[len(words) + 1:]]
    if (len(fields) != fields_expected or fields[1:len(words) + 1] != list(words)
            or any(v is None for v in numbers)):
        hint = " - a PACE 2016 'p tw' graph? read it with format='pace'" \
            if fields[1:2] == ["tw"] else ""
        _text.raise_at(buf, start, f"malformed header {_text.line_text(buf, start)!r} "
                       f"(expected '{what}'{hint})", path)
    return numbers, stop, start


def parse_dimacs(buf, path=None, *, directed=None):
    """Parse the bytes of a ``.gr`` file (see :func:`read_dimacs`).

    Examples
    --------
    >>> import numpy as np
    >>> buf = np.frombuffer(b"p sp 2 1\\na 1 2 3\\n", dtype=np.uint8)
    >>> parse_dimacs(buf, "mem.gr").edge_weights(0).tolist()
    [3]
    """
    if buf.size <= _plain.SMALL_FILE_BYTES:
        graph = _parse_plain(buf.tobytes(), path, directed)
        if graph is not None:
            return graph
    (n, m), body, header = _read_header(buf, path, "p sp <vertices> <arcs>", 4, ("sp",))
    if m > buf.size // _SHORTEST_ARC_LINE + 1:
        _text.raise_at(buf, header, f"the header announces {m} arcs but the file holds only "
                       f"{buf.size} bytes (truncated?)", path)
    status, pos, rows, _, ids, ints, reals, real_cols, slow, num_slow = _text.scan_rows(
        buf, body, _A, _C, 0, _P, False, 2, 1, 3, 1, n, m, True)
    expected = f"the header (line {_text.line_number(buf, header)}) announces {m} arcs, found {rows}"
    if status != _text.OK:
        if status == _text.TOO_MANY:
            expected = (f"the header (line {_text.line_number(buf, header)}) announces {m} arcs; "
                        "this is one more")
        _text.explain_scan_error(status, pos, buf, path, what="'a <tail> <head> <weight>'",
                                 id_range=f"1..{n}", expected=expected)
    _text.check_slow_floats(buf, slow[:num_slow], reals, path)
    weights = _text.values_column(ints, reals, real_cols, 0, rows)
    stem = split_suffixes(path)[0] or None
    return Graph.from_edges(ids[0, :rows] - 1, ids[1, :rows] - 1, weights, n,
                           directed=directed is not False,
                           labels=np.arange(1, n + 1, dtype=np.int64), name=stem)


def _parse_plain(data: bytes, path, directed):
    """A small regular ``.gr`` file read without compiled kernels (see :mod:`._plain`);
    ``None`` when it is not one (the compiled parser then reads it)."""
    data = _plain.with_final_newline(data)
    header = _PLAIN_HEADER.match(data)
    if header is None or _PLAIN_ARCS.fullmatch(data, header.end()) is None:
        return None
    n, m = int(header.group(1)), int(header.group(2))
    tokens = data[header.end():].split()
    if len(tokens) != 4 * m:
        return None
    ids = np.array(tokens[1::4] + tokens[2::4], dtype=bytes).astype(np.int64)
    weights = _plain.numbers(tokens[3::4])
    if weights is None or (m and (ids.min() < 1 or ids.max() > n)):
        return None
    stem = split_suffixes(path)[0] or None
    return Graph.from_edges(ids[:m] - 1, ids[m:] - 1, weights, n, directed=directed is not False,
                            labels=np.arange(1, n + 1, dtype=np.int64), name=stem)


def read_coordinates(source):
    """Read a DIMACS 9 ``.co`` coordinates file: an ``(n, 2)`` array indexed by vertex id - 1.

    Integer coordinates (the challenge's scaled longitudes and latitudes) give
    int64, real ones float64.

    Raises
    ------
    GraphFormatError
        For a malformed header or line, an id out of range, a repeated id or a
        count that does not match the header.

    Examples
    --------
    >>> import io
    >>> read_coordinates(io.BytesIO(b"p aux sp co 2\\nv 2 5 6\\nv 1 -3 4\\n")).tolist()
    [[-3, 4], [5, 6]]
    """
    path = source_name(source)
    buf = read_bytes(source)
    (n,), body, header = _read_header(buf, path, "p aux sp co <vertices>", 5, ("aux", "sp", "co"))
    if n > buf.size // len("v 1 0 0\n") + 1:
        _text.raise_at(buf, header, f"the header announces {n} vertices but the file holds only "
                       f"{buf.size} bytes (truncated?)", path)
    status, pos, rows, _, ids, ints, reals, real_cols, slow, num_slow = _text.scan_rows(
        buf, body, _V, _C, 0, _P, False, 1, 2, 3, 1, n, n, True)
    if status != _text.OK:
        _text.explain_scan_error(
            status, pos, buf, path, what="'v <id> <x> <y>'", id_range=f"1..{n}",
            expected=f"the header announces {n} vertices, found {rows}")
    _text.check_slow_floats(buf, slow[:num_slow], reals, path)
    seen = np.bincount(ids[0, :rows] - 1, minlength=n)
    if n and seen.max() > 1:
        vertex = int(np.argmax(seen > 1))
        second = int(np.flatnonzero(ids[0, :rows] == vertex + 1)[1])
        pos = _text.nth_content_line(buf, body, _C, 0, second)
        _text.raise_at(buf, pos, f"vertex {vertex + 1} has a second 'v' line", path)
    columns = [_text.values_column(ints, reals, real_cols, j, rows) for j in range(2)]
    dtype = np.float64 if real_cols.any() else np.int64
    xy = np.empty((n, 2), dtype=dtype)
    xy[ids[0, :rows] - 1, 0] = columns[0]
    xy[ids[0, :rows] - 1, 1] = columns[1]
    return xy


def format_dimacs(graph) -> bytes:
    """The ``.gr`` text of ``graph``: a provenance comment, ``p sp n m`` and one ``a`` line per arc.

    Ids are 1-based internal indices (vertex ``i`` is written as ``i + 1``);
    an unweighted graph is written with weight 1; an undirected graph lists
    each edge in both directions (read it back with ``directed=False``).

    Examples
    --------
    >>> import warpath
    >>> text = format_dimacs(warpath.Graph.from_edges([0], [1], [9]))
    >>> text.decode().splitlines()[1:]
    ['p sp 2 1', 'a 1 2 9']
    """
    header = f"c {provenance(graph)}\np sp {graph.num_vertices} {graph.num_edges}\n".encode()
    columns = np.empty((2 if graph.weights.dtype.kind == "f" else 3, graph.num_edges), np.int64)
    columns[0] = graph.tails()
    columns[0] += 1
    columns[1] = graph.indices
    columns[1] += 1
    if graph.weights.dtype.kind == "f":
        reals = _text.real_text(graph.weights)
    else:
        columns[2] = graph.weights
        reals = _text.no_real_text(graph.num_edges)
    body = _text.format_rows(np.frombuffer(b"a ", np.uint8), columns, reals, _text.SPACE)
    return header + body.tobytes()


def write_dimacs(graph, target) -> None:
    """Write ``graph`` as a DIMACS ``.gr`` file (compressed when the path ends in .gz/.bz2/.xz).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.gr.gz"
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [4, 5])
    >>> write_dimacs(g, path)
    >>> read_dimacs(path).edge_weights(1).tolist()
    [5]
    """
    write_bytes(target, format_dimacs(graph))


def write_coordinates(coordinates, target) -> None:
    """Write an ``(n, 2)`` array as a DIMACS ``.co`` file (row ``i`` is vertex ``i + 1``).

    Examples
    --------
    >>> import io, numpy as np
    >>> out = io.BytesIO()
    >>> write_coordinates(np.array([[1, 2], [3, 4]]), out)
    >>> out.getvalue().decode().splitlines()[-1]
    'v 2 3 4'
    """
    xy = np.asarray(coordinates)
    if xy.ndim != 2 or xy.shape[1] != 2:
        raise GraphError(f"coordinates must have shape (n, 2), not {xy.shape}")
    n = xy.shape[0]
    if xy.dtype.kind in "iu":
        columns = np.vstack([np.arange(1, n + 1), xy[:, 0], xy[:, 1]]).astype(np.int64)
        body = _text.format_rows(np.frombuffer(b"v ", np.uint8), columns,
                                 _text.no_real_text(n), _text.SPACE)
        text = body.tobytes()
    else:
        lines = [f"v {i + 1} {x!r} {y!r}" for i, (x, y) in enumerate(xy.astype(float).tolist())]
        text = ("\n".join(lines) + "\n").encode() if lines else b""
    write_bytes(target, f"c written by warpath\np aux sp co {n}\n".encode() + text)
