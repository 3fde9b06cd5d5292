"""Frontier queues with warp-aggregated enqueue.

A frontier is the list of vertices that a level (or round) works on.  Two
buffers alternate: level ``r`` reads ``queues[r % 2]`` and appends to
``queues[(r + 1) % 2]``.  Their lengths live in three counters used in
rotation, as the convergence flags are (:mod:`warpath.cuda.flags`): level
``r`` reads ``counts[r % 3]``, appends with ``counts[(r + 1) % 3]`` and
thread 0 clears ``counts[(r + 2) % 3]``, so a persistent kernel needs one
``grid.sync()`` per level and no separate reset.

Enqueue is warp-aggregated (H-BF section 5.1, Davidson et al.): the warp
votes, one leader reserves room for all its enqueuing lanes with a single
atomic add, and each lane writes at its rank among them, so 32 candidates
cost one atomic instead of 32.  The simulator has no vote or shuffle, so
there each thread reserves its own slot.

Examples
--------
>>> q = FrontierQueue(4, first=2)
>>> q.counts.copy_to_host().tolist(), int(q.queues.copy_to_host()[0, 0])
([1, 0, 0], 2)
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .distances import device_full
from .fills import fill_job, run_fills
from .runtime import SIMULATOR

if SIMULATOR:
    @cuda.jit(device=True)
    def enqueue(queue, counts, slot, item, keep):
        """Append ``item`` to ``queue`` if ``keep`` (simulator: one atomic per item;
        see :func:`begin_level` for an example)."""
        if keep:
            queue[cuda.atomic.add(counts, slot, 1)] = item
else:
    @cuda.jit(device=True)
    def enqueue(queue, counts, slot, item, keep):
        """Append ``item`` to ``queue`` if ``keep``; every active lane of the warp calls it.

        The highest enqueuing lane is the leader: it adds the number of
        enqueuing lanes to ``counts[slot]`` and broadcasts the old length;
        each lane writes at that base plus the number of enqueuing lanes below it.
        See :func:`begin_level` for an example.
        """
        active = cuda.activemask()
        votes = cuda.ballot_sync(active, keep)
        if votes == 0:
            return
        leader = 31 - cuda.clz(votes)
        base = 0
        if cuda.laneid == leader:
            base = cuda.atomic.add(counts, slot, cuda.popc(votes))
        base = cuda.shfl_sync(active, base, leader)
        if keep:
            queue[base + cuda.popc(votes & cuda.lanemask_lt())] = item


@cuda.jit(device=True)
def enqueue_single(queue, counts, slot, item, keep):
    """Append ``item`` if ``keep`` with one atomic per item (no warp aggregation: the
    baseline that H-BF's coalesced enqueue is measured against)."""
    if keep:
        queue[cuda.atomic.add(counts, slot, 1)] = item


@cuda.jit(device=True)
def begin_level(counts, r, thread):
    """Clear the counter that level ``r + 1`` will append with (thread 0 only).

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def two_levels(queues, counts):
    ...     for r in range(2):
    ...         begin_level(counts, r, cuda.grid(1))
    ...         cuda.syncthreads()
    ...         for i in range(cuda.grid(1), counts[r % 3], 32):
    ...             v = queues[r % 2, i]
    ...             enqueue(queues[(r + 1) % 2], counts, (r + 1) % 3, 2 * v + 1, True)
    ...             enqueue(queues[(r + 1) % 2], counts, (r + 1) % 3, 2 * v + 2, True)
    ...         cuda.syncthreads()
    >>> q = FrontierQueue(8, first=0)
    >>> two_levels[1, 32](q.queues, q.counts)
    >>> sorted(q.queues.copy_to_host()[0, :int(q.counts.copy_to_host()[2])].tolist())
    [3, 4, 5, 6]
    """
    if thread == 0:
        counts[(r + 2) % 3] = 0


class FrontierQueue:
    """Two device buffers of ``capacity`` vertices and their three rotating counters.

    Parameters
    ----------
    capacity : int
        The most vertices one level can hold (n for vertex frontiers without duplicates).
    dtype : numpy dtype
        The vertex index type.
    first : int, optional
        A vertex (the source) to start level 0 with.

    Examples
    --------
    >>> FrontierQueue(3).queues.shape
    (2, 3)
    """

    def __init__(self, capacity: int, dtype=np.int32, first: int = -1):
        # Filled on the GPU: uploading 2 x capacity zeros cost milliseconds per query on
        # 10M-vertex graphs (issue 10's per-query overhead).
        capacity = max(capacity, 1)
        start = 0 if first >= 0 else -1
        slots = device_full(2 * capacity, 0, dtype, start, first)
        self.queues = slots.reshape(2, capacity)
        self.counts = device_full(3, 0, np.int64, start, 1)
        self._head = slots[:1]   # level 0's first slot, a view made once

    def restart_fills(self, first: int = -1) -> list:
        """The fills (``(array, count, value, at, at_value)``, see :mod:`warpath.cuda.fills`)
        that empty the queue again, holding ``first`` when it is a vertex.

        Examples
        --------
        >>> [args[1:] for args in FrontierQueue(4).restart_fills(2)]
        [(3, 0, 0, 1), (0, 0, 0, 2)]
        """
        at = 0 if first >= 0 else -1
        return [(self.counts, 3, 0, at, 1), (self._head, 0, 0, at, first)]

    def restart(self, first: int = -1) -> None:
        """Empty the queue again, holding ``first`` when it is a vertex (one small launch:
        a query reusing the queue of an earlier one; see :mod:`warpath.cuda.scratch`).

        Examples
        --------
        >>> q = FrontierQueue(4, first=2)
        >>> q.restart(3)
        >>> q.counts.copy_to_host().tolist(), int(q.queues.copy_to_host()[0, 0])
        ([1, 0, 0], 3)
        >>> q.restart()
        >>> q.counts.copy_to_host().tolist()
        [0, 0, 0]
        """
        run_fills([fill_job(*arguments) for arguments in self.restart_fills(first)])


__all__ = ["enqueue", "enqueue_single", "begin_level", "FrontierQueue"]
