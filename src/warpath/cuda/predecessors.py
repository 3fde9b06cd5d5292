"""The predecessor recording pass, run once after the distances have converged.

Okuyama et al. (section 5.3) record, for every vertex v, an in-neighbour u
with ``d[u] + w(u, v) == d[v]`` (a *tight* arc) in one extra pass.  Here that
pass is one :func:`~warpath.cuda.operators.advance` over all arcs (each tight
arc offers its tail to its head and the largest tail wins, deterministically),
which needs no reverse graph on the device.

Any tight in-arc is a correct choice only while distances strictly increase
along arcs, i.e. for positive integer weights.  With zero or negative weights
tight arcs can close a cycle (u -> v and v -> u of weight 0), and
:meth:`SSSPResult.path` would never reach the source; float rounding can
absorb a tiny weight the same way.  A cycle of tight arcs has weight 0, so
graphs with negative weights but no zero-weight cycle (most of them) still
get a tree from the one pass.  So the pass runs anyway (except on an
undirected graph with an edge of weight 0, whose two arcs are tight both ways
between ends at one distance: there the search below runs at once), and then
pointer jumping checks its offers: every vertex's ancestor doubles its distance up the
offers each round (``anc[v] = anc[anc[v]]``), so within ceil(log2 n) + 1 rounds
every chain has reached the source, unless one loops (the check's bound is one
round more: the quiet round that ends it).  Only when one loops is
the answer a breadth-first search from the source over tight arcs instead (an
advance over a frontier, run by the enactor until the frontier is empty):
every vertex is claimed once, by a vertex of the previous level, so the
predecessors form a tree.  That search balances its arcs as hbf's rounds do
(virtual warps of 4 to 32 lanes, and vertices of more than
:data:`HEAVY_DEGREE` arcs expanded by the whole grid).  On R-MAT(21, 10)
with negative weights (H200), the search took 40 ms with a thread a vertex
(a hub's 10^5 arcs walked by one thread) and 4.6 ms balanced.

Examples
--------
>>> import numpy as np, warpath
>>> from warpath.cuda.problem import Problem
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 0, 2], [0, 0, 3])
>>> d = cuda.to_device(np.array([[0, 0, 3]], dtype=np.int32))
>>> record_predecessors(Problem(g, 0, distances=d)).copy_to_host().tolist()
[-1, 0, 0]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .atomics import claim
from .enactor import enact, run_once
from .flags import NEGATIVE_CYCLE, mark_changed
from .mappings import frontier, thread_per_edge
from .operators import QUEUE, advance, filter_vertices
from .recycled import recycled_rows

#: Vertices of more arcs are expanded by the whole grid in the search over tight arcs
#: (H-BF's threshold, hbf's default ``high_degree``).
HEAVY_DEGREE = 4096
#: The search's virtual warps: a power of two in this range, chosen every level.
SEARCH_LANES = (4, 32)


@cuda.jit(device=True)
def _gather_reached(state, row, u, r):
    """Expand u only if it was reached; carry d[u]."""
    du = state[0][u]
    return du != state[2], du


@cuda.jit(device=True)
def _offer_tight_arc(state, row, u, du, v, w, e, r, conv):
    """Okuyama 5.3 recording, arc-parallel: a tight arc u -> v offers u; the largest tail wins.
    The offer is read first: a vertex with thousands of tight in-arcs (an R-MAT hub) takes
    an atomic only from tails above the best so far, not one from each."""
    if v != state[3] and du + w == state[0][v] and state[1][v] < u:
        cuda.atomic.max(state[1], v, u)
    return False


@cuda.jit(device=True)
def _claim_tight_arc(state, row, u, du, v, w, e, r, conv):
    """BFS over tight arcs: the first tail to claim v is its predecessor, and v is expanded next."""
    return du + w == state[0][v] and claim(state[1], v, u, state[4])


@cuda.jit(device=True)
def _jump(state, row, v, r, conv):
    """One round of pointer jumping over the offers ``state[0]`` into ``state[1]`` (round 0
    reads the offers, later rounds jump in place): v's ancestor a moves to a's own, unless a
    is the source or none.  An ancestor that is its own (a self-loop of 0, or a cycle
    folded) proves a loop, and one that has none a reached vertex without a tight in-arc:
    either way the chain does not reach the source, and the flag of a negative cycle says
    so (read by the host only, :mod:`warpath.cuda.flags`)."""
    offers, anc, source = state[0], state[1], state[2]
    a = offers[v] if r == 0 else anc[v]
    moved = False
    if a >= 0 and a != source:
        b = offers[a] if r == 0 else anc[a]
        if b == a or b < 0:
            conv[NEGATIVE_CYCLE] = 1
        else:
            a, moved = b, True
            mark_changed(conv, r)
    if r == 0 or moved:   # round 0 copies every offer; later rounds write what moved
        anc[v] = a
    return False


def _strictly_increasing(dgraph, dtype) -> bool:
    """Whether every arc strictly increases a distance: positive integer weights, or
    positive float weights too large for rounding to absorb at the largest distance."""
    if dgraph.min_weight <= 0:
        return False
    if np.dtype(dtype).kind != "f":
        return True
    largest = float(dgraph.max_abs_weight) * max(dgraph.num_vertices - 1, 1)
    return float(dgraph.min_weight) > 4 * np.finfo(dtype).eps * largest


def record_predecessors(problem):
    """Predecessors (device array, -1 for the source and unreachable vertices) of a
    converged one-row :class:`~warpath.cuda.problem.Problem`.

    The passes run on problems of their own (fresh flags and counters, the same
    distances and launch tally), so the method's counters stay its own.

    Examples
    --------
    >>> import numpy as np, warpath
    >>> from warpath.cuda.problem import Problem
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 3])
    >>> d = cuda.to_device(np.array([[0, 2, 5]], dtype=np.int32))
    >>> record_predecessors(Problem(g, 0, distances=d)).copy_to_host().tolist()
    [-1, 0, 1]
    """
    return queue_predecessors(problem).result()


def queue_predecessors(problem) -> "QueuedPredecessors":
    """Queue the predecessor passes of a one-row problem without waiting for any: the
    offers and, unless weights strictly increase distances, their check.  The problem's
    rounds may still be running: the passes queue behind them (see
    :meth:`~warpath.cuda.problem.Problem.finish_sssp_later`).  An undirected graph with
    an edge of weight 0 queues nothing: its search over tight arcs runs in
    :meth:`QueuedPredecessors.result`, after the reads.

    Examples
    --------
    >>> import numpy as np, warpath
    >>> from warpath.cuda.problem import Problem
    >>> g = warpath.Graph.from_edges([0, 1, 1], [1, 2, 0], [0, 0, 0])   # ties, no loop
    >>> d = cuda.to_device(np.array([[0, 0, 0]], dtype=np.int32))
    >>> queue_predecessors(Problem(g, 0, distances=d)).result().copy_to_host().tolist()
    [-1, 0, 1]
    """
    from .problem import Problem

    graph, source = problem.graph, problem.source
    index = np.dtype(graph.indices.dtype)
    pred = recycled_rows(1, graph.num_vertices, index)[0]   # the result's, like its distances
    state = (problem.row, pred, problem.inf, index.type(source), index.type(-1))
    if _offers_would_loop(graph):   # straight to the search, after the reads
        return QueuedPredecessors(problem, pred, state, None, search=True)
    # the pass's fills (its flags, the predecessors) run in one launch before its kernel
    recording = Problem(graph, source, distances=problem.distances, tally=problem.tally,
                        deferred=True)
    recording.fill(pred, graph.num_vertices, -1)
    if graph.num_edges:
        run_once(recording, advance(thread_per_edge(), _gather_reached, _offer_tight_arc),
                 state)
    recording.release_scratch()   # runs the fills when no pass did
    check = None if _strictly_increasing(graph, problem.dtype) else _OfferCheck(problem, pred)
    return QueuedPredecessors(problem, pred, state, check)


def _offers_would_loop(graph) -> bool:
    """Whether the offers are likely to loop: an undirected graph with an edge of weight
    0, whose two arcs are tight both ways between ends at one distance (each end offers
    itself to the other when it is the other's largest tight tail).  Not certain (another
    tight tail may be larger at both ends), but likely enough on such graphs that the
    search runs at once, not after a pass and a check that would mostly find a loop."""
    return not graph.directed and graph.num_edges > 0 and graph.min_weight == 0


class QueuedPredecessors:
    """Predecessor passes queued by :func:`queue_predecessors`; :meth:`result` waits for
    the offers' check, if any, and searches the tight arcs when an offer chain loops (or
    at once, ``search``, when the offers were not even made).

    Examples
    --------
    >>> import numpy as np, warpath
    >>> from warpath.cuda.problem import Problem
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, 0, 0])   # 1 <-> 2 of 0
    >>> d = cuda.to_device(np.array([[0, 1, 1]], dtype=np.int32))
    >>> queue_predecessors(Problem(g, 0, distances=d)).result().copy_to_host().tolist()
    [-1, 0, 1]
    """

    def __init__(self, problem, pred, state, check, search: bool = False):
        self._problem, self._pred, self._state, self._check = problem, pred, state, check
        self._search = search

    def result(self):
        """The predecessors (device array), once they form a tree."""
        check, self._check = self._check, None
        if self._search or (check is not None and not check.reaches_the_source()):
            self._search = False
            return _search_tight_arcs(self._problem, self._pred, self._state)
        return self._pred

    def discard(self) -> None:
        """Give the check's scratch back unread (the rounds found a negative cycle)."""
        check, self._check = self._check, None
        if check is not None:
            check.reaches_the_source()


class _OfferCheck:
    """Whether every offer chain of ``pred`` (one pass's tight arcs) reaches the source:
    pointer jumping, ceil(log2 n) + 2 rounds at most, queued as one persistent kernel."""

    def __init__(self, problem, pred):
        from .problem import Problem

        graph, source = problem.graph, problem.source
        self._jumping = Problem(graph, source, distances=problem.distances,
                                tally=problem.tally, deferred=True)
        anc = self._jumping.scratch(("ancestors", pred.dtype.str),
                                    lambda: cuda.device_array_like(pred))
        rounds = int(np.ceil(np.log2(max(graph.num_vertices, 2)))) + 2
        self._pending = enact(self._jumping, [filter_vertices(_jump)],
                              (pred, anc, pred.dtype.type(source)), max_rounds=rounds,
                              later=True)

    def reaches_the_source(self) -> bool:
        """Wait for the check; its scratch (the ancestors, the flags) goes back after."""
        _, loops = self._pending.wait()
        self._jumping.release_scratch()
        return not loops


def _search_tight_arcs(problem, pred, state):
    """The predecessors as a breadth-first search from the source over tight arcs."""
    from .problem import Problem

    graph, source = problem.graph, problem.source
    searching = Problem(graph, source, distances=problem.distances, tally=problem.tally,
                        deferred=True)
    # -1 everywhere, but the source claimed (no arc claims it)
    searching.fill(pred, graph.num_vertices, -1, source, source)
    queues = searching.frontier(heavy_degree=HEAVY_DEGREE)
    search = advance(frontier(SEARCH_LANES, heavy_degree=HEAVY_DEGREE), _gather_reached,
                     _claim_tight_arc, QUEUE, HEAVY_DEGREE)
    enact(searching, [search], state, frontier=queues)
    searching.fill(pred, 0, 0, source, -1)   # the source has none: a fill, not a copy
    searching.release_scratch()   # runs it
    return pred
