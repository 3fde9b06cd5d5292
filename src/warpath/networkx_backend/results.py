"""networkx-shaped results from index arrays: dicts keyed by node, paths as lists of nodes.

Building a dict is the costly part of a large answer (a million entries take
tens of milliseconds however they are made), so keys and values go through
numpy fancy indexing and one ``tolist()`` each, then ``dict(zip(...))``,
rather than a Python loop over indices; ``docs/performance.md`` has the
figures.

Examples
--------
>>> import networkx as nx, numpy as np
>>> from warpath.networkx_backend.graph import BackendGraph
>>> g = BackendGraph.from_networkx(nx.path_graph("abc"))
>>> lengths(g, np.array([2, 0]), np.array([0.5, 1.0, 0.0]), sources=[2])
{'c': 0, 'a': 0.5}
"""

from __future__ import annotations

import numpy as np

#: Entries per step when a large result dict is built (see :func:`lengths_in_order`).
DICT_CHUNK = 4096


def node_of(graph, node, error):
    """The index of ``node`` in ``graph``, or raise ``error`` (an exception instance) if absent.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph("ab"))
    >>> node_of(g, "b", nx.NodeNotFound("no b"))
    1
    >>> node_of(g, [], nx.NodeNotFound("not a node"))
    Traceback (most recent call last):
    networkx.exception.NodeNotFound: not a node
    """
    try:
        return graph.index[node]
    except (KeyError, TypeError):
        raise error from None


def index_or_none(graph, node):
    """The index of ``node``, or ``None`` when it is not a node of ``graph``.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph(2))
    >>> index_or_none(g, 1), index_or_none(g, 5), index_or_none(g, {})
    (1, None, None)
    """
    try:
        return graph.index.get(node)
    except TypeError:
        return None


def lengths(graph, order, values, sources=()):
    """``{node: value}`` over ``order`` (node indices), in that order; ``values`` by node index.

    ``sources`` keep the integer ``0`` networkx gives a start node, also when
    the other lengths are floats.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph(3))
    >>> lengths(g, np.array([1, 0, 2]), np.array([7, 0, 7]), sources=[1])
    {1: 0, 0: 7, 2: 7}
    """
    return lengths_in_order(graph, order, values[order], sources)


def lengths_in_order(graph, order, ordered_values, sources=(), shared=None):
    """:func:`lengths` with the values already aligned with ``order``.

    ``shared``: a :class:`SharedObjects` of ``graph``, when this dict is one of
    many (all pairs): keys and integer values then come from it.

    Examples
    --------
    >>> import networkx as nx, numpy as np
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph(3))
    >>> lengths_in_order(g, np.array([1, 2]), np.array([0.0, 2.5]), sources=[1])
    {1: 0, 2: 2.5}
    >>> lengths_in_order(g, np.array([1, 2]), np.array([0, 3]), [1], SharedObjects(g))
    {1: 0, 2: 3}
    """
    if shared is not None:
        result = dict(zip(shared.keys(order), shared.values(ordered_values)))
    else:
        result = {}
        # In chunks: each chunk's new int objects go into the dict while still in cache.  On
        # Bremen (33K entries, after gc.collect() and a networkx call whose freed objects
        # leave the allocator's pools scattered) 4.0 ms instead of 4.5; the same on a fresh
        # heap.
        for start in range(0, order.size, DICT_CHUNK):
            chunk = slice(start, start + DICT_CHUNK)
            result.update(zip(graph.nodes_at(order[chunk]), ordered_values[chunk].tolist()))
    if ordered_values.dtype.kind == "f":
        nodes = graph.nodes
        for s in sources:
            if nodes[s] in result and result[nodes[s]] == 0:
                result[nodes[s]] = 0
    return result


class SharedObjects:
    """The keys and integer values of many dicts over one graph, each one Python object.

    An all-pairs answer of 5,000 nodes holds 25M entries.  Made fresh for
    each dict, its keys and values are 50M new Python objects, which cost
    more than the dicts' own inserts (``docs/performance.md``); taken from
    here, every dict refers to the graph's node objects and to one int object
    per distance value.  A row's integer values are shared when they all lie
    in ``[0, limit]`` (the table of ints grows by doubling up to ``limit``);
    other rows, and float values, are made fresh (``tolist()``).

    Parameters
    ----------
    graph : BackendGraph
    limit : int, optional
        The largest shared value; default ``max(65536, 8 n)`` for n nodes, so that
        the table stays small beside the n**2 entries it serves.

    Examples
    --------
    >>> import networkx as nx, numpy as np
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> shared = SharedObjects(BackendGraph.from_networkx(nx.path_graph(3)), limit=1000)
    >>> a, b = shared.values(np.array([0, 700])), shared.values(np.array([700, 2000]))
    >>> a, b, a[1] is shared.values(np.array([700]))[0], shared.keys(np.array([2, 0]))
    ([0, 700], [700, 2000], True, [2, 0])
    """

    def __init__(self, graph, limit=None):
        self.nodes = graph.node_objects
        self.limit = max(1 << 16, 8 * len(self.nodes)) if limit is None else int(limit)
        self._ints = np.empty(0, dtype=object)

    def keys(self, positions) -> list:
        """The node objects at ``positions`` (an integer array), as a list."""
        return self.nodes[positions].tolist()

    def values(self, values) -> list:
        """``values`` (a numpy array) as a list of Python numbers, shared ints where it can."""
        if values.dtype.kind not in "iu" or values.size == 0:
            return values.tolist()
        low, high = int(values.min()), int(values.max())
        if low < 0 or high > self.limit:
            return values.tolist()
        if high >= len(self._ints):
            size = min(max(high + 1, 2 * len(self._ints)), self.limit + 1)
            grown = np.empty(size, dtype=object)
            grown[:len(self._ints)] = self._ints
            grown[len(self._ints):] = list(range(len(self._ints), size))
            self._ints = grown
        return self._ints[values].tolist()


def value(values, i, sources=()):
    """One length as a Python number (``0`` for a source, as networkx).

    Examples
    --------
    >>> value(np.array([0.0, 2.5]), 0, sources=(0,)), value(np.array([0.0, 2.5]), 1)
    (0, 2.5)
    """
    if i in sources and values[i] == 0:
        return 0
    return values[i].item()


def paths_by_parent(graph, starts, order, parent, *, prepend=False):
    """networkx's paths dict: ``starts`` first (``[s]``), then each node of ``order`` by its parent.

    ``prepend``: paths run toward the start (``[v] + path(parent)``), as in
    single-target searches.  A node whose parent has no path yet raises the
    ``KeyError`` networkx raises in the same situation.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph("abc"))
    >>> paths_by_parent(g, [0], np.array([1, 2]), np.array([-1, 0, 1]))
    {'a': ['a'], 'b': ['a', 'b'], 'c': ['a', 'b', 'c']}
    """
    nodes = graph.nodes
    paths = {nodes[s]: [nodes[s]] for s in starts}
    keys = graph.nodes_at(order)
    parents = parent[order]
    parent_nodes = graph.nodes_at(np.where(parents >= 0, parents, 0))
    for v, p, has_parent in zip(keys, parent_nodes, (parents >= 0).tolist()):
        if not has_parent:
            raise KeyError(v)
        paths[v] = [v] + paths[p] if prepend else paths[p] + [v]
    return paths


def walk_back(graph, parent, target):
    """The node path from a start to index ``target`` by following ``parent`` (-1 ends it).

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph("abc"))
    >>> walk_back(g, np.array([-1, 0, 1]), 2)
    ['a', 'b', 'c']
    """
    path = [target]
    limit = parent.shape[0]
    while parent[path[-1]] >= 0 and len(path) <= limit:
        path.append(int(parent[path[-1]]))
    path.reverse()
    return [graph.nodes[i] for i in path]


def grouped_lists(graph, keys_order, heads, tails, seed=None):
    """``{node: [node, ...]}`` over ``keys_order``, listing ``tails`` under their ``heads``.

    ``heads``/``tails`` are grouped by head; ``seed`` pre-fills lists
    (networkx's ``{source: []}``).

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.cycle_graph(4))
    >>> grouped_lists(g, np.array([0, 1, 3, 2]), np.array([1, 3, 2, 2]), np.array([0, 0, 1, 3]))
    {0: [], 1: [0], 3: [0], 2: [1, 3]}
    """
    result = {node: [] for node in graph.nodes_at(keys_order)}
    if seed:
        result.update(seed)
    if heads.size:
        starts = np.flatnonzero(np.r_[True, heads[1:] != heads[:-1]])
        ends = np.r_[starts[1:], heads.size]
        tail_nodes = graph.nodes_at(tails)
        for head, lo, hi in zip(graph.nodes_at(heads[starts]), starts.tolist(), ends.tolist()):
            result[head] = tail_nodes[lo:hi]
    return result
