"""The seeded generators: reproducible, the promised shapes, and valid negative-weight inputs.

Shortest-path claims are checked against scipy.sparse.csgraph, an
independent implementation.
"""

import numpy as np
import pytest
from scipy.sparse.csgraph import NegativeCycleError, bellman_ford, dijkstra, johnson

from warpath import Graph, generators
from warpath.generators import _rmat_endpoints

SMALL = {
    "random": lambda **kw: generators.random(60, 300, **kw),
    "rmat": lambda **kw: generators.rmat(6, 4, **kw),
    "power_law": lambda **kw: generators.power_law(300, 4, 40, **kw),
    "ring": lambda **kw: generators.ring(40, **kw),
    "complete": lambda **kw: generators.complete(12, **kw),
    "grid": lambda **kw: generators.grid(6, 7, **kw),
}


def same_graph(g, h):
    return (g.num_vertices == h.num_vertices and g.directed == h.directed
            and np.array_equal(g.indptr, h.indptr) and np.array_equal(g.indices, h.indices)
            and np.array_equal(g.weights, h.weights) and g.weights.dtype == h.weights.dtype)


def has_self_loops(g):
    return bool(np.any(g.tails() == g.indices))


def is_symmetric(g):
    matrix = g.to_scipy()
    return (matrix != matrix.T).nnz == 0


# ---------------------------------------------------------------------- reproducibility

@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("directed", [True, False])
def test_same_seed_same_graph(name, directed):
    make = SMALL[name]
    assert same_graph(make(seed=11, directed=directed), make(seed=11, directed=directed))
    generator_made = make(seed=np.random.default_rng(11), directed=directed)
    assert same_graph(generator_made, make(seed=np.random.default_rng(11), directed=directed))


@pytest.mark.parametrize("name", ["random", "rmat", "power_law"])
def test_other_seed_other_structure(name):
    g, h = SMALL[name](seed=1), SMALL[name](seed=2)
    assert not (np.array_equal(g.indptr, h.indptr) and np.array_equal(g.indices, h.indices))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_other_seed_other_weights(name):
    g, h = SMALL[name](seed=1), SMALL[name](seed=2)
    assert not same_graph(g, h)


def test_generator_seed_advances():
    rng = np.random.default_rng(5)
    assert not same_graph(generators.random(30, 90, seed=rng), generators.random(30, 90, seed=rng))


# ---------------------------------------------------------------------- weights

@pytest.mark.parametrize("name", sorted(SMALL))
def test_integer_weights_in_range(name):
    g = SMALL[name](seed=3, max_weight=7)
    assert g.weighted and g.weights.dtype == np.int32
    assert g.weights.min() >= 1 and g.weights.max() <= 7


@pytest.mark.parametrize("name", sorted(SMALL))
def test_float_weights_in_range(name):
    g = SMALL[name](seed=3, weights="float", max_weight=5.5)
    assert g.weights.dtype == np.float64
    assert g.weights.min() >= 1 and g.weights.max() < 5.5
    assert np.unique(g.weights).size > g.num_edges // 4  # really continuous, not rounded


@pytest.mark.parametrize("name", sorted(SMALL))
def test_unweighted(name):
    g = SMALL[name](seed=3, weights=None)
    assert not g.weighted and np.all(g.weights == 1)


def test_wide_integer_weights_are_int64():
    g = generators.random(50, 400, seed=1, max_weight=2**40)
    assert g.weights.dtype == np.int64
    assert g.weights.max() > 2**32  # the whole range is used
    assert g.weights.max() <= 2**40


def test_weights_cover_the_range():
    g = generators.random(200, 4000, seed=2, max_weight=10)
    assert set(np.unique(g.weights).tolist()) == set(range(1, 11))


# ---------------------------------------------------------------------- shapes

@pytest.mark.parametrize("n, m", [(1, 0), (2, 2), (10, 90), (10, 60), (1000, 5000), (300, 1)])
@pytest.mark.parametrize("directed", [True, False])
def test_random_counts(n, m, directed):
    if not directed:
        m = min(m, n * (n - 1) // 2)
    g = generators.random(n, m, seed=4, directed=directed)
    assert g.num_vertices == n
    assert g.num_edges == (m if directed else 2 * m)  # m distinct pairs, none merged
    assert not has_self_loops(g)
    if not directed:
        assert is_symmetric(g)


def test_random_is_roughly_uniform():
    g = generators.random(100, 4000, seed=9)  # each degree is binomial, mean 40, sd about 5
    out_degrees, in_degrees = g.out_degrees(), g.in_degrees()
    assert out_degrees.min() > 20 and out_degrees.max() < 60
    assert in_degrees.min() > 20 and in_degrees.max() < 60


def test_rmat_shape():
    g = generators.rmat(10, 8, seed=1)
    degrees = g.out_degrees()
    assert g.num_vertices == 1024
    assert 0.7 * 8 * 1024 < g.num_edges <= 8 * 1024  # some duplicates dropped, not most
    assert not has_self_loops(g)
    assert degrees.argmax() == 0
    assert degrees.max() > 10 * degrees.mean()  # skewed, unlike G(n, m)
    assert degrees.std() > 2 * degrees.mean()


def test_rmat_undirected_is_symmetric():
    g = generators.rmat(8, 4, seed=2, directed=False)
    assert is_symmetric(g) and not has_self_loops(g)


def test_rmat_uniform_probabilities_are_not_skewed():
    g = generators.rmat(10, 8, 0.25, 0.25, 0.25, seed=1)
    assert g.out_degrees().max() < 4 * g.out_degrees().mean()


def test_rmat_quadrant_probabilities():
    rng = np.random.default_rng(0)
    thresholds = [round(p * 65536) for p in np.cumsum([0.5, 0.1, 0.3])]
    tails, heads = _rmat_endpoints(rng, 6, 200_000, thresholds)
    assert tails.max() < 64 and heads.max() < 64
    for level in range(6):
        row = (tails >> level) & 1
        col = (heads >> level) & 1
        observed = [np.mean((row == r) & (col == c)) for r, c in ((0, 0), (0, 1), (1, 0), (1, 1))]
        np.testing.assert_allclose(observed, [0.5, 0.1, 0.3, 0.1], atol=0.005)


def test_power_law_skew():
    n, avg, top = 20000, 6, 500
    g = generators.power_law(n, avg, top, seed=2)
    degrees = g.out_degrees()
    assert degrees.max() == top
    assert abs(degrees.mean() - avg) < 0.1 * avg
    assert (degrees > 50).sum() == round(0.001 * n)  # the hubs, and only they
    assert np.median(degrees) <= avg
    assert (degrees < avg).mean() > 0.5  # most vertices have low degree
    assert not has_self_loops(g)


def test_power_law_small_average():
    g = generators.power_law(5000, 1.5, 100, seed=1)
    assert g.out_degrees().max() == 100
    assert abs(g.out_degrees().mean() - 1.5) < 0.2
    assert (g.out_degrees() == 0).any()


def test_power_law_keeps_its_average_when_the_top_degree_is_huge():
    # wiki-Talk's shape: max degree ~40x the arcs per 0.1 % of vertices; uniform hub
    # degrees in [max/2, max] would give the graph ~36x too many arcs
    n, avg, top = 100_000, 2.1, 4_000
    degrees = generators.power_law(n, avg, top, seed=3).out_degrees()
    assert degrees.max() == top
    assert abs(degrees.mean() - avg) < 0.1 * avg
    hubs = np.sort(degrees)[::-1][:5]
    assert hubs[1] <= top // 2 + 1  # falling off with rank: max / 2, max / 3, ...


@pytest.mark.parametrize("n", [1, 2, 3, 50])
def test_ring(n):
    g = generators.ring(n, seed=1)
    assert g.num_vertices == n and not has_self_loops(g)
    if n > 1:
        assert np.all(g.out_degrees() == 1) and np.all(g.in_degrees() == 1)
        assert np.array_equal(g.indices, (np.arange(n) + 1) % n)
    else:
        assert g.num_edges == 0
    u = generators.ring(n, seed=1, directed=False)
    assert is_symmetric(u)
    if n > 2:
        assert np.all(u.out_degrees() == 2)


@pytest.mark.parametrize("n", [1, 2, 9])
@pytest.mark.parametrize("directed", [True, False])
def test_complete(n, directed):
    g = generators.complete(n, seed=1, directed=directed)
    assert g.num_edges == n * (n - 1)
    assert np.all(g.out_degrees() == n - 1)
    assert not has_self_loops(g)
    dense = g.to_scipy().toarray()
    assert np.all((dense > 0) == ~np.eye(n, dtype=bool))
    if not directed:
        assert np.array_equal(dense, dense.T)


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (4, 1), (6, 9)])
@pytest.mark.parametrize("directed", [True, False])
def test_grid(rows, cols, directed):
    g = generators.grid(rows, cols, seed=1, directed=directed)
    assert g.num_vertices == rows * cols
    assert g.num_edges == 2 * (rows * (cols - 1) + cols * (rows - 1))
    assert g.out_degrees().max(initial=0) <= 4 and not has_self_loops(g)
    assert is_symmetric(g)  # both directions, one length
    # every arc joins mesh neighbours: |dx| + |dy| == 1
    xy = g.coordinates
    steps = np.abs(xy[g.tails()] - xy[g.indices]).sum(axis=1)
    assert np.all(steps == 1)


def test_grid_matches_networkx():
    import networkx as nx

    g = generators.grid(5, 4, seed=0, weights=None, directed=False)
    reference = nx.grid_2d_graph(5, 4)
    assert g.num_edges == 2 * reference.number_of_edges()
    assert sorted(g.out_degrees().tolist()) == sorted(d for _, d in reference.degree())


def test_big_graphs_are_fast():
    import time

    start = time.perf_counter()
    road = generators.grid(514, 514, seed=1)
    assert road.num_vertices == 264196 and road.out_degrees().max() == 4
    assert time.perf_counter() - start < 5


# ---------------------------------------------------------------------- negative weights

def _case_id(value):
    return value if isinstance(value, str) else ""


def _negative_cases():
    return [
        ("random", generators.random(150, 900, seed=1)),
        ("random-float", generators.random(150, 900, seed=2, weights="float")),
        ("rmat-undirected", generators.rmat(7, 4, seed=3, directed=False)),
        ("grid", generators.grid(10, 12, seed=4)),
        ("ring", generators.ring(60, seed=5)),
        ("power_law", generators.power_law(400, 4, 60, seed=6)),
        ("unweighted", generators.random(100, 500, seed=7, weights=None)),
    ]


@pytest.mark.parametrize("label, g", _negative_cases(), ids=_case_id)
def test_negative_weights_keep_shortest_paths(label, g):
    h, p = generators.with_negative_weights(g, seed=8, return_potentials=True)
    assert h.directed and h.has_negative_weights
    assert h.num_vertices == g.num_vertices and h.num_edges == g.num_edges
    assert h.weights.dtype == (g.weights.dtype if g.weighted else np.int32)
    sources = [0, g.num_vertices // 2, g.num_vertices - 1]
    original = dijkstra(g.to_scipy(), directed=True, indices=sources)
    reweighted = bellman_ford(h.to_scipy(), directed=True, indices=sources)  # no NegativeCycleError
    expected = original + p[sources][:, None].astype(float) - p[None, :].astype(float)
    assert np.array_equal(np.isinf(reweighted), np.isinf(original))
    finite = np.isfinite(original)
    np.testing.assert_allclose(reweighted[finite], expected[finite], rtol=1e-9)
    johnson(h.to_scipy(), directed=True, indices=sources)  # also no negative cycle


def test_negative_weight_fraction():
    g = generators.random(2000, 20000, seed=1)
    for fraction in (0.05, 0.2, 0.4):
        h = generators.with_negative_weights(g, seed=2, fraction=fraction)
        assert abs((h.weights < 0).mean() - fraction) < 0.05


def test_negative_weights_reproducible():
    g = generators.grid(8, 8, seed=1)
    assert same_graph(generators.with_negative_weights(g, seed=3),
                      generators.with_negative_weights(g, seed=3))
    assert not same_graph(generators.with_negative_weights(g, seed=3),
                          generators.with_negative_weights(g, seed=4))


def test_negative_weights_overflow_is_an_error():
    # one of the two arcs rises in the potentials' order and the other falls by as much
    g = Graph.from_edges([0, 1], [1, 0], np.array([2**31 - 2, 2**31 - 2], dtype=np.int32))
    with pytest.raises(ValueError, match="int32"):
        generators.with_negative_weights(g, seed=0, fraction=0.5)


# ---------------------------------------------------------------------- negative cycles

def _cycle_cases():
    return _negative_cases() + [
        ("one-vertex", Graph.from_edges([], [], num_vertices=1)),
        ("two-vertices", Graph.from_edges([0], [1], [3])),
        ("vertex-0-isolated", Graph.from_edges([1, 2], [2, 3], [1, 1], num_vertices=5)),
        ("complete", generators.complete(6, seed=1)),
    ]


@pytest.mark.parametrize("label, g", _cycle_cases(), ids=_case_id)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_negative_cycle_is_found_from_vertex_0(label, g, seed):
    johnson(g.to_scipy(), directed=True)  # the input has none
    h, cycle = generators.with_negative_cycle(g, seed=seed, return_cycle=True)
    assert h.directed and h.num_vertices == g.num_vertices
    with pytest.raises(NegativeCycleError):
        bellman_ford(h.to_scipy(), directed=True, indices=0)
    # the planted cycle is there, negative, and starts at a vertex vertex 0 reaches
    matrix = h.to_scipy().tocsr()
    total = sum(matrix[u, v] for u, v in zip(cycle, np.roll(cycle, -1)))
    assert total < 0
    assert np.isfinite(dijkstra(g.to_scipy(), indices=0)[cycle[0]])


# ---------------------------------------------------------------------- argument errors

@pytest.mark.parametrize("call", [
    lambda: generators.random(0, 0, seed=1),
    lambda: generators.random(5, 21, seed=1),
    lambda: generators.random(5, 11, seed=1, directed=False),
    lambda: generators.random(5, -1, seed=1),
    lambda: generators.random(5.5, 3, seed=1),
    lambda: generators.random(5, 3, seed=None),
    lambda: generators.random(5, 3, seed="x"),
    lambda: generators.random(5, 3, seed=-1),
    lambda: generators.random(5, 3, seed=1, weights="double"),
    lambda: generators.random(5, 3, seed=1, max_weight=0),
    lambda: generators.random(5, 3, seed=1, max_weight=2.5),
    lambda: generators.random(5, 3, seed=1, max_weight=2**63),
    lambda: generators.random(5, 3, seed=1, weights="float", max_weight=float("inf")),
    lambda: generators.rmat(0, 4, seed=1),
    lambda: generators.rmat(41, 4, seed=1),
    lambda: generators.rmat(4, -1, seed=1),
    lambda: generators.rmat(4, 4, 0.6, 0.3, 0.2, seed=1),
    lambda: generators.rmat(4, 4, -0.1, seed=1),
    lambda: generators.power_law(1, 1, 1, seed=1),
    lambda: generators.power_law(10, 3, 10, seed=1),
    lambda: generators.power_law(10, 5, 3, seed=1),
    lambda: generators.power_law(10, -1, 3, seed=1),
    lambda: generators.power_law(10, 2, 0, seed=1),
    lambda: generators.ring(0, seed=1),
    lambda: generators.complete(0, seed=1),
    lambda: generators.grid(0, 3, seed=1),
    lambda: generators.grid(3, -2, seed=1),
    lambda: generators.with_negative_weights(generators.ring(3, seed=1), seed=1, fraction=0),
    lambda: generators.with_negative_weights(generators.ring(3, seed=1), seed=1, fraction=0.7),
    lambda: generators.with_negative_weights("not a graph", seed=1),
    lambda: generators.with_negative_cycle(np.zeros((3, 3)), seed=1),
])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_messages_name_the_problem():
    with pytest.raises(ValueError, match="m = 21 is more than the 20 arcs"):
        generators.random(5, 21, seed=1)
    with pytest.raises(ValueError, match="a \\+ b \\+ c"):
        generators.rmat(4, 4, 0.6, 0.3, 0.2, seed=1)
    with pytest.raises(ValueError, match="max_degree = 10 is more than n - 1 = 9"):
        generators.power_law(10, 3, 10, seed=1)


# ---------------------------------------------------------------------- random weights


def test_random_weights_give_each_undirected_edge_one_weight():
    g = generators.random(500, 3000, seed=2, weights=None, directed=False)
    h = generators.with_random_weights(g, 1, 1000, seed=7)
    assert is_symmetric(h) and h.weighted and h.weights.dtype == np.int32
    np.testing.assert_array_equal(h.indptr, g.indptr)
    np.testing.assert_array_equal(h.indices, g.indices)
    assert 1 <= h.weights.min() and h.weights.max() <= 1000
    # one draw per edge: the upper-triangle weights are as many independent draws as edges
    upper = h.weights[h.tails() < h.indices]
    assert upper.size == 3000 and abs(upper.mean() - 500.5) < 4 * 288.7 / np.sqrt(upper.size)
    assert len(np.unique(upper)) > 900


def test_random_weights_are_seeded_and_match_scipy_shortest_paths():
    g = generators.grid(15, 15, seed=0, weights=None, directed=False)
    h = generators.with_random_weights(g, 3, 9, seed=1)
    assert same_graph(h, generators.with_random_weights(g, 3, 9, seed=1))
    assert not same_graph(h, generators.with_random_weights(g, 3, 9, seed=2))
    # the weights are the graph's own: scipy on the undirected matrix agrees with scipy on h
    expected = dijkstra(h.to_scipy(), directed=False, indices=0)
    assert np.array_equal(dijkstra(h.to_scipy(), indices=0), expected)


def test_random_weights_on_a_directed_graph_draw_per_arc():
    g = generators.ring(4000, seed=0, weights=None, directed=True)
    both = Graph.from_edges(np.r_[g.tails(), g.indices], np.r_[g.indices, g.tails()])
    h = generators.with_random_weights(both, 1, 2**20, seed=3)
    assert h.directed and not is_symmetric(h)


def test_random_weights_keep_labels_coordinates_and_widen_to_int64():
    g = generators.grid(3, 4, seed=0, directed=False)
    g = Graph(g.indptr, g.indices, g.weights, directed=False, labels=np.arange(12) + 100,
              coordinates=g.coordinates, name="grid")
    h = g.with_random_weights(2**31, 2**33, seed=0)
    assert h.weights.dtype == np.int64 and h.weights.min() >= 2**31
    assert h.labels.tolist() == g.labels.tolist() and h.name == "grid"
    np.testing.assert_array_equal(h.coordinates, g.coordinates)


@pytest.mark.parametrize("low, high, words", [
    (5, 1, "must not exceed"), (1.5, 3, "low must be an integer"),
    (1, True, "high must be an integer"), ("1", 3, "low must be an integer"),
])
def test_random_weights_reject_bad_bounds(low, high, words):
    from warpath import GraphError

    with pytest.raises(GraphError, match=words):
        generators.with_random_weights(generators.ring(3, seed=0), low, high, seed=0)


def test_random_weights_need_both_arcs_of_an_undirected_edge():
    from warpath import GraphError

    backward_only = Graph([0, 0, 1], [0], directed=False)   # 'undirected', one arc 1 -> 0
    with pytest.raises(GraphError, match="arc 1 -> 0 has no reverse"):
        generators.with_random_weights(backward_only, 1, 2, seed=0)
