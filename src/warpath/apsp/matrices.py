"""The result matrices of a many-source query: their type (``dtype=``), their place (``out=``).

Every APSP and multi-source method, CPU or GPU, gets its result storage
here, so ``dtype=`` and ``out=`` mean the same thing for all of them:

- ``dtype=None`` (default) keeps 8 bytes per pair in the method's own kind of
  number: int64 for integer weights (exact; ``.distances`` reads them as
  float64 with ``inf``, like scipy) and float64 for float weights.  In a file
  (``out=``) it means float64 with ``inf`` for unreachable, the file
  ``np.save(path, result.distances)`` would write.
- ``dtype="float32"`` or ``"int32"`` halve the matrix; ``"float64"`` and
  ``"int64"`` name the 8-byte types.  Integer types need integer weights,
  unreachable is the type's maximum (``2**31 - 1`` for int32), and a distance
  that does not fit raises :class:`~warpath.DistanceOverflowError`.
- ``out="d.npy"`` writes the distances into that ``.npy`` file, opened as a
  memory map, a block of rows at a time: outputs larger than host memory.
  ``predecessors_out="p.npy"`` does the same for the int64 predecessors
  (otherwise they stay in memory).

A method fills the rows through :class:`RowMatrices`: :meth:`RowMatrices.fill`
hands it blocks of rows in its own working type (views of the final matrices
when no conversion is needed, small temporaries otherwise) and stores each
block as it finishes; :meth:`RowMatrices.write` takes blocks a GPU copied back.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [3, 4])
>>> m = warpath.apsp(g, dtype="int32")
>>> m.exact_distances.dtype, m.distances[0].tolist()
(dtype('int64'), [0.0, 3.0, 7.0])
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..dtypes import unreached_value
from ..errors import ArgumentError, DistanceOverflowError
from ..result import DistanceMatrix

#: The types a result matrix may be stored in.
RESULT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.int64),
                 np.dtype(np.int32))


def check_dtype(graph, dtype) -> np.dtype | None:
    """Validate a ``dtype=`` argument against the graph's weights.

    Returns ``None`` for ``None`` (the default rule of this module), else the dtype.

    Raises
    ------
    ArgumentError
        For a type that is not float64, float32, int64 or int32, or an integer
        type with float weights.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [0.5])
    >>> check_dtype(g, "float32")
    dtype('float32')
    >>> try:
    ...     check_dtype(g, "int32")
    ... except warpath.ArgumentError as err:
    ...     print(err)
    dtype=int32 needs integer weights but the graph's weights are float64; use float32 or float64
    """
    if dtype is None:
        return None
    try:
        chosen = np.dtype(dtype)
    except TypeError:
        chosen = None
    if chosen is None or chosen not in RESULT_DTYPES:   # (np.dtype(None) is float64)
        raise ArgumentError(f"dtype must be one of float64, float32, int64, int32 (or None), "
                            f"not {dtype!r}")
    if chosen.kind == "i" and graph.weights.dtype.kind != "i":
        raise ArgumentError(f"dtype={chosen} needs integer weights but the graph's weights are "
                            f"{graph.weights.dtype}; use float32 or float64")
    return chosen


def check_npy_path(path, what: str = "out"):
    """Validate an ``out=`` path: a ``.npy`` file in a folder that exists.

    Raises
    ------
    ArgumentError
        For another suffix.
    PathNotFoundError
        For a missing folder.

    Examples
    --------
    >>> check_npy_path("d.npy")
    'd.npy'
    """
    from ..formats._io import check_folder

    if path is None:
        return None
    if not os.fspath(path).endswith(".npy"):
        raise ArgumentError(f"{what}= must name a .npy file, not {os.fspath(path)!r}")
    check_folder(path)
    return os.fspath(path)


@dataclass(frozen=True)
class Output:
    """Where and in which type a many-source result goes (the validated ``dtype=``/``out=``).

    Attributes
    ----------
    dtype : numpy.dtype or None
        The stored distance type; ``None``: the module's default rule.
    out, predecessors_out : str or None
        ``.npy`` files for the distances and the predecessors.

    Examples
    --------
    >>> Output().stored_dtype(np.dtype(np.int32))
    dtype('int64')
    >>> Output(out="d.npy").stored_dtype(np.dtype(np.int32))
    dtype('float64')
    """

    dtype: np.dtype | None = None
    out: str | None = None
    predecessors_out: str | None = None

    @classmethod
    def checked(cls, graph, dtype=None, out=None, predecessors_out=None) -> "Output":
        """The validated arguments (see :func:`check_dtype`, :func:`check_npy_path`)."""
        out = check_npy_path(out)
        predecessors_out = check_npy_path(predecessors_out, "predecessors_out")
        if out is not None and out == predecessors_out:
            raise ArgumentError(f"out= and predecessors_out= name the same file {out!r}")
        return cls(check_dtype(graph, dtype), out, predecessors_out)

    def stored_dtype(self, work_dtype) -> np.dtype:
        """The distance type stored for a method that computes in ``work_dtype``."""
        if self.dtype is not None:
            return self.dtype
        if self.out is not None:
            return np.dtype(np.float64)
        return np.dtype(np.float64) if np.dtype(work_dtype).kind == "f" else np.dtype(np.int64)

    @property
    def default(self) -> bool:
        """Whether nothing was asked (8-byte matrices in memory)."""
        return self.dtype is None and self.out is None and self.predecessors_out is None


class RowMatrices:
    """The distance and predecessor matrices of a many-source result, filled by blocks of rows.

    Parameters
    ----------
    rows, num_vertices : int
        The result's shape.
    work_dtype : dtype
        The type the method computes in.
    marker : scalar
        Its 'unreachable' value (``inf`` or the integer type's maximum, or
        another value the method uses, such as a GPU kernel's smaller infinity).
    predecessors : bool
    output : Output, optional
        Where the matrices go and in which type (default: in memory, 8 bytes).

    Examples
    --------
    >>> m = RowMatrices(2, 3, np.int64, np.iinfo(np.int64).max, True, Output(np.dtype("int32")))
    >>> def rows(start, stop, dist, pred):
    ...     dist[:, 0] = 7
    >>> m.fill(rows)
    >>> r = m.result(np.array([0, 1]), {})
    >>> r.exact_distances.tolist()[0], r.predecessors.tolist()[1]
    ([7, 9223372036854775807, 9223372036854775807], [-1, -1, -1])
    """

    def __init__(self, rows, num_vertices, work_dtype, marker, predecessors, output=None):
        self.output = output or Output()
        self.shape = (int(rows), int(num_vertices))
        self.work_dtype = np.dtype(work_dtype)
        self.marker = self.work_dtype.type(marker)
        self.stored_dtype = self.output.stored_dtype(self.work_dtype)
        self.has_predecessors = bool(predecessors)
        # Same type and the standard sentinel: the method writes straight into the result.
        self.direct = (self.stored_dtype == self.work_dtype and self.output.out is None
                       and self.marker == unreached_value(self.work_dtype))
        self.distances = host_matrix(self.output.out, self.stored_dtype, self.shape)
        pred_shape = self.shape if predecessors else (self.shape[0], 0)
        self.predecessors = host_matrix(self.output.predecessors_out if predecessors else None,
                                        np.dtype(np.int64), pred_shape)
        self.unreached = unreached_value(self.stored_dtype)

    def block(self, start: int, stop: int):
        """``(dist, pred)`` for rows ``start:stop`` in the working type, filled with the
        marker and -1: views of the result when it is stored as computed, else temporaries."""
        pred = self.predecessors[start:stop]
        pred.fill(-1)
        if self.direct:
            dist = self.distances[start:stop]
            dist.fill(self.marker)
        else:
            dist = np.full((stop - start, self.shape[1]), self.marker, dtype=self.work_dtype)
        return dist, pred

    def store(self, start: int, dist) -> None:
        """Put a finished block of rows (working type, method's marker) into the result."""
        rows = slice(start, start + dist.shape[0])
        if self.direct and np.shares_memory(dist, self.distances):
            return
        target = self.distances[rows]
        unreached = dist == self.marker
        if self.stored_dtype.kind == "i":
            self._check_fits(start, dist, unreached)
        np.copyto(target, dist, casting="unsafe", where=~unreached)
        target[unreached] = self.unreached

    def _check_fits(self, start, dist, unreached):
        limits = np.iinfo(self.stored_dtype)
        reached = dist[~unreached]
        if reached.size == 0:
            return
        if self.work_dtype.kind == "f" and not np.all(np.isfinite(reached)):
            reached = reached[np.isfinite(reached)]
        low, high = reached.min(), reached.max()
        if low >= limits.min and high < limits.max:
            return
        bad = high if high >= limits.max else low
        row, column = np.argwhere(~unreached & (dist == bad))[0]
        raise DistanceOverflowError(
            f"the distance {bad} (row {start + row}, vertex {column}) does not fit in "
            f"{self.stored_dtype}; use dtype=int64 or float64")

    def write(self, start: int, dist, pred=None) -> None:
        """Store rows computed elsewhere (a GPU's block copied back): distances in the working
        type with its marker, predecessors as any integer array (-1 for none)."""
        if self.direct:
            self.distances[start:start + dist.shape[0]] = dist
        else:
            self.store(start, dist)
        if self.has_predecessors and pred is not None:
            self.predecessors[start:start + pred.shape[0]] = pred

    def fill(self, work, progress=None) -> None:
        """Call ``work(start, stop, dist, pred)`` on blocks of rows, storing each one.

        Blocks of :func:`~warpath.apsp.memory.chunk_rows` rows (small temporaries);
        ``progress(done, rows)``, when given, hears after each block.
        """
        from .memory import in_chunks

        def rows(start, stop):
            dist, pred = self.block(start, stop)
            work(start, stop, dist, pred)
            self.store(start, dist)

        in_chunks(self.shape[0], self.shape[1], rows, progress)

    def result(self, sources, stats) -> DistanceMatrix:
        """The :class:`~warpath.DistanceMatrix` over these matrices (memory maps flushed)."""
        for array in (self.distances, self.predecessors):
            if isinstance(array, np.memmap):
                array.flush()
        predecessors = self.predecessors if self.has_predecessors else None
        return DistanceMatrix(sources, self.distances, predecessors, stats=stats)


def host_matrix(path, dtype, shape) -> np.ndarray:
    """An uninitialised host matrix: in memory, or a new ``.npy`` memory map at ``path``.

    Examples
    --------
    >>> host_matrix(None, np.int32, (2, 3)).shape
    (2, 3)
    """
    if path is None:
        return np.empty(shape, dtype=dtype)
    return np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=shape)


def empty_matrices(rows, num_vertices, dtype, marker, predecessors):
    """Distance rows filled with ``marker`` and predecessor rows filled with -1 (or width 0).

    For methods that fill whole in-memory matrices; :func:`warpath.apsp` converts
    their result to the caller's ``dtype=``/``out=`` afterwards.  A method that
    takes ``output=`` streams through :class:`RowMatrices` instead.

    Examples
    --------
    >>> dist, pred = empty_matrices(1, 2, np.float64, np.inf, False)
    >>> dist.tolist(), pred.shape
    ([[inf, inf]], (1, 0))
    """
    dist = np.full((rows, num_vertices), marker, dtype=dtype)
    pred = np.full((rows, num_vertices if predecessors else 0), -1, dtype=np.int64)
    return dist, pred


def convert(result: DistanceMatrix, output: Output) -> DistanceMatrix:
    """A finished in-memory result moved into ``output``'s type and place, a block at a time.

    What :func:`warpath.apsp` does for a method that does not take ``output=``.

    Examples
    --------
    >>> import warpath
    >>> m = warpath.apsp(warpath.Graph.from_edges([0], [1], [3]))
    >>> convert(m, Output(np.dtype(np.float32))).distances.tolist()
    [[0.0, 3.0], [inf, 0.0]]
    """
    from .memory import in_chunks

    raw = result.stored_distances
    predecessors = result.predecessors
    matrices = RowMatrices(raw.shape[0], raw.shape[1], raw.dtype, unreached_value(raw.dtype),
                           predecessors is not None, output)

    def rows(start, stop):
        pred = None if predecessors is None else predecessors[start:stop]
        matrices.write(start, np.asarray(raw[start:stop]), pred)

    in_chunks(raw.shape[0], raw.shape[1], rows)
    return matrices.result(result.sources, result.stats)
