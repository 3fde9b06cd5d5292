"""The host drivers: paper loop, checks every k rounds, the negative-cycle bound."""

import numpy as np
import pytest

from warpath.cuda.counters import RunTally
from warpath.cuda.enactor import (PendingOutcome, PersistentRounds, host_loop,
                                  persistent_outcome)
from warpath.cuda.control import Control, read_done
from warpath.cuda.flags import NEGATIVE_CYCLE


class _Flags:
    """Rounds 0..last-1 change something; optionally a negative cycle at one round."""

    def __init__(self, last, cycle_at=None):
        self.last, self.cycle_at, self.negative_cycle, self.reads = last, cycle_at, False, []

    def changed(self, r):
        self.reads.append(r)
        self.negative_cycle = self.cycle_at is not None and r >= self.cycle_at
        return r < self.last


def test_paper_loop_reads_every_round():
    flags, tally = _Flags(4), RunTally()
    steps = []
    assert host_loop(steps.append, flags, tally, 100) == (5, False)
    assert steps == [0, 1, 2, 3, 4] and flags.reads == steps and tally.host_syncs == 5


def test_first_check_and_every():
    flags, tally = _Flags(9), RunTally()
    rounds, negative = host_loop(lambda r: None, flags, tally, 100, first_check=4, every=3)
    assert not negative and flags.reads == [3, 6, 9] and rounds == 10


def test_still_changing_after_n_rounds_is_a_negative_cycle():
    flags = _Flags(1000)
    assert host_loop(lambda r: None, flags, RunTally(), 7, first_check=3, every=100) == (7, True)
    assert flags.reads[-1] == 6  # the last round is always checked


def test_a_proven_negative_cycle_stops_the_loop():
    assert host_loop(lambda r: None, _Flags(1000, cycle_at=2), RunTally(), 50) == (3, True)


def test_persistent_outcome():
    control, tally = Control(), RunTally()
    control.counters.copy_to_device(np.array([5, 42, 3], dtype=np.int64))
    stats, negative = persistent_outcome(control, tally, 10)
    assert stats == {"iterations": 5, "relaxations": 42} and not negative
    assert tally.host_syncs == 1   # flags and counters in one read
    assert persistent_outcome(control, tally, 10, "pull_rounds")[0]["pull_rounds"] == 3
    control.conv.device.copy_to_device(np.array([1, 0, 0, 0], dtype=np.int64))
    control.counters.copy_to_device(np.array([10, 1, 0], dtype=np.int64))
    assert persistent_outcome(control, tally, 10)[1]  # round 10 still changed
    assert not persistent_outcome(control, tally, 11)[1]  # ... but 11 were allowed
    control.conv.device.copy_to_device(np.array([0, 0, 0, 1], dtype=np.int64))
    control.counters.copy_to_device(np.array([3, 1, 0], dtype=np.int64))
    assert persistent_outcome(control, tally, 10)[1]
    assert NEGATIVE_CYCLE == 3


def test_a_pending_outcome_gives_what_persistent_outcome_gives():
    control, tally = Control(), RunTally()
    control.counters.copy_to_device(np.array([5, 42, 3], dtype=np.int64))
    pending = PendingOutcome(control, tally, 10, "pull_rounds")
    assert tally.host_syncs == 0   # queued, not waited for
    expected = persistent_outcome(control, RunTally(), 10, "pull_rounds")
    assert pending.wait() == expected == ({"iterations": 5, "relaxations": 42,
                                           "pull_rounds": 3}, False)
    assert pending.wait() == expected and tally.host_syncs == 1   # one wait, counted once
    control.conv.device.copy_to_device(np.array([0, 0, 0, 1], dtype=np.int64))
    assert PendingOutcome(control, RunTally(), 10).wait()[1]   # a proven negative cycle


def test_pending_outcomes_of_one_thread_keep_their_own_values():
    """Two outcomes pending at once share the thread's buffer: the second waits for the
    first before its copy is queued, so the first keeps its own values."""
    first_control, second_control = Control(), Control()
    first_control.counters.copy_to_device(np.array([1, 10, 0], dtype=np.int64))
    second_control.counters.copy_to_device(np.array([2, 20, 0], dtype=np.int64))
    first = PendingOutcome(first_control, RunTally(), 10)
    second = PendingOutcome(second_control, RunTally(), 10)
    assert second.wait()[0] == {"iterations": 2, "relaxations": 20}
    assert first.wait()[0] == {"iterations": 1, "relaxations": 10}


def test_a_failed_wait_frees_the_threads_buffer(monkeypatch):
    """A wait that raises leaves no outcome pending: the thread's next one does not retry it."""
    import warpath.cuda.enactor as enactor

    control = Control()
    failing = PendingOutcome(control, RunTally(), 10)

    def broken(context=None, done=None):
        raise RuntimeError("waiting for a read back failed: CUDA_ERROR_LAUNCH_FAILED")

    monkeypatch.setattr(enactor, "finish_read", broken)
    with pytest.raises(RuntimeError, match="LAUNCH_FAILED"):
        failing.wait()
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="LAUNCH_FAILED"):   # kept: every wait raises it
        failing.wait()
    control.counters.copy_to_device(np.array([4, 8, 0], dtype=np.int64))
    assert PendingOutcome(control, RunTally(), 10).wait()[0] == {"iterations": 4,
                                                                 "relaxations": 8}


def test_a_plain_read_later_settles_the_pending_outcome_first():
    first_control, second_control = Control(), Control()
    first_control.counters.copy_to_device(np.array([1, 10, 0], dtype=np.int64))
    second_control.counters.copy_to_device(np.array([2, 20, 0], dtype=np.int64))
    first = PendingOutcome(first_control, RunTally(), 10)

    class Reader:
        def settle(self):
            pass

    reader = Reader()
    second_control.read_later(reader)   # overwrites the buffer once the first is out
    assert first.wait()[0] == {"iterations": 1, "relaxations": 10}
    read_done(reader)


def test_persistent_rounds_run_again_with_their_number_of_fills():
    """Prepared once, run twice from two sources (the grid size found once); a run handing
    over another number of fill jobs than the kernel was compiled for is refused."""
    import pytest

    import warpath
    from warpath.cuda.mappings import thread_per_edge
    from warpath.cuda.operators import _demo_gather, _demo_visit, advance
    from warpath.cuda.problem import Problem

    problem = Problem(warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 4, 5]), 0,
                      deferred=True)
    rounds = PersistentRounds(problem, [advance(thread_per_edge(), _demo_gather, _demo_visit)],
                              fills=2)
    state = (problem.distances[0], problem.inf)
    for source, expected in ((0, [0, 3, 7]), (2, [5, 8, 0])):
        problem.reset(source)
        problem.fill(problem.row, 3, problem.inf, source, 0)
        stats, negative = rounds.run(state, problem.take_fills(), RunTally(), 3)
        assert problem.distances.copy_to_host().tolist() == [expected] and not negative
        assert 1 <= stats["iterations"] <= 3 and rounds.blocks >= 1
    with pytest.raises(ValueError, match="2 fill jobs, not 1"):
        rounds.run(state, [problem.take_fills()], RunTally(), 3)


def test_a_runs_arguments_flatten_as_the_whole_argument_tuple_does(monkeypatch):
    """The last run's parameters, rewritten where each query's state, round bound and fill
    jobs changed, are what flattening the whole argument tuple gives; a state that does
    not flatten gives prepare()'s answer for the whole (numba launches it)."""
    import ctypes

    from numba import cuda

    import warpath
    from warpath.cuda.enactor import _fixed_arguments
    from warpath.cuda.launch import flatten, prepare
    from warpath.cuda.mappings import thread_per_edge
    from warpath.cuda.operators import _demo_gather, _demo_visit, advance
    from warpath.cuda.problem import Problem
    from warpath.cuda.runtime import SIMULATOR

    if SIMULATOR:   # give the simulator's arrays a device pointer, as real ones have
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        monkeypatch.setattr(FakeCUDAArray, "device_ctypes_pointer",
                            property(lambda a: ctypes.c_void_p(a._ary.ctypes.data)),
                            raising=False)
    problem = Problem(warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 4, 5]), 0,
                      deferred=True)
    steps = [advance(thread_per_edge(), _demo_gather, _demo_visit)]
    frontier, trace = problem.frontier(), cuda.device_array(8, dtype=np.int64)
    rounds = PersistentRounds(problem, steps, frontier=frontier, trace=trace, fills=3)
    head, tail, _ = _fixed_arguments(problem, steps, frontier, trace)
    for source, scale in ((0, 1.5), (2, -0.25)):
        problem.reset(source)
        problem.fill(problem.row, 3, problem.inf, source, 0)
        jobs = problem.take_fills()
        state = (problem.distances[0], problem.inf, np.float64(scale), source, True,
                 (trace[1:], np.int32(-source)))
        query = (np.int64(7), tuple(jobs))
        types, values = rounds.prepare(state, query)
        whole = head + (state,) + tail + query
        assert (types, values.tolist()) == flatten(whole) and len(values) > 60
    host = (np.zeros(3), problem.inf)
    assert rounds.prepare(host, query) == prepare(head + (host,) + tail + query)
    assert rounds.prepare(host, query)[1] is None


def test_a_run_keeps_the_last_runs_function_while_the_types_stay(monkeypatch):
    import warpath
    from warpath.cuda import enactor
    from warpath.cuda.mappings import thread_per_edge
    from warpath.cuda.operators import _demo_gather, _demo_visit, advance
    from warpath.cuda.problem import Problem

    looked_up = []
    monkeypatch.setattr(enactor, "kernel_function",
                        lambda kernel, prepared, args: looked_up.append(prepared) or ("f", 1))
    problem = Problem(warpath.Graph.from_edges([0], [1], [3]), 0)
    rounds = PersistentRounds(problem, [advance(thread_per_edge(), _demo_gather, _demo_visit)])
    for types in [("a", (1, 2))], [("a", (1, 2))], [("a", (1, 3))], [("a", (1, 3))]:
        assert rounds._function_for((tuple(types), [0]), ()) == ("f", 1)
    assert [prepared[0] for prepared in looked_up] == [(("a", (1, 2)),), (("a", (1, 3)),)]
    assert rounds._function_for(None, ()) is None   # under the simulator: numba launches


def test_a_warm_run_rewrites_only_the_parameters_of_what_changed(monkeypatch):
    """Over 70 sources, a run's parameters equal flattening the whole argument tuple, with
    the types kept (one object) and only the new items flattened again: the round bound
    and the fills that differ from the last run's (the source's, and the queue heads when
    the source moves between the light and heavy queues), never the graph or the state."""
    import ctypes

    import warpath
    from warpath.cuda import launch as launching
    from warpath.cuda.enactor import _fixed_arguments
    from warpath.cuda.launch import flatten
    from warpath.cuda.mappings import thread_per_edge
    from warpath.cuda.operators import _demo_gather, _demo_visit, advance
    from warpath.cuda.problem import Problem
    from warpath.cuda.runtime import SIMULATOR

    if SIMULATOR:   # give the simulator's arrays a device pointer, as real ones have
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        monkeypatch.setattr(FakeCUDAArray, "device_ctypes_pointer",
                            property(lambda a: ctypes.c_void_p(a._ary.ctypes.data)),
                            raising=False)
    graph = warpath.generators.rmat(7, 8, seed=5, directed=False)
    problem = Problem(graph, 0, deferred=True)
    steps = [advance(thread_per_edge(), _demo_gather, _demo_visit)]
    frontier = problem.frontier(heavy_degree=8)
    rounds = PersistentRounds(problem, steps, frontier=frontier, fills=6)
    head, tail, _ = _fixed_arguments(problem, steps, frontier, None)
    state = (problem.distances[0], problem.inf)
    written, real_write = [], launching.ParameterBlock._write
    monkeypatch.setattr(launching.ParameterBlock, "_write",
                        lambda block, item, *place: written.append(item) or
                        real_write(block, item, *place))
    kept = None
    for source in range(70):
        problem.reset(source)
        problem.fill(problem.row, problem.n, problem.inf, source, 0)
        problem.restart_frontier(frontier, 8)
        query = (np.int64(source + 1), problem.take_fills())
        types, values = rounds.prepare(state, query)
        assert (types, values.tolist()) == flatten(head + (state,) + tail + query)
        kept = types if kept is None else kept
        assert types is kept
    jobs = [item for item in written if isinstance(item, tuple)]
    assert len(jobs) + 69 == len(written)   # fill jobs, and each warm run's round bound
    assert all(len(job) == 5 for job in jobs) and len(jobs) <= 69 * 4   # of the 6 fills a run


def _ring_rounds(max_registers):
    """A deferred problem on a weighted 3-ring, its set-up fills, and its rounds prepared
    with ``max_registers``."""
    import warpath
    from warpath.cuda.mappings import thread_per_edge
    from warpath.cuda.operators import _demo_gather, _demo_visit, advance
    from warpath.cuda.problem import Problem

    problem = Problem(warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [3, 4, 5]), 0,
                      deferred=True)
    jobs = problem.take_fills()
    rounds = PersistentRounds(problem, [advance(thread_per_edge(), _demo_gather, _demo_visit)],
                              fills=len(jobs), max_registers=max_registers)
    return problem, jobs, rounds


def test_a_register_cap_gives_its_own_kernel_with_the_same_answers():
    problem, jobs, capped = _ring_rounds(32)
    plain = _ring_rounds(0)[2]
    assert capped.kernel is not plain.kernel and capped.max_registers == 32
    stats, negative = capped.run((problem.distances[0], problem.inf), jobs, RunTally(), 3)
    assert problem.distances.copy_to_host().tolist() == [[0, 3, 7]] and not negative


@pytest.mark.gpu
def test_a_register_cap_holds_on_the_gpu():
    """The capped kernel is compiled with at most that many registers a thread."""
    from numba import typeof

    problem, jobs, capped = _ring_rounds(32)
    args = capped._head + ((problem.distances[0], problem.inf),) + capped._tail \
        + (np.int64(3), tuple(jobs))
    compiled = capped.kernel.compile(tuple(typeof(a) for a in args))
    assert 0 < compiled.regs_per_thread <= 32


def test_an_outcome_settled_on_another_thread_waits_in_the_kernels_context(monkeypatch):
    """A result handed to another thread is read there: its outcome then waits for its
    read's event with the launching thread's context made current, not for that
    thread's own default stream."""
    import threading

    import warpath.cuda.enactor as enactor
    from warpath.cuda.runtime import SIMULATOR

    waits = []
    real = enactor.finish_read
    control = Control()
    if SIMULATOR:
        control.context = object()   # the simulator has none: a stand-in
    context = control.context

    def recorded(context=None, done=None):
        waits.append(context)
        return real(None if SIMULATOR else context, done)

    monkeypatch.setattr(enactor, "finish_read", recorded)
    control.counters.copy_to_device(np.array([3, 6, 0], dtype=np.int64))
    here = PendingOutcome(control, RunTally(), 10)
    got = []
    reader = threading.Thread(target=lambda: got.append(here.wait()))
    reader.start()
    reader.join()
    assert got == [({"iterations": 3, "relaxations": 6}, False)] and waits == [context]
    control.counters.copy_to_device(np.array([4, 8, 0], dtype=np.int64))
    there = PendingOutcome(control, RunTally(), 10)   # this thread's next read: its own
    assert there.wait()[0] == {"iterations": 4, "relaxations": 8} and waits == [context, None]


@pytest.mark.gpu
def test_an_outcome_does_not_wait_for_work_queued_after_its_read():
    """The thread's next query settles the pending outcome after its own launch: that
    wait must end with the outcome's copy, not with the new kernel."""
    import time

    from numba import cuda

    @cuda.jit
    def spin(out, naps):
        for _ in range(naps):
            cuda.nanosleep(1_000_000)   # up to ~1 ms a nap
        out[0] += 1

    out = cuda.to_device(np.zeros(1, np.int64))
    spin[1, 1](out, 1)   # compiled before the timing
    cuda.synchronize()
    control = Control()
    control.counters.copy_to_device(np.array([5, 7, 0], dtype=np.int64))
    pending = PendingOutcome(control, RunTally(), 10)
    began = time.perf_counter()
    spin[1, 1](out, 300)   # ~0.3 s
    stats = pending.wait()[0]
    waited = time.perf_counter() - began
    cuda.synchronize()
    spun = time.perf_counter() - began
    assert stats == {"iterations": 5, "relaxations": 7} and waited < 0.05 < spun


def test_an_earlier_outcomes_failure_stays_with_it(monkeypatch):
    """The thread's next read settles a pending outcome first; if that wait fails, the
    error is the earlier query's: the new read goes on, the earlier outcome raises it."""
    import warpath.cuda.enactor as enactor

    control = Control()
    earlier = PendingOutcome(control, RunTally(), 10)
    monkeypatch.setattr(enactor, "finish_read", lambda context=None, done=None: (_ for _ in ()).throw(
        RuntimeError("CUDA_ERROR_LAUNCH_FAILED")))
    control.counters.copy_to_device(np.array([5, 9, 0], dtype=np.int64))
    later = PendingOutcome(control, RunTally(), 10)   # settles earlier: no raise here
    monkeypatch.undo()
    assert later.wait()[0] == {"iterations": 5, "relaxations": 9}
    with pytest.raises(RuntimeError, match="LAUNCH_FAILED"):
        earlier.wait()
