"""The control block: flags and counters side by side, read back in one copy."""

import numpy as np

from warpath.cuda.control import SLOTS, Control
from warpath.cuda.counters import COUNTER_SLOTS, ITERATIONS, RELAXATIONS
from warpath.cuda.flags import FLAG_SLOTS, NEGATIVE_CYCLE


def test_flags_and_counters_are_views_of_one_block():
    control = Control()
    control.conv.device.copy_to_device(np.array([0, 1, 0, 1], np.int64))
    control.counters.copy_to_device(np.array([6, 99, 2], np.int64))
    flags, counts = control.read()
    assert flags.tolist() == [0, 1, 0, 1] and counts.tolist() == [6, 99, 2]
    assert SLOTS == FLAG_SLOTS + COUNTER_SLOTS and counts[RELAXATIONS] == 99
    assert control.conv.changed(1) is False and control.conv.negative_cycle  # a proven cycle
    control.conv.device.copy_to_device(np.array([0, 1, 0, 0], np.int64))
    assert control.conv.changed(4) and not control.conv.negative_cycle and NEGATIVE_CYCLE == 3


def test_two_blocks_do_not_share_device_memory():
    first, second = Control(), Control()
    first.counters.copy_to_device(np.array([1, 2, 3], np.int64))
    assert second.read()[1].tolist() == [0, 0, 0]
    assert first.read()[1][ITERATIONS] == 1


def test_a_problem_clears_a_reused_block():
    import warpath
    from warpath.cuda.problem import Problem

    graph = warpath.generators.ring(5, seed=0)
    first = Problem(graph, 0)
    first.counters.copy_to_device(np.array([7, 7, 7], np.int64))
    first.conv.device.copy_to_device(np.array([1, 1, 1, 1], np.int64))
    first.release_scratch()
    second = Problem(graph, 1)
    assert second.control is first.control   # borrowed again from the pool ...
    flags, counts = second.control.read()
    assert not flags.any() and not counts.any()   # ... and cleared by the first launch


def test_read_later_fills_its_own_buffer_once_waited_for():
    from warpath.cuda.runtime import finish_read

    from warpath.cuda.control import read_done

    class Owner:
        def settle(self):
            pass

    control = Control()
    control.counters.copy_to_device(np.array([2, 9, 1], np.int64))
    owner = Owner()
    host, done = control.read_later(owner)
    finish_read(done=done)
    read_done(owner)
    assert host[FLAG_SLOTS:].tolist() == [2, 9, 1]
    flags, counters = control.read()   # the plain read has a buffer of its own
    counters_seen = counters.tolist()
    assert host is not counters.base and counters_seen == [2, 9, 1]
