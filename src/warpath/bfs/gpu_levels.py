"""What every GPU BFS method shares: levels and parents on the device, the round bound, the result.

A GPU BFS keeps one level per vertex in the graph's index type (int32 while
the graph's indices are), -1 for a vertex not yet visited, and optionally a
parent per vertex (-1 where none).  Rounds are levels: round r expands the
vertices of level r and gives level r + 1 to the ones it discovers, so
``limit=L`` is simply L rounds, and the enactor's ``iterations`` count the
levels expanded, as the CPU ``queue`` method counts them.  The result keeps
its arrays on the GPU until read.

Imported by the GPU BFS methods when they run (it imports numba-cuda).

A method keeps its device state from query to query (:meth:`LevelRun.reused`): a
query on a warm graph takes the levels and parents its run made while the last
query's kernel ran, queues its set-up fills and launches the kernel its first
query prepared.

Examples
--------
>>> import warpath
>>> g = warpath.generators.ring(4, seed=0)
>>> a = warpath.bfs(g, 1, method="queue", device="cuda")
>>> b = warpath.bfs(g, 2, method="queue", device="cuda")   # a's run, new levels
>>> a.levels.tolist(), b.levels.tolist()
([3, 0, 1, 2], [2, 3, 0, 1])
"""

from __future__ import annotations

import functools
import threading
import weakref

import numpy as np
from numba import cuda

from ..cuda.device_graph import device_graph
from ..cuda.enactor import PendingOutcome, PersistentRounds, enact
from ..cuda.mappings import VIRTUAL_WARP_LANES
from ..cuda.problem import Problem
from ..cuda.recycled import recycled_rows
from ..cuda.runtime import SIMULATOR
from ..cuda.scratch import scratch_pool
from ..result import BFSResult

#: The level of a vertex not (yet) visited.
UNVISITED = -1

#: Threads per frontier vertex: a virtual warp sized every round (H-BF section 5.2).
LANES = VIRTUAL_WARP_LANES


def rounds_for(limit, num_vertices: int) -> int:
    """The round bound: ``limit`` levels (floored), else n (no BFS has more levels).

    Examples
    --------
    >>> rounds_for(None, 10), rounds_for(2.7, 10), rounds_for(1e30, 10)
    (10, 2, 10)
    """
    if limit is None:
        return num_vertices
    return int(min(np.floor(limit), num_vertices))


def check_high_degree(high_degree, name: str = "high_degree", zero: str = "off") -> int:
    """Validate a ``high_degree`` option (vertices of more arcs are expanded by the whole
    grid; 0 turns it off), or another degree bound named ``name``, whose 0 means ``zero``.

    Examples
    --------
    >>> check_high_degree(4096)
    4096
    >>> check_high_degree(-1, "pull_wide", "one in-arc a thread")
    Traceback (most recent call last):
    ValueError: pull_wide must be a non-negative integer (0: one in-arc a thread), not -1
    """
    if not isinstance(high_degree, (int, np.integer)) or isinstance(high_degree, bool) \
            or high_degree < 0:
        raise ValueError(f"{name} must be a non-negative integer (0: {zero}), "
                         f"not {high_degree!r}")
    return int(high_degree)


class LevelRun:
    """The device state of GPU BFS queries on one graph: a :class:`Problem` (flags,
    counters, launch tally), its frontier queues and a method's own arrays, made once;
    each query (:meth:`start` ... :meth:`finish`) gets new levels and parents.

    Made for one query (``LevelRun(graph, ...)``: :meth:`finish` gives the borrowed
    arrays back), or kept from query to query (:meth:`reused`: per graph, method
    options and host thread, so that a query on a warm graph only takes its
    levels and queues its set-up fills; Gunrock's init / reset / enact).  A kept
    run makes the next query's levels and parents in :meth:`finish`, while the
    kernel runs, and holds them until that query.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    predecessors : bool
        Whether queries record parents.
    heavy_degree : int, optional
        Make frontier queues (:meth:`~warpath.cuda.problem.Problem.frontier`), vertices of
        more arcs in a heavy queue when it is above 0; ``None``: no queues.

    Attributes
    ----------
    problem : Problem
        The engine's query state.  It is deferred: the fills of the levels, parents,
        flags and queues run in the query's first kernel, which must be the enactor's.
        It has no distances of its own: a query's levels are made by :meth:`start`.
    frontier : FrontierPair or None
    record : bool
        Whether parents are recorded.
    levels, parents : device arrays
        The running query's levels (-1: not visited, 0 at the source) and parents
        (-1 where none), or a one-slot stand-in when not recorded.
    max_rounds : int
        The running query's round bound, for its ``limit``.
    """

    def __init__(self, graph, *, predecessors, heavy_degree=None):
        dgraph = device_graph(graph)
        self.index = np.dtype(dgraph.indices.dtype)
        self.record = bool(predecessors)
        self.problem = Problem(dgraph, 0, distances=_no_levels(dgraph, self.index),
                               deferred=True)
        self.heavy_degree = heavy_degree
        self.frontier = None if heavy_degree is None else \
            self.problem.frontier(heavy_degree=heavy_degree)
        self.levels = self.parents = None
        self.max_rounds = 0
        # the context of the device state, for the levels' memory (numba's lookup of the
        # current one costs ~5 us of host time a query)
        self._context = None if SIMULATOR else cuda.current_context()
        self._kept = {}
        self._pool_key = self._thread = None   # the pool's key and thread, when pooled
        self._staged_rows = None   # the next query's rows, made while the last one ran

    def _new_rows(self) -> tuple:
        """A query's levels and parents: one recycled block for both; without parents, one
        row (a stand-in for them that the kernels never write)."""
        return recycled_rows(2 if self.record else 1, self.problem.n, self.index,
                             self._context)

    @classmethod
    def reused(cls, graph, key, *, predecessors, heavy_degree=None) -> "LevelRun":
        """A LevelRun kept in the device graph's scratch pool under ``key`` (the method and
        the options its arrays depend on), made when this thread has none free;
        :meth:`finish` puts it back.  A query that raises drops it."""
        dgraph = device_graph(graph)
        key = ("level run", key, bool(predecessors), heavy_degree)
        run = scratch_pool(dgraph).take(key, lambda: cls(dgraph, predecessors=predecessors,
                                                         heavy_degree=heavy_degree))
        run._pool_key, run._thread = key, threading.get_ident()
        return run

    def kept(self, name, make):
        """A method's own device state, made by ``make()`` on the first query of this run
        and kept for the next ones (e.g. arrays borrowed from the problem's scratch)."""
        item = self._kept.get(name)
        if item is None:
            item = self._kept[name] = make()
        return item

    def start(self, source: int, limit=None) -> tuple:
        """Begin a query from ``source``: new levels and parents (recycled memory), their
        fills and the problem's (:meth:`~warpath.cuda.problem.Problem.reset`) queued, and the
        frontier restarted; returns ``(levels, parents, unvisited)``, the head of every
        method's state.

        Examples
        --------
        >>> import warpath
        >>> run = LevelRun(warpath.generators.ring(4, seed=0), predecessors=True)
        >>> levels, parents, unvisited = run.start(1)
        >>> run.problem.run_fills()   # else the method's first kernel runs them
        True
        >>> levels.copy_to_host().tolist(), int(unvisited), run.max_rounds
        ([-1, 0, -1, -1], -1, 4)
        """
        n = self.problem.n
        rows, self._staged_rows = self._staged_rows or self._new_rows(), None
        self.levels, self.parents = rows[0], rows[-1]
        problem = self.problem
        problem.reset(source)
        problem.fill(self.levels, n, UNVISITED, source, 0)
        if self.record:
            problem.fill(self.parents, n, -1)
        if self.frontier is not None:
            problem.restart_frontier(self.frontier, self.heavy_degree)
        self.max_rounds = rounds_for(limit, n)
        return self.levels, self.parents, self.index.type(UNVISITED)

    def rounds(self, steps, state, *, loop: str = "fast", counted=None,
               max_registers: int = 0, wait: bool = True):
        """Run the query's rounds (the enactor's), its fills first; returns their ``stats``.
        The fast loop's prepared kernel (:class:`~warpath.cuda.enactor.PersistentRounds`,
        its registers capped at ``max_registers`` when > 0) is kept for the next query
        with the same steps.  With ``wait=False`` the fast loop returns as soon as the
        kernel is launched, a :class:`~warpath.cuda.enactor.PendingOutcome` in place of
        the stats: :meth:`finish` does the query's bookkeeping while the kernel runs and
        waits for them last."""
        problem = self.problem
        if loop == "paper":
            return enact(problem, steps, state, loop=loop, frontier=self.frontier,
                         max_rounds=self.max_rounds, counted=counted)[0]
        jobs = problem.take_fills()
        prepared = self._kept.get("rounds")
        if prepared is None or prepared.steps != tuple(steps) or prepared.fills != len(jobs) \
                or prepared.max_registers != max_registers:
            prepared = self._kept["rounds"] = PersistentRounds(
                problem, steps, frontier=self.frontier, counted=counted, fills=len(jobs),
                max_registers=max_registers)
        pending = prepared.start(state, jobs, problem.tally, self.max_rounds)
        return pending if not wait else pending.wait()[0]

    def finish(self, stats, **extra) -> BFSResult:
        """The query's :class:`~warpath.BFSResult`, its arrays left on the device until read;
        the run goes back to its pool (:meth:`reused`), or gives its borrowed arrays back.
        ``stats``: what :meth:`rounds` returned.  A pending outcome is not waited for:
        the result is returned while the kernel runs, and its first read waits
        (:meth:`~warpath.BFSResult.stats_later`), so that the caller's next steps overlap
        the kernel too."""
        problem = self.problem
        tally = problem.tally   # the next query's reset makes another
        result = BFSResult(problem.source, self.levels, self.parents if self.record else None)
        self.levels = self.parents = None   # the result's now
        if self._pool_key is not None:   # a run kept for the next query: its rows, now
            self._stage_rows()   # (while this query's kernel runs)
        self.release()
        if isinstance(stats, PendingOutcome):
            result.stats_later(functools.partial(_pending_stats, stats, tally, extra,
                                                 self._dropper()))
        else:
            result.stats = tally.as_stats({**stats, **extra})
        return result

    def _stage_rows(self) -> None:
        """Make the next query's rows now; a failure (no memory left) leaves that to the
        next query rather than failing this one."""
        try:
            self._staged_rows = self._new_rows()
        except Exception:   # noqa: BLE001 - the next query makes them, or raises itself
            self._staged_rows = None

    def _dropper(self):
        """What drops this run from its pool when its query's wait fails (see
        :meth:`reused`: a query that raises drops its run), holding the run weakly: a
        result not read yet does not keep the run (and its arrays) alive."""
        if self._pool_key is None:
            return _nothing
        pool, key, thread = scratch_pool(self.problem.graph), self._pool_key, self._thread
        run = weakref.ref(self)

        def drop():
            item = run()
            if item is not None:
                pool.discard(key, item, thread)

        return drop

    def release(self) -> None:
        """The run's queries are over: it goes back to its pool (:meth:`reused`), or gives
        its borrowed arrays back (:meth:`finish` calls it; a method that makes its own
        result calls it instead).

        Examples
        --------
        >>> import warpath
        >>> g = warpath.generators.ring(4, seed=0)
        >>> run = LevelRun.reused(g, ("example",), predecessors=False)
        >>> run.release()
        >>> LevelRun.reused(g, ("example",), predecessors=False) is run   # from the pool
        True
        """
        problem = self.problem
        if self._pool_key is None:
            problem.release_scratch()
        else:
            problem.run_fills()   # none, unless a query ran no round
            scratch_pool(problem.graph).give(self._pool_key, self)


def _pending_stats(pending: PendingOutcome, tally, extra: dict, drop) -> dict:
    """A query's stats once its ``pending`` outcome is in; ``drop()`` when the wait fails."""
    try:
        stats = pending.wait()[0]
    except BaseException:
        drop()
        raise
    return tally.as_stats({**stats, **extra})


def _nothing() -> None:
    """A run made for one query has no pool to leave."""


def _no_levels(dgraph, index):
    """The stand-in for a LevelRun problem's distances (the levels are made per query)."""
    return dgraph.cached(("no levels", index.str), lambda: cuda.device_array((1, 0), index))
