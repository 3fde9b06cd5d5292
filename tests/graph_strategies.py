"""Hypothesis strategies for random graphs and the checks shared by the CPU-solver tests.

Graphs come from every generator of :mod:`warpath.generators` (random, rmat,
power_law, ring, complete, grid) and from raw edge lists through
``Graph.from_edges``, directed or not, integer, float or no weights, and can
be made disconnected (a union with a second graph, isolated vertices), get
self-loops, duplicate arcs and zero weights, negative weights
(``with_negative_weights``) or a negative cycle (``with_negative_cycle``).

The checks compare against independent references (scipy.sparse.csgraph,
networkx) and verify predecessor trees and negative cycles against the graph
itself, never against warpath's own output.

Importable from the tests because pytest's ``pythonpath`` holds ``tests``.
"""

from __future__ import annotations

import gzip
import os

import numpy as np
from hypothesis import strategies as st

import warpath
from warpath import generators

GENERATORS = ("random", "rmat", "power_law", "ring", "complete", "grid", "edges")
DATASETS = os.environ.get("WARPATH_DATASETS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "datasets")


# ---------------------------------------------------------------------- building graphs

def _generated(kind, seed, weights, directed, size):
    """One small graph of ``kind`` with about ``size`` vertices."""
    options = {"seed": seed, "weights": weights, "directed": directed, "max_weight": 20}
    rng = np.random.default_rng(seed)
    if kind == "random":
        n = max(size, 2)
        possible = n * (n - 1) // (1 if directed else 2)
        return generators.random(n, int(rng.integers(0, min(possible, 4 * n) + 1)), **options)
    if kind == "rmat":
        return generators.rmat(int(rng.integers(1, 6)), int(rng.integers(1, 5)), **options)
    if kind == "power_law":
        n = max(size, 3)
        max_degree = int(rng.integers(1, n))
        return generators.power_law(n, float(rng.uniform(0, max_degree)), max_degree, **options)
    if kind == "ring":
        return generators.ring(max(size, 1), **options)
    if kind == "complete":
        return generators.complete(max(min(size, 12), 1), **options)
    if kind == "grid":
        rows = int(rng.integers(1, 7))
        return generators.grid(rows, max(1, size // rows), **options)
    raise ValueError(kind)


def _arcs(graph):
    return (graph.tails().astype(np.int64), graph.indices.astype(np.int64),
            graph.weights if graph.weighted else None)


def union(first, second):
    """The disjoint union of two graphs (``second``'s vertices shifted after ``first``'s)."""
    s1, d1, w1 = _arcs(first)
    s2, d2, w2 = _arcs(second)
    n1 = first.num_vertices
    weights = None
    if w1 is not None or w2 is not None:
        w1 = np.ones(s1.size, np.int32) if w1 is None else w1
        w2 = np.ones(s2.size, np.int32) if w2 is None else w2
        weights = np.concatenate([w1, w2.astype(w1.dtype)])
    return warpath.Graph.from_edges(np.concatenate([s1, s2 + n1]), np.concatenate([d1, d2 + n1]),
                                    weights, num_vertices=n1 + second.num_vertices,
                                    directed=first.directed and second.directed)


def with_extras(graph, rng, *, self_loops, duplicates, zeros, isolated):
    """Add non-negative self-loops, duplicate arcs, zero weights and isolated vertices."""
    src, dst, weights = _arcs(graph)
    n = graph.num_vertices + isolated
    weights = np.ones(src.size, np.int32) if weights is None else weights.copy()
    if zeros and weights.size:
        weights[rng.random(weights.size) < 0.3] = 0
    extra_src, extra_dst, extra_w = [], [], []
    if self_loops and n:
        loops = rng.integers(0, n, size=int(rng.integers(1, 4)))
        extra_src.append(loops), extra_dst.append(loops)
        extra_w.append(rng.integers(0, 20, loops.size))
    if duplicates and src.size:
        pick = rng.integers(0, src.size, size=int(rng.integers(1, 6)))
        extra_src.append(src[pick]), extra_dst.append(dst[pick])
        extra_w.append(np.maximum(weights[pick] + rng.integers(-3, 4, pick.size), 0))
    if extra_src:
        src = np.concatenate([src, *extra_src])
        dst = np.concatenate([dst, *extra_dst])
        weights = np.concatenate([weights, *(w.astype(weights.dtype) for w in extra_w)])
    directed = graph.directed or bool(extra_src)
    return warpath.Graph.from_edges(src, dst, weights, num_vertices=n, directed=directed)


@st.composite
def edge_list_graphs(draw, *, max_vertices=12, min_weight=0, max_weight=10, floats=False):
    """Arbitrary small graphs straight from ``Graph.from_edges`` (self-loops, duplicates, zeros)."""
    n = draw(st.integers(1, max_vertices))
    m = draw(st.integers(0, 3 * n))
    vertex = st.integers(0, n - 1)
    src = draw(st.lists(vertex, min_size=m, max_size=m))
    dst = draw(st.lists(vertex, min_size=m, max_size=m))
    if floats:
        # Weights so small that adding them to a distance changes nothing make a negative
        # cycle that exact arithmetic has and floating point cannot see (networkx misses it,
        # warpath finds it from the source's 0): keep them out of cross-checks.
        value = st.floats(min_weight, max_weight, allow_nan=False, allow_infinity=False).map(
            lambda w: 0.0 if abs(w) < 1e-9 else w)
    else:
        value = st.integers(min_weight, max_weight)
    weights = draw(st.lists(value, min_size=m, max_size=m))
    directed = draw(st.booleans())
    return warpath.Graph.from_edges(np.array(src, np.int64), np.array(dst, np.int64),
                                    np.array(weights, np.float64 if floats else np.int64),
                                    num_vertices=n, directed=directed)


@st.composite
def graphs(draw, *, negative=False, negative_cycle=False, max_vertices=30, kinds=GENERATORS,
           weight_kinds=("int", "float", None)):
    """A random graph from any generator, with optional extras.

    Parameters
    ----------
    negative : bool
        Apply ``with_negative_weights`` (negative arcs, no negative cycle).
    negative_cycle : bool
        Apply ``with_negative_cycle`` (a negative cycle reachable from vertex 0).
    """
    kind = draw(st.sampled_from(kinds))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "edges":
        graph = draw(edge_list_graphs(max_vertices=max_vertices))
    else:
        graph = _generated(kind, seed, draw(st.sampled_from(weight_kinds)), draw(st.booleans()),
                           draw(st.integers(1, max_vertices)))
        if draw(st.booleans()):
            other = draw(st.sampled_from(GENERATORS[:-1]))
            graph = union(graph, _generated(other, seed + 1, "int" if graph.weighted else None,
                                            graph.directed, draw(st.integers(1, 8))))
        if draw(st.booleans()):
            # zero-weight float cycles would come out of with_negative_weights a rounding
            # error away from zero: negative or not is then arbitrary, so keep them out
            zeros_allowed = not (negative and graph.weights.dtype.kind == "f")
            graph = with_extras(graph, rng, self_loops=draw(st.booleans()),
                                duplicates=draw(st.booleans()),
                                zeros=zeros_allowed and draw(st.booleans()),
                                isolated=draw(st.integers(0, 3)))
    if negative and graph.num_edges:
        graph = generators.with_negative_weights(graph, seed=seed)
    if negative_cycle:
        graph = generators.with_negative_cycle(graph, seed=seed)
    return graph


# ---------------------------------------------------------------------- references and checks

def scipy_graph(graph):
    """The graph as scipy.sparse.csgraph sees it (float64 data, explicit zeros kept as arcs)."""
    return graph.to_scipy().astype(np.float64)


def min_arc_weights(graph):
    """``{(u, v): lightest weight}`` over all arcs."""
    lightest = {}
    for u, v, w in zip(graph.tails().tolist(), graph.indices.tolist(), graph.weights.tolist()):
        if (u, v) not in lightest or w < lightest[(u, v)]:
            lightest[(u, v)] = w
    return lightest


def assert_distances_equal(ours, reference, graph):
    """Exact for integer weights, a tight relative tolerance for float weights."""
    ours = np.asarray(ours, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    assert ours.shape == reference.shape
    assert np.array_equal(np.isinf(ours), np.isinf(reference)), "reachability differs"
    if graph.weights.dtype.kind == "f":
        finite = np.isfinite(reference)
        scale = max(1.0, float(graph.max_abs_weight) * graph.num_vertices)
        np.testing.assert_allclose(ours[finite], reference[finite], rtol=1e-9, atol=1e-9 * scale)
    else:
        np.testing.assert_array_equal(ours, reference)


def assert_shortest_path_tree(graph, source, distances, predecessors, lightest=None):
    """Every reachable t != source has pred p with an arc p -> t and d[p] + w(p, t) == d[t]."""
    lightest = min_arc_weights(graph) if lightest is None else lightest
    distances = np.asarray(distances, dtype=np.float64)
    tolerance = 0.0
    if graph.weights.dtype.kind == "f":
        tolerance = 1e-9 * max(1.0, float(graph.max_abs_weight) * graph.num_vertices)
    assert predecessors[source] == -1
    for t in range(graph.num_vertices):
        if t == source:
            continue
        p = int(predecessors[t])
        if not np.isfinite(distances[t]):
            assert p == -1, f"unreachable {t} has predecessor {p}"
            continue
        assert (p, t) in lightest, f"predecessor {p} of {t} is not joined to it by an arc"
        assert abs(distances[p] + lightest[(p, t)] - distances[t]) <= tolerance, \
            f"d[{p}] + w({p},{t}) != d[{t}]"


def assert_path(graph, path, source, target, distance, lightest=None):
    """``path`` runs source -> target along arcs and weighs ``distance`` (empty iff unreachable)."""
    lightest = min_arc_weights(graph) if lightest is None else lightest
    path = np.asarray(path).tolist()
    if not np.isfinite(distance):
        assert path == []
        return
    assert path[0] == source and path[-1] == target
    total = sum(lightest[(u, v)] for u, v in zip(path[:-1], path[1:]))
    assert np.isclose(total, distance, rtol=1e-9, atol=1e-9)


def assert_negative_cycle(graph, cycle, lightest=None):
    """``cycle`` is a closed walk along arcs of the graph with negative total weight."""
    lightest = min_arc_weights(graph) if lightest is None else lightest
    assert cycle is not None and len(cycle) >= 1
    assert all(0 <= v < graph.num_vertices for v in cycle)
    arcs = list(zip(cycle, cycle[1:] + cycle[:1]))
    for arc in arcs:
        assert arc in lightest, f"cycle step {arc} is not an arc"
    assert sum(lightest[arc] for arc in arcs) < 0, "the cycle is not negative"


def scipy_sssp(graph, source, method="D"):
    """scipy's distances from ``source`` (``method`` "D" Dijkstra, "BF" Bellman-Ford)."""
    from scipy.sparse import csgraph

    matrix = scipy_graph(graph)
    if method == "D":
        return csgraph.dijkstra(matrix, indices=source)
    return csgraph.bellman_ford(matrix, indices=source)


def reaches_negative_cycle(graph, source):
    """Whether a negative cycle is reachable from ``source``, by scipy's Bellman-Ford."""
    from scipy.sparse import csgraph

    try:
        csgraph.bellman_ford(scipy_graph(graph), indices=source)
    except csgraph.NegativeCycleError:
        return True
    return False


# ---------------------------------------------------------------------- real datasets

def dataset_path(name):
    return os.path.abspath(os.path.join(DATASETS, name))


def load_dataset(name):
    """A graph of ../shared/datasets, by ``warpath.read`` or (until formats land) a numpy parse."""
    path = dataset_path(name)
    try:
        return warpath.read(path)
    except (NotImplementedError, AttributeError):
        pass
    with gzip.open(path, "rt") as text:
        lines = text.read().splitlines()
    if name.endswith(".gr.gz"):
        arcs = np.array([line.split()[1:] for line in lines if line.startswith("a ")], np.int64)
        n = int(next(line for line in lines if line.startswith("p ")).split()[2])
        return warpath.Graph.from_edges(arcs[:, 0] - 1, arcs[:, 1] - 1, arcs[:, 2],
                                        num_vertices=n)
    if name.endswith(".csv.gz"):
        rows = np.array([line.split(",")[:3] for line in lines if line and line[0].isdigit()],
                        np.int64)
        labels, ends = np.unique(rows[:, :2], return_inverse=True)
        ends = ends.reshape(-1, 2)
        return warpath.Graph.from_edges(ends[:, 0], ends[:, 1], rows[:, 2],
                                        num_vertices=labels.size, labels=labels)
    pairs = np.array([line.split()[:2] for line in lines if line and line[0].isdigit()], np.int64)
    return warpath.Graph.from_edges(pairs[:, 0], pairs[:, 1], directed=False)
