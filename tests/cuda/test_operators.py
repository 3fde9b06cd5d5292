"""The engine's operators under every mapping, each against scipy (an independent reference).

A small multi-row Bellman-Ford is written once here as device functions (the
way a method plugs in) and driven through each mapping by the enactor, in both
loops; its distances must equal scipy's for every row.  Under the simulator
the warp-level paths (ballot/shuffle enqueue, counter flush) take their
simulator branch and grids are one block: the ``gpu``-marked tests repeat the
check on graphs large enough for many blocks and full warps on the real GPU.
"""

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from numba import cuda

import warpath
from warpath import generators as gen
from warpath.cuda import mappings
from warpath.cuda.atomics import relax_min
from warpath.cuda.enactor import enact, run_once
from warpath.cuda.flags import mark_changed
from warpath.cuda.operators import (NO_OUTPUT, QUEUE, advance, compute, filter_vertices,
                                    sweep)
from warpath.cuda.problem import Problem


@cuda.jit(device=True)
def reached(state, row, u, r):
    du = state[0][row, u]
    return du != state[1], du


@cuda.jit(device=True)
def relax(state, row, u, du, v, w, e, r, conv):
    if relax_min(state[0][row], v, du + w, state[2], conv):
        mark_changed(conv, r)
        return True
    return False


@cuda.jit(device=True)
def relax_own_arcs(graph, state, v, r, conv):
    """A compute step: v relaxes its own arcs (one row), returns the arcs it looked at."""
    d = state[0][0]
    dv = d[v]
    if dv == state[1]:
        return 0
    count = 0
    for e in range(graph[0][v], graph[0][v + 1]):
        count += 1
        if relax_min(d, graph[1][e], dv + graph[2][e], state[2], conv):
            mark_changed(conv, r)
    return count


def _graphs():
    return [gen.random(40, 160, seed=1), gen.grid(5, 6, seed=2),
            gen.power_law(80, 4, 30, seed=3),
            gen.with_negative_weights(gen.random(30, 90, seed=4), seed=5),
            gen.random(30, 80, seed=6, weights="float", directed=False)]


def _expected(graph, sources):
    return csgraph.bellman_ford(graph.to_scipy(), indices=list(sources))


def _distances(problem):
    raw = problem.distances.copy_to_host().astype(np.float64)
    if problem.dtype.kind != "f":
        raw[problem.distances.copy_to_host() == problem.inf] = np.inf
    return raw


def _solve(graph, sources, mapping, loop, output=NO_OUTPUT):
    problem = Problem(graph, sources)
    state = (problem.distances, problem.inf, problem.floor)
    step = advance(mapping, reached, relax, output)
    frontier = None
    if mapping.kind == "frontier":
        # No duplicate removal here: a vertex can enter one round's frontier once per in-arc.
        frontier = problem.frontier(capacity=problem.m + 1, heavy_degree=mapping.heavy_degree,
                                    repeats=True)
        step = advance(mapping, reached, relax, QUEUE, mapping.heavy_degree)
    stats, negative = enact(problem, [step], state, loop=loop, frontier=frontier)
    return problem, stats, negative


@pytest.mark.parametrize("loop", ["fast", "paper"])
@pytest.mark.parametrize("mapping,rows", [
    (mappings.thread_per_edge(), 1), (mappings.thread_per_edge(), 3),
    (mappings.thread_per_vertex(), 1), (mappings.thread_per_vertex(), 3),
    (mappings.tasks(), 1), (mappings.tasks(), 4),
], ids=["edges-1", "edges-3", "vertices-1", "vertices-3", "tasks-1", "tasks-4"])
def test_advance_mappings_match_scipy(mapping, rows, loop):
    for graph in _graphs():
        sources = np.arange(rows) * 3 % graph.num_vertices
        problem, stats, negative = _solve(graph, sources, mapping, loop)
        assert not negative
        expected = _expected(graph, sources)
        np.testing.assert_allclose(_distances(problem), expected, rtol=1e-6)
        # every arc out of a reached vertex is relaxed at least once, in each row
        degrees = np.diff(graph.indptr)
        assert stats["relaxations"] >= sum(degrees[np.isfinite(row)].sum() for row in expected)
        assert stats["iterations"] >= 1


@pytest.mark.parametrize("loop", ["fast", "paper"])
@pytest.mark.parametrize("mapping", [
    mappings.frontier(), mappings.frontier(8), mappings.frontier((4, 32)),
    mappings.frontier((2, 16), heavy_degree=5), mappings.frontier(1, heavy_degree=1),
], ids=["thread", "warp-8", "dynamic-4-32", "dynamic-heavy-5", "heavy-1"])
def test_frontier_mappings_match_scipy(mapping, loop):
    for graph in _graphs():
        problem, stats, negative = _solve(graph, [0], mapping, loop)
        assert not negative
        np.testing.assert_allclose(_distances(problem), _expected(graph, [0]), rtol=1e-6)


def _balanced(graph, heavy_degree):
    """The block-balanced frontier mapping, carrying this graph's distance type."""
    return mappings.frontier((4, 32), heavy_degree=heavy_degree, balanced=True,
                             value_type=Problem(graph, [0]).dtype.name)


@pytest.mark.parametrize("loop", ["fast", "paper"])
@pytest.mark.parametrize("heavy_degree", [0, 5], ids=["balanced", "balanced-heavy-5"])
def test_balanced_frontier_matches_scipy(heavy_degree, loop):
    for graph in _graphs():
        problem, stats, negative = _solve(graph, [0], _balanced(graph, heavy_degree), loop)
        assert not negative
        np.testing.assert_allclose(_distances(problem), _expected(graph, [0]), rtol=1e-6)


def test_frontier_relaxes_only_what_changed():
    """A frontier advance relaxes far fewer arcs than all-arcs rounds, same answer."""
    graph = gen.grid(8, 8, seed=7)
    edges, edge_stats, _ = _solve(graph, [0], mappings.thread_per_edge(), "fast")
    front, front_stats, _ = _solve(graph, [0], mappings.frontier(), "fast")
    np.testing.assert_array_equal(_distances(edges), _distances(front))
    assert front_stats["relaxations"] < edge_stats["relaxations"] / 2


def test_negative_cycle_reaches_the_round_bound():
    graph = gen.with_negative_cycle(gen.random(12, 40, seed=8), seed=9)
    for loop in ("fast", "paper"):
        _, _, negative = _solve(graph, [0], mappings.thread_per_edge(), loop)
        assert negative


@pytest.mark.parametrize("per_thread", [1, 3])
def test_compute_over_vertex_groups(per_thread):
    graph = gen.random(25, 90, seed=10)
    problem = Problem(graph, 0)
    step = compute(mappings.vertex_groups(per_thread), relax_own_arcs)
    stats, negative = enact(problem, [step], (problem.distances, problem.inf, problem.floor))
    assert not negative and stats["relaxations"] >= graph.out_degrees()[0]
    np.testing.assert_allclose(_distances(problem), _expected(graph, [0]))


def test_filter_builds_the_next_frontier():
    """Advance into a second array, then a filter that keeps the lowered vertices (Harish's
    scatter/check) gives scipy's distances; the filter alone enqueues each vertex once."""

    @cuda.jit(device=True)
    def lower(state, row, v, r, conv):
        if state[0][0, v] > state[3][v]:
            state[0][0, v] = state[3][v]
            return True
        return False

    @cuda.jit(device=True)
    def scatter(state, row, u, du, v, w, e, r, conv):
        relax_min(state[3], v, du + w, state[2], conv)
        return False

    graph = gen.power_law(60, 3, 20, seed=11)
    problem = Problem(graph, 0)
    update = cuda.to_device(problem.distances.copy_to_host()[0])
    state = (problem.distances, problem.inf, problem.floor, update)
    queues = problem.frontier()
    steps = [advance(mappings.frontier(), reached, scatter), filter_vertices(lower, QUEUE)]
    _, negative = enact(problem, steps, state, frontier=queues)
    assert not negative
    np.testing.assert_allclose(_distances(problem), _expected(graph, [0]))


@pytest.mark.parametrize("loop, narrow", [("fast", False), ("paper", False), ("fast", True),
                                         ("paper", True)])
@pytest.mark.parametrize("graph", _graphs() + [gen.ring(7, seed=13), gen.rmat(6, 3, seed=14)],
                         ids=["random", "grid", "power-law", "negative", "undirected-float",
                              "ring", "rmat"])
def test_sweep_matches_scipy(graph, loop, narrow):
    """The arc sweep (four arcs a thread at once) relaxes every arc of a reached tail, arc
    counts that are no multiple of four included; ``narrow``: in 32-bit positions."""
    problem = Problem(graph, [0])
    state = (problem.distances, problem.inf, problem.floor)
    stats, negative = enact(problem, [sweep(reached, relax, narrow=narrow)], state, loop=loop)
    assert not negative and stats["relaxations"] >= graph.out_degrees()[0]
    np.testing.assert_allclose(_distances(problem), _expected(graph, [0]))


def test_sweep_fills_the_next_frontier():
    """With ``output=QUEUE`` a sweep's kept heads are the next round's queue: after one
    round from the source, every vertex it reached (the sweep may chain further within
    the round), and at least the source's heads."""
    graph = gen.random(50, 300, seed=15)
    problem = Problem(graph, 0)
    queues = problem.frontier(capacity=problem.m + 1, repeats=True)
    enact(problem, [sweep(reached, relax, QUEUE)], (problem.distances, problem.inf,
                                                    problem.floor),
          frontier=queues, max_rounds=1)
    size = int(queues.light.counts.copy_to_host()[1])
    queued = queues.light.queues.copy_to_host()[1, :size]
    heads = set(graph.indices[graph.indptr[0]:graph.indptr[1]].tolist()) - {0}
    reached_now = set(np.flatnonzero(np.isfinite(_distances(problem)[0])).tolist()) - {0}
    assert set(queued.tolist()) == reached_now and heads <= reached_now


def test_run_once_is_one_launch_and_no_read_back():
    graph = gen.ring(6, seed=12)
    problem = Problem(graph, 0)
    launches = problem.tally.launches
    run_once(problem, advance(mappings.thread_per_edge(), reached, relax),
             (problem.distances, problem.inf, problem.floor))
    assert problem.tally.launches == launches + 1 and problem.tally.host_syncs == 0
    # one pass relaxes the source's arc (threads may chain further, never below the truth)
    got, truth = _distances(problem)[0], _expected(graph, [0])[0]
    assert got[1] == truth[1] and np.all(got >= truth)


def test_operators_compile_once():
    a = advance(mappings.frontier(4), reached, relax, QUEUE)
    assert a is advance(mappings.frontier(4), reached, relax, QUEUE)
    assert a is not advance(mappings.frontier(8), reached, relax, QUEUE)


def test_bad_mappings_are_refused():
    with pytest.raises(ValueError):
        advance(mappings.vertex_groups(2), reached, relax)
    with pytest.raises(ValueError):
        compute(mappings.thread_per_edge(), relax_own_arcs)
    with pytest.raises(ValueError):
        mappings.frontier((8, 4))
    with pytest.raises(ValueError):
        mappings.frontier(3)
    with pytest.raises(ValueError, match="balanced"):
        mappings.Mapping("edges", balanced=True)
    with pytest.raises(ValueError, match="wide"):
        mappings.Mapping("vertices", wide=True)
    with pytest.raises(ValueError, match="reach 32"):
        mappings.frontier((4, 16), wide=True)
    with pytest.raises(ValueError, match="32 rows can be spread"):
        mappings.Mapping("frontier-tasks", lanes=(16, 16), spread=True)
    with pytest.raises(ValueError, match="32 rows can be spread"):
        mappings.Mapping("frontier", lanes=(32, 32), spread=True)


@pytest.mark.gpu
@pytest.mark.parametrize("mapping", [
    mappings.thread_per_edge(), mappings.thread_per_vertex(), mappings.frontier(),
    mappings.frontier((4, 32)), mappings.frontier((4, 32), heavy_degree=64),
], ids=["edges", "vertices", "frontier", "dynamic", "dynamic-heavy"])
def test_mappings_on_many_blocks(mapping):
    """Real GPU: many blocks, full warps, warp-aggregated enqueue and counter flushes."""
    for graph in (gen.power_law(30000, 8, 2000, seed=13), gen.grid(120, 120, seed=14),
                  gen.with_negative_weights(gen.random(20000, 120000, seed=15), seed=16)):
        problem, stats, negative = _solve(graph, [0], mapping, "fast")
        assert not negative
        np.testing.assert_allclose(_distances(problem), _expected(graph, [0]), rtol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize("heavy_degree", [0, 64], ids=["balanced", "balanced-heavy"])
def test_balanced_frontier_on_many_blocks(heavy_degree):
    """Real GPU: wide rounds dealt over many blocks, beside narrow ones in virtual warps."""
    for graph in (gen.power_law(30000, 8, 2000, seed=13), gen.rmat(15, 8, seed=17),
                  gen.with_negative_weights(gen.random(20000, 120000, seed=15), seed=16)):
        problem, stats, negative = _solve(graph, [0], _balanced(graph, heavy_degree), "fast")
        assert not negative
        np.testing.assert_allclose(_distances(problem), _expected(graph, [0]), rtol=1e-6)


@pytest.mark.gpu
def test_tasks_on_many_blocks():
    graph = gen.random(5000, 30000, seed=17)
    sources = np.arange(0, 5000, 157)
    problem, _, negative = _solve(graph, sources, mappings.tasks(), "fast")
    assert not negative
    np.testing.assert_allclose(_distances(problem), _expected(graph, sources))


@cuda.jit(device=True)
def count_into_first(state, row, v, r, conv):
    cuda.atomic.add(state, 0, 1)
    return False


@cuda.jit(device=True)
def count_into_second(state, row, v, r, conv):
    cuda.atomic.add(state, 1, v)
    return False


@pytest.mark.gpu
@pytest.mark.parametrize("narrow", [False, True])
def test_sweep_on_many_blocks(narrow):
    graph = gen.rmat(12, 8, seed=16)   # 32K arcs and then some: many groups of four a thread
    problem = Problem(graph, [0])
    state = (problem.distances, problem.inf, problem.floor)
    enact(problem, [sweep(reached, relax, narrow=narrow)], state)
    np.testing.assert_allclose(_distances(problem), _expected(graph, [0]))


def test_sweeps_narrow_keeps_a_strides_margin_below_2_to_the_32():
    from warpath.cuda.operators import SWEEP_ARCS, sweeps_narrow

    assert sweeps_narrow(2**31, 2**31, threads=1024)
    assert not sweeps_narrow(2**32, 10)
    assert sweeps_narrow(10, 2**32 - 1 - SWEEP_ARCS * 1024, threads=1024)
    assert not sweeps_narrow(10, 2**32 - SWEEP_ARCS * 1024, threads=1024)
    # by default a grid of a thread an arc (the paper loop's): five times the arcs must fit
    assert sweeps_narrow(10, 800_000_000) and not sweeps_narrow(10, 860_000_000)


def test_together_runs_both_steps_in_one():
    from warpath.cuda.operators import together

    g = gen.ring(7, seed=3)
    problem = Problem(g, 0)
    sums = cuda.to_device(np.zeros(2, np.int64))
    run_once(problem, together(filter_vertices(count_into_first),
                               filter_vertices(count_into_second)), sums)
    assert sums.copy_to_host().tolist() == [7, sum(range(7))]
