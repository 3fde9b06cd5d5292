"""Convergence flags and vertex flag arrays."""

import numpy as np
from numba import cuda

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


def test_a_round_loop_decides_on_its_round_flag_only():
    """The negative-cycle slot is one word that a fast thread may raise while a slow one
    still decides whether round r - 1 changed anything: the device-side test ignores it
    (else some threads of a grid would stop and the others wait at the next barrier), and
    reads the round's flag, which thread 0 marks STOP before the round once a proof is in
    (a change in that round does not overwrite it)."""
    from warpath.cuda.flags import STOP, begin_round, mark_changed, round_changed

    @cuda.jit
    def decide(conv, out):
        out[0] = round_changed(conv, 1)
        out[1] = round_changed(conv, 2)
        begin_round(conv, 1, 0)   # thread 0 in round 1: round 2's flag
        mark_changed(conv, 2)
        out[2] = round_changed(conv, 2)

    conv = cuda.to_device(np.array([0, 1, 0, 1], np.int32))
    out = cuda.to_device(np.zeros(3, np.bool_))
    decide[1, 1](conv, out)
    assert out.copy_to_host().tolist() == [True, False, False]
    assert conv.copy_to_host().tolist() == [0, 1, STOP, 1]


def test_a_proof_mid_rounds_lets_the_rounds_settle_and_reaches_the_host():
    """A step that proves a negative cycle in round 0 and would change things until round
    9: thread 0 sees the proof when round 1 begins and marks round 2 STOP, so the
    persistent rounds stop after round 2, the grid as one, and the host reads the proof."""
    import warpath
    from warpath.cuda.enactor import enact
    from warpath.cuda.flags import mark_changed
    from warpath.cuda.operators import filter_vertices
    from warpath.cuda.problem import Problem

    @cuda.jit(device=True)
    def prove_then_change(state, row, v, r, conv):
        if r == 0 and v == 0:
            conv[NEGATIVE_CYCLE] = 1
        if r < 9:
            mark_changed(conv, r)
        return False

    problem = Problem(warpath.Graph.from_edges([0], [1], [1]), 0)
    stats, negative = enact(problem, [filter_vertices(prove_then_change)], (problem.row,),
                            max_rounds=20)
    assert negative and stats["iterations"] == 3
