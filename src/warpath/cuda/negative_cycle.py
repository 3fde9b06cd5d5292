"""Naming the negative cycle after the GPU has proven that there is one.

The GPU methods detect a negative cycle (a round still changing after n
rounds, or a distance below every simple path's length) but keep no history
to name it.  On this error path the host runs the CPU's queue Bellman-Ford
(:func:`warpath.sssp.bellman_ford.run_bellman_ford`), which raises with a
verified cycle, and reports that cycle from its smallest vertex.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 1], [1, -3, 1])
>>> negative_cycle(g, 0)
[1, 2]
"""

from __future__ import annotations

from ..errors import NegativeCycleError
from ..graph import Graph
from ..sssp.bellman_ford import run_bellman_ford
from ..sssp.dijkstra import distance_dtype


def _host_graph(graph) -> Graph:
    """The host Graph behind a Graph or DeviceGraph (copied back when it only lives on the GPU)."""
    if not getattr(graph, "is_device_graph", False):
        return graph
    if graph.host is not None:
        return graph.host
    return Graph(graph.indptr.copy_to_host(), graph.indices.copy_to_host(),
                 graph.weights.copy_to_host(), validate=False)


def negative_cycle(graph, source: int):
    """The vertices of a negative cycle reachable from ``source`` in arc order, or ``None``.

    ``graph`` is a Graph or a DeviceGraph.  The cycle starts at its smallest
    vertex; the last vertex has an arc back to the first.

    Examples
    --------
    >>> import warpath
    >>> negative_cycle(warpath.generators.ring(4, seed=0), 0) is None
    True
    """
    host = _host_graph(graph)
    try:
        run_bellman_ford(host, [int(source)], distance_dtype(host, warn=False))
    except NegativeCycleError as err:
        cycle = err.cycle
        first = cycle.index(min(cycle))
        return cycle[first:] + cycle[:first]
    return None
