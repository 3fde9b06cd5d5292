"""Repeated single-source shortest paths: one Dijkstra (or Bellman-Ford) per source.

Registered for both ``apsp`` and ``multi_source``.  With non-negative weights
each source runs the numba Dijkstra kernel (all sources in one compiled
loop); with negative weights each runs queue-based Bellman-Ford, so a
negative cycle reachable from any source raises
:class:`~warpath.NegativeCycleError`.

The shared memory guard for distance matrices, :func:`check_matrix_memory`,
lives here too.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [3, 4])
>>> warpath.multi_source(g, [0, 1], method="repeated-sssp").distances.tolist()
[[0.0, 3.0, 7.0], [inf, 0.0, 4.0]]
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import GraphError
from ..methods import register
from ..result import DistanceMatrix
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import dijkstra_rows, distance_dtype, prepare


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (``MemAvailable``), or ``None`` if unknown.

    Examples
    --------
    >>> m = available_memory()
    >>> m is None or m > 0
    True
    """
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_matrix_memory(rows: int, num_vertices: int, predecessors: bool) -> int:
    """Refuse a distance matrix that cannot fit in memory; return the bytes it needs.

    A ``rows x num_vertices`` result takes 8 bytes per entry for distances and
    8 more for predecessors.

    Raises
    ------
    GraphError
        Naming the size needed and the memory available.

    Examples
    --------
    >>> check_matrix_memory(10, 10, predecessors=True)
    1600
    """
    needed = int(rows) * int(num_vertices) * (16 if predecessors else 8)
    available = available_memory()
    if available is not None and needed > available:
        raise GraphError(
            f"a {rows:,} x {num_vertices:,} distance matrix"
            f"{' with predecessors' if predecessors else ''} needs {needed / 2**30:.1f} GiB but "
            f"only {available / 2**30:.1f} GiB of memory is available; ask for fewer sources "
            "(warpath.multi_source) or predecessors=False")
    return needed


def empty_matrices(rows, num_vertices, dtype, marker, predecessors):
    """Distance rows filled with ``marker`` and predecessor rows filled with -1 (or width 0)."""
    dist = np.full((rows, num_vertices), marker, dtype=dtype)
    pred = np.full((rows, num_vertices if predecessors else 0), -1, dtype=np.int64)
    return dist, pred


@register("apsp", "repeated-sssp", "cpu", negative_weights=True, auto_rank=2,
          summary="Dijkstra (or Bellman-Ford with negative weights) from every vertex (numba)")
@register("multi_source", "repeated-sssp", "cpu", negative_weights=True, auto_rank=0,
          summary="Dijkstra (or Bellman-Ford with negative weights) from each source (numba)")
def repeated_sssp(graph, sources, *, predecessors=True):
    """Shortest paths from each of ``sources``, one single-source run each.

    Called through :func:`warpath.multi_source` or :func:`warpath.apsp`
    (``method="repeated-sssp"``).

    Parameters
    ----------
    graph : Graph
    sources : ndarray of int64
        Validated 0-based sources (``arange(n)`` for APSP).
    predecessors : bool

    Returns
    -------
    DistanceMatrix

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from one of the sources.
    GraphError
        When the result would not fit in memory.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, -1, 2])
    >>> repeated_sssp(g, np.array([0, 2])).distances.tolist()
    [[0.0, 1.0, 0.0], [2.0, 3.0, 0.0]]
    """
    n = graph.num_vertices
    check_matrix_memory(len(sources), n, predecessors)
    if graph.has_negative_weights:
        return _repeated_bellman_ford(graph, sources, predecessors)
    weights, dtype, marker, cutoff, shift = prepare(graph)
    dist, pred = empty_matrices(len(sources), n, dtype, marker, predecessors)
    settled, relaxations = dijkstra_rows(graph.indptr, graph.indices, weights, sources, dist,
                                         pred, cutoff, shift)
    return DistanceMatrix(sources, dist, pred if predecessors else None,
                          stats={"iterations": int(settled), "relaxations": int(relaxations)})


def _repeated_bellman_ford(graph, sources, predecessors):
    dtype = distance_dtype(graph)
    dist = np.empty((len(sources), graph.num_vertices), dtype=dtype)
    pred = np.empty((len(sources), graph.num_vertices if predecessors else 0), dtype=np.int64)
    rounds = relaxations = 0
    for row, source in enumerate(sources):
        dist[row], source_pred, source_rounds, source_relaxations = run_bellman_ford(
            graph, [source], dtype)
        if predecessors:
            pred[row] = source_pred
        rounds += source_rounds
        relaxations += source_relaxations
    return DistanceMatrix(sources, dist, pred if predecessors else None,
                          stats={"iterations": rounds, "relaxations": relaxations})
