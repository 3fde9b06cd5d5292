"""DeviceGraph: a graph's CSR arrays on the GPU, uploaded once and reused.

:func:`device_graph` uploads a :class:`~warpath.Graph` the first time a GPU
method sees it and caches the result on the Graph, so repeated queries (many
sources, several methods) pay the transfer once.
:meth:`DeviceGraph.from_cuda_arrays` wraps arrays that already live on the
GPU (CuPy, PyTorch, numba: anything with ``__cuda_array_interface__``)
without a round trip through the host.

Examples
--------
>>> import warpath
>>> g = warpath.generators.ring(5, seed=0)
>>> dg = device_graph(g)
>>> dg.num_vertices, dg.num_edges, dg is device_graph(g)
(5, 5, True)
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..dtypes import WEIGHT_DTYPES
from ..errors import GraphError
from .runtime import THREADS, blocks_for


def _as_device_array(array, what):
    """A numba device array viewing ``array`` (no copy), or a GraphError."""
    if hasattr(array, "copy_to_host") and not isinstance(array, np.ndarray):
        return array  # already a numba device array (also under the simulator)
    if hasattr(array, "__cuda_array_interface__"):
        return cuda.as_cuda_array(array)
    raise GraphError(f"{what} must be an array on the GPU (CuPy, PyTorch, numba), "
                     f"not {type(array).__name__}; use warpath.Graph for host arrays")


@cuda.jit
def _fill_tails(indptr, tails):
    """tails[e] = u for every arc e = (u, v): the edge-parallel S_a array of Agarwal & Dutta."""
    u = cuda.grid(1)
    if u < indptr.shape[0] - 1:
        for e in range(indptr[u], indptr[u + 1]):
            tails[e] = u


@cuda.jit
def _summarise(indptr, indices, weights, out):
    """out = [min weight, max |weight|, bad arcs] (bad: head out of range, weight not finite)."""
    e = cuda.grid(1)
    if e < indices.shape[0]:
        w = weights[e]
        cuda.atomic.min(out, 0, w)
        cuda.atomic.max(out, 1, abs(w))
        v = indices[e]
        if v < 0 or v >= indptr.shape[0] - 1 or not (w - w == 0):
            cuda.atomic.add(out, 2, 1)


class DeviceGraph:
    """A directed or undirected CSR graph whose arrays live on the GPU.

    Build it with :func:`device_graph` (from a :class:`~warpath.Graph`) or
    :meth:`from_cuda_arrays`.  It exposes what the solvers and
    :func:`warpath.sssp` need (``num_vertices``, ``num_edges``,
    ``weights.dtype``, ``min_weight``, ``max_abs_weight``,
    ``has_negative_weights``) and can be passed to ``warpath.sssp(...,
    device="cuda")`` in place of a Graph.

    Attributes
    ----------
    indptr, indices, weights : numba device arrays
        The CSR arrays (same dtypes as the host Graph's).
    directed : bool
    host : Graph or None
        The host graph it was uploaded from, if any.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import cuda
    >>> dg = DeviceGraph.from_cuda_arrays(cuda.to_device(np.array([0, 1, 2, 2])),
    ...                                   cuda.to_device(np.array([1, 2])),
    ...                                   cuda.to_device(np.array([4, -1])))
    >>> dg.num_vertices, dg.min_weight, dg.has_negative_weights
    (3, -1, True)
    """

    is_device_graph = True

    def __init__(self, indptr, indices, weights, *, directed=True, min_weight=0,
                 max_abs_weight=0, weighted=True, host=None):
        self.indptr = indptr
        self.indices = indices
        self.weights = weights
        self.directed = bool(directed)
        self.min_weight = min_weight
        self.max_abs_weight = max_abs_weight
        self.weighted = weighted
        self.host = host
        self._cache = {}

    @classmethod
    def from_graph(cls, graph) -> "DeviceGraph":
        """Upload a host :class:`~warpath.Graph` (prefer :func:`device_graph`, which caches).

        Examples
        --------
        >>> import warpath
        >>> DeviceGraph.from_graph(warpath.generators.grid(2, 2, seed=0)).num_edges
        8
        """
        return cls(cuda.to_device(graph.indptr), cuda.to_device(graph.indices),
                   cuda.to_device(graph.weights), directed=graph.directed,
                   min_weight=graph.min_weight, max_abs_weight=graph.max_abs_weight,
                   weighted=graph.weighted, host=graph)

    @classmethod
    def from_cuda_arrays(cls, indptr, indices, weights=None, *, directed=True) -> "DeviceGraph":
        """Wrap CSR arrays already on the GPU, without copying them through the host.

        Parameters
        ----------
        indptr, indices : GPU arrays of int32 or int64
            CSR offsets (length n + 1) and arc heads.
        weights : GPU array of int32, int64, float32 or float64, optional
            One per arc; ``None`` gives every arc weight 1.
        directed : bool
            Whether the arcs are one-way (undirected input must hold both directions).

        Raises
        ------
        GraphError
            For host arrays, unsupported dtypes, mismatched lengths, heads out
            of range or non-finite weights (checked on the GPU; two small read-backs).

        Examples
        --------
        >>> import numpy as np
        >>> from numba import cuda
        >>> dg = DeviceGraph.from_cuda_arrays(cuda.to_device(np.array([0, 1, 1])),
        ...                                   cuda.to_device(np.array([1])))
        >>> dg.num_edges, dg.weights.dtype.name
        (1, 'int32')
        """
        indptr = _as_device_array(indptr, "indptr")
        indices = _as_device_array(indices, "indices")
        weighted = weights is not None
        if weights is None:
            weights = cuda.to_device(np.ones(indices.shape[0], dtype=np.int32))
        weights = _as_device_array(weights, "weights")
        for name, array in (("indptr", indptr), ("indices", indices)):
            if array.ndim != 1 or np.dtype(array.dtype) not in (np.int32, np.int64):
                raise GraphError(
                    f"{name} must be a 1-D int32 or int64 GPU array, not {array.dtype}")
        if weights.ndim != 1 or np.dtype(weights.dtype) not in WEIGHT_DTYPES:
            raise GraphError(f"weights must be a 1-D int32, int64, float32 or float64 GPU array, "
                             f"not {weights.dtype}")
        if indptr.shape[0] < 1 or weights.shape[0] != indices.shape[0]:
            raise GraphError(f"{weights.shape[0]} weights for {indices.shape[0]} arcs, "
                             f"indptr of length {indptr.shape[0]}")
        ends = indptr[indptr.shape[0] - 1:].copy_to_host()
        if int(ends[0]) != indices.shape[0]:
            raise GraphError(f"indptr ends at {int(ends[0])} but there are {indices.shape[0]} arcs")
        info = cls._summary(indptr, indices, weights)
        return cls(indptr, indices, weights, directed=directed, min_weight=info[0],
                   max_abs_weight=info[1], weighted=weighted)

    @staticmethod
    def _summary(indptr, indices, weights):
        dtype = np.dtype(weights.dtype)
        big = np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max
        out = cuda.to_device(np.array([big, 0, 0], dtype=dtype))
        if indices.shape[0]:
            _summarise[blocks_for(indices.shape[0]), THREADS](indptr, indices, weights, out)
        low, high, bad = out.copy_to_host().tolist()
        if bad:
            raise GraphError(f"{int(bad)} arcs have a head outside 0..{indptr.shape[0] - 2} "
                             "or a weight that is not a finite number")
        if not indices.shape[0]:
            low = 0
        return low, high

    @property
    def num_vertices(self) -> int:
        """Number of vertices."""
        return self.indptr.shape[0] - 1

    @property
    def num_edges(self) -> int:
        """Number of arcs (undirected edges count twice)."""
        return self.indices.shape[0]

    def cached(self, key, make):
        """``make()`` on first use for ``key``, the same object after: what belongs to this
        graph alone (its tails, stand-ins, H-BF's arc classes, the query scratch pool).

        Examples
        --------
        >>> import warpath
        >>> g = device_graph(warpath.generators.ring(3, seed=0))
        >>> g.cached("answer", lambda: [42]) is g.cached("answer", lambda: [0])
        True
        """
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def has_negative_weights(self) -> bool:
        """Whether any arc weight is below zero."""
        return self.min_weight < 0

    @property
    def tails(self):
        """The tail of every arc (device array), built on the GPU on first use."""
        def build():
            tails = cuda.device_array(self.num_edges, dtype=self.indices.dtype)
            if self.num_edges:
                _fill_tails[blocks_for(self.num_vertices), THREADS](self.indptr, tails)
            return tails

        return self.cached("tails", build)

    @property
    def no_tails(self):
        """A one-slot stand-in of the tails' type, for kernels that take tails but never read
        them (a slice of ``indices`` cannot be: a graph without arcs has none to slice).

        Examples
        --------
        >>> import warpath
        >>> device_graph(warpath.Graph([0, 0], [])).no_tails.shape
        (1,)
        """
        return self.cached("no_tails", lambda: cuda.device_array(1, dtype=self.indices.dtype))

    def reverse(self) -> "DeviceGraph":
        """The graph with every arc turned around, for steps that scan in-arcs (a pull).

        Built once on the host by :meth:`Graph.reverse` (a device-only graph is
        copied back for it), uploaded and cached; an undirected graph is its own.

        Examples
        --------
        >>> import warpath
        >>> dg = device_graph(warpath.Graph.from_edges([0, 0], [1, 2]))
        >>> dg.reverse().indices.copy_to_host().tolist(), dg.reverse() is dg.reverse()
        ([0, 0], True)
        """
        if not self.directed:
            return self
        from ..negative_cycles import host_graph

        return self.cached("reverse", lambda: DeviceGraph.from_graph(host_graph(self).reverse()))

    def _host_indptr(self) -> np.ndarray:
        return self.cached("host_indptr", lambda: self.host.indptr if self.host is not None
                           else self.indptr.copy_to_host())

    def degree(self, vertex: int) -> int:
        """The out-degree of ``vertex`` (from a host copy of ``indptr``, made once).

        Examples
        --------
        >>> import warpath
        >>> device_graph(warpath.generators.complete(4, seed=0)).degree(2)
        3
        """
        indptr = self._host_indptr()
        return int(indptr[vertex + 1] - indptr[vertex])

    def vertices_with_arcs(self):
        """The vertices of at least one out-arc, ascending, as a device array (int32 when
        the vertex ids fit), made once: a step that only looks at such vertices (a pull
        over the reverse graph) skips the rest without a thread each.

        Examples
        --------
        >>> import warpath
        >>> g = device_graph(warpath.Graph.from_edges([0, 2, 2], [1, 1, 0], num_vertices=4))
        >>> g.vertices_with_arcs().copy_to_host().tolist()
        [0, 2]
        """
        def make():
            dtype = np.int32 if self.num_vertices <= np.iinfo(np.int32).max else np.int64
            ids = np.flatnonzero(np.diff(self._host_indptr()) > 0).astype(dtype)
            return cuda.to_device(ids if ids.size else np.zeros(1, dtype))[:ids.size]
        return self.cached("vertices_with_arcs", make)

    def arc_segments(self, most: int) -> tuple:
        """The arcs in CSR order cut into segments of at most ``most`` arcs, none spanning
        two vertices, as two device arrays made once per ``most``: ``firsts`` (one more
        than the segments, in the offsets' type: segment i holds arcs ``firsts[i] ..
        firsts[i + 1] - 1``) and ``owners`` (the index type: the segment's vertex v, or
        ``~v``, negative, when v's arcs span several segments, which then share v).

        A step with one thread per segment (the pull of many searches at once) gives every
        thread at most ``most`` arcs, whatever the degrees, and skips vertices without arcs.

        Examples
        --------
        >>> import warpath
        >>> g = device_graph(warpath.Graph.from_edges([0, 2, 2, 2], [1, 1, 0, 3], num_vertices=4))
        >>> firsts, owners = g.arc_segments(2)
        >>> firsts.copy_to_host().tolist(), owners.copy_to_host().tolist()
        ([0, 1, 3, 4], [0, -3, -3])
        """
        if most < 1:
            raise ValueError(f"a segment holds at least one arc, not {most}")

        def make():
            indptr = self._host_indptr()
            degrees = np.diff(indptr).astype(np.int64)
            longest = max(int(degrees.max(initial=0)), 1)   # a huge ``most`` splits nothing
            pieces = -(-degrees // min(most, longest))
            total = int(pieces.sum())
            starts = np.cumsum(pieces) - pieces
            within = np.arange(total, dtype=np.int64) - np.repeat(starts, pieces)
            firsts = np.append(np.repeat(indptr[:-1], pieces) + within * min(most, longest),
                               indptr[-1])
            owners = np.repeat(np.arange(self.num_vertices, dtype=np.int64), pieces)
            owners = np.where(np.repeat(pieces > 1, pieces), ~owners, owners)
            owners = owners.astype(self.indices.dtype)
            return (cuda.to_device(firsts.astype(indptr.dtype)),
                    cuda.to_device(owners if owners.size else np.zeros(1, owners.dtype))
                    [:owners.size])
        return self.cached(("arc_segments", int(most)), make)

    def count_degree_above(self, threshold: int) -> int:
        """How many vertices have more than ``threshold`` arcs (cached per threshold).

        Examples
        --------
        >>> import warpath
        >>> device_graph(warpath.Graph.from_edges([0, 0, 1], [1, 2, 2])).count_degree_above(1)
        1
        """
        return self.cached(("degree_above", int(threshold)), lambda: int(
            np.count_nonzero(np.diff(self._host_indptr()) > threshold)))

    def approx_diameter(self):
        """The host graph's approximate hop diameter (``graph.stats()``), or None without one."""
        return None if self.host is None else self.host.stats().approx_diameter

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        return (f"<DeviceGraph {kind}, {self.num_vertices} vertices, {self.num_edges} arcs, "
                f"{np.dtype(self.weights.dtype)} weights>")


def device_graph(graph) -> DeviceGraph:
    """The :class:`DeviceGraph` of ``graph``: uploaded on first use, then cached on it.

    A DeviceGraph is returned as it is.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(4, seed=0)
    >>> device_graph(g) is device_graph(device_graph(g))
    True
    """
    if getattr(graph, "is_device_graph", False):
        return graph
    return graph._cached("device_graph", lambda: DeviceGraph.from_graph(graph))
