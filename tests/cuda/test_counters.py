"""Device counters: per-warp sums flushed with one atomic per warp."""

import numpy as np
from numba import cuda

from warpath.cuda.counters import COUNTED, RELAXATIONS, RunTally, flush_count, new_counters


@cuda.jit
def _count(counters, n):
    i = cuda.grid(1)
    flush_count(counters, RELAXATIONS, i % 4 if i < n else 0)


@cuda.jit
def _count_divergent(counters, n):
    i = cuda.grid(1)
    if i % 3 == 0 and i < n:  # partial warps add lane by lane
        flush_count(counters, RELAXATIONS, i)


def test_counts_add_up():
    counters = new_counters()
    _count[3, 32](counters, 90)
    assert counters.copy_to_host()[RELAXATIONS] == sum(i % 4 for i in range(90))
    _count_divergent[3, 32](counters, 90)
    assert counters.copy_to_host()[RELAXATIONS] == sum(i % 4 for i in range(90)) + sum(
        range(0, 90, 3))


def test_tally_reads_counters_as_one_host_sync():
    tally = RunTally()
    stats = tally.read_counters(cuda.to_device(np.array([3, 9], dtype=np.int64)))
    assert stats == {"iterations": 3, "relaxations": 9} and tally.host_syncs == 1
    tally.launch(2)
    assert tally.as_stats(stats) == {"iterations": 3, "relaxations": 9, "launches": 2,
                                     "host_syncs": 1}


def test_a_methods_own_count_is_reported_under_its_name():
    counters = cuda.to_device(np.array([3, 9, 4], dtype=np.int64))
    assert RunTally().read_counters(counters, "pull_rounds")["pull_rounds"] == 4
    assert "pull_rounds" not in RunTally().read_counters(counters) and COUNTED == 2
