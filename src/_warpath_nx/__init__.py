"""What networkx needs to know about the warpath backend, without importing warpath.

networkx reads the ``networkx.backend_info`` entry point (:func:`get_info`)
while it is itself being imported, for every installed backend, to document
and configure them; importing ``warpath`` there would load numba and compile
on every ``import networkx``.  This package holds only plain data: the
functions the backend implements (and the module of
``warpath.networkx_backend`` that has each), its configuration and their
documentation.  The backend itself is ``warpath.networkx_backend``.

Examples
--------
>>> info = get_info()
>>> info["backend_name"], info["default_config"]
('warpath', {'device': 'auto'})
>>> "single_source_dijkstra_path_length" in info["functions"]
True
"""

#: networkx function name -> the module of ``warpath.networkx_backend`` implementing it.
FUNCTIONS = {
    **dict.fromkeys([
        "dijkstra_path", "dijkstra_path_length", "single_source_dijkstra_path",
        "single_source_dijkstra_path_length", "single_source_dijkstra",
        "multi_source_dijkstra_path", "multi_source_dijkstra_path_length",
        "multi_source_dijkstra", "dijkstra_predecessor_and_distance", "all_pairs_dijkstra",
        "all_pairs_dijkstra_path_length", "all_pairs_dijkstra_path", "bidirectional_dijkstra",
        "bellman_ford_predecessor_and_distance", "bellman_ford_path",
        "bellman_ford_path_length", "single_source_bellman_ford_path",
        "single_source_bellman_ford_path_length", "single_source_bellman_ford",
        "all_pairs_bellman_ford_path_length", "all_pairs_bellman_ford_path",
        "negative_edge_cycle", "find_negative_cycle", "johnson"], "weighted"),
    **dict.fromkeys([
        "single_source_shortest_path_length", "single_target_shortest_path_length",
        "all_pairs_shortest_path_length", "single_source_shortest_path",
        "single_target_shortest_path", "all_pairs_shortest_path",
        "bidirectional_shortest_path", "predecessor"], "unweighted"),
    **dict.fromkeys([
        "floyd_warshall", "floyd_warshall_numpy",
        "floyd_warshall_predecessor_and_distance"], "dense"),
    **dict.fromkeys(["shortest_path", "shortest_path_length", "has_path"], "generic"),
}

#: Functions whose lengths-only results may come from warpath's GPU methods.
GPU_FUNCTIONS = ("single_source_dijkstra_path_length", "all_pairs_dijkstra_path_length")

_SAME = ("Same results as networkx, in networkx's order (ties between equal paths broken "
         "as networkx breaks them), from warpath's numba kernels. Declines (networkx runs "
         "instead) a callable ``weight``.")
_GPU = (" With ``nx.config.backends.warpath.device`` \"auto\" (default) or \"cuda\" and a "
        "usable GPU, runs warpath's GPU SSSP (without ``cutoff``, non-negative weights): "
        "the same lengths, listed by distance with ties in graph order.")


def get_info():
    """The ``networkx.backend_info`` entry point: the backend's name, config and functions.

    Examples
    --------
    >>> info = get_info()
    >>> info["backend_name"], sorted(info["functions"]) == sorted(FUNCTIONS)
    ('warpath', True)
    """
    return {
        "backend_name": "warpath",
        "project": "warpath",
        "package": "warpath",
        "short_summary": "Shortest paths on the GPU and numba CPU kernels, networkx's answers.",
        "default_config": {"device": "auto"},
        "functions": {name: {"additional_docs": _SAME + (_GPU if name in GPU_FUNCTIONS else "")}
                      for name in FUNCTIONS},
    }
