"""METIS / DIMACS 10th challenge ``.graph`` files: one adjacency line per vertex, 1-based.

The header is ``<n> <m> [fmt [ncon]]``: ``m`` counts undirected edges, and
``fmt`` is up to three binary digits, ``abc``: ``a`` = each line starts with
a vertex size, ``b`` = then ``ncon`` vertex weights (``ncon`` defaults to 1),
``c`` = every neighbour is followed by an edge weight (so ``1`` or ``001`` is
edge-weighted, ``10`` vertex-weighted, ``11`` both, ``100`` sizes).  Line
``i`` (comments ``%`` aside) lists the neighbours of vertex ``i``; an empty
line is a vertex without neighbours.  Vertex sizes and weights are checked
and dropped (a Graph has no vertex weights).  Every edge must be listed from
both ends with the same weight: an asymmetric file is an error naming the
line.  Labels are ``1..n``.

Examples
--------
>>> import io
>>> g = read_metis(io.BytesIO(b"3 2\\n2\\n1 3\\n2\\n"))
>>> g.directed, g.num_vertices, g.num_edges, g.labels.tolist()
(False, 3, 4, [1, 2, 3])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import GraphError, GraphFormatError
from ..graph import Graph
from . import _text
from ._csr import with_attributes
from ._io import provenance, read_bytes, source_name, split_suffixes, write_bytes

_PERCENT = ord("%")
_FMT_CODES = {"0": (0, 0, 0), "1": (0, 0, 1), "10": (0, 1, 0), "11": (0, 1, 1), "100": (1, 0, 0),
              "101": (1, 0, 1), "110": (1, 1, 0), "111": (1, 1, 1)}


@njit(cache=True)
def _scan_adjacency(buf, pos, n, entries, skip_fields, edge_weights):
    """Parse the n vertex lines; returns (status, error_pos, lines, count, src, dst, weights, line_starts)."""
    end = buf.size
    src = np.empty(entries, dtype=np.int64)
    dst = np.empty(entries, dtype=np.int64)
    weights = np.empty(entries if edge_weights else 0, dtype=np.int64)
    line_starts = np.empty(n, dtype=np.int64)
    vertex = 0
    count = 0
    while pos < end:
        line = pos
        first = _text.skip_blanks(buf, pos, end)
        if first < end and buf[first] == _PERCENT:
            pos = _text.next_line(buf, first, end)
            continue
        if vertex == n:
            if first >= end or buf[first] == _text.LF:
                pos = _text.next_line(buf, first, end)
                continue
            return _text.TOO_MANY, line, vertex, count, src, dst, weights, line_starts
        line_starts[vertex] = line
        p = first
        fields = 0
        while p < end and buf[p] != _text.LF:
            token = p
            kind, value, _, p = _text.parse_number(buf, p, end, False)
            if kind == _text.NONFINITE:
                return _text.NOT_FINITE, token, vertex, count, src, dst, weights, line_starts
            if kind == _text.OVERFLOW:
                return _text.TOO_LARGE, token, vertex, count, src, dst, weights, line_starts
            if kind != _text.INT:
                return _text.BAD_TOKEN, token, vertex, count, src, dst, weights, line_starts
            j = fields - skip_fields
            if j >= 0:
                if not edge_weights or j % 2 == 0:
                    if value < 1 or value > n:
                        return _text.ID_RANGE, token, vertex, count, src, dst, weights, line_starts
                    if count == entries:
                        return _text.TOO_MANY, token, vertex, count, src, dst, weights, line_starts
                    src[count] = vertex
                    dst[count] = value - 1
                    if not edge_weights:
                        count += 1
                else:
                    weights[count] = value
                    count += 1
            fields += 1
            p = _text.skip_blanks(buf, p, end)
        if fields < skip_fields or (edge_weights and (fields - skip_fields) % 2 == 1):
            return _text.COLUMNS, line, vertex, count, src, dst, weights, line_starts
        vertex += 1
        pos = _text.next_line(buf, p, end)
    if vertex < n or count < entries:
        return _text.TOO_FEW, end, vertex, count, src, dst, weights, line_starts
    return _text.OK, end, vertex, count, src, dst, weights, line_starts


def read_metis(source, *, directed=None):
    """Read a METIS / DIMACS 10 ``.graph`` file (optionally compressed).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None`` or ``False``: an undirected graph (the adjacency must be
        symmetric).  ``True``: a directed graph with the arcs exactly as
        listed (no symmetry check).

    Returns
    -------
    Graph
        Labels ``1..n``; int32/int64 weights for edge-weighted fmt codes.

    Raises
    ------
    GraphFormatError
        Naming the file and line: a bad header or fmt code, a bad token, a
        neighbour outside 1..n, a dangling neighbour without its weight, too
        many or too few vertex lines or edges, an edge listed from one end
        only.

    Examples
    --------
    >>> import io
    >>> g = read_metis(io.BytesIO(b"% weighted\\n2 1 001\\n2 5\\n1 5\\n"))
    >>> g.edge_weights(0).tolist(), g.weights.dtype.name
    ([5], 'int32')
    """
    return parse_metis(read_bytes(source), source_name(source), directed=directed)


def _read_header(buf, path):
    start, stop = _text.first_content_line(buf, 0, _PERCENT, 0)
    if start >= buf.size:
        raise GraphFormatError("no '<vertices> <edges> [fmt [ncon]]' header line (empty file?)",
                               path=path)
    fields = _text.header_fields(buf, start, stop)
    counts = [_text.parse_count(f) for f in fields[:2]]
    fmt = fields[2] if len(fields) > 2 else "0"
    code = _FMT_CODES.get(fmt.lstrip("0") or "0") if set(fmt) <= {"0", "1"} and len(fmt) <= 3 else None
    ncon = _text.parse_count(fields[3]) if len(fields) > 3 else 1
    if len(fields) < 2 or len(fields) > 4 or None in counts or code is None or ncon is None:
        _text.raise_at(buf, start, f"malformed header {_text.line_text(buf, start)!r} "
                       "(expected '<vertices> <edges> [fmt [ncon]]' with fmt one of "
                       "0, 1, 10, 11, 100, 101, 110, 111)", path)
    has_sizes, has_vertex_weights, has_edge_weights = code
    skip_fields = has_sizes + (ncon if has_vertex_weights else 0)
    return counts[0], counts[1], skip_fields, bool(has_edge_weights), stop, start


def parse_metis(buf, path=None, *, directed=None):
    """Parse the bytes of a METIS file (see :func:`read_metis`).

    Examples
    --------
    >>> import numpy as np
    >>> parse_metis(np.frombuffer(b"2 1\\n2\\n1\\n", np.uint8)).num_edges
    2
    """
    n, m, skip_fields, edge_weights, body, header = _read_header(buf, path)
    if n > buf.size + 1:   # every vertex has a line, if only an empty one
        _text.raise_at(buf, header, f"the header announces {n} vertices but the file holds only "
                       f"{buf.size} bytes (truncated?)", path)
    if 2 * m > buf.size // 2 + 1:
        _text.raise_at(buf, header, f"the header announces {m} edges but the file holds only "
                       f"{buf.size} bytes (truncated?)", path)
    status, pos, lines, count, src, dst, weights, line_starts = _scan_adjacency(
        buf, body, n, 2 * m, skip_fields, edge_weights)
    if status != _text.OK:
        header_line = _text.line_number(buf, header)
        if status == _text.TOO_MANY and lines == n:
            _text.raise_at(buf, pos, f"more than the {n} vertex lines the header "
                           f"(line {header_line}) announces", path)
        if status == _text.COLUMNS:
            what = ("a neighbour without its edge weight" if edge_weights
                    else "missing vertex size / weight fields")
            _text.raise_at(buf, pos, f"{what} in {_text.line_text(buf, pos)!r}", path)
        if status == _text.BAD_TOKEN:
            token = _text.token_text(buf, pos)
            _text.raise_at(buf, pos, f"bad token {token!r} (expected an integer) in "
                           f"{_text.line_text(buf, pos)!r}", path)
        expected = (f"the header (line {header_line}) announces {n} vertices and {m} edges "
                    f"({2 * m} adjacency entries); found {lines} vertex lines and {count} entries")
        _text.explain_scan_error(status, pos, buf, path, what="", id_range=f"1..{n}",
                                 expected=expected)
    values = _text.narrow_integers(weights) if edge_weights else None
    stem = split_suffixes(path)[0] or None
    labels = np.arange(1, n + 1, dtype=np.int64)
    graph = Graph.from_edges(src, dst, values, n, directed=True, labels=labels, name=stem)
    if directed:
        return graph
    _check_symmetric(graph, buf, line_starts, path)
    return with_attributes(graph, directed=False)


def _check_symmetric(graph, buf, line_starts, path):
    """Raise, naming a line, unless every arc u -> v (weight w) has its mirror v -> u (weight w)."""
    reverse = graph.reverse()
    same = (np.array_equal(reverse.indptr, graph.indptr)
            and np.array_equal(reverse.indices, graph.indices)
            and np.array_equal(reverse.weights, graph.weights))
    if same:
        return
    tails = graph.tails().astype(np.int64)
    forward = np.stack([tails, graph.indices.astype(np.int64), graph.weights.astype(np.int64)])
    mirror = np.stack([graph.indices.astype(np.int64), tails, graph.weights.astype(np.int64)])
    forward_keys = {tuple(t) for t in forward.T.tolist()}
    for u, v, w in mirror.T.tolist():
        if (u, v, w) not in forward_keys:
            # The file lists v -> u (weight w) on v's line, but not u -> v on u's.
            weight = f" with weight {w}" if graph.weighted else ""
            _text.raise_at(buf, line_starts[v],
                           f"vertex {v + 1} lists neighbour {u + 1}{weight}, but vertex {u + 1} "
                           f"(line {_text.line_number(buf, line_starts[u])}) does not list "
                           f"{v + 1}{weight}: a METIS adjacency must be symmetric", path)


@njit(cache=True)
def _format_adjacency(indptr, indices, weights, has_weights):
    n = indptr.size - 1
    total = 0
    for u in range(n):
        for i in range(indptr[u], indptr[u + 1]):
            total += _text._count_digits(indices[i] + 1) + 1
            if has_weights:
                total += _text._count_digits(weights[i]) + 1
        total += 1
    out = np.empty(total, dtype=np.uint8)
    pos = 0
    for u in range(n):
        for i in range(indptr[u], indptr[u + 1]):
            if i > indptr[u]:
                out[pos] = _text.SPACE
                pos += 1
            pos = _text._write_int(out, pos, indices[i] + 1)
            if has_weights:
                out[pos] = _text.SPACE
                pos += 1
                pos = _text._write_int(out, pos, weights[i])
        out[pos] = _text.LF
        pos += 1
    return out[:pos]


def format_metis(graph) -> bytes:
    """The METIS text of an undirected graph (fmt ``001`` when weighted).

    Raises
    ------
    GraphError
        For a directed graph, self-loops, or real-valued weights, which METIS
        cannot hold.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [7], directed=False)
    >>> format_metis(g).decode().splitlines()[1:]
    ['2 1 001', '2 7', '1 7']
    """
    if graph.directed:
        raise GraphError("METIS .graph files hold undirected graphs only; write a directed graph "
                         "as .gr, an edge list, .mtx or .npz")
    if graph.weighted and graph.weights.dtype.kind == "f":
        raise GraphError("METIS edge weights are integers; this graph has real weights "
                         "(write it as .gr, .mtx or .npz)")
    loops = int(np.count_nonzero(graph.tails() == graph.indices))
    if loops:
        raise GraphError(f"METIS files cannot hold self-loops; this graph has {loops}")
    fmt = " 001" if graph.weighted else ""
    header = f"% {provenance(graph)}\n{graph.num_vertices} {graph.num_edges // 2}{fmt}\n"
    body = _format_adjacency(graph.indptr.astype(np.int64), graph.indices.astype(np.int64),
                             graph.weights.astype(np.int64), graph.weighted)
    return header.encode() + body.tobytes()


def write_metis(graph, target) -> None:
    """Write an undirected graph as a METIS ``.graph`` file (compressed by suffix).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.graph"
    >>> write_metis(warpath.Graph.from_edges([0, 1], [1, 2], directed=False), path)
    >>> read_metis(path).num_edges
    4
    """
    write_bytes(target, format_metis(graph))
