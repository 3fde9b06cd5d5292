"""Problem's finishing: the predecessor pass queued behind rounds whose outcome is unread."""

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

import warpath
from warpath.cuda.enactor import ReadOutcome, enact
from warpath.cuda.mappings import thread_per_edge
from warpath.cuda.operators import _demo_gather, _demo_visit, advance
from warpath.cuda.problem import Problem
from warpath.result import walk_predecessors


class WatchedOutcome:
    """An outcome that notes how many kernels had been launched when it was read."""

    def __init__(self, outcome, tally):
        self.outcome, self.tally, self.launches_when_read = outcome, tally, None

    def wait(self):
        self.launches_when_read = self.tally.launches
        return self.outcome.wait()


def run_rounds(graph, source=0):
    problem = Problem(graph, source)
    relax = advance(thread_per_edge(), _demo_gather, _demo_visit)
    pending = enact(problem, [relax], (problem.distances[0], problem.inf), later=True)
    return problem, WatchedOutcome(pending, problem.tally)


def test_positive_weights_queue_the_predecessor_pass_before_the_outcome_is_read():
    g = warpath.generators.random(40, 160, seed=1)
    problem, outcome = run_rounds(g)
    rounds_launches = problem.tally.launches
    result = problem.finish_sssp_later(outcome, predecessors=True)
    assert outcome.launches_when_read > rounds_launches   # the pass went first
    expected = csgraph.dijkstra(g.to_scipy(), indices=0)
    np.testing.assert_array_equal(result.distances, expected)
    for v in np.flatnonzero(np.isfinite(expected))[1:]:
        path = walk_predecessors(result.predecessors, 0, v)
        assert path[0] == 0 and path[-1] == v
        assert sum(g.to_scipy()[a, b] for a, b in zip(path[:-1], path[1:])) == expected[v]


def test_zero_weights_queue_the_offers_and_their_check_before_the_outcome_is_read():
    """With arcs of weight 0 the offers need a check (pointer jumping): it is queued
    behind the offers before the outcome is read, and this graph's offers form a tree."""
    g = warpath.Graph.from_edges([0, 1, 1, 2], [1, 0, 2, 3], [0, 0, 2, 1])
    problem, outcome = run_rounds(g)
    rounds_launches = problem.tally.launches
    result = problem.finish_sssp_later(outcome, predecessors=True)
    assert outcome.launches_when_read >= rounds_launches + 2   # the offers, the check
    assert result.stats["launches"] == outcome.launches_when_read   # no search after
    assert result.distances.tolist() == [0, 0, 2, 3]
    assert result.path(3).tolist() == [0, 1, 2, 3]


def test_offers_that_loop_are_searched_after_the_outcome_is_read():
    """1 <-> 2 by arcs of weight 0, each the other's largest tight tail: the check finds
    the loop, and the search over tight arcs runs after the reads."""
    g = warpath.Graph.from_edges([0, 1, 2, 2], [1, 2, 1, 3], [1, 0, 0, 4])
    problem, outcome = run_rounds(g)
    result = problem.finish_sssp_later(outcome, predecessors=True)
    assert result.stats["launches"] > outcome.launches_when_read   # the search
    assert result.distances.tolist() == [0, 1, 1, 5]
    assert result.path(3).tolist() == [0, 1, 2, 3]


def test_rounds_stopped_at_their_bound_raise_after_the_early_pass():
    """Positive weights and a bound of one round: the outcome says the rounds did not
    settle (a negative cycle by Bellman-Ford's bound), the recording pass was queued
    before that was known, and the error is raised all the same; the next query is
    right."""
    g = warpath.generators.grid(4, 4, seed=3)
    problem = Problem(g, 0)
    relax = advance(thread_per_edge(), _demo_gather, _demo_visit)
    pending = enact(problem, [relax], (problem.distances[0], problem.inf), max_rounds=1,
                    later=True)
    outcome = WatchedOutcome(pending, problem.tally)
    launched = problem.tally.launches
    with pytest.raises(warpath.NegativeCycleError):
        problem.finish_sssp_later(outcome, predecessors=True)
    assert outcome.launches_when_read > launched   # the pass was queued first
    problem, outcome = run_rounds(g)
    result = problem.finish_sssp_later(outcome, predecessors=True)
    np.testing.assert_array_equal(result.distances, csgraph.dijkstra(g.to_scipy(), indices=0))


def test_a_query_that_ran_no_round_gets_its_set_up_before_the_pass():
    problem = Problem(warpath.Graph.from_edges([0, 1], [1, 2], [3, 4]), 0, deferred=True)
    outcome = ReadOutcome({"iterations": 0, "relaxations": 0}, False)
    result = problem.finish_sssp_later(outcome, predecessors=True)
    assert result.predecessors.tolist() == [-1, -1, -1]
    assert result.distances.tolist()[1:] == [np.inf, np.inf]


def test_without_predecessors_nothing_is_recorded():
    g = warpath.generators.grid(3, 3, seed=2)
    problem, outcome = run_rounds(g)
    result = problem.finish_sssp_later(outcome, predecessors=False)
    assert result.predecessors is None
    assert outcome.launches_when_read == problem.tally.launches


def test_the_paper_loop_outcome_is_read_already():
    problem = Problem(warpath.Graph.from_edges([0], [1], [5]), 0)
    relax = advance(thread_per_edge(), _demo_gather, _demo_visit)
    outcome = enact(problem, [relax], (problem.distances[0], problem.inf), loop="paper",
                    later=True)
    assert isinstance(outcome, ReadOutcome)
    stats, negative = outcome.wait()
    assert stats["iterations"] >= 1 and negative is False
