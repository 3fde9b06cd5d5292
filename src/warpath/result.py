"""Result types: distances, predecessors, path reconstruction and run statistics.

Every solver returns one of these values rather than a tuple:
:class:`SSSPResult` (one source), :class:`BFSResult` (levels and parents),
:class:`BFSMatrix` (levels from several sources) and :class:`DistanceMatrix`
(several sources at once: multi-source and APSP).
Distances are float64 with ``inf`` for unreachable vertices (scipy's
convention); predecessors and parents use ``-1`` where there is none (scipy
uses -9999).

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 3])
>>> r = warpath.sssp(g, 0)
>>> r.distances.tolist(), r.path(2).tolist()
([0.0, 2.0, 5.0], [0, 1, 2])
"""

from __future__ import annotations

import threading

import numpy as np

from .errors import MissingPredecessorsError, SourceError
from .graph import vertex_index

NO_VERTEX = -1


def walk_predecessors(predecessors: np.ndarray, source: int, target: int) -> np.ndarray:
    """The path source -> target read backwards off a predecessor array (empty if unreachable).

    Examples
    --------
    >>> walk_predecessors(np.array([-1, 0, 1]), 0, 2).tolist()
    [0, 1, 2]
    """
    if target == source:
        return np.array([source], dtype=np.int64)
    if predecessors[target] == NO_VERTEX:
        return np.empty(0, dtype=np.int64)
    path = [target]
    vertex = target
    for _ in range(predecessors.shape[0]):
        vertex = int(predecessors[vertex])
        if vertex == NO_VERTEX:
            return np.empty(0, dtype=np.int64)
        path.append(vertex)
        if vertex == source:
            return np.array(path[::-1], dtype=np.int64)
    raise RuntimeError(f"the predecessors of vertex {target} form a cycle that misses the source")


def _no_predecessors(what="predecessors"):
    return MissingPredecessorsError(
        f"this result has no {what}: compute it with predecessors=True to ask for paths")


#: Rows converted at a time, so a conversion's temporary mask stays small beside the matrix.
_BLOCK_ENTRIES = 1 << 18
#: Matrices of at least this many entries are converted on several threads
#: (:mod:`warpath.host_pool`).
_PARALLEL_ENTRIES = 1 << 22


def _row_blocks(array: np.ndarray):
    """Slices of the first axis covering about ``_BLOCK_ENTRIES`` entries each."""
    if array.ndim < 2:
        return [slice(None)]
    step = max(1, _BLOCK_ENTRIES // max(1, array.shape[1]))
    return [slice(start, start + step) for start in range(0, array.shape[0], step)]


def _as_exact_distances(raw: np.ndarray):
    """Int64 distances (int64 max where unreachable) from any integer array, else ``None``.

    int64 input already is that: it comes back as a read-only view, not a copy
    (an n x n APSP matrix is gigabytes).
    """
    if raw.dtype.kind not in "iu":
        return None
    if raw.dtype == np.int64:
        view = raw.view()
        view.flags.writeable = False
        return view
    return _with_unreached(raw, np.int64, np.iinfo(np.int64).max)


def _as_float_distances(raw: np.ndarray) -> np.ndarray:
    """Float64 distances with ``inf`` for unreachable, from float or sentinel-int arrays."""
    if raw.dtype.kind == "f":
        return raw.astype(np.float64, copy=False)
    return _with_unreached(raw, np.float64, np.inf)


def _with_unreached(raw: np.ndarray, dtype, unreached_as) -> np.ndarray:
    """``raw`` (sentinel-int distances) as ``dtype``, ``unreached_as`` where the sentinel was;
    block by block, so a large matrix needs no full-size temporaries."""
    out = np.empty(raw.shape, dtype=dtype)
    unreached = np.iinfo(raw.dtype).max

    def convert(rows):
        block = out[rows]
        block[...] = raw[rows]
        # the sentinel's positions, then one store each: a masked store mispredicts a
        # branch per entry when about half are unreachable (3x slower)
        block.reshape(-1)[np.flatnonzero(raw[rows] == unreached)] = unreached_as

    blocks = _row_blocks(raw)
    if raw.size >= _PARALLEL_ENTRIES:   # a big matrix: its blocks on the host's threads
        from .host_pool import in_parallel

        in_parallel(convert, blocks)
    else:
        for rows in blocks:
            convert(rows)
    return out


def float_blocks(raw: np.ndarray):
    """``(rows, float64 block)`` pairs covering a raw distance matrix, converted block by block.

    What reads a large integer result once (a summary, an ``.npy`` file) goes
    through this instead of ``.distances``, which keeps a full float64 copy.

    Examples
    --------
    >>> big = np.iinfo(np.int64).max
    >>> [(rows.start, block.tolist()) for rows, block in float_blocks(np.array([[0, big]]))]
    [(0, [[0.0, inf]])]
    """
    for rows in _row_blocks(raw):
        yield rows, _as_float_distances(raw[rows])


def _contiguous_numba(array) -> bool:
    """Whether ``array`` is a contiguous numba device array: made float64 on the GPU before
    its copy (:mod:`warpath.cuda.readback`), and copied through staged chunks
    (:mod:`warpath.cuda.downloads`)."""
    return (type(array).__module__.startswith("numba") and hasattr(array, "copy_to_host")
            and hasattr(array, "is_c_contiguous") and array.is_c_contiguous())


def _to_host(array):
    """A numpy array from a numpy array or a device array (numba, CuPy: anything with
    ``copy_to_host`` or ``get``)."""
    if _contiguous_numba(array):   # contiguous numba: staged copies, many host threads
        from .cuda.downloads import download

        return download(array)
    if hasattr(array, "copy_to_host"):
        return array.copy_to_host()
    if hasattr(array, "get") and not isinstance(array, np.ndarray):
        return array.get()
    return np.asarray(array)


class _LazyArrays:
    """Distances and predecessors that stay where they were computed until first read.

    A GPU method hands over device arrays; they are copied to the host (and
    converted to float64 / int64) only when a caller reads them.  The raw
    device arrays stay available as ``device_distances`` / ``device_predecessors``.
    """

    def __init__(self, distances, predecessors):
        on_host = isinstance(distances, np.ndarray) or not (
            hasattr(distances, "copy_to_host") or hasattr(distances, "get"))
        self.device_distances = None if on_host else distances
        self.device_predecessors = None if predecessors is None or on_host else predecessors
        self._raw_distances = np.asarray(distances) if on_host else None
        self._raw_predecessors = predecessors if on_host else None
        self._has_predecessors = predecessors is not None
        self._cache = {}

    def _raw(self):
        if self._raw_distances is None:
            self._raw_distances = _to_host(self.device_distances)
        return self._raw_distances

    @property
    def shape(self):
        """The distances' shape, read without copying them to the host."""
        raw = self._raw_distances
        return (raw if raw is not None else self.device_distances).shape

    def raw_row(self, i):
        """Row ``i`` of the distances as the method stored them (one row copied, not all)."""
        if self._raw_distances is None:
            return _to_host(self.device_distances[i])
        return self._raw_distances[i]

    def predecessor_row(self, i):
        """Row ``i`` of the predecessors as stored (``None`` without them)."""
        if not self._has_predecessors:
            return None
        if self._raw_predecessors is not None:
            return self._raw_predecessors[i]
        return _to_host(self.device_predecessors[i])

    @property
    def distances(self):
        if "distances" not in self._cache:
            if self._raw_distances is None and _contiguous_numba(self.device_distances):
                from .cuda.readback import float64_to_host

                self._cache["distances"] = float64_to_host(self.device_distances)
            else:
                self._cache["distances"] = _as_float_distances(self._raw())
        return self._cache["distances"]

    @property
    def levels(self):
        """BFS levels as int64 (-1 stays -1)."""
        if "levels" not in self._cache:
            self._cache["levels"] = np.asarray(self._raw(), dtype=np.int64)
        return self._cache["levels"]

    @property
    def exact_distances(self):
        if "exact" not in self._cache:
            self._cache["exact"] = _as_exact_distances(self._raw())
        return self._cache["exact"]

    @property
    def predecessors(self):
        if not self._has_predecessors:
            return None
        if "predecessors" not in self._cache:
            raw = self._raw_predecessors
            if raw is None:
                raw = _to_host(self.device_predecessors)
            self._cache["predecessors"] = np.asarray(raw, dtype=np.int64)
        return self._cache["predecessors"]


class _RunStats:
    """What every result offers for its ``stats``: changes made through one call."""

    def amend_stats(self, change) -> None:
        """Apply ``change(stats)`` (a :class:`BFSResult` whose stats wait for the GPU applies
        it once they are in).

        Examples
        --------
        >>> r = SSSPResult(0, np.zeros(1))
        >>> r.amend_stats(lambda stats: stats.update(method="dijkstra")); r.stats
        {'method': 'dijkstra'}
        """
        change(self.stats)


class SSSPResult(_RunStats):
    """Shortest paths from one source.

    Attributes
    ----------
    source : int
        The source vertex (0-based).
    distances : ndarray of float64
        Distance to every vertex, ``inf`` where unreachable.
    predecessors : ndarray of int64 or None
        The vertex before each one on a shortest path, -1 for the source and
        unreachable vertices; ``None`` when not requested.
    stats : dict
        ``method``, ``device``, ``seconds``, ``iterations``, ``relaxations`` and
        method-specific counters (kernel ``launches``, ``host_syncs``, ...).
    exact_distances : ndarray of int64 or None
        For integer weights, the exact integer distances (int64 max where
        unreachable); float64 rounds above 2**53.

    Examples
    --------
    >>> import warpath
    >>> r = warpath.sssp(warpath.Graph.from_edges([0], [1], [7]), 0)
    >>> r.reached, r.distances.tolist()[1]
    (2, 7.0)
    """

    def __init__(self, source, distances, predecessors=None, stats=None):
        self.source = int(source)
        self._arrays = _LazyArrays(distances, predecessors)
        self.stats = dict(stats or {})

    distances = property(lambda self: self._arrays.distances,
                         doc="Float64 distances, ``inf`` where unreachable.")
    exact_distances = property(lambda self: self._arrays.exact_distances,
                               doc="Exact int64 distances for integer weights, else ``None``.")
    predecessors = property(lambda self: self._arrays.predecessors,
                            doc="Predecessor of each vertex (-1 where none), or ``None``.")
    device_distances = property(lambda self: self._arrays.device_distances,
                                doc="The distances as the GPU left them (``None`` for CPU results).")

    @property
    def reached(self) -> int:
        """How many vertices are reachable from the source (the source included)."""
        return int(np.count_nonzero(np.isfinite(self.distances)))

    def path(self, target) -> np.ndarray:
        """The vertices of a shortest path from the source to ``target`` (empty if unreachable).

        Raises
        ------
        MissingPredecessorsError
            If the result was computed with ``predecessors=False`` (also a ``ValueError``).
        SourceError
            If ``target`` is not a vertex.
        """
        if self.predecessors is None:
            raise _no_predecessors()
        target = vertex_index(target, self.distances.shape[0], "target")
        return walk_predecessors(self.predecessors, self.source, target)

    def __repr__(self):
        return (f"<SSSPResult source={self.source} reached={self.reached}/{self.distances.size} "
                f"method={self.stats.get('method')} device={self.stats.get('device')}>")


class BFSResult(_RunStats):
    """Breadth-first search levels and parents from one source.

    A GPU method hands over its device arrays; they are copied to the host
    (as int64) only when first read.  A GPU query may also return while its
    kernel still runs (:meth:`stats_later`): its stats are completed by the
    first read of the result (stats, levels or parents), which waits for the
    GPU, so a caller's own work between the call and that read overlaps the
    kernel.

    Attributes
    ----------
    source : int
    levels : ndarray of int64
        Hop distance from the source, -1 where unreachable.
    parents : ndarray of int64 or None
        The BFS tree parent of each vertex, -1 for the source and unreachable vertices.
    stats : dict
        As :class:`SSSPResult`'s.  For a result completed later, ``seconds`` runs from
        the call to the first read.

    Examples
    --------
    >>> import warpath
    >>> r = warpath.bfs(warpath.Graph.from_edges([0, 1], [1, 2]), 0)
    >>> r.levels.tolist(), r.path(2).tolist()
    ([0, 1, 2], [0, 1, 2])
    """

    def __init__(self, source, levels, parents=None, stats=None):
        self.source = int(source)
        self._arrays = _LazyArrays(levels, parents)
        self._stats = dict(stats or {})
        self._outcome = None   # what completes the stats, while pending
        self._amendments = []   # changes to the stats made while pending, in order
        self._settling = threading.Lock()   # two threads may read a pending result at once

    @property
    def stats(self) -> dict:
        """The run's statistics (waiting for a pending outcome first)."""
        if self._outcome is not None:
            self._settle()
        return self._stats

    @stats.setter
    def stats(self, value) -> None:
        self._stats, self._outcome, self._amendments = dict(value or {}), None, []

    @property
    def stats_pending(self) -> bool:
        """Whether the stats wait for the GPU still (see :meth:`stats_later`)."""
        return self._outcome is not None

    def stats_later(self, outcome) -> None:
        """Complete the stats on first read with ``outcome()`` (a dict; it may wait for
        the GPU, and what it raises reaches that read).

        Examples
        --------
        >>> r = BFSResult(0, np.zeros(1, np.int64))
        >>> r.stats_later(lambda: {"iterations": 3})
        >>> r.amend_stats(lambda stats: stats.update(method="late"))
        >>> r.stats_pending, r.stats, r.stats_pending
        (True, {'iterations': 3, 'method': 'late'}, False)
        """
        self._outcome, self._amendments = outcome, []

    def amend_stats(self, change) -> None:
        """Apply ``change(stats)`` now, or once a pending outcome is in (see
        :meth:`stats_later`)."""
        if self._outcome is None:
            change(self._stats)
        else:
            self._amendments.append(change)

    def _settle(self) -> None:
        with self._settling:
            if self._outcome is None:   # another thread settled it meanwhile
                return
            stats = {**self._stats, **self._outcome()}   # if it raises, the next read tries
            self._outcome = None
            for change in self._amendments:
                change(stats)
            self._stats, self._amendments = stats, []

    def __getstate__(self) -> dict:
        """A pickled result is a complete one (its pending outcome waited for)."""
        if self._outcome is not None:
            self._settle()
        return {key: value for key, value in self.__dict__.items() if key != "_settling"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._settling = threading.Lock()

    @property
    def levels(self) -> np.ndarray:
        """Int64 hop levels, -1 where unreachable."""
        if self._outcome is not None:
            self._settle()
        return self._arrays.levels

    @property
    def parents(self):
        """Int64 parents (-1 where none), or ``None`` when not recorded."""
        if self._outcome is not None:
            self._settle()
        return self._arrays.predecessors

    predecessors = parents

    @property
    def distances(self) -> np.ndarray:
        """Levels as float64 distances with ``inf`` where unreachable (as an SSSP result)."""
        out = self.levels.astype(np.float64)
        out[self.levels < 0] = np.inf
        return out

    @property
    def reached(self) -> int:
        """How many vertices the search reached (the source included)."""
        return int(np.count_nonzero(self.levels >= 0))

    def path(self, target) -> np.ndarray:
        """The vertices of a fewest-hops path from the source to ``target`` (empty if unreachable)."""
        if self.parents is None:
            raise _no_predecessors("parents")
        target = vertex_index(target, self.levels.shape[0], "target")
        return walk_predecessors(self.parents, self.source, target)

    def __repr__(self):
        return f"<BFSResult source={self.source} reached={self.reached}/{self.levels.size}>"


class _SourceRows(_RunStats):
    """Rows indexed by source vertex: the lookup shared by the matrix results."""

    def __init__(self, sources):
        self.sources = np.asarray(sources, dtype=np.int64)
        self._row_of = None   # made on the first lookup: a batch query need not pay for it

    def _row_index(self, source) -> int:
        key = vertex_index(source, np.iinfo(np.int64).max, "source")
        if self._row_of is None:
            self._row_of = {s: i for i, s in enumerate(self.sources.tolist())}
        if key not in self._row_of:
            raise SourceError(f"vertex {source!r} is not one of the sources of this result")
        return self._row_of[key]

    def path(self, source, target) -> np.ndarray:
        """The vertices of a shortest (for BFS: fewest-hops) path from ``source`` to
        ``target``, empty if unreachable."""
        predecessors = self.predecessors
        if predecessors is None:
            raise _no_predecessors()
        i = self._row_index(source)
        target = vertex_index(target, predecessors.shape[1], "target")
        return walk_predecessors(predecessors[i], int(self.sources[i]), target)


class BFSMatrix(_SourceRows):
    """Breadth-first searches from several sources: one row of levels per source.

    Returned by ``warpath.bfs(graph, sources=[...])``.

    Attributes
    ----------
    sources : ndarray of int64
        The source of each row.
    levels : ndarray of int64, shape (len(sources), num_vertices)
        Hop levels, -1 where unreachable.
    parents : ndarray of int64 or None, same shape
        BFS tree parents per row, -1 for the row's source and unreachable vertices.
    stats : dict

    Examples
    --------
    >>> import warpath
    >>> m = warpath.bfs(warpath.Graph.from_edges([0, 1], [1, 2]), sources=[1, 0])
    >>> m.levels.tolist(), m.path(0, 2).tolist(), m.row(1).levels.tolist()
    ([[-1, 0, 1], [0, 1, 2]], [0, 1, 2], [-1, 0, 1])
    """

    def __init__(self, sources, levels, parents=None, stats=None):
        super().__init__(sources)
        self._arrays = _LazyArrays(levels, parents)
        self.stats = dict(stats or {})

    levels = property(lambda self: self._arrays.levels,
                      doc="Int64 hop levels per row, -1 where unreachable.")
    parents = SSSPResult.predecessors
    predecessors = SSSPResult.predecessors

    @classmethod
    def stack(cls, sources, results) -> "BFSMatrix":
        """One matrix from one :class:`BFSResult` per source; numeric stats are summed.

        Examples
        --------
        >>> import warpath
        >>> g = warpath.generators.ring(3, seed=0)
        >>> m = BFSMatrix.stack([0, 2], [warpath.bfs(g, s, device="cpu") for s in (0, 2)])
        >>> m.levels.tolist(), m.stats["iterations"]
        ([[0, 1, 2], [1, 2, 0]], 6)
        """
        levels = np.stack([r.levels for r in results])
        parents = None
        if results and results[0].parents is not None:
            parents = np.stack([r.parents for r in results])
        stats = {}
        for r in results:
            for key, value in r.stats.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    stats[key] = stats.get(key, 0) + value
        return cls(sources, levels, parents, stats)

    def row(self, source) -> BFSResult:
        """The single-source result for ``source`` (one of :attr:`sources`)."""
        i = self._row_index(source)
        parents = None if self.parents is None else self.parents[i]
        return BFSResult(self.sources[i], self.levels[i], parents, self.stats)

    def __repr__(self):
        k, n = self.levels.shape
        return f"<BFSMatrix {k} sources x {n} vertices method={self.stats.get('method')}>"


class DistanceMatrix(_SourceRows):
    """Shortest paths from several sources: multi-source SSSP and APSP.

    Attributes
    ----------
    sources : ndarray of int64
        The source of each row.
    distances : ndarray of float64, shape (len(sources), num_vertices)
    predecessors : ndarray of int64 or None, same shape
    stats : dict

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [1, 1])
    >>> m = warpath.apsp(g)
    >>> m.distances[0].tolist(), m.path(0, 2).tolist()
    ([0.0, 1.0, 2.0], [0, 1, 2])
    """

    def __init__(self, sources, distances, predecessors=None, stats=None):
        super().__init__(sources)
        self._arrays = _LazyArrays(distances, predecessors)
        self.stats = dict(stats or {})

    distances = SSSPResult.distances
    exact_distances = SSSPResult.exact_distances
    predecessors = SSSPResult.predecessors
    device_distances = SSSPResult.device_distances

    @property
    def stored_distances(self) -> np.ndarray:
        """The distances on the host in the type the method stored them, not converted
        (a read-only view).

        Integer types mark an unreached pair with their largest value
        (:func:`warpath.dtypes.unreached_value`), floats with ``inf``.
        Reading these instead of :attr:`distances` skips a float64 copy of the
        whole matrix (8 bytes per pair).

        Examples
        --------
        >>> import warpath
        >>> m = warpath.apsp(warpath.Graph.from_edges([0], [1], [4]), dtype="int32")
        >>> m.stored_distances.dtype, m.stored_distances.tolist()
        (dtype('int32'), [[0, 4], [2147483647, 0]])
        """
        view = self._arrays._raw().view()
        view.flags.writeable = False
        return view

    def distance_blocks(self):
        """``(rows, block)`` pairs: the float64 distances a block of rows at a time.

        Reads the whole matrix without the full float64 copy that
        :attr:`distances` keeps for integer results (8 bytes per pair).

        Examples
        --------
        >>> import warpath
        >>> m = warpath.apsp(warpath.Graph.from_edges([0], [1], [4]))
        >>> [block.tolist() for _, block in m.distance_blocks()]
        [[[0.0, 4.0], [inf, 0.0]]]
        """
        if "distances" in self._arrays._cache:
            return iter([(slice(None), self.distances)])
        return float_blocks(self.stored_distances)

    def row(self, source) -> SSSPResult:
        """The single-source result for ``source`` (one of :attr:`sources`).

        Converts that row only: a row of a large matrix costs one row, not a
        float64 copy of the whole matrix.

        Examples
        --------
        >>> import warpath
        >>> m = warpath.apsp(warpath.Graph.from_edges([0, 1], [1, 2], [3, 4]))
        >>> r = m.row(1)
        >>> r.distances.tolist(), r.exact_distances.tolist()[1:], r.path(2).tolist()
        ([inf, 0.0, 4.0], [0, 4], [1, 2])
        """
        i = self._row_index(source)
        arrays = self._arrays
        return SSSPResult(self.sources[i], arrays.raw_row(i), arrays.predecessor_row(i),
                          self.stats)

    def __repr__(self):
        k, n = self._arrays.shape
        return f"<DistanceMatrix {k} sources x {n} vertices method={self.stats.get('method')}>"
