"""Reading and writing whole files as bytes, with transparent gzip / bzip2 / xz.

Compression is recognised by its magic bytes on reading (so a ``.gz`` file
without the suffix still reads) and chosen by the suffix on writing.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "hello.txt.gz"
>>> write_bytes(path, b"1 2\\n")
>>> bytes(read_bytes(path))
b'1 2\\n'
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import zlib

import numpy as np

from ..errors import GraphFileNotFoundError, GraphFormatError, PathNotFoundError

COMPRESSION_SUFFIXES = (".gz", ".bz2", ".xz")

_MAGIC = ((b"\x1f\x8b", "gz"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "xz"))


def source_name(source) -> str | None:
    """The path of ``source`` as text, or the ``name`` of a file object, or ``None``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def split_suffixes(path: str | None):
    """``(stem, format_suffix, compression_suffix)`` of a file name, suffixes lower-cased.

    Examples
    --------
    >>> split_suffixes("roads/USA-road-d.NY.gr.gz")
    ('USA-road-d.NY', '.gr', '.gz')
    >>> split_suffixes("graph")
    ('graph', '', '')
    """
    if not path:
        return "", "", ""
    base = os.path.basename(path)
    compression = ""
    stem, ext = os.path.splitext(base)
    if ext.lower() in COMPRESSION_SUFFIXES:
        compression = ext.lower()
        base = stem
        stem, ext = os.path.splitext(base)
    return stem, ext.lower(), compression


def read_bytes(source) -> np.ndarray:
    """The whole content of ``source`` (a path or a binary file object), decompressed, as uint8.

    Raises
    ------
    GraphFormatError
        For a missing file or a corrupt / truncated compressed stream.
    """
    path = source_name(source)
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as handle:
                raw = handle.read()
        else:
            raw = source.read()
    except FileNotFoundError:
        raise GraphFileNotFoundError("no such file", path=path) from None
    except IsADirectoryError:
        raise GraphFormatError("is a directory, not a graph file", path=path) from None
    if isinstance(raw, str):
        raw = raw.encode()
    kind = next((kind for magic, kind in _MAGIC if raw.startswith(magic)), None)
    if kind is not None:
        try:
            raw = {"gz": gzip.decompress, "bz2": bz2.decompress, "xz": lzma.decompress}[kind](raw)
        except (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError) as error:
            raise GraphFormatError(f"corrupt or truncated {kind} data ({error})", path=path) from None
    if raw.startswith(b"\xef\xbb\xbf"):   # a UTF-8 byte-order mark is not content
        raw = raw[3:]
    return np.frombuffer(raw, dtype=np.uint8)


def check_folder(path) -> None:
    """Fail before any work when the folder a file is to be written into does not exist.

    Raises
    ------
    PathNotFoundError
        Naming the file and the missing folder.

    Examples
    --------
    >>> check_folder("results.csv")   # the current folder exists
    >>> try:
    ...     check_folder("/no/such/folder/results.csv")
    ... except FileNotFoundError as err:
    ...     print(err)
    /no/such/folder/results.csv: the folder /no/such/folder does not exist
    """
    folder = os.path.dirname(os.fspath(path)) or "."
    if not os.path.isdir(folder):
        raise PathNotFoundError(f"{os.fspath(path)}: the folder {folder} does not exist")


def write_bytes(target, data) -> None:
    """Write ``data`` to ``target`` (a path or a binary file object), compressed by the path's suffix."""
    data = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    path = source_name(target)
    if isinstance(target, (str, os.PathLike)):
        check_folder(target)
        compression = split_suffixes(path)[2]
        if compression == ".gz":
            # Level 6 is zlib's default: level 9 is about 3x slower for ~2% less.
            data = gzip.compress(data, compresslevel=6, mtime=0)
        elif compression == ".bz2":
            data = bz2.compress(data)
        elif compression == ".xz":
            data = lzma.compress(data)
        with open(target, "wb") as handle:
            handle.write(data)
    else:
        target.write(data)


def provenance(graph) -> str:
    """One line saying who wrote a file and from which graph (for a comment at its top).

    Examples
    --------
    >>> import warpath
    >>> provenance(warpath.Graph.from_edges([0], [1], name="demo"))  # doctest: +ELLIPSIS
    'written by warpath ... from demo: 2 vertices, 1 arcs, directed'
    """
    from .. import __version__

    kind = "directed" if graph.directed else "undirected"
    source = f" from {graph.name}" if graph.name else ""
    return (f"written by warpath {__version__}{source}: {graph.num_vertices} vertices, "
            f"{graph.num_edges} arcs, {kind}")
