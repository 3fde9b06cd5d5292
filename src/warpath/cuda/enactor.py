"""The enactor: runs a method's rounds until one changes nothing, written once for every GPU method.

A round is one to three :class:`~warpath.cuda.operators.Operator` steps (an
advance, then a filter, ...), separated by grid-wide barriers.  Rounds repeat
until one changes nothing (no relax lowered a distance, nothing entered the
next frontier) or until a bound on rounds (Bellman-Ford's |V|: a round that
still changes something then proves a negative cycle).  Two ways to drive them,
chosen by ``loop=``:

- ``"paper"``: the papers' host loop: one launch per step and round, the
  convergence flag read back after each round (~65-83 us a round on an H100),
  or only from round ``first_check`` on and every ``every`` rounds after
  (Safari's ``N`` launches without communication).  A round after
  convergence changes nothing, so the extra ones are harmless.
- ``"fast"`` (default): one persistent cooperative kernel loops over the
  rounds itself, steps separated by ``grid.sync()`` (~1.5 us), reading the flag
  on the device; the host reads the outcome once at the end.

Examples
--------
>>> import numpy as np, warpath
>>> from warpath.cuda.problem import Problem
>>> from warpath.cuda.mappings import thread_per_edge
>>> from warpath.cuda.operators import advance, _demo_gather, _demo_visit
>>> problem = Problem(warpath.Graph.from_edges([0, 1], [1, 2], [3, 4]), 0)
>>> relax = advance(thread_per_edge(), _demo_gather, _demo_visit)
>>> stats, negative = enact(problem, [relax], (problem.distances[0], problem.inf))
>>> problem.distances.copy_to_host().tolist(), negative
([[0, 3, 7]], False)
"""

from __future__ import annotations

import functools
import threading

import numpy as np
from numba import cuda

from ..errors import OptionError
from .control import read_done
from .counters import ITERATIONS, RELAXATIONS, RunTally, counter_stats, flush_count
from .fills import fill_all
from .flags import FLAG_SLOTS, NEGATIVE_CYCLE, begin_round, round_changed
from .frontier import begin_level
from .launch import ParameterBlock, _NotFlat, kernel_function, launch, prepare
from .runtime import SIMULATOR, THREADS, blocks_for, cooperative_blocks, finish_read

#: The loops every GPU method offers.
LOOPS = ("fast", "paper")


def check_loop(loop: str) -> str:
    """Validate a ``loop=`` option.

    Examples
    --------
    >>> check_loop("paper")
    'paper'
    """
    if loop not in LOOPS:
        raise OptionError(f"loop must be one of {LOOPS}, not {loop!r}")
    return loop


@cuda.jit(device=True)
def _begin(frontier, conv, trace, r, thread, heavy):
    """Thread 0 clears the flag and the queue counters that round r + 1 will write,
    and records round r's frontier size in ``trace`` (while it has room)."""
    begin_round(conv, r, thread)
    begin_level(frontier[1], r, thread)
    if heavy:
        begin_level(frontier[3], r, thread)
    if thread == 0 and r < trace.shape[0]:
        size = frontier[1][r % 3]
        if heavy:
            size += frontier[3][r % 3]
        trace[r] = size


@functools.lru_cache(maxsize=None)
def round_kernel(device_op, first: bool, heavy: bool, one_row: bool = False):
    """A kernel running one step of round ``r`` (the paper loop); ``first`` begins the round.

    ``one_row``: the problem has one row, passed to the operator as the constant 1 so that
    the compiler drops the operators' loops over rows."""

    @cuda.jit
    def kernel(graph, frontier, state, conv, counters, trace, rows, r):
        thread = cuda.grid(1)
        if first:
            _begin(frontier, conv, trace, r, thread, heavy)
        count = device_op(graph, frontier, state, conv, 1 if one_row else rows, r, thread,
                          cuda.gridsize(1))
        flush_count(counters, RELAXATIONS, count)

    return kernel


def _kernel_jit(max_registers: int):
    """``cuda.jit`` for a kernel, capped at ``max_registers`` a thread when > 0 (ignored by
    the simulator, which has no registers to cap)."""
    if max_registers > 0 and not SIMULATOR:
        return cuda.jit(max_registers=max_registers)
    return cuda.jit


@functools.lru_cache(maxsize=None)
def persistent_kernel(device_ops: tuple, heavy: bool, one_row: bool = False, fills: int = 0,
                      max_registers: int = 0):
    """A cooperative kernel running every round of ``device_ops`` (1 to 3 steps);
    ``one_row`` as for :func:`round_kernel`.  With ``fills`` > 0 it takes one more
    argument, a tuple of that many fill jobs (:mod:`warpath.cuda.fills`: the query's
    set-up), and runs them before round 0, behind a grid barrier.  ``max_registers`` > 0
    caps the registers a thread (more blocks resident, so a larger grid, at the price of
    spills): a method whose rounds wait on memory latency may gain by it."""
    jit = _kernel_jit(max_registers)
    steps = len(device_ops)
    if not 1 <= steps <= 3:
        raise ValueError(f"a round has 1 to 3 steps, not {steps}")
    first, second, third = (device_ops + (device_ops[0],) * 2)[:3]

    @cuda.jit(device=True)
    def rounds(graph, frontier, state, conv, counters, trace, rows, max_rounds):
        thread = cuda.grid(1)
        stride = cuda.gridsize(1)
        grid = cuda.cg.this_grid()
        if one_row:
            rows = 1
        count = 0
        r = 0
        while r < max_rounds:
            _begin(frontier, conv, trace, r, thread, heavy)
            count += first(graph, frontier, state, conv, rows, r, thread, stride)
            if steps > 1:
                grid.sync()
                count += second(graph, frontier, state, conv, rows, r, thread, stride)
            if steps > 2:
                grid.sync()
                count += third(graph, frontier, state, conv, rows, r, thread, stride)
            grid.sync()
            r += 1
            if not round_changed(conv, r - 1):
                break
        if thread == 0:
            counters[ITERATIONS] = r
        flush_count(counters, RELAXATIONS, count)

    if not fills:
        @jit
        def kernel(graph, frontier, state, conv, counters, trace, rows, max_rounds):
            rounds(graph, frontier, state, conv, counters, trace, rows, max_rounds)

        return kernel
    prepare = fill_all(fills)

    @jit
    def kernel_after_fills(graph, frontier, state, conv, counters, trace, rows, max_rounds,
                           jobs):
        prepare(jobs, cuda.grid(1), cuda.gridsize(1))
        cuda.cg.this_grid().sync()
        rounds(graph, frontier, state, conv, counters, trace, rows, max_rounds)

    return kernel_after_fills


def enact(problem, steps, state, *, loop: str = "fast", frontier=None, max_rounds=None,
          first_check: int = 1, every: int = 1, trace=None, counted: str | None = None,
          max_registers: int = 0, later: bool = False):
    """Run rounds of ``steps`` on ``problem`` until one changes nothing.

    Parameters
    ----------
    problem : Problem
        Supplies the graph, rows, flags, counters and the launch tally.
    steps : list of Operator
        The steps of one round, in order.
    state : tuple
        The method's device arrays and scalars, handed to its device functions.
    loop : {"fast", "paper"}
    frontier : FrontierPair, optional
        The frontier queues the steps read and write (see :meth:`Problem.frontier`).
    max_rounds : int, optional
        The round bound; default the number of vertices (Bellman-Ford's bound).
    first_check, every : int
        Paper loop only: the first round after which the flag is read, then every how many.
    trace : device int64 array, optional
        Receives each round's frontier size (as many rounds as it holds).
    counted : str, optional
        The name under which ``stats`` reports the counter the steps keep themselves
        (slot :data:`~warpath.cuda.counters.COUNTED` of ``problem.counters``).
    max_registers : int
        Fast loop only: the persistent kernel's registers a thread, capped when > 0
        (see :func:`persistent_kernel`).
    later : bool
        Return the outcome unread: a :class:`PendingOutcome` (fast loop; the paper loop's
        is read already, a :class:`ReadOutcome`), whose ``wait()`` gives the pair below.
        Kernels launched before the wait (a method's passes after the rounds) then queue
        behind the rounds while the host waits, instead of after the host has read them.

    Returns
    -------
    stats : dict
        ``iterations`` (rounds run) and ``relaxations`` (and ``counted``).
    negative : bool
        Whether the bound was reached still changing, or a relax proved a negative cycle.
    """
    check_loop(loop)
    max_rounds = problem.n if max_rounds is None else int(max_rounds)
    tally = problem.tally
    if loop == "paper":
        head, tail, heavy = _fixed_arguments(problem, steps, frontier, trace)
        args = head + (state,) + tail
        problem.run_fills()
        kernels = [round_kernel(s.device, i == 0, heavy, problem.rows == 1)
                   for i, s in enumerate(steps)]
        sizes = [blocks_for(s.items(problem.n, problem.m, problem.rows)) for s in steps]

        def one_round(r):
            for kernel, blocks in zip(kernels, sizes):
                kernel[blocks, THREADS](*args, np.int64(r))
            tally.launch(len(kernels))

        rounds, negative = host_loop(one_round, problem.conv, tally, max_rounds,
                                     first_check, every)
        outcome = {**tally.read_counters(problem.counters, counted), "iterations": rounds}, negative
        return ReadOutcome(*outcome) if later else outcome
    jobs = problem.take_fills()   # the set-up, run by the kernel before round 0
    rounds = PersistentRounds(problem, steps, frontier=frontier, trace=trace, counted=counted,
                              fills=len(jobs), max_registers=max_registers)
    pending = rounds.start(state, jobs, tally, max_rounds)
    return pending if later else pending.wait()


class ReadOutcome:
    """An outcome read already (the paper loop's), for callers of ``enact(later=True)``:
    :meth:`wait` gives it, as :meth:`PendingOutcome.wait` does.

    Examples
    --------
    >>> ReadOutcome({"iterations": 3}, False).wait()
    ({'iterations': 3}, False)
    """

    def __init__(self, stats: dict, negative: bool):
        self._result = stats, negative

    def wait(self) -> tuple:
        """``(stats, negative_cycle)``."""
        return self._result


class PersistentRounds:
    """A method's rounds as one persistent kernel, prepared once and run by any number of
    queries over the same arrays (Gunrock's split of a search into init, reset and enact).

    :func:`enact` makes one per query.  A method whose device state is kept from query
    to query (:class:`~warpath.bfs.gpu_levels.LevelRun`) keeps one too: the kernel,
    its grid size and the arguments that do not change (the graph, the queues, the
    flags and counters, the trace) are settled on the first run, and a query only
    hands over its state and its set-up fills.

    Parameters
    ----------
    problem : Problem
        Supplies the graph, rows, flags and counters (its control block must stay the
        same for every run).
    steps : list of Operator
        The steps of one round, in order.
    frontier : FrontierPair, optional
        The queues the steps read and write.
    trace : device int64 array, optional
        Receives each round's frontier size.
    counted : str, optional
        As for :func:`enact`.
    fills : int
        How many fill jobs each run hands over (the kernel is compiled for that many).
    max_registers : int
        A cap on the kernel's registers a thread (0: none; see :func:`persistent_kernel`).

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.problem import Problem
    >>> from warpath.cuda.mappings import thread_per_edge
    >>> from warpath.cuda.operators import advance, _demo_gather, _demo_visit
    >>> problem = Problem(warpath.Graph.from_edges([0, 1], [1, 2], [3, 4]), 0, deferred=True)
    >>> jobs = problem.take_fills()   # clear the flags and counters, set the distances
    >>> rounds = PersistentRounds(problem, [advance(thread_per_edge(), _demo_gather,
    ...                                             _demo_visit)], fills=len(jobs))
    >>> state = (problem.distances[0], problem.inf)
    >>> pending = rounds.start(state, jobs, RunTally(), problem.n)   # run() waits at once
    >>> stats, negative = pending.wait()
    >>> problem.distances.copy_to_host().tolist(), negative
    ([[0, 3, 7]], False)
    """

    def __init__(self, problem, steps, *, frontier=None, trace=None, counted=None,
                 fills: int = 0, max_registers: int = 0):
        self._head, self._tail, heavy = _fixed_arguments(problem, steps, frontier, trace)
        self.steps = tuple(steps)
        self.fills = int(fills)
        self.max_registers = int(max_registers)
        self.kernel = persistent_kernel(tuple(s.device for s in steps), heavy,
                                        problem.rows == 1, self.fills, self.max_registers)
        self.items = max(s.items(problem.n, problem.m, problem.rows) for s in steps)
        self.fill = all(s.mapping.fills_gpu for s in steps)
        self.control = problem.control
        self.counted = counted
        self.blocks = None   # the grid size, found on the first run
        self._parameters = ParameterBlock()   # the last run's, rewritten where args change
        self._last_function = (None, None)   # the last run's argument types and function

    def run(self, state, jobs, tally: RunTally, max_rounds: int):
        """Run the rounds once, after the fill ``jobs``, on ``state`` (the method's device
        arrays and scalars); returns ``(stats, negative)`` as :func:`enact` does."""
        return self.start(state, jobs, tally, max_rounds).wait()

    def start(self, state, jobs, tally: RunTally, max_rounds: int) -> PendingOutcome:
        """:meth:`run` without the wait: the kernel launched and its outcome's copy
        queued behind it; the caller may do host work before :meth:`PendingOutcome.wait`
        (the class example runs one).
        """
        if len(jobs) != self.fills:
            raise ValueError(f"these rounds take {self.fills} fill jobs, not {len(jobs)}")
        query = (np.int64(max_rounds),) + ((tuple(jobs),) if jobs else ())
        args = self._head + (state,) + self._tail + query
        prepared = None if SIMULATOR else self._prepared(args)
        self.blocks = persistent_launch(self.kernel, args, self.items, tally, fill=self.fill,
                                        blocks=self.blocks, prepared=prepared,
                                        function=self._function_for(prepared, args))
        return PendingOutcome(self.control, tally, max_rounds, self.counted)

    def prepare(self, state, query: tuple) -> tuple:
        """:func:`~warpath.cuda.launch.prepare` of a run's arguments, ``head + (state,) +
        tail + query`` (``query``: the round bound, then the fill jobs' tuple if any): the
        last run's parameters with only what changed flattened again
        (:class:`~warpath.cuda.launch.ParameterBlock`: the graph, the queues and the
        standing fills are the same objects every run; the rows, the source's fills
        and a few scalars are not).

        Examples
        --------
        >>> import warpath
        >>> from warpath.cuda.problem import Problem
        >>> from warpath.cuda.mappings import thread_per_edge
        >>> from warpath.cuda.operators import advance, _demo_gather, _demo_visit
        >>> problem = Problem(warpath.Graph.from_edges([0], [1], [3]), 0)
        >>> rounds = PersistentRounds(problem, [advance(thread_per_edge(), _demo_gather,
        ...                                             _demo_visit)])
        >>> types, values = rounds.prepare((problem.distances[0], 5), (np.int64(10),))
        >>> len(types), values is None or values[-1] == 10   # none under the simulator
        (8, True)
        """
        return self._prepared(self._head + (state,) + self._tail + query)

    def _prepared(self, args: tuple) -> tuple:
        """:meth:`prepare` of the whole argument tuple."""
        try:
            return self._parameters.update(args)
        except _NotFlat:   # numba launches these: what prepare() says of them
            return prepare(args)

    def _function_for(self, prepared, args):
        """The kernel's compiled function for a run's ``prepared`` arguments: the last run's
        when their types are equal (comparing them, mostly the same objects, costs less
        than hashing them for the lookup)."""
        if prepared is None:
            return None
        types, function = self._last_function
        if prepared[0] is not types and prepared[0] != types:
            function = kernel_function(self.kernel, prepared, args)
            self._last_function = prepared[0], function
        return function


def _fixed_arguments(problem, steps, frontier, trace) -> tuple:
    """``(head, tail, heavy)`` of a run of ``steps``: the kernels' arguments before the
    method's state, ``(graph arrays, frontier queues)``, and after it, ``(flags, counters,
    trace, rows)``, and whether the frontier has a heavy queue.  The graph's tails only
    when a step maps over arcs, and stand-ins for the frontier and trace not given."""
    graph = problem.graph_arrays(tails=any(s.reads_tails for s in steps))
    frontier = problem.no_frontier() if frontier is None else frontier
    trace = _no_trace(problem.graph) if trace is None else trace
    return ((graph, frontier.arrays),
            (problem.conv.device, problem.counters, trace, np.int64(problem.rows)),
            frontier.heavy)


def _no_trace(dgraph):
    """An empty trace, made once per device graph (an allocation costs ~50 us)."""
    return dgraph.cached("no_trace", lambda: cuda.device_array(0, dtype=np.int64))


def run_once(problem, step, state, graph=None) -> None:
    """One pass of ``step`` as its own kernel, nothing read back (e.g. a recording pass).

    ``graph`` replaces the problem's ``(indptr, heads, weights, tails)`` tuple,
    e.g. to run over a list of arcs (H-BF's deferred arcs into sinks).

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.problem import Problem
    >>> from warpath.cuda.mappings import thread_per_edge
    >>> from warpath.cuda.operators import advance, _demo_gather, _demo_visit
    >>> problem = Problem(warpath.Graph.from_edges([0, 0], [1, 2], [3, 4]), 0)
    >>> run_once(problem, advance(thread_per_edge(), _demo_gather, _demo_visit),
    ...          (problem.distances[0], problem.inf))
    >>> problem.distances.copy_to_host().tolist(), problem.tally.host_syncs
    ([[0, 3, 4]], 0)
    """
    problem.run_fills()
    if graph is None:
        graph = problem.graph_arrays(tails=step.reads_tails)
    frontier = problem.no_frontier()
    blocks = blocks_for(step.items(problem.n, graph[1].shape[0], problem.rows))
    # one driver call: numba's own launch types the nested state at every call (0.4-0.9 ms
    # of host time on the H100 host for H-BF's state, docs/performance.md)
    launch(round_kernel(step.device, True, frontier.heavy, problem.rows == 1), blocks, THREADS,
           (graph, frontier.arrays, state, problem.conv.device, problem.counters,
            _no_trace(problem.graph), np.int64(problem.rows), np.int64(0)))
    problem.tally.launch()


def host_loop(step, conv, tally: RunTally, max_rounds: int, first_check: int = 1,
              every: int = 1):
    """Run ``step(r)`` for r = 0, 1, ... until a checked round changed nothing.

    Parameters
    ----------
    step : callable
        Launches the kernels of round ``r`` (and counts them in ``tally``).
    conv : ConvergenceFlags
        Read after round r when ``r + 1 == first_check``, then every ``every`` rounds.
    tally : RunTally
        Counts the flag reads as host syncs.
    max_rounds : int
        The round bound; the last round is always checked.

    Returns
    -------
    rounds : int
    negative_cycle : bool
        Whether round ``max_rounds`` still changed something, or a relax proved a negative cycle.

    Examples
    --------
    >>> host_loop(print, _NeverChanged(), RunTally(), 5, first_check=3)
    0
    1
    2
    (3, False)
    """
    first_check = max(1, min(first_check, max_rounds))
    every = max(1, every)
    for r in range(max_rounds):
        step(r)
        done = r + 1
        if done == max_rounds or (done >= first_check and (done - first_check) % every == 0):
            tally.sync()
            changed = conv.changed(r)
            if conv.negative_cycle:
                return done, True
            if not changed:
                return done, False
    return max_rounds, True


def persistent_launch(kernel, args, items: int, tally: RunTally, fill: bool = True,
                      blocks: int | None = None, prepared=None, function=None) -> int:
    """Launch ``kernel(*args)`` once as a persistent cooperative grid; returns its block count.

    The grid is as large as ``items`` needs, capped at what can be resident
    at once, and at a few blocks per SM unless the work is large and ``fill``
    (:func:`~warpath.cuda.runtime.cooperative_blocks`); or ``blocks``, what an earlier
    launch of the same kernel with arguments of the same types returned.  ``prepared``
    and ``function``: the arguments' :func:`~warpath.cuda.launch.prepare` and
    :func:`~warpath.cuda.launch.kernel_function`, when the caller has them.

    Examples
    --------
    >>> @cuda.jit
    ... def two_phases(a):
    ...     a[cuda.grid(1)] = 1
    ...     cuda.cg.this_grid().sync()
    ...     if cuda.grid(1) == 0:
    ...         a[0] = a[0] + a[a.shape[0] - 1]
    >>> a, tally = cuda.to_device(np.zeros(32, np.int32)), RunTally()
    >>> blocks = persistent_launch(two_phases, (a,), 32, tally)
    >>> int(a.copy_to_host()[0]), tally.launches
    (2, 1)
    """
    if prepared is None and not SIMULATOR:
        prepared = prepare(args)   # one pass over the arguments for both
    if blocks is None:
        blocks = cooperative_blocks(kernel, args, items, fill=fill,
                                    types=None if prepared is None else prepared[0])
    launch(kernel, blocks, THREADS, args, prepared, function)   # one driver call
    tally.launch()
    return blocks


def persistent_outcome(control, tally: RunTally, max_rounds: int, counted: str | None = None):
    """Read a persistent kernel's flags and counters, in one copy (one host sync).

    Parameters
    ----------
    control : Control
        The query's flags and counters.
    tally : RunTally
        Counts the read.
    max_rounds : int
        The round bound the kernel ran under.
    counted : str, optional
        As for :func:`enact`.

    Returns
    -------
    stats : dict
        ``iterations`` (rounds run) and ``relaxations`` (and ``counted``).
    negative_cycle : bool
        As for :func:`host_loop`.

    Examples
    --------
    >>> from .control import Control
    >>> control = Control()
    >>> control.counters.copy_to_device(np.array([7, 30, 0], np.int64))
    >>> persistent_outcome(control, RunTally(), 100)
    ({'iterations': 7, 'relaxations': 30}, False)
    """
    return PendingOutcome(control, tally, max_rounds, counted).wait()


class PendingOutcome:
    """What :func:`persistent_outcome` gives of a kernel just launched, its flags and
    counters already on their way: the copy is queued right behind the kernel, and
    :meth:`wait` (one host synchronisation) parses them.  Host work done between the
    launch and :meth:`wait` (a query's bookkeeping) overlaps the kernel instead of
    following it.

    The copy lands in a page-locked buffer of the host thread's own
    (:meth:`~warpath.cuda.control.Control.read_later`); an outcome made while another
    of the thread's is pending settles that one first, so each gets its own values.
    The wait is for the event recorded behind the copy, not for the stream: a query
    launched since (whose read settles this one) is not waited for.  On another thread
    (a result handed over) the kernel's context is made current there for the wait.
    Waits are serialised: a reader on another thread and the launching thread's next
    read take turns, and a wait that failed raises again on every wait.

    Examples
    --------
    >>> from .control import Control
    >>> control = Control()
    >>> control.counters.copy_to_device(np.array([7, 30, 0], np.int64))
    >>> tally = RunTally()
    >>> pending = PendingOutcome(control, tally, 100)
    >>> pending.wait(), tally.host_syncs
    (({'iterations': 7, 'relaxations': 30}, False), 1)
    """

    def __init__(self, control, tally: RunTally, max_rounds: int, counted: str | None = None):
        self._tally, self._max_rounds, self._counted = tally, max_rounds, counted
        self._result = self._error = None
        self._lock = threading.Lock()   # a reader on another thread, and this one's next read
        self._thread, self._context = threading.get_ident(), control.context
        self._host, self._done = control.read_later(self)

    def settle(self) -> None:
        """Wait for the copy and take the values out of the thread's buffer (once; the
        buffer is free afterwards, even if the wait raised).

        Examples
        --------
        >>> from .control import Control
        >>> pending = PendingOutcome(Control(), RunTally(), 10)
        >>> pending.settle(); pending.settle(); pending.wait()[0]
        {'iterations': 0, 'relaxations': 0}
        """
        with self._lock:
            if self._result is not None:
                return
            if self._error is not None:
                raise self._error
            try:
                here = threading.get_ident() == self._thread
                finish_read(None if here else self._context, self._done)
                flags, counts = self._host[:FLAG_SLOTS], self._host[FLAG_SLOTS:]
                stats = counter_stats(counts, self._counted)
                rounds = stats["iterations"]
                negative = bool(flags[NEGATIVE_CYCLE]) or (
                    rounds >= self._max_rounds and bool(flags[(rounds - 1) % 3]))
                self._result = stats, negative
            except BaseException as error:
                self._error = error   # every later wait raises it too
                raise
            finally:
                read_done(self)
            self._host = self._done = None
            self._tally.sync()

    def wait(self) -> tuple:
        """``(stats, negative_cycle)`` as :func:`persistent_outcome` gives them."""
        self.settle()
        return self._result


class _NeverChanged:
    """A stand-in for ConvergenceFlags whose rounds never change anything (doctests)."""

    negative_cycle = False

    def changed(self, r):
        return False
