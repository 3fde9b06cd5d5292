"""The push-or-pull steps: a pull over in-arcs, a step picked per round on the device, and the
frontier degree tally, each driven by the enactor on small graphs against host arithmetic."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath import generators as gen
from warpath.cuda.direction import (OUT_ARCS, VISITED_IN_ARCS, Either, direction_arrays, either,
                                    frontier_degrees, pull, pull_fold, restart_direction)
from warpath.cuda.enactor import enact, run_once
from warpath.cuda.fills import fill_job, run_fills
from warpath.cuda.live import LiveList, live_turn
from warpath.cuda.mappings import frontier
from warpath.cuda.operators import QUEUE, advance, together
from warpath.cuda.problem import Problem


@cuda.jit(device=True)
def level_of(state, row, u, r):
    return True, r


@cuda.jit(device=True)
def claim_head(state, row, u, du, v, w, e, r, conv):
    return state[0][v] < 0 and cuda.atomic.cas(state[0], v, -1, du + 1) == -1


@cuda.jit(device=True)
def unvisited(state, row, v, r):
    return state[0][v] < 0


@cuda.jit(device=True)
def tail_on_frontier(state, row, v, u, e, r):
    return state[0][u] == r


@cuda.jit(device=True)
def adopt(state, row, v, u, e, r, conv):
    state[0][v] = r + 1


@cuda.jit(device=True)
def odd_rounds(graph, frontier, state, r, thread):
    """Pull in odd rounds; thread 0 notes each choice."""
    if thread == 0:
        state[5][r] = r % 2
    return r % 2 == 1


def _levels(graph, source, choose, rounds=None, unroll=4, listed=None, tallied=None,
            symmetric=False, live=None):
    """BFS levels by push and pull rounds (``choose``); with ``live`` (a LiveList), pulls
    narrow it."""
    problem = Problem(graph, source)
    reverse = problem.graph.reverse()
    levels = cuda.to_device(np.where(np.arange(graph.num_vertices) == source, 0, -1))
    arrays = direction_arrays(problem)
    restart_direction(problem, arrays, problem.graph.degree(source), reverse.degree(source))
    sums = arrays.tally
    seen = cuda.to_device(np.full(graph.num_vertices + 1, -1, dtype=np.int64))
    listed = reverse.vertices_with_arcs() if listed is None else cuda.to_device(listed)
    state = (levels, reverse.indptr, reverse.indices, listed, sums, seen)
    push = advance(frontier(4), level_of, claim_head, QUEUE)
    tally_at = -1 if tallied is None else 4
    degrees = frontier_degrees(1, 4, tallied)
    if live is not None:
        run_fills([fill_job(*live.restart_fill())])
        state += (live.items, live.control)
        degrees = together(degrees, live_turn(7))
    pulling = pull(1, unvisited, tail_on_frontier, adopt, unroll=unroll, tally_at=tally_at,
                   symmetric=symmetric, live_at=6 if live is not None else -1)
    steps = [either(choose, push, pulling), degrees]
    stats, _ = enact(problem, steps, state, frontier=problem.frontier(), max_rounds=rounds)
    return levels.copy_to_host(), sums.copy_to_host(), seen.copy_to_host(), stats


def _reference(graph, source):
    return warpath.bfs(graph, source, method="queue", device="cpu").levels


@pytest.mark.parametrize("graph", [gen.random(40, 200, seed=1), gen.grid(4, 6, seed=2),
                                   gen.rmat(5, 4, seed=3, directed=False)],
                         ids=["random", "grid", "rmat-undirected"])
@pytest.mark.parametrize("unroll", [1, 4])
def test_alternating_push_and_pull_gives_bfs_levels(graph, unroll):
    levels, _, seen, stats = _levels(graph, 0, odd_rounds, unroll=unroll)
    np.testing.assert_array_equal(levels, _reference(graph, 0))
    rounds = stats["iterations"]
    assert seen[:rounds].tolist() == [r % 2 for r in range(rounds)]  # every round chose


@cuda.jit(device=True)
def always_pull(graph, frontier, state, r, thread):
    return True


@cuda.jit(device=True)
def odd_round(state, r):
    return r % 2 == 1


@pytest.mark.parametrize("graph,symmetric", [(gen.random(50, 300, seed=11), False),
                                             (gen.rmat(6, 4, seed=12, directed=False), True),
                                             (gen.rmat(6, 4, seed=12, directed=False), False)],
                         ids=["directed", "undirected-symmetric", "undirected-read"])
def test_a_pull_that_tallies_the_degrees_it_takes_matches_the_pass_over_the_queue(
        graph, symmetric):
    """The pulls of odd rounds sum the next frontier's out- and in-degrees as they take
    its vertices, and the tally step skips its pass over the queue in those rounds: the
    same tally (the direction choices read it) and the same levels."""
    levels, sums, _, _ = _levels(graph, 0, odd_rounds)
    tallied_levels, tallied_sums, _, stats = _levels(graph, 0, odd_rounds, tallied=odd_round,
                                                     symmetric=symmetric)
    np.testing.assert_array_equal(tallied_levels, levels)
    np.testing.assert_array_equal(tallied_sums, sums)
    assert stats["iterations"] >= 3 and sums[:, VISITED_IN_ARCS].max() > 0


def test_probing_four_at_a_time_reads_at_most_three_arcs_more_per_vertex():
    """A pull that stops at the first tail on the frontier probes exactly the arcs up to it
    one at a time, and at most three beyond it (the rest of its group of four) four at a
    time; both find every level."""
    graph = gen.random(60, 600, seed=5)
    one, _, _, stats_one = _levels(graph, 0, always_pull, unroll=1)
    four, _, _, stats_four = _levels(graph, 0, always_pull, unroll=4)
    np.testing.assert_array_equal(one, _reference(graph, 0))
    np.testing.assert_array_equal(four, one)
    pulled = np.count_nonzero(graph.in_degrees()[one != 0] > 0) * stats_one["iterations"]
    assert stats_one["relaxations"] <= stats_four["relaxations"] \
        <= stats_one["relaxations"] + 3 * pulled


@pytest.mark.parametrize("unroll,probes", [(1, 2), (4, 4)])
def test_a_pull_counts_the_arcs_it_probed(unroll, probes):
    """Vertex 6 has six in-arcs (from 0 .. 5, in that order in the reverse CSR) and the
    second, from the source 1, is on the frontier: one at a time probes 2 arcs, four at a
    time the first group of 4.  Vertex 7's only tail, 6, is not on round 0's frontier:
    exactly one probe there."""
    graph = warpath.Graph.from_edges([0, 1, 2, 3, 4, 5, 6], [6, 6, 6, 6, 6, 6, 7],
                                     num_vertices=8)
    levels, _, _, stats = _levels(graph, 1, always_pull, rounds=1, unroll=unroll,
                                  listed=np.array([6, 7], np.int32))
    assert levels.tolist() == [-1, 0, -1, -1, -1, -1, 1, -1]
    assert stats["relaxations"] == probes + 1


def test_a_pull_looks_only_at_listed_vertices():
    """Vertex 3 of the path 0 -> 1 -> 2 -> 3 left off the list is never reached by a pull."""
    graph = warpath.Graph.from_edges([0, 1, 2], [1, 2, 3])
    levels, _, _, _ = _levels(graph, 0, always_pull, listed=np.array([1, 2], np.int32))
    assert levels.tolist() == [0, 1, 2, -1]


@pytest.mark.parametrize("choose", [always_pull, odd_rounds], ids=["pulls", "push-pull"])
def test_a_narrowing_pull_keeps_the_vertices_it_left_unvisited(choose):
    """A random graph and a pair (41 -> 40) that the source cannot reach: each pull walks
    only what the pull before it left unvisited, and finds every level.  Pulling every
    round, the list ends holding exactly the listed vertices never visited (40's place);
    with push rounds between, a superset of them, all unvisited when last pulled."""
    base = gen.random(40, 200, seed=8)
    graph = warpath.Graph.from_edges(np.append(base.tails(), 41), np.append(base.indices, 40),
                                     num_vertices=42)
    listed = np.flatnonzero(graph.in_degrees() > 0).astype(np.int32)
    live = LiveList(listed.size)
    levels, _, _, stats = _levels(graph, 0, choose, listed=listed, live=live)
    np.testing.assert_array_equal(levels, _reference(graph, 0))
    kept = listed[live.positions()]
    assert 40 in kept and (levels[listed] == -1).sum() == 1
    if choose is always_pull:
        assert kept.tolist() == [40]
    else:
        assert set(kept) <= set(np.flatnonzero((levels == -1) | (levels >= 2)))
    assert stats["iterations"] >= 3


@pytest.mark.parametrize("unroll", [0, 2, 8])
def test_unroll_is_one_or_four(unroll):
    with pytest.raises(ValueError, match="unroll"):
        pull(1, unvisited, tail_on_frontier, adopt, unroll=unroll)


def test_the_tally_holds_the_degrees_of_the_last_frontiers():
    g = gen.random(30, 120, seed=4)
    levels, sums, _, stats = _levels(g, 0, odd_rounds, rounds=3)
    out_degrees, in_degrees = g.out_degrees(), g.in_degrees()
    last = stats["iterations"]  # the tally row of frontier `last`: (out-arcs, in-arcs of 0..last)
    row = sums[last % 3]
    assert row[OUT_ARCS] == out_degrees[levels == last].sum()
    assert row[VISITED_IN_ARCS] == in_degrees[(levels >= 0) & (levels <= last)].sum()


def test_either_is_sized_for_its_larger_step():
    push = advance(frontier(32), level_of, claim_head, QUEUE)
    step = either(odd_rounds, pull(1, unvisited, tail_on_frontier, adopt), push)
    assert isinstance(step, Either) and step.items(10, 50, 1) == 320


def test_direction_arrays_come_back_reset_from_the_pool():
    graph = gen.ring(6, seed=0)
    first = Problem(graph, 0)
    arrays = direction_arrays(first)
    restart_direction(first, arrays, 2, 1)
    tally, choices = arrays.tally, arrays.choices
    tally[1, 0], choices[2, 1] = 9, 7   # what a run leaves behind
    first.release_scratch()
    second = Problem(graph, 0)
    arrays = direction_arrays(second)
    restart_direction(second, arrays, 4, 3)
    again, choices_again = arrays.tally, arrays.choices
    assert again is tally and choices_again is choices   # the pool's arrays, reused
    assert again.copy_to_host().tolist() == [[4, 3], [0, 0], [0, 0]]
    assert not choices_again.copy_to_host().any()


@cuda.jit(device=True)
def fold_from_zero(state, v, r):
    return True, 0


@cuda.jit(device=True)
def value_of(state, u, r):
    return state[3][u]


@cuda.jit(device=True)
def add_up(state, v, u, x, acc, r):
    state[5][v] += 1   # v's thread alone writes v: counts the folds
    return acc + x


@cuda.jit(device=True)
def at_cap(state, v, acc, r):
    return acc >= state[4]


@cuda.jit(device=True)
def write_sum(state, v, acc, r, conv):
    state[6][v] = acc
    return False


@pytest.mark.parametrize("cap", [3, 10**9], ids=["stops-early", "reads-all"])
def test_a_folding_pull_joins_in_arcs_in_groups_of_four_until_done(cap):
    g = gen.random(50, 400, seed=4)
    problem = Problem(g, 0)
    reverse = problem.graph.reverse()
    values = np.random.default_rng(5).integers(0, 3, g.num_vertices)
    folds = cuda.to_device(np.zeros(g.num_vertices, np.int64))
    sums = cuda.to_device(np.full(g.num_vertices, -1, np.int64))
    state = (reverse.indptr, reverse.indices, reverse.vertices_with_arcs(),
             cuda.to_device(values), np.int64(cap), folds, sums)
    run_once(problem, pull_fold(0, fold_from_zero, value_of, add_up, at_cap, write_sum), state)
    indptr, tails = reverse.indptr.copy_to_host(), reverse.indices.copy_to_host()
    want_sums, want_folds = np.full(g.num_vertices, -1), np.zeros(g.num_vertices)
    for v in range(g.num_vertices):
        if indptr[v] == indptr[v + 1]:
            continue   # not listed: no thread
        acc, arcs = 0, tails[indptr[v]:indptr[v + 1]]
        for group in range(0, arcs.size, 4):
            acc += int(values[arcs[group:group + 4]].sum())
            want_folds[v] += min(4, arcs.size - group)
            if acc >= cap:
                break
        want_sums[v] = acc
    np.testing.assert_array_equal(sums.copy_to_host(), want_sums)
    np.testing.assert_array_equal(folds.copy_to_host(), want_folds)


@cuda.jit(device=True)
def never_done(state, v, acc, r):
    return False


@pytest.mark.parametrize("most", [1, 3, 10**6])
def test_a_folding_pull_over_segments_merges_the_pieces_of_split_vertices(most):
    g = gen.power_law(80, 3, 30, seed=6)
    problem = Problem(g, 0)
    reverse = problem.graph.reverse()
    values = np.random.default_rng(7).integers(0, 5, g.num_vertices)
    sums = cuda.to_device(np.zeros(g.num_vertices, np.int64))
    folds = cuda.to_device(np.zeros(g.num_vertices, np.int64))
    state = (reverse.indptr, reverse.indices, *reverse.arc_segments(most),
             cuda.to_device(values), sums, folds)
    step = pull_fold(0, fold_from_zero, value_at_4, add_up_6, never_done, write_sum_5,
                     merge=add_atomically_5)
    run_once(problem, step, state)
    indptr, tails = reverse.indptr.copy_to_host(), reverse.indices.copy_to_host()
    degrees = np.diff(indptr)
    want = [values[tails[indptr[v]:indptr[v + 1]]].sum() for v in range(g.num_vertices)]
    np.testing.assert_array_equal(sums.copy_to_host(), want)
    # a vertex of one segment is folded by one thread; a split one only merged
    np.testing.assert_array_equal(folds.copy_to_host(), np.where(degrees <= most, degrees, 0))
    assert 0 < np.count_nonzero(degrees > 3) < np.count_nonzero(degrees)


@cuda.jit(device=True)
def value_at_4(state, u, r):
    return state[4][u]


@cuda.jit(device=True)
def add_up_6(state, v, u, x, acc, r):
    state[6][v] += 1
    return acc + x


@cuda.jit(device=True)
def write_sum_5(state, v, acc, r, conv):
    state[5][v] = acc
    return False


@cuda.jit(device=True)
def add_atomically_5(state, v, u, x, acc, r, conv):
    cuda.atomic.add(state[5], v, x)
    return acc + x


def test_a_pull_that_merges_cannot_queue():
    with pytest.raises(ValueError, match="queue"):
        pull_fold(0, fold_from_zero, value_at_4, add_up_6, never_done, write_sum_5, QUEUE,
                  merge=add_atomically_5)
