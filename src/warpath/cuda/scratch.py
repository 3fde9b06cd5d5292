"""Working arrays that one query hands on to the next on the same graph.

Allocating a device array through numba costs 50-150 us of host time (an
H100 host, 2026-11-24), uploading a small one ~160 us; a query that makes a
dozen of them (frontier queues, H-BF's packed words and far piles, flags and
counters) spends milliseconds before its first kernel runs.  Arrays that no
result keeps are therefore borrowed from a pool kept on the device graph and
given back when the query is done; the next query only re-initialises them
on the GPU.  Distances and predecessors, which results hold, are always new.

The pool is per host thread: the kernels of one thread run in order on its
stream, so an array given back by one of its queries is free for the next,
whatever is still queued.  Its memory stays allocated while the device graph
lives, at most one set per kind of query and thread: :func:`release_all` gives
it back (the GPU memory estimates of many-source queries call it before they read
the free memory).

Examples
--------
>>> pool = ScratchPool()
>>> made = pool.take("queues", lambda: ["new"])
>>> pool.give("queues", made)
>>> pool.take("queues", lambda: ["another"]) is made
True
"""

from __future__ import annotations

import threading
import weakref

#: Every pool made, so that :func:`release_all` can empty them before a large allocation.
_POOLS: "weakref.WeakSet[ScratchPool]" = weakref.WeakSet()
_RELEASE_LOCK = threading.Lock()


class ScratchPool:
    """Free working arrays by (host thread, key); see the module notes."""

    def __init__(self):
        self._free: dict = {}
        self._lock = threading.Lock()
        with _RELEASE_LOCK:
            _POOLS.add(self)

    def take(self, key, make):
        """A free item of ``key`` for this thread, or ``make()`` when there is none (after
        emptying every pool, if the GPU's memory ran out: see :func:`retry_out_of_memory`)."""
        with self._lock:   # a discard from another thread may be filtering this stack
            stack = self._free.get((threading.get_ident(), key))
            item = stack.pop() if stack else None
        return retry_out_of_memory(make) if item is None else item

    def give(self, key, item, thread: int | None = None, keep: int | None = None) -> None:
        """Return ``item``, taken with ``key`` by this thread (or by ``thread``, when a
        finalizer gives it back from elsewhere); with ``keep``, an item beyond ``keep``
        free ones of its key is let go instead."""
        slot = (threading.get_ident() if thread is None else thread, key)
        with self._lock:
            if slot not in self._free:  # a new thread or key: drop what ended threads left
                alive = {t.ident for t in threading.enumerate()}
                for gone in [k for k in self._free if k[0] not in alive]:
                    del self._free[gone]
            stack = self._free.setdefault(slot, [])
            if keep is None or len(stack) < keep:
                stack.append(item)

    def discard(self, key, item, thread: int | None = None) -> None:
        """Drop ``item`` from this thread's (or ``thread``'s) free items of ``key``, if it
        is there (one that went back before its query failed).

        Examples
        --------
        >>> pool = ScratchPool()
        >>> pool.give("run", "broken"); pool.discard("run", "broken")
        >>> pool.take("run", lambda: "new")
        'new'
        """
        slot = (threading.get_ident() if thread is None else thread, key)
        with self._lock:
            stack = self._free.get(slot, [])
            stack[:] = [kept for kept in stack if kept is not item]

    def clear(self) -> None:
        """Drop every free item (their device memory goes back once unreferenced)."""
        with self._lock:  # another thread may be giving an item back
            self._free.clear()

    def __len__(self) -> int:
        with self._lock:
            return sum(len(stack) for stack in self._free.values())


def scratch_pool(dgraph) -> ScratchPool:
    """The pool kept on a :class:`~warpath.cuda.device_graph.DeviceGraph`.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> g = device_graph(warpath.generators.ring(3, seed=0))
    >>> scratch_pool(g) is scratch_pool(g)
    True
    """
    return dgraph.cached("scratch", ScratchPool)


def retry_out_of_memory(allocate):
    """``allocate()``, once more after :func:`release_all` if the GPU's memory ran out (numba
    frees its pending deallocations before it reports that, but not arrays a pool keeps).

    Examples
    --------
    >>> retry_out_of_memory(lambda: "allocated")
    'allocated'
    """
    try:
        return allocate()
    except Exception as error:  # numba's CudaAPIError; its class differs under the simulator
        if not is_out_of_memory(error) or not release_all():
            raise
        free_pending()
        return allocate()


def is_out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is the driver saying the GPU's memory ran out.

    Examples
    --------
    >>> is_out_of_memory(RuntimeError("cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY"))
    True
    """
    return "OUT_OF_MEMORY" in str(error).upper().replace(" ", "_")


def free_pending() -> None:
    """Free now what numba has queued for deallocation (arrays nothing references)."""
    from numba import cuda

    cuda.current_context().deallocations.clear()


def release_all() -> int:
    """Empty every pool, so that their arrays' device memory is free again once numba's
    pending deallocations run; returns how many items were let go.

    Examples
    --------
    >>> pool = ScratchPool()
    >>> pool.give("k", "item")
    >>> release_all() >= 1, len(pool)
    (True, 0)
    """
    released = 0
    with _RELEASE_LOCK:  # a WeakSet must not change while it is walked
        pools = list(_POOLS)
    for _ in range(3):   # an item let go may give memory back to a pool emptied before it
        count = 0
        for pool in pools:
            count += len(pool)
            pool.clear()
        released += count
        if count == 0:
            break
    return released
