"""The GPU BFS state shared by the methods: levels start, flags, round bounds, the result."""

import threading

import numpy as np
import pytest
from bfs._gpu_bfs_reference import assert_bfs_tree

import warpath
from warpath import generators as gen
from warpath.bfs.gpu_levels import LevelRun, check_high_degree, rounds_for
from warpath.cuda.device_graph import device_graph
from warpath.cuda.scratch import scratch_pool
from warpath.cuda.flags import vertex_flags


def test_levels_start_at_the_source_only():
    run = LevelRun(gen.ring(5, seed=0), predecessors=True)
    run.start(3, limit=2)
    assert run.problem.tally.launches == 0   # the fills wait for the method's first kernel
    assert run.problem.run_fills() and run.problem.tally.launches == 1
    assert run.levels.copy_to_host().tolist() == [-1, -1, -1, 0, -1]
    assert run.parents.copy_to_host().tolist() == [-1] * 5
    assert run.max_rounds == 2 and run.problem.rows == 1
    result = run.finish({"iterations": 0, "relaxations": 0}, extra=1)
    assert isinstance(result, warpath.BFSResult) and result.stats["extra"] == 1
    assert result.levels.dtype == np.int64 and result.parents.tolist() == [-1] * 5


def test_levels_follow_the_index_type():
    g = gen.ring(4, seed=1)
    run = LevelRun(g, predecessors=False)
    run.start(0)
    assert run.levels.dtype == g.indices.dtype and run.finish({}).parents is None


def test_flags_and_bounds():
    assert vertex_flags(5, 1, 0)[0].copy_to_host().tolist() == [1, 0, 0, 0, 0]
    assert vertex_flags(3, 1, -1)[0].copy_to_host().tolist() == [0, 0, 0]
    assert rounds_for(None, 7) == 7 and rounds_for(0, 7) == 0 and rounds_for(3.9, 7) == 3


@pytest.mark.parametrize("bad", [-1, 2.5, True, "4"])
def test_high_degree_must_be_a_non_negative_integer(bad):
    with pytest.raises(ValueError, match="high_degree"):
        check_high_degree(bad)


def test_weights_too_large_for_int32_levels_do_not_matter():
    """BFS ignores weights: a path-length bound beyond int32 must not break the int32 levels."""
    g = warpath.generators.grid(4, 4, seed=1, max_weight=10**9)
    run = LevelRun(g, predecessors=False)
    run.start(0)
    run.problem.run_fills()
    assert run.levels.copy_to_host().tolist()[:2] == [0, -1]


def test_a_reused_run_comes_back_from_the_pool_and_restarts():
    """The second query takes the first one's run (same problem, queues and kept arrays):
    its fills reset the flags, counters, levels and queues for the new source."""
    g = gen.grid(3, 4, seed=0)
    first = LevelRun.reused(g, ("test",), predecessors=True, heavy_degree=0)
    kept = first.kept("own", lambda: object())
    first.start(5)
    first.problem.run_fills()
    first.problem.counters.copy_to_device(np.array([3, 4, 5], np.int64))   # a run's leftovers
    a = first.finish({})
    second = LevelRun.reused(g, ("test",), predecessors=True, heavy_degree=0)
    assert second is first and second.kept("own", lambda: None) is kept
    assert LevelRun.reused(g, ("other",), predecessors=True, heavy_degree=0) is not first
    levels, parents, _ = second.start(2, limit=1)
    assert second.problem.source == 2 and second.max_rounds == 1
    assert second.problem.tally.launches == 0
    assert second.problem.run_fills()
    assert levels.copy_to_host().tolist() == [-1, -1, 0] + [-1] * 9
    assert second.problem.counters.copy_to_host().tolist() == [0, 0, 0]
    assert second.frontier.sizes().tolist() == [1, 0, 0]
    assert int(second.frontier.light.queues.copy_to_host()[0, 0]) == 2
    b = second.finish({})
    assert a.levels.tolist() != b.levels.tolist()   # each result keeps its own levels
    assert a.levels[5] == 0 and b.levels[2] == 0


def test_a_query_that_raises_drops_its_run():
    g = gen.ring(4, seed=0)
    run = LevelRun.reused(g, ("raising",), predecessors=False)
    run.start(1)
    # no finish: the run never goes back, the next query makes its own
    assert LevelRun.reused(g, ("raising",), predecessors=False) is not run


@pytest.mark.parametrize("method", ["queue", "direction-optimizing"])
def test_queries_in_a_row_reuse_one_run_and_keep_their_results(method):
    """Five queries on one graph, results held and read only at the end: a run per
    predecessors option serves them all, and no query wrote over an earlier one's levels
    (each gets its own; the flags, counters and queues are reset for each)."""
    g = gen.rmat(7, 8, seed=3, directed=False)
    queries = [(0, True, None), (5, False, 2), (17, True, None), (99, False, 1), (0, True, 3)]
    held = [warpath.bfs(g, s, method=method, device="cuda", predecessors=p, limit=limit)
            for s, p, limit in queries]
    pool = scratch_pool(device_graph(g))
    runs = [key for _, key in pool._free if key[0] == "level run" and key[1] == (method,)]
    assert sorted(key[2] for key in runs) == [False, True]
    expected = {s: warpath.bfs(g, s, method="queue", device="cpu").levels for s, _, _ in queries}
    for (s, p, limit), result in zip(queries, held):
        cut = expected[s] if limit is None else np.where(expected[s] > limit, -1, expected[s])
        np.testing.assert_array_equal(result.levels, cut)
        assert (result.parents is not None) == p and result.source == s
        if p:
            assert_bfs_tree(g, s, result.levels, result.parents)
        assert result.stats["launches"] == 1 and result.stats["host_syncs"] == 1


def test_each_query_gets_its_own_levels_and_parents_while_the_last_are_held():
    """The levels and parents of a held query are not the next query's rows (its block
    stays out of the pool while either row is held), and are two arrays, not one."""
    run = LevelRun(gen.ring(6, seed=0), predecessors=True)
    held_levels, held_parents, _ = run.start(1)
    run.problem.run_fills()
    levels, parents, _ = run.start(4)
    run.problem.run_fills()
    parents.copy_to_device(np.arange(6, dtype=parents.dtype))
    assert held_levels.copy_to_host().tolist() == [-1, 0, -1, -1, -1, -1]
    assert levels.copy_to_host().tolist() == [-1, -1, -1, -1, 0, -1]
    assert held_parents.copy_to_host().tolist() == [-1] * 6
    assert levels.shape == parents.shape == (6,) and run.start(0)[1].shape == (6,)
    alone = LevelRun(gen.ring(6, seed=0), predecessors=False)
    levels, parents, _ = alone.start(2)
    assert parents is levels   # the one-row stand-in the kernels never write


def test_finish_waits_for_a_pending_outcome_after_the_run_went_back(monkeypatch):
    """``rounds(wait=False)`` hands back the outcome still pending; ``finish`` gives the run
    back to its pool first, then waits: the stats are the query's all the same."""
    from warpath.bfs.gpu_queue import claim_step
    from warpath.cuda.enactor import PendingOutcome
    from warpath.cuda.mappings import frontier_lanes

    g = gen.grid(3, 4, seed=0)
    lanes, _ = frontier_lanes(True, one_thread=False)
    expected = warpath.bfs(g, 5, method="queue", device="cpu")
    pool, key = scratch_pool(device_graph(g)), ("level run", ("pending",), True, 0)
    waits = []
    wait_for = PendingOutcome.wait

    def checked_wait(pending):
        waits.append(any(item is run for item in pool._free.get((threading.get_ident(), key),
                                                                  [])))
        return wait_for(pending)

    monkeypatch.setattr(PendingOutcome, "wait", checked_wait)
    for wait in (True, False):
        run = LevelRun.reused(g, ("pending",), predecessors=True, heavy_degree=0)
        stats = run.rounds([claim_step(True, lanes, 0)], run.start(5), wait=wait)
        assert isinstance(stats, PendingOutcome) != wait
        result = run.finish(stats)
        assert LevelRun.reused(g, ("pending",), predecessors=True, heavy_degree=0) is run
        run.release()
        np.testing.assert_array_equal(result.levels, expected.levels)
        assert result.stats["iterations"] == expected.stats["iterations"]
        assert result.stats["launches"] == 1 and result.stats["host_syncs"] == 1
    assert waits == [False, True]   # waited in rounds(), then only after the run went back


def test_a_query_whose_wait_fails_drops_its_run(monkeypatch):
    from warpath.bfs.gpu_queue import claim_step
    from warpath.cuda.enactor import PendingOutcome
    from warpath.cuda.mappings import frontier_lanes

    g = gen.ring(5, seed=0)
    lanes, _ = frontier_lanes(True, one_thread=False)
    run = LevelRun.reused(g, ("failing",), predecessors=False, heavy_degree=0)
    pending = run.rounds([claim_step(False, lanes, 0)], run.start(1), wait=False)
    pending.wait()   # the real wait, so that nothing is left queued

    def failing(self):
        raise RuntimeError("waiting for a read back failed")

    monkeypatch.setattr(PendingOutcome, "wait", failing)
    result = run.finish(pending)   # returned at once: the first read waits
    for _ in range(2):   # the read raises, and the next one tries again
        with pytest.raises(RuntimeError, match="read back failed"):
            result.stats
    assert result.stats_pending
    assert LevelRun.reused(g, ("failing",), predecessors=False, heavy_degree=0) is not run


def test_a_result_returns_while_its_kernel_runs_and_its_first_read_completes_it():
    """A warm query hands its result back pending; the first read (stats or levels) waits,
    and the stats hold the method's counts and the call's common entries."""
    g = gen.rmat(7, 8, seed=3, directed=False)
    expected = warpath.bfs(g, 2, method="queue", device="cpu")
    for read in ("stats", "levels"):
        result = warpath.bfs(g, 2, method="direction-optimizing", device="cuda")
        assert result.stats_pending
        getattr(result, read)
        assert not result.stats_pending
        stats = result.stats
        assert stats["iterations"] == expected.stats["iterations"]
        assert stats["method"] == "direction-optimizing" and stats["device"] == "cuda"
        assert stats["seconds"] > 0 and stats["launches"] == 1 and stats["host_syncs"] == 1
        np.testing.assert_array_equal(result.levels, expected.levels)


def test_a_kept_run_makes_the_next_querys_rows_while_the_kernel_runs():
    g = gen.rmat(6, 8, seed=2, directed=False)
    first = warpath.bfs(g, 0, method="queue", device="cuda")
    run = LevelRun.reused(g, ("queue",), predecessors=True, heavy_degree=4096)
    staged = run._staged_rows
    assert staged is not None and staged[0] is not first._arrays.device_distances
    assert run.start(1)[0] is staged[0] and run.parents is staged[1]
    assert run._staged_rows is None
    run.release()
    second = warpath.bfs(g, 1, method="queue", device="cuda")
    np.testing.assert_array_equal(second.levels, warpath.bfs(g, 1, device="cpu").levels)
    np.testing.assert_array_equal(first.levels, warpath.bfs(g, 0, device="cpu").levels)
    alone = LevelRun(g, predecessors=True)   # made for one query: nothing for a next one
    alone.start(0)
    alone.finish({})
    assert alone._staged_rows is None
