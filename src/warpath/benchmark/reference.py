"""The reference every benchmark run is checked against: scipy.sparse.csgraph.

A fast wrong answer is worth nothing, so every run's distances are compared
with scipy's (Dijkstra for non-negative weights, Johnson otherwise; an
unweighted Dijkstra gives BFS levels) and, when the run computed them, its
predecessors are checked to form shortest-path trees.  A mismatch marks the
run FAILED in the report and the JSON.

Johnson starts with a Bellman-Ford pass, O(V E) at worst: hours on a road
graph of millions of arcs with negative weights.  There single-source answers
are checked by :func:`certify_distances` instead, a proof that needs no
reference: distances that no arc can improve, and that a path of exact arcs
from the source reaches, are the shortest distances.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 5])
>>> ref = reference_distances(g, "sssp", 0)
>>> compare_distances(np.array([0.0, 2.0, 7.0]), ref, g) is None
True
>>> compare_distances(np.array([0.0, 2.0, 8.0]), ref, g)
'vertex 2: distance 8.0, reference 7.0 (1 of 3 vertices differ)'
"""

from __future__ import annotations

import numpy as np


def reference_distances(graph, problem: str, sources) -> np.ndarray:
    """scipy's distances for ``problem`` from ``sources`` (one row per source for many).

    Examples
    --------
    >>> import warpath
    >>> reference_distances(warpath.generators.ring(3, seed=0), "bfs", 1).tolist()
    [2.0, 0.0, 1.0]
    """
    from scipy.sparse import csgraph

    matrix = graph.to_scipy()
    indices = None if problem == "apsp" else sources
    if problem == "bfs":
        return csgraph.dijkstra(matrix, directed=True, indices=indices, unweighted=True)
    if graph.has_negative_weights:
        return csgraph.johnson(matrix, directed=True, indices=indices)
    return csgraph.dijkstra(matrix, directed=True, indices=indices)


JOHNSON_MAX_ARCS = 2_000_000


def uses_certificate(graph, problem: str) -> bool:
    """Whether single-source answers on ``graph`` are checked by :func:`certify_distances`
    (negative weights and more than :data:`JOHNSON_MAX_ARCS` arcs: Johnson would take too long).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.with_negative_weights(warpath.generators.grid(3, 3, seed=0), seed=0)
    >>> uses_certificate(g, "sssp")
    False
    """
    return (problem == "sssp" and graph.has_negative_weights
            and graph.num_edges > JOHNSON_MAX_ARCS)


def reachable(graph, source: int) -> np.ndarray:
    """Mask of the vertices ``source`` reaches (scipy's breadth-first order).

    Examples
    --------
    >>> import warpath
    >>> reachable(warpath.Graph.from_edges([0], [1], num_vertices=3), 0).tolist()
    [True, True, False]
    """
    return _reached_from(graph.to_scipy(), source)


def _reached_from(matrix, source: int) -> np.ndarray:
    """Mask of the vertices that a breadth-first search of sparse ``matrix`` reaches."""
    from scipy.sparse import csgraph

    mask = np.zeros(matrix.shape[0], dtype=bool)
    mask[csgraph.breadth_first_order(matrix, int(source), directed=True,
                                     return_predecessors=False)] = True
    return mask


def certify_distances(distances, graph, source: int, problem: str = "sssp", *, reach=None):
    """``None`` when ``distances`` are the shortest distances from ``source``, else why not.

    The proof: (1) exactly the vertices ``source`` reaches are finite and
    ``d[source] == 0``; (2) no arc improves a distance, ``d[u] + w(u, v) >=
    d[v]`` (so every ``d[v]`` is at most the length of every path to it);
    (3) every reached vertex is reached from the source through *tight* arcs,
    ``d[u] + w(u, v) == d[v]`` (so some path has length ``d[v]``).  Checks
    (2) and (3) are exact for integer weights and use the relative tolerance
    of :func:`compare_distances` for float weights.  It needs no reference
    solver, so it also covers graphs with negative weights where Johnson
    would take hours.  ``reach``: :func:`reachable`'s mask for ``source``,
    when the caller has it already.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, -5])
    >>> certify_distances(np.array([0.0, 4.0, -1.0]), g, 0) is None
    True
    >>> certify_distances(np.array([0.0, 4.0, 1.0]), g, 0)
    'arc 1 -> 2 improves vertex 2: 4.0 + -5.0 < 1.0 (1 such arc in all)'
    >>> certify_distances(np.array([0.0, 3.0, -2.0]), g, 0)
    'vertex 1: distance 3.0 is not reached through exact arcs (no path has this length)'
    """
    from scipy import sparse

    d = np.asarray(distances, dtype=np.float64)
    n = graph.num_vertices
    if d.shape != (n,):
        return f"shape {d.shape} but the graph has {n} vertices"
    if np.isnan(d).any():
        return f"vertex {int(np.argmax(np.isnan(d)))}: distance nan"
    if d[source] != 0:
        return f"vertex {source} (the source): distance {d[source]}, not 0"
    if reach is None:
        reach = reachable(graph, source)
    wrong_reach = np.isfinite(d) != reach
    if wrong_reach.any():
        v = int(np.argmax(wrong_reach))
        expected = "reachable" if reach[v] else "unreachable"
        return f"vertex {v}: distance {d[v]} but it is {expected} from {source}"
    tails = graph.tails().astype(np.int64)
    heads = graph.indices.astype(np.int64)
    weights = np.ones(heads.size) if problem == "bfs" else graph.weights.astype(np.float64)
    live = reach[tails]
    tails, heads, weights = tails[live], heads[live], weights[live]
    through = d[tails] + weights
    slack = _tolerance(graph, problem) * np.maximum(1.0, np.abs(d[heads]))
    improves = through < d[heads] - slack
    if improves.any():
        i = int(np.argmax(improves))
        return (f"arc {tails[i]} -> {heads[i]} improves vertex {heads[i]}: {d[tails[i]]} + "
                f"{weights[i]} < {d[heads[i]]} ({int(improves.sum())} such arc"
                f"{'' if improves.sum() == 1 else 's'} in all)")
    tight = np.abs(through - d[heads]) <= slack
    tight_graph = sparse.csr_matrix((np.ones(int(tight.sum())), (tails[tight], heads[tight])),
                                    shape=(n, n))
    missing = reach & ~_reached_from(tight_graph, source)
    if missing.any():
        v = int(np.argmax(missing))
        return (f"vertex {v}: distance {d[v]} is not reached through exact arcs "
                f"(no path has this length)")
    return None


def _tolerance(graph, problem):
    """Exact for integer weights and BFS; a relative 1e-5 for float weights (float32 methods)."""
    if problem == "bfs" or graph.weights.dtype.kind in "iu":
        return 0.0
    return 1e-5


def compare_distances(distances, reference, graph, problem: str = "sssp", tolerance=None):
    """``None`` when ``distances`` match ``reference``, else a one-line description of the first
    difference.

    Unreachable vertices must be ``inf`` in both; finite distances must be
    equal (integer weights, BFS) or within a relative 1e-5 (float weights),
    or within the relative ``tolerance`` given (distances printed in a few
    digits by a peer program).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [1.5])
    >>> compare_distances(np.array([0.0, np.inf]), np.array([0.0, 1.5]), g)
    'vertex 1: distance inf, reference 1.5 (1 of 2 vertices differ)'
    """
    distances = np.asarray(distances, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if distances.shape != reference.shape:
        return f"shape {distances.shape} but the reference has {reference.shape}"
    tolerance = _tolerance(graph, problem) if tolerance is None else tolerance
    finite = np.isfinite(reference)
    same_reach = np.isfinite(distances) == finite
    close = np.ones_like(finite)
    close[finite] = np.abs(distances[finite] - reference[finite]) <= \
        tolerance * np.maximum(1.0, np.abs(reference[finite]))
    bad = ~(same_reach & close) | np.isnan(distances)
    if not bad.any():
        return None
    first = np.unravel_index(int(np.argmax(bad)), bad.shape)
    where = "vertex " + str(first[-1]) if bad.ndim == 1 else \
        f"row {first[0]} vertex {first[1]}"
    return (f"{where}: distance {distances[first]}, reference {reference[first]} "
            f"({int(bad.sum())} of {bad.size} vertices differ)")


def check_predecessors(predecessors, distances, graph, source: int, problem: str = "sssp",
                       arcs: ArcIndex | None = None):
    """``None`` when ``predecessors`` form a shortest-path (or BFS) tree for ``distances``.

    Every reached vertex other than the source must have a predecessor ``p``
    with an arc ``p -> v`` and ``d[p] + w(p, v) == d[v]`` (BFS: ``w = 1``);
    unreachable vertices and the source must have -1.  Pass ``arcs`` (an
    :class:`ArcIndex` of ``graph``) when checking many sources.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
    >>> check_predecessors(np.array([-1, 0, 1]), np.array([0.0, 1.0, 2.0]), g, 0) is None
    True
    >>> check_predecessors(np.array([-1, 0, 0]), np.array([0.0, 1.0, 2.0]), g, 0)
    'vertex 2: predecessor 0 gives 5.0, not 2.0'
    """
    predecessors = np.asarray(predecessors, dtype=np.int64)
    distances = np.asarray(distances, dtype=np.float64)
    n = graph.num_vertices
    reached = np.isfinite(distances)
    reached[source] = False
    unreached_bad = np.flatnonzero(~reached & (predecessors != -1))
    unreached_bad = unreached_bad[unreached_bad != source] if predecessors[source] == -1 \
        else np.array([source])
    if unreached_bad.size:
        v = int(unreached_bad[0])
        return f"vertex {v}: predecessor {predecessors[v]} where -1 was expected"
    heads = np.flatnonzero(reached)
    tails = predecessors[heads]
    if ((tails < 0) | (tails >= n)).any():
        v = int(heads[np.argmax((tails < 0) | (tails >= n))])
        return f"vertex {v} is reached but has predecessor {predecessors[v]}"
    weights, has_arc = (arcs or ArcIndex(graph)).lookup(tails, heads)
    if problem == "bfs":
        weights = np.ones(heads.size)
    if not has_arc.all():
        v = int(heads[np.argmin(has_arc)])
        return f"vertex {v}: predecessor {predecessors[v]} has no arc to it"
    through = distances[tails] + weights
    tolerance = _tolerance(graph, problem)
    ok = np.abs(through - distances[heads]) <= tolerance * np.maximum(1.0, np.abs(through))
    if not ok.all():
        i = int(np.argmin(ok))
        return (f"vertex {int(heads[i])}: predecessor {int(tails[i])} gives {through[i]}, "
                f"not {distances[heads[i]]}")
    return None


class ArcIndex:
    """Finds the weight of arc ``u -> v`` for many pairs at once (built once per graph).

    Examples
    --------
    >>> import warpath
    >>> index = ArcIndex(warpath.Graph.from_edges([0, 1], [1, 2], [4, 6]))
    >>> weights, found = index.lookup(np.array([0, 0]), np.array([1, 2]))
    >>> weights.tolist(), found.tolist()
    ([4.0, 0.0], [True, False])
    """

    def __init__(self, graph):
        n = max(graph.num_vertices, 1)
        keys = graph.tails().astype(np.int64) * n + graph.indices.astype(np.int64)
        order = np.argsort(keys, kind="stable")
        self._n = n
        self._keys = keys[order]
        self._weights = graph.weights[order].astype(np.float64)

    def lookup(self, tails, heads):
        """``(weights, found)`` for the arcs ``tails[i] -> heads[i]`` (the lightest if repeated)."""
        wanted = np.asarray(tails, dtype=np.int64) * self._n + np.asarray(heads, dtype=np.int64)
        at = np.searchsorted(self._keys, wanted)
        inside = at < self._keys.size
        found = np.zeros(wanted.size, dtype=bool)
        found[inside] = self._keys[at[inside]] == wanted[inside]
        weights = np.zeros(wanted.size, dtype=np.float64)
        weights[found] = self._weights[at[found]]
        return weights, found
