"""Graph files: ``read(path)`` and ``write(graph, path)`` for every supported format.

========================  ==============================  ==========================
format name               suffixes                        module
========================  ==============================  ==========================
``"dimacs"``              ``.gr`` (``p sp`` header)       :mod:`.dimacs`
``"pace"``                ``.gr`` (``p tw`` header)       :mod:`.pace`
``"metis"``               ``.graph``, ``.metis``          :mod:`.metis`
``"snap"``                ``.txt``, ``.csv``, ``.tsv``,   :mod:`.snap`
                          ``.edges``, ``.el``, ``.snap``
``"matrix_market"``       ``.mtx``, ``.mm``               :mod:`.matrix_market`
``"npz"``                 ``.npz``                        :mod:`.npz`
========================  ==============================  ==========================

A ``.gz``, ``.bz2`` or ``.xz`` suffix (or the magic bytes, on reading) adds
compression.  When the suffix says nothing, :func:`read` sniffs the format
from the content; ``format=`` overrides both.  A ``.gr`` file is read as
DIMACS or PACE 2016 as its header says (``p sp`` or ``p tw``); it is written
as DIMACS unless ``format="pace"``.  DIMACS ``.co`` coordinates
come with ``read(..., coordinates="x.co")`` or
:func:`warpath.formats.dimacs.read_coordinates`.

Examples
--------
>>> import tempfile, pathlib, warpath
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 4, 5])
>>> write(g, folder / "ring.gr.gz")
>>> h = read(folder / "ring.gr.gz")
>>> h.labels.tolist(), h.edge_weights(2).tolist()
([1, 2, 3], [5])
"""

from __future__ import annotations

import os

from ..errors import GraphFormatError, UnknownFormatError
from . import _text, dimacs, matrix_market, metis, npz, pace, snap
from ._io import check_folder, read_bytes, source_name, split_suffixes, write_bytes

_PARSERS = {
    "dimacs": dimacs.parse_dimacs,
    "metis": metis.parse_metis,
    "snap": snap.parse_snap,
    "matrix_market": matrix_market.parse_matrix_market,
    "npz": npz.parse_npz,
    "pace": pace.parse_pace,
}
_FORMATTERS = {
    "dimacs": dimacs.format_dimacs,
    "metis": metis.format_metis,
    "snap": snap.format_snap,
    "matrix_market": matrix_market.format_matrix_market,
    "npz": npz.format_npz,
    "pace": pace.format_pace,
}
SUFFIXES = {
    ".gr": "dimacs", ".graph": "metis", ".metis": "metis", ".txt": "snap", ".csv": "snap",
    ".tsv": "snap", ".edges": "snap", ".el": "snap", ".snap": "snap", ".mtx": "matrix_market",
    ".mm": "matrix_market", ".npz": "npz",
}
_ALIASES = {"gr": "dimacs", "dimacs9": "dimacs", "graph": "metis", "dimacs10": "metis",
            "edgelist": "snap", "edge_list": "snap", "mtx": "matrix_market",
            "matrixmarket": "matrix_market", "mm": "matrix_market", "pace2016": "pace",
            "tw": "pace"}

FORMATS = tuple(_PARSERS)


def format_name(name: str) -> str:
    """The canonical format name for a name, alias or suffix (``"gr"``, ``".mtx"``, ``"METIS"``).

    Raises
    ------
    UnknownFormatError
        For an unknown name (the message lists the known ones).

    Examples
    --------
    >>> format_name(".gr"), format_name("mtx"), format_name("SNAP")
    ('dimacs', 'matrix_market', 'snap')
    """
    key = str(name).lower().replace("-", "_").replace(" ", "_")
    if key.startswith("."):
        if key in SUFFIXES:
            return SUFFIXES[key]
        key = key[1:]
    key = _ALIASES.get(key, key)
    if key not in _PARSERS:
        raise UnknownFormatError(f"unknown graph format {name!r} (known: {', '.join(FORMATS)})")
    return key


def sniff(buf):
    """Guess the format of file content (uint8 array), or ``None`` when it cannot tell.

    Examples
    --------
    >>> import numpy as np
    >>> sniff(np.frombuffer(b"c hi\\np sp 2 1\\na 1 2 3\\n", np.uint8))
    'dimacs'
    >>> sniff(np.frombuffer(b"p tw 2 1\\n1 2\\n", np.uint8))
    'pace'
    >>> sniff(np.frombuffer(b"3 2\\n2\\n1 3\\n2\\n", np.uint8))
    'metis'
    >>> sniff(np.frombuffer(b"# edges\\n5 9\\n9 5\\n", np.uint8))
    'snap'
    """
    head = buf[:256].tobytes()
    if head.startswith(b"PK\x03\x04"):
        return "npz"
    if head.lower().startswith(b"%%matrixmarket"):
        return "matrix_market"
    start, stop = _first_content_line(buf, 0, ord("c"), 0)
    if start < buf.size and buf[start] == ord("p"):
        fields = _text.header_fields(buf, start, stop)
        if fields[:2] == ["p", "sp"]:
            return "dimacs"
        if pace.is_pace_header(fields):
            return "pace"
    start, stop = _first_content_line(buf, 0, ord("#"), ord("%"))
    if start >= buf.size:
        return None
    fields = _text.header_fields(buf, start, stop)
    if (buf[:start] != ord("#")).all() and 2 <= len(fields) <= 4 and all(
            _text.parse_count(f) is not None for f in fields):
        # A METIS header 'n m [fmt [ncon]]' is followed by exactly n vertex lines.
        rest = buf[stop:]
        lines = int((rest == _text.LF).sum()) + int(rest.size > 0 and rest[-1] != _text.LF)
        comments = int(((rest[:-1] == _text.LF) & (rest[1:] == ord("%"))).sum())
        if lines - comments == int(fields[0]):
            return "metis"
    if _looks_like_edge(fields):
        return "snap"
    if snap._is_csv_header(fields):   # 'source,target,...' then an edge line
        start, stop = _first_content_line(buf, stop, ord("#"), ord("%"))
        if start < buf.size and _looks_like_edge(_text.header_fields(buf, start, stop)):
            return "snap"
    return None


_BLANKS = b" \t\r\x0b\x0c"


def _first_content_line(buf, pos, comment_a, comment_b):
    """:func:`_text.first_content_line` in plain Python, for the few lines sniffing reads:
    telling a DIMACS from a PACE ``.gr`` must not compile the parser (cold start).

    Examples
    --------
    >>> import numpy as np
    >>> _first_content_line(np.frombuffer(b"c x\\n\\n  p tw 2 1\\n", np.uint8), 0, ord("c"), 0)
    (7, 16)
    """
    end = buf.size
    while pos < end:
        window = bytes(buf[pos:pos + 65536])
        newline = window.find(b"\n")
        if newline < 0 and pos + len(window) < end:  # a line longer than the window
            return _text.first_content_line(buf, pos, comment_a, comment_b)
        line = window if newline < 0 else window[:newline]
        stop = end if newline < 0 else pos + newline + 1
        stripped = line.lstrip(_BLANKS)
        if stripped and stripped[0] not in (comment_a, comment_b):
            return pos + len(line) - len(stripped), stop
        pos = stop
    return end, end


def _looks_like_edge(fields):
    fields = " ".join(fields).replace(",", " ").split()
    return len(fields) >= 2 and all(f.lstrip("+-").isdigit() for f in fields[:2])


def read(path, format=None, *, directed=None, coordinates=None):
    """Read a graph file in any supported format (compressed or not).

    Parameters
    ----------
    path : str, path or binary file object
    format : str, optional
        ``"dimacs"``, ``"pace"``, ``"metis"``, ``"snap"``, ``"matrix_market"``,
        ``"npz"`` (or an alias / suffix such as ``"gr"``, ``".mtx"``).
        Default: from the suffix (a ``.gz``/``.bz2``/``.xz`` suffix is looked
        through; ``.gr`` is DIMACS or PACE as the header says), else sniffed
        from the content.
    directed : bool, optional
        ``None`` keeps the format's convention (DIMACS and SNAP directed,
        METIS and PACE undirected, Matrix Market as its symmetry says, npz as stored);
        ``False`` reads the edges as undirected, ``True`` as one-way arcs.
    coordinates : str, path or binary file object, optional
        A DIMACS ``.co`` file to attach as ``g.coordinates`` (``.gr`` only).

    Returns
    -------
    Graph
        With the file's vertex ids as ``labels`` and the file name (without
        suffixes) as ``name``.

    Raises
    ------
    GraphFormatError
        For a missing file (then a :class:`~warpath.GraphFileNotFoundError`,
        also a ``FileNotFoundError``), an unknown format, or malformed content
        (the message names the file and the line).

    See Also
    --------
    write

    Examples
    --------
    >>> import io
    >>> g = read(io.BytesIO(b"%%MatrixMarket matrix coordinate pattern general\\n2 2 1\\n2 1\\n"))
    >>> g.num_vertices, g.neighbors(1).tolist()
    (2, [0])
    >>> read(io.BytesIO(b"1 2\\n2 3\\n"), format="snap", directed=False).num_edges
    4
    """
    name = source_name(path)
    suffix = split_suffixes(name)[1]
    if format is None and suffix == ".co":
        raise GraphFormatError("a .co file holds coordinates, not a graph: pass it as "
                               "read(graph_file, coordinates=...)", path=name)
    buf = read_bytes(path)
    if format is None:
        format = SUFFIXES.get(suffix) or sniff(buf)
        if format == "dimacs" and sniff(buf) == "pace":   # both use .gr
            format = "pace"
        if format is None:
            raise GraphFormatError(
                f"cannot tell the graph format from the suffix {suffix!r} or the content; "
                f"pass format= (one of {', '.join(FORMATS)})", path=name)
    format = format_name(format)
    if coordinates is not None and format != "dimacs":
        raise GraphFormatError("coordinates= goes with DIMACS .gr files only", path=name)
    try:
        graph = _PARSERS[format](buf, name, directed=directed)
    except MemoryError:
        raise GraphFormatError("the header announces a graph larger than the memory of this "
                               "machine", path=name) from None
    return graph if coordinates is None else dimacs.attach_coordinates(graph, coordinates)


def output_format(path, format=None) -> str:
    """The format :func:`write` will use for ``path``: ``format`` if given, else the suffix's.

    Raises
    ------
    UnknownFormatError
        For an unknown format name, or a suffix that names none (and no ``format=``).

    Examples
    --------
    >>> output_format("roads.gr.gz"), output_format("out.bin", "mtx")
    ('dimacs', 'matrix_market')
    """
    if format is not None:
        return format_name(format)
    name = source_name(path)
    suffix = split_suffixes(name)[1]
    if suffix not in SUFFIXES:
        raise UnknownFormatError(
            f"cannot tell the graph format from the suffix {suffix!r}; use one of "
            f"{', '.join(sorted(SUFFIXES))} or pass format=", path=name)
    return SUFFIXES[suffix]


def write(graph, path, format=None) -> None:
    """Write ``graph`` in the format its suffix names (compressed by a .gz/.bz2/.xz suffix).

    Parameters
    ----------
    graph : Graph
    path : str, path or binary file object
    format : str, optional
        Overrides the suffix (required for a file object without a name).

    Raises
    ------
    UnknownFormatError
        For an unknown suffix and no ``format=`` (a :class:`GraphFormatError`).
    PathNotFoundError
        When the folder to write into does not exist (also a ``FileNotFoundError``).
    GraphError
        When the format cannot hold the graph (METIS needs an undirected graph
        with integer weights and no self-loops; SNAP needs integer labels).

    Notes
    -----
    Round trips are exact where the format allows: DIMACS and METIS label
    vertices 1..n, SNAP keeps integer labels (read back in sorted order) but
    drops isolated vertices, text formats read float32 weights back as
    float64 (same values) and integer weights as int32 when they fit, and an
    unweighted graph written as ``.gr`` comes back with weight 1 on every arc.
    ``.npz`` keeps everything.

    See Also
    --------
    read

    Examples
    --------
    >>> import io, warpath
    >>> out = io.BytesIO()
    >>> write(warpath.Graph.from_edges([0], [1], [4]), out, format="dimacs")
    >>> out.getvalue().decode().splitlines()[-1]
    'a 1 2 4'
    """
    formatter = _FORMATTERS[output_format(path, format)]
    if isinstance(path, (str, os.PathLike)):
        check_folder(path)   # before the formatting work, which can be long
    write_bytes(path, formatter(graph))


__all__ = ["read", "write", "sniff", "format_name", "output_format", "check_folder", "FORMATS",
           "SUFFIXES", "dimacs", "pace", "metis", "snap", "matrix_market", "npz", "read_bytes"]
