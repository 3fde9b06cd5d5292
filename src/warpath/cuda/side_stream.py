"""Copies to the host that wait only for the GPU work queued before them.

numba queues kernels and copies on one default stream, where each waits for everything
queued before it.  A Dask GPU worker with two threads (:mod:`warpath.distributed`) solves
one batch while it hands the previous batch's rows over: those rows' copies must wait
for the kernels that made them, not for the next batch's persistent kernel queued after
them, which lasts as long as that batch's solve.  :func:`mark` notes the work queued so
far on the default stream (a CUDA event); :meth:`Mark.copy_to_host` copies on this host
thread's own non-blocking stream once that work is done, beside whatever came later.

Under the simulator the copies are numba's plain ones.

Examples
--------
>>> from numba import cuda
>>> rows = cuda.to_device(np.arange(6, dtype=np.int32).reshape(2, 3))
>>> done = mark()
>>> done.copy_to_host(rows, np.zeros((2, 3), np.int32)).tolist()
[[0, 1, 2], [3, 4, 5]]
>>> done.release()
"""

from __future__ import annotations

import threading
import weakref

import numpy as np
from numba import cuda

from .runtime import SIMULATOR, default_stream

_streams = threading.local()


def _check(status, what: str) -> None:
    from cuda.bindings import driver

    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{what} failed: {status.name}")


def _own_stream():
    """This host thread's non-blocking stream in the current context, made once: work on it
    neither waits for numba's default stream nor holds it up."""
    from cuda.bindings import driver

    context = cuda.current_context()
    # One per numba context object (which is not hashable): a context made after
    # cuda.close() gets a new stream, the old one having gone with its context.
    streams = _streams.__dict__.setdefault("by_context", {})
    known = streams.get(id(context))
    if known is None or known[0]() is not context:
        status, stream = driver.cuStreamCreate(
            driver.CUstream_flags.CU_STREAM_NON_BLOCKING.value)
        _check(status, "making a copy stream")
        known = streams[id(context)] = (weakref.ref(context), stream)
    return known[1]


class Mark:
    """The GPU work queued on numba's default stream when :func:`mark` was called; copies
    after it.  :meth:`release` frees its event."""

    def __init__(self, event):
        self._event = event
        self._released = False

    def copy_to_host(self, device, host: np.ndarray) -> np.ndarray:
        """Copy the C-contiguous ``device`` array into ``host`` (same size in bytes; page-locked
        for a full-speed copy) once the marked work is done, and wait for the copy alone.

        Raises
        ------
        ValueError
            When the sizes differ or either array is not C-contiguous.
        """
        if self._released:
            raise ValueError("this mark was released")
        nbytes = device.size * device.dtype.itemsize
        if host.nbytes != nbytes:
            raise ValueError(f"cannot copy {device.shape} x {device.dtype} into "
                             f"{host.shape} x {host.dtype}: the sizes differ")
        if not host.flags["C_CONTIGUOUS"] or not device.is_c_contiguous():
            raise ValueError("copies after a mark take C-contiguous arrays only")
        if self._event is None:
            device.copy_to_host(ary=host.view(device.dtype).reshape(device.shape))
            return host
        from cuda.bindings import driver

        stream = _own_stream()
        status, = driver.cuStreamWaitEvent(stream, self._event, 0)
        _check(status, "waiting for the marked work")
        status, = driver.cuMemcpyDtoHAsync(host.ctypes.data, device.device_ctypes_pointer.value,
                                           nbytes, stream)
        _check(status, f"copying {nbytes} bytes to the host")
        status, = driver.cuStreamSynchronize(stream)
        _check(status, f"copying {nbytes} bytes to the host")
        return host

    def release(self) -> None:
        """Free the event (a second call does nothing)."""
        if self._event is not None and not self._released:
            from cuda.bindings import driver

            status, = driver.cuEventDestroy(self._event)
            _check(status, "freeing an event")
        self._released = True


def mark() -> Mark:
    """A :class:`Mark` of the work queued so far on numba's default stream, from this thread.

    Examples
    --------
    >>> m = mark(); m.release(); m.release()
    """
    if SIMULATOR:
        return Mark(None)
    from cuda.bindings import driver

    cuda.current_context()  # numba's context is this thread's current one
    status, event = driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING.value)
    _check(status, "making an event")
    status, = driver.cuEventRecord(event, default_stream())
    if status != driver.CUresult.CUDA_SUCCESS:
        driver.cuEventDestroy(event)
        _check(status, "recording an event")
    return Mark(event)
