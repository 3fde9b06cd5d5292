"""Helpers the format modules share to make Graphs.

Examples
--------
>>> from warpath import Graph
>>> with_attributes(Graph.from_edges([0], [1]), name="roads").name
'roads'
"""

from __future__ import annotations

from ..graph import Graph


def with_attributes(graph, **changes):
    """The same arrays (no copy) as a new Graph with some of ``directed``, ``labels``,
    ``coordinates``, ``name`` replaced.

    Examples
    --------
    >>> g = with_attributes(Graph.from_edges([0], [1]), name="renamed")
    >>> g.name, g.num_edges
    ('renamed', 1)
    """
    fields = dict(directed=graph.directed, labels=graph.labels if graph.has_labels else None,
                  coordinates=graph.coordinates, name=graph.name)
    fields.update(changes)
    return Graph(graph.indptr, graph.indices, graph.weights if graph.weighted else None,
                 validate=False, **fields)
