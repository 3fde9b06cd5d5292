"""Push or pull, chosen every round on the device: the steps of direction-optimizing traversals.

Beamer, Asanović & Patterson's direction-optimizing BFS (SC 2012) expands a
small frontier by *pushing* (the frontier's out-arcs: an
:func:`~warpath.cuda.operators.advance`) and a large one by *pulling*: every
vertex not yet visited scans its in-arcs and stops at the first that comes
from the frontier, so most arcs of a dense middle level are never read.  This
module is the engine's side of it, usable by any method:

- :func:`pull`: the pull step, one thread per listed vertex (the vertices
  with in-arcs, :meth:`DeviceGraph.vertices_with_arcs` of the reverse graph:
  on rmat(22, 16) 43% of the vertices have none and need no thread).
  ``select(state, row, v, r) -> bool`` says whether v looks at all (not yet
  visited); ``probe(state, row, v, u, e, r) -> bool`` reads whether in-arc
  ``u -> v`` (index ``e`` in the reverse CSR) ends v's scan, and ``take(state,
  row, v, u, e, r, conv)`` writes v for the arc that ended it; with
  ``output=QUEUE`` such a v enters the next frontier.  Probes go four at a
  time, their loads issued together (a scan waits on memory a quarter as
  often).  With a live list (:mod:`~warpath.cuda.live`) a pull walks only the
  listed vertices the pull before it left unvisited.  The reverse CSR is
  ``state[at]`` (offsets) and ``state[at + 1]`` (tails), the list ``state[at +
  2]``: places in the state rather than a device function that returns the
  arrays, which numba does not allow.
- :func:`pull_fold`: a pull that folds a value over a vertex's in-arcs (an OR of
  frontier words, for many searches at once) until a device function says it is
  complete, instead of stopping at the first in-arc that fits.
- :func:`either`: a step that runs one of two steps, picked every round by a
  device function ``choose(graph, frontier, state, r, thread) -> bool`` (True:
  the second).  Every thread evaluates it on values the previous round left
  complete behind a grid barrier, so the whole grid takes the same branch
  with no barrier of its own, in the persistent kernel and the paper loop alike.
- :func:`frontier_degrees`: a step that sums, over the frontier the round has
  just built, the out-degrees (Beamer's m_f, the arcs a push would check) and
  the in-degrees (added to a running total: the arcs into visited vertices,
  so m_u, the arcs a pull would check, is m minus it), for the next round's ``choose``.

Examples
--------
>>> from warpath.cuda.mappings import frontier
>>> from warpath.cuda.operators import QUEUE, advance, _demo_gather, _demo_visit
>>> push = advance(frontier(), _demo_gather, _demo_visit, QUEUE)
>>> pulling = pull(1, _demo_select, _demo_probe, _demo_take)
>>> step = either(_demo_never, push, pulling)
>>> step.items(10, 40, 1), pulling is pull(1, _demo_select, _demo_probe, _demo_take)
(10, True)
>>> step is either(_demo_never, push, pulling)
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numba import cuda

from .counters import flush_count
from .live import narrowing
from .mappings import thread_per_vertex
from .operators import NO_OUTPUT, QUEUE, Operator, pusher

#: Columns of a tally array (shape (3, 2), one row per round in rotation).
OUT_ARCS, VISITED_IN_ARCS = 0, 1


@functools.lru_cache(maxsize=None)
def pull(at: int, select, probe, take, output: int = QUEUE, heavy_out: int = 0,
         unroll: int = 4, tally_at: int = -1, symmetric: bool = False,
         live_at: int = -1) -> Operator:
    """The pull step (one thread per listed vertex; see the module notes), over the reverse
    CSR ``state[at]``, ``state[at + 1]`` and the vertex list ``state[at + 2]``.

    ``probe(state, row, v, u, e, r) -> bool`` only reads: whether in-arc ``u -> v``
    (index ``e`` of the reverse CSR) ends v's scan; ``take(state, row, v, u, e, r,
    conv)`` then writes v (v's thread alone writes it).  A thread probes ``unroll``
    in-arcs at once (1 or 4): their loads are issued together, so a long scan waits
    on memory a quarter as often; the first arc probed true is the one taken.
    ``heavy_out`` routes vertices of more out-arcs to the heavy queue, as
    :func:`~warpath.cuda.operators.advance` does, so that a push round after
    this one finds them where it looks.  Relaxations: the in-arcs probed.

    With ``tally_at``, the step also sums the out- and in-degrees of the vertices it
    takes (the next frontier) into row ``(r + 1) % 3`` of the tally ``state[tally_at]``,
    as :func:`frontier_degrees` would from the queue, which then skips its own pass over
    it (its ``tallied``): the in-degree is the scan's bounds, already loaded, and the
    out-degree too when the graph is its own reverse (``symmetric``).

    With ``live_at``, the step walks only the positions of the list that the pull before
    it left unvisited (a :class:`~warpath.cuda.live.LiveList` at ``state[live_at]``,
    ``state[live_at + 1]``, turned by a later step of the round:
    :func:`~warpath.cuda.live.live_turn`): after a big pull, most listed vertices are
    visited and the next pull skips them without a check each.
    """
    if unroll not in (1, 4):
        raise ValueError(f"unroll must be 1 or 4, not {unroll}")
    queued = output == QUEUE
    push = pusher(True)
    tails_at = at + 1  # constants of the closure: numba indexes a tuple by constants only
    listed_at = at + 2
    tallies = tally_at >= 0
    add_degrees = _tally_adder(tally_at)
    span, position, keep, passed = narrowing(live_at)

    @cuda.jit(device=True)
    def scan_one(state, v, r, conv, first, last, tails):
        """Probe v's in-arcs first .. last - 1 one at a time; (taken, probed)."""
        for e in range(first, last):
            u = tails[e]
            if probe(state, 0, v, u, e, r):
                take(state, 0, v, u, e, r, conv)
                return True, e - first + 1
        return False, last - first

    @cuda.jit(device=True)
    def scan_four(state, v, r, conv, first, last, tails):
        """Probe v's in-arcs four at a time (indices past the last clamped to it: loads
        without branches, so the compiler issues the four together); (taken, probed)."""
        probed = 0
        for e in range(first, last, 4):
            e1, e2, e3 = min(e + 1, last - 1), min(e + 2, last - 1), min(e + 3, last - 1)
            u0, u1, u2, u3 = tails[e], tails[e1], tails[e2], tails[e3]
            p0, p1 = probe(state, 0, v, u0, e, r), probe(state, 0, v, u1, e1, r)
            p2, p3 = probe(state, 0, v, u2, e2, r), probe(state, 0, v, u3, e3, r)
            probed += min(4, last - e)
            if p0 or p1 or p2 or p3:
                if p0:
                    take(state, 0, v, u0, e, r, conv)
                elif p1:
                    take(state, 0, v, u1, e1, r, conv)
                elif p2:
                    take(state, 0, v, u2, e2, r, conv)
                else:
                    take(state, 0, v, u3, e3, r, conv)
                return True, probed
        return False, probed

    scan = scan_four if unroll == 4 else scan_one

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        out_arcs = 0
        in_arcs = 0
        indptr, tails, listed = state[at], state[tails_at], state[listed_at]
        current, n = span(state, listed.shape[0])
        for start in range(0, n, stride):  # one trip count per warp (enqueue)
            i = start + thread
            found = False
            looked = False
            v = 0
            p = 0
            if i < n:
                p = position(state, current, i)
                v = listed[p]
                if select(state, 0, v, r):
                    looked = True
                    first, last = indptr[v], indptr[v + 1]
                    found, probed = scan(state, v, r, conv, first, last, tails)
                    count += probed
                    if tallies and found:
                        in_arcs += last - first
                        if symmetric:
                            out_arcs += last - first
                        else:
                            out_arcs += graph[0][v + 1] - graph[0][v]
            keep(state, current, p, looked and not found)
            if queued:
                push(graph, frontier, v, found, r, heavy_out, conv)
        add_degrees(state, r, out_arcs, in_arcs)   # every lane: one trip count per warp
        passed(state, thread)
        return count

    return Operator(op, thread_per_vertex())


@functools.lru_cache(maxsize=None)
def _tally_adder(tally_at: int):
    """A device function adding a thread's out- and in-degree sums to row ``(r + 1) % 3``
    of the tally ``state[tally_at]``; one that does nothing for ``tally_at`` -1."""
    if tally_at < 0:
        @cuda.jit(device=True)
        def nothing(state, r, out_arcs, in_arcs):
            return

        return nothing

    @cuda.jit(device=True)
    def add(state, r, out_arcs, in_arcs):
        row = state[tally_at][(r + 1) % 3]
        flush_count(row, OUT_ARCS, out_arcs)
        flush_count(row, VISITED_IN_ARCS, in_arcs)

    return add


@functools.lru_cache(maxsize=None)
def pull_fold(at: int, start, load, fold, done, finish, output: int = NO_OUTPUT,
              heavy_out: int = 0, merge=None) -> Operator:
    """A pull that folds a value over in-arcs instead of stopping at the first that fits:
    one thread per listed vertex v, over the reverse CSR ``state[at]``, ``state[at + 1]``
    and the vertex list ``state[at + 2]`` (as :func:`pull`).

    ``start(state, v, r) -> (looks, acc)`` opens v's fold (``looks`` False: v is
    skipped); for each in-arc ``u -> v``, ``load(state, u, r) -> x`` reads u's
    part and ``acc = fold(state, v, u, x, acc, r)`` joins it; after every group of
    four arcs ``done(state, v, acc, r) -> bool`` may end the scan; then
    ``finish(state, v, acc, r, conv) -> bool`` writes v, and with ``output=QUEUE`` a
    ``True`` puts v in the next frontier.  Only v's thread writes v, so ``fold`` and
    ``finish`` need no atomics for v's own entries.  The four loads of a group are
    issued before their folds, so a long scan waits on memory a quarter as often.
    MS-BFS's pull (Then et al.): v ORs the frontier words of its in-neighbours and
    stops once every search has reached it.  Relaxations: the in-arcs read.

    With ``merge``, threads take *segments* of in-arcs instead of vertices:
    ``state[at + 2]`` and ``state[at + 3]`` are :meth:`DeviceGraph.arc_segments` of the
    reverse graph (each segment's first arc, and its vertex, negated when the vertex's
    in-arcs span several segments).  A thread scans one segment, at most the segment
    length of arcs, so a vertex of 50,000 in-arcs never holds its round for milliseconds
    in one thread, and a vertex found complete by ``start`` skips its whole segment with
    one check.  A vertex of one segment is folded and finished as above; the segments
    of a split vertex each join their arcs into it with ``acc = merge(state, v, u, x,
    acc, r, conv)``, by atomics (several threads share v), and ``finish`` is not called
    for it, so ``output`` must be ``NO_OUTPUT``.

    Examples
    --------
    >>> from warpath.cuda.operators import QUEUE
    >>> step = pull_fold(1, _demo_fold_start, _demo_load, _demo_fold, _demo_done,
    ...                  _demo_finish, QUEUE)
    >>> step is pull_fold(1, _demo_fold_start, _demo_load, _demo_fold, _demo_done,
    ...                   _demo_finish, QUEUE)
    True
    """
    queued = output == QUEUE
    if merge is not None and queued:
        raise ValueError("a pull that merges split vertices' arcs cannot queue them")
    push = pusher(True)
    tails_at = at + 1  # constants of the closure: numba indexes a tuple by constants only
    listed_at, owners_at = at + 2, at + 3

    @cuda.jit(device=True)
    def fold_alone(state, v, u, x, acc, r, conv):
        return fold(state, v, u, x, acc, r)

    scan = _scanner(load, fold_alone, done)

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        indptr, tails, listed = state[at], state[tails_at], state[listed_at]
        n = listed.shape[0]
        for begin in range(0, n, stride):  # one trip count per warp (enqueue)
            i = begin + thread
            keep = False
            v = 0
            if i < n:
                v = listed[i]
                looks, acc = start(state, v, r)
                if looks:
                    acc, read = scan(state, v, r, acc, indptr[v], indptr[v + 1], tails, conv)
                    count += read
                    keep = finish(state, v, acc, r, conv)
            if queued:
                push(graph, frontier, v, keep, r, heavy_out, conv)
        return count

    if merge is None:
        return Operator(op, thread_per_vertex())
    scan_shared = _scanner(load, merge, done)

    @cuda.jit(device=True)
    def op_segments(graph, frontier, state, conv, rows, r, thread, stride):
        count = 0
        tails, firsts, owners = state[tails_at], state[listed_at], state[owners_at]
        for i in range(thread, owners.shape[0], stride):
            owner = owners[i]
            v = owner if owner >= 0 else ~owner
            looks, acc = start(state, v, r)
            if looks:
                first, last = firsts[i], firsts[i + 1]
                if owner >= 0:
                    acc, read = scan(state, v, r, acc, first, last, tails, conv)
                    finish(state, v, acc, r, conv)
                else:
                    acc, read = scan_shared(state, v, r, acc, first, last, tails, conv)
                count += read
        return count

    return Operator(op_segments, thread_per_vertex())


def _scanner(load, join, done):
    """A device function folding v's in-arcs ``first .. last - 1`` with ``join(state, v,
    u, x, acc, r, conv)``, four loads at a time (indices past the last clamped to it,
    their joins skipped), until ``done``; it returns (acc, arcs read)."""

    @cuda.jit(device=True)
    def scan(state, v, r, acc, first, last, tails, conv):
        read = 0
        for e in range(first, last, 4):
            e1, e2, e3 = min(e + 1, last - 1), min(e + 2, last - 1), min(e + 3, last - 1)
            u0, u1, u2, u3 = tails[e], tails[e1], tails[e2], tails[e3]
            x0, x1 = load(state, u0, r), load(state, u1, r)
            x2, x3 = load(state, u2, r), load(state, u3, r)
            acc = join(state, v, u0, x0, acc, r, conv)
            if e + 1 < last:
                acc = join(state, v, u1, x1, acc, r, conv)
            if e + 2 < last:
                acc = join(state, v, u2, x2, acc, r, conv)
            if e + 3 < last:
                acc = join(state, v, u3, x3, acc, r, conv)
            read += min(4, last - e)
            if done(state, v, acc, r):
                break
        return acc, read

    return scan


@dataclass(frozen=True)
class Either(Operator):
    """A step running ``device`` (the first step's, or the second's) each round: the grid is
    sized for the larger of the two."""

    other: Operator = None

    def items(self, num_vertices: int, num_edges: int, rows: int) -> int:
        """Threads for the larger of the two steps."""
        return max(self.mapping.items(num_vertices, num_edges, rows),
                   self.other.items(num_vertices, num_edges, rows))

    @property
    def reads_tails(self) -> bool:
        """Whether either step maps over arcs."""
        return self.mapping.kind == "edges" or self.other.reads_tails


@functools.lru_cache(maxsize=None)
def either(choose, first: Operator, second: Operator) -> Operator:
    """``second`` in the rounds where ``choose(graph, frontier, state, r, thread)`` is
    True, else ``first`` (see the module notes and the example there)."""
    one, two = first.device, second.device

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        if choose(graph, frontier, state, r, thread):
            return two(graph, frontier, state, conv, rows, r, thread, stride)
        return one(graph, frontier, state, conv, rows, r, thread, stride)

    return Either(op, first.mapping, second)


@functools.lru_cache(maxsize=None)
def frontier_degrees(at: int, tally_at: int, tallied=None) -> Operator:
    """Sum the next frontier's out- and in-degrees into ``state[tally_at]`` (int64, (3, 2)),
    the in-degrees from the reverse CSR offsets ``state[at]``.

    After round r, row ``(r + 1) % 3`` holds the out-arcs of frontier r + 1
    (:data:`OUT_ARCS`) and the in-arcs of every vertex of frontiers 0 .. r + 1
    (:data:`VISITED_IN_ARCS`, a running total: thread 0 adds row ``r % 3``'s).
    Rows rotate as the queue counters do: round r fills row r + 1, which round
    r + 1 reads, and thread 0 clears row r + 2, last read in round r - 1.
    The caller starts row 0 with frontier 0 (the source) and rows 1, 2 at zero.
    ``tallied(state, r) -> bool``, when given, says that round r's expand step summed
    the degrees already (a :func:`pull` with ``tally_at``): the queue is not read then.
    """
    summed = tallied is not None
    if not summed:
        tallied = _never_tallied

    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        sums = state[tally_at]
        if thread == 0:
            sums[(r + 2) % 3, OUT_ARCS] = 0
            sums[(r + 2) % 3, VISITED_IN_ARCS] = 0
        out_arcs = 0
        in_arcs_sum = 0
        if not (summed and tallied(state, r)):
            indptr, in_indptr = graph[0], state[at]
            out_light, in_light = _degree_sums(frontier[0][(r + 1) % 2],
                                               frontier[1][(r + 1) % 3], indptr, in_indptr,
                                               thread, stride)
            out_heavy, in_heavy = _degree_sums(frontier[2][(r + 1) % 2],
                                               frontier[3][(r + 1) % 3], indptr, in_indptr,
                                               thread, stride)
            out_arcs = out_light + out_heavy
            in_arcs_sum = in_light + in_heavy
        if thread == 0:
            in_arcs_sum += sums[r % 3, VISITED_IN_ARCS]
        row = sums[(r + 1) % 3]
        flush_count(row, OUT_ARCS, out_arcs)
        flush_count(row, VISITED_IN_ARCS, in_arcs_sum)
        return 0

    return Operator(op, thread_per_vertex())


@cuda.jit(device=True)
def _never_tallied(state, r):
    return False


@cuda.jit(device=True)
def _degree_sums(queue, size, indptr, in_indptr, thread, stride):
    """This thread's share of the out- and in-degrees of ``queue[:size]``."""
    out_arcs = 0
    in_arcs = 0
    for i in range(thread, size, stride):
        v = queue[i]
        out_arcs += indptr[v + 1] - indptr[v]
        in_arcs += in_indptr[v + 1] - in_indptr[v]
    return out_arcs, in_arcs


class _DirectionArrays:
    """One int64 block of 12: the tally (3, 2), then the choices (3, 2), with the views a
    query's fills and kernels take, made once (the block lives in a scratch pool)."""

    def __init__(self):
        block = cuda.device_array(12, dtype=np.int64)
        self.tally, self.choices = block[:6].reshape(3, 2), block[6:].reshape(3, 2)
        self.first_row, self.rest = block[:2], block[2:]


def direction_arrays(problem):
    """The tally and choices of direction-optimizing queries, borrowed from ``problem``'s
    scratch pool (given back by its finish) for as long as it runs queries; each query
    resets them with :func:`restart_direction`.

    Returns
    -------
    _DirectionArrays
        ``tally`` and ``choices``, int64 (3, 2) each, and the views the fills take.
    """
    return problem.scratch("direction", _DirectionArrays)


def restart_direction(problem, arrays, out_arcs: int, in_arcs: int) -> None:
    """Queue the two fills of ``problem`` (:meth:`~warpath.cuda.problem.Problem.fill`: run
    by its first kernel when it is deferred) that reset ``arrays`` for a query:
    the tally's row 0 holds frontier 0's out- and in-degrees ``out_arcs`` and ``in_arcs``,
    its other rows and the choices (each round's direction and frontier size) are zeros.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.problem import Problem
    >>> problem = Problem(warpath.generators.ring(4, seed=0), 0)
    >>> arrays = direction_arrays(problem)
    >>> restart_direction(problem, arrays, 3, 2)
    >>> arrays.tally.copy_to_host().tolist(), int(arrays.choices.copy_to_host().sum())
    ([[3, 2], [0, 0], [0, 0]], 0)
    """
    problem.fill(arrays.first_row, 2, in_arcs, 0, out_arcs,
                 standing=out_arcs == 0 and in_arcs == 0)   # one job for every such query
    problem.fill(arrays.rest, 10, 0, standing=True)
    problem.settle()


@cuda.jit(device=True)
def _demo_never(graph, frontier, state, r, thread):
    """Docstring example: always the first step."""
    return False


@cuda.jit(device=True)
def _demo_select(state, row, v, r):
    """Docstring example: every vertex looks."""
    return True


@cuda.jit(device=True)
def _demo_probe(state, row, v, u, e, r):
    """Docstring example: the first in-arc ends the scan."""
    return True


@cuda.jit(device=True)
def _demo_take(state, row, v, u, e, r, conv):
    """Docstring example: nothing written."""


@cuda.jit(device=True)
def _demo_fold_start(state, v, r):
    """Docstring example: every vertex folds from zero."""
    return True, 0


@cuda.jit(device=True)
def _demo_load(state, u, r):
    """Docstring example: each in-neighbour counts one."""
    return 1


@cuda.jit(device=True)
def _demo_fold(state, v, u, x, acc, r):
    """Docstring example: a sum."""
    return acc + x


@cuda.jit(device=True)
def _demo_done(state, v, acc, r):
    """Docstring example: never ends early."""
    return False


@cuda.jit(device=True)
def _demo_finish(state, v, acc, r, conv):
    """Docstring example: nothing written, nothing queued."""
    return False
