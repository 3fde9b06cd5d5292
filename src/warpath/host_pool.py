"""The process's pool of host threads for big array copies and conversions.

numpy releases the interpreter lock while it copies or converts a large block, so
blocks of one big array handed to several threads go that many times faster; and a
fresh array pays for each of its pages on the first write, which also spreads over the
threads (H100 host: 4 GB into a fresh array in 1.10 s on one thread, 0.26 s on eight;
``docs/performance.md``, twenty-third session).

Examples
--------
>>> out = np.zeros(10)
>>> in_parallel(lambda rows: out.__setitem__(rows, 1.0), [slice(0, 5), slice(5, 10)])
>>> float(out.sum())
10.0
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

#: Threads of the pool.
HOST_THREADS = max(1, min(8, os.cpu_count() or 1))

_lock = threading.Lock()
_pool = None


def host_pool() -> ThreadPoolExecutor:
    """The process's pool of :data:`HOST_THREADS` threads, made on first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(HOST_THREADS, thread_name_prefix="warpath-host")
        return _pool


def _forget_pool() -> None:
    """In a forked child: the parent's threads are not there (a task would wait for them
    forever), so a new pool is made on first use."""
    global _pool, _lock
    _pool, _lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def in_parallel(work, pieces) -> None:
    """``work(piece)`` for every piece, on the pool's threads; returns when all are done
    (re-raising the first error).  One piece runs on the calling thread."""
    pieces = list(pieces)
    if len(pieces) <= 1:
        for piece in pieces:
            work(piece)
        return
    for pending in [host_pool().submit(work, piece) for piece in pieces]:
        pending.result()
