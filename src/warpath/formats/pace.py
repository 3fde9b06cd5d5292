"""PACE 2016 challenge ``.gr`` graphs: undirected, unweighted, one ``u v`` edge a line.

The PACE 2016 treewidth track wrote its graphs (among them the DIMACS 9th
challenge road networks, topology only) as ``c`` comment lines, one ``p tw
<n> <m>`` header, then ``m`` lines ``<u> <v>`` with vertex ids 1..n.  The
suffix is ``.gr``, like the DIMACS shortest-path files (``p sp``): reading a
``.gr`` file looks at its header to tell the two apart.  The Graph is
undirected and unweighted (every edge weighs 1; give it weights with
:meth:`warpath.Graph.with_random_weights`) and keeps the ids as labels.

Examples
--------
>>> import io
>>> g = read_pace(io.BytesIO(b"c a path\\np tw 3 2\\n1 2\\n2 3\\n"))
>>> g.directed, g.weighted, g.num_vertices, g.num_edges
(False, False, 3, 4)
"""

from __future__ import annotations

import numpy as np

from ..errors import GraphError, GraphFormatError
from ..graph import Graph
from . import _text
from ._io import provenance, read_bytes, source_name, split_suffixes, write_bytes

_C, _P = ord("c"), ord("p")
_SHORTEST_EDGE_LINE = len("1 1\n")
HEADER_WORD = "tw"


def read_pace(source, *, directed=None):
    """Read a PACE 2016 ``.gr`` graph (``p tw n m``; optionally compressed).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None`` or ``False``: undirected (the format's meaning).  ``True``:
        each line ``u v`` is one arc u -> v.

    Returns
    -------
    Graph
        Unweighted, labels ``1..n`` (the file's ids).

    Raises
    ------
    GraphFormatError
        Naming the file and line: a missing, malformed or duplicate ``p tw``
        header, a bad token, an id of 0 or above n, a line without exactly two
        ids, or an edge count that does not match the header.

    Examples
    --------
    >>> import io
    >>> g = read_pace(io.BytesIO(b"p tw 3 1\\n3 1\\n"))
    >>> g.neighbors(0).tolist(), g.labels.tolist()
    ([2], [1, 2, 3])
    """
    return parse_pace(read_bytes(source), source_name(source), directed=directed)


def is_pace_header(fields) -> bool:
    """Whether the fields of a file's first content line are a PACE ``p tw`` header.

    Examples
    --------
    >>> is_pace_header(["p", "tw", "5", "4"]), is_pace_header(["p", "sp", "5", "4"])
    (True, False)
    """
    return fields[:2] == ["p", HEADER_WORD]


def parse_pace(buf, path=None, *, directed=None):
    """Parse the bytes of a PACE ``.gr`` file (see :func:`read_pace`).

    Examples
    --------
    >>> buf = np.frombuffer(b"p tw 2 1\\n1 2\\n", dtype=np.uint8)
    >>> parse_pace(buf, "mem.gr").num_edges
    2
    """
    start, body = _text.first_content_line(buf, 0, _C, 0)
    if start >= buf.size:
        raise GraphFormatError("no 'p tw <vertices> <edges>' header line (empty file?)", path=path)
    fields = _text.header_fields(buf, start, body)
    if fields[0] != "p":
        _text.raise_at(buf, start, f"{_text.line_text(buf, start)!r} before the "
                       "'p tw <vertices> <edges>' header", path)
    counts = [_text.parse_count(f) for f in fields[2:]]
    if len(fields) != 4 or not is_pace_header(fields) or None in counts:
        _text.raise_at(buf, start, f"malformed header {_text.line_text(buf, start)!r} "
                       "(expected 'p tw <vertices> <edges>')", path)
    n, m = counts
    if m > buf.size // _SHORTEST_EDGE_LINE + 1:
        _text.raise_at(buf, start, f"the header announces {m} edges but the file holds only "
                       f"{buf.size} bytes (truncated?)", path)
    status, pos, rows, _, ids, _, _, _, _, _ = _text.scan_rows(
        buf, body, 0, _C, 0, _P, False, 2, 0, 2, 1, n, m, True)
    if status != _text.OK:
        header_line = _text.line_number(buf, start)
        expected = f"the header (line {header_line}) announces {m} edges, found {rows}"
        if status == _text.TOO_MANY:
            expected = f"the header (line {header_line}) announces {m} edges; this is one more"
        _text.explain_scan_error(status, pos, buf, path, what="2 fields, '<u> <v>'",
                                 id_range=f"1..{n}", expected=expected)
    stem = split_suffixes(path)[0] or None
    return Graph.from_edges(ids[0, :rows] - 1, ids[1, :rows] - 1, None, n,
                            directed=directed is True,
                            labels=np.arange(1, n + 1, dtype=np.int64), name=stem)


def format_pace(graph) -> bytes:
    """The PACE ``.gr`` text of an undirected, unweighted ``graph``: each edge once.

    Ids are 1-based internal indices (vertex ``i`` is written as ``i + 1``).

    Raises
    ------
    GraphError
        For a directed or a weighted graph: the format holds neither
        direction nor weights (write ``.gr`` as DIMACS, ``.mtx`` or ``.npz``).

    Examples
    --------
    >>> import warpath
    >>> text = format_pace(warpath.Graph.from_edges([0, 1], [1, 2], directed=False))
    >>> text.decode().splitlines()[1:]
    ['p tw 3 2', '1 2', '2 3']
    """
    if graph.directed or graph.weighted:
        kind = "directed" if graph.directed else "weighted"
        raise GraphError(f"a PACE .gr file holds undirected, unweighted graphs; this one is "
                         f"{kind} (write DIMACS .gr, .mtx or .npz instead)")
    tails = graph.tails()
    once = tails <= graph.indices
    columns = np.empty((2, int(np.count_nonzero(once))), dtype=np.int64)
    columns[0] = tails[once]
    columns[0] += 1
    columns[1] = graph.indices[once]
    columns[1] += 1
    header = f"c {provenance(graph)}\np tw {graph.num_vertices} {columns.shape[1]}\n".encode()
    body = _text.format_rows(np.zeros(0, np.uint8), columns,
                             _text.no_real_text(columns.shape[1]), _text.SPACE)
    return header + body.tobytes()


def write_pace(graph, target) -> None:
    """Write an undirected, unweighted ``graph`` as a PACE ``.gr`` file (compressed by suffix).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.gr.xz"
    >>> write_pace(warpath.Graph.from_edges([0], [1], directed=False), path)
    >>> read_pace(path).num_edges
    2
    """
    write_bytes(target, format_pace(graph))
