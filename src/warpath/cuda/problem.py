"""Problem: the device state of one query, shared by every GPU method.

A :class:`Problem` holds what every method's rounds read and write besides its
own arrays: the device graph, the distances as a ``(rows, n)`` array (one row
per source: rows = 1 for SSSP, the number of sources for many-source
problems), the convergence flags, the counters and the launch tally; it makes
frontier queues on request and turns the outcome into a result
(:meth:`finish_sssp`, :meth:`finish_matrix`), raising
:class:`~warpath.NegativeCycleError` with a cycle when the run proved one.
Working arrays that no result keeps (flags, counters, queues, a method's own)
are borrowed from the device graph's pool (:mod:`warpath.cuda.scratch`) and
given back when the problem finishes.
Results keep their arrays on the device until read.

Examples
--------
>>> import warpath
>>> problem = Problem(warpath.generators.ring(3, seed=0), 0)
>>> problem.rows, problem.distances.copy_to_host().tolist()
(1, [[0, 2147483647, 2147483647]])
>>> problem.finish_sssp({"iterations": 0, "relaxations": 0}, False,
...                     predecessors=False).distances.tolist()
[0.0, inf, inf]
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda

from ..dtypes import distance_dtype
from ..errors import NegativeCycleError
from ..negative_cycles import negative_cycle_from
from ..result import DistanceMatrix, SSSPResult
from .control import Control
from .counters import RunTally
from .device_graph import device_graph
from .distances import floor_value, infinity, rows_of
from .frontier import FrontierQueue
from .launch import launch
from .recycled import recycled_array
from .runtime import THREADS, blocks_for
from .scratch import retry_out_of_memory, scratch_pool

#: Integer distance types on the GPU, narrowest first: int32 halves the bytes moved.
DEVICE_INTEGER_TYPES = (np.int32, np.int64)


@cuda.jit(device=True)
def _clear(conv, counters, i):
    """Thread i < 4 clears flag i and counter i (a new query's flags and counters)."""
    if i < conv.shape[0]:
        conv[i] = 0
    if i < counters.shape[0]:
        counters[i] = 0


@cuda.jit
def _init_row(d, source, inf, conv, counters):
    """Agarwal Alg. 2 for one row: d[0, v] = 0 at the source, infinity elsewhere."""
    v = cuda.grid(1)
    _clear(conv, counters, v)
    if v < d.shape[1]:
        d[0, v] = 0 if v == source else inf


@cuda.jit
def _init_rows(d, sources, inf, conv, counters):
    """d[row, v] = 0 where v is row's source, infinity elsewhere (Agarwal Alg. 2, per row)."""
    i = cuda.grid(1)
    _clear(conv, counters, i)
    n = d.shape[1]
    if i < d.shape[0] * n:
        row = i // n
        v = i - row * n
        d[row, v] = 0 if v == sources[row] else inf


@cuda.jit
def _init_control(conv, counters):
    """Clear the flags and counters of a problem that starts from given distances."""
    _clear(conv, counters, cuda.grid(1))


class FrontierPair:
    """The frontier queues a round reads and writes: light and, optionally, heavy vertices.

    ``arrays`` is the ``(queues, counts, heavy_queues, heavy_counts)`` tuple
    that operators take; without heavy vertices the last two are one-slot
    stand-ins.

    Examples
    --------
    >>> pair = FrontierPair(FrontierQueue(4, first=1))
    >>> pair.heavy, len(pair.arrays)
    (False, 4)
    """

    def __init__(self, light: FrontierQueue, heavy: FrontierQueue | None = None,
                 stand_in: FrontierQueue | None = None):
        self.light = light
        self.heavy_queue = heavy
        self.heavy = heavy is not None
        other = heavy if heavy is not None else (
            stand_in if stand_in is not None else FrontierQueue(1))
        self.arrays = (light.queues, light.counts, other.queues, other.counts)

    def sizes(self) -> np.ndarray:
        """The light queue's three counters (one host read), e.g. to see the last round's size."""
        return self.light.counts.copy_to_host()


def stand_in_queue(graph) -> FrontierQueue:
    """A one-slot queue for kernels that take a queue they never fill, kept on the device
    graph so a query makes none (only zeros are ever written to its counters).

    Examples
    --------
    >>> import warpath
    >>> g = device_graph(warpath.generators.ring(3, seed=0))
    >>> stand_in_queue(g) is stand_in_queue(g), stand_in_queue(g).queues.shape
    (True, (2, 1))
    """
    return graph.cached("stand_in_queue", lambda: FrontierQueue(1))


class Problem:
    """Device state of one query from ``sources`` (an int, or an array for several rows).

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : int or array_like of int
    distances : device array, optional
        Start from these ``(rows, n)`` distances instead of 0 / infinity
        (e.g. a recording pass over converged distances).
    tally : RunTally, optional
        Share another problem's launch tally.

    Attributes
    ----------
    graph : DeviceGraph
    n, m, rows : int
    dtype : numpy dtype
        The distance type (``inf`` and ``floor`` are scalars of it).
    distances : device array (rows, n)
    control : Control
        The convergence flags and device counters, read back together.
    conv, counters, tally
        The flags and the counters (views of ``control``), host launch tally.

    Examples
    --------
    >>> import warpath
    >>> p = Problem(warpath.Graph.from_edges([0], [1], [2.5]), [1, 0])
    >>> p.dtype, p.distances.copy_to_host().tolist()
    (dtype('float64'), [[inf, 0.0], [0.0, inf]])
    """

    def __init__(self, graph, sources, *, distances=None, tally=None):
        self.graph = device_graph(graph)
        self.sources = np.atleast_1d(np.asarray(sources, dtype=np.int64))
        self.rows = int(self.sources.shape[0])
        self.n = self.graph.num_vertices
        self.m = self.graph.num_edges
        self.tally = RunTally() if tally is None else tally
        self._borrowed = []
        self.control = self.scratch("control", Control)   # cleared by the first launch
        self.conv, self.counters = self.control.conv, self.control.counters
        if distances is None:
            self.dtype = distance_dtype(self.graph, DEVICE_INTEGER_TYPES, keep_float32=True)
            self.distances = self._initial_distances()
        else:
            self.dtype = np.dtype(distances.dtype)
            self.distances = distances
            launch(_init_control, 1, 32, (self.conv.device, self.counters))
            self.tally.launch()
        self.inf = infinity(self.dtype)
        self.floor = floor_value(self.graph, self.dtype)
        self._none = None

    @property
    def source(self) -> int:
        """The first (for SSSP: the only) source."""
        return int(self.sources[0])

    @functools.cached_property
    def row(self):
        """Row 0 of the distances as a one-dimensional device array (a one-row problem's
        distances), made once per problem without numba's costly indexing
        (:func:`~warpath.cuda.distances.rows_of`)."""
        return rows_of(self.distances, (0,))[0]

    def _initial_distances(self):
        control = (self.conv.device, self.counters)  # cleared by the same launch
        if self.rows == 1:  # a result's row in recycled memory; no upload of the source
            d = recycled_array((1, self.n), self.dtype)
            launch(_init_row, blocks_for(self.n), THREADS,
                   (d, np.int64(self.source), infinity(self.dtype)) + control)
        else:
            d = retry_out_of_memory(lambda: cuda.device_array((self.rows, self.n),
                                                              dtype=self.dtype))
            launch(_init_rows, blocks_for(self.rows * self.n), THREADS,
                   (d, cuda.to_device(self.sources), infinity(self.dtype)) + control)
        self.tally.launch()
        return d

    def scratch(self, key, make):
        """Working arrays no result keeps: taken from the device graph's pool (made by
        ``make()`` when it has none free for ``key``) and given back by
        :meth:`release_scratch`; the caller re-initialises them
        (:mod:`warpath.cuda.scratch`)."""
        item = scratch_pool(self.graph).take(key, make)
        self._borrowed.append((key, item))
        return item

    def release_scratch(self) -> None:
        """Give the working arrays back to the pool (the finish methods call it): this
        problem's kernels must not touch them after the ones already launched."""
        pool = scratch_pool(self.graph)
        while self._borrowed:
            pool.give(*self._borrowed.pop())

    def graph_arrays(self, tails: bool = False) -> tuple:
        """``(indptr, heads, weights, tails)`` for the operators; tails only when asked
        (built on the GPU once per graph), else a one-slot stand-in."""
        g = self.graph
        return (g.indptr, g.indices, g.weights, g.tails if tails else g.no_tails)

    def frontier(self, capacity: int | None = None, heavy_degree: int = 0,
                 first: bool = True, repeats: bool = False) -> FrontierPair:
        """Frontier queues holding the source (when ``first``), for a one-row problem.

        ``capacity`` defaults to n (a vertex enters a round's frontier once);
        with ``heavy_degree`` > 0, vertices of more arcs go to a second queue,
        sized to the number of such vertices unless a vertex can enter a
        round's frontier more than once (``repeats``).
        """
        if self.rows != 1:
            raise ValueError("frontier queues serve one-row problems")
        capacity = self.n if capacity is None else int(capacity)
        source = self.source if first else -1
        index = self.graph.indices.dtype
        if heavy_degree <= 0:
            pair = self.scratch(("frontier", capacity, index.str), lambda: FrontierPair(
                FrontierQueue(capacity, index), stand_in=stand_in_queue(self.graph)))
            pair.light.restart(source)
            self.tally.launch()
            return pair
        heavy_count = self.graph.count_degree_above(heavy_degree)
        source_heavy = source >= 0 and self.graph.degree(source) > heavy_degree
        heavy_capacity = capacity if repeats else min(capacity, max(heavy_count, 1))
        pair = self.scratch(("frontier", capacity, index.str, heavy_capacity),
                            lambda: FrontierPair(FrontierQueue(capacity, index),
                                                 FrontierQueue(heavy_capacity, index)))
        pair.light.restart(-1 if source_heavy else source)
        pair.heavy_queue.restart(source if source_heavy else -1)
        self.tally.launch(2)
        return pair

    def no_frontier(self) -> FrontierPair:
        """One-slot stand-in queues for steps that use none."""
        if self._none is None:
            stand_in = stand_in_queue(self.graph)
            self._none = FrontierPair(stand_in, stand_in=stand_in)
        return self._none

    def _raise_negative_cycle(self):
        raise NegativeCycleError(negative_cycle_from(self.graph, self.sources))

    def finish_sssp(self, stats: dict, negative: bool, *, predecessors: bool,
                    **extra) -> SSSPResult:
        """The :class:`~warpath.SSSPResult` of a converged one-row run, or
        :class:`~warpath.NegativeCycleError` when ``negative``."""
        self.release_scratch()
        if negative:
            self._raise_negative_cycle()
        from .predecessors import record_predecessors

        d = self.row
        pred = record_predecessors(self) if predecessors else None
        return SSSPResult(self.source, d, pred, self.tally.as_stats({**stats, **extra}))

    def finish_matrix(self, stats: dict, negative: bool, **extra) -> DistanceMatrix:
        """The :class:`~warpath.DistanceMatrix` of a converged many-row run (no predecessors)."""
        self.release_scratch()
        if negative:
            self._raise_negative_cycle()
        return DistanceMatrix(self.sources, self.distances, None,
                              self.tally.as_stats({**stats, **extra}))
