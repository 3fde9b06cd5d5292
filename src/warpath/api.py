"""The public entry points, one per problem: validate once, pick a method, run it, time it.

Examples
--------
>>> import warpath
>>> g = warpath.generators.grid(3, 3, seed=0)
>>> warpath.sssp(g, 0, method="dijkstra").stats["method"]
'dijkstra'
"""

from __future__ import annotations

import time

import numpy as np

from . import methods
from .device import resolve_device
from .errors import DeviceError, EmptyGraphError, GraphError, NegativeWeightError, SourceError
from .graph import Graph
from .result import BFSMatrix


def as_graph(graph) -> Graph:
    """Accept a :class:`Graph`, a scipy sparse matrix or a networkx graph.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> as_graph(sp.csr_array([[0, 1], [0, 0]])).num_edges
    1
    """
    if isinstance(graph, Graph) or getattr(graph, "is_device_graph", False):
        return graph  # a warpath.cuda DeviceGraph stands in for a Graph on device="cuda"
    import scipy.sparse as sp

    if sp.issparse(graph):
        return Graph.from_scipy(graph)
    if hasattr(graph, "is_directed") and hasattr(graph, "nodes"):
        return Graph.from_networkx(graph)
    raise GraphError(f"expected a warpath.Graph, a scipy sparse matrix or a networkx graph, "
                     f"not {type(graph).__name__}")


def check_source(graph: Graph, source, what: str = "source") -> int:
    """Validate one 0-based vertex index and return it as an int.

    Raises
    ------
    SourceError
        If it is not an integer in ``0..num_vertices-1``.
    """
    try:
        index = int(source)
    except (TypeError, ValueError):
        raise SourceError(f"{what} must be a vertex index, not {source!r}") from None
    if index != source or not 0 <= index < graph.num_vertices:
        raise SourceError(f"{what} {source!r} is out of range: the graph has vertices "
                          f"0..{graph.num_vertices - 1}")
    return index


def _choose(problem: str, method: str, requested_device: str, device: str, graph, limit: bool,
            batch: bool = False):
    if method != "auto":
        return methods.find(problem, method, device)
    try:
        return methods.choose(problem, device, graph, limit=limit, batch=batch)
    except methods.MethodNotAvailable:
        # device="auto" chose the GPU, but only a CPU method can do this query
        # (e.g. a distance limit): run it there rather than fail.
        if requested_device == "auto" and device == "cuda":
            return methods.choose(problem, "cpu", graph, limit=limit, batch=batch)
        raise


def _prepare(graph, problem: str, method: str, device: str, limit=None, batch: bool = False):
    graph = as_graph(graph)
    if graph.num_vertices == 0:
        raise EmptyGraphError(f"{problem} needs a graph with at least one vertex")
    if getattr(graph, "is_device_graph", False):
        if device == "cpu":
            raise DeviceError("a DeviceGraph lives on the GPU: use device='cuda' (or 'auto'), "
                              "or pass the host Graph for device='cpu'")
        device = "cuda"
    chosen = _choose(problem, method, device, resolve_device(device, problem, method), graph,
                     limit is not None, batch)
    if graph.has_negative_weights and not chosen.negative_weights:
        others = [m.name for m in methods.available(problem) if m.negative_weights]
        raise NegativeWeightError(
            f"method {chosen.name!r} needs non-negative weights but the graph has a weight of "
            f"{graph.min_weight}; use one of: {', '.join(sorted(set(others))) or 'none'}")
    return graph, chosen


def _run(chosen, graph, sources, options, each: bool = False):
    """Run ``chosen`` on ``sources`` (one call; or, with ``each``, one call per source,
    stacked into a :class:`BFSMatrix`) and fill in the common stats."""
    unknown = set(options) - set(chosen.options) - {"predecessors", "limit"}
    if unknown:
        raise TypeError(f"method {chosen.name!r} takes no option(s) {sorted(unknown)}; "
                        f"it takes {list(chosen.options) or 'none'}")
    start = time.perf_counter()
    if each:
        result = BFSMatrix.stack(sources, [chosen.run(graph, int(s), **options) for s in sources])
    else:
        result = chosen.run(graph, sources, **options)
    seconds = time.perf_counter() - start
    result.stats.setdefault("iterations", 0)
    result.stats.setdefault("relaxations", 0)
    result.stats.update(method=chosen.name, device=chosen.device, seconds=seconds)
    return result


def _limit_option(chosen, limit, options):
    if limit is None:
        return options
    if not chosen.limit:
        raise methods.MethodNotAvailable(f"method {chosen.name!r} does not support limit=")
    if not limit >= 0:
        raise ValueError(f"limit must be a non-negative number, not {limit!r}")
    return {**options, "limit": limit}


def sssp(graph, source, *, method="auto", device="auto", predecessors=True, limit=None, **options):
    """Single-source shortest paths.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    source : int
        The 0-based source vertex (use ``graph.index_of(label)`` for a file's id).
    method : str
        ``"auto"`` or a registered name: ``"dijkstra"``, ``"bellman-ford"`` on the
        CPU; see ``warpath.methods.available("sssp")`` for all of them.
    device : {"auto", "cpu", "cuda"}
        ``"auto"`` runs on the GPU when one is usable; ``stats["device"]`` says which ran.
    predecessors : bool
        Whether to compute predecessors (needed for :meth:`SSSPResult.path`).
    limit : float, optional
        Stop at this distance: farther vertices are reported unreachable
        (methods with ``limit`` support only, e.g. dijkstra).
    **options
        Method-specific tuning options (e.g. ``k=`` for ``locality``).

    Returns
    -------
    SSSPResult

    Raises
    ------
    SourceError
        For a source outside the graph.
    EmptyGraphError
        For a graph without vertices.
    NegativeWeightError
        For negative weights given to a method that cannot take them.
    NegativeCycleError
        When a negative cycle is reachable from the source (``.cycle`` holds it).
    MethodNotAvailable
        For an unknown method/device pair.
    DeviceError
        For ``device="cuda"`` without a usable GPU.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, 2])
    >>> r = warpath.sssp(g, 0, method="dijkstra")
    >>> r.distances.tolist(), r.path(2).tolist()
    ([0.0, 4.0, 1.0], [0, 2])
    """
    graph, chosen = _prepare(graph, "sssp", method, device, limit)
    source = check_source(graph, source)
    options = _limit_option(chosen, limit, options)
    return _run(chosen, graph, source, {**options, "predecessors": predecessors})


def bfs(graph, source=None, *, sources=None, method="auto", device="auto", predecessors=True,
        limit=None, **options):
    """Breadth-first search: the hop level of every vertex and a BFS tree, from one
    source or from each of several (``sources=``).  Weights are ignored.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    source : int
        The source vertex (give this or ``sources``).
    sources : array_like of int, optional
        Several sources at once: the result has one row of levels per source.
        ``method="auto"`` then picks a batch method when the device has one
        (``multi-source`` on the GPU: 64 searches per pass over the graph), else
        runs the single-source method once per source.
    method, device : str
        As for :func:`sssp`; see ``warpath.methods.available("bfs")``.
    predecessors : bool
        Whether to compute BFS parents.
    limit : int, optional
        Stop after this many levels.

    Returns
    -------
    BFSResult, or BFSMatrix for ``sources=``

    Raises
    ------
    SourceError
        For a source outside the graph, or for both or neither of ``source`` and ``sources``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(5, seed=0)
    >>> warpath.bfs(g, 0).levels.tolist()
    [0, 1, 2, 3, 4]
    >>> warpath.bfs(g, sources=[0, 3]).levels.tolist()
    [[0, 1, 2, 3, 4], [2, 3, 4, 0, 1]]
    """
    batch = sources is not None
    if batch == (source is not None):
        raise SourceError("give bfs one source, or several as sources=[...], not both or neither")
    graph, chosen = _prepare(graph, "bfs", method, device, limit, batch)
    options = {**_limit_option(chosen, limit, options), "predecessors": predecessors}
    if batch:
        sources = check_sources(graph, sources)
        return _run(chosen, graph, sources, options, each=not chosen.batch)
    source = check_source(graph, source)
    if chosen.batch:
        return _run(chosen, graph, np.array([source], dtype=np.int64), options).row(source)
    return _run(chosen, graph, source, options)


def check_sources(graph: Graph, sources) -> np.ndarray:
    """Validate a non-empty list of 0-based vertex indices; returns them as int64.

    Raises
    ------
    SourceError
        For an empty list or a vertex outside the graph.

    Examples
    --------
    >>> import warpath
    >>> check_sources(warpath.generators.ring(3, seed=0), [2, 0]).tolist()
    [2, 0]
    """
    sources = np.atleast_1d(np.asarray(sources))
    if sources.ndim != 1 or sources.size == 0:
        raise SourceError("sources must be a non-empty list of vertex indices")
    return np.array([check_source(graph, s) for s in sources], dtype=np.int64)


def multi_source(graph, sources, *, method="auto", device="auto", predecessors=True, **options):
    """Shortest paths from each of several sources: one distance row per source.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    sources : array_like of int
        The 0-based sources (duplicates are allowed and give equal rows).
    method, device : str
        See ``warpath.methods.available("multi_source")``.
    predecessors : bool

    Returns
    -------
    DistanceMatrix

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [1, 5])
    >>> warpath.multi_source(g, [1, 0]).distances.tolist()
    [[inf, 0.0, 5.0], [0.0, 1.0, 6.0]]
    """
    graph, chosen = _prepare(graph, "multi_source", method, device)
    sources = check_sources(graph, sources)
    return _run(chosen, graph, sources, {**options, "predecessors": predecessors})


def apsp(graph, *, method="auto", device="auto", predecessors=True, **options):
    """All-pairs shortest paths: an n x n distance matrix.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    method : str
        ``"auto"``, ``"floyd-warshall"`` (blocked), ``"johnson"`` or
        ``"repeated-sssp"`` on the CPU; see ``warpath.methods.available("apsp")``.
    device : {"auto", "cpu", "cuda"}
    predecessors : bool

    Returns
    -------
    DistanceMatrix
        ``distances[s, t]``; ``path(s, t)`` gives the vertices of a shortest path.

    Raises
    ------
    NegativeCycleError
        When the graph has a negative cycle.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 0], [2, 3])
    >>> warpath.apsp(g, method="floyd-warshall").distances.tolist()
    [[0.0, 2.0], [3.0, 0.0]]
    """
    graph, chosen = _prepare(graph, "apsp", method, device)
    sources = np.arange(graph.num_vertices, dtype=np.int64)
    return _run(chosen, graph, sources, {**options, "predecessors": predecessors})
