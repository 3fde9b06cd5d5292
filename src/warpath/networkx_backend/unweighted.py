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
    """networkx's ``single_source_shortest_path_length``: ``{node: hops}`` in BFS order."""
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    return _lengths(G, (G.indptr, G.indices), s, cutoff)


def single_target_shortest_path_length(G, target, cutoff=None):
    """networkx's ``single_target_shortest_path_length``: hops to ``target``, BFS order backwards."""
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    return _lengths(G, G.predecessor_csr(), t, cutoff)


def all_pairs_shortest_path_length(G, cutoff=None):
    """networkx's ``all_pairs_shortest_path_length``: yields ``(node, lengths)``."""
    for n in G:
        yield (n, single_source_shortest_path_length(G, n, cutoff=cutoff))


def single_source_shortest_path(G, source, cutoff=None):
    """networkx's ``single_source_shortest_path``: ``{node: path}``."""
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} not in G"))
    return _paths(G, (G.indptr, G.indices), s, cutoff, prepend=False)


def single_target_shortest_path(G, target, cutoff=None):
    """networkx's ``single_target_shortest_path``: ``{node: path to target}``."""
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} not in G"))
    return _paths(G, G.predecessor_csr(), t, cutoff, prepend=True)


def all_pairs_shortest_path(G, cutoff=None):
    """networkx's ``all_pairs_shortest_path``: yields ``(node, paths)``."""
    for n in G:
        yield (n, single_source_shortest_path(G, n, cutoff=cutoff))


def bidirectional_shortest_path(G, source, target):
    """networkx's ``bidirectional_shortest_path``: the path its two-fringe search meets on."""
    s = node_of(G, source, nx.NodeNotFound(f"Source {source} is not in G"))
    t = node_of(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    path = bidirectional_bfs((G.indptr, G.indices), G.predecessor_csr(), s, t)
    if path is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return [G.nodes[i] for i in path]


def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """networkx's ``predecessor``: every node's BFS predecessors one level closer."""
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
