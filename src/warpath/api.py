"""The public entry points, one per problem: validate once, pick a method, run it, time it.

Examples
--------
>>> import warpath
>>> g = warpath.generators.grid(3, 3, seed=0)
>>> warpath.sssp(g, 0, method="dijkstra").stats["method"]
'dijkstra'
"""

from __future__ import annotations

import inspect
import os
import time

import numpy as np

from . import methods
from .device import resolve_device
from .errors import (ArgumentError, DeviceError, EmptyGraphError, GraphError, SourceError,
                     WarpathError)
from .graph import Graph, vertex_index
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
        If it is not an integer (``1.5`` and ``"1"`` are refused by name) in
        ``0..num_vertices-1``.

    Examples
    --------
    >>> import warpath
    >>> check_source(warpath.generators.ring(3, seed=0), 2)
    2
    """
    return vertex_index(source, graph.num_vertices, what)


def _check_limit(limit):
    """A distance or depth limit must be a non-negative real number (or ``None``)."""
    if limit is None:
        return
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"limit must be a non-negative number, not {limit!r} "
                            f"({type(limit).__name__})")
    if not limit >= 0:   # also refuses NaN
        raise ArgumentError(f"limit must be a non-negative number, not {limit!r}")


def _prepare(graph, problem: str, method: str, device: str, limit=None, options=(),
             batch: bool = False):
    graph = as_graph(graph)
    if graph.num_vertices == 0:
        raise EmptyGraphError(f"{problem} needs a graph with at least one vertex")
    if getattr(graph, "is_device_graph", False):
        if device == "cpu":
            raise DeviceError("a DeviceGraph lives on the GPU: use device='cuda' (or 'auto'), "
                              "or pass the host Graph for device='cpu'")
        device = "cuda"
    _check_limit(limit)
    chosen = methods.resolve(problem, graph, method, device, limit=limit is not None,
                             options=options, batch=batch)
    return graph, chosen


def _run(chosen, graph, sources, options, each: bool = False):
    """Run ``chosen`` on ``sources`` (one call; or, with ``each``, one call per source,
    stacked into a :class:`BFSMatrix`) and fill in the common stats."""
    start = time.perf_counter()
    if each:
        result = BFSMatrix.stack(sources, [chosen.run(graph, int(s), **options) for s in sources])
    else:
        result = chosen.run(graph, sources, **options)
    # now, or (a GPU BFS still running) at the first read: its seconds run until then
    result.amend_stats(lambda stats: _common_stats(stats, chosen, start))
    return result


def _common_stats(stats: dict, chosen, start: float) -> None:
    """Fill in what every result's stats hold: the method, the device, the seconds since
    ``start`` (a ``perf_counter`` reading), zero counts where a method keeps none."""
    stats.setdefault("iterations", 0)
    stats.setdefault("relaxations", 0)
    stats.update(method=chosen.name, device=chosen.device, seconds=time.perf_counter() - start)


def _with_limit(options, limit):
    return options if limit is None else {**options, "limit": limit}


def warm_up(chosen, graph, **options) -> float:
    """Run method ``chosen`` once on a stand-in for ``graph``; return the seconds it took.

    numba compiles a method on its first call (seconds on a fresh install, a
    load from its disk cache later), which would swamp the time of one query;
    after this, a query on ``graph`` (same weight type and direction) runs
    without compiling or loading anything.  A method that runs graphs of up
    to ``chosen.interpreted_arcs`` arcs in the interpreter needs nothing for
    such a graph (0.0 is returned); for a larger one the stand-in is a ring
    just above that size, so it takes the compiled path too.

    Parameters
    ----------
    chosen : Method
        What :func:`warpath.methods.resolve` picked.
    graph : Graph
    **options
        The query's keywords (``predecessors``, ``limit``, method options).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> warm_up(warpath.methods.resolve("bfs", g), g) >= 0
    True
    """
    if chosen.runs_interpreted(graph):
        return 0.0
    size = max(2, chosen.interpreted_arcs + 1)
    tails = np.arange(size)
    weights = np.ones(size, dtype=graph.weights.dtype) if graph.weighted else None
    stand_in = Graph.from_edges(tails, (tails + 1) % size, weights, num_vertices=size,
                                directed=graph.directed)
    entry = {"sssp": sssp, "bfs": bfs}.get(chosen.problem)
    start = time.perf_counter()
    try:
        if entry is None:
            multi_source(stand_in, [0], method=chosen.name, device=chosen.device, **options)
        else:
            entry(stand_in, 0, method=chosen.name, device=chosen.device, **options)
    except WarpathError:
        pass  # best effort: the real query reports any real problem
    return time.perf_counter() - start


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
        For a source outside the graph, or one that is not an integer.
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
    ArgumentError
        For an unknown device name or a negative ``limit``.
    OptionError
        For an option the method does not take, or a value it refuses.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [4, 1, 2])
    >>> r = warpath.sssp(g, 0, method="dijkstra")
    >>> r.distances.tolist(), r.path(2).tolist()
    ([0.0, 4.0, 1.0], [0, 2])
    """
    graph, chosen = _prepare(graph, "sssp", method, device, limit, options)
    source = check_source(graph, source)
    return _run(chosen, graph, source, {**_with_limit(options, limit), "predecessors": predecessors})


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
    graph, chosen = _prepare(graph, "bfs", method, device, limit, options, batch)
    options = {**_with_limit(options, limit), "predecessors": predecessors}
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
        For an empty list, indices that are not integers, or a vertex outside the graph.

    Examples
    --------
    >>> import warpath
    >>> check_sources(warpath.generators.ring(3, seed=0), [2, 0]).tolist()
    [2, 0]
    """
    sources = np.atleast_1d(np.asarray(sources))
    if sources.ndim != 1 or sources.size == 0:
        raise SourceError("sources must be a non-empty list of vertex indices")
    if sources.dtype.kind not in "iu":
        shown = np.array2string(sources, threshold=8, separator=", ")
        raise SourceError(f"sources must be integer vertex indices, not {shown} "
                          f"({sources.dtype})")
    wide = sources.astype(np.int64) if sources.dtype != np.uint64 else sources
    outside = (wide < 0) | (wide >= graph.num_vertices)
    if outside.any():   # the first bad one, named as check_source names it
        check_source(graph, sources.tolist()[int(np.argmax(outside))])
    return np.array(wide, dtype=np.int64)   # a copy: the caller's array stays theirs


def multi_source(graph, sources, *, method="auto", device="auto", predecessors=True,
                 progress=None, dtype=None, out=None, predecessors_out=None, **options):
    """Shortest paths from each of several sources: one distance row per source.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    sources : array_like of int
        The 0-based sources (duplicates are allowed and give equal rows).
    method, device : str
        See ``warpath.methods.available("multi_source")``.
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)``: called as sources finish (after each chunk
        for the CPU methods, once at the end for the others).
    dtype, out, predecessors_out
        The stored distance type and ``.npy`` files, as for :func:`apsp`.

    Returns
    -------
    DistanceMatrix

    Raises
    ------
    MemoryLimitError
        When the result would not fit in memory, GPU memory or on disk (see
        :func:`warpath.apsp.memory.estimate`); checked before any work.
    ArgumentError
        For a ``dtype`` or ``out`` that cannot be used.
    DistanceOverflowError
        When a distance does not fit in an integer ``dtype``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [1, 5])
    >>> warpath.multi_source(g, [1, 0]).distances.tolist()
    [[inf, 0.0, 5.0], [0.0, 1.0, 6.0]]
    """
    graph, chosen = _prepare(graph, "multi_source", method, device, options=options)
    sources = check_sources(graph, sources)
    return _run_rows(chosen, graph, sources, predecessors, progress, options, "multi_source",
                     (dtype, out, predecessors_out))


def apsp(graph, *, method="auto", device="auto", predecessors=True, progress=None, dtype=None,
         out=None, predecessors_out=None, **options):
    """All-pairs shortest paths: an n x n distance matrix.

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
    method : str
        ``"auto"``, ``"floyd-warshall"`` (blocked), ``"johnson"`` or
        ``"repeated-sssp"`` on the CPU; see ``warpath.methods.available("apsp")``.
    device : {"auto", "cpu", "cuda"}
    predecessors : bool
    progress : callable, optional
        ``progress(done, total)``: called as sources finish (after each chunk
        for the CPU methods, once at the end for the others).
    dtype : {None, "float64", "float32", "int64", "int32"}
        The stored distance type (:mod:`warpath.apsp.matrices`): ``None``
        keeps 8 bytes per pair (int64 for integer weights, float64 otherwise;
        float64 in a file); float32 and int32 halve the matrix (integer types
        need integer weights).  ``.distances`` always reads float64.
    out : str or path, optional
        An ``.npy`` file the distances are written into (a memory map, block
        by block): results larger than host memory.
    predecessors_out : str or path, optional
        The same for the int64 predecessors (else they stay in memory).

    Returns
    -------
    DistanceMatrix
        ``distances[s, t]``; ``path(s, t)`` gives the vertices of a shortest path.

    Raises
    ------
    NegativeCycleError
        When the graph has a negative cycle.
    MemoryLimitError
        When the run and its matrices would not fit in memory, GPU memory or
        on disk (see :func:`warpath.apsp.memory.estimate`, which also says how
        much the query needs); checked before any work.  Reading
        ``.distances`` of an integer or float32 result builds a float64 copy
        (8 more bytes per pair); ``exact_distances`` and ``distance_blocks()``
        do not.
    ArgumentError
        For a ``dtype`` or ``out`` that cannot be used.
    DistanceOverflowError
        When a distance does not fit in an integer ``dtype``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 0], [2, 3])
    >>> warpath.apsp(g, method="floyd-warshall").distances.tolist()
    [[0.0, 2.0], [3.0, 0.0]]
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "d.npy")
    >>> m = warpath.apsp(g, dtype="float32", out=path)
    >>> np.load(path).tolist(), m.distances.dtype
    ([[0.0, 2.0], [3.0, 0.0]], dtype('float64'))
    """
    graph, chosen = _prepare(graph, "apsp", method, device, options=options)
    sources = np.arange(graph.num_vertices, dtype=np.int64)
    return _run_rows(chosen, graph, sources, predecessors, progress, options, "apsp",
                     (dtype, out, predecessors_out))


def _run_rows(chosen, graph, sources, predecessors, progress, options, problem, placement):
    """A many-source query: the memory rule first, then the run (its rows in the ``dtype``
    and files of ``placement``), with progress reports."""
    from .apsp.matrices import Output, convert
    from .apsp.memory import estimate, streams

    dtype, out, predecessors_out = placement
    output = Output.checked(graph, dtype, out, predecessors_out)
    # The run and its result; reading .distances of an integer result later adds a float64
    # copy, which estimate() counts by default but distance_blocks() avoids.
    estimate(graph, len(sources), method=chosen, predecessors=predecessors, problem=problem,
             float_distances=False, dtype=dtype, out=out,
             predecessors_out=predecessors_out).check()
    options = {**options, "predecessors": predecessors}
    takes_output = streams(chosen)
    if takes_output:
        options["output"] = output
    try:
        if progress is None:
            result = _run(chosen, graph, sources, options)
        elif "progress" in inspect.signature(chosen.run).parameters:
            result = _run(chosen, graph, sources, {**options, "progress": progress})
        else:
            progress(0, len(sources))   # a method that cannot report: the start and the end
            result = _run(chosen, graph, sources, options)
            progress(len(sources), len(sources))
        return result if takes_output or output.default else convert(result, output)
    except BaseException:
        for path in (output.out, output.predecessors_out):   # no half-written result files
            if path is not None and os.path.exists(path):
                os.remove(path)
        raise
