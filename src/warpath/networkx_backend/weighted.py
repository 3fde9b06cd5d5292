"""The weighted shortest-path functions of ``networkx.algorithms.shortest_paths.weighted``.

Each takes networkx's arguments (``G`` already converted to a
:class:`~.graph.BackendGraph` with the ``weight`` attribute read, so
``weight`` itself is not used again) and returns what networkx returns, in
the same order and with the same exceptions.  The searches are the
networkx-order kernels of this package (:mod:`.dijkstra_order`,
:mod:`.bellman_ford_order`, :mod:`.bidirectional_dijkstra`), so tie-breaking
among equal paths, ``cutoff`` and early stops match networkx; lengths alone
may run on the GPU (:mod:`.device_lengths`).

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.graph import BackendGraph
>>> G = BackendGraph.from_networkx(nx.path_graph(4), "weight")
>>> single_source_dijkstra(G, 0, target=3)
(3, [0, 1, 2, 3])
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from . import device_lengths
from .bellman_ford_order import bellman_ford_scan
from .bidirectional_dijkstra import bidirectional_dijkstra as _bidirectional_scan
from .dijkstra_order import dijkstra_scan, tight_predecessors
from .results import (SharedObjects, grouped_lists, index_or_none, lengths, lengths_in_order,
                      node_of, paths_by_parent, value, walk_back)


def _source_indices(G, sources):
    """networkx's checks on ``sources``, then their indices in iteration order."""
    if not sources:
        raise ValueError("sources must not be empty")
    return [node_of(G, s, nx.NodeNotFound(f"Node {s} not found in graph")) for s in sources]


def _run_dijkstra(G, starts, cutoff=None, target=None, *, record=True):
    """The networkx-order Dijkstra on ``G``'s compact arrays (``record``: parents too)."""
    target_index = index_or_none(G, target) if target is not None else None
    indptr, indices, weights = G.compact_csr()
    return dijkstra_scan(indptr, indices, weights, starts, cutoff,
                         -1 if target_index is None else target_index, G.largest_weight,
                         record=record)


# ------------------------------------------------------------------ Dijkstra

def dijkstra_path(G, source, target, weight="weight"):
    """The nodes of a shortest path from ``source`` to ``target`` (networkx's ``dijkstra_path``).

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    list
        The path networkx returns: among equal paths, the one its search finds.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` cannot be reached.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.dijkstra_path(G, 0, 3, backend="warpath")
    [0, 2, 1, 3]

    See Also
    --------
    networkx.dijkstra_path, single_source_dijkstra
    """
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def dijkstra_path_length(G, source, target, weight="weight"):
    """The length of a shortest path from ``source`` to ``target`` (``dijkstra_path_length``).

    The search stops when ``target`` settles, as networkx's does.

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    int or float
        ``0`` when ``source == target``.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` cannot be reached.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.dijkstra_path_length(G, 0, 3, backend="warpath")
    4

    See Also
    --------
    networkx.dijkstra_path_length
    """
    s = node_of(G, source, nx.NodeNotFound(f"Node {source} not found in graph"))
    if source == target:
        return 0
    run = _run_dijkstra(G, [s], target=target, record=False)
    t = index_or_none(G, target)
    if t is None or run.order.size == 0 or run.order[-1] != t:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return value(run.dist, t, (s,))


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    """Shortest paths from ``source`` to each node it reaches (``single_source_dijkstra_path``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: path}`` in the order networkx settles the nodes.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.single_source_dijkstra_path(G, 0, backend="warpath")
    {0: [0], 2: [0, 2], 1: [0, 2, 1], 3: [0, 2, 1, 3]}

    See Also
    --------
    networkx.single_source_dijkstra_path, multi_source_dijkstra
    """
    return multi_source_dijkstra_path(G, {source}, cutoff=cutoff, weight=weight)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """Shortest-path lengths from ``source`` (``single_source_dijkstra_path_length``).

    The lengths-only search records no parents, so it is the backend's
    fastest Dijkstra (``docs/performance.md``).  With
    ``nx.config.backends.warpath.device`` "auto" or "cuda", a usable GPU,
    no ``cutoff`` and non-negative weights, warpath's GPU SSSP gives the
    same lengths, listed by distance with ties in graph order.

    Parameters
    ----------
    G : BackendGraph
    source : node
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: length}`` in the order networkx settles the nodes.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.single_source_dijkstra_path_length(G, 0, backend="warpath")
    {0: 0, 2: 1, 1: 3, 3: 4}
    >>> nx.single_source_dijkstra_path_length(G, 0, cutoff=3, backend="warpath")
    {0: 0, 2: 1, 1: 3}

    See Also
    --------
    networkx.single_source_dijkstra_path_length, multi_source_dijkstra_path_length
    """
    return multi_source_dijkstra_path_length(G, {source}, cutoff=cutoff, weight=weight)


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    """Lengths and paths from ``source``, or to one ``target`` (``single_source_dijkstra``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    target : node, optional
        Stop when it settles and return its length and path only.
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    (dict, dict) or (number, list)
        ``(lengths, paths)`` keyed by node in settle order, or with a
        ``target`` its ``(length, path)``.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` is given and cannot be reached.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.single_source_dijkstra(G, 0, target=3, backend="warpath")
    (4, [0, 2, 1, 3])
    >>> nx.single_source_dijkstra(G, 1, backend="warpath")
    ({1: 0, 3: 1}, {1: [1], 3: [1, 3]})

    See Also
    --------
    networkx.single_source_dijkstra, multi_source_dijkstra
    """
    return multi_source_dijkstra(G, {source}, target=target, cutoff=cutoff, weight=weight)


def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    """Shortest paths from the nearest of ``sources`` (``multi_source_dijkstra_path``).

    Parameters
    ----------
    G : BackendGraph
    sources : non-empty iterable of nodes
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: path}``, each path starting at one of ``sources``.

    Raises
    ------
    ValueError
        If ``sources`` is empty.
    NodeNotFound
        If a source is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.multi_source_dijkstra_path(G, {1, 2}, backend="warpath")
    {1: [1], 2: [2], 3: [1, 3]}

    See Also
    --------
    networkx.multi_source_dijkstra_path, multi_source_dijkstra
    """
    return multi_source_dijkstra(G, sources, cutoff=cutoff, weight=weight)[1]


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    """Lengths from the nearest of ``sources`` (``multi_source_dijkstra_path_length``).

    Lengths only: the search records no parents.  One source (repeated or
    not) may run on the GPU as :func:`single_source_dijkstra_path_length` does.

    Parameters
    ----------
    G : BackendGraph
    sources : non-empty iterable of nodes
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: length}`` in the order networkx settles the nodes.

    Raises
    ------
    ValueError
        If ``sources`` is empty.
    NodeNotFound
        If a source is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.multi_source_dijkstra_path_length(G, {1, 2}, backend="warpath")
    {1: 0, 2: 0, 3: 1}

    See Also
    --------
    networkx.multi_source_dijkstra_path_length
    """
    starts = _source_indices(G, sources)
    on_device = device_lengths.lengths_from(G, starts, cutoff)
    if on_device is not None:
        return on_device
    run = _run_dijkstra(G, starts, cutoff, record=False)
    return lengths_in_order(G, run.order, run.order_dist, starts)


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    """Lengths and paths from the nearest of ``sources`` (``multi_source_dijkstra``).

    Parameters
    ----------
    G : BackendGraph
    sources : non-empty iterable of nodes
    target : node, optional
        Stop when it settles and return its length and path only.
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    (dict, dict) or (number, list)
        ``(lengths, paths)``, or with a ``target`` its ``(length, path)``.

    Raises
    ------
    ValueError
        If ``sources`` is empty.
    NodeNotFound
        If a source is not in ``G``.
    NetworkXNoPath
        If ``target`` is given and cannot be reached.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.multi_source_dijkstra(G, {0, 1}, target=3, backend="warpath")
    (1, [1, 3])

    See Also
    --------
    networkx.multi_source_dijkstra
    """
    starts = _source_indices(G, sources)
    if target in sources:
        return (0, [target])
    run = _run_dijkstra(G, starts, cutoff, target)
    if target is None:
        distinct = list(dict.fromkeys(starts))
        paths = paths_by_parent(G, distinct, run.order[len(distinct):], run.parent)
        return lengths_in_order(G, run.order, run.order_dist, starts), paths
    t = index_or_none(G, target)
    if t is None or run.order.size == 0 or run.order[-1] != t:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    return value(run.dist, t, starts), walk_back(G, run.parent, t)


def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight"):
    """Tight predecessors and lengths from ``source`` (``dijkstra_predecessor_and_distance``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    (dict, dict)
        ``pred``: ``{node: [predecessors]}``, all the tight ones, in the
        order networkx appends them; ``dist``: ``{node: length}``.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.cycle_graph(4)
    >>> pred, dist = nx.dijkstra_predecessor_and_distance(G, 0, backend="warpath")
    >>> pred, dist
    ({0: [], 1: [0], 3: [0], 2: [1, 3]}, {0: 0, 1: 1, 3: 1, 2: 2})

    See Also
    --------
    networkx.dijkstra_predecessor_and_distance
    """
    s = node_of(G, source, nx.NodeNotFound(f"Node {source} is not found in the graph"))
    run = _run_dijkstra(G, [s], cutoff)
    heads, tails = tight_predecessors(G.indptr, G.indices, G.weights, run)
    pred = grouped_lists(G, run.discovered, heads, tails)
    return pred, lengths_in_order(G, run.order, run.order_dist, (s,))


def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    """Lengths and paths from every node (networkx's ``all_pairs_dijkstra``).

    Parameters
    ----------
    G : BackendGraph
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    iterator
        ``(node, (lengths, paths))`` for each node in graph order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> dict(nx.all_pairs_dijkstra(G, backend="warpath"))[1]
    ({1: 0, 3: 1}, {1: [1], 3: [1, 3]})

    See Also
    --------
    networkx.all_pairs_dijkstra
    """
    for n in G:
        yield (n, single_source_dijkstra(G, n, cutoff=cutoff, weight=weight))


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """Shortest-path lengths from every node (``all_pairs_dijkstra_path_length``).

    On the GPU (``nx.config.backends.warpath.device``, see
    :func:`single_source_dijkstra_path_length`) the rows come from
    warpath's multi-source SSSP in batches.

    Parameters
    ----------
    G : BackendGraph
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    iterator
        ``(node, {node: length})`` for each node in graph order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> dict(nx.all_pairs_dijkstra_path_length(G, backend="warpath"))[2]
    {2: 0, 1: 2, 3: 3}

    See Also
    --------
    networkx.all_pairs_dijkstra_path_length
    """
    on_device = device_lengths.all_pairs_lengths(G, cutoff)
    if on_device is not None:
        yield from on_device
        return
    shared = SharedObjects(G)   # one key object per node and one int per length, for all rows
    for s, n in enumerate(G):
        run = _run_dijkstra(G, [s], cutoff, record=False)
        yield (n, lengths_in_order(G, run.order, run.order_dist, (s,), shared))


def all_pairs_dijkstra_path(G, cutoff=None, weight="weight"):
    """Shortest paths from every node (networkx's ``all_pairs_dijkstra_path``).

    Parameters
    ----------
    G : BackendGraph
    cutoff : int or float, optional
        Paths longer than this are not followed (networkx's rule).
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    iterator
        ``(node, {node: path})`` for each node in graph order.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> dict(nx.all_pairs_dijkstra_path(G, backend="warpath"))[2]
    {2: [2], 1: [2, 1], 3: [2, 1, 3]}

    See Also
    --------
    networkx.all_pairs_dijkstra_path
    """
    for n in G:
        yield (n, single_source_dijkstra_path(G, n, cutoff=cutoff, weight=weight))


def bidirectional_dijkstra(G, source, target, weight="weight"):
    """Length and path between two nodes by networkx's two-way search (``bidirectional_dijkstra``).

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    (number, list)

    Raises
    ------
    NodeNotFound
        If ``source`` or ``target`` is not in ``G``.
    NetworkXNoPath
        If no path joins them.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 1)])
    >>> nx.bidirectional_dijkstra(G, 0, 3, backend="warpath")
    (4, [0, 2, 1, 3])

    See Also
    --------
    networkx.bidirectional_dijkstra
    """
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    if source == target:
        return (0, [source])
    found = _bidirectional_scan((G.indptr, G.indices, G.weights), G.predecessor_csr(), s, t)
    if found is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    length, path = found
    return length, [G.nodes[i] for i in path]


# ------------------------------------------------------------------ Bellman-Ford

def _negative_self_loop(G) -> bool:
    loops = G.tails() == G.indices
    return bool(np.any(G.weights[loops] < 0))


def _run_bellman_ford(G, starts, heuristic=True):
    run = bellman_ford_scan(G.indptr, G.indices, G.weights, starts, heuristic)
    if run.cycle_at >= 0:
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    return run


def _bellman_ford_source(G, source):
    return node_of(G, source, nx.NodeNotFound(f"Source {source} not in G"))


def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight",
                                          heuristic=False):
    """Bellman-Ford predecessors and lengths (``bellman_ford_predecessor_and_distance``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    target : node, optional
        Accepted as networkx accepts it; the whole search runs either way.
    weight : str
        Read by the conversion already (module docstring).
    heuristic : bool
        networkx's early negative-cycle check; it changes only how soon a
        cycle is noticed.

    Returns
    -------
    (dict, dict)
        ``pred`` (``{node: [predecessors]}``) and ``dist`` (``{node: length}``).

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.bellman_ford_predecessor_and_distance(G, 0, backend="warpath")
    ({0: [], 1: [2], 2: [0], 3: [1]}, {0: 0, 1: 1, 2: 3, 3: 2})

    See Also
    --------
    networkx.bellman_ford_predecessor_and_distance, single_source_bellman_ford
    """
    s = node_of(G, source, nx.NodeNotFound(f"Node {source} is not found in the graph"))
    if _negative_self_loop(G):
        raise nx.NetworkXUnbounded("Negative cycle detected.")
    if len(G) == 1:
        return {source: []}, {source: 0}
    run = _run_bellman_ford(G, [s], heuristic)
    pred = {G.nodes[v]: [G.nodes[u] for u in us] for v, us in run.predecessor_lists().items()}
    return pred, lengths(G, run.discovered, run.dist, (s,))


def _bellman_ford_paths(G, s, run, target):
    """networkx's paths: each follows first predecessors (the last strict improver) back."""
    first = run.first_predecessors()
    first[s] = -1
    if target is not None:
        return walk_back(G, first, target)
    paths = {G.nodes[s]: [G.nodes[s]]}
    for v in run.discovered.tolist():
        if v != s:
            paths[G.nodes[v]] = walk_back(G, first, v)
    return paths


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    """Bellman-Ford lengths and paths, or one ``target``'s (``single_source_bellman_ford``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    target : node, optional
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    (dict, dict) or (number, list)
        ``(lengths, paths)``, or with a ``target`` its ``(length, path)``.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` is given and cannot be reached.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.single_source_bellman_ford(G, 0, target=3, backend="warpath")
    (2, [0, 2, 1, 3])

    See Also
    --------
    networkx.single_source_bellman_ford
    """
    if source == target:
        node_of(G, source, nx.NodeNotFound(f"Node {source} is not found in the graph"))
        return (0, [source])
    s = _bellman_ford_source(G, source)
    run = _run_bellman_ford(G, [s])
    if target is None:
        return lengths(G, run.discovered, run.dist, (s,)), _bellman_ford_paths(G, s, run, None)
    t = index_or_none(G, target)
    if t is None or not run.reached[t]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return value(run.dist, t, (s,)), _bellman_ford_paths(G, s, run, t)


def bellman_ford_path(G, source, target, weight="weight"):
    """The nodes of a shortest path by Bellman-Ford (networkx's ``bellman_ford_path``).

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    list

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` cannot be reached.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.bellman_ford_path(G, 0, 1, backend="warpath")
    [0, 2, 1]

    See Also
    --------
    networkx.bellman_ford_path
    """
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


def bellman_ford_path_length(G, source, target, weight="weight"):
    """The length of a shortest path by Bellman-Ford (networkx's ``bellman_ford_path_length``).

    Parameters
    ----------
    G : BackendGraph
    source, target : nodes
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    int or float

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXNoPath
        If ``target`` cannot be reached.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.bellman_ford_path_length(G, 0, 3, backend="warpath")
    2

    See Also
    --------
    networkx.bellman_ford_path_length
    """
    if source == target:
        node_of(G, source, nx.NodeNotFound(f"Node {source} not found in graph"))
        return 0
    s = _bellman_ford_source(G, source)
    run = _run_bellman_ford(G, [s])
    t = index_or_none(G, target)
    if t is None or not run.reached[t]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return value(run.dist, t, (s,))


def single_source_bellman_ford_path(G, source, weight="weight"):
    """Bellman-Ford shortest paths from ``source`` (``single_source_bellman_ford_path``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: path}``, the source first, then in discovery order.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.single_source_bellman_ford_path(G, 0, backend="warpath")
    {0: [0], 1: [0, 2, 1], 2: [0, 2], 3: [0, 2, 1, 3]}

    See Also
    --------
    networkx.single_source_bellman_ford_path
    """
    return single_source_bellman_ford(G, source, weight=weight)[1]


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """Bellman-Ford lengths from ``source`` (``single_source_bellman_ford_path_length``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{node: length}`` in discovery order.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXUnbounded
        If a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.single_source_bellman_ford_path_length(G, 0, backend="warpath")
    {0: 0, 1: 1, 2: 3, 3: 2}

    See Also
    --------
    networkx.single_source_bellman_ford_path_length
    """
    s = _bellman_ford_source(G, source)
    run = _run_bellman_ford(G, [s])
    return lengths(G, run.discovered, run.dist, (s,))


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    """Bellman-Ford lengths from every node (``all_pairs_bellman_ford_path_length``).

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    iterator
        ``(node, {node: length})`` for each node in graph order.

    Raises
    ------
    NetworkXUnbounded
        When a row's search meets a negative cycle.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> dict(nx.all_pairs_bellman_ford_path_length(G, backend="warpath"))[2]
    {2: 0, 1: -2, 3: -1}

    See Also
    --------
    networkx.all_pairs_bellman_ford_path_length
    """
    for n in G:
        yield (n, dict(single_source_bellman_ford_path_length(G, n, weight=weight)))


def all_pairs_bellman_ford_path(G, weight="weight"):
    """Bellman-Ford paths from every node (networkx's ``all_pairs_bellman_ford_path``).

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    iterator
        ``(node, {node: path})`` for each node in graph order.

    Raises
    ------
    NetworkXUnbounded
        When a row's search meets a negative cycle.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> dict(nx.all_pairs_bellman_ford_path(G, backend="warpath"))[2]
    {2: [2], 1: [2, 1], 3: [2, 1, 3]}

    See Also
    --------
    networkx.all_pairs_bellman_ford_path
    """
    for n in G:
        yield (n, single_source_bellman_ford_path(G, n, weight=weight))


def negative_edge_cycle(G, weight="weight", heuristic=True):
    """Whether ``G`` has a negative cycle anywhere (networkx's ``negative_edge_cycle``).

    warpath's Johnson potentials (Bellman-Ford from every node at once)
    decide it; graphs :class:`warpath.Graph` cannot hold (infinite weights)
    take the networkx-order search instead.

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already (module docstring).
    heuristic : bool
        networkx's early check; it changes how soon networkx notices a
        cycle, not the answer.

    Returns
    -------
    bool

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.negative_edge_cycle(G, backend="warpath")
    False
    >>> G.add_edge(1, 2, weight=1)
    >>> nx.negative_edge_cycle(G, backend="warpath")
    True

    See Also
    --------
    networkx.negative_edge_cycle, find_negative_cycle
    """
    if G.indices.size == 0:
        return False
    if _negative_self_loop(G):
        return True
    if G.weights.min() >= 0:
        return False
    try:
        graph = G.warpath_graph()
    except NotImplementedError:
        run = bellman_ford_scan(G.indptr, G.indices, G.weights, np.arange(len(G)), heuristic)
        return bool(run.cycle_at >= 0)
    from ..apsp.johnson import johnson_dtype, potentials
    from ..errors import NegativeCycleError

    try:
        potentials(graph, johnson_dtype(graph))
    except NegativeCycleError:
        return True
    return False


def find_negative_cycle(G, source, weight="weight"):
    """The negative cycle networkx's Bellman-Ford from ``source`` finds (``find_negative_cycle``).

    Parameters
    ----------
    G : BackendGraph
    source : node
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    list
        The cycle's nodes, the first repeated at the end.

    Raises
    ------
    NodeNotFound
        If ``source`` is not in ``G``.
    NetworkXError
        If no negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> G.add_edge(1, 2, weight=1)
    >>> nx.find_negative_cycle(G, 0, backend="warpath")
    [2, 1, 2]

    See Also
    --------
    networkx.find_negative_cycle, negative_edge_cycle
    """
    s = _bellman_ford_source(G, source)
    run = bellman_ford_scan(G.indptr, G.indices, G.weights, [s], True)
    if run.cycle_at < 0:
        raise nx.NetworkXError("No negative cycles detected.")
    cycle = _cycle_through(run, int(run.cycle_at))
    return [G.nodes[i] for i in cycle]


def _cycle_through(run, v):
    """networkx's depth-first walk over the predecessor lists from ``v`` back to ``v``.

    Each step takes the last untried predecessor of the node on top; the
    walk ends when the top node lists ``v``.
    """
    stack = [(v, run.predecessors_of(v))]
    on_walk = {v}
    cycle = []
    while stack:
        node, untried = stack[-1]
        if v in untried:
            cycle.extend([node, v])
            return cycle[::-1]
        if untried:
            previous = untried.pop()
            if previous not in on_walk:
                stack.append((previous, run.predecessors_of(previous)))
                cycle.append(node)
                on_walk.add(previous)
        else:
            stack.pop()
            if cycle:
                cycle.pop()
            else:
                raise nx.NetworkXError("Negative cycle is detected but not found")
    raise nx.NetworkXUnbounded("negative cycle detected but not identified")


def johnson(G, weight="weight"):
    """Shortest paths between all pairs by Johnson's reweighting (networkx's ``johnson``).

    Parameters
    ----------
    G : BackendGraph
    weight : str
        Read by the conversion already (module docstring).

    Returns
    -------
    dict
        ``{source: {target: path}}``.

    Raises
    ------
    NetworkXUnbounded
        If ``G`` has a negative cycle.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_weighted_edges_from([(0, 1, 4), (0, 2, 3), (2, 1, -2), (1, 3, 1)])
    >>> nx.johnson(G, backend="warpath")[0]
    {0: [0], 2: [0, 2], 1: [0, 2, 1], 3: [0, 2, 1, 3]}

    See Also
    --------
    networkx.johnson
    """
    starts = np.arange(len(G))
    run = _run_bellman_ford(G, starts)
    h = run.dist
    reweighted = (G.weights + h[G.tails()]) - h[G.indices]
    result = {}
    for s in range(len(G)):
        single = dijkstra_scan(G.indptr, G.indices, reweighted, [s])
        result[G.nodes[s]] = paths_by_parent(G, [s], single.order[1:], single.parent)
    return result
