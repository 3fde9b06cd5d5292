"""Fill jobs: a query's set-up run in one launch, or by its first kernel (deferred problems)."""

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from numba import cuda

from warpath import generators as gen
from warpath.cuda import mappings
from warpath.cuda.enactor import enact, run_once
from warpath.cuda.fills import fill_job, run_fills
from warpath.cuda.operators import QUEUE, advance
from warpath.cuda.problem import Problem
from warpath.cuda.runtime import SIMULATOR

from .test_operators import reached, relax


def test_a_job_fills_its_range_and_one_slot():
    a = cuda.to_device(np.arange(10, dtype=np.int64))
    b = cuda.to_device(np.ones(3, np.float32))
    c = cuda.to_device(np.full(4, 9, np.int32))
    assert run_fills([fill_job(a, 6, -2, 4, 7), fill_job(b, 3, np.inf, -1, 0),
                      fill_job(c, 1, 5, 3, -8)])
    assert a.copy_to_host().tolist() == [-2, -2, -2, -2, 7, -2, 6, 7, 8, 9]
    assert b.copy_to_host().tolist() == [np.inf] * 3
    assert c.copy_to_host().tolist() == [5, 9, 9, -8]   # a slot beyond the range
    assert not run_fills([])


def test_job_values_take_the_array_type():
    job = fill_job(cuda.device_array(2, np.uint8), 2, 1, 0, 255)
    assert job[2].dtype == np.uint8 and job[4] == 255 and job[1].dtype == np.int64


@pytest.mark.skipif(SIMULATOR, reason="many blocks: the simulator runs one thread per CUDA thread")
def test_a_long_job_on_many_blocks():
    a = cuda.device_array(1_000_003, np.int32)
    run_fills([fill_job(a, a.shape[0], 3, 999_999, -1)])
    host = a.copy_to_host()
    assert host[999_999] == -1 and np.count_nonzero(host == 3) == a.shape[0] - 1


def test_a_problem_runs_its_set_up_at_once_unless_deferred():
    graph = gen.ring(5, seed=1)
    now = Problem(graph, 2)
    assert now.tally.launches == 1 and now.distances.copy_to_host()[0, 2] == 0
    later = Problem(graph, 2, deferred=True)
    assert later.tally.launches == 0 and len(later.take_fills()) == 2   # control block, row
    flags = later.filled("flags", (2, 5), np.uint8, 0, at=7, at_value=1)
    assert flags.shape == (2, 5) and later.run_fills() and later.tally.launches == 1
    assert flags.copy_to_host().tolist() == [[0] * 5, [0, 0, 1, 0, 0]]
    later.release_scratch()
    again = Problem(graph, 0, deferred=True)
    assert again.filled("flags", (2, 5), np.uint8, 0) is flags   # from the pool


def _bellman_ford(graph, source, loop, deferred):
    problem = Problem(graph, source, deferred=deferred)
    frontier = problem.frontier(capacity=problem.m + 1, heavy_degree=4, repeats=True)
    step = advance(mappings.frontier(heavy_degree=4), reached, relax, QUEUE, 4)
    state = (problem.distances, problem.inf, problem.floor)
    stats, negative = enact(problem, [step], state, loop=loop, frontier=frontier)
    return problem, stats, negative


@pytest.mark.parametrize("loop", ["fast", "paper"])
def test_deferred_fills_run_before_the_first_round(loop):
    """The distances, flags, counters and frontier queues of a deferred problem are set
    up by the enactor's kernels; reused scratch left dirty by a query before must not
    leak into the next one."""
    graph = gen.power_law(60, 4, 20, seed=3)
    sources = np.argsort(graph.out_degrees())[::-1][:2]   # the hub (heavy), the next one
    expected = csgraph.bellman_ford(graph.to_scipy(), indices=sources)
    launches = {}
    for deferred in (False, True):
        for row, source in enumerate(sources):
            problem, stats, negative = _bellman_ford(graph, source, loop, deferred)
            got = problem.distances.copy_to_host()[0].astype(np.float64)
            got[got == problem.inf] = np.inf
            assert not negative and stats["relaxations"] > 0
            np.testing.assert_allclose(got, expected[row])
            problem.release_scratch()
            launches[deferred] = problem.tally.launches
    if loop == "fast":   # the set-up inside the persistent kernel: one launch in all
        assert launches[True] == 1 < launches[False]
    else:   # one launch of fills, then the rounds'
        assert launches[True] < launches[False]


def test_run_once_runs_queued_fills_first():
    graph = gen.ring(6, seed=12)
    problem = Problem(graph, 0, deferred=True)
    run_once(problem, advance(mappings.thread_per_edge(), reached, relax),
             (problem.distances, problem.inf, problem.floor))
    assert problem.tally.launches == 2
    d = problem.distances.copy_to_host()[0]
    assert d[0] == 0 and d[1] == graph.weights[0]


def test_fills_still_queued_run_before_the_scratch_goes_back():
    problem = Problem(gen.ring(4, seed=1), 1, deferred=True)
    problem.release_scratch()
    assert problem.tally.launches == 1 and problem.distances.copy_to_host()[0, 1] == 0


def _restart_jobs(problem, pair, source, heavy_degree):
    problem.reset(source)
    problem.restart_frontier(pair, heavy_degree)
    return problem.take_fills()


def test_standing_fills_are_one_job_and_the_source_bearing_ones_change():
    """A query's repeated fills (the control block, the queues' counters, the head of a
    queue that does not hold the source) are the same job objects query after query; the
    head holding the source is a new job with the new source each time."""
    g = gen.rmat(6, 8, seed=2, directed=False)
    problem = Problem(g, 0, deferred=True)
    heavy_degree = int(np.sort(np.diff(g.indptr))[-3])   # a few vertices are heavy
    pair = problem.frontier(heavy_degree=heavy_degree)
    degrees = np.diff(g.indptr)
    light, heavy = (int(np.flatnonzero(test)[0]) for test in
                    (degrees <= heavy_degree, degrees > heavy_degree))
    first = _restart_jobs(problem, pair, light, heavy_degree)
    again = _restart_jobs(problem, pair, light + 1 if degrees[light + 1] <= heavy_degree
                          else light, heavy_degree)
    control, light_counts, light_head, heavy_counts, heavy_head = range(5)
    for slot in (control, light_counts, heavy_counts, heavy_head):
        assert again[slot] is first[slot]
        assert id(first[slot]) in problem.standing_jobs
    assert again[light_head] is not first[light_head]
    assert int(first[light_head][4]) == light and int(first[heavy_head][4]) == -1
    moved = _restart_jobs(problem, pair, heavy, heavy_degree)   # now in the heavy queue
    assert int(moved[heavy_head][4]) == heavy and int(moved[light_head][4]) == -1
    assert moved[light_head] is not first[light_head] and moved[control] is first[control]


def test_standing_fills_stay_few_over_many_sources():
    """Queries from every vertex (more than 64) add no standing fill after the first few:
    none holds a source."""
    g = gen.rmat(7, 8, seed=4, directed=False)
    problem = Problem(g, 0, deferred=True)
    pair = problem.frontier(heavy_degree=8)
    for source in range(g.num_vertices):
        jobs = _restart_jobs(problem, pair, source, 8)
        fresh = [job for job in jobs if id(job) not in problem.standing_jobs]
        assert [int(job[4]) for job in fresh] == [source]   # the head that holds it
    # the control block; each queue's counters with and without a first vertex, its head
    # without one
    assert len(problem.standing_jobs) == 7


def test_a_fill_that_changes_every_query_cannot_stand():
    problem = Problem(gen.ring(3, seed=0), 0, deferred=True)
    flags = cuda.device_array(4, np.int64)
    with pytest.raises(RuntimeError, match="standing fills"):
        for value in range(100):
            problem.fill(flags, 1, value, standing=True)
