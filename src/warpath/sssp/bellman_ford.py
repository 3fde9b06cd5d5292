"""Queue-based Bellman-Ford on the CPU (negative weights, negative-cycle detection).

This is the sequential baseline of the GPU papers: a FIFO queue of the
vertices whose distance dropped (each vertex at most once in the queue, kept
by an in-queue flag), the scheme often called SPFA (Bellman-Ford-Moore).

Negative cycles.  Every distance is the weight of a walk from the source that
the relaxations built one arc at a time; the kernel keeps that walk's arc
count (``length``).  A walk of ``n`` arcs repeats a vertex, and since each
relaxation strictly lowers a distance, the closed part of the walk between
the two visits has negative weight: so ``length[v] >= n`` proves a negative
cycle is reachable while keeping every distance within ``n * max|w|`` (no
integer overflow).  The cycle itself is read off the predecessor graph,
where every cycle is negative (Cherkassky, Goldberg & Radzik 1999); in the
rare case that the predecessor graph has no cycle yet, plain pass-by-pass
Bellman-Ford is rerun and its n-th pass gives one.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], [4, -3, 2])
>>> warpath.sssp(g, 0, method="bellman-ford").distances.tolist()
[0.0, 4.0, 1.0]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import NegativeCycleError
from ..methods import register
from ..result import SSSPResult
from ..dtypes import distance_dtype, unreached_value
from ..negative_cycles import cycle_through, cycle_vertex, find_negative_cycle, only_cycle

FOUND_NONE = 0
FOUND_CYCLE = 1
CYCLE_NOT_IN_PREDECESSORS = 2


@njit(cache=True)
def bellman_ford_queue(indptr, indices, weights, dist, pred, starts):
    """FIFO-queue Bellman-Ford from ``starts`` (their ``dist`` already set).

    ``dist`` holds the unreachable marker except at the starts; ``pred`` is
    filled with -1 (always needed: negative cycles are read off it).  Several
    starts with distance 0 act as a virtual source (Johnson's potentials).

    Returns
    -------
    (rounds, relaxations, status, vertex)
        ``rounds`` counts queue generations (the papers' iterations);
        ``status`` is FOUND_NONE, FOUND_CYCLE (``vertex`` lies on a negative
        cycle of ``pred``) or CYCLE_NOT_IN_PREDECESSORS (a negative cycle is
        reachable but ``pred`` shows none yet).
    """
    n = dist.shape[0]
    queue = np.empty(n, np.int64)
    in_queue = np.zeros(n, np.bool_)
    length = np.zeros(n, np.int64)  # arcs on the walk that gave dist[v]
    head = 0
    count = 0
    for v in starts:
        if not in_queue[v]:
            queue[count] = v
            in_queue[v] = True
            count += 1
    rounds = 0
    left_in_round = count
    relaxations = 0
    while count > 0:
        u = queue[head]
        head += 1
        if head == n:
            head = 0
        count -= 1
        in_queue[u] = False
        d_u = dist[u]
        length_v = length[u] + 1
        lo = indptr[u]
        hi = indptr[u + 1]
        relaxations += hi - lo
        for e in range(lo, hi):
            v = indices[e]
            d_v = d_u + weights[e]
            if d_v < dist[v]:
                dist[v] = d_v
                pred[v] = u
                length[v] = length_v
                if length_v >= n:
                    vertex = cycle_vertex(pred, v)
                    if vertex == -1:
                        return rounds, relaxations, CYCLE_NOT_IN_PREDECESSORS, -1
                    return rounds, relaxations, FOUND_CYCLE, vertex
                if not in_queue[v]:
                    tail = head + count
                    if tail >= n:
                        tail -= n
                    queue[tail] = v
                    in_queue[v] = True
                    count += 1
        left_in_round -= 1
        if left_in_round == 0:
            rounds += 1
            left_in_round = count
    return rounds, relaxations, FOUND_NONE, -1


@njit(cache=True)
def bellman_ford_passes(indptr, indices, weights, dist, pred, marker):
    """Plain Bellman-Ford: n passes over all arcs; a vertex on a negative cycle, or -1.

    The fallback of :func:`bellman_ford_queue` when it proved a negative
    cycle but the predecessors did not show it yet: a relaxation in the n-th
    pass means one, and walking n predecessors back from it lands on it.
    ``dist``/``pred`` are used as initialised by the caller; ``marker`` is
    the unreachable value of ``dist``.
    """
    n = dist.shape[0]
    last = -1
    for _ in range(n):
        last = -1
        for u in range(n):
            d_u = dist[u]
            if d_u != marker:
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    d_v = d_u + weights[e]
                    if d_v < dist[v]:
                        dist[v] = d_v
                        pred[v] = u
                        last = v
        if last == -1:
            return -1
    for _ in range(n):
        last = pred[last]
    return last


def run_bellman_ford(graph, starts, dtype):
    """Run queue Bellman-Ford from ``starts`` at distance 0; raise on a negative cycle.

    Returns ``(dist, pred, rounds, relaxations)`` with ``dist`` in ``dtype``
    (int64 max or ``inf`` for unreachable).  Shared by the SSSP method and by
    Johnson's potentials (all vertices as starts: a virtual source).

    Raises
    ------
    NegativeCycleError
        With the vertices of one negative cycle reachable from the starts.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 0], [2, -3])
    >>> try:
    ...     run_bellman_ford(g, np.array([0]), np.dtype(np.int64))
    ... except warpath.NegativeCycleError as err:
    ...     print(err.cycle)
    [0, 1]
    """
    n = graph.num_vertices
    starts = np.asarray(starts, dtype=np.int64)
    dist = np.full(n, unreached_value(dtype), dtype=dtype)
    dist[starts] = 0
    pred = np.full(n, -1, dtype=np.int64)
    rounds, relaxations, status, vertex = bellman_ford_queue(
        graph.indptr, graph.indices, graph.weights, dist, pred, starts)
    if status == FOUND_NONE:
        return dist, pred, int(rounds), int(relaxations)
    if status == CYCLE_NOT_IN_PREDECESSORS:
        dist[:] = unreached_value(dtype)
        dist[starts] = 0
        pred[:] = -1
        vertex = bellman_ford_passes(graph.indptr, graph.indices, graph.weights, dist, pred,
                                     dist.dtype.type(unreached_value(dtype)))
    cycle = cycle_through(pred, vertex) if vertex >= 0 else None
    if cycle is None or find_negative_cycle(graph, only_cycle(pred, cycle)) is None:
        cycle = find_negative_cycle(graph, pred)
    raise NegativeCycleError(cycle)


@register("sssp", "bellman-ford", "cpu", negative_weights=True, auto_rank=1,
          summary="queue-based Bellman-Ford (SPFA) with negative-cycle detection (numba)")
def bellman_ford(graph, source, *, predecessors=True):
    """Single-source shortest paths with negative weights, by queue-based Bellman-Ford.

    Called through :func:`warpath.sssp` (``method="bellman-ford"``).

    Parameters
    ----------
    graph : Graph
        Any finite weights, negative included.
    source : int
        0-based source vertex.
    predecessors : bool
        Whether to return the predecessors (they are computed either way).

    Returns
    -------
    SSSPResult
        ``stats["iterations"]`` counts queue generations (a vertex improved in
        generation k is scanned in generation k + 1, as a frontier round of the
        papers), ``stats["relaxations"]`` the arcs scanned.

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from ``source``; ``.cycle`` holds it.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [5, 2, -4])
    >>> r = bellman_ford(g, 0)
    >>> r.distances.tolist(), r.path(2).tolist()
    ([0.0, 5.0, 1.0], [0, 1, 2])
    >>> loop = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, 1, -2])
    >>> try:
    ...     bellman_ford(loop, 0)
    ... except warpath.NegativeCycleError as err:
    ...     print(err.cycle)
    [1, 2]
    """
    dist, pred, rounds, relaxations = run_bellman_ford(graph, [source], distance_dtype(graph))
    return SSSPResult(source, dist, pred if predecessors else None,
                      stats={"iterations": rounds, "relaxations": relaxations})
