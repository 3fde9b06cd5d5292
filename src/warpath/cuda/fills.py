"""Fill jobs: the small initialisations of a query, run together by its first kernel.

Before its rounds start, a query resets a handful of arrays: its levels or
distances (n values), its flags and counters, its frontier queues' counters
and first vertex, a method's own books.  Each was one small launch, and on
the H100 host a launch from Python costs 30-60 us of host time, as long as
the whole kernel of a small-world BFS.  A *fill job* describes one such
reset:

    (array, count, value, at, at_value): array[:count] = value, then
    array[at] = at_value when at >= 0 (also beyond count)

so that a query can queue them (:meth:`~warpath.cuda.problem.Problem.fill`)
and have the persistent kernel run them all before round 0, behind one grid
barrier (:func:`~warpath.cuda.enactor.persistent_kernel`), or run them in one
launch of their own (:func:`run_fills`).  Jobs must not overlap: they run at
the same time, in no order.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> a, b = cuda.to_device(np.ones(4, np.int32)), cuda.to_device(np.ones(2, np.int64))
>>> run_fills([fill_job(a, 4, -1, 2, 0), fill_job(b, 0, 0, 1, 7)])
True
>>> a.copy_to_host().tolist(), b.copy_to_host().tolist()
([-1, -1, 0, -1], [1, 7])
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda

from .launch import launch
from .runtime import THREADS, blocks_for


def fill_job(array, count: int, value, at: int = -1, at_value=0) -> tuple:
    """One fill job over the one-dimensional device ``array`` (see the module notes), its
    values in the array's type.

    Examples
    --------
    >>> job = fill_job(cuda.device_array(3, np.int32), 3, -1, 0, 5)
    >>> [type(x).__name__ for x in job[1:]]
    ['int64', 'int32', 'int64', 'int32']
    """
    kind = array.dtype.type
    return (array, np.int64(count), kind(value), np.int64(at), kind(at_value))


@cuda.jit(device=True)
def _fill(job, thread, stride):
    """This thread's share of one fill job."""
    array, count, value, at, at_value = job
    for i in range(thread, count, stride):
        array[i] = at_value if i == at else value
    if thread == 0 and at >= count:
        array[at] = at_value


@functools.lru_cache(maxsize=None)
def fill_all(jobs: int):
    """A device function ``run(jobs, thread, stride)`` running a tuple of ``jobs`` fill jobs,
    each over the whole grid (numba indexes a tuple by constants only, hence one function
    per length, each calling the one before).

    Examples
    --------
    >>> fill_all(2) is fill_all(2), fill_all(2) is fill_all(1)
    (True, False)
    """
    if jobs == 0:
        @cuda.jit(device=True)
        def none(jobs, thread, stride):
            return

        return none
    before, last = fill_all(jobs - 1), jobs - 1

    @cuda.jit(device=True)
    def run(jobs, thread, stride):
        before(jobs, thread, stride)
        _fill(jobs[last], thread, stride)

    return run


@functools.lru_cache(maxsize=None)
def _fill_kernel(jobs: int):
    run = fill_all(jobs)

    @cuda.jit
    def kernel(jobs):
        run(jobs, cuda.grid(1), cuda.gridsize(1))

    return kernel


def run_fills(jobs) -> bool:
    """Run the fill ``jobs`` now, in one launch; returns whether there was one.

    Examples
    --------
    >>> run_fills([])
    False
    """
    if not jobs:
        return False
    widest = max(max(int(job[1]) for job in jobs), 1)
    launch(_fill_kernel(len(jobs)), blocks_for(widest), THREADS, (tuple(jobs),))
    return True
