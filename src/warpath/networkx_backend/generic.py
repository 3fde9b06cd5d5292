"""The generic front doors of ``networkx.algorithms.shortest_paths.generic``.

``shortest_path``, ``shortest_path_length`` and ``has_path`` pick the same
search networkx picks for the same arguments (breadth-first without a
weight, the bidirectional searches between two nodes, the reverse graph
toward a target) and call this backend's version of it.

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.graph import BackendGraph
>>> G = BackendGraph.from_networkx(nx.path_graph(4))
>>> shortest_path(G, 0, 3), shortest_path_length(G, 3), has_path(G, 0, 2)
([0, 1, 2, 3], {3: 0, 2: 1, 1: 2, 0: 3}, True)
"""

from __future__ import annotations

import networkx as nx

from . import unweighted, weighted
from .graph import BackendGraph

METHODS = ("dijkstra", "bellman-ford")


def _reversed(G):
    """``G`` with every arc turned around (``G.reverse(copy=False)`` of networkx): the
    predecessor adjacency, in ``G._pred`` order."""
    if not G.directed:
        return G
    indptr, indices, weights = G.predecessor_csr()
    reverse = BackendGraph(G.nodes, indptr, indices, weights if G.weighted else None,
                           directed=True, multigraph=G.multigraph, weight_name=G.weight_name)
    reverse._cache["pred"] = (G.indptr, G.indices, G.weights)
    return reverse


# For each method, the search networkx calls: between all pairs, from one node, between two.
_PATHS = {
    "unweighted": (lambda G, w: unweighted.all_pairs_shortest_path(G),
                   lambda G, s, w: unweighted.single_source_shortest_path(G, s),
                   lambda G, s, t, w: unweighted.bidirectional_shortest_path(G, s, t)),
    "dijkstra": (lambda G, w: weighted.all_pairs_dijkstra_path(G, weight=w),
                 lambda G, s, w: weighted.single_source_dijkstra_path(G, s, weight=w),
                 lambda G, s, t, w: weighted.bidirectional_dijkstra(G, s, t, w)[1]),
    "bellman-ford": (lambda G, w: weighted.all_pairs_bellman_ford_path(G, weight=w),
                     lambda G, s, w: weighted.single_source_bellman_ford_path(G, s, weight=w),
                     lambda G, s, t, w: weighted.bellman_ford_path(G, s, t, w)),
}
_LENGTHS = {
    "unweighted": (lambda G, w: unweighted.all_pairs_shortest_path_length(G),
                   lambda G, s, w: unweighted.single_source_shortest_path_length(G, s),
                   lambda G, s, t, w: len(unweighted.bidirectional_shortest_path(G, s, t)) - 1),
    "dijkstra": (lambda G, w: weighted.all_pairs_dijkstra_path_length(G, weight=w),
                 lambda G, s, w: weighted.single_source_dijkstra_path_length(G, s, weight=w),
                 lambda G, s, t, w: weighted.dijkstra_path_length(G, s, t, w)),
    "bellman-ford": (lambda G, w: weighted.all_pairs_bellman_ford_path_length(G, weight=w),
                     lambda G, s, w: weighted.single_source_bellman_ford_path_length(G, s,
                                                                                     weight=w),
                     lambda G, s, t, w: weighted.bellman_ford_path_length(G, s, t, w)),
}


def _answer(table, G, source, target, weight, method):
    """networkx's choice among all pairs, from a source, toward a target, or one pair."""
    if method not in METHODS:
        raise ValueError(f"method not supported: {method}")
    all_pairs, from_one, one_pair = table["unweighted" if weight is None else method]
    if source is None and target is None:
        return all_pairs(G, weight)
    if source is None:
        return from_one(_reversed(G), target, weight)
    if target is None:
        return from_one(G, source, weight)
    return one_pair(G, source, target, weight)


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    """A shortest path, or dicts of them, as networkx's ``shortest_path`` picks.

    Without ``weight``, breadth-first searches; with it, Dijkstra or
    Bellman-Ford (``method``); between two nodes the bidirectional searches,
    toward a target alone the reverse graph, as networkx chooses.

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes, optional
    weight : str, optional
        ``None``: every edge counts 1.
    method : {"dijkstra", "bellman-ford"}

    Returns
    -------
    list, dict, or iterator
        One path; ``{node: path}`` from ``source`` or into ``target``; or
        ``(node, paths)`` pairs for all nodes.

    Raises
    ------
    ValueError
        For another ``method``.
    NodeNotFound, NetworkXNoPath
        As the search chosen raises them.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"weight": 5}), (1, 2, {"weight": 1}), (0, 2, {"weight": 1})])
    >>> nx.shortest_path(G, 0, 1, backend="warpath")
    [0, 1]
    >>> nx.shortest_path(G, 0, 1, weight="weight", backend="warpath")
    [0, 2, 1]

    See Also
    --------
    networkx.shortest_path
    """
    paths = _answer(_PATHS, G, source, target, weight, method)
    if source is None and target is not None:
        for end in paths:  # found on the reverse graph: turn each around
            paths[end] = list(reversed(paths[end]))
    return paths


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """A shortest-path length, or dicts of them, as networkx's ``shortest_path_length`` picks.

    The same choice of search as :func:`shortest_path`.

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes, optional
    weight : str, optional
        ``None``: every edge counts 1.
    method : {"dijkstra", "bellman-ford"}

    Returns
    -------
    number, dict, or iterator

    Raises
    ------
    ValueError
        For another ``method``.
    NodeNotFound, NetworkXNoPath
        As the search chosen raises them.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 3}), (1, 2, {"weight": -1})])
    >>> nx.shortest_path_length(G, target=2, weight="weight", method="bellman-ford",
    ...                         backend="warpath")
    {2: 0, 1: -1, 0: 2}

    See Also
    --------
    networkx.shortest_path_length
    """
    return _answer(_LENGTHS, G, source, target, weight, method)


def has_path(G, source, target):
    """Whether ``target`` can be reached from ``source`` (networkx's ``has_path``).

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes

    Returns
    -------
    bool

    Raises
    ------
    NodeNotFound
        If either node is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1)])
    >>> nx.has_path(G, 0, 1, backend="warpath"), nx.has_path(G, 1, 0, backend="warpath")
    (True, False)

    See Also
    --------
    networkx.has_path
    """
    try:
        unweighted.bidirectional_shortest_path(G, source, target)
    except nx.NetworkXNoPath:
        return False
    return True
