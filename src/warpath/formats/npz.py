"""warpath's native ``.npz`` format: the Graph's own arrays, lossless and fast to load.

A numpy ``.npz`` archive (uncompressed: loading is a copy, not a parse) with
``indptr``, ``indices``, ``weights`` (absent when unweighted), ``directed``,
and when present ``labels``, ``coordinates`` and ``name``, plus
``warpath_npz`` (the layout version).  Every dtype is kept.  Loading never
unpickles: labels must be numbers or strings.

Examples
--------
>>> import io, warpath
>>> buffer = io.BytesIO()
>>> write_npz(warpath.Graph.from_edges([0], [1], [2.5], labels=["a", "b"]), buffer)
>>> g = read_npz(io.BytesIO(buffer.getvalue()))
>>> g.labels.tolist(), g.weights.dtype.name
(['a', 'b'], 'float64')
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib

import numpy as np

from ..errors import GraphError, GraphFormatError
from ..graph import Graph
from ._io import read_bytes, source_name, write_bytes

LAYOUT_VERSION = 1


def read_npz(source, *, directed=None):
    """Read a graph written by :func:`write_npz` (optionally compressed as .npz.gz etc.).

    Parameters
    ----------
    source : str, path or binary file object
    directed : bool, optional
        ``None``: as stored.  ``False`` on a directed graph makes every arc an
        undirected edge; ``True`` on an undirected one keeps both arcs.

    Returns
    -------
    Graph

    Raises
    ------
    GraphFormatError
        For a file that is not a warpath npz archive, misses an array, or holds
        inconsistent arrays.

    Examples
    --------
    >>> import io, warpath
    >>> buffer = io.BytesIO()
    >>> write_npz(warpath.Graph.from_edges([0, 1], [1, 2], directed=False), buffer)
    >>> read_npz(io.BytesIO(buffer.getvalue())).directed
    False
    """
    path = source_name(source)
    return parse_npz(read_bytes(source), path, directed=directed)


def parse_npz(buf, path=None, *, directed=None):
    """Build the Graph from the bytes of a warpath ``.npz`` archive (see :func:`read_npz`).

    Examples
    --------
    >>> import io, numpy as np, warpath
    >>> data = np.frombuffer(format_npz(warpath.Graph.from_edges([0], [1])), np.uint8)
    >>> parse_npz(data).num_edges
    1
    """
    try:
        with np.load(io.BytesIO(buf.tobytes()), allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError, zlib.error, lzma.LZMAError,
            NotImplementedError, RuntimeError) as error:
        # RuntimeError: an encrypted member; NotImplementedError: an unknown compression
        raise GraphFormatError(f"not a readable .npz archive ({error})", path=path) from None
    missing = [key for key in ("warpath_npz", "indptr", "indices", "directed") if key not in arrays]
    if missing:
        raise GraphFormatError(f"not a warpath graph archive: no {', '.join(missing)} array",
                               path=path)
    try:
        layout = int(arrays["warpath_npz"])
        if layout > LAYOUT_VERSION:
            raise GraphFormatError(f"written by a newer warpath (layout {layout})", path=path)
        name = str(arrays["name"]) if "name" in arrays else None
        graph = Graph(arrays["indptr"], arrays["indices"], arrays.get("weights"),
                      directed=bool(arrays["directed"]), labels=arrays.get("labels"),
                      coordinates=arrays.get("coordinates"), name=name)
    except GraphFormatError:
        raise
    except (GraphError, TypeError, ValueError) as error:   # ValueError: a scalar that is not one
        raise GraphFormatError(f"inconsistent graph arrays: {error}", path=path) from None
    if directed is None or bool(directed) == graph.directed:
        return graph
    if directed:
        from ._csr import with_attributes

        return with_attributes(graph, directed=True)
    return Graph.from_edges(graph.tails(), graph.indices, graph.weights if graph.weighted else None,
                            graph.num_vertices, directed=False,
                            labels=graph.labels if graph.has_labels else None,
                            coordinates=graph.coordinates, name=graph.name)


def format_npz(graph) -> bytes:
    """The ``.npz`` archive bytes of ``graph``.

    Raises
    ------
    GraphError
        When the labels are Python objects other than strings (they would
        need pickling).

    Examples
    --------
    >>> import warpath
    >>> format_npz(warpath.Graph.from_edges([0], [1]))[:2]
    b'PK'
    """
    arrays = {"warpath_npz": np.int64(LAYOUT_VERSION), "indptr": graph.indptr,
              "indices": graph.indices, "directed": np.bool_(graph.directed)}
    if graph.weighted:
        arrays["weights"] = graph.weights
    if graph.has_labels:
        labels = np.asarray(graph.labels)
        if labels.dtype.kind == "O":
            if not all(isinstance(label, str) for label in labels.tolist()):
                raise GraphError("npz stores labels that are numbers or strings; these are "
                                 "other Python objects")
            labels = labels.astype(str)
        arrays["labels"] = labels
    if graph.coordinates is not None:
        arrays["coordinates"] = graph.coordinates
    if graph.name is not None:
        arrays["name"] = np.str_(graph.name)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def write_npz(graph, target) -> None:
    """Write ``graph`` as a warpath ``.npz`` archive (compressed again by a .gz/.bz2/.xz suffix).

    Examples
    --------
    >>> import tempfile, pathlib, warpath
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.npz"
    >>> write_npz(warpath.Graph.from_edges([0], [1], [7]), path)
    >>> read_npz(path).weights.tolist()
    [7]
    """
    write_bytes(target, format_npz(graph))
