"""The Graph: an immutable CSR adjacency structure with the file's vertex labels.

A :class:`Graph` holds three read-only arrays, ``indptr`` (offsets, length
n + 1), ``indices`` (heads of the arcs, grouped by tail) and ``weights``
(one per arc), a ``directed`` flag, and optionally the vertex labels of the
file it came from.  Undirected graphs store both directions of every edge,
so ``num_edges`` counts arcs (twice the undirected edges, self-loops once).
Everything else (the reverse graph, degree statistics) is computed on demand
and cached.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], weights=[4, 1, 2])
>>> g.num_vertices, g.num_edges
(3, 3)
>>> g.neighbors(0).tolist(), g.edge_weights(0).tolist()
([1, 2], [4, 1])
"""

from __future__ import annotations

import operator

import numpy as np

from .csr import build_csr, reverse_csr
from .dtypes import index_dtype, weight_dtype
from .errors import GraphError, SourceError


def _read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view (the caller's own array keeps its flags)."""
    view = np.ascontiguousarray(array).view()
    view.flags.writeable = False
    return view


def vertex_index(value, num_vertices: int, what: str = "vertex") -> int:
    """``value`` as a 0-based vertex index of a graph with ``num_vertices`` vertices.

    Integers (Python or numpy) are accepted; anything else, a float such as
    ``1.5`` or ``1.0``, a string such as ``"1"`` or a bool, is refused with a
    message that names it, as is an integer outside ``0..num_vertices-1``.

    Raises
    ------
    SourceError

    Examples
    --------
    >>> vertex_index(2, 3)
    2
    >>> try:
    ...     vertex_index("1", 3, "source")
    ... except SourceError as err:
    ...     print(err)
    source must be an integer vertex index, not '1' (str)
    """
    if isinstance(value, (bool, np.bool_)):
        raise SourceError(f"{what} must be an integer vertex index, not {value!r} (bool)")
    try:
        index = operator.index(value)
    except TypeError:
        raise SourceError(f"{what} must be an integer vertex index, not {value!r} "
                          f"({type(value).__name__})") from None
    if not 0 <= index < num_vertices:
        raise SourceError(f"{what} {index} is out of range: the graph has vertices "
                          f"0..{num_vertices - 1}" if num_vertices else
                          f"{what} {index} is out of range: the graph has no vertices")
    return index


def _as_weights(weights) -> np.ndarray:
    """Weights as one of the four kept types; unsigned values that fit convert exactly.

    Raises
    ------
    GraphError
        For weights that are not real numbers, or unsigned ones of 2**63 or more.
    """
    weights = np.asarray(weights)
    if weights.dtype.kind not in "iufb":
        shown = weights.ravel()[:1].tolist()
        example = f" (the first is {shown[0]!r})" if shown else ""
        raise GraphError(f"weights must be real numbers, not {weights.dtype}{example}")
    if weights.dtype.kind == "u" and weights.dtype.itemsize == 8 and weights.size:
        largest = int(weights.max())
        if largest > np.iinfo(np.int64).max:
            at = int(np.argmax(weights > np.iinfo(np.int64).max))
            raise GraphError(f"weight {largest} (arc {at}) does not fit in int64: warpath keeps "
                             "integer weights as int32 or int64, so unsigned weights must be "
                             "below 2**63")
    return weights.astype(weight_dtype(weights.dtype), copy=False)


def _as_labels(labels) -> np.ndarray:
    """One label per vertex as a 1-D array, whatever the labels are (numbers, strings, tuples).

    ``np.asarray`` would turn tuple labels such as ``(0, 1)`` into a 2-D
    array; those (and mixed labels) are kept as Python objects instead.
    """
    if isinstance(labels, np.ndarray) and labels.ndim == 1:
        return labels
    items = list(labels)
    if not items:
        return np.zeros(0, dtype=np.int64)
    if all(isinstance(item, str) for item in items):
        return np.array(items, dtype=str)
    if all(isinstance(item, (int, float, np.integer, np.floating))
           and not isinstance(item, (bool, np.bool_)) for item in items):
        return np.asarray(items)
    array = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        array[i] = item
    return array


def _label_key(label):
    """A numpy scalar label as the Python value it equals (so 7, np.int64(7) find one vertex)."""
    return label.item() if isinstance(label, np.generic) else label


def _first_bad_weight(weights: np.ndarray) -> int | None:
    if weights.dtype.kind != "f":
        return None
    bad = ~np.isfinite(weights)
    if not bad.any():
        return None
    return int(np.argmax(bad))


class Graph:
    """A directed or undirected graph in compressed sparse row (CSR) form.

    Build one with :meth:`from_edges`, :meth:`from_scipy`, :meth:`from_networkx`,
    :meth:`from_dense` or :func:`warpath.read`; the constructor takes CSR arrays
    directly and validates them.

    Parameters
    ----------
    indptr : array of int, length ``num_vertices + 1``
        Arc offsets: the arcs of vertex ``u`` are ``indptr[u]:indptr[u+1]``.
    indices : array of int
        The head vertex of each arc.
    weights : array of int or float, optional
        One weight per arc; ``None`` makes an unweighted graph (every weight 1).
    directed : bool
        Whether the arcs are one-way.  An undirected graph must already hold
        both directions of every edge (the constructors ensure this).
    labels : array, optional
        The vertex ids of the source file (e.g. 1-based DIMACS ids); ``None``
        means the labels are the indices 0..n-1.
    coordinates : array of shape (n, 2), optional
        Vertex coordinates (DIMACS ``.co`` files).
    name : str, optional
        A display name, usually the file name.

    Raises
    ------
    GraphError
        For inconsistent arrays, out-of-range heads or non-finite weights.

    Examples
    --------
    >>> g = Graph([0, 2, 3, 3], [1, 2, 2], [1.5, 4.0, 1.0])
    >>> g
    <Graph directed, 3 vertices, 3 arcs, float64 weights>
    """

    def __init__(self, indptr, indices, weights=None, *, directed=True, labels=None,
                 coordinates=None, name=None, validate=True):
        indptr = np.asarray(indptr)
        indices = np.asarray(indices)
        if indices.size == 0:  # np.asarray([]) is float64
            indices = indices.astype(np.int64)
        if indptr.ndim != 1 or indptr.size == 0:
            raise GraphError("indptr must be a one-dimensional array of length num_vertices + 1")
        num_vertices = indptr.size - 1
        num_edges = indices.size
        self.weighted = weights is not None
        if weights is None:
            weights = np.ones(num_edges, dtype=np.int32)
        weights = _as_weights(weights)
        if validate:
            self._validate(indptr, indices, weights, num_vertices)
        self.indptr = _read_only(indptr.astype(index_dtype(num_edges), copy=False))
        self.indices = _read_only(indices.astype(index_dtype(num_vertices), copy=False))
        self.weights = _read_only(weights)
        self.directed = bool(directed)
        self.name = name
        self._labels = None if labels is None else _read_only(_as_labels(labels))
        if self._labels is not None and self._labels.shape[0] != num_vertices:
            raise GraphError(f"{self._labels.shape[0]} labels given for {num_vertices} vertices")
        self.coordinates = None if coordinates is None else _read_only(np.asarray(coordinates))
        self._cache = {}

    @staticmethod
    def _validate(indptr, indices, weights, num_vertices):
        if indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
            raise GraphError("indptr and indices must be integer arrays")
        if indices.ndim != 1 or weights.ndim != 1:
            raise GraphError("indices and weights must be one-dimensional")
        if weights.size != indices.size:
            raise GraphError(f"{weights.size} weights given for {indices.size} arcs")
        if indptr[0] != 0 or indptr[-1] != indices.size:
            raise GraphError(
                f"indptr must start at 0 and end at the number of arcs ({indices.size}), "
                f"not {indptr[0]}..{indptr[-1]}")
        if num_vertices and np.any(np.diff(indptr) < 0):
            raise GraphError("indptr must be non-decreasing")
        if indices.size and (indices.min() < 0 or indices.max() >= num_vertices):
            bad = int(np.argmax((indices < 0) | (indices >= num_vertices)))
            raise GraphError(
                f"arc {bad} points to vertex {indices[bad]}, outside 0..{num_vertices - 1}")
        bad = _first_bad_weight(weights)
        if bad is not None:
            tail = int(np.searchsorted(indptr, bad, side="right") - 1)
            raise GraphError(
                f"arc {bad} ({tail} -> {indices[bad]}) has weight {weights[bad]}: "
                "weights must be finite numbers")

    # ------------------------------------------------------------------ constructors

    @classmethod
    def from_edges(cls, src, dst, weights=None, num_vertices=None, directed=True, *,
                   labels=None, coordinates=None, name=None):
        """Build a graph from parallel arrays of tails, heads and optional weights.

        Duplicate arcs keep the smallest weight (unlike scipy's COO conversion,
        which sums them); self-loops are kept; an undirected graph stores both
        directions of every edge.

        Parameters
        ----------
        src, dst : array_like of int
            Tail and head of each edge, 0-based.
        weights : array_like, optional
            One weight per edge; ``None`` for an unweighted graph.
        num_vertices : int, optional
            Defaults to one more than the largest vertex index.
        directed : bool
            ``False`` stores each edge in both directions.

        Returns
        -------
        Graph

        Raises
        ------
        GraphError
            For mismatched lengths, negative or out-of-range vertices, NaN weights.

        Examples
        --------
        >>> g = Graph.from_edges([0, 0, 1], [1, 1, 0], [5, 2, 7], directed=False)
        >>> g.edge_weights(0).tolist()  # the duplicate 0-1 edges keep the minimum
        [2]
        """
        src = np.asarray(src)
        dst = np.asarray(dst)
        if src.shape != dst.shape or src.ndim != 1:
            raise GraphError(f"src and dst must be 1-D arrays of one length, not {src.shape} and {dst.shape}")
        if src.size and (src.dtype.kind not in "iu" or dst.dtype.kind not in "iu"):
            raise GraphError("vertex indices must be integers")
        if weights is not None:
            weights = np.asarray(weights)
            if weights.shape != src.shape:
                raise GraphError(f"{weights.size} weights given for {src.size} edges")
            weights = _as_weights(weights)
            bad = _first_bad_weight(weights)
            if bad is not None:
                raise GraphError(
                    f"edge {bad} ({src[bad]} -> {dst[bad]}) has weight {weights[bad]}: "
                    "weights must be finite numbers")
        largest = int(max(src.max(), dst.max())) if src.size else -1
        if src.size and min(int(src.min()), int(dst.min())) < 0:
            raise GraphError("vertex indices must be non-negative")
        if num_vertices is None:
            num_vertices = largest + 1
        elif largest >= num_vertices:
            raise GraphError(f"edge endpoint {largest} is out of range for {num_vertices} vertices")
        if not directed:
            loops = src == dst
            src, dst = np.concatenate([src, dst[~loops]]), np.concatenate([dst, src[~loops]])
            if weights is not None:
                weights = np.concatenate([weights, weights[~loops]])
        indptr, indices, weights = build_csr(src, dst, weights, num_vertices)
        return cls(indptr, indices, weights, directed=directed, labels=labels,
                   coordinates=coordinates, name=name, validate=False)

    @classmethod
    def from_scipy(cls, matrix, directed=True):
        """Build a graph from a scipy sparse matrix or array (entry ``[u, v]`` is arc u -> v).

        Stored entries are arcs, explicit zeros included (scipy.sparse.csgraph's
        convention); duplicate entries keep the minimum.  With ``directed=False``
        an arc may be used both ways, as in scipy's ``directed=False``.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> g = Graph.from_scipy(sp.csr_array([[0, 3], [0, 0]]))
        >>> g.num_edges
        1
        """
        import scipy.sparse as sp

        if not sp.issparse(matrix):
            raise GraphError("from_scipy needs a scipy.sparse matrix or array (use from_dense for numpy)")
        if matrix.shape[0] != matrix.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, not {matrix.shape}")
        coo = matrix.tocoo()
        return cls.from_edges(coo.row, coo.col, coo.data, num_vertices=matrix.shape[0],
                              directed=directed)

    @classmethod
    def from_dense(cls, matrix, null_value=0, directed=True):
        """Build a graph from a dense adjacency matrix.

        Entries equal to ``null_value``, ``inf`` or NaN are non-edges, as in
        ``scipy.sparse.csgraph.csgraph_from_dense``.

        Examples
        --------
        >>> g = Graph.from_dense([[0, 2], [float("inf"), 0]])
        >>> g.num_edges
        1
        """
        matrix = np.asarray(matrix)
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise GraphError(f"an adjacency matrix must be square, not {matrix.shape}")
        present = matrix != null_value
        if matrix.dtype.kind == "f":
            present &= np.isfinite(matrix)
        src, dst = np.nonzero(present)
        return cls.from_edges(src, dst, matrix[src, dst], num_vertices=matrix.shape[0],
                              directed=directed)

    @classmethod
    def from_networkx(cls, nx_graph, weight="weight"):
        """Build a graph from a networkx (Di)Graph or MultiGraph.

        Vertex labels are the networkx nodes, in ``nx_graph.nodes`` order, one
        per vertex whatever their type: integers give an int64 array, other
        nodes (strings, tuples such as the ``(row, col)`` of
        ``nx.grid_2d_graph``, mixed types) an array of Python objects, and
        ``index_of`` takes any of them.  Edges without the ``weight`` attribute weigh 1; a graph where no edge
        has it is unweighted.

        Examples
        --------
        >>> import networkx as nx
        >>> g = Graph.from_networkx(nx.path_graph(["a", "b", "c"]))
        >>> g.num_vertices, g.num_edges, g.index_of("c")
        (3, 4, 2)
        >>> grid = Graph.from_networkx(nx.grid_2d_graph(2, 2))
        >>> grid.index_of((1, 0)), grid.labels[3]
        (2, (1, 1))
        """
        nodes = list(nx_graph.nodes)
        position = {node: i for i, node in enumerate(nodes)}
        edges = list(nx_graph.edges(data=weight, default=None))
        src = np.fromiter((position[u] for u, _, _ in edges), dtype=np.int64, count=len(edges))
        dst = np.fromiter((position[v] for _, v, _ in edges), dtype=np.int64, count=len(edges))
        raw = [w for _, _, w in edges]
        weights = None
        if any(w is not None for w in raw):
            weights = np.array([1 if w is None else w for w in raw])
        integers = all(isinstance(node, (int, np.integer)) and not isinstance(node, bool)
                       for node in nodes)
        labels = np.array(nodes, dtype=np.int64) if integers else _as_labels(nodes)
        return cls.from_edges(src, dst, weights, num_vertices=len(nodes),
                              directed=nx_graph.is_directed(), labels=labels)

    # ------------------------------------------------------------------ conversions

    def to_scipy(self):
        """The graph as a ``scipy.sparse.csr_array`` (for an undirected graph, symmetric).

        Examples
        --------
        >>> Graph.from_edges([0], [1], [3]).to_scipy().toarray().tolist()
        [[0, 3], [0, 0]]
        """
        import scipy.sparse as sp

        n = self.num_vertices
        return sp.csr_array((self.weights, self.indices, self.indptr), shape=(n, n))

    def to_networkx(self):
        """The graph as a networkx ``DiGraph`` (or ``Graph``), nodes 0..n-1 with a ``label`` attribute.

        Examples
        --------
        >>> nxg = Graph.from_edges([0, 0], [1, 1], [3, 2]).to_networkx()
        >>> nxg[0][1]["weight"]   # of parallel arcs, the lightest
        2
        """
        import networkx as nx

        nx_graph = nx.DiGraph() if self.directed else nx.Graph()
        labels = self.labels.tolist()
        nx_graph.add_nodes_from((i, {"label": labels[i]}) for i in range(self.num_vertices))
        src = np.repeat(np.arange(self.num_vertices), np.diff(self.indptr))
        # networkx keeps one edge per pair, the last one added: heaviest first, so that of
        # parallel arcs the lightest (the one any shortest path takes) is the one kept
        order = np.argsort(-self.weights, kind="stable")
        nx_graph.add_weighted_edges_from(
            zip(src[order].tolist(), self.indices[order].tolist(), self.weights[order].tolist()))
        return nx_graph

    # ------------------------------------------------------------------ queries

    @property
    def num_vertices(self) -> int:
        """The number of vertices."""
        return self.indptr.size - 1

    @property
    def num_edges(self) -> int:
        """The number of stored arcs (an undirected edge counts twice, a self-loop once)."""
        return self.indices.size

    @property
    def labels(self) -> np.ndarray:
        """The vertex ids of the source file, indexed by internal vertex (0..n-1 when none)."""
        if self._labels is None:
            return np.arange(self.num_vertices)
        return self._labels

    @property
    def has_labels(self) -> bool:
        """Whether the vertices carry labels other than their indices."""
        return self._labels is not None

    def index_of(self, label) -> int:
        """The internal 0-based index of the vertex with file label ``label``.

        Raises
        ------
        SourceError
            If no vertex has that label (or the label cannot be one: an
            unhashable value such as a list).

        Examples
        --------
        >>> g = Graph.from_edges([0], [1], labels=[10, 20])
        >>> g.index_of(20)
        1
        """
        if self._labels is None:
            return vertex_index(label, self.num_vertices, "vertex")
        lookup = self._cached("label_index", lambda: {
            _label_key(lab): i for i, lab in enumerate(self._labels)})
        try:
            return lookup[_label_key(label)]
        except (KeyError, TypeError):   # TypeError: an unhashable label
            raise SourceError(f"no vertex is labelled {label!r} in this graph") from None

    def neighbors(self, u: int) -> np.ndarray:
        """The heads of the arcs leaving vertex ``u``."""
        return self.indices[self.indptr[u]:self.indptr[u + 1]]

    def edge_weights(self, u: int) -> np.ndarray:
        """The weights of the arcs leaving vertex ``u``, aligned with :meth:`neighbors`."""
        return self.weights[self.indptr[u]:self.indptr[u + 1]]

    def out_degrees(self) -> np.ndarray:
        """The out-degree of every vertex."""
        return np.diff(self.indptr)

    def in_degrees(self) -> np.ndarray:
        """The in-degree of every vertex."""
        return self._cached("in_degrees", lambda: np.bincount(self.indices, minlength=self.num_vertices))

    @property
    def min_weight(self):
        """The smallest arc weight (0 for a graph without arcs)."""
        return self._cached("min_weight", lambda: self.weights.min().item() if self.num_edges else 0)

    @property
    def max_abs_weight(self):
        """The largest absolute arc weight (0 for a graph without arcs)."""
        return self._cached(
            "max_abs_weight",
            lambda: np.abs(self.weights.astype(np.float64)).max().item() if self.num_edges else 0)

    @property
    def has_negative_weights(self) -> bool:
        """Whether any arc weight is negative."""
        return self.min_weight < 0

    def tails(self) -> np.ndarray:
        """The tail vertex of every arc, aligned with ``indices`` (computed once)."""
        return self._cached("tails", lambda: np.repeat(
            np.arange(self.num_vertices, dtype=self.indices.dtype), np.diff(self.indptr)))

    def reverse(self) -> "Graph":
        """The graph with every arc turned around (computed once; an undirected graph is its own).

        Examples
        --------
        >>> Graph.from_edges([0, 0], [1, 2]).reverse().neighbors(2).tolist()
        [0]
        """
        if not self.directed:
            return self
        return self._cached("reverse", self._build_reverse)

    def _build_reverse(self) -> "Graph":
        indptr, tails, weights = reverse_csr(self.indptr, self.indices,
                                             self.weights if self.weighted else None,
                                             self.num_vertices)
        return Graph(indptr, tails, weights, directed=True, labels=self._labels,
                     coordinates=self.coordinates, name=self.name, validate=False)

    def with_random_weights(self, low, high, *, seed):
        """This graph with seeded integer weights drawn uniformly from ``[low, high]``.

        One draw per undirected edge (both arcs carry it), one per arc of a
        directed graph; arcs, labels and coordinates are kept.  For
        unweighted topologies such as the PACE 2016 road networks; see
        :func:`warpath.generators.with_random_weights`.

        Parameters
        ----------
        low, high : int
            Inclusive bounds.
        seed : int or numpy.random.Generator

        Returns
        -------
        Graph

        Raises
        ------
        GraphError
            For bounds that are not integers with ``low <= high``.

        Examples
        --------
        >>> g = Graph.from_edges([0, 1], [1, 2], directed=False).with_random_weights(1, 9, seed=1)
        >>> g.weighted, g.edge_weights(1).tolist() == [g.edge_weights(0)[0], g.edge_weights(2)[0]]
        (True, True)
        """
        from .generators import with_random_weights

        return with_random_weights(self, low, high, seed=seed)

    def stats(self):
        """The graph's characteristics, as in Table 1 of the H-BF paper (computed once).

        Returns
        -------
        warpath.graph_stats.GraphStats

        Examples
        --------
        >>> Graph.from_edges([0, 1], [1, 2]).stats().max_out_degree
        1
        """
        from .graph_stats import compute_stats

        return self._cached("stats", lambda: compute_stats(self))

    def _cached(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        weights = f"{self.weights.dtype} weights" if self.weighted else "unweighted"
        name = f" {self.name!r}" if self.name else ""
        return f"<Graph{name} {kind}, {self.num_vertices} vertices, {self.num_edges} arcs, {weights}>"
