"""Seeded synthetic graphs: the generated inputs of the papers warpath follows.

Every generator takes ``seed=`` (an int or a ``numpy.random.Generator``) and
returns a :class:`~warpath.graph.Graph`; the same seed gives the identical
graph.  Common keywords: ``weights="int"`` (integers in ``[1, max_weight]``,
int32, or int64 when ``max_weight`` does not fit), ``"float"`` (float64,
uniform in ``[1, max_weight)``) or ``None`` (unweighted), and
``directed=True`` (``False`` stores every edge both ways with one weight).

Which generator stands in for which paper graph:

=========================  ==================================================
generator                  paper graphs it imitates
=========================  ==================================================
:func:`random`             H-BF Table 1 ``random_*`` (GTgraph's Erdos-Renyi
                           G(n, m)); Harish & Narayanan's random graphs
                           (degree 6-7, weights 1-10); Okuyama et al.'s
                           "random" (DIMACS generator, w_max = n)
:func:`rmat`               H-BF Table 1 ``rmat.3Mv.20Me`` (GTgraph R-MAT)
:func:`power_law`          Harish & Narayanan's scale-free graphs (0.1 % of
                           the vertices of high degree, up to 1000, average
                           6); Okuyama et al.'s "power law" (max out-degree
                           834, average 3.5, most vertices below 3)
:func:`ring`               Okuyama et al.'s ring (one out-arc per vertex)
:func:`complete`           Okuyama et al.'s complete graph
:func:`grid`               road networks: Harish & Narayanan's and Safari &
                           Ebnenasir's DIMACS USA-road graphs (New York,
                           ...): degree <= 4, both directions of each road
:func:`with_negative_weights`  H-BF's second graph set ("some edges with
                           negative weights though no negative cycles")
:func:`with_negative_cycle`    inputs for negative-cycle detection
:func:`with_random_weights`    seeded integer weights for a real topology that
                           has none (the PACE 2016 copies of the DIMACS road
                           networks), or that a paper redrew (Safari &
                           Ebnenasir: [1, 10])
=========================  ==================================================

Examples
--------
>>> from warpath import generators
>>> g = generators.random(100, 600, seed=7)
>>> g.num_vertices, g.num_edges
(100, 600)
>>> g2 = generators.random(100, 600, seed=7)
>>> bool((g.indices == g2.indices).all() and (g.weights == g2.weights).all())
True
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .errors import ArgumentError
from .graph import Graph

__all__ = ["random", "rmat", "power_law", "ring", "complete", "grid",
           "with_negative_weights", "with_negative_cycle", "with_random_weights"]

_INT32_MAX = int(np.iinfo(np.int32).max)
_INT64_MAX = int(np.iinfo(np.int64).max)
_HUB_SHARE = 0.001  # Harish & Narayanan, Sec. 6: "a small fraction (0.1%) ... high degrees"
_RMAT_BLOCK = 1 << 16  # edges per R-MAT block: keeps the working arrays in cache


# ---------------------------------------------------------------------- argument checks

def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise ArgumentError(f"seed must be an int or a numpy.random.Generator, not {seed!r}")
    if seed < 0:
        raise ArgumentError(f"seed must be non-negative, not {seed}")
    return np.random.default_rng(int(seed))


def _count(name, value, minimum=0) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ArgumentError(f"{name} must be an integer, not {value!r}")
    if value < minimum:
        raise ArgumentError(f"{name} must be >= {minimum}, not {value}")
    return int(value)


def _check_weights(weights, max_weight):
    """Validate the weight keywords; returns the integer weight dtype (or None)."""
    if weights not in ("int", "float", None):
        raise ArgumentError(f'weights must be "int", "float" or None, not {weights!r}')
    if weights is None:
        return None
    if isinstance(max_weight, (bool, np.bool_)) or not isinstance(max_weight, numbers.Real):
        raise ArgumentError(f"max_weight must be a number, not {max_weight!r}")
    if weights == "float":
        if not (math.isfinite(max_weight) and max_weight >= 1):
            raise ArgumentError(f"max_weight must be a finite number >= 1, not {max_weight}")
        return None
    if not math.isfinite(max_weight) or max_weight != int(max_weight):
        raise ArgumentError(f'max_weight must be an integer for weights="int", not {max_weight}')
    if not 1 <= max_weight <= _INT64_MAX:
        raise ArgumentError(f"max_weight must be in [1, 2**63 - 1], not {max_weight}")
    return np.dtype(np.int32) if max_weight <= _INT32_MAX else np.dtype(np.int64)


def _draw_weights(rng, count, weights, max_weight):
    """``count`` random weights, or None for an unweighted graph."""
    dtype = _check_weights(weights, max_weight)
    if weights is None:
        return None
    if weights == "float":
        return rng.uniform(1.0, float(max_weight), size=count)
    return rng.integers(1, int(max_weight), size=count, dtype=dtype, endpoint=True)


def _build(src, dst, weights, num_vertices, directed, name, **extra):
    return Graph.from_edges(src, dst, weights, num_vertices=num_vertices, directed=directed,
                            name=name, **extra)


# ---------------------------------------------------------------------- random graphs

def _distinct_pairs(rng, n, m, directed):
    """``m`` distinct vertex pairs without self-loops, uniformly at random, sorted by (u, v).

    Undirected pairs are returned with ``u < v``.
    """
    if m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    total = n * (n - 1) if directed else n * (n - 1) // 2
    if 2 * m >= total:
        # Dense: sample pair indices without replacement (O(total) memory, and total <= 2m).
        if directed:
            keys = np.sort(rng.choice(total, size=m, replace=False))
            u, rest = np.divmod(keys, n - 1)
            return u, rest + (rest >= u)
        tails, heads = np.triu_indices(n, 1)
        pick = np.sort(rng.choice(total, size=m, replace=False))
        return tails[pick].astype(np.int64), heads[pick].astype(np.int64)
    # Sparse: draw independent pairs until m distinct ones are found, then keep a
    # random m of them; the distinct set of i.i.d. draws is uniform given its size,
    # so the result is uniform over all m-subsets (as GTgraph's G(n, m)).
    keys = np.zeros(0, dtype=np.int64)
    while keys.size < m:
        batch = int((m - keys.size) * 1.1) + 16
        u = rng.integers(0, n, size=batch)
        v = rng.integers(0, n - 1, size=batch)
        v += v >= u  # skip u itself: no self-loops
        if not directed:
            u, v = np.minimum(u, v), np.maximum(u, v)
        keys = np.sort(np.concatenate([keys, u * n + v]))
        keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    if keys.size > m:
        keys = np.sort(keys[rng.permutation(keys.size)[:m]])
    return np.divmod(keys, n)


def random(n, m, *, seed, weights="int", max_weight=100, directed=True):
    """An Erdos-Renyi G(n, m) graph: ``m`` distinct arcs chosen uniformly, no self-loops.

    This is GTgraph's ``random`` generator, used for H-BF's ``random_*``
    graphs (Table 1) and by Harish & Narayanan and Okuyama et al.

    Parameters
    ----------
    n : int
        Number of vertices, >= 1.
    m : int
        Number of arcs (of undirected edges when ``directed=False``), at most
        ``n * (n - 1)`` (``n * (n - 1) / 2`` undirected).
    seed : int or numpy.random.Generator
        The same seed gives the same graph.
    weights : {"int", "float", None}
        Random integer weights in ``[1, max_weight]``, float weights in
        ``[1, max_weight)``, or an unweighted graph.
    max_weight : int or float
        The largest weight (default 100).
    directed : bool
        ``False`` draws ``m`` undirected edges, stored in both directions.

    Returns
    -------
    Graph
        With ``m`` arcs (``2 * m`` when undirected).

    Raises
    ------
    ValueError
        For ``n < 1``, ``m`` beyond the number of possible arcs, or bad weight options.

    Examples
    --------
    >>> g = random(50, 200, seed=1)
    >>> g.num_vertices, g.num_edges, g.weights.dtype
    (50, 200, dtype('int32'))
    >>> int(g.weights.min()) >= 1 and int(g.weights.max()) <= 100
    True
    >>> random(50, 200, seed=1, directed=False).num_edges
    400
    """
    n = _count("n", n, 1)
    m = _count("m", m, 0)
    possible = n * (n - 1) if directed else n * (n - 1) // 2
    if m > possible:
        kind = "arcs" if directed else "edges"
        raise ArgumentError(f"m = {m} is more than the {possible} {kind} possible on {n} vertices "
                         "without self-loops")
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    src, dst = _distinct_pairs(rng, n, m, directed)
    return _build(src, dst, _draw_weights(rng, m, weights, max_weight), n, directed,
                  f"random_{n}v_{m}e")


# ---------------------------------------------------------------------- R-MAT

def _rmat_endpoints(rng, scale, count, thresholds):
    """Tails and heads of ``count`` R-MAT edges, ``scale`` recursion levels each.

    Each level picks a quadrant of the adjacency matrix from one 16-bit random
    number r: a (r < A), b (A <= r < B), c (B <= r < C) or d; the row bit is
    ``r >= B`` and the column bit ``[r >= A] xor [r >= B] xor [r >= C]``.
    """
    index = np.uint32 if scale <= 32 else np.uint64
    tails = np.empty(count, dtype=index)
    heads = np.empty(count, dtype=index)
    words = (scale + 3) // 4  # one uint64 holds four 16-bit draws
    for start in range(0, count, _RMAT_BLOCK):
        size = min(count, start + _RMAT_BLOCK) - start
        draws = rng.integers(0, 2**64, size=(size, words), dtype=np.uint64, endpoint=False)
        draws = draws.view(np.uint16)
        u = np.zeros(size, dtype=index)
        v = np.zeros(size, dtype=index)
        for level in range(scale):
            r = draws[:, level]
            past_a, past_b, past_c = (
                np.zeros(size, dtype=bool) if t > 0xFFFF else r >= np.uint16(t) for t in thresholds)
            u <<= 1
            u |= past_b
            v <<= 1
            past_a ^= past_b
            past_a ^= past_c
            v |= past_a
        tails[start:start + size] = u
        heads[start:start + size] = v
    return tails.astype(np.int64), heads.astype(np.int64)


def rmat(scale, edge_factor, a=0.57, b=0.19, c=0.19, *, seed, weights="int", max_weight=100,
         directed=True):
    """An R-MAT graph (Chakrabarti et al.): ``2**scale`` vertices, skewed degrees.

    Draws ``edge_factor * 2**scale`` edges; each picks, at every one of
    ``scale`` levels, a quadrant of the adjacency matrix with probabilities
    ``a, b, c, d = 1 - a - b - c``.  Self-loops and duplicate edges are
    dropped, so the graph has somewhat fewer arcs than drawn.  As in GTgraph,
    vertex 0 is the densest (no relabelling).  The quadrant probabilities are
    applied with 16-bit resolution (multiples of 2**-16).  H-BF's
    ``rmat.3Mv.20Me`` (Table 1) is a GTgraph R-MAT graph.

    Parameters
    ----------
    scale : int
        log2 of the number of vertices, 1..40.
    edge_factor : int
        Edges drawn per vertex.
    a, b, c : float
        Quadrant probabilities (top-left, top-right, bottom-left), >= 0 with
        ``a + b + c <= 1``.
    seed : int or numpy.random.Generator
    weights : {"int", "float", None}
    max_weight : int or float
    directed : bool

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        For a bad scale, edge factor or probabilities.

    Examples
    --------
    >>> g = rmat(8, 4, seed=3)
    >>> g.num_vertices
    256
    >>> g.num_edges <= 4 * 256
    True
    >>> int(g.out_degrees().argmax())  # the top-left quadrant is the heaviest
    0
    """
    scale = _count("scale", scale, 1)
    if scale > 40:
        raise ArgumentError(f"scale must be at most 40, not {scale}")
    edge_factor = _count("edge_factor", edge_factor, 0)
    probabilities = []
    for name, value in (("a", a), ("b", b), ("c", c)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
                or not 0 <= value <= 1:
            raise ArgumentError(f"{name} must be a probability in [0, 1], not {value!r}")
        probabilities.append(float(value))
    if sum(probabilities) > 1 + 1e-12:
        raise ArgumentError(f"a + b + c = {sum(probabilities):g} must be at most 1 "
                         "(d = 1 - a - b - c)")
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    n = 1 << scale
    cumulative = np.cumsum(probabilities)
    thresholds = [int(round(p * 65536)) for p in cumulative]
    src, dst = _rmat_endpoints(rng, scale, edge_factor * n, thresholds)
    keep = src != dst
    if not directed:
        src, dst = np.minimum(src, dst), np.maximum(src, dst)
    # Sorting and deduplicating here (not in from_edges) lets weights be drawn once per arc.
    keys = np.sort((src[keep] << scale) | dst[keep])
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])] if keys.size else keys
    src, dst = keys >> scale, keys & (n - 1)
    return _build(src, dst, _draw_weights(rng, keys.size, weights, max_weight), n, directed,
                  f"rmat_{scale}_{edge_factor}")


# ---------------------------------------------------------------------- scale-free

def _low_degree_distribution(mean, cap):
    """Probabilities of degrees 0..cap, proportional to (k + 1)**-gamma, with the given mean."""
    degrees = np.arange(cap + 1, dtype=np.float64)

    def probabilities(gamma):
        p = (degrees + 1) ** -gamma
        return p / p.sum()

    low, high = -30.0, 30.0  # the mean falls as gamma grows
    for _ in range(100):
        gamma = (low + high) / 2
        if probabilities(gamma) @ degrees > mean:
            low = gamma
        else:
            high = gamma
    return probabilities((low + high) / 2)


def power_law(n, avg_degree, max_degree, *, seed, weights="int", max_weight=100, directed=True):
    """A scale-free graph as Harish & Narayanan describe theirs: few hubs, many low degrees.

    About 0.1 % of the vertices (at least one) are hubs with out-degree
    uniform in ``[ceil(max_degree / 2), max_degree]``; one of them has exactly
    ``max_degree``.  Where such hubs would hold more than half of the
    ``avg_degree * n`` arcs, hub degrees fall off as ``max_degree / rank``
    (and the smallest hubs are dropped) so that the average holds.  The
    other vertices get out-degrees 0, 1, 2, ... with probability
    proportional to ``(k + 1)**-gamma`` (capped at about four times their
    mean), ``gamma`` fitted so that the whole graph averages
    about ``avg_degree``.  Heads are uniform random vertices (never the tail;
    a hub's heads are distinct).  Harish & Narayanan used max degree 1000,
    average 6; Okuyama et al.'s power-law graph had max 834, average 3.5.

    Parameters
    ----------
    n : int
        Number of vertices, >= 2.
    avg_degree : float
        Target average out-degree, ``0 <= avg_degree <= max_degree``.  The
        realised average is close but not exact (duplicate low-degree arcs
        are merged; hubs alone may exceed it on small graphs).
    max_degree : int
        The largest out-degree, ``1 <= max_degree <= n - 1``.
    seed : int or numpy.random.Generator
    weights : {"int", "float", None}
    max_weight : int or float
    directed : bool
        ``False`` stores each arc both ways, so degrees grow by the in-degrees.

    Returns
    -------
    Graph

    Raises
    ------
    ValueError
        For degrees out of range.

    Examples
    --------
    >>> g = power_law(5000, 6, 1000, seed=0)
    >>> int(g.out_degrees().max())
    1000
    >>> round(g.num_edges / g.num_vertices)
    6
    >>> int((g.out_degrees() > 100).sum())  # 0.1 % of 5000 vertices are hubs
    5
    """
    n = _count("n", n, 2)
    max_degree = _count("max_degree", max_degree, 1)
    if max_degree > n - 1:
        raise ArgumentError(f"max_degree = {max_degree} is more than n - 1 = {n - 1} "
                         "(heads are distinct and never the tail)")
    if isinstance(avg_degree, (bool, np.bool_)) or not isinstance(avg_degree, numbers.Real) \
            or not 0 <= avg_degree <= max_degree:
        raise ArgumentError(f"avg_degree must be a number in [0, max_degree = {max_degree}], "
                         f"not {avg_degree!r}")
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    num_hubs = max(1, round(_HUB_SHARE * n))
    hub_degrees = _hub_degrees(rng, num_hubs, max_degree, avg_degree * n)
    hubs = rng.choice(n, size=hub_degrees.size, replace=False)
    others = np.setdiff1d(np.arange(n), hubs)
    remaining = max(avg_degree * n - int(hub_degrees.sum()), 0.0)
    mean = remaining / others.size if others.size else 0.0
    cap = min(max_degree, n - 1, max(1, math.ceil(4 * mean)))
    degrees = rng.choice(cap + 1, size=others.size, p=_low_degree_distribution(mean, cap))
    src = [np.repeat(others, degrees)]
    dst = [rng.integers(0, n - 1, size=src[0].size)]
    for hub, degree in zip(hubs.tolist(), hub_degrees.tolist()):  # a loop per hub (0.1 % of n)
        src.append(np.full(degree, hub))
        dst.append(rng.choice(n - 1, size=degree, replace=False))
    src, dst = np.concatenate(src), np.concatenate(dst)
    dst += dst >= src  # skip the tail itself: no self-loops
    return _build(src, dst, _draw_weights(rng, src.size, weights, max_weight), n, directed,
                  f"power_law_{n}v")


def _hub_degrees(rng, num_hubs, max_degree, total_arcs):
    """Out-degrees of the hubs: the largest is ``max_degree``; together at most half the arcs.

    Harish & Narayanan's hubs have degrees uniform in ``[max_degree / 2,
    max_degree]``.  Where that would take more than half of ``total_arcs``
    (a huge ``max_degree`` with a small average, as wiki-Talk's 100,022 with
    2.1) the degrees fall off as ``max_degree / rank`` instead, as in real
    scale-free graphs, and hubs are dropped from the end until they fit.
    """
    budget = total_arcs / 2
    if num_hubs * 0.75 * max_degree <= budget:
        degrees = rng.integers(-(-max_degree // 2), max_degree, size=num_hubs, endpoint=True)
        degrees[0] = max_degree
        return degrees
    degrees = np.maximum(max_degree // np.arange(1, num_hubs + 1), 1)
    fits = max(1, int(np.searchsorted(np.cumsum(degrees), budget, side="right")))
    return degrees[:fits]


# ---------------------------------------------------------------------- regular shapes

def ring(n, *, seed, weights="int", max_weight=100, directed=True):
    """A cycle 0 -> 1 -> ... -> n-1 -> 0: every vertex has out-degree 1 (directed).

    Okuyama et al.'s worst case: an SSSP frontier of one vertex per step.
    Undirected, every vertex has two neighbours (one when ``n == 2``); a
    single vertex (``n == 1``) has no arc rather than a self-loop.

    Parameters
    ----------
    n : int
        Number of vertices, >= 1.
    seed : int or numpy.random.Generator
    weights : {"int", "float", None}
        ``max_weight=1`` or ``None`` gives Okuyama et al.'s unit weights.
    max_weight : int or float
    directed : bool

    Returns
    -------
    Graph

    Examples
    --------
    >>> g = ring(4, seed=0, weights=None)
    >>> g.indices.tolist()
    [1, 2, 3, 0]
    >>> ring(4, seed=0, directed=False).out_degrees().tolist()
    [2, 2, 2, 2]
    """
    n = _count("n", n, 1)
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    src = np.arange(n if n > 1 else 0, dtype=np.int64)
    dst = (src + 1) % n
    return _build(src, dst, _draw_weights(rng, src.size, weights, max_weight), n, directed,
                  f"ring_{n}")


def complete(n, *, seed, weights="int", max_weight=100, directed=True):
    """The complete graph: all ``n * (n - 1)`` arcs, no self-loops.

    Okuyama et al.'s densest case (every vertex has n - 1 neighbours).
    Undirected, each of the ``n * (n - 1) / 2`` edges gets one weight.

    Parameters
    ----------
    n : int
        Number of vertices, >= 1.
    seed : int or numpy.random.Generator
    weights : {"int", "float", None}
    max_weight : int or float
    directed : bool

    Returns
    -------
    Graph

    Examples
    --------
    >>> g = complete(5, seed=0)
    >>> g.num_edges, g.out_degrees().tolist()
    (20, [4, 4, 4, 4, 4])
    """
    n = _count("n", n, 1)
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    if directed:
        src = np.repeat(np.arange(n, dtype=np.int64), n - 1)
        dst = np.tile(np.arange(n - 1, dtype=np.int64), n)
        dst += dst >= src
    else:
        src, dst = (side.astype(np.int64) for side in np.triu_indices(n, 1))
    return _build(src, dst, _draw_weights(rng, src.size, weights, max_weight), n, directed,
                  f"complete_{n}")


def grid(rows, cols, *, seed, weights="int", max_weight=100, directed=True):
    """A road-like mesh: 4-neighbour grid, both directions of every segment.

    Vertex ``r * cols + c`` sits at ``(x, y) = (c, r)`` (kept in
    ``coordinates``, as a DIMACS ``.co`` file would).  Each segment has one
    random length, used in both directions, as in the DIMACS USA-road
    graphs that Harish & Narayanan and Safari & Ebnenasir run on; degrees are
    at most 4.  ``grid(514, 514)`` is about the size of USA-road-d.NY (its
    264K vertices; a full mesh has 1.05M arcs where NY has 730K).

    Parameters
    ----------
    rows, cols : int
        Mesh size, each >= 1.
    seed : int or numpy.random.Generator
    weights : {"int", "float", None}
    max_weight : int or float
    directed : bool
        The arcs are the same either way (both directions); ``False`` marks
        the graph undirected.

    Returns
    -------
    Graph
        ``rows * cols`` vertices, ``2 * (rows * (cols - 1) + cols * (rows - 1))`` arcs.

    Examples
    --------
    >>> g = grid(2, 3, seed=0)
    >>> g.num_vertices, g.num_edges
    (6, 14)
    >>> g.neighbors(1).tolist(), g.coordinates[5].tolist()
    ([0, 2, 4], [2, 1])
    """
    rows = _count("rows", rows, 1)
    cols = _count("cols", cols, 1)
    _check_weights(weights, max_weight)
    rng = _rng(seed)
    ids = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    src = np.concatenate([ids[:, :-1].ravel(), ids[:-1, :].ravel()])
    dst = np.concatenate([ids[:, 1:].ravel(), ids[1:, :].ravel()])
    lengths = _draw_weights(rng, src.size, weights, max_weight)
    if directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        lengths = None if lengths is None else np.concatenate([lengths, lengths])
    row, col = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    return _build(src, dst, lengths, rows * cols, directed, f"grid_{rows}x{cols}",
                  coordinates=np.column_stack([col, row]))


# ---------------------------------------------------------------------- negative weights

def _arcs(g):
    """Tails, heads and weights of every stored arc of ``g`` (both ways when undirected)."""
    return g.tails().astype(np.int64), g.indices.astype(np.int64), g.weights


def _derived(g, src, dst, weights, suffix):
    name = f"{g.name}{suffix}" if g.name else None
    labels = g.labels if g.has_labels else None
    return Graph.from_edges(src, dst, weights, num_vertices=g.num_vertices, directed=True,
                            labels=labels, coordinates=g.coordinates, name=name)


def with_negative_weights(g, *, seed, fraction=0.1, return_potentials=False):
    """A copy of ``g`` with some negative arc weights and no negative cycle.

    Reweights every arc by vertex potentials p, ``w'(u, v) = w(u, v) + p(u) -
    p(v)`` (the inverse of Johnson's reweighting).  Every cycle keeps its
    weight, so no negative cycle appears if ``g`` had none, and shortest
    paths keep their structure: ``d'(s, t) = d(s, t) + p(s) - p(t)``.  The
    potentials are random (integers for integer weights), scaled so that
    about ``fraction`` of the arcs turn negative (at most the arcs running
    "uphill" in p's order: about half).  H-BF's second graph set has this
    shape: some negative edges, no negative cycle.

    The result is always directed: in an undirected graph a negative edge is
    a negative 2-cycle, so each undirected edge becomes two arcs whose
    weights differ (and sum to twice the original, > 0).  The weight dtype is
    kept (an unweighted graph gets int32 weights).  For float weights the
    identities hold up to rounding, so a zero-weight cycle of ``g`` could
    come out a rounding error below zero.

    Parameters
    ----------
    g : Graph
        The input graph (nonnegative weights, or at least no negative cycle).
    seed : int or numpy.random.Generator
    fraction : float
        Share of arcs to make negative, in (0, 0.5].
    return_potentials : bool
        Also return the potentials p (one per vertex, the weight dtype).

    Returns
    -------
    Graph, or (Graph, numpy.ndarray) with ``return_potentials=True``

    Raises
    ------
    ValueError
        For a bad ``fraction``, or integer weights that would overflow their dtype.

    Examples
    --------
    >>> g = random(200, 1000, seed=5)
    >>> h, p = with_negative_weights(g, seed=5, return_potentials=True)
    >>> h.has_negative_weights, h.weights.dtype, h.num_edges
    (True, dtype('int32'), 1000)
    >>> u, v = int(g.tails()[0]), int(g.indices[0])
    >>> int(h.weights[0]) == int(g.weights[0]) + int(p[u]) - int(p[v])
    True
    """
    if not isinstance(g, Graph):
        raise ArgumentError(f"g must be a warpath Graph, not {type(g).__name__}")
    if isinstance(fraction, (bool, np.bool_)) or not isinstance(fraction, numbers.Real) \
            or not 0 < fraction <= 0.5:
        raise ArgumentError(f"fraction must be in (0, 0.5], not {fraction!r}")
    rng = _rng(seed)
    src, dst, weights = _arcs(g)
    order = rng.random(g.num_vertices)
    # Arc (u, v) turns negative once scale * (order[v] - order[u]) > w(u, v): pick the
    # scale at the wanted quantile of those per-arc thresholds.
    rise = order[dst] - order[src]
    with np.errstate(divide="ignore", invalid="ignore"):
        thresholds = np.where(rise > 0, np.maximum(weights, 0) / rise, np.inf)
    scale = 0.0
    if thresholds.size:
        scale = float(np.quantile(thresholds, fraction, method="higher"))
        if not math.isfinite(scale):
            finite = thresholds[np.isfinite(thresholds)]
            scale = float(finite.max()) if finite.size else 0.0
    dtype = g.weights.dtype
    if dtype.kind == "f":
        potentials = (scale * 1.000001 + 1e-9) * order
        new_weights = (weights.astype(np.float64) + potentials[src] - potentials[dst]).astype(dtype)
        potentials = potentials.astype(dtype)
    else:
        # Integer potentials keep integer weights exact; +1 makes up for the flooring.
        potentials = np.floor((scale + 1) * order).astype(np.int64)
        new_weights = weights.astype(np.int64) + potentials[src] - potentials[dst]
        info = np.iinfo(dtype)
        if new_weights.size and (new_weights.min() < info.min or new_weights.max() > info.max):
            raise ArgumentError(f"the reweighted arcs do not fit {dtype} weights; "
                             "use a smaller fraction or int64 weights")
        new_weights = new_weights.astype(dtype)
        potentials = potentials.astype(dtype)
    result = _derived(g, src, dst, new_weights, "+negative")
    return (result, potentials) if return_potentials else result


def with_negative_cycle(g, *, seed, return_cycle=False):
    """A directed copy of ``g`` plus a planted negative cycle reachable from vertex 0.

    Picks a random vertex x reachable from vertex 0 (possibly 0 itself) and
    adds the arcs of a cycle x -> y -> z -> x through two other random
    vertices (x -> y -> x when ``g`` has two vertices, a self-loop at 0 when
    it has one).  The new arcs have random positive weights except the
    closing one, which is negative enough that the cycle totals between -1
    and -max_weight (where a planted arc already existed, the lighter weight
    is kept, which only makes the cycle more negative).  Guarantee: the result
    always holds a negative cycle reachable from vertex 0, so Bellman-Ford
    from vertex 0 must report one.  The result is directed (an undirected
    ``g`` becomes its two arcs per edge) and keeps the weight dtype (int32
    for an unweighted ``g``).

    Parameters
    ----------
    g : Graph
        Any graph with at least one vertex.
    seed : int or numpy.random.Generator
    return_cycle : bool
        Also return the planted cycle's vertices, in order (x, y, z).

    Returns
    -------
    Graph, or (Graph, numpy.ndarray) with ``return_cycle=True``

    Raises
    ------
    ValueError
        For a graph without vertices.

    Examples
    --------
    >>> from scipy.sparse.csgraph import bellman_ford, NegativeCycleError
    >>> h = with_negative_cycle(grid(3, 3, seed=0), seed=0)
    >>> try:
    ...     bellman_ford(h.to_scipy(), indices=0)
    ... except NegativeCycleError:
    ...     print("negative cycle")
    negative cycle
    """
    from scipy.sparse.csgraph import breadth_first_order

    if not isinstance(g, Graph):
        raise ArgumentError(f"g must be a warpath Graph, not {type(g).__name__}")
    n = g.num_vertices
    if n < 1:
        raise ArgumentError("cannot plant a cycle in a graph without vertices")
    rng = _rng(seed)
    reachable = breadth_first_order(g.to_scipy(), 0, directed=True, return_predecessors=False)
    start = int(reachable[rng.integers(reachable.size)])
    others = np.setdiff1d(np.arange(n), [start])
    chosen = rng.choice(others, size=min(2, others.size), replace=False) if others.size else []
    cycle = np.array([start, *np.asarray(chosen).tolist()], dtype=np.int64)
    dtype = g.weights.dtype
    largest = max(float(g.max_abs_weight), 1.0)
    if dtype.kind == "f":
        forward = rng.uniform(1.0, largest, size=cycle.size - 1)
        closing = -forward.sum() - rng.uniform(1.0, largest)
    else:
        # a quarter of the dtype's range per arc keeps the closing arc's weight in range
        largest = max(1, min(int(largest), int(np.iinfo(dtype).max) // 4))
        forward = rng.integers(1, largest, size=cycle.size - 1, endpoint=True)
        closing = -int(forward.sum()) - int(rng.integers(1, largest, endpoint=True))
    planted = np.append(forward, closing).astype(dtype)
    src, dst, weights = _arcs(g)
    src = np.concatenate([src, cycle])
    dst = np.concatenate([dst, np.roll(cycle, -1)])
    weights = np.concatenate([weights, planted])
    result = _derived(g, src, dst, weights, "+negative-cycle")
    return (result, cycle) if return_cycle else result


# ---------------------------------------------------------------------- synthetic weights

def with_random_weights(g, low, high, *, seed):
    """The same arcs as ``g`` with seeded integer weights drawn uniformly from ``[low, high]``.

    For an undirected graph each edge gets one draw, and both of its arcs
    carry it (the DIMACS road networks list every road as two arcs of one
    length).  For a directed graph each arc gets its own draw.  The arcs,
    their order, the labels, coordinates and name are kept; the old
    weights, if any, are replaced.  Weights are int32 when ``low`` and
    ``high`` fit, else int64.

    Parameters
    ----------
    g : Graph
    low, high : int
        Inclusive bounds (``low <= high``), e.g. ``1, 1000``.
    seed : int or numpy.random.Generator
        The same seed on the same graph gives the same weights.

    Returns
    -------
    Graph

    Raises
    ------
    GraphError
        For bounds that are not integers with ``low <= high``, or an
        undirected graph missing the reverse of one of its arcs.

    Examples
    --------
    >>> g = grid(2, 2, seed=0, weights=None, directed=False)
    >>> h = with_random_weights(g, 1, 1000, seed=4)
    >>> h.weights.dtype, h.num_edges == g.num_edges, bool((h.indices == g.indices).all())
    (dtype('int32'), True, True)
    >>> w = dict(zip(zip(h.tails().tolist(), h.indices.tolist()), h.weights.tolist()))
    >>> w[0, 1] == w[1, 0] and 1 <= w[0, 1] <= 1000
    True
    """
    from .errors import GraphError

    if not isinstance(g, Graph):
        raise GraphError(f"g must be a warpath Graph, not {type(g).__name__}")
    for name, value in (("low", low), ("high", high)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            raise GraphError(f"{name} must be an integer, not {value!r}")
    low, high = int(low), int(high)
    if low > high:
        raise GraphError(f"low ({low}) must not exceed high ({high})")
    info = np.iinfo(np.int32)
    dtype = np.int32 if info.min <= low and high <= info.max else np.int64
    rng = _rng(seed)
    if g.directed:
        weights = rng.integers(low, high, size=g.num_edges, dtype=dtype, endpoint=True)
    else:
        weights = _edge_weights(g, rng, low, high, dtype)
    return Graph(g.indptr, g.indices, weights, directed=g.directed,
                 labels=g.labels if g.has_labels else None, coordinates=g.coordinates,
                 name=g.name, validate=False)


def _edge_weights(g, rng, low, high, dtype):
    """One draw per undirected edge, in the order of its arc ``u -> v`` with ``u <= v``;
    the arc ``v -> u`` looks its twin up by the key ``u * n + v``."""
    from .errors import GraphError

    tails = g.tails().astype(np.int64)
    heads = g.indices.astype(np.int64)
    forward = tails <= heads
    draws = rng.integers(low, high, size=int(np.count_nonzero(forward)), dtype=dtype,
                         endpoint=True)
    n = max(g.num_vertices, 1)
    keys = tails[forward] * n + heads[forward]
    order = np.argsort(keys, kind="stable")
    twins = heads[~forward] * n + tails[~forward]
    found = np.searchsorted(keys, twins, sorter=order)
    found = order[np.minimum(found, order.size - 1)] if order.size else found
    missing = ~(keys[found] == twins) if order.size else np.ones(twins.size, bool)
    if twins.size and missing.any():
        arc = int(np.flatnonzero(~forward)[np.argmax(missing)])
        raise GraphError(f"an undirected graph must hold both arcs of every edge: arc "
                         f"{tails[arc]} -> {heads[arc]} has no reverse")
    weights = np.empty(g.num_edges, dtype=dtype)
    weights[forward] = draws
    weights[~forward] = draws[found]
    return weights
