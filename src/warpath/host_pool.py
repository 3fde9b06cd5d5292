"""The process's pool of host threads for big array copies and conversions.

numpy releases the interpreter lock while it copies or converts a large block, so
blocks of one big array handed to several threads go that many times faster; and a
fresh array pays for each of its pages on the first write, which also spreads over the
threads (H100 host: 4 GB into a fresh array in 1.10 s on one thread, 0.26 s on eight;
``docs/performance.md``, twenty-third session).

Examples
--------
>>> import numpy as np
>>> out = np.zeros(10)
>>> in_parallel(lambda rows: out.__setitem__(rows, 1.0), [slice(0, 5), slice(5, 10)])
>>> float(out.sum())
10.0
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait

#: Threads of the pool.
HOST_THREADS = max(1, min(8, os.cpu_count() or 1))

_lock = threading.Lock()
_pools = {}


def pool(name: str, threads: int) -> ThreadPoolExecutor:
    """The process's pool ``name`` of ``threads`` threads (named ``warpath-<name>``),
    made on first use; a forked child makes its own.

    Examples
    --------
    >>> pool("demo", 2) is pool("demo", 2)
    True
    >>> forget("demo")
    """
    with _lock:
        known = _pools.get(name)
        if known is None:
            known = _pools[name] = ThreadPoolExecutor(threads,
                                                      thread_name_prefix=f"warpath-{name}")
        return known


def forget(name: str) -> None:
    """Shut pool ``name`` down (after its queued work) and drop it: the next
    :func:`pool` call makes a new one (e.g. with another thread count)."""
    with _lock:
        known = _pools.pop(name, None)
    if known is not None:
        known.shutdown()


def host_pool() -> ThreadPoolExecutor:
    """The pool of :data:`HOST_THREADS` threads for big copies and conversions."""
    return pool("host", HOST_THREADS)


def _forget_pools() -> None:
    """In a forked child: the parent's threads are not there (a task would wait for them
    forever), so every pool is made again on first use."""
    global _lock
    _lock = threading.Lock()
    _pools.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)


def in_parallel(work, pieces) -> None:
    """``work(piece)`` for every piece, on the host pool's threads; returns when all are
    done, then raises the first error, if any.  A single piece, or a call from one of the
    pool's own threads (which would wait for threads it may be holding), runs on the
    calling thread."""
    pieces = list(pieces)
    if len(pieces) <= 1 or threading.current_thread().name.startswith("warpath-host"):
        for piece in pieces:
            work(piece)
        return
    finish([host_pool().submit(work, piece) for piece in pieces])


def finish(tasks) -> None:
    """Wait for every one of ``tasks`` (futures), then raise the first one's error, if
    any: no task is left running on memory that the caller then reuses or frees."""
    wait(tasks)
    for task in tasks:
        task.result()
