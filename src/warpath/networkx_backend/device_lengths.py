"""Shortest-path lengths on the GPU through warpath's own methods, when the device is the GPU.

The backend's device is ``nx.config.backends.warpath.device`` (``"auto"``
by default, or ``"cpu"`` / ``"cuda"``), resolved by warpath's rule:
``"auto"`` takes the GPU only when a real one is usable.  On the GPU, the
functions that return lengths alone (``single_source_dijkstra_path_length``
and ``all_pairs_dijkstra_path_length``, without ``cutoff`` and on
non-negative weights) run warpath's SSSP methods; everything else, and every
call on the CPU, runs the networkx-order kernels.

The lengths are the same numbers (the least sums over paths, whatever the
order of relaxation).  What the GPU cannot give is networkx's settle order
among equal distances, which depends on its heap: its dicts list nodes by
distance, ties in graph order, instead of networkx's order among the ties.

Examples
--------
>>> import networkx as nx
>>> from warpath.networkx_backend.graph import BackendGraph
>>> g = BackendGraph.from_networkx(nx.path_graph(3), "weight")
>>> lengths_from(g, [0], None, device="cpu") is None   # the CPU path: the caller's kernels
True
"""

from __future__ import annotations

import numpy as np

from ..dtypes import unreached_value
from .results import SharedObjects, lengths_in_order


def configured_device() -> str:
    """``nx.config.backends.warpath.device``, or ``"auto"`` when networkx has no such setting.

    Examples
    --------
    >>> configured_device() in ("auto", "cpu", "cuda")
    True
    """
    import networkx as nx

    try:
        return nx.config.backends.warpath.device
    except AttributeError:
        return "auto"


def _gpu_chosen(G, cutoff, device) -> bool:
    from ..device import resolve_device

    device = configured_device() if device is None else device
    if cutoff is not None or resolve_device(device, "sssp", "auto") != "cuda":
        return False
    if G.indices.size and G.weights.min() < 0:
        return False  # networkx's Dijkstra on negative weights: only the replay reproduces it
    try:
        G.warpath_graph()
    except NotImplementedError:
        return False
    return True


def _as_dict(G, source, distances, exact):
    """``{node: length}`` of one row: the source, then reached nodes by distance, ties in
    graph order."""
    order, reached, _ = _ordered_rows(distances[None, :], np.array([source]))
    row = order[0, :reached[0]]
    return lengths_in_order(G, row, (exact if exact is not None else distances)[row], (source,))


def lengths_from(G, starts, cutoff, *, device=None):
    """The lengths dict from one start on the GPU, or ``None`` when the CPU kernels should run.

    ``device``: ``"auto"``, ``"cpu"`` or ``"cuda"``; ``None`` reads
    :func:`configured_device`.  ``None`` comes back for the CPU, a ``cutoff``,
    several distinct starts, negative weights, or weights
    :class:`warpath.Graph` cannot hold.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.cycle_graph(4), "weight")
    >>> lengths_from(g, [0], None, device="cuda")
    {0: 0, 1: 1, 3: 1, 2: 2}
    >>> lengths_from(g, [0], 2, device="cuda") is None  # a cutoff: networkx's order on the CPU
    True
    """
    if len(set(starts)) != 1 or not _gpu_chosen(G, cutoff, device):
        return None
    import warpath

    result = warpath.sssp(G.warpath_graph(), starts[0], device="cuda", predecessors=False)
    return _as_dict(G, starts[0], result.distances, result.exact_distances)


def all_pairs_lengths(G, cutoff, *, device=None):
    """A generator of ``(node, lengths)`` computed on the GPU, or ``None`` for the CPU kernels.

    The rows come from ``warpath.multi_source`` (all of them in one call up to
    :data:`ROWS_BYTES` of distances), or one ``warpath.sssp`` each when no GPU
    multi-source method is registered.

    Examples
    --------
    >>> import networkx as nx
    >>> from warpath.networkx_backend.graph import BackendGraph
    >>> g = BackendGraph.from_networkx(nx.path_graph(3), "weight")
    >>> dict(all_pairs_lengths(g, None, device="cuda"))[2]
    {2: 0, 1: 1, 0: 2}
    >>> all_pairs_lengths(g, None, device="cpu") is None
    True
    """
    if len(G) == 0 or not _gpu_chosen(G, cutoff, device):
        return None
    return _all_pairs_rows(G)


#: Bytes of distances one multi_source call on the GPU may hand back at once (all pairs of a
#: 5,000-node graph in one call: 100-200 MB).
ROWS_BYTES = 256 * 2**20
#: Rows per sorting task of the host threads that order the rows (see :func:`_ordered_rows`).
SORT_ROWS = 64


def _ordered_rows(stored, sources):
    """A block of rows as the GPU stored them, each row's nodes by distance, ties in graph
    order, its source first: ``(order, reached, ordered)``.

    ``order[i, :reached[i]]`` are row i's reached nodes and ``ordered`` the distances in
    that order.  numpy sorts and gathers without holding the GIL, so the caller runs
    this on host threads while it builds the previous rows' dicts.

    Examples
    --------
    >>> order, reached, ordered = _ordered_rows(np.array([[3.0, 0.0, np.inf, 0.0]]), [3])
    >>> order[0, :reached[0]].tolist(), ordered[0, :reached[0]].tolist()
    ([3, 1, 0], [0.0, 0.0, 3.0])
    """
    keys = stored.copy()
    keys[np.arange(len(sources)), sources] = -1   # the source first, before other 0s
    order = np.argsort(keys, axis=1, kind="stable")
    reached = (stored != unreached_value(stored.dtype)).sum(axis=1)
    return order, reached, np.take_along_axis(stored, order, axis=1)


def rows_on_gpu(graph, sources):
    """The distances from ``sources`` of a :class:`warpath.Graph`, through
    ``warpath.multi_source``, on the host as the GPU stored them (float64 for float
    weights: networkx sums in float64).

    Parameters
    ----------
    graph : warpath.Graph
    sources : array of int

    Returns
    -------
    ndarray, shape (len(sources), n)
        Integer types mark unreached pairs with their largest value, floats with ``inf``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 5])
    >>> rows_on_gpu(g, np.arange(1, 3)).tolist()
    [[2147483647, 0, 5], [2147483647, 2147483647, 0]]
    """
    import warpath

    block = warpath.multi_source(graph, sources, device="cuda", predecessors=False)
    stored = block.stored_distances
    if stored.dtype.kind == "f" and stored.dtype != np.float64:
        return block.distances
    return stored


def _all_pairs_rows(G):
    """All rows on the GPU, in a few ``multi_source`` calls; rows ordered on host threads
    while the dicts are built.  The dicts (25M entries for 5,000 nodes) are most of the
    time: their keys and integer values come from one :class:`SharedObjects`."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    import warpath
    from warpath import methods

    graph = G.warpath_graph()
    n = len(G)
    if not methods.available("multi_source", "cuda"):
        for s in range(n):
            result = warpath.sssp(graph, s, device="cuda", predecessors=False)
            yield G.nodes[s], _as_dict(G, s, result.distances, result.exact_distances)
        return
    shared = SharedObjects(G)
    chunk = max(1, min(n, ROWS_BYTES // (8 * n)))
    with ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        for start in range(0, n, chunk):
            sources = np.arange(start, min(start + chunk, n))
            stored = rows_on_gpu(graph, sources)
            parts = [pool.submit(_ordered_rows, stored[i:i + SORT_ROWS], sources[i:i + SORT_ROWS])
                     for i in range(0, len(sources), SORT_ROWS)]
            for i, part in zip(range(0, len(sources), SORT_ROWS), parts):
                order, reached, ordered = part.result()
                for j, s in enumerate(sources[i:i + SORT_ROWS]):
                    row = slice(0, reached[j])
                    yield shared.nodes[s], lengths_in_order(G, order[j, row], ordered[j, row],
                                                            (s,), shared)
