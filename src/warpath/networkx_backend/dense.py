"""The dense functions of ``networkx.algorithms.shortest_paths.dense``: Floyd-Warshall.

The loops are :mod:`.floyd_warshall_order`'s replays of networkx's, so
values, predecessors and the dicts' key order are networkx's; only building
the n**2 dict entries remains in Python, as it must for a dict result.

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.graph import BackendGraph
>>> G = BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3})]),
...                                "weight")
>>> floyd_warshall(G)[0][2], floyd_warshall_numpy(G).tolist()[0]
(5, [0.0, 2.0, 5.0])
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np

from .floyd_warshall_order import floyd_warshall_dicts_kernel, floyd_warshall_numpy_kernel


def _infinity():
    return float("inf")


def _edges_in_networkx_order(G):
    """``G.edges()`` order as index arrays: every arc, or each undirected edge once.

    networkx lists an undirected edge from the endpoint it meets first (and a
    self-loop once), i.e. the arcs whose tail does not come after the head.
    """
    tails, heads = G.tails(), G.indices
    if G.directed:
        return tails, heads, G.weights
    keep = tails <= heads
    return tails[keep], heads[keep], G.weights[keep]


def _dist_key_order(G, stamp_row, u):
    """networkx's key order in ``dist[u]``: ``u``, the edge keys as set, then every other node
    (the first pivot ``w0`` ahead of the rest for ``u != w0``), as the loop creates them."""
    n = len(G)
    from_edges = np.flatnonzero(stamp_row >= 0)
    from_edges = from_edges[np.argsort(stamp_row[from_edges], kind="stable")]
    first = [u] + [v for v in from_edges.tolist() if v != u]
    present = np.zeros(n, dtype=bool)
    present[first] = True
    rest = [] if u == 0 or present[0] else [0]
    present[0] = True
    rest += np.flatnonzero(~present).tolist()
    return np.array(first + rest, dtype=np.int64)


def floyd_warshall_predecessor_and_distance(G, weight="weight"):
    """Floyd-Warshall predecessors and lengths (``floyd_warshall_predecessor_and_distance``).

    The triple loop runs in numba in networkx's order, so values,
    predecessors and both dicts' key order are networkx's; ``can_run``
    declines graphs whose four n x n work matrices would pass 4 GiB.

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already.

    Returns
    -------
    (dict, dict)
        ``pred``: ``{source: {target: predecessor}}``; ``dist``: ``{source:
        {target: length}}``, each inner dict a ``defaultdict`` giving ``inf``
        for unreachable targets, as networkx's.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}), (0, 2, {"weight": 9})])
    >>> pred, dist = nx.floyd_warshall_predecessor_and_distance(G, backend="warpath")
    >>> pred[0], dist[0][2], dist[2][0]
    ({1: 0, 2: 1}, 5, inf)

    See Also
    --------
    networkx.floyd_warshall_predecessor_and_distance
    """
    n = len(G)
    tails, heads, weights = _edges_in_networkx_order(G)
    value, finite, pred, stamp, edge_clock = floyd_warshall_dicts_kernel(
        n, tails, heads, weights, not G.directed)
    # dist[u]'s keys: those the edge loop set (the first edge_clock stamps), then the rest as
    # the triple loop first reads them.
    edge_stamp = np.where(stamp < edge_clock, stamp, -1)
    nodes = G.nodes
    dist = {}
    for u in range(n):
        keys = _dist_key_order(G, edge_stamp[u], u)
        inner = defaultdict(_infinity)
        inner.update(zip(G.nodes_at(keys),
                         np.where(finite[u, keys], value[u, keys], np.inf).tolist()
                         if value.dtype.kind == "f" else
                         [x if ok else float("inf") for x, ok in
                          zip(value[u, keys].tolist(), finite[u, keys].tolist())]))
        if finite[u, u] and value[u, u] == 0:
            inner[nodes[u]] = 0  # networkx's own int zero on the diagonal
        dist[nodes[u]] = inner
    return _pred_dicts(G, _pred_owner_order(G, tails, heads), pred, stamp), dist


def _pred_owner_order(G, tails, heads):
    """The outer keys of networkx's ``pred``: nodes as the edge loop first writes them."""
    if G.directed:
        return list(dict.fromkeys(tails.tolist()))
    both = np.empty(2 * tails.size, dtype=np.int64)
    both[0::2] = tails
    both[1::2] = heads
    return list(dict.fromkeys(both.tolist()))


def _pred_dicts(G, owners, pred, stamp):
    result = {}
    for u in owners:
        keys = np.flatnonzero(stamp[u] >= 0)
        keys = keys[np.argsort(stamp[u, keys], kind="stable")]
        result[G.nodes[u]] = dict(zip(G.nodes_at(keys), G.nodes_at(pred[u, keys])))
    return result


def floyd_warshall(G, weight="weight"):
    """All-pairs lengths by Floyd-Warshall (networkx's ``floyd_warshall``).

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already.

    Returns
    -------
    dict
        ``{source: {target: length}}`` (``inf`` where unreachable).

    Examples
    --------
    >>> import networkx as nx
    >>> dist = nx.floyd_warshall(nx.path_graph(3), backend="warpath")
    >>> dict(dist[0])
    {0: 0, 1: 1, 2: 2}

    See Also
    --------
    networkx.floyd_warshall, floyd_warshall_predecessor_and_distance
    """
    return floyd_warshall_predecessor_and_distance(G, weight=weight)[1]


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """All-pairs lengths as a matrix (networkx's ``floyd_warshall_numpy``).

    Parameters
    ----------
    G : BackendGraph
    nodelist : list, optional
        Row and column order: every node once (default: graph order).
    weight : str
        Read by the conversion already.

    Returns
    -------
    numpy.ndarray
        float64, ``inf`` where unreachable.

    Raises
    ------
    NetworkXError
        If ``nodelist`` is not every node exactly once.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([("a", "b", {"weight": 2.5})])
    >>> nx.floyd_warshall_numpy(G, nodelist=["b", "a"], backend="warpath").tolist()
    [[0.0, inf], [2.5, 0.0]]

    See Also
    --------
    networkx.floyd_warshall_numpy
    """
    if nodelist is not None:
        if not (len(nodelist) == len(G) == len(set(nodelist))):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)")
        missing = set(nodelist) - set(G.nodes)
        if missing:
            raise nx.NetworkXError(f"Nodes {missing} in nodelist is not in G")
        positions = np.array([G.index[v] for v in nodelist], dtype=np.int64)
    else:
        positions = np.arange(len(G))
    n = len(G)
    where = np.empty(n, dtype=np.int64)
    where[positions] = np.arange(n)
    a = np.full((n, n), np.inf)
    a[where[G.tails()], where[G.indices]] = G.weights
    np.fill_diagonal(a, 0)
    return floyd_warshall_numpy_kernel(a)
