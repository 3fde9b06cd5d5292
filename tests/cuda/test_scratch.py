"""Working arrays handed from one query to the next (warpath.cuda.scratch)."""

import threading

import numpy as np
import pytest

import warpath
from warpath.cuda.device_graph import device_graph
from warpath.cuda.problem import Problem
from warpath.cuda.scratch import ScratchPool, scratch_pool


def test_pool_is_per_thread():
    pool = ScratchPool()
    pool.give("k", "main's")
    seen = []
    worker = threading.Thread(target=lambda: seen.append(pool.take("k", lambda: "made")))
    worker.start()
    worker.join()
    assert seen == ["made"] and pool.take("k", lambda: "made") == "main's"


def test_discard_drops_only_that_item_of_this_thread():
    pool = ScratchPool()
    kept, broken = ["kept"], ["broken"]
    pool.give("run", kept)
    pool.give("run", broken)
    elsewhere = threading.Thread(target=lambda: pool.discard("run", kept))
    elsewhere.start()
    elsewhere.join()   # another thread's discard touches its own items only
    pool.discard("run", broken)
    pool.discard("other key", kept)
    assert len(pool) == 1 and pool.take("run", lambda: None) is kept
    pool.discard("run", kept)   # no longer there: nothing happens
    assert pool.take("run", lambda: "new") == "new"


def test_problem_gives_back_what_it_took():
    g = device_graph(warpath.generators.grid(4, 4, seed=1))
    pool = scratch_pool(g)
    pool.clear()
    first = Problem(g, 0)
    control = first.conv
    first.frontier()
    assert len(pool) == 0
    first.release_scratch()
    assert len(pool) == 2
    second = Problem(g, 5)
    assert second.conv is control  # reused, and cleared by the new problem's first launch
    assert second.conv.read().tolist() == [0, 0, 0, 0]
    assert second.counters.copy_to_host().tolist() == [0, 0, 0]


@pytest.mark.parametrize("method", ["hbf", "harish"])
@pytest.mark.parametrize("graph", [
    warpath.generators.grid(9, 9, seed=3),
    warpath.generators.rmat(7, 4, seed=5),
    warpath.generators.with_negative_weights(warpath.generators.random(80, 400, seed=2),
                                             fraction=0.2, seed=2),
], ids=["grid", "rmat", "negative"])
def test_back_to_back_queries_on_reused_arrays_stay_exact(method, graph):
    """Each query re-initialises what the one before left: every source's answer is the
    CPU's, whatever order they run in."""
    for source in (0, 7, 0, 3):
        gpu = warpath.sssp(graph, source, method=method, device="cuda")
        cpu = warpath.sssp(graph, source, method="bellman-ford", device="cpu")
        np.testing.assert_array_equal(gpu.distances, cpu.distances)


def test_hbf_options_take_their_own_arrays():
    g = warpath.generators.grid(8, 8, seed=2)
    cpu = warpath.sssp(g, 2, method="dijkstra", device="cpu").distances
    for near_far in (True, False, True):
        got = warpath.sssp(g, 2, method="hbf", device="cuda", near_far=near_far).distances
        np.testing.assert_array_equal(got, cpu)


def test_memory_estimates_let_the_pooled_arrays_go():
    from warpath.apsp.memory import gpu_free_memory

    g = warpath.generators.grid(6, 6, seed=4)
    warpath.sssp(g, 0, method="hbf", device="cuda")
    assert len(scratch_pool(device_graph(g))) > 0
    free = gpu_free_memory()
    if free is not None:  # a real GPU: reading the free memory let the pool go first
        assert free > 0 and len(scratch_pool(device_graph(g))) == 0
    from warpath.cuda.scratch import release_all

    release_all()
    assert len(scratch_pool(device_graph(g))) == 0
    again = warpath.sssp(g, 0, method="hbf", device="cuda").distances
    np.testing.assert_array_equal(again, warpath.sssp(g, 0, device="cpu").distances)


def test_ended_threads_leave_nothing_behind():
    pool = ScratchPool()
    worker = threading.Thread(target=lambda: pool.give("k", "worker's"))
    worker.start()
    worker.join()
    assert len(pool) == 1
    pool.give("k", "main's")  # a new (thread, key) slot: the ended thread's is dropped
    assert len(pool) == 1 and pool.take("k", lambda: "made") == "main's"


def test_out_of_memory_lets_the_pools_go_and_retries(monkeypatch):
    from warpath.cuda import scratch

    pool = ScratchPool()
    pool.give("k", "kept")
    calls = []

    def allocate():
        calls.append(len(pool))
        if len(calls) == 1:
            raise RuntimeError("Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY")
        return "allocated"

    monkeypatch.setattr("numba.cuda.current_context", lambda: type(
        "Context", (), {"deallocations": type("Pending", (), {"clear": lambda self: None})()})())
    assert scratch.retry_out_of_memory(allocate) == "allocated" and calls == [1, 0]
    with pytest.raises(RuntimeError, match="OUT_OF_MEMORY"):  # nothing left to let go
        scratch.retry_out_of_memory(_always_out_of_memory)


def _always_out_of_memory():
    raise RuntimeError("CUDA_ERROR_OUT_OF_MEMORY")
