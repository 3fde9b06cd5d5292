"""The unweighted shortest-path functions of ``networkx.algorithms.shortest_paths.unweighted``.

Breadth-first searches in networkx's order (:mod:`.bfs_order`): the same
discovery order, parents, ``cutoff`` rule and exceptions.  Single-target
searches walk the arcs backwards in ``G._pred`` order, as networkx does.

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.graph import BackendGraph
>>> G = BackendGraph.from_networkx(nx.cycle_graph(4))
>>> single_source_shortest_path_length(G, 0)
{0: 0, 1: 1, 3: 1, 2: 2}
"""

from __future__ import annotations

import networkx as nx

from .bfs_order import bfs_scan, bidirectional_bfs, same_level_predecessors
from .results import grouped_lists, lengths, node_of, paths_by_parent


def _lengths(G, csr, start, cutoff):
    run = bfs_scan(csr[0], csr[1], start, cutoff)
    return lengths(G, run.order, run.level)


def _paths(G, csr, start, cutoff, prepend):
    run = bfs_scan(csr[0], csr[1], start, cutoff)
    return paths_by_parent(G, [start], run.order[1:], run.parent, prepend=prepend)


def single_source_shortest_path_length(G, source, cutoff=None):
    """Hops from ``source`` to each node it reaches (``single_source_shortest_path_length``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    dict
        ``{node: hops}`` in breadth-first discovery order.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path_length(nx.cycle_graph(5), 0, backend="warpath")
    {0: 0, 1: 1, 4: 1, 2: 2, 3: 2}

    See Also
    --------
    networkx.single_source_shortest_path_length
    """
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    return _lengths(G, (G.indptr, G.indices), s, cutoff)


def single_target_shortest_path_length(G, target, cutoff=None):
    """Hops from each node that reaches ``target`` (``single_target_shortest_path_length``).

    The search walks arcs backwards in ``G._pred`` order, as networkx's does.

    Parameters
    ----------
    G : BackendGraph
    target : node
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    dict
        ``{node: hops}`` in backward discovery order (networkx 3.5+ returns
        a dict, earlier versions an iterator of pairs).

    Raises
    ------
    NodeNotFound
        If ``target`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([(0, 1), (1, 2), (3, 2)])
    >>> nx.single_target_shortest_path_length(G, 2, backend="warpath")
    {2: 0, 1: 1, 3: 1, 0: 2}

    See Also
    --------
    networkx.single_target_shortest_path_length
    """
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    return _lengths(G, G.predecessor_csr(), t, cutoff)


def all_pairs_shortest_path_length(G, cutoff=None):
    """Hops between all pairs, one source at a time (``all_pairs_shortest_path_length``).

    Parameters
    ----------
    G : BackendGraph
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    iterator
        ``(node, {node: hops})`` for each node in graph order.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path_length(nx.path_graph(3), backend="warpath"))[1]
    {1: 0, 0: 1, 2: 1}

    See Also
    --------
    networkx.all_pairs_shortest_path_length
    """
    for n in G:
        yield (n, single_source_shortest_path_length(G, n, cutoff=cutoff))


def single_source_shortest_path(G, source, cutoff=None):
    """Fewest-hop paths from ``source`` (networkx's ``single_source_shortest_path``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    dict
        ``{node: path}``, each path through the node that discovered it.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.single_source_shortest_path(nx.cycle_graph(4), 0, backend="warpath")
    {0: [0], 1: [0, 1], 3: [0, 3], 2: [0, 1, 2]}

    See Also
    --------
    networkx.single_source_shortest_path
    """
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} not in G"))
    return _paths(G, (G.indptr, G.indices), s, cutoff, prepend=False)


def single_target_shortest_path(G, target, cutoff=None):
    """Fewest-hop paths into ``target`` (networkx's ``single_target_shortest_path``).

    Parameters
    ----------
    G : BackendGraph
    target : node
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    dict
        ``{node: path from node to target}``.

    Raises
    ------
    NodeNotFound
        If ``target`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    >>> nx.single_target_shortest_path(G, "c", backend="warpath")
    {'c': ['c'], 'b': ['b', 'c'], 'a': ['a', 'c']}

    See Also
    --------
    networkx.single_target_shortest_path
    """
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} not in G"))
    return _paths(G, G.predecessor_csr(), t, cutoff, prepend=True)


def all_pairs_shortest_path(G, cutoff=None):
    """Fewest-hop paths between all pairs (networkx's ``all_pairs_shortest_path``).

    Parameters
    ----------
    G : BackendGraph
    cutoff : int, optional
        Depth to stop the search at (networkx's rule: levels while ``cutoff > level``).

    Returns
    -------
    iterator
        ``(node, {node: path})`` for each node in graph order.

    Examples
    --------
    >>> import networkx as nx
    >>> dict(nx.all_pairs_shortest_path(nx.path_graph(3), backend="warpath"))[2]
    {2: [2], 1: [2, 1], 0: [2, 1, 0]}

    See Also
    --------
    networkx.all_pairs_shortest_path
    """
    for n in G:
        yield (n, single_source_shortest_path(G, n, cutoff=cutoff))


def bidirectional_shortest_path(G, source, target):
    """The fewest-hop path networkx's two-fringe search meets on (``bidirectional_shortest_path``).

    It grows the smaller fringe (the forward one on a tie) and stops at the
    first node both searches have met, as networkx's ``_bidirectional_pred_succ``.

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes

    Returns
    -------
    list

    Raises
    ------
    NodeNotFound
        If ``source`` or ``target`` is not in ``G``.
    NetworkXNoPath
        If no path joins them.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.bidirectional_shortest_path(nx.grid_2d_graph(2, 3), (0, 0), (1, 2), backend="warpath")
    [(0, 0), (1, 0), (1, 1), (1, 2)]

    See Also
    --------
    networkx.bidirectional_shortest_path
    """
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    path = bidirectional_bfs((G.indptr, G.indices), G.predecessor_csr(), s, t)
    if path is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return [G.nodes[i] for i in path]


def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """Each node's breadth-first predecessors one level closer to ``source`` (``predecessor``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    target : node, optional
        Only this node's list (``[]`` when not reached).
    cutoff : int, optional
        Depth to stop at (0 or ``None``: no limit).
    return_seen : bool, optional
        Also return the levels (``{node: level}``, or the target's level, -1
        when not reached).

    Returns
    -------
    dict or list, or a pair with ``return_seen``

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.predecessor(nx.cycle_graph(4), 0, backend="warpath")
    {0: [], 1: [0], 3: [0], 2: [1, 3]}
    >>> nx.predecessor(nx.cycle_graph(4), 0, target=2, return_seen=True, backend="warpath")
    ([1, 3], 2)

    See Also
    --------
    networkx.predecessor
    """
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} not in G"))
    # networkx expands level 0 always and stops after the level where cutoff <= level
    # (a cutoff of 0 or None: no limit).
    limit = None if not cutoff else max(cutoff, 0.5)
    run = bfs_scan(G.indptr, G.indices, s, limit)
    heads, tails = same_level_predecessors(G.indptr, G.indices, run)
    pred = grouped_lists(G, run.order, heads, tails)
    if target is not None:
        if target not in pred:
            return ([], -1) if return_seen else []
        return (pred[target], run.level[G.index[target]].item()) if return_seen else pred[target]
    if return_seen:
        return pred, lengths(G, run.order, run.level)
    return pred
