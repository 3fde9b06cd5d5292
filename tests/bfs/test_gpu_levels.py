"""The GPU BFS state shared by the methods: levels start, flags, round bounds, the result."""

import numpy as np
import pytest

import warpath
from warpath import generators as gen
from warpath.bfs.gpu_levels import LevelRun, check_high_degree, rounds_for
from warpath.cuda.flags import vertex_flags


def test_levels_start_at_the_source_only():
    run = LevelRun(gen.ring(5, seed=0), 3, predecessors=True, limit=2)
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
    run = LevelRun(g, 0, predecessors=False, limit=None)
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
    run = LevelRun(g, 0, predecessors=False, limit=None)
    run.problem.run_fills()
    assert run.levels.copy_to_host().tolist()[:2] == [0, -1]
