"""Run counters: iterations and relax operations on the device, launches and host syncs on the host.

Counting relax operations with one global atomic per thread would serialise
millions of threads on one address, so each thread counts in a register and,
once per launch, the warp sums its lanes' counts with shuffles and one lane
adds the total (:func:`flush_count`): one global atomic per warp per launch.

Examples
--------
>>> tally = RunTally()
>>> tally.launch(3); tally.sync()
>>> tally.launches, tally.host_syncs
(3, 1)
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .runtime import SIMULATOR

#: Slots of the device counter array: rounds run, relax operations, and a count that a
#: method keeps itself (direction-optimizing BFS: its pull rounds), reported under the
#: name the method gives it (see :meth:`RunTally.read_counters`).
ITERATIONS, RELAXATIONS, COUNTED = 0, 1, 2
COUNTER_SLOTS = 3


if SIMULATOR:
    @cuda.jit(device=True)
    def flush_count(counters, slot, count):
        """Add this thread's ``count`` to ``counters[slot]`` (simulator: one atomic per thread;
        see :func:`new_counters` for an example)."""
        if count:
            cuda.atomic.add(counters, slot, count)
else:
    @cuda.jit(device=True)
    def flush_count(counters, slot, count):
        """Add this thread's ``count`` to ``counters[slot]``; a whole warp sums by shuffles
        first, so one lane adds for 32 (a partial warp adds lane by lane).  See
        :func:`new_counters` for an example."""
        active = cuda.activemask()
        if active != 0xFFFFFFFF:
            if count:
                cuda.atomic.add(counters, slot, count)
            return
        total = count
        total += cuda.shfl_down_sync(active, total, 16)
        total += cuda.shfl_down_sync(active, total, 8)
        total += cuda.shfl_down_sync(active, total, 4)
        total += cuda.shfl_down_sync(active, total, 2)
        total += cuda.shfl_down_sync(active, total, 1)
        if cuda.laneid == 0 and total:
            cuda.atomic.add(counters, slot, total)


def new_counters():
    """A zeroed int64 device array of counters (:data:`ITERATIONS`, :data:`RELAXATIONS`,
    :data:`COUNTED`).

    Examples
    --------
    >>> @cuda.jit
    ... def count_threads(counters):
    ...     flush_count(counters, RELAXATIONS, 1)
    >>> counters = new_counters()
    >>> count_threads[2, 32](counters); counters.copy_to_host().tolist()
    [0, 64, 0]
    """
    return cuda.to_device(np.zeros(COUNTER_SLOTS, dtype=np.int64))


def counter_stats(values, counted: str | None = None) -> dict:
    """The counters read back, as stats: ``iterations``, ``relaxations``, and slot
    :data:`COUNTED` under the name ``counted`` when one is given.

    Examples
    --------
    >>> counter_stats(np.array([3, 9, 2]), "pull_rounds")
    {'iterations': 3, 'relaxations': 9, 'pull_rounds': 2}
    """
    stats = {"iterations": int(values[ITERATIONS]), "relaxations": int(values[RELAXATIONS])}
    if counted is not None:
        stats[counted] = int(values[COUNTED])
    return stats


class RunTally:
    """Host-side tally of kernel launches and host synchronisations (flag or counter reads).

    Examples
    --------
    >>> t = RunTally(); t.launch(); t.as_stats({"iterations": 1})["launches"]
    1
    """

    def __init__(self):
        self.launches = 0
        self.host_syncs = 0

    def launch(self, count: int = 1) -> None:
        """Count ``count`` kernel launches."""
        self.launches += count

    def sync(self, count: int = 1) -> None:
        """Count ``count`` reads back to the host."""
        self.host_syncs += count

    def read_counters(self, counters, counted: str | None = None) -> dict:
        """Read the device counters (one host sync): see :func:`counter_stats`."""
        self.sync()
        return counter_stats(counters.copy_to_host(), counted)

    def as_stats(self, stats: dict) -> dict:
        """``stats`` plus ``launches`` and ``host_syncs``."""
        return {**stats, "launches": self.launches, "host_syncs": self.host_syncs}
