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
import math

import numpy as np
from numba import cuda

from ..dtypes import distance_dtype
from ..errors import NegativeCycleError
from ..negative_cycles import negative_cycle_from
from ..result import DistanceMatrix, SSSPResult
from .control import SLOTS, Control
from .counters import RunTally
from .device_graph import device_graph
from .distances import floor_value, infinity, rows_of
from .fills import fill_job, run_fills
from .frontier import FrontierQueue
from .launch import launch
from .recycled import recycled_array
from .runtime import THREADS, blocks_for
from .scratch import retry_out_of_memory, scratch_pool

#: Integer distance types on the GPU, narrowest first: int32 halves the bytes moved.
DEVICE_INTEGER_TYPES = (np.int32, np.int64)

#: Standing fills a problem keeps at most (a BFS query repeats 8: a bound, not a cache).
STANDING = 32


@cuda.jit
def _init_rows(d, sources, inf, conv, counters):
    """d[row, v] = 0 where v is row's source, infinity elsewhere (Agarwal Alg. 2, per row);
    threads i < 4 also clear flag i and counter i."""
    i = cuda.grid(1)
    if i < conv.shape[0]:
        conv[i] = 0
    if i < counters.shape[0]:
        counters[i] = 0
    n = d.shape[1]
    if i < d.shape[0] * n:
        row = i // n
        v = i - row * n
        d[row, v] = 0 if v == sources[row] else inf


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
    deferred : bool
        Leave the set-up fills (:meth:`fill`: the distances of one row, the flags
        and counters, the frontier queues, a method's own) to the problem's first
        kernel, which must be :func:`~warpath.cuda.enactor.enact`'s or
        :func:`~warpath.cuda.enactor.run_once`'s (they run them before round 0),
        instead of one launch per set-up step.  For methods that launch nothing
        of their own before then.

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

    def __init__(self, graph, sources, *, distances=None, tally=None, deferred=False):
        self.graph = device_graph(graph)
        self.sources = np.atleast_1d(np.asarray(sources, dtype=np.int64))
        self.rows = int(self.sources.shape[0])
        self.n = self.graph.num_vertices
        self.m = self.graph.num_edges
        self.tally = RunTally() if tally is None else tally
        self.deferred = bool(deferred)
        self._fills = []
        self._standing = {}   # by (array id, count, value, at, at_value)
        self.standing_jobs = {}   # by job id
        self._borrowed = []
        self.control = self.scratch("control", Control)
        self.conv, self.counters = self.control.conv, self.control.counters
        if distances is None:
            self.dtype = distance_dtype(self.graph, DEVICE_INTEGER_TYPES, keep_float32=True)
        else:
            self.dtype = np.dtype(distances.dtype)
        self.inf = infinity(self.dtype)
        self.floor = floor_value(self.graph, self.dtype)
        if distances is None and self.rows > 1:
            self.distances = self._initial_rows()   # clears the flags and counters too
        else:
            self.fill(self.control.block, SLOTS, 0, standing=True)
            if distances is None:   # a result's row in recycled memory; nothing uploaded
                self.distances = recycled_array((1, self.n), self.dtype)
                self.fill(self.row, self.n, self.inf, self.source, 0)
            else:
                self.distances = distances
            self.settle()
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

    def _initial_rows(self):
        control = (self.conv.device, self.counters)  # cleared by the same launch
        d = retry_out_of_memory(lambda: cuda.device_array((self.rows, self.n), dtype=self.dtype))
        launch(_init_rows, blocks_for(self.rows * self.n), THREADS,
               (d, cuda.to_device(self.sources), self.inf) + control)
        self.tally.launch()
        return d

    def fill(self, array, count: int, value, at: int = -1, at_value=0, *,
             standing: bool = False) -> None:
        """Queue a set-up fill of the 1-D device ``array``: ``array[:count] = value``, then
        ``array[at] = at_value`` when ``at >= 0`` (:mod:`warpath.cuda.fills`); jobs of one
        step must not overlap.  It runs at :meth:`settle` unless the problem is ``deferred``.

        A ``standing`` fill, one that every query of the problem repeats (clearing the
        control block, emptying a queue), is made once: each later such fill queues the
        same job object, whose launch parameters a prepared kernel keeps
        (:class:`~warpath.cuda.enactor.PersistentRounds`).  Never for a fill that holds the
        source or other values of one query: at most :data:`STANDING` are kept.

        Examples
        --------
        >>> import warpath
        >>> p = Problem(warpath.generators.ring(3, seed=0), 0, deferred=True)
        >>> flags = cuda.device_array(4, np.int8)
        >>> p.fill(flags, 4, 0, 2, 1)
        >>> p.run_fills(), flags.copy_to_host().tolist(), p.run_fills()
        (True, [0, 0, 1, 0], False)
        >>> p.fill(flags, 4, 0, standing=True); p.fill(flags, 4, 0, standing=True)
        >>> first, again = p.take_fills(); first is again is p.standing_jobs[id(first)]
        True
        """
        if not standing:
            self._fills.append(fill_job(array, count, value, at, at_value))
            return
        key = (id(array), count, value, at, at_value)   # the job holds the array: ids stay
        job = self._standing.get(key)
        if job is None:
            if len(self._standing) >= STANDING:
                raise RuntimeError(f"more than {STANDING} standing fills: one of them "
                                   f"changes from query to query (e.g. holds the source)")
            job = self._standing[key] = fill_job(array, count, value, at, at_value)
            self.standing_jobs[id(job)] = job
        self._fills.append(job)

    def filled(self, key, shape, dtype, value, at: int = -1, at_value=0):
        """A working array of ``shape`` and ``dtype`` from the scratch pool (no result keeps
        it), filled with ``value`` (``at_value`` at flat index ``at``) by a queued
        :meth:`fill`: e.g. a method's flags, in no launch of their own.

        Examples
        --------
        >>> import warpath
        >>> p = Problem(warpath.generators.ring(3, seed=0), 0)
        >>> flags = p.filled("flags", (2, 3), np.uint8, 0, at=1, at_value=1)
        >>> p.settle(); flags.copy_to_host().tolist()
        [[0, 1, 0], [0, 0, 0]]
        """
        shape, dtype = tuple(map(int, shape)), np.dtype(dtype)
        size = math.prod(shape)

        def make():
            flat = cuda.device_array(max(size, 1), dtype=dtype)
            return flat, flat[:size].reshape(shape)

        flat, shaped = self.scratch(("filled", key, shape, dtype.str), make)
        self.fill(flat, size, value, at, at_value)
        return shaped

    def settle(self) -> None:
        """The end of a set-up step: run its queued fills in one launch, unless ``deferred``.

        Examples
        --------
        >>> import warpath
        >>> p = Problem(warpath.generators.ring(3, seed=0), 0)   # settled: one launch
        >>> p.fill(p.row, 3, 7); p.settle(); p.row.copy_to_host().tolist(), p.tally.launches
        ([7, 7, 7], 2)
        """
        if not self.deferred:
            self.run_fills()

    def run_fills(self) -> bool:
        """Run every queued fill now, in one launch (``False``: none was queued)."""
        ran = run_fills(self.take_fills())
        if ran:
            self.tally.launch()
        return ran

    def take_fills(self) -> tuple:
        """The queued fill jobs, handed to a kernel that runs them (the queue is emptied).

        Examples
        --------
        >>> import warpath
        >>> p = Problem(warpath.generators.ring(3, seed=0), 0, deferred=True)
        >>> len(p.take_fills()), len(p.take_fills())   # the control block and the row
        (2, 0)
        """
        jobs, self._fills = tuple(self._fills), []
        return jobs

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
        problem's kernels must not touch them after the ones already launched.  Fills
        still queued (a query that ran no round) run first."""
        self.run_fills()
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
        else:
            heavy_count = self.graph.count_degree_above(heavy_degree)
            heavy_capacity = capacity if repeats else min(capacity, max(heavy_count, 1))
            pair = self.scratch(("frontier", capacity, index.str, heavy_capacity),
                                lambda: FrontierPair(FrontierQueue(capacity, index),
                                                     FrontierQueue(heavy_capacity, index)))
        self.restart_frontier(pair, heavy_degree, first)
        self.settle()
        return pair

    def restart_frontier(self, pair: FrontierPair, heavy_degree: int = 0,
                         first: bool = True) -> None:
        """Queue the fills that empty ``pair``'s queues again, the source (when ``first``)
        in the heavy queue if it has more than ``heavy_degree`` arcs, else in the light one:
        what :meth:`frontier` does to the queues it lends, and what a query reusing them
        does (see :meth:`reset`)."""
        source = self.source if first else -1
        source_heavy = pair.heavy and source >= 0 and self.graph.degree(source) > heavy_degree
        self._restart(pair.light, -1 if source_heavy else source)
        if pair.heavy:
            self._restart(pair.heavy_queue, source if source_heavy else -1)

    def _restart(self, queue: FrontierQueue, first: int) -> None:
        counts, head = queue.restart_fills(first)
        self.fill(*counts, standing=True)
        self.fill(*head, standing=first < 0)   # a head holding the source changes per query

    def reset(self, source: int) -> None:
        """Start another query from ``source`` on this one-row problem's arrays (Gunrock's
        reset): fills queued and not yet run are dropped, a new launch tally starts,
        and the fill clearing the flags and counters is queued; the caller queues the
        fills that re-initialise the rest (e.g. :meth:`restart_frontier`).

        Examples
        --------
        >>> import warpath
        >>> p = Problem(warpath.generators.ring(3, seed=0), 0, deferred=True)
        >>> p.reset(2); p.source, len(p.take_fills()), p.tally.launches
        (2, 1, 0)
        """
        if self.rows != 1:
            raise ValueError("reset serves one-row problems")
        self.sources = np.array([source], dtype=np.int64)
        self.tally = RunTally()
        self._fills = []
        self.fill(self.control.block, SLOTS, 0, standing=True)

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
        return self._sssp_result(stats, negative, predecessors, None, extra)

    def _sssp_result(self, stats, negative, predecessors, queued, extra) -> SSSPResult:
        """:meth:`finish_sssp`, with ``queued`` the predecessor passes when they were
        queued already (:meth:`finish_sssp_later`)."""
        self.release_scratch()
        if negative:
            if queued is not None:
                queued.discard()
            self._raise_negative_cycle()
        from .predecessors import record_predecessors

        pred = None
        if queued is not None:
            pred = queued.result()
        elif predecessors:
            pred = record_predecessors(self)
        return SSSPResult(self.source, self.row, pred, self.tally.as_stats({**stats, **extra}))

    def finish_sssp_later(self, outcome, *, predecessors: bool, **extra) -> SSSPResult:
        """:meth:`finish_sssp` for rounds whose ``outcome`` is not read yet (``enact(...,
        later=True)``).  The predecessor passes (the offers, and with zero or negative
        weights their check: :func:`~warpath.cuda.predecessors.queue_predecessors`) are
        queued behind the rounds before the host waits, so the GPU goes on from the rounds
        to the passes without waiting for the host to read the outcome and launch them.
        Only a search over tight arcs, when an offer chain loops (or on an undirected graph
        with an edge of weight 0), waits for the reads.
        After a negative cycle the queued passes work on meaningless distances (within
        bounds) and their result is never read.

        Examples
        --------
        >>> import warpath
        >>> from warpath.cuda.enactor import ReadOutcome
        >>> problem = Problem(warpath.Graph.from_edges([0], [1], [3]), 0)   # no rounds run
        >>> outcome = ReadOutcome({"iterations": 0, "relaxations": 0}, False)
        >>> problem.finish_sssp_later(outcome, predecessors=True).predecessors.tolist()
        [-1, -1]
        """
        from .predecessors import queue_predecessors

        self.run_fills()   # a query that ran no round: its set-up before the pass reads it
        queued = queue_predecessors(self) if predecessors else None
        stats, negative = outcome.wait()
        return self._sssp_result(stats, negative, predecessors, queued, extra)

    def finish_matrix(self, stats: dict, negative: bool, **extra) -> DistanceMatrix:
        """The :class:`~warpath.DistanceMatrix` of a converged many-row run (no predecessors)."""
        self.release_scratch()
        if negative:
            self._raise_negative_cycle()
        return DistanceMatrix(self.sources, self.distances, None,
                              self.tally.as_stats({**stats, **extra}))
