"""Frontier queues: enqueue (warp-aggregated on a GPU) and the rotating counters."""

import numpy as np
from numba import cuda

from warpath.cuda.frontier import FrontierQueue, begin_level, enqueue
from warpath.cuda.runtime import SIMULATOR


@cuda.jit
def _enqueue_multiples(queues, counts, n, step):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    for start in range(0, n, stride):
        v = start + i
        enqueue(queues[1], counts, 1, v, v < n and v % step == 0)


@cuda.jit
def _enqueue_divergent(queues, counts, n):
    """Enqueue from inside a per-thread loop of varying length (divergent warps)."""
    i = cuda.grid(1)
    if i < n:
        for j in range(i % 5):
            enqueue(queues[0], counts, 0, i * 10 + j, True)


def test_enqueue_keeps_exactly_the_chosen_items():
    n = 100 if SIMULATOR else 100_000
    q = FrontierQueue(n)
    blocks = 1 if SIMULATOR else 64
    _enqueue_multiples[blocks, 32 if SIMULATOR else 256](q.queues, q.counts, n, 3)
    count = int(q.counts.copy_to_host()[1])
    items = np.sort(q.queues.copy_to_host()[1, :count])
    np.testing.assert_array_equal(items, np.arange(0, n, 3))


def test_enqueue_from_divergent_code():
    n = 64 if SIMULATOR else 5000
    q = FrontierQueue(2 * n * 5)
    _enqueue_divergent[-(-n // 32), 32](q.queues, q.counts, n)
    count = int(q.counts.copy_to_host()[0])
    expected = sorted(i * 10 + j for i in range(n) for j in range(i % 5))
    assert count == len(expected)
    np.testing.assert_array_equal(np.sort(q.queues.copy_to_host()[0, :count]), expected)


@cuda.jit
def _levels(queues, counts, out, levels):
    """Each level copies its frontier (plus one) into the next one; one block, cooperative."""
    thread = cuda.grid(1)
    grid = cuda.cg.this_grid()
    for r in range(levels):
        begin_level(counts, r, thread)
        size = counts[r % 3]
        for i in range(thread, size, cuda.gridsize(1)):
            enqueue(queues[(r + 1) % 2], counts, (r + 1) % 3, queues[r % 2, i] + 1, True)
        grid.sync()
        if thread == 0:
            out[r] = counts[(r + 1) % 3]
        grid.sync()


def test_rotating_counters_need_no_reset():
    q = FrontierQueue(8, first=0)
    out = cuda.to_device(np.zeros(6, dtype=np.int64))
    _levels[1, 32](q.queues, q.counts, out, 6)
    assert out.copy_to_host().tolist() == [1] * 6
