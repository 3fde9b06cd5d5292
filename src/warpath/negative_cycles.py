"""Negative cycles: reading one off predecessor links, and recovering one for any method.

One module for the CPU and GPU methods alike.  A Bellman-Ford-like method that
stops converging leaves predecessor links that contain a cycle, and every such
cycle is negative (Cherkassky, Goldberg & Radzik 1999):
:func:`find_negative_cycle` finds one and verifies it against the graph.  The
GPU methods detect a negative cycle (a round still changing after n rounds, or a
distance below every simple path's length) but keep no history to name it;
:func:`negative_cycle_from` reruns the CPU's queue Bellman-Ford on that error
path, which raises with a verified cycle, and reports it from its smallest vertex.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, -3, 1])
>>> negative_cycle_from(g, [0])
[1, 2]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .errors import NegativeCycleError


@njit(cache=True)
def _cycle_vertex_from(pred, start, mark, stamp):
    """Walk predecessors from ``start``; a vertex on a cycle met on the way, else -1.

    ``mark`` holds the stamp of the walk that last visited each vertex; a walk
    that meets an older stamp joins a path already known to end cycle-free.
    """
    v = start
    while v != -1 and mark[v] == 0:
        mark[v] = stamp
        v = pred[v]
    if v != -1 and mark[v] == stamp:
        return v
    return -1


@njit(cache=True)
def cycle_vertex(pred, start):
    """A vertex on a cycle of the predecessor graph: first from ``start``, then anywhere."""
    n = pred.shape[0]
    mark = np.zeros(n, np.int64)
    stamp = 1
    if start >= 0:
        found = _cycle_vertex_from(pred, start, mark, stamp)
        if found != -1:
            return found
    for v in range(n):
        if mark[v] == 0:
            stamp += 1
            found = _cycle_vertex_from(pred, v, mark, stamp)
            if found != -1:
                return found
    return -1


@njit(cache=True)
def cycle_through(pred, vertex):
    """The predecessor-graph cycle through ``vertex``, in arc order from its smallest vertex."""
    cycle = [vertex]
    v = pred[vertex]
    while v != vertex:
        cycle.append(v)
        v = pred[v]
    size = len(cycle)
    smallest = 0
    for i in range(size):
        if cycle[i] < cycle[smallest]:
            smallest = i
    # collected backwards along pred: reverse it, starting at the smallest vertex
    out = np.empty(size, np.int64)
    for i in range(size):
        out[i] = cycle[(smallest - i) % size]
    return out


@njit(cache=True)
def _arc_weight(indptr, indices, weights, u, v, zero):
    """The lightest arc u -> v as ``(found, weight)``."""
    found = False
    best = zero
    for e in range(indptr[u], indptr[u + 1]):
        if indices[e] == v and (not found or weights[e] < best):
            best = zero + weights[e]
            found = True
    return found, best


@njit(cache=True)
def negative_cycle_in_predecessors(indptr, indices, weights, pred, zero):
    """A negative cycle of the predecessor graph (arc order), or an empty array.

    Checks every cycle the predecessor links form: each link ``pred[v] -> v``
    must be an arc and the cycle's weight (summed in the type of ``zero``)
    must be negative; links that are not arcs (e.g. a racy GPU array) make a
    cycle invalid rather than an error.
    """
    n = pred.shape[0]
    mark = np.zeros(n, np.int64)
    for start in range(n):
        if mark[start] != 0:
            continue
        vertex = _cycle_vertex_from(pred, start, mark, start + 1)
        if vertex == -1:
            continue
        cycle = cycle_through(pred, vertex)
        total = zero
        valid = True
        for i in range(cycle.shape[0]):
            u = cycle[i]
            v = cycle[(i + 1) % cycle.shape[0]]
            found, w = _arc_weight(indptr, indices, weights, u, v, zero)
            if not found:
                valid = False
                break
            total += w
        if valid and total < zero:
            return cycle
    return np.empty(0, np.int64)


def find_negative_cycle(graph, predecessors):
    """A negative cycle formed by a predecessor array, or ``None``.

    Host-side helper for any Bellman-Ford-like method (CPU or GPU): after the
    relaxations stop converging, the predecessor links contain a cycle, and
    every such cycle is negative.  This finds one and verifies it against the
    graph (each link is an arc, the total weight is negative).

    Parameters
    ----------
    graph : Graph
    predecessors : array of int, length ``num_vertices``
        ``predecessors[v]`` is the vertex before ``v`` (-1 for none).

    Returns
    -------
    list of int or None
        The cycle's vertices in order (each has an arc to the next, the last
        one to the first), or ``None`` when the links form no negative cycle.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, 1, -3])
    >>> find_negative_cycle(g, [-1, 2, 1])
    [1, 2]
    >>> find_negative_cycle(g, [-1, 0, 1]) is None
    True
    """
    pred = np.asarray(predecessors, dtype=np.int64)
    if pred.shape != (graph.num_vertices,):
        raise ValueError(f"predecessors must have one entry per vertex ({graph.num_vertices}), "
                         f"not shape {pred.shape}")
    pred = np.where((pred >= 0) & (pred < graph.num_vertices), pred, -1)
    zero = np.int64(0) if graph.weights.dtype.kind == "i" else np.float64(0.0)
    cycle = negative_cycle_in_predecessors(graph.indptr, graph.indices, graph.weights, pred, zero)
    return cycle.tolist() if cycle.size else None


def only_cycle(pred, cycle):
    """A predecessor array holding just the links of ``cycle`` (to verify that one cycle)."""
    links = np.full(pred.shape[0], -1, dtype=np.int64)
    links[cycle] = pred[cycle]
    return links




def host_graph(graph):
    """The host Graph behind a Graph or a DeviceGraph (copied back when it lives only on the GPU).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(3, seed=0)
    >>> host_graph(g) is g
    True
    """
    from .graph import Graph

    if not getattr(graph, "is_device_graph", False):
        return graph
    if graph.host is not None:
        return graph.host
    return Graph(graph.indptr.copy_to_host(), graph.indices.copy_to_host(),
                 graph.weights.copy_to_host(), validate=False)


def negative_cycle_from(graph, sources):
    """A negative cycle reachable from ``sources`` (vertices in arc order, smallest first), or None.

    ``graph`` is a Graph or a DeviceGraph; ``sources`` an int or a list of them.

    Examples
    --------
    >>> import warpath
    >>> negative_cycle_from(warpath.generators.ring(4, seed=0), 0) is None
    True
    """
    from .dtypes import distance_dtype
    from .sssp.bellman_ford import run_bellman_ford

    host = host_graph(graph)
    starts = np.atleast_1d(np.asarray(sources, dtype=np.int64))
    try:
        run_bellman_ford(host, starts, distance_dtype(host, warn=False))
    except NegativeCycleError as err:
        cycle = err.cycle
        first = cycle.index(min(cycle))
        return cycle[first:] + cycle[:first]
    return None
