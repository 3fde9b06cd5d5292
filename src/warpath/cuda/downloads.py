"""Large device arrays into host memory at the link's speed.

Two things make a plain ``copy_to_host`` of a big result slow, and neither is the link.
A copy into ordinary (pageable) memory goes through the driver's own small staging
buffer.  A fresh host array also pays for each of its pages on the first write, on the
one thread that writes it.  On the H100's host, 4 GB of rows (1,000 x 1M int32) took
1.28 s into a fresh array in blocks of 128 MB.  The same copies into page-locked memory
took 0.08 s, and filling a fresh array from there took 1.10 s on one thread and 0.26 s
on eight.  (``.carry/scripts/hostcopy.py`` of the twenty-third session; see
``docs/performance.md``.)

So a :class:`Download` copies through a few page-locked staging chunks on this thread's
own stream, and a pool of threads moves each chunk into its place in the host array.
:meth:`Download.copy` returns once its last chunks are on their way, so the GPU's next
work (once the copies' fast reads of the device array are done) overlaps the host side;
:meth:`Download.finish` waits for all of it.

Under the simulator the same chunks and threads run, with plain copies in place of the
driver's asynchronous ones.

Examples
--------
>>> rows = cuda.to_device(np.arange(12, dtype=np.int32).reshape(3, 4))
>>> host = np.empty((3, 4), np.int32)
>>> with Download() as download:
...     download.copy(rows, host)
>>> host[2].tolist()
[8, 9, 10, 11]
"""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import wait

import numpy as np
from numba import cuda

from ..host_pool import HOST_THREADS, finish, host_pool
from .runtime import SIMULATOR, default_stream
from .side_stream import _check, _own_stream

#: Bytes of one page-locked staging chunk, and how many chunks a host thread keeps
#: (made on its first big copy, once per thread and context: pinning memory costs
#: ~0.06 s per 128 MB).
CHUNK_BYTES = 16 << 20
CHUNKS = 4
#: Arrays up to this many bytes are copied at once by numba (a query's small result
#: would wait longer for the pool's threads than for the copy).
SMALL_BYTES = 1 << 20

_local = threading.local()


class _Staging:
    """This thread's page-locked chunks, with an event per chunk (none under the
    simulator) that marks when the chunk's copy from the device has landed, and the host
    tasks still reading each chunk (every :class:`Download` of the thread waits for
    them before it reuses the chunk)."""

    def __init__(self):
        self.chunk_bytes, count = CHUNK_BYTES, CHUNKS
        self.chunks = [cuda.pinned_array(self.chunk_bytes, dtype=np.uint8)
                       for _ in range(count)]
        self.events = [None] * count
        self.busy = [[] for _ in range(count)]
        self.next = 0
        self.done = None
        if not SIMULATOR:
            from cuda.bindings import driver

            flags = driver.CUevent_flags.CU_EVENT_DISABLE_TIMING.value
            for i in range(count):
                status, self.events[i] = driver.cuEventCreate(flags)
                _check(status, "making an event")
            status, self.done = driver.cuEventCreate(flags)
            _check(status, "making an event")

    def take(self):
        """``(slot, chunk, event)`` of the next chunk, once the host tasks still reading
        it are done (their errors are for their own download to raise)."""
        slot = self.next
        self.next = (slot + 1) % len(self.chunks)
        wait(self.busy[slot])
        self.busy[slot] = []
        return slot, self.chunks[slot], self.events[slot]


def _staging() -> _Staging:
    """This host thread's :class:`_Staging` in the current context, made once (again if
    :data:`CHUNK_BYTES` or :data:`CHUNKS` changed)."""
    context = None if SIMULATOR else cuda.current_context()
    known = getattr(_local, "staging", None)
    if known is None or (context is not None and known[0]() is not context) or \
            len(known[1].chunks) != CHUNKS or known[1].chunk_bytes != CHUNK_BYTES:
        if known is not None:
            wait([task for tasks in known[1].busy for task in tasks])
        known = _local.staging = (weakref.ref(context) if context is not None else None,
                                  _Staging())
    return known[1]


def _pieces(size: int, parts: int):
    """``size`` bytes cut into up to ``parts`` pieces of whole 4 KB pages (the last one
    takes the rest).

    >>> list(_pieces(10_000, 2)), list(_pieces(100, 8))
    ([(0, 8192), (8192, 10000)], [(0, 100)])
    """
    page = 4096
    step = max(page, -(-size // parts // page) * page)
    return ((start, min(start + step, size)) for start in range(0, size, step))


def _unload(event, chunk, target, start: int, stop: int) -> None:
    """Host thread: wait for the chunk's copy (``event``), then move bytes ``start:stop``
    of it into ``target`` (a byte view of the host array at the chunk's offset)."""
    if event is not None:
        from cuda.bindings import driver

        status, = driver.cuEventSynchronize(event)
        _check(status, "waiting for a copy to the host")
    np.copyto(target[start:stop], chunk[start:stop])


class Download:
    """Copies of device arrays into host arrays; the host side overlaps the GPU's later
    work.

    Each :meth:`copy` waits for the GPU work queued before it on numba's default stream;
    work queued after it waits for the copy's reads of the device array (fast: the link's
    speed), so the array may be overwritten at once.  The host arrays are complete after
    :meth:`finish` (or the end of a ``with`` block).  A download is used on one thread
    (it copies through that thread's staging chunks and stream); downloads of one
    thread may be open at the same time.
    """

    def __init__(self):
        self._tasks = []   # this download's host tasks, for finish

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.finish()
        return False

    def copy(self, device, host: np.ndarray) -> None:
        """Queue the copy of the C-contiguous ``device`` array into the C-contiguous
        ``host`` array (same size in bytes; any shape and type).

        Raises
        ------
        ValueError
            When the sizes differ or either array is not C-contiguous.
        """
        nbytes = device.size * np.dtype(device.dtype).itemsize
        if host.nbytes != nbytes:
            raise ValueError(f"cannot copy {device.shape} x {device.dtype} into "
                             f"{host.shape} x {host.dtype}: the sizes differ")
        if not host.flags["C_CONTIGUOUS"] or not device.is_c_contiguous():
            raise ValueError("downloads take C-contiguous arrays only")
        if nbytes <= SMALL_BYTES:
            if nbytes:
                device.copy_to_host(host.reshape(-1).view(np.uint8).view(device.dtype)
                                    .reshape(device.shape))
            return
        target = host.reshape(-1).view(np.uint8)
        staging = _staging()
        if SIMULATOR:
            source = device.reshape(device.size).view(np.uint8)
            for start in range(0, nbytes, staging.chunk_bytes):
                stop = min(start + staging.chunk_bytes, nbytes)
                slot, chunk, _ = staging.take()
                source[start:stop].copy_to_host(chunk[:stop - start])
                self._unload_later(staging, slot, None, chunk, target[start:stop])
            return
        self._copy_async(staging, device.device_ctypes_pointer.value, target, nbytes)

    def _unload_later(self, staging, slot: int, event, chunk, target) -> None:
        pool = host_pool()
        tasks = [pool.submit(_unload, event, chunk, target, start, stop)
                 for start, stop in _pieces(target.shape[0], HOST_THREADS)]
        staging.busy[slot] = tasks
        self._tasks += tasks

    def _copy_async(self, staging, source: int, target, nbytes: int) -> None:
        from cuda.bindings import driver

        stream, queue = _own_stream(), default_stream()
        _check(driver.cuEventRecord(staging.done, queue)[0], "recording an event")
        _check(driver.cuStreamWaitEvent(stream, staging.done, 0)[0], "waiting for the GPU")
        try:
            for start in range(0, nbytes, staging.chunk_bytes):
                stop = min(start + staging.chunk_bytes, nbytes)
                slot, chunk, event = staging.take()
                status, = driver.cuMemcpyDtoHAsync(chunk.ctypes.data, source + start,
                                                   stop - start, stream)
                _check(status, f"copying {stop - start} bytes to the host")
                _check(driver.cuEventRecord(event, stream)[0], "recording an event")
                self._unload_later(staging, slot, event, chunk, target[start:stop])
        finally:
            # later work on the default stream (which may overwrite the device array)
            # waits for the copies queued so far, not for the host side
            _check(driver.cuEventRecord(staging.done, stream)[0], "recording an event")
            _check(driver.cuStreamWaitEvent(queue, staging.done, 0)[0], "ordering the copies")

    def finish(self) -> None:
        """Wait until every copy queued so far is in its host array; then raise the first
        failed one's error, if any."""
        tasks, self._tasks = self._tasks, []
        finish(tasks)


def download(device, host: np.ndarray | None = None) -> np.ndarray:
    """``device`` copied into ``host`` (default: a new array of its shape and type)
    through a :class:`Download`; the copy is complete on return.

    Examples
    --------
    >>> download(cuda.to_device(np.array([[1.5, 2.0]]))).tolist()
    [[1.5, 2.0]]
    """
    if host is None:
        host = np.empty(device.shape, dtype=device.dtype)
    with Download() as job:
        job.copy(device, host)
    return host
