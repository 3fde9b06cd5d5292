"""Convergence flags and vertex flag arrays."""

import numpy as np

from warpath.cuda.flags import NEGATIVE_CYCLE, ConvergenceFlags, vertex_flags


def test_convergence_flags_read_back():
    flags = ConvergenceFlags()
    assert not flags.changed(0) and not flags.negative_cycle
    flags.device.copy_to_device(np.array([0, 1, 0, 0], np.int32))
    assert flags.changed(1) and not flags.changed(2) and flags.changed(4)  # rounds rotate mod 3
    flags.device.copy_to_device(np.array([0, 1, 0, 1], np.int32))
    assert not flags.changed(1) and flags.negative_cycle  # a proven cycle ends the loop
    assert NEGATIVE_CYCLE == 3


def test_vertex_flags():
    assert vertex_flags(4, 1).copy_to_host().tolist() == [[0, 0, 0, 0]]
    assert vertex_flags(2, 2, set_vertex=0).copy_to_host().tolist() == [[1, 0], [0, 0]]
