"""The predecessor recording pass, run once after the distances have converged.

Okuyama et al. (section 5.3) record, for every vertex v, an in-neighbour u
with ``d[u] + w(u, v) == d[v]`` (a *tight* arc) in one extra pass.  Here that
pass is one :func:`~warpath.cuda.operators.advance` over all arcs (each tight
arc offers its tail to its head and the largest tail wins, deterministically),
which needs no reverse graph on the device.

Any tight in-arc is a correct choice only while distances strictly increase
along arcs, i.e. for positive integer weights.  With zero or negative weights
two tight arcs can form a cycle (u -> v and v -> u of weight 0), and
:meth:`SSSPResult.path` would never reach the source; float rounding can
absorb a tiny weight the same way.  Then the pass is a breadth-first search
from the source over tight arcs instead (an advance over a frontier, run by
the enactor until the frontier is empty): every vertex is claimed once, by a
vertex of the previous level, so the predecessors form a tree.

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
from .mappings import frontier, thread_per_edge
from .operators import QUEUE, advance
from .recycled import recycled_rows


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


def _strictly_increasing(dgraph, dtype) -> bool:
    """Whether every arc strictly increases a distance: positive integer weights, or
    positive float weights too large for rounding to absorb at the largest distance."""
    if dgraph.min_weight <= 0:
        return False
    if np.dtype(dtype).kind != "f":
        return True
    largest = float(dgraph.max_abs_weight) * max(dgraph.num_vertices - 1, 1)
    return float(dgraph.min_weight) > 4 * np.finfo(dtype).eps * largest


def records_in_one_pass(problem) -> bool:
    """Whether :func:`record_predecessors` is one pass over the arcs (every arc strictly
    increases a distance), rather than a search over tight arcs run to convergence.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.problem import Problem
    >>> records_in_one_pass(Problem(warpath.Graph.from_edges([0], [1], [2]), 0))
    True
    >>> records_in_one_pass(Problem(warpath.Graph.from_edges([0], [1], [0]), 0))
    False
    """
    return _strictly_increasing(problem.graph, problem.dtype)


def record_predecessors(problem):
    """Predecessors (device array, -1 for the source and unreachable vertices) of a
    converged one-row :class:`~warpath.cuda.problem.Problem`.

    The pass runs on a problem of its own (fresh flags and counters, the same
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
    from .problem import Problem

    graph, source = problem.graph, problem.source
    index = np.dtype(graph.indices.dtype)
    # the pass's fills (its flags, the predecessors) run in one launch before its kernel
    recording = Problem(graph, source, distances=problem.distances, tally=problem.tally,
                        deferred=True)
    pred = recycled_rows(1, graph.num_vertices, index)[0]   # the result's, like its distances
    strict = records_in_one_pass(problem)
    # -1 everywhere; for the search over tight arcs, the source claimed (no arc claims it)
    recording.fill(pred, graph.num_vertices, -1, -1 if strict else source, source)
    state = (problem.row, pred, problem.inf, index.type(source), index.type(-1))
    if strict:
        if graph.num_edges:
            run_once(recording, advance(thread_per_edge(), _gather_reached, _offer_tight_arc),
                     state)
        recording.release_scratch()   # runs the fills when no pass did
        return pred
    queues = recording.frontier()
    enact(recording, [advance(frontier(), _gather_reached, _claim_tight_arc, QUEUE)], state,
          frontier=queues)
    recording.fill(pred, 0, 0, source, -1)   # the source has none: a fill, not a copy
    recording.release_scratch()   # runs it
    return pred
