"""Peer libraries measured beside warpath: scipy, networkx, igraph, rustworkx, networkit.

Each peer is an optional extra (``pip install warpath[bench]``), never a core
dependency: a peer whose library is missing is skipped with that reason.
A peer has three steps, and only the middle one is timed:

``prepare(graph)``
    Build the library's own graph once (scipy matrix, networkx graph, ...);
    reported as set-up time, not per-query time.
``solve(handle, graph, source)``
    One query: a source (sssp, bfs) or an array of sources (multi_source,
    apsp); returns the library's raw answer.
``to_distances(raw, graph, source)``
    Convert the answer to float64 distances with ``inf`` for unreachable
    (BFS: hop levels), one row per source for multi_source / apsp, so it can
    be checked against the reference.

Examples
--------
>>> import warpath
>>> peer = PEERS["scipy-dijkstra"]
>>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 5])
>>> raw = peer.solve(peer.prepare(g), g, 0)
>>> peer.to_distances(raw, g, 0).tolist()
[0.0, 2.0, 7.0]
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Peer:
    """One peer solver.

    Attributes
    ----------
    name : str
        ``library-algorithm`` (``"scipy-dijkstra"``).
    module : str
        The module that must import for the peer to run.
    install : str
        What to install when it is missing.
    problems : tuple of str
        The problems it solves.
    negative_weights : bool
        Whether it takes negative weights.
    max_edges, max_vertices : int or None
        Default size caps (a peer too slow to finish on larger graphs is
        skipped there, with the cap as reason); a suite may override ``max_edges``.
    """

    name: str
    module: str
    install: str
    problems: tuple
    negative_weights: bool
    prepare: Callable
    solve: Callable
    to_distances: Callable
    summary: str = ""
    max_edges: int | None = None
    max_vertices: int | None = None


def peer_status(name: str) -> tuple[bool, str]:
    """``(available, reason)`` for a peer: whether its library imports here.

    Examples
    --------
    >>> peer_status("scipy-dijkstra")
    (True, 'scipy ...')
    """
    peer = PEERS[name]
    try:
        module = importlib.import_module(peer.module)
    except ImportError as exc:
        return False, f"{peer.module} is not installed ({exc}); pip install {peer.install}"
    version = getattr(module, "__version__", None)
    if version is None:
        top = importlib.import_module(peer.module.split(".")[0])
        version = getattr(top, "__version__", "?")
    return True, f"{peer.module.split('.')[0]} {version}"


def skip_reason(peer: Peer, graph, problem: str, max_edges=None):
    """Why ``peer`` cannot run ``problem`` on ``graph`` here, or ``None`` if it can.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(4, seed=0)
    >>> skip_reason(PEERS["scipy-floyd-warshall"], g, "sssp")
    'scipy-floyd-warshall does not solve sssp (it solves apsp)'
    """
    if problem not in peer.problems:
        return f"{peer.name} does not solve {problem} (it solves {', '.join(peer.problems)})"
    available, reason = peer_status(peer.name)
    if not available:
        return reason
    if graph.has_negative_weights and not peer.negative_weights:
        return f"{peer.name} does not take negative weights"
    cap = peer.max_edges if max_edges is None else max_edges
    if cap is not None and graph.num_edges > cap:
        return f"{graph.num_edges:,} arcs is over this peer's cap of {cap:,} (max_edges)"
    if peer.max_vertices is not None and graph.num_vertices > peer.max_vertices:
        return f"{graph.num_vertices:,} vertices is over this peer's cap of {peer.max_vertices:,}"
    return None


# --------------------------------------------------------------------------- conversions

def _rows(values, sources):
    """Distances as one row per source for multi-source problems, else one row."""
    out = np.asarray(values, dtype=np.float64)
    if np.ndim(sources) == 0 and out.ndim == 2:
        out = out[0]
    return out


def _from_mapping(mapping, n: int, source=None) -> np.ndarray:
    out = np.full(n, np.inf)
    if mapping:
        keys = np.fromiter(mapping.keys(), dtype=np.int64, count=len(mapping))
        out[keys] = np.fromiter(mapping.values(), dtype=np.float64, count=len(mapping))
    if source is not None:
        out[int(source)] = 0.0
    return out


def _huge_to_inf(values) -> np.ndarray:
    out = np.asarray(values, dtype=np.float64)
    out[out >= np.finfo(np.float64).max / 2] = np.inf
    return out


def levels_from_parents(parents: np.ndarray, source: int) -> np.ndarray:
    """BFS levels (``inf`` unreachable) from a parent array (negative where none), by pointer jumping.

    Examples
    --------
    >>> levels_from_parents(np.array([-9999, 0, 1, -9999]), 0).tolist()
    [0.0, 1.0, 2.0, inf]
    """
    n = parents.shape[0]
    reached = parents >= 0
    reached[source] = True
    ancestor = np.where(parents >= 0, parents, np.arange(n))
    ancestor[source] = source
    depth = (parents >= 0).astype(np.int64)
    depth[source] = 0
    # depth[v] counts hops from v to ancestor[v]; doubling reaches the root in log2(levels) steps
    while True:
        done = ancestor[ancestor] == ancestor
        if done.all():
            break
        depth = depth + depth[ancestor] * (ancestor != ancestor[ancestor])
        ancestor = ancestor[ancestor]
    out = depth.astype(np.float64)
    out[~reached] = np.inf
    return out


# --------------------------------------------------------------------------- scipy

def _scipy_matrix(graph):
    import scipy.sparse as sp

    n = graph.num_vertices
    return sp.csr_array((graph.weights.astype(np.float64), graph.indices, graph.indptr),
                        shape=(n, n))


def _scipy(function_name, **kwargs):
    def solve(matrix, graph, sources, problem=None):
        from scipy.sparse import csgraph

        indices = None if problem == "apsp" and kwargs.get("all_pairs") else sources
        extra = {k: v for k, v in kwargs.items() if k != "all_pairs"}
        if function_name == "floyd_warshall":
            return csgraph.floyd_warshall(matrix, directed=True, **extra)
        return getattr(csgraph, function_name)(matrix, directed=True, indices=indices, **extra)
    return solve


def _scipy_bfs(matrix, graph, source, problem=None):
    from scipy.sparse import csgraph

    return csgraph.breadth_first_order(matrix, int(source), directed=True,
                                       return_predecessors=True)


# --------------------------------------------------------------------------- networkx

def _networkx_graph(graph):
    import networkx as nx

    nx_graph = nx.DiGraph()
    nx_graph.add_nodes_from(range(graph.num_vertices))
    nx_graph.add_weighted_edges_from(zip(graph.tails().tolist(), graph.indices.tolist(),
                                         graph.weights.tolist()))
    return nx_graph


def _networkx_sssp(function_name):
    def solve(nx_graph, graph, source, problem=None):
        import networkx as nx

        if function_name == "single_source_shortest_path_length":
            return nx.single_source_shortest_path_length(nx_graph, int(source))
        return getattr(nx, function_name)(nx_graph, int(source), weight="weight")
    return solve


def _networkx_floyd_warshall(nx_graph, graph, sources, problem=None):
    import networkx as nx

    return nx.floyd_warshall_numpy(nx_graph, nodelist=range(graph.num_vertices), weight="weight")


# --------------------------------------------------------------------------- igraph

def _igraph_graph(graph):
    import igraph

    edges = np.column_stack([graph.tails(), graph.indices]).tolist()
    ig_graph = igraph.Graph(n=graph.num_vertices, edges=edges, directed=True)
    ig_graph.es["weight"] = graph.weights.astype(np.float64).tolist()
    return ig_graph


def _igraph_distances(algorithm):
    def solve(ig_graph, graph, sources, problem=None):
        source = [int(s) for s in np.atleast_1d(sources)]
        return ig_graph.distances(source=source, weights="weight", algorithm=algorithm)
    return solve


def _igraph_bfs(ig_graph, graph, source, problem=None):
    return ig_graph.bfs(int(source), mode="out")


def _igraph_levels(raw, graph, source):
    vertices, layer_starts, _ = raw
    out = np.full(graph.num_vertices, np.inf)
    for level in range(len(layer_starts) - 1):
        out[vertices[layer_starts[level]:layer_starts[level + 1]]] = level
    return out


# --------------------------------------------------------------------------- rustworkx

def _rustworkx_graph(graph):
    import rustworkx

    rx_graph = rustworkx.PyDiGraph()
    rx_graph.add_nodes_from(range(graph.num_vertices))
    rx_graph.add_edges_from(list(zip(graph.tails().tolist(), graph.indices.tolist(),
                                     graph.weights.astype(np.float64).tolist())))
    return rx_graph


def _rustworkx_sssp(function_name):
    def solve(rx_graph, graph, source, problem=None):
        import rustworkx

        return getattr(rustworkx, function_name)(rx_graph, int(source), edge_cost_fn=float)
    return solve


def _rustworkx_apsp(rx_graph, graph, sources, problem=None):
    import rustworkx

    return rustworkx.digraph_all_pairs_dijkstra_path_lengths(rx_graph, edge_cost_fn=float)


def _rustworkx_apsp_rows(raw, graph, sources):
    return np.vstack([_from_mapping(dict(raw[int(s)]), graph.num_vertices, s) for s in sources])


def _rustworkx_bfs(rx_graph, graph, source, problem=None):
    import rustworkx

    return rustworkx.bfs_layers(rx_graph, [int(source)])


def _layers_to_levels(raw, graph, source):
    out = np.full(graph.num_vertices, np.inf)
    for level, layer in enumerate(raw):
        out[list(layer)] = level
    return out


# --------------------------------------------------------------------------- networkit

def _networkit_graph(graph):
    import networkit

    nk_graph = networkit.Graph(graph.num_vertices, weighted=True, directed=True)
    tails, heads = graph.tails().astype(np.uint64), graph.indices.astype(np.uint64)
    nk_graph.addEdges((graph.weights.astype(np.float64), (tails, heads)))
    return nk_graph


def _networkit_single(algorithm):
    def solve(nk_graph, graph, source, problem=None):
        import networkit

        runner = getattr(networkit.distance, algorithm)(nk_graph, int(source), storePaths=False)
        runner.run()
        return runner.getDistances()
    return solve


def _networkit_apsp(nk_graph, graph, sources, problem=None):
    import networkit

    runner = networkit.distance.APSP(nk_graph)
    runner.run()
    return runner.getDistances()


# --------------------------------------------------------------------------- our own CPU path

def _identity(graph):
    return graph


def _warpath_cpu_solve(graph, _graph, sources, problem):
    import warpath

    if problem == "bfs":
        return warpath.bfs(graph, int(sources), device="cpu", predecessors=False)
    if problem == "sssp":
        return warpath.sssp(graph, int(sources), device="cpu", predecessors=False)
    if problem == "apsp":
        return warpath.apsp(graph, device="cpu", predecessors=False)
    return warpath.multi_source(graph, sources, device="cpu", predecessors=False)


def _dispatch(single, multi):
    """One solve function for peers that take one source, or (apsp) all of them."""
    def solve(handle, graph, sources, problem=None):
        if np.ndim(sources) == 0:
            return single(handle, graph, sources, problem)
        return multi(handle, graph, sources, problem)
    return solve


def _rustworkx_distances(raw, graph, sources):
    if np.ndim(sources) == 0:
        return _from_mapping(dict(raw), graph.num_vertices, sources)
    return _rustworkx_apsp_rows(raw, graph, sources)


_ALL = ("sssp", "multi_source", "apsp")
_NX = "networkx"
_IG = "igraph"
_RX = "rustworkx"
_NK = "networkit"

PEERS = {peer.name: peer for peer in [
    Peer("scipy-dijkstra", "scipy.sparse.csgraph", "scipy", _ALL, False, _scipy_matrix,
         _scipy("dijkstra", all_pairs=True), lambda raw, g, s: _rows(raw, s),
         "scipy.sparse.csgraph.dijkstra (Fibonacci heap, C)"),
    Peer("scipy-bellman-ford", "scipy.sparse.csgraph", "scipy", ("sssp", "multi_source"), True,
         _scipy_matrix, _scipy("bellman_ford"), lambda raw, g, s: _rows(raw, s),
         "scipy.sparse.csgraph.bellman_ford (C)", max_edges=40_000),  # O(VE): ~9 s at 40K arcs
    Peer("scipy-johnson", "scipy.sparse.csgraph", "scipy", _ALL, True, _scipy_matrix,
         _scipy("johnson", all_pairs=True), lambda raw, g, s: _rows(raw, s),
         "scipy.sparse.csgraph.johnson (C)", max_edges=2_000_000),
    Peer("scipy-floyd-warshall", "scipy.sparse.csgraph", "scipy", ("apsp",), True, _scipy_matrix,
         _scipy("floyd_warshall"), lambda raw, g, s: _rows(raw, s),
         "scipy.sparse.csgraph.floyd_warshall (dense, C)", max_vertices=10_000),
    Peer("scipy-bfs", "scipy.sparse.csgraph", "scipy", ("bfs",), True, _scipy_matrix, _scipy_bfs,
         lambda raw, g, s: levels_from_parents(raw[1], int(s)),
         "scipy.sparse.csgraph.breadth_first_order (C)"),
    Peer("networkx-dijkstra", _NX, "networkx", ("sssp",), False, _networkx_graph,
         _networkx_sssp("single_source_dijkstra_path_length"),
         lambda raw, g, s: _from_mapping(raw, g.num_vertices), "networkx (pure Python)",
         max_edges=2_000_000),
    Peer("networkx-bellman-ford", _NX, "networkx", ("sssp",), True, _networkx_graph,
         _networkx_sssp("single_source_bellman_ford_path_length"),
         lambda raw, g, s: _from_mapping(raw, g.num_vertices), "networkx (pure Python)",
         max_edges=1_000_000),
    Peer("networkx-bfs", _NX, "networkx", ("bfs",), True, _networkx_graph,
         _networkx_sssp("single_source_shortest_path_length"),
         lambda raw, g, s: _from_mapping(raw, g.num_vertices), "networkx (pure Python)",
         max_edges=2_000_000),
    Peer("networkx-floyd-warshall", _NX, "networkx", ("apsp",), True, _networkx_graph,
         _networkx_floyd_warshall, lambda raw, g, s: _rows(raw, s),
         "networkx.floyd_warshall_numpy", max_vertices=3_000),
    Peer("igraph-dijkstra", _IG, "igraph", _ALL, False, _igraph_graph,
         _igraph_distances("dijkstra"), lambda raw, g, s: _rows(raw, s), "python-igraph (C)"),
    Peer("igraph-bellman-ford", _IG, "igraph", ("sssp", "multi_source"), True, _igraph_graph,
         _igraph_distances("bellman_ford"), lambda raw, g, s: _rows(raw, s),
         "python-igraph (C)", max_edges=2_000_000),
    Peer("igraph-bfs", _IG, "igraph", ("bfs",), True, _igraph_graph, _igraph_bfs, _igraph_levels,
         "python-igraph (C)"),
    Peer("rustworkx-dijkstra", _RX, "rustworkx", ("sssp", "apsp"), False, _rustworkx_graph,
         _dispatch(_rustworkx_sssp("digraph_dijkstra_shortest_path_lengths"), _rustworkx_apsp),
         _rustworkx_distances, "rustworkx (Rust)"),
    Peer("rustworkx-bellman-ford", _RX, "rustworkx", ("sssp",), True, _rustworkx_graph,
         _rustworkx_sssp("digraph_bellman_ford_shortest_path_lengths"),
         lambda raw, g, s: _from_mapping(dict(raw), g.num_vertices, s), "rustworkx (Rust)",
         max_edges=2_000_000),
    Peer("rustworkx-bfs", _RX, "rustworkx", ("bfs",), True, _rustworkx_graph, _rustworkx_bfs,
         _layers_to_levels, "rustworkx (Rust)"),
    Peer("networkit-dijkstra", _NK, "networkit", ("sssp", "apsp"), False, _networkit_graph,
         _dispatch(_networkit_single("Dijkstra"), _networkit_apsp),
         lambda raw, g, s: _huge_to_inf(raw), "networkit (C++)"),
    Peer("networkit-bfs", _NK, "networkit", ("bfs",), True, _networkit_graph,
         _networkit_single("BFS"), lambda raw, g, s: _huge_to_inf(raw), "networkit (C++)"),
    Peer("warpath-cpu", "warpath", "warpath", ("sssp", "bfs", "multi_source", "apsp"), True,
         _identity, _warpath_cpu_solve, lambda raw, g, s: raw.distances,
         "warpath's own CPU path (method='auto', device='cpu')"),
]}

