"""warpath as a networkx backend: ``nx.single_source_dijkstra(G, s, backend="warpath")``.

networkx finds this backend through the ``networkx.backends`` entry point
(:mod:`.interface`); ``_warpath_nx`` answers ``networkx.backend_info``
without importing warpath.  The functions mirror networkx's modules
(:mod:`.weighted`, :mod:`.unweighted`, :mod:`.dense`, :mod:`.generic`) and
run kernels that replay networkx's searches in numba (``*_order`` modules),
so results, their order and their exceptions are networkx's; lengths alone
can run on the GPU through warpath's own methods (:mod:`.device_lengths`).
:mod:`.suite` runs networkx's own tests against the backend.

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.interface import backend_interface
>>> G = backend_interface.convert_from_nx(nx.path_graph(3), edge_attrs={"weight": 1})
>>> backend_interface.dijkstra_path(G, 0, 2)
[0, 1, 2]
"""
