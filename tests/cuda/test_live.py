"""Live lists: passes that keep some positions, turned between passes, in one kernel each,
against the positions a host loop keeps."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.fills import fill_job, run_fills
from warpath.cuda.live import (PASSED, WHOLE, LiveList, live_turn, narrowing,
                               position_dtype)
from warpath.cuda.problem import Problem
from warpath.cuda.enactor import run_once
from warpath import generators as gen

span, position, keep, passed = narrowing(0)
span_all, position_all, keep_none, passed_none = narrowing(-1)


@cuda.jit
def keep_multiples(items, control, whole, factor, walked):
    """One pass: keep the live positions that are multiples of ``factor``; count the walk."""
    state = (items, control)
    thread, stride = cuda.grid(1), cuda.gridsize(1)
    current, size = span(state, whole)
    for begin in range(0, size, stride):
        i = begin + thread
        p, wanted = 0, False
        if i < size:
            p = position(state, current, i)
            cuda.atomic.add(walked, p, 1)
            wanted = p % factor == 0
        keep(state, current, p, wanted)
    passed(state, thread)


@cuda.jit
def walk_everything(whole, walked):
    """The same pass with no list: every position, nothing kept."""
    state = ()
    thread, stride = cuda.grid(1), cuda.gridsize(1)
    current, size = span_all(state, whole)
    for i in range(thread, size, stride):
        p = position_all(state, current, i)
        cuda.atomic.add(walked, p, 1)
        keep_none(state, current, p, True)
    passed_none(state, thread)


@pytest.mark.parametrize("whole,blocks", [(1, 1), (100, 1), (1000, 3)])
def test_each_pass_walks_what_the_pass_before_kept(whole, blocks):
    live = LiveList(whole)
    run_fills([fill_job(*live.restart_fill())])
    problem = Problem(gen.ring(4, seed=0), 0)
    turn = live_turn(1)
    alive = np.arange(whole)
    for factor in (2, 3, 5):
        walked = cuda.to_device(np.zeros(whole, np.int64))
        keep_multiples[blocks, 64](live.items, live.control, whole, factor, walked)
        assert live.control.copy_to_host()[PASSED] == 1
        run_once(problem, turn, (live.items, live.control))
        np.testing.assert_array_equal(walked.copy_to_host(), np.isin(np.arange(whole), alive))
        alive = alive[alive % factor == 0]
        assert live.positions() == alive.tolist()
        assert live.control.copy_to_host()[PASSED] == 0


def test_a_turn_without_a_pass_changes_nothing():
    live = LiveList(10)
    run_fills([fill_job(*live.restart_fill())])
    run_once(Problem(gen.ring(4, seed=0), 0), live_turn(1), (live.items, live.control))
    assert live.control.copy_to_host().tolist() == [0, WHOLE, 0, 0]


def test_a_restart_makes_every_position_live_again():
    live = LiveList(8)
    run_fills([fill_job(*live.restart_fill())])
    keep_multiples[1, 32](live.items, live.control, 8, 4, cuda.to_device(np.zeros(8, np.int64)))
    run_once(Problem(gen.ring(4, seed=0), 0), live_turn(1), (live.items, live.control))
    assert live.positions() == [0, 4]
    run_fills([fill_job(*live.restart_fill())])
    walked = cuda.to_device(np.zeros(8, np.int64))
    keep_multiples[1, 32](live.items, live.control, 8, 1, walked)
    assert walked.copy_to_host().tolist() == [1] * 8


def test_no_list_walks_every_position():
    walked = cuda.to_device(np.zeros(50, np.int64))
    walk_everything[2, 32](50, walked)
    assert walked.copy_to_host().tolist() == [1] * 50


def test_positions_past_int32_take_int64_items():
    assert LiveList(3).items.dtype == np.int32
    assert position_dtype(2**31 - 1) == np.int32 and position_dtype(2**31) == np.int64
