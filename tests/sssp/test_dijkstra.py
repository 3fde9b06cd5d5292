"""warpath's CPU Dijkstra against scipy.sparse.csgraph.dijkstra and networkx."""

import warnings

import networkx as nx
import numpy as np
import pytest
from graph_strategies import (assert_distances_equal, assert_path, assert_shortest_path_tree,
                              edge_list_graphs, graphs, load_dataset, min_arc_weights,
                              scipy_graph, scipy_sssp)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import warpath
from warpath.sssp import dijkstra as dijkstra_module
from warpath.sssp.dijkstra import dijkstra, distance_dtype, heap_layout, prepare


@pytest.fixture(autouse=True, scope="module")
def compiled_kernel_everywhere():
    """The tests below check the compiled kernel, on small graphs too (which would otherwise
    run its code in the interpreter); test_interpreted_small_graphs_match_the_kernel checks
    the interpreted path against it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dijkstra_module, "INTERPRETED_ARCS", -1)
        yield


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_interpreted_small_graphs_match_the_kernel(graph, data):
    """Small graphs run the kernel's code in Python: the same distances, predecessors and
    counters as the compiled kernel, to the last bit."""
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    arity = data.draw(st.sampled_from([2, 4]))
    compiled = dijkstra(graph, source, heap_arity=arity)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dijkstra_module, "INTERPRETED_ARCS", graph.num_edges)
        interpreted = dijkstra(graph, source, heap_arity=arity)
    raw = (lambda r: r.exact_distances if r.exact_distances is not None else r.distances)
    assert np.array_equal(raw(interpreted), raw(compiled))
    assert np.array_equal(interpreted.predecessors, compiled.predecessors)
    assert interpreted.stats == compiled.stats


def run(graph, source, **options):
    return warpath.sssp(graph, source, method="dijkstra", device="cpu", **options)


def layout_of(graph):
    return heap_layout(prepare(graph)[4])


def assert_exact_tree(graph, source, distances, predecessors):
    """Every predecessor arc is tight to the last bit and every chain ends at ``source``.

    ``distances`` are float64, or int64 (``exact_distances``) for integer weights.  Rounded
    heap keys give the exact algorithm's distances to the last bit (module docstring), so
    ``d[p] + w(p, t) == d[t]`` holds exactly for the lightest arc p -> t; pointer doubling
    then finds any predecessor cycle, which tightness alone would let pass.
    """
    n = graph.num_vertices
    unreached = np.iinfo(np.int64).max if distances.dtype.kind == "i" else np.inf
    reached = distances != unreached
    assert predecessors[source] == -1 and np.all(predecessors[~reached] == -1)
    reached[source] = False
    heads = graph.indices.astype(np.int64)
    on_tree = predecessors[heads] == graph.tails()
    lightest = np.full(n, unreached, distances.dtype)
    np.minimum.at(lightest, heads[on_tree], graph.weights[on_tree].astype(distances.dtype))
    t = np.flatnonzero(reached)
    assert np.all(distances[predecessors[t]] + lightest[t] == distances[t]), "a loose tree arc"
    ancestor = np.where(predecessors >= 0, predecessors, np.arange(n))
    for _ in range(n.bit_length()):
        ancestor = ancestor[ancestor]
    assert np.all(ancestor[t] == source), "a predecessor chain misses the source (a cycle)"


@settings(max_examples=250, deadline=None)
@given(graphs(), st.data())
def test_matches_scipy_on_random_graphs(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    assert_distances_equal(result.distances, scipy_sssp(graph, source), graph)
    assert_shortest_path_tree(graph, source, result.distances, result.predecessors)
    reached = np.isfinite(result.distances)
    scans, relaxations = result.stats["iterations"], result.stats["relaxations"]
    if layout_of(graph) == "packed":
        assert scans == reached.sum()
        assert relaxations == graph.out_degrees()[reached].sum()
    else:  # rounded heap keys may scan a vertex again (module docstring)
        assert scans >= reached.sum()
        assert relaxations >= graph.out_degrees()[reached].sum()
    if graph.weights.dtype.kind == "i":
        assert np.array_equal(result.exact_distances[reached], result.distances[reached])


@settings(max_examples=100, deadline=None)
@given(graphs(), st.data())
def test_limit_matches_scipy(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    limit = data.draw(st.one_of(st.integers(0, 60), st.floats(0, 60)))
    result = run(graph, source, limit=limit)
    expected = csgraph.dijkstra(scipy_graph(graph), indices=source, limit=limit)
    assert_distances_equal(result.distances, expected, graph)
    assert np.all(result.distances[np.isfinite(result.distances)] <= limit)
    assert_shortest_path_tree(graph, source, result.distances, result.predecessors)


@settings(max_examples=60, deadline=None)
@given(graphs(max_vertices=20), st.data())
def test_paths_match_networkx(graph, data):
    source = data.draw(st.integers(0, graph.num_vertices - 1))
    result = run(graph, source)
    expected = nx.single_source_dijkstra_path_length(graph.to_networkx(), source)
    lightest = min_arc_weights(graph)
    for target in range(graph.num_vertices):
        if target in expected:
            assert result.distances[target] == pytest.approx(expected[target], rel=1e-9)
        else:
            assert result.distances[target] == np.inf
        assert_path(graph, result.path(target), source, target, result.distances[target],
                    lightest)


def test_without_predecessors():
    g = warpath.generators.grid(4, 4, seed=1)
    result = run(g, 3, predecessors=False)
    assert result.predecessors is None
    assert_distances_equal(result.distances, scipy_sssp(g, 3), g)
    with pytest.raises(ValueError, match="predecessors"):
        result.path(0)


@pytest.mark.parametrize("weights", ["int", "float"])
def test_road_sized_grid(weights):
    g = warpath.generators.grid(120, 130, seed=7, weights=weights)
    for source in (0, 7777, g.num_vertices - 1):
        result = run(g, source)
        assert_distances_equal(result.distances, scipy_sssp(g, source), g)


def test_wide_integer_weights_use_rounded_heap_keys():
    # 2**50 weights leave no room to pack distance and vertex in one word
    g = warpath.generators.random(300, 1500, seed=3, weights="int", max_weight=2**50)
    assert prepare(g)[4] == 0 and layout_of(g) == "rounded"
    for source in (0, 150):
        assert_distances_equal(run(g, source).distances, scipy_sssp(g, source), g)


def test_overflowing_integer_weights_fall_back_to_float_with_a_warning():
    big = 2**62
    g = warpath.Graph.from_edges([0, 1], [1, 2], np.array([big, big], dtype=np.int64))
    with pytest.warns(RuntimeWarning, match="overflow"):
        result = run(g, 0)
    assert result.distances.tolist() == [0.0, float(big), float(2 * big)]


def test_float32_weights():
    g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([0.5, 0.25, 1.0], np.float32))
    assert run(g, 0).distances.tolist() == [0.0, 0.5, 0.75]


def test_unreachable_vertices_and_isolated_source():
    g = warpath.Graph.from_edges([0, 2], [1, 3], [1, 1], num_vertices=5)
    result = run(g, 4)
    assert result.distances.tolist() == [np.inf, np.inf, np.inf, np.inf, 0.0]
    assert result.predecessors.tolist() == [-1] * 5
    assert result.path(0).tolist() == []
    assert result.path(4).tolist() == [4]


def test_negative_weights_are_refused_naming_bellman_ford():
    g = warpath.Graph.from_edges([0, 1], [1, 2], [1, -1])
    with pytest.raises(warpath.NegativeWeightError, match="bellman-ford"):
        run(g, 0)


def test_source_out_of_range():
    g = warpath.Graph.from_edges([0], [1], [1])
    for source in (-1, 2, 1.5, "x"):
        with pytest.raises(warpath.SourceError):
            run(g, source)


def test_empty_graph():
    with pytest.raises(warpath.EmptyGraphError):
        run(warpath.Graph([0], []), 0)


def test_nan_weights_are_rejected_at_construction():
    with pytest.raises(warpath.GraphError, match="finite"):
        warpath.Graph.from_edges([0], [1], [np.nan])
    with pytest.raises(warpath.GraphError, match="finite"):
        warpath.Graph([0, 1, 1], [1], [np.inf])


def test_direct_call_matches_entry_point():
    g = warpath.generators.power_law(200, 4, 30, seed=2)
    ours = dijkstra(g, 5)
    assert np.array_equal(ours.distances, run(g, 5).distances)


# ---------------------------------------------------------------------- real graphs

@pytest.mark.parametrize("name", ["helsinki-osm-drive.gr.gz", "facebook_combined.txt.gz",
                                  "soc-sign-bitcoinalpha.csv.gz"])
def test_real_graphs_match_scipy(datasets_dir, name):
    graph = load_dataset(name)
    if graph.has_negative_weights:  # bitcoin-alpha: its absolute ratings make a Dijkstra test
        graph = warpath.Graph(graph.indptr, graph.indices, np.abs(graph.weights),
                              directed=graph.directed)
    lightest = min_arc_weights(graph)
    for source in np.random.default_rng(0).integers(0, graph.num_vertices, 5):
        result = run(graph, int(source))
        assert_distances_equal(result.distances, scipy_sssp(graph, int(source)), graph)
        assert_shortest_path_tree(graph, int(source), result.distances, result.predecessors,
                                  lightest)


def test_bitcoin_alpha_negative_ratings_refused(datasets_dir):
    graph = load_dataset("soc-sign-bitcoinalpha.csv.gz")
    assert graph.has_negative_weights
    with pytest.raises(warpath.NegativeWeightError, match="bellman-ford"):
        run(graph, 0)


def test_no_warning_for_ordinary_integer_graphs():
    g = warpath.generators.grid(5, 5, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(g, 0)


@pytest.mark.parametrize("arity", [2, 3, 4, 16])
@pytest.mark.parametrize("weights, layout", [("int", "packed"), ("float", "rounded"),
                                             ("wide", "rounded")])
def test_big_heaps_match_scipy(weights, layout, arity):
    """Many heap moves: a random graph (the heap grows to thousands of entries), a star (one
    pop pushes every vertex) and arcs whose pushes arrive in decreasing order (every push sifts
    up to the root) exercise the d-ary heap's sentinels in both heap layouts."""
    rng = np.random.default_rng(11)
    n = 3000
    star_weights = np.arange(n - 1, 0, -1)
    chain = np.arange(n - 1)
    cases = [warpath.generators.random(n, 8 * n, seed=3,
                                       weights="float" if weights == "float" else "int"),
             warpath.Graph.from_edges(np.zeros(n - 1, np.int64), np.arange(1, n), star_weights,
                                      num_vertices=n),
             warpath.Graph.from_edges(np.concatenate([np.zeros(n - 1, np.int64), chain]),
                                      np.concatenate([np.arange(1, n), chain + 1]),
                                      np.concatenate([rng.integers(n, 2 * n, n - 1),
                                                      np.ones(n - 1, np.int64)]))]
    for graph in cases:
        if weights == "wide":  # exact in int64, too wide to pack beside the vertex
            graph = warpath.Graph.from_edges(graph.tails(), graph.indices,
                                             graph.weights.astype(np.int64) * 2**35)
            assert prepare(graph)[4] == 0
        if weights == "float" and graph.weights.dtype.kind == "i":
            graph = warpath.Graph(graph.indptr, graph.indices, graph.weights * 1.0)
        assert layout_of(graph) == layout
        for source in (0, n // 2):
            result = run(graph, source, heap_arity=arity)
            assert_distances_equal(result.distances, scipy_sssp(graph, source), graph)
            assert_shortest_path_tree(graph, source, result.distances, result.predecessors)


@pytest.mark.parametrize("arity", [1, 17, 2.5, True, "4"])
def test_heap_arity_out_of_range_is_a_clear_error(arity):
    graph = warpath.generators.grid(3, 3, seed=0)
    with pytest.raises(ValueError, match="heap_arity must be an integer from 2 to 16"):
        run(graph, 0, heap_arity=arity)


# ---------------------------------------------------------------------- rounded heap keys

def near_equal_weights(graph, seed, tiny_share=0.0):
    """``graph`` with weights 1 + k * 2**-44, k < 1000, and a share of arcs weighing 0 or
    k * 2**-48.  On 2,000 vertices a heap key keeps 41 mantissa bits (52 less 11 for the
    vertex), so distances of one hop count share a few keys, and the tiny arcs let a vertex
    improve within the key being scanned after its scan."""
    rng = np.random.default_rng(seed)
    weights = 1.0 + rng.integers(0, 1000, graph.num_edges) * 2.0**-44
    tiny = rng.random(graph.num_edges) < tiny_share
    weights[tiny] = rng.integers(0, 3, tiny.sum()) * 2.0**-48
    return warpath.Graph(graph.indptr, graph.indices, weights)


FLOAT_GRAPHS = {
    "random": lambda: warpath.generators.random(2000, 12000, seed=5, weights="float"),
    "grid": lambda: warpath.generators.grid(40, 50, seed=5, weights="float"),
    "power-law": lambda: warpath.generators.power_law(2000, 6, 300, seed=5, weights="float",
                                                      directed=False),
    "near-equal random": lambda: near_equal_weights(
        warpath.generators.random(2000, 12000, seed=6), seed=6),
    "near-equal grid": lambda: near_equal_weights(warpath.generators.grid(40, 50, seed=6),
                                                  seed=7),
    "near-equal with tiny arcs": lambda: near_equal_weights(
        warpath.generators.random(2000, 12000, seed=8), seed=8, tiny_share=0.3),
    "float32 weights": lambda: warpath.Graph(
        *(lambda g: (g.indptr, g.indices, g.weights.astype(np.float32)))(
            warpath.generators.grid(40, 50, seed=9, weights="float"))),
}


@pytest.mark.parametrize("arity", [2, 4])
@pytest.mark.parametrize("name", list(FLOAT_GRAPHS))
def test_rounded_keys_give_scipys_distances_to_the_last_bit(name, arity):
    graph = FLOAT_GRAPHS[name]()
    assert layout_of(graph) == "rounded"
    csr = scipy_graph(graph)
    scans = reached = 0
    for source in (0, 777, graph.num_vertices - 1):
        result = run(graph, source, heap_arity=arity)
        assert np.array_equal(result.distances, csgraph.dijkstra(csr, indices=source))
        assert_exact_tree(graph, source, result.distances, result.predecessors)
        scans += result.stats["iterations"]
        reached += np.isfinite(result.distances).sum()
        limit = float(np.median(result.distances[np.isfinite(result.distances)]))
        bounded = run(graph, source, heap_arity=arity, limit=limit)
        assert np.array_equal(bounded.distances,
                              csgraph.dijkstra(csr, indices=source, limit=limit))
        assert_exact_tree(graph, source, bounded.distances, bounded.predecessors)
    if name == "near-equal with tiny arcs":  # label-correcting within a key did happen
        assert scans > 1.2 * reached


@pytest.mark.parametrize("name", list(FLOAT_GRAPHS))
def test_rounded_keys_over_many_sources(name):
    graph = FLOAT_GRAPHS[name]()
    sources = [0, 3, 777, 3, graph.num_vertices - 1]
    matrix = warpath.multi_source(graph, sources, method="repeated-sssp", device="cpu")
    assert np.array_equal(matrix.distances, csgraph.dijkstra(scipy_graph(graph), indices=sources))
    for row, source in enumerate(sources):
        assert_exact_tree(graph, source, matrix.distances[row], matrix.predecessors[row])


@pytest.mark.parametrize("arity", [2, 4])
def test_rounded_keys_rescan_and_grow_the_heap(arity):
    """The graph's 20,032 vertices leave a heap key 37 mantissa bits, so 1 + k * 2**-44 for
    k < 128 share the key of 1.0.  Vertex 1 is reached at 1 + 64 * 2**-44, then improved
    ``rounds`` times within that key through vertices 2, 3, ... (the heap orders equal keys by
    vertex number, so vertex 1 pops first and again after each of them).  Each improvement
    scans it again and its zero-weight arcs push all ``fan`` heads again: the heap outgrows
    its first allocation (an entry per arc plus the largest out-degree), and the heads,
    queued ``rounds + 1`` times under the key being scanned, are scanned as often."""
    rounds, fan = 30, 20_000
    unit = 2.0**-44
    via = np.arange(2, rounds + 2)
    heads = np.arange(rounds + 2, rounds + 2 + fan)
    graph = warpath.Graph.from_edges(
        np.concatenate([[0], np.zeros(rounds, np.int64), via, np.ones(fan, np.int64)]),
        np.concatenate([[1], via, np.ones(rounds, np.int64), heads]),
        np.concatenate([[1 + 64 * unit], 1 + (rounds + 2 - np.arange(1, rounds + 1)) * unit,
                        np.full(rounds, unit), np.zeros(fan)]))
    assert layout_of(graph) == "rounded"
    result = run(graph, 0, heap_arity=arity)
    assert np.array_equal(result.distances, csgraph.dijkstra(scipy_graph(graph), indices=0))
    assert_exact_tree(graph, 0, result.distances, result.predecessors)
    assert result.predecessors[1] == rounds + 1
    assert result.stats["iterations"] == 1 + rounds + (rounds + 1) * (1 + fan)


@settings(max_examples=150, deadline=None)
@given(edge_list_graphs(max_vertices=25, max_weight=10), st.data())
def test_wide_integers_with_rounded_keys_are_exact(graph, data):
    """Some arcs lifted to the widest weight that int64 still sums exactly (path lengths up
    to about 2**62, no room for the vertex in a packed entry), mixed with small weights and
    zeros: rounded keys (47 mantissa bits or more here, against distances near 2**58)
    collide for most distances, int64 keeps them exact.  networkx sums
    Python integers: exact too."""
    n = graph.num_vertices
    lift = np.array(data.draw(st.lists(st.booleans(), min_size=graph.num_edges,
                                       max_size=graph.num_edges)), bool)
    widest = 2**62 // (n + 1) // 16 * 15  # within integer_distance_dtype's int64 guard
    weights = graph.weights.astype(np.int64) + lift * np.int64(widest)
    graph = warpath.Graph(graph.indptr, graph.indices, weights)  # arcs lifted one by one
    assert distance_dtype(graph) == np.int64
    if lift.any() and n >= 3:
        assert layout_of(graph) == "rounded"
    source = data.draw(st.integers(0, n - 1))
    arity = data.draw(st.sampled_from([2, 4]))
    result = run(graph, source, heap_arity=arity)
    exact = result.exact_distances
    expected = nx.single_source_dijkstra_path_length(graph.to_networkx(), source)
    unreached = np.iinfo(np.int64).max
    assert exact.tolist() == [expected.get(v, unreached) for v in range(n)]
    assert_exact_tree(graph, source, exact, result.predecessors)
