"""Johnson's algorithm: Bellman-Ford potentials, then Dijkstra from every source.

A virtual source with a zero-weight arc to every vertex gives potentials
``h`` by queue-based Bellman-Ford (all vertices start at distance 0, which is
the same thing without building the extra vertex); the reweighted arcs
``w(u, v) + h[u] - h[v]`` are non-negative, so Dijkstra runs from each
source, and ``d(s, t) = d_h(s, t) - h[s] + h[t]``.  Both kernels are the SSSP
methods' own (:mod:`warpath.sssp.bellman_ford`, :mod:`warpath.sssp.dijkstra`).

Because the potentials cover the whole graph, a negative cycle anywhere
raises :class:`~warpath.NegativeCycleError`, even for ``multi_source`` with
sources that do not reach it (as scipy's ``johnson``); ``repeated-sssp``
raises only for cycles reachable from the sources.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], [2, -1, 3])
>>> warpath.apsp(g, method="johnson").distances[0].tolist()
[0.0, 2.0, 1.0]
"""

from __future__ import annotations

import numpy as np

from ..dtypes import warn_inexact
from ..methods import register
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import dijkstra_rows, prepare
from .matrices import RowMatrices


def johnson_dtype(graph) -> np.dtype:
    """int64 when reweighted path lengths cannot overflow it, else float64 (with a warning).

    Reweighting adds up to ``2 max|h| <= 2 (n - 1) max|w|`` to a path, hence a
    wider margin than plain SSSP needs.

    Examples
    --------
    >>> import warpath
    >>> johnson_dtype(warpath.Graph.from_edges([0], [1], [-3]))
    dtype('int64')
    """
    if graph.weights.dtype.kind != "i":
        return np.dtype(np.float64)
    if 4.0 * float(graph.max_abs_weight) * (graph.num_vertices + 1) < 2.0 ** 63:
        return np.dtype(np.int64)
    warn_inexact(graph)
    return np.dtype(np.float64)


def potentials(graph, dtype):
    """Johnson's vertex potentials: shortest distances from a virtual source (all <= 0).

    Returns ``(h, rounds, relaxations)``.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle anywhere (``.cycle`` holds it).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [-2, 1])
    >>> potentials(g, np.dtype(np.int64))[0].tolist()
    [0, -2, -1]
    """
    starts = np.arange(graph.num_vertices, dtype=np.int64)
    h, _, rounds, relaxations = run_bellman_ford(graph, starts, dtype)
    return h, rounds, relaxations


def reweighted(graph, h):
    """The arc weights ``w(u, v) + h[u] - h[v]`` (non-negative; float round-off clamped at 0).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [-2, 1])
    >>> reweighted(g, np.array([0, -2, -1])).tolist()
    [0, 0]
    """
    out = graph.weights.astype(h.dtype) + h[graph.tails()] - h[graph.indices]
    if out.dtype.kind == "f":
        np.maximum(out, 0.0, out=out)
    return out


@register("apsp", "johnson", "cpu", negative_weights=True, auto_rank=0,
          summary="Johnson: Bellman-Ford potentials, then Dijkstra from every vertex (numba)")
@register("multi_source", "johnson", "cpu", negative_weights=True, auto_rank=1,
          summary="Johnson: Bellman-Ford potentials, then Dijkstra from each source (numba)")
def johnson(graph, sources, *, predecessors=True, progress=None, output=None):
    """Shortest paths from each of ``sources`` by Johnson's algorithm.

    Called through :func:`warpath.apsp` (the default on the CPU: sparse graphs
    are the common case, where n Dijkstra runs beat Floyd-Warshall's n**3) or
    :func:`warpath.multi_source` (``method="johnson"``).

    Parameters
    ----------
    graph : Graph
    sources : ndarray of int64
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)`` after each block of sources.
    output : Output, optional
        The result's type and place (:mod:`warpath.apsp.matrices`).

    Returns
    -------
    DistanceMatrix
        ``stats["iterations"]`` counts the Bellman-Ford rounds plus the
        vertex scans of all Dijkstra runs (see :func:`~warpath.sssp.dijkstra.dijkstra`),
        ``stats["relaxations"]`` the arcs scanned by both.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle anywhere.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [4, -2, 1])
    >>> johnson(g, np.arange(3)).distances.tolist()
    [[0.0, 4.0, 2.0], [-1.0, 0.0, -2.0], [1.0, 5.0, 0.0]]
    """
    n = graph.num_vertices
    dtype = johnson_dtype(graph)
    rounds = relaxations = 0
    h = None
    weights = graph.weights
    if graph.has_negative_weights:
        h, rounds, relaxations = potentials(graph, dtype)
        weights = reweighted(graph, h)
    weights, dtype, marker, cutoff, shift = prepare(graph, weights=weights, dtype=dtype)
    matrices = RowMatrices(len(sources), n, dtype, marker, predecessors, output)
    counts = np.zeros(2, dtype=np.int64)   # vertex scans, arcs scanned

    def rows(start, stop, block, pred):
        counts[:] += dijkstra_rows(graph.indptr, graph.indices, weights, sources[start:stop],
                                   block, pred, cutoff, shift)
        if h is not None:   # undo the reweighting, one block at a time (small temporaries)
            reached = block != marker
            shifted = block - h[sources[start:stop]][:, None] + h[None, :]
            block[reached] = shifted[reached]

    matrices.fill(rows, progress)
    return matrices.result(sources, {"iterations": int(rounds + counts[0]),
                                     "relaxations": int(relaxations + counts[1])})
