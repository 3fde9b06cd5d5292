"""Where kernels run: the real GPU or numba's CUDA simulator, and launch shapes.

The simulator (``NUMBA_ENABLE_CUDASIM=1``) runs a Python thread per CUDA
thread, supports ``grid.sync()`` only in a one-block grid and has no warp
vote or shuffle intrinsics; the helpers here pick small shapes and simulator
fallbacks so that every kernel also runs in CI.

Examples
--------
>>> blocks_for(1000, 256)
4
"""

from __future__ import annotations

import functools
import os
import threading
import warnings

import numpy as np
from numba import cuda

# numba warns about every grid of fewer blocks than the GPU has SMs.  Small
# graphs and small frontiers legitimately launch such grids (a road graph's
# first rounds touch a handful of vertices): the warning would only reach
# users of the library and the command line, who cannot act on it.
warnings.filterwarnings("ignore", message=r".*will likely result in GPU under-utilization")

#: True under numba's CUDA simulator.
SIMULATOR = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def _one_shared_array_per_call_site() -> None:
    """Under the simulator, give every thread of a block the same ``cuda.shared.array``.

    numba's simulator (``FakeCUDAShared.array``, numba-cuda 0.30) keys a launch's
    shared arrays by the calling line: a thread looks the line up and, finding
    nothing, makes an array and stores it, with no lock.  Two threads whose first
    calls interleave between the look-up and the store each get an array of their
    own (``np.empty``: garbage) and never see the other's writes, which no GPU does:
    the balanced advance then read arcs at indices such as 7 * 10**17 (now and then
    with CPython's switch interval at 0.2 ms instead of 5).  Here the look-up and the
    store are one step under a lock, and the line is read from the caller's frame
    rather than from a formatted traceback of the whole stack.  Importing warpath under
    the simulator applies it to every kernel the process simulates, its caller's own
    included (they share the race); it can go once numba-cuda fixes it.

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def rotate(out):
    ...     shared = cuda.shared.array(32, np.int64)
    ...     shared[cuda.threadIdx.x] = cuda.threadIdx.x
    ...     cuda.syncthreads()
    ...     out[cuda.threadIdx.x] = shared[(cuda.threadIdx.x + 1) % 32]
    >>> out = cuda.device_array(32, np.int64)
    >>> rotate[1, 32](out); out.copy_to_host()[:4].tolist()
    [1, 2, 3, 4]
    """
    import sys

    from numba.cuda.simulator import kernelapi

    unsafe = kernelapi.FakeCUDAShared.array
    lock = threading.Lock()

    def array(self, shape, dtype, alignment=None):
        if alignment is not None or shape == 0:  # a refusal, or the one dynamic buffer
            return unsafe(self, shape, dtype, alignment)
        caller = sys._getframe(1)
        line = (caller.f_code.co_filename, caller.f_lineno)
        with lock:
            made = self._allocations.get(line)
            if made is None:
                if isinstance(dtype, kernelapi.types.Type):
                    dtype = kernelapi.numpy_support.as_dtype(dtype)
                made = self._allocations[line] = np.empty(shape, dtype)
        return made

    kernelapi.FakeCUDAShared.array = array


if SIMULATOR:
    _one_shared_array_per_call_site()

#: Threads per block: 256 on a GPU (8 warps: enough to hide latency, small
#: enough for several resident blocks per SM); 32 under the simulator, where
#: every thread is a Python thread.
THREADS = 32 if SIMULATOR else 256

#: Blocks per SM of a persistent cooperative grid (None: as many as fit).  A
#: grid.sync() costs more with more blocks (H100: 4.6 us with all 792 resident
#: blocks of 256 threads); the relaxing loops do little work per round on road
#: graphs, so fewer blocks can be faster.  Measured with bench/gpu_loop_overhead.py.
PERSISTENT_BLOCKS_PER_SM = 2

#: ... unless the work is large: a persistent grid whose passes hold more than this many
#: items per thread of that small grid (4.3M items on an H100: a 10M-vertex graph, a
#: 32-source task-parallel launch on 1M vertices) takes every block that can be resident.
#: Its loops wait on memory, and more warps in flight hide more of that wait; the costlier
#: ``grid.sync()`` is paid by few rounds of much work.
FILL_ITEMS_PER_THREAD = 64


def blocks_for(items: int, threads: int = THREADS) -> int:
    """Blocks of ``threads`` needed to give one thread to each of ``items`` (at least 1).

    Examples
    --------
    >>> blocks_for(0, 32), blocks_for(33, 32)
    (1, 2)
    """
    return max(1, -(-int(items) // threads))


#: Blocks an SM of a grid-stride kernel (:func:`stride_blocks`): two waves of the eight
#: blocks of :data:`THREADS` an SM holds.
STRIDE_BLOCKS_PER_SM = 16


@functools.lru_cache(maxsize=None)
def _sm_count() -> int:
    """The current device's SM count (one driver query)."""
    return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)


def stride_blocks(items: int, threads: int = THREADS) -> int:
    """Blocks of ``threads`` for a grid-stride kernel over ``items``: a thread an item, at
    most :data:`STRIDE_BLOCKS_PER_SM` an SM (under the simulator, two blocks).  A grid of
    one thread an entry over 4.1 GB of distances was 4M blocks, and filled them in 2.8 ms on
    the H200, half the bandwidth (docs/performance.md, thirty-fourth session).

    Examples
    --------
    >>> stride_blocks(10, 32)
    1
    >>> stride_blocks(10**9) < blocks_for(10**9)   # capped
    True
    """
    cap = 2 if SIMULATOR else STRIDE_BLOCKS_PER_SM * _sm_count()
    return min(blocks_for(items, threads), cap)


#: (max_cooperative_grid_blocks, the device's SM count) per (kernel, argument types, block
#: size); kernels live as long as their factories' caches, so their ids stay theirs.
_COOPERATIVE_LIMITS: dict = {}


def argument_types(args) -> tuple:
    """A cheap key for the specialization ``args`` select: dtype, dimensions and contiguity
    of arrays, the type of scalars, tuples element by element (numba's own ``typeof`` of
    a method's nested argument tuples costs ~0.3 ms a launch).

    Examples
    --------
    >>> import numpy as np
    >>> key = argument_types((np.zeros(2, np.int32), (np.int64(1), 2.0)))
    >>> key[0], key[1][1]
    ((dtype('int32'), 1, (True, True, True)), (<class 'numpy.int64'>, <class 'float'>))
    """
    key = []
    for a in args:
        if isinstance(a, tuple):
            key.append((type(a), argument_types(a)))  # a namedtuple class is part of the type
        elif isinstance(a, np.generic):
            key.append(type(a))
        elif hasattr(a, "dtype") and hasattr(a, "ndim"):
            flags = a.flags
            try:
                writeable = bool(flags["WRITEABLE"])  # read-only host arrays type apart
            except KeyError:  # device arrays' flags have no such entry
                writeable = True
            key.append((a.dtype, a.ndim, (bool(flags["C_CONTIGUOUS"]),
                                          bool(flags["F_CONTIGUOUS"]), writeable)))
        elif isinstance(a, int) and not isinstance(a, bool):
            key.append((int, a > np.iinfo(np.int64).max))  # numba: int64, or uint64 above
        else:
            key.append(type(a))
    return tuple(key)


def cooperative_blocks(kernel, args, items: int, threads: int = THREADS,
                       fill: bool = True, types=None) -> int:
    """The grid size for a persistent cooperative launch of ``kernel`` with ``args``.

    A kernel that calls ``cuda.cg.this_grid().sync()`` must have all its
    blocks resident at once, so the grid is capped at
    ``max_cooperative_grid_blocks`` (compiled for these argument types), and
    at :data:`PERSISTENT_BLOCKS_PER_SM` per SM unless ``items`` is large
    (:data:`FILL_ITEMS_PER_THREAD`) and ``fill`` allows it; it is also no
    larger than ``items`` needs.  The simulator allows one block.  ``types``: the
    :func:`argument_types` of ``args`` when the caller has them already.

    Examples
    --------
    >>> cooperative_blocks(None, (), 10) if SIMULATOR else 1
    1
    """
    if SIMULATOR:
        return 1
    key = (kernel, argument_types(args) if types is None else types, threads)
    if key not in _COOPERATIVE_LIMITS:   # driver queries (occupancy, SMs): once per kernel
        from numba import typeof

        compiled = kernel.compile(tuple(typeof(a) for a in args))
        _COOPERATIVE_LIMITS[key] = (compiled.max_cooperative_grid_blocks(threads),
                                    _sm_count())
    limit, sms = _COOPERATIVE_LIMITS[key]
    if limit < 1:
        raise RuntimeError("this kernel cannot be launched cooperatively on this GPU")
    if PERSISTENT_BLOCKS_PER_SM:
        small = PERSISTENT_BLOCKS_PER_SM * sms
        if not fill or items <= FILL_ITEMS_PER_THREAD * small * threads:
            limit = min(limit, small)
    return max(1, min(limit, blocks_for(items, threads)))


_pinned = threading.local()


def pinned_buffer(size: int, dtype, purpose: str = "") -> np.ndarray:
    """This host thread's page-locked buffer of ``size`` items of ``dtype`` for ``purpose``
    (buffers of different purposes never share memory), made once and reused: pinning
    memory costs far more than the small reads it serves (each query reads its flags and
    counters through one).  A read overwrites what the last one left.

    Examples
    --------
    >>> pinned_buffer(4, np.int64) is pinned_buffer(4, np.int64)
    True
    >>> pinned_buffer(4, np.int64) is pinned_buffer(4, np.int64, "pending")
    False
    """
    buffers = _pinned.__dict__.setdefault("buffers", {})
    key = (int(size), np.dtype(dtype), purpose)
    if key not in buffers:
        buffers[key] = cuda.pinned_array(key[0], dtype=key[1])
    return buffers[key]


def start_read(device, host: np.ndarray, done=None) -> None:
    """Queue the copy of the small C-contiguous ``device`` array into the page-locked
    ``host`` (a :func:`pinned_buffer`) on numba's default stream, after the work queued
    before it, and return at once: :func:`finish_read` waits for it.  Host work between
    the two overlaps the GPU's (e.g. a query's bookkeeping, while its kernel runs).
    ``done``: a :func:`read_event` recorded right behind the copy, so that a wait for
    this read need not wait for work queued after it (the next query's kernel).

    Examples
    --------
    >>> out = pinned_buffer(3, np.int64)
    >>> start_read(cuda.to_device(np.arange(3)), out); finish_read(); out.tolist()
    [0, 1, 2]
    """
    _check_small(device, host, f"cannot read {device.size} x {device.dtype} into "
                               f"{host.size} x {host.dtype}")
    if SIMULATOR:
        device.copy_to_host(host)
        return
    from cuda.bindings import driver

    stream = default_stream()
    status, = driver.cuMemcpyDtoHAsync(host.ctypes.data, device.device_ctypes_pointer.value,
                                       host.nbytes, stream)
    if status == driver.CUresult.CUDA_SUCCESS and done is not None:
        status, = driver.cuEventRecord(done, stream)
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"reading {host.nbytes} bytes back failed: {status.name}")


_events = threading.local()


def read_event(context):
    """This host thread's event for marking the end of a read (:func:`start_read`'s
    ``done``) in numba's ``context``, made once (``None`` under the simulator).  One
    event serves one pending read at a time: its wait must come before the thread's
    next read records it again (:meth:`~warpath.cuda.control.Control.read_later`
    sees to that).

    Examples
    --------
    >>> from numba import cuda
    >>> context = None if SIMULATOR else cuda.current_context()
    >>> read_event(context) is read_event(context)
    True
    """
    if SIMULATOR:
        return None
    events = _events.__dict__.setdefault("by_context", {})
    kept = events.get(id(context))   # numba keeps one context object per device
    if kept is None or kept[0] is not context:   # held: its id is not another's
        from cuda.bindings import driver

        status, event = driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING)
        if status != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"making an event for read backs failed: {status.name}")
        kept = events[id(context)] = (context, event)
    return kept[1]


def finish_read(context=None, done=None) -> None:
    """Wait for the reads :func:`start_read` queued (and all work queued before them) on
    this thread's default stream; with ``done`` (the read's :func:`read_event`), for that
    read alone and what was queued before it, on any thread: ``context`` (numba's context
    of a read that another host thread queued) is made current here for the wait.

    Examples
    --------
    >>> out = pinned_buffer(2, np.int64, "finish_read example")
    >>> start_read(cuda.to_device(np.array([1, 2], np.int64)), out); finish_read(); out.tolist()
    [1, 2]
    """
    if SIMULATOR:
        return
    from cuda.bindings import driver

    if done is None:
        status, = driver.cuStreamSynchronize(default_stream())
    else:
        if context is not None:
            context.push()
        try:
            status, = driver.cuEventSynchronize(done)
        finally:
            if context is not None:
                context.pop()
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"waiting for a read back failed: {status.name}")


def read_small(device, host: np.ndarray) -> np.ndarray:
    """Copy the small C-contiguous ``device`` array into ``host`` (same size and type; e.g. a
    :func:`pinned_buffer`) and wait for it: ``device.copy_to_host(host)`` in one driver copy
    on numba's default stream and one wait, without numba's per-call checks (24 us of host
    time on the H100 host for a query's 56-byte control block).

    Examples
    --------
    >>> out = np.zeros(3, np.int64)
    >>> read_small(cuda.to_device(np.arange(3)), out).tolist()
    [0, 1, 2]
    """
    start_read(device, host)
    finish_read()
    return host


def write_small(device, host: np.ndarray) -> None:
    """Copy the small C-contiguous, pageable ``host`` array into ``device`` (same size and
    type) in one driver copy on numba's default stream, without waiting for it and
    without numba's per-call checks (``copy_to_device`` made two array views each time,
    ~0.1-0.3 ms of host time on the H100 host).  Kernels queued after it see the values;
    ``host`` may change as soon as this returns, since the driver stages pageable memory
    before the call returns (so never pass a pinned buffer).

    Examples
    --------
    >>> d = cuda.device_array(3, np.int64)
    >>> write_small(d, np.arange(3)); d.copy_to_host().tolist()
    [0, 1, 2]
    """
    _check_small(device, host, f"cannot write {host.size} x {host.dtype} into "
                               f"{device.size} x {device.dtype}")
    if SIMULATOR:
        device.copy_to_device(host)
        return
    from cuda.bindings import driver

    status, = driver.cuMemcpyHtoDAsync(device.device_ctypes_pointer.value, host.ctypes.data,
                                       host.nbytes, default_stream())
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"writing {host.nbytes} bytes failed: {status.name}")


def _check_small(device, host: np.ndarray, refusal: str) -> None:
    """A small copy's two sides must hold as many items of one type, the host's
    C-contiguous."""
    if host.size != device.size or host.dtype != device.dtype \
            or not host.flags["C_CONTIGUOUS"]:
        raise ValueError(refusal)


@functools.lru_cache(maxsize=None)
def default_stream():
    """numba's default stream as a driver handle: the legacy one (0), or the per-thread one
    (2) when numba is configured so (``NUMBA_CUDA_PER_THREAD_DEFAULT_STREAM``, read once)."""
    from cuda.bindings import driver
    from numba.cuda.core import config

    return driver.CUstream(2 if getattr(config, "CUDA_PER_THREAD_DEFAULT_STREAM", False) else 0)


def synchronize() -> None:
    """Wait for all queued GPU work (used by timing code).

    Examples
    --------
    >>> synchronize()
    """
    cuda.synchronize()
