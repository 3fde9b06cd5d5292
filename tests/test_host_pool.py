"""The host threads for big copies and conversions (warpath.host_pool)."""

import os
import threading

import numpy as np
import pytest

from warpath import host_pool


def test_every_piece_is_done_once_on_the_pools_threads():
    out = np.zeros(1000, np.int64)
    names = set()

    def work(rows):
        out[rows] += 1
        names.add(threading.current_thread().name)

    host_pool.in_parallel(work, [slice(i, i + 10) for i in range(0, 1000, 10)])
    assert (out == 1).all()
    assert names and all(name.startswith("warpath-host") for name in names)
    assert host_pool.host_pool() is host_pool.host_pool()


def test_named_pools_are_kept_apart_and_made_again_after_forget():
    first = host_pool.pool("test-a", 1)
    assert host_pool.pool("test-a", 1) is first and host_pool.pool("test-b", 1) is not first
    assert first.submit(threading.current_thread).result().name.startswith("warpath-test-a")
    host_pool.forget("test-a")
    assert host_pool.pool("test-a", 2) is not first
    for name in ("test-a", "test-b", "never-made"):
        host_pool.forget(name)


def test_one_piece_runs_on_the_calling_thread_and_errors_come_back():
    seen = []
    host_pool.in_parallel(lambda piece: seen.append(threading.current_thread()), [0])
    assert seen == [threading.current_thread()]

    def fails(piece):
        if piece == 3:
            raise ValueError("piece 3")

    done = []

    def fails_after_the_rest(piece):
        if piece == 0:
            raise ValueError("piece 0")
        done.append(piece)

    with pytest.raises(ValueError, match="piece 0"):
        host_pool.in_parallel(fails_after_the_rest, range(6))
    assert sorted(done) == [1, 2, 3, 4, 5]   # every other piece ran before the raise
    host_pool.in_parallel(fails, [])   # nothing to do


def test_a_call_from_a_pool_thread_runs_inline_instead_of_waiting_on_the_pool():
    threads = host_pool.HOST_THREADS
    # every thread of the pool calls in_parallel at once: waiting on the pool would hang
    seen = set()

    def nested(outer):
        host_pool.in_parallel(lambda inner: seen.add((outer, inner)), range(3))

    host_pool.in_parallel(nested, range(threads * 2))
    assert len(seen) == threads * 2 * 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_makes_its_own_threads():
    host_pool.in_parallel(lambda piece: None, range(host_pool.HOST_THREADS))  # parent's up
    pid = os.fork()
    if pid == 0:   # the child: the parent's threads are gone; a new pool must serve it
        try:
            out = np.zeros(4)
            host_pool.in_parallel(lambda i: out.__setitem__(i, 1), range(4))
            os._exit(0 if out.sum() == 4 else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
