"""The backend graph: a networkx graph's adjacency as CSR arrays, in networkx's own order.

networkx's shortest-path functions break ties by the order of ``G._adj``
(which neighbour is scanned first) and return dicts in the order the search
met the nodes.  :class:`BackendGraph` therefore keeps each node's neighbours
in ``G._adj`` order (not sorted as :class:`warpath.Graph` would), so the
kernels of this package can follow networkx's scan order exactly; it builds
a :class:`warpath.Graph` from the same arrays when a warpath method runs.

Weights follow networkx's rules: the ``weight`` attribute of an edge, 1 where
it is missing, the smallest over parallel edges of a multigraph (networkx's
``_weight_function``).  Weights it cannot reproduce exactly (``None``, NaN,
strings, float32 or arbitrary-precision integers whose sums could pass
2**62) raise ``NotImplementedError``, which makes networkx's dispatcher run
its own implementation instead.

Examples
--------
>>> import networkx as nx
>>> G = nx.DiGraph([("a", "b", {"weight": 3}), ("a", "c", {})])
>>> g = BackendGraph.from_networkx(G, weight="weight")
>>> g.nodes, g.indptr.tolist(), g.indices.tolist(), g.weights.tolist()
(['a', 'b', 'c'], [0, 2, 2, 2], [1, 2], [3, 1])
"""

from __future__ import annotations

import numpy as np

#: Integer path sums must stay below this (networkx's ints never overflow; int64 must not).
INTEGER_SUM_LIMIT = 2 ** 62


def _csr_from_adjacency(adjacency, nodes, index, weight, multigraph):
    """``(indptr, indices, raw_weights)`` with each node's neighbours in ``adjacency`` order.

    ``raw_weights`` is a Python list (``None`` when ``weight`` is ``None``).
    """
    rows = [adjacency[u] for u in nodes]
    indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum([len(row) for row in rows], out=indptr[1:])
    indices = np.fromiter((index[v] for row in rows for v in row), dtype=np.int64,
                          count=int(indptr[-1]))
    if weight is None:
        return indptr, indices, None
    if multigraph:
        raw = [min(attrs.get(weight, 1) for attrs in keys.values())
               for row in rows for keys in row.values()]
    else:
        raw = [attrs.get(weight, 1) for row in rows for attrs in row.values()]
    return indptr, indices, raw


def weights_array(raw, num_nodes: int) -> np.ndarray:
    """Edge weights as int64 or float64, or ``NotImplementedError`` when that would not be exact.

    Examples
    --------
    >>> weights_array([1, 2.5], 2).dtype
    dtype('float64')
    >>> weights_array([True, 3], 2).tolist()
    [1, 3]
    """
    try:
        array = np.array(raw)
    except (OverflowError, ValueError, TypeError) as exc:
        raise NotImplementedError(f"edge weights warpath cannot use: {exc}") from None
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.dtype.kind in "biu":
        if array.dtype.kind == "u" and array.max() > np.iinfo(np.int64).max:
            raise NotImplementedError("integer weights beyond int64")
        array = array.astype(np.int64)
        largest = float(np.abs(array).max())
        if largest * max(num_nodes, 1) >= INTEGER_SUM_LIMIT:
            raise NotImplementedError(
                f"integer weights up to {largest:g} could overflow int64 path sums "
                "(networkx's Python integers do not)")
        return array
    if array.dtype == np.float64:
        if np.isnan(array).any():
            raise NotImplementedError("NaN edge weights")
        return array
    raise NotImplementedError(
        f"edge weights of type {array.dtype} (warpath takes Python or numpy ints and float64)")


class BackendGraph:
    """A networkx graph converted for warpath: nodes, CSR adjacency in networkx order, weights.

    Build one with :meth:`from_networkx` (networkx's dispatcher does it
    through ``convert_from_nx``).  Node ``i`` is ``nodes[i]``, the i-th node
    of the networkx graph; ``index`` maps a node back.  The arcs of node
    ``i`` are ``indices[indptr[i]:indptr[i+1]]`` in the order of
    ``G._adj[nodes[i]]`` (both directions for an undirected graph, like
    networkx's adjacency), with ``weights`` aligned (int64 or float64; all 1
    for an unweighted conversion).

    Attributes
    ----------
    nodes : list
    index : dict
        Node -> position in ``nodes``.
    indptr, indices : ndarray of int64
    weights : ndarray of int64 or float64
    weighted : bool
        Whether the conversion read a weight attribute (``weight_name``).
    directed, multigraph : bool

    Examples
    --------
    >>> import networkx as nx
    >>> g = BackendGraph.from_networkx(nx.path_graph(3))
    >>> len(g), g.is_directed(), g.indices.tolist()
    (3, False, [1, 0, 2, 1])
    """

    __networkx_backend__ = "warpath"

    def __init__(self, nodes, indptr, indices, weights, *, directed, multigraph,
                 weight_name=None, predecessors=None, graph_attrs=None):
        self.nodes = nodes
        self.index = {node: i for i, node in enumerate(nodes)}
        self.indptr = indptr
        self.indices = indices
        self.weighted = weights is not None
        self.weights = weights if weights is not None else np.ones(indices.size, dtype=np.int64)
        self.weight_name = weight_name
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        self.graph = dict(graph_attrs or {})
        self.__networkx_cache__ = {}
        # The live ``G._pred`` of a directed networkx graph: its order is the order edges
        # were added, which ``_adj`` does not record, and only the single-target and
        # bidirectional searches need it, so it is read on first use.
        self._predecessor_adjacency = predecessors
        self._cache = {}

    @classmethod
    def from_networkx(cls, nx_graph, weight=None, *, keep_graph_attrs=False):
        """Convert ``nx_graph``, reading edge weights from attribute ``weight`` (``None``: unweighted).

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.MultiGraph([(0, 1, {"w": 5}), (0, 1, {"w": 2})])
        >>> BackendGraph.from_networkx(G, "w").weights.tolist()  # the lighter parallel edge
        [2, 2]

        Raises
        ------
        NotImplementedError
            For weights warpath cannot reproduce exactly (see the module docstring).
        """
        nodes = list(nx_graph)
        index = {node: i for i, node in enumerate(nodes)}
        multigraph = nx_graph.is_multigraph()
        indptr, indices, raw = _csr_from_adjacency(nx_graph._adj, nodes, index, weight, multigraph)
        weights = None if raw is None else weights_array(raw, len(nodes))
        directed = nx_graph.is_directed()
        return cls(nodes, indptr, indices, weights, directed=directed, multigraph=multigraph,
                   weight_name=weight, predecessors=nx_graph._pred if directed else None,
                   graph_attrs=nx_graph.graph if keep_graph_attrs else None)

    # --------------------------------------------------------------- what networkx asks of a graph

    def is_directed(self) -> bool:
        """Whether the networkx graph was directed (networkx's ``G.is_directed()``).

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.DiGraph()).is_directed()
        True
        """
        return self.directed

    def is_multigraph(self) -> bool:
        """Whether the networkx graph was a multigraph (networkx's ``G.is_multigraph()``).

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.MultiGraph()).is_multigraph()
        True
        """
        return self.multigraph

    def __len__(self) -> int:
        return len(self.nodes)

    def number_of_nodes(self) -> int:
        """The number of nodes (networkx's ``G.number_of_nodes()``).

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.path_graph(5)).number_of_nodes()
        5
        """
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node) -> bool:
        try:
            return node in self.index
        except TypeError:  # unhashable: not a node, as for networkx graphs
            return False

    # --------------------------------------------------------------- derived arrays

    @property
    def node_objects(self) -> np.ndarray:
        """``nodes`` themselves in an object array (made once).

        Examples
        --------
        >>> import networkx as nx
        >>> g = BackendGraph.from_networkx(nx.path_graph(2))
        >>> g.node_objects.dtype, g.node_objects[1] is g.nodes[1]
        (dtype('O'), True)
        """
        if "node_objects" not in self._cache:
            array = np.empty(len(self.nodes), dtype=object)
            array[:] = self.nodes
            self._cache["node_objects"] = array
        return self._cache["node_objects"]

    @property
    def node_array(self) -> np.ndarray:
        """``nodes`` as a numpy array, to pick many nodes at once (see :meth:`nodes_at`).

        Plain ``int`` nodes become an int64 array: ``tolist()`` then makes fresh,
        equal ints laid out in order, and one dict of a million of them builds
        four times faster than one keyed by the graph's own scattered int
        objects (43 ms against 11 ms for 245K keys, docs/performance.md).
        Other nodes stay the objects themselves.  Many dicts over the same
        nodes (all pairs) take the node objects instead
        (:class:`~warpath.networkx_backend.results.SharedObjects`): there the
        same keys serve every row while they are in cache.

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.path_graph(2)).node_array.dtype
        dtype('int64')
        >>> BackendGraph.from_networkx(nx.path_graph("ab")).node_array.tolist()
        ['a', 'b']
        """
        if "node_array" not in self._cache:
            nodes = self.nodes
            limit = np.iinfo(np.int64)
            if all(type(v) is int and limit.min <= v <= limit.max for v in nodes):
                array = np.array(nodes, dtype=np.int64)
            else:
                array = self.node_objects
            self._cache["node_array"] = array
            self._cache["nodes_are_positions"] = (
                array.dtype == np.int64 and np.array_equal(array, np.arange(len(nodes))))
        return self._cache["node_array"]

    def nodes_at(self, positions) -> list:
        """The nodes at ``positions`` (an integer array), as a list.

        When node ``i`` is the integer ``i`` (nodes 0..n-1 added in order) the
        positions are the nodes: ``positions.tolist()`` skips a gather (0.3 of
        the 2.5 ms a 33K-entry lengths dict takes on Bremen).

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.path_graph("abc")).nodes_at(np.array([2, 0]))
        ['c', 'a']
        >>> BackendGraph.from_networkx(nx.path_graph(3)).nodes_at(np.array([2, 0]))
        [2, 0]
        """
        node_array = self.node_array
        if self._cache["nodes_are_positions"]:
            return positions.tolist()
        return node_array[positions].tolist()

    def compact_csr(self):
        """``(indptr, indices, weights)`` in int32 where that is exact, for the searches.

        Half the bytes of int64 to read: on the Bremen road graph a
        networkx-order Dijkstra after ``gc.collect()`` (caches cold, as in
        the benchmark) took 3.1 ms with int64 arrays and 2.3 ms with these.
        Float weights stay float64; integer weights beyond int32 stay int64.

        Examples
        --------
        >>> import networkx as nx
        >>> g = BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"w": 2**40}), (1, 2, {"w": 3})]), "w")
        >>> [a.dtype.name for a in g.compact_csr()]
        ['int32', 'int32', 'int64']
        """
        if "compact" not in self._cache:
            small = np.iinfo(np.int32)
            fits = max(self.indices.size, len(self.nodes)) <= small.max
            indptr = self.indptr.astype(np.int32) if fits else self.indptr
            indices = self.indices.astype(np.int32) if fits else self.indices
            weights = self.weights
            if weights.dtype.kind == "i" and (weights.size == 0 or (
                    small.min <= weights.min() and weights.max() <= small.max)):
                weights = weights.astype(np.int32)
            self._cache["compact"] = (indptr, indices, weights)
        return self._cache["compact"]

    def tails(self) -> np.ndarray:
        """The tail of every arc, aligned with ``indices``.

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.DiGraph([(0, 1), (0, 2), (2, 1)])).tails().tolist()
        [0, 0, 2]
        """
        if "tails" not in self._cache:
            self._cache["tails"] = np.repeat(np.arange(len(self.nodes), dtype=np.int64),
                                             np.diff(self.indptr))
        return self._cache["tails"]

    @property
    def largest_weight(self):
        """The largest absolute weight (0 without arcs), computed once.

        Examples
        --------
        >>> import networkx as nx
        >>> BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"w": -7}), (1, 2, {"w": 3})]),
        ...                            "w").largest_weight
        7
        """
        if "largest" not in self._cache:
            self._cache["largest"] = np.abs(self.weights).max().item() if self.weights.size else 0
        return self._cache["largest"]

    def predecessor_csr(self):
        """``(indptr, indices, weights)`` of the arcs into each node, in ``G._pred`` order.

        For an undirected graph, the adjacency itself.

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.DiGraph([(2, 0), (1, 0)])
        >>> indptr, indices, _ = BackendGraph.from_networkx(G).predecessor_csr()
        >>> indptr.tolist(), indices.tolist()  # node 0 (index 1) hears from 2, then 1
        ([0, 0, 2, 2], [0, 2])
        """
        if not self.directed:
            return self.indptr, self.indices, self.weights
        if "pred" not in self._cache:
            if self._predecessor_adjacency is None:
                raise NotImplementedError("this graph was built without its predecessor lists")
            indptr, indices, raw = _csr_from_adjacency(
                self._predecessor_adjacency, self.nodes, self.index,
                self.weight_name if self.weighted else None, self.multigraph)
            weights = (np.ones(indices.size, dtype=np.int64) if raw is None
                       else weights_array(raw, len(self.nodes)))
            self._cache["pred"] = (indptr, indices, weights)
        return self._cache["pred"]

    def warpath_graph(self):
        """The same arcs as a :class:`warpath.Graph` (for warpath's own methods, GPU included).

        Raises
        ------
        NotImplementedError
            For infinite weights, which :class:`warpath.Graph` rejects.

        Examples
        --------
        >>> import networkx as nx
        >>> g = BackendGraph.from_networkx(nx.DiGraph([(0, 1, {"w": 4})]), "w").warpath_graph()
        >>> g.num_vertices, g.num_edges, g.weights.tolist()
        (2, 1, [4])
        """
        if "warpath" not in self._cache:
            from ..graph import Graph

            if self.weights.dtype.kind == "f" and not np.isfinite(self.weights).all():
                raise NotImplementedError("infinite edge weights")
            self._cache["warpath"] = Graph(self.indptr, self.indices,
                                           self.weights if self.weighted else None,
                                           directed=self.directed, validate=False)
        return self._cache["warpath"]

    def to_networkx(self):
        """A networkx graph with these nodes and arcs (the weight under ``weight_name``).

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.DiGraph([(0, 1, {"w": 2})])
        >>> H = BackendGraph.from_networkx(G, "w").to_networkx()
        >>> list(H.edges(data=True))
        [(0, 1, {'w': 2})]
        """
        import networkx as nx

        kind = {(False, False): nx.Graph, (True, False): nx.DiGraph,
                (False, True): nx.MultiGraph, (True, True): nx.MultiDiGraph}
        nx_graph = kind[self.directed, self.multigraph]()
        nx_graph.graph.update(self.graph)
        nx_graph.add_nodes_from(self.nodes)
        keep = slice(None)
        if not self.directed:  # the CSR holds both directions of an undirected edge
            keep = self.tails() <= self.indices
        tails = self.nodes_at(self.tails()[keep])
        heads = self.nodes_at(self.indices[keep])
        if self.weighted:
            nx_graph.add_edges_from((u, v, {self.weight_name: w}) for u, v, w
                                    in zip(tails, heads, self.weights[keep].tolist()))
        else:
            nx_graph.add_edges_from(zip(tails, heads))
        return nx_graph

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return (f"<warpath BackendGraph {kind}{' multigraph' if self.multigraph else ''}, "
                f"{len(self.nodes)} nodes, {self.indices.size} arcs>")
