"""SNAP edge lists: one ``<source> <target> [weight] [more columns]`` line per edge.

Lines starting with ``#`` or ``%`` are comments.  Fields are separated by
blanks or by commas (SNAP's CSV files such as soc-sign-bitcoinalpha,
``source,target,rating,time``); a first line made only of names
(``source,target,...``) is taken as a CSV header and skipped.  A third column
is the weight (integers stay integers, reals give float64); further columns
are ignored.  Every line must have the same number of columns.

Vertex ids are arbitrary integers, often sparse: they are compacted to
0..k-1 **in sorted numeric order** and kept as the labels, so
``g.labels[i]`` is the file's id of vertex ``i`` and ``g.index_of(id)``
goes back.  An edge list cannot hold isolated vertices.

Directedness: an edge list cannot show it, so its leading comments must say
it, as SNAP's own files do (and :func:`write_snap` writes): a comment line
starting ``Undirected graph`` makes each line one undirected edge, one
starting ``Directed graph`` one arc.  ``directed=None`` follows that marker;
without one the list is read as directed (one arc per line) and a
:class:`~warpath.DirectionWarning` says so: an undirected list that names
each edge once, such as networkx's ``write_edgelist`` of a ``Graph`` or
SNAP's facebook_combined.txt, then has half its arcs.  ``directed=False``
(the command line's ``--undirected``) or ``True`` decides without a marker
and without a warning.

Examples
--------
>>> import io
>>> g = read_snap(io.BytesIO(b"# toy\\n10 30\\n30 20\\n"))
>>> g.labels.tolist(), g.neighbors(g.index_of(30)).tolist()
([10, 20, 30], [1])
"""

from __future__ import annotations

import re
import warnings

import numpy as np

from ..errors import DirectionWarning, GraphError
from ..graph import Graph
from . import _plain, _text
from ._io import provenance, read_bytes, source_name, split_suffixes, write_bytes

_HASH, _PERCENT = ord("#"), ord("%")
_INT64 = np.iinfo(np.int64)

# The plain path (small files, no compilation): leading comments, then lines of 2 or 3 fields.
_B, _E, _ID = _plain.BLANK, _plain.END, _plain.ID
_PLAIN_COMMENTS = re.compile(rb"(?:[ \t\r]*(?:[#%][^\n]*)?\n)*")
_PLAIN_PAIRS = re.compile(rb"(?:" + _B + rb"*" + _ID + _B + rb"+" + _ID + _E + rb")*")
_PLAIN_TRIPLES = re.compile(rb"(?:" + _B + rb"*" + _ID + _B + rb"+" + _ID + _B + rb"+"
                            + _plain.NUMBER + _E + rb")*")


def read_snap(source, *, directed=None):
    """Read a SNAP edge list (whitespace or comma separated, optionally compressed).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None``: as the leading comments say (``Directed graph`` /
        ``Undirected graph``), else directed with a
        :class:`~warpath.DirectionWarning`.  ``False``: each line is an
        undirected edge; ``True``: an arc.

    Returns
    -------
    Graph
        Labels are the file's ids in sorted order.

    Raises
    ------
    GraphFormatError
        Naming the file and line: a bad token, a line with a different number
        of columns, a NaN/inf weight, an id beyond 64 bits.

    Examples
    --------
    >>> import io
    >>> g = read_snap(io.BytesIO(b"7,3,-2,1407470400\\n3,7,5,1407470401\\n"))
    >>> g.labels.tolist(), g.weights.tolist()
    ([3, 7], [5, -2])
    """
    return parse_snap(read_bytes(source), source_name(source), directed=directed)


def direction_marker(buf, start) -> bool | None:
    """What the comments before the first data line (at ``start``) say: ``True`` for
    ``Directed graph``, ``False`` for ``Undirected graph``, ``None`` when they say neither.

    Examples
    --------
    >>> text = b"# Undirected graph (each unordered pair of nodes is saved once)\\n1 2\\n"
    >>> direction_marker(np.frombuffer(text, np.uint8), 64), direction_marker(np.zeros(0, np.uint8), 0)
    (False, None)
    """
    head = buf[:min(int(start), 1 << 16)].tobytes().decode("utf-8", "replace").lower()
    for line in head.splitlines():
        words = line.lstrip("#% \t")
        if words.startswith("undirected graph"):
            return False
        if words.startswith("directed graph"):
            return True
    return None


def _assumed_directed(path) -> bool:
    warnings.warn(
        f"{path or 'the edge list'}: no 'Directed graph' or 'Undirected graph' comment says "
        "how to read it: read as directed, one arc per line; if each line is an undirected "
        "edge (e.g. networkx's write_edgelist of a Graph), read it with directed=False "
        "(--undirected)", DirectionWarning, stacklevel=4)
    return True


def _is_csv_header(fields):
    return all(not f[:1].isdigit() and not f[:2].lstrip("+-")[:1].isdigit() for f in fields)


def parse_snap(buf, path=None, *, directed=None):
    """Parse the bytes of a SNAP edge list (see :func:`read_snap`).

    Examples
    --------
    >>> import numpy as np
    >>> parse_snap(np.frombuffer(b"1 2\\n", np.uint8), directed=False).num_edges
    2
    """
    if buf.size <= _plain.SMALL_FILE_BYTES:
        graph = _parse_plain(buf, path, directed)
        if graph is not None:
            return graph
    start, stop = _text.first_content_line(buf, 0, _HASH, _PERCENT)
    directed = _directed(buf, start, path, directed)
    if start < buf.size:
        fields = _text.header_fields(buf, start, stop)
        fields = [f for f in " ".join(fields).replace(",", " ").split() if f]
        if _is_csv_header(fields):
            start = stop
    capacity = int(np.count_nonzero(buf[start:] == _text.LF)) + 1
    status, pos, rows, columns, ids, ints, reals, real_cols, slow, num_slow = _text.scan_rows(
        buf, start, 0, _HASH, _PERCENT, 0, True, 2, 1, -1, _INT64.min, _INT64.max, capacity, False)
    if status != _text.OK:
        _text.explain_scan_error(status, pos, buf, path, allow_comma=True,
                                 what=f"{columns if columns >= 2 else 'at least 2'} like the "
                                 "first data line: '<source> <target> [weight ...]'")
    _text.check_slow_floats(buf, slow[:num_slow], reals, path, allow_comma=True)
    weights = _text.values_column(ints, reals, real_cols, 0, rows) if columns >= 3 else None
    labels, src, dst = _compact_ids(ids[0, :rows], ids[1, :rows])
    stem = split_suffixes(path)[0] or None
    return Graph.from_edges(src, dst, weights, labels.size, directed=bool(directed),
                           labels=labels, name=stem)


def _directed(buf, start, path, directed) -> bool:
    """``directed`` if given, else what the comments before ``start`` say (see the module)."""
    if directed is not None:
        return bool(directed)
    marker = direction_marker(buf, start)
    if marker is not None:
        return marker
    return True if start >= buf.size else _assumed_directed(path)   # empty: nothing to halve


def _parse_plain(buf, path, directed):
    """A small regular edge list (leading comments, then ``u v`` or ``u v w`` lines, blanks
    between) read without compiled kernels (see :mod:`._plain`); ``None`` otherwise."""
    data = _plain.with_final_newline(buf.tobytes())
    comments = _PLAIN_COMMENTS.match(data)
    start = comments.end()
    for columns, lines in ((2, _PLAIN_PAIRS), (3, _PLAIN_TRIPLES)):
        if lines.fullmatch(data, start) is not None:
            break
    else:
        return None
    tokens = data[start:].split()
    ids = np.array(tokens[0::columns] + tokens[1::columns], dtype=bytes).astype(np.int64)
    weights = _plain.numbers(tokens[2::columns]) if columns == 3 else None
    if columns == 3 and weights is None:
        return None
    rows = len(tokens) // columns
    labels, src, dst = _compact_ids(ids[:rows], ids[rows:])
    stem = split_suffixes(path)[0] or None
    return Graph.from_edges(src, dst, weights, labels.size,
                            directed=_directed(buf, start, path, directed), labels=labels,
                            name=stem)


def _compact_ids(src_ids, dst_ids):
    """Sorted distinct ids, and each endpoint's rank among them."""
    if src_ids.size == 0:
        return np.zeros(0, np.int64), src_ids, dst_ids
    low = min(int(src_ids.min()), int(dst_ids.min()))
    high = max(int(src_ids.max()), int(dst_ids.max()))
    if low >= 0 and high < 8 * (src_ids.size + 1) + 1024:
        # Dense enough for a presence table: O(n + max id) instead of a sort.
        present = np.zeros(high + 1, dtype=bool)
        present[src_ids] = True
        present[dst_ids] = True
        rank = np.cumsum(present) - 1
        return np.flatnonzero(present).astype(np.int64), rank[src_ids], rank[dst_ids]
    labels, inverse = np.unique(np.concatenate([src_ids, dst_ids]), return_inverse=True)
    return labels.astype(np.int64), inverse[:src_ids.size], inverse[src_ids.size:]


def format_snap(graph) -> bytes:
    """The SNAP edge-list text of ``graph``: tab-separated labels, a weight column when weighted.

    An undirected graph lists each edge once and says ``Undirected graph`` in
    its header (so :func:`read_snap` reads it back undirected).  Isolated
    vertices cannot be written; a warning says how many are dropped.

    Raises
    ------
    GraphError
        When the labels are not integers.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [3], labels=[10, 20])
    >>> format_snap(g).decode().splitlines()[-1]
    '10\\t20\\t3'
    """
    labels = np.asarray(graph.labels)
    if labels.dtype.kind not in "iu":
        raise GraphError(f"SNAP ids are integers; this graph's labels are {labels.dtype} "
                         "(write it as .npz to keep them)")
    tails = graph.tails()
    heads = graph.indices
    weights = graph.weights
    if not graph.directed:
        once = tails <= heads
        tails, heads, weights = tails[once], heads[once], weights[once]
    isolated = int(np.count_nonzero((graph.out_degrees() == 0) & (graph.in_degrees() == 0)))
    if isolated:
        warnings.warn(f"an edge list cannot hold isolated vertices: {isolated} of "
                      f"{graph.num_vertices} are not written", UserWarning, stacklevel=3)
    kind = "Directed graph" if graph.directed else \
        "Undirected graph (each unordered pair of nodes is saved once)"
    weight_title = "\tWeight" if graph.weighted else ""
    header = (f"# {kind}: {graph.name or 'warpath graph'}\n# {provenance(graph)}\n"
              f"# Nodes: {graph.num_vertices - isolated} Edges: {tails.size}\n"
              f"# FromNodeId\tToNodeId{weight_title}\n")
    real = graph.weighted and weights.dtype.kind == "f"
    columns = np.empty((3 if graph.weighted and not real else 2, tails.size), dtype=np.int64)
    columns[0] = labels[tails]
    columns[1] = labels[heads]
    if columns.shape[0] == 3:
        columns[2] = weights
    reals = _text.real_text(weights) if real else _text.no_real_text(tails.size)
    body = _text.format_rows(np.zeros(0, np.uint8), columns, reals, _text.TAB)
    return header.encode() + body.tobytes()


def write_snap(graph, target) -> None:
    """Write ``graph`` as a SNAP edge list (compressed by suffix).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.txt"
    >>> write_snap(warpath.Graph.from_edges([0, 1], [1, 0], labels=[5, 9]), path)
    >>> read_snap(path).labels.tolist()
    [5, 9]
    """
    write_bytes(target, format_snap(graph))

