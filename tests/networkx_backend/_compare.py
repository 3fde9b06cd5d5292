"""Random networkx graphs of every generator shape, and the check that the backend answers as
networkx does: same values, same dict and path order, same exception type.

Graphs come from :mod:`warpath.generators` (random, rmat, power_law, ring,
complete, grid), directed or not, unweighted or with int or float weights,
optionally with negative weights or a negative cycle, then are rebuilt as
networkx graphs with the nodes and the edges in a shuffled order (networkx
breaks ties by insertion order, so the shuffle exercises the tie-breaking),
with integer or string nodes, and as multigraphs with parallel edges.

The reference is networkx itself, called without a backend.
"""

from __future__ import annotations

import itertools
from importlib.metadata import EntryPoint

import networkx as nx
import numpy as np

from warpath import generators

SHAPES = ("random", "rmat", "power_law", "ring", "complete", "grid")
WEIGHTS = (None, "int", "float")


def ensure_backend_registered():
    """Register the warpath backend with networkx when its entry point is not installed.

    An installed checkout (``pip install -e .``) has the entry point; a source
    tree run with ``PYTHONPATH=src`` does not, so register the same object the
    entry point names, as networkx's own test set-up does for its loopback backend.
    """
    from _warpath_nx import get_info

    backends = nx.utils.backends
    if "warpath" in backends.backends:
        return
    backends.backends["warpath"] = EntryPoint(
        name="warpath", group="networkx.backends",
        value="warpath.networkx_backend.interface:backend_interface")
    backends.backend_info["warpath"] = get_info()
    nx.config.backends = nx.utils.Config(warpath=nx.utils.Config(device="auto"),
                                         **nx.config.backends)
    backends._dispatchable.__call__ = backends._dispatchable._call_if_any_backends_installed


def warpath_graph(shape, seed, weights, directed, size=24):
    """A small graph of ``shape`` from warpath's generators (about ``size`` vertices)."""
    options = {"seed": seed, "weights": weights or "int", "directed": directed, "max_weight": 9}
    if shape == "random":
        return generators.random(size, 3 * size, **options)
    if shape == "rmat":
        return generators.rmat(5, 3, **options)
    if shape == "power_law":
        return generators.power_law(size, 3.0, 8, **options)
    if shape == "ring":
        return generators.ring(size, **options)
    if shape == "complete":
        return generators.complete(8, **options)
    return generators.grid(4, size // 4, **options)


def to_networkx(g, *, seed, weighted=True, string_nodes=False, multigraph=False):
    """``g`` as a networkx graph with nodes and edges inserted in a seeded random order.

    ``multigraph`` adds a heavier parallel copy of some edges (networkx takes
    the lightest of parallel edges).
    """
    rng = np.random.default_rng(seed)
    cls = {(True, False): nx.DiGraph, (False, False): nx.Graph,
           (True, True): nx.MultiDiGraph, (False, True): nx.MultiGraph}[g.directed, multigraph]
    G = cls()
    names = [f"v{i}" for i in range(g.num_vertices)] if string_nodes else list(range(g.num_vertices))
    for i in rng.permutation(g.num_vertices):
        G.add_node(names[i])
    tails, heads = g.tails(), g.indices
    keep = np.ones(tails.size, dtype=bool) if g.directed else tails <= heads
    weights = g.weights.tolist()
    for e in rng.permutation(np.flatnonzero(keep)):
        u, v = names[tails[e]], names[heads[e]]
        data = {"weight": weights[e]} if weighted else {}
        G.add_edge(u, v, **data)
        if multigraph and rng.random() < 0.3:
            G.add_edge(u, v, **({"weight": weights[e] + 3} if weighted else {}))
    return G


def graph_cases(weights_kinds=WEIGHTS, directions=(True, False), seeds=(0, 1)):
    """``(id, networkx graph)`` for every shape x direction x weights x seed."""
    for shape, directed, weights, seed in itertools.product(SHAPES, directions, weights_kinds,
                                                            seeds):
        g = warpath_graph(shape, seed, weights, directed)
        G = to_networkx(g, seed=seed, weighted=weights is not None, string_nodes=seed == 1,
                        multigraph=seed == 1 and shape in ("random", "ring"))
        yield f"{shape}-{'di' if directed else 'un'}-{weights}-{seed}", G


def negative_cases(seeds=(0, 1, 2)):
    """``(id, graph)`` with negative weights and no negative cycle, and with one (directed)."""
    for shape, seed in itertools.product(SHAPES, seeds):
        g = warpath_graph(shape, seed, "int", True)
        yield (f"{shape}-negative-{seed}",
               to_networkx(generators.with_negative_weights(g, seed=seed), seed=seed))
        yield (f"{shape}-negative-cycle-{seed}",
               to_networkx(generators.with_negative_cycle(g, seed=seed), seed=seed))


def plain(value):
    """``value`` with its order made visible: dicts as item lists, iterators consumed."""
    if isinstance(value, dict):
        return [(k, plain(v)) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(value, "__next__"):
        return [plain(v) for v in value]
    return value


def outcome(func, *args, **kwargs):
    """``("value", plain result)`` or ``("raises", exception type)``."""
    try:
        return ("value", plain(func(*args, **kwargs)))
    except (nx.NetworkXException, ValueError, KeyError) as exc:
        return ("raises", type(exc))


def assert_same(func, *args, **kwargs):
    """Calling ``func`` through the warpath backend gives networkx's own outcome, in order."""
    expected = outcome(func, *args, **kwargs)
    got = outcome(func, *args, backend="warpath", **kwargs)
    if got != expected:
        raise AssertionError(f"{func.__name__}{args[1:]} {kwargs}: warpath gave "
                             f"{_first_difference(got, expected)}")
    return expected


def _first_difference(got, expected, where="result"):
    """A short description of where two outcomes first differ (they can be long)."""
    if isinstance(got, list) and isinstance(expected, list):
        for i, (a, b) in enumerate(zip(got, expected)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
        return f"{len(got)} items at {where}, networkx {len(expected)}"
    return f"{got!r:.300} at {where}, networkx {expected!r:.300}"


def some_nodes(G, count=3, seed=0):
    """A few nodes of ``G`` (deterministic), for sources and targets."""
    nodes = list(G)
    rng = np.random.default_rng(seed)
    return [nodes[i] for i in rng.choice(len(nodes), size=min(count, len(nodes)), replace=False)]
