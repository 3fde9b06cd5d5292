"""Many-source and all-pairs shortest paths spread over Dask workers (``warpath[distributed]``).

A namespace beside the single-process entry points, with their signatures plus
``client=``: :func:`multi_source` and :func:`apsp` return the same
:class:`~warpath.DistanceMatrix` as :func:`warpath.multi_source` and
:func:`warpath.apsp` (bit for bit), and :func:`distance_array` keeps the rows
on the cluster as a dask array.  A namespace rather than a ``client=`` keyword
on the core functions, so that ``import warpath`` never imports dask and the
core entry points keep one job.

How a query runs:

1. The client validates the graph and the sources.  With negative weights it
   computes Johnson's potentials once (Bellman-Ford from a virtual source,
   :func:`warpath.apsp.johnson.potentials`); the workers get the reweighted,
   non-negative graph and shift their rows back, so a negative cycle raises
   :class:`~warpath.NegativeCycleError` (with the cycle) before any work is
   sent, wherever the cycle is.
2. The graph is scattered once to every worker; the future is cached per
   (client, graph), so later calls with the same :class:`~warpath.Graph` on
   the same client send nothing but sources.
3. The sources are split in batches sized to the workers' memory
   (:func:`rows_per_batch`; GPU memory on GPU workers).  Each batch is one
   Dask task, ``warpath.multi_source(graph, batch, method=, device=)`` on its
   worker, which picks the best single-device method there (the GPU's when
   the worker has one).  Only a few batches per worker are in flight at once,
   so a worker holds the graph plus about two batches.
4. Each batch's rows reach the client's result matrices, in the type the
   single-process call on the workers' device gives (int32 on a GPU where every
   path fits), behind a progress bar over batches.  When every worker runs on
   the client's host (a ``LocalCluster``, ``LocalCUDACluster``), the matrices
   are files in shared memory (or the ``out=`` files) and each worker writes its
   rows straight into them, a GPU through page-locked buffers, with
   :data:`WRITE_THREADS` threads side by side: only a few bytes of counters
   travel back (``transfer="shared"``).  A matrix in shared memory is a file
   per stripe of rows mapped side by side (:mod:`warpath.shared_rows`), since
   Linux writes one file for one writer at a time.  Otherwise the rows are sent
   to the client through Dask's comms (``transfer="send"``).
5. A GPU worker runs :data:`GPU_WORKER_THREADS` threads (the local clusters made
   here do; a worker with one thread works too, without the overlap): one thread
   at a time solves on the GPU, and the others hand their finished batches'
   rows over meanwhile (written or sent, shifted or widened on the host), their
   copies on streams of their own (:mod:`warpath.cuda.side_stream`), so a
   worker's time is about its GPU work rather than its GPU work plus its
   hand-over.  The client gives each worker a few batches per thread, then a
   new one whenever one of its batches ends (:func:`_run_batches`).

A worker that dies mid-run loses nothing: the scheduler reruns its batches on
the others (a batch cancelled because the graph's only copy died with the worker
is submitted again, with the graph sent again), and ``retries=`` reruns a batch
whose task raised; a rerun batch writes the same rows again.  Workers
import warpath and numba compiles (or loads from its on-disk cache,
``cache=True`` kernels) each kernel on its first use in each worker process:
the first call on a fresh cluster pays that, seconds per method, later calls
do not.

Examples
--------
>>> import warpath, warpath.distributed
>>> from distributed import Client
>>> g = warpath.generators.grid(6, 6, seed=0)
>>> with Client(processes=False, n_workers=2, threads_per_worker=1) as client:
...     m = warpath.distributed.apsp(g, client=client, batch_size=10)
>>> bool((m.distances == warpath.apsp(g).distances).all())
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import math
import os
import socket
import sys
import tempfile
import threading
import time
import uuid
import weakref
from concurrent.futures import wait as futures_wait

import numpy as np

try:
    import distributed
except ImportError as error:  # the optional extra is missing
    raise ImportError("warpath.distributed needs dask.distributed: "
                      "pip install 'warpath[distributed]'") from error

from distributed.comm import get_address_host

from . import api, methods, shared_rows
from .apsp.johnson import johnson_dtype, potentials, reweighted
from .apsp.matrices import host_matrix
from .apsp.memory import available_memory, matrix_bytes, result_dtype
from .dtypes import unreached_value
from .errors import ArgumentError, DeviceError, EmptyGraphError, MemoryLimitError, SourceError
from .graph import Graph
from .host_pool import finish
from .result import DistanceMatrix

# Share of a worker's free memory one batch may take: the rest is for the
# graph, the batch in flight beside it and Dask's own buffers.
MEMORY_FRACTION = 0.5
# Batches per worker thread when memory allows more rows: enough to balance
# uneven batches and keep a progress bar moving, few enough that each batch
# is large (a GPU wants thousands of sources at once).
BATCHES_PER_THREAD = 4
# Batches in flight per worker thread: one running, one queued behind it.
IN_FLIGHT_PER_THREAD = 2
#: Threads of each GPU worker of the local clusters made here: while one solves a batch on
#: the GPU, another writes the previous batch's rows into the result.
GPU_WORKER_THREADS = 2
# Seconds to wait for a first worker before saying the cluster has none.
WORKER_TIMEOUT = 60.0


def entry_bytes(predecessors: bool) -> int:
    """Worker memory per result entry: the method's distance and the copy sent back (8 + 8
    bytes), plus the same for predecessors when asked for.

    Examples
    --------
    >>> entry_bytes(True), entry_bytes(False)
    (32, 16)
    """
    return 16 + (16 if predecessors else 0)


def rows_per_batch(available_bytes: int, row_bytes: int, *,
                   fraction: float = MEMORY_FRACTION) -> int:
    """How many result rows of ``row_bytes`` fit in ``fraction`` of ``available_bytes`` (>= 1).

    Parameters
    ----------
    available_bytes : int
        Free memory on the worker: GPU memory on a GPU worker, host memory otherwise.
    row_bytes : int
        Bytes one source's row takes there: ``num_vertices * entry_bytes(predecessors)``.
    fraction : float
        The share of the free memory one batch may use.

    Examples
    --------
    >>> rows_per_batch(80 * 2**30, 100_000 * entry_bytes(True))   # an H100, V = 100,000
    13421
    >>> rows_per_batch(1000, 10**6)
    1
    """
    return max(1, int(available_bytes * fraction) // max(1, int(row_bytes)))


class _Shipment:
    """What every worker receives once: the graph as the workers solve it (reweighted when
    it has negative weights) and Johnson's potentials (``None`` without negative weights).

    Pickles as bare arrays, so whatever a worker caches on its graph (a GPU copy, say)
    never travels when Dask copies the shipment to another worker.
    """

    def __init__(self, indptr, indices, weights, directed, potentials):
        self.graph = Graph(indptr, indices, weights, directed=directed, validate=False)
        self.potentials = potentials

    def __reduce__(self):
        g = self.graph
        return _Shipment, (g.indptr, g.indices, g.weights, g.directed, self.potentials)


# Potentials are computed once per graph, the shipment scattered once per (client, graph).
_shipments: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_scattered: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shipment(graph: Graph) -> tuple[_Shipment, dict]:
    """The graph the workers solve and the potentials' counters (computed once per graph)."""
    if graph not in _shipments:
        stats = {"iterations": 0, "relaxations": 0}
        h, weights = None, graph.weights
        if graph.has_negative_weights:
            h, rounds, relaxations = potentials(graph, johnson_dtype(graph))
            weights = reweighted(graph, h)
            stats = {"iterations": int(rounds), "relaxations": int(relaxations)}
        _shipments[graph] = (_Shipment(graph.indptr, graph.indices, weights, graph.directed, h),
                             stats)
    return _shipments[graph]


def _scatter(client, graph: Graph, stale=None):
    """The future of the graph's shipment on every worker of ``client`` (sent once).

    It is sent again when it was lost (a restart; a dead worker that held the only copy,
    as Dask's active memory manager drops the copies no task waits for), or when it is
    ``stale``: a batch that depended on that future was cancelled."""
    per_client = _scattered.setdefault(client, weakref.WeakKeyDictionary())
    future = per_client.get(graph)
    if future is None or future is stale or future.status != "finished":
        shipment, _ = _shipment(graph)
        future = client.scatter(shipment, broadcast=True, hash=False)
        per_client[graph] = future
    return future


@dataclasses.dataclass(frozen=True)
class _Layout:
    """How a batch hands its rows over (sent with every batch, a few hundred bytes).

    The stored types of the result (``predecessor_dtype`` is ``None`` without
    predecessors), and the files the worker writes its rows into
    (:class:`shared_rows.RowFiles`, ``transfer="shared"``), or ``None``: the rows
    go back in the task's result.
    """

    distance_dtype: np.dtype
    predecessor_dtype: np.dtype | None = None
    distance_files: shared_rows.RowFiles | None = None
    predecessor_files: shared_rows.RowFiles | None = None


def _solve_batch(shipment: _Shipment, batch, start, layout: _Layout, method, device, options):
    """On a worker: one batch of rows, shifted back when the graph was reweighted, in the
    layout's types.

    Returns ``(distances, predecessors, stats)``: the rows when they are sent,
    ``None`` when they were written into the shared files.
    """
    began = time.perf_counter()
    on_gpu = _runs_on(device, method) == "cuda"
    with _gpu_turn if on_gpu else contextlib.nullcontext():
        turn = time.perf_counter()
        result = api.multi_source(shipment.graph, batch, method=method, device=device,
                                  predecessors=layout.predecessor_dtype is not None, **options)
        # The rows are copied after this batch's kernels alone, not after the next batch's,
        # which another thread of this worker queues once the turn is passed on.
        done = _gpu_mark() if on_gpu else None
    solved = time.perf_counter()
    try:
        stats = {key: result.stats.get(key) for key in ("method", "device", "iterations",
                                                        "relaxations")}
        stats["worker"] = _worker_address()
        h = shipment.potentials
        distances = _hand_over(layout.distance_files, start,
                               result.device_distances if h is None else None,
                               layout.distance_dtype,
                               lambda: _distance_rows(result, batch, h, layout.distance_dtype,
                                                      done),
                               done)
        predecessors = None
        if layout.predecessor_dtype is not None:
            predecessors = _hand_over(layout.predecessor_files, start,
                                      result._arrays.device_predecessors,
                                      layout.predecessor_dtype,
                                      lambda: _predecessor_rows(result, layout.predecessor_dtype,
                                                                done),
                                      done)
    finally:
        if done is not None:
            done.release()
    stats["gpu_wait_seconds"] = turn - began
    stats["solve_seconds"] = solved - turn
    stats["hand_over_seconds"] = time.perf_counter() - solved
    return distances, predecessors, stats


# One batch at a time solves on a worker's GPU; its other threads hand rows over meanwhile.
_gpu_turn = threading.Lock()


def _gpu_mark():
    from .cuda import side_stream

    return side_stream.mark()


@functools.lru_cache(maxsize=None)
def _runs_on(device, method) -> str:
    """On a worker: the device that ``device=`` and ``method=`` resolve to there."""
    from .device import resolve_device

    return resolve_device(device, "multi_source", method)


def _worker_address():
    """The address of the Dask worker running this task (``None`` outside one)."""
    try:
        return distributed.get_worker().address
    except ValueError:
        return None


def _hand_over(files, start, device_rows, dtype, host_rows, done=None):
    """The rows to send (``files`` is ``None``), else ``None`` once they are in ``files``
    (:class:`shared_rows.RowFiles`): straight from the GPU when ``device_rows`` are there in
    ``dtype`` (copied after the work that ``done``, a :class:`side_stream.Mark`, marks),
    else ``host_rows()``."""
    if files is None:
        return host_rows()
    if hasattr(device_rows, "copy_to_host") and device_rows.dtype == dtype:
        _write_device_rows(files, start, device_rows, done)
    else:
        _write_rows(files, start, host_rows())
    return None


def _stored_rows(device_rows, host_rows, done=None) -> np.ndarray:
    """A batch's rows on the host as the method stored them: ``host_rows()`` when the method
    ran on the CPU, else copied from ``device_rows``, after the work that ``done`` (a
    :class:`side_stream.Mark`) marks when given, so beside the next batch's solve."""
    if not hasattr(device_rows, "copy_to_host"):
        return host_rows()
    return _copy_to_host(device_rows, np.empty(device_rows.shape, device_rows.dtype), done)


def _copy_to_host(device_rows, host, done=None) -> np.ndarray:
    """Copy C-contiguous ``device_rows`` into ``host`` (their bytes, in any shape): after
    the work that ``done`` (a :class:`side_stream.Mark`) marks, on this thread's own stream,
    or without it numba's copy on its default stream."""
    if done is not None:
        return done.copy_to_host(device_rows, host)
    device_rows.copy_to_host(ary=host.view(device_rows.dtype).reshape(device_rows.shape))
    return host


def _distance_rows(result, sources, h, dtype, done=None) -> np.ndarray:
    """A batch's distances on the host in ``dtype``, shifted back by Johnson's
    ``d(s, t) = d_h(s, t) - h[s] + h[t]`` on reached entries when ``h`` is given.

    Reads the method's own array (before the result's float64 and int64 conversions), so
    rows already in ``dtype`` are not copied again; a GPU's through :func:`_stored_rows`.
    """
    raw = _stored_rows(result.device_distances, lambda: result.stored_distances, done)
    if h is None and raw.dtype == dtype:
        return raw
    rows = np.empty(raw.shape, dtype=dtype)
    # Row by row, so no batch-sized temporary is made; exact int64 or float64 arithmetic in
    # the single-process method's order, so results agree to the bit.
    raw_unreached, unreached = unreached_value(raw.dtype), unreached_value(dtype)
    work = np.int64 if raw.dtype.kind in "iu" else np.float64
    for row, out, source in zip(raw, rows, sources):
        reached = row != raw_unreached
        values = row[reached].astype(work)
        if h is not None:
            values = values - h[source] + h[reached]
        out.fill(unreached)
        out[reached] = values
    return rows


def _predecessor_rows(result, dtype, done=None) -> np.ndarray:
    """A batch's predecessors (-1 for none) on the host in ``dtype`` (a GPU's through
    :func:`_stored_rows`)."""
    arrays = result._arrays
    raw = _stored_rows(arrays.device_predecessors, lambda: arrays._raw_predecessors, done)
    return raw.astype(dtype, copy=False)


def _write_piece(path, position, rows) -> None:
    """On a worker: :func:`shared_rows.write_piece`, saying which file it cannot see."""
    try:
        shared_rows.write_piece(path, position, rows)
    except FileNotFoundError:
        raise DeviceError(f"this worker ({socket.gethostname()}) cannot see the result file "
                          f"{path} that the client made: transfer='shared' needs the workers on "
                          "the client's host, sharing its files; use transfer='send'") from None


#: Threads of a worker process that write its rows into the result's files side by side
#: (each into another stripe file, which Linux writes in parallel: :mod:`warpath.shared_rows`).
WRITE_THREADS = 4


def _writers():
    """This process's pool of :data:`WRITE_THREADS` writer threads
    (:func:`warpath.host_pool.pool`: made on first use, again in a forked child)."""
    from .host_pool import pool

    return pool("write", WRITE_THREADS)


def _write_rows(files, start, rows) -> None:
    """On a worker: put host ``rows`` (the files' type) at row ``start`` of ``files``
    (:class:`shared_rows.RowFiles`), a piece per stripe file, pieces side by side."""
    data = shared_rows.as_bytes(rows)
    pieces = files.pieces(start, rows.shape[0])
    if len(pieces) == 1:
        path, position, _, _ = pieces[0]
        _write_piece(path, position, data)
        return
    finish([_writers().submit(_write_piece, path, position, data[first:first + size])
             for path, position, first, size in pieces])


#: Bytes of each page-locked buffer through which a GPU worker's rows go to the files.
STAGING_BYTES = 64 * 2**20
# Per worker thread (threads run batches side by side): WRITE_THREADS + 1 of those buffers,
# made on first use and kept, so later batches and calls pay no allocation.
_staging = threading.local()


def _staging_buffers(nbytes):
    """This thread's page-locked buffers, ``WRITE_THREADS + 1`` of at least ``nbytes``."""
    from numba import cuda

    buffers = getattr(_staging, "buffers", [])
    if len(buffers) != WRITE_THREADS + 1 or buffers[0].size < nbytes:
        buffers = _staging.buffers = [cuda.pinned_array(nbytes, np.uint8)
                                      for _ in range(WRITE_THREADS + 1)]
    return buffers


def _write_device_rows(files, start, device_rows, done=None) -> None:
    """On a GPU worker: its rows copied to the host a block at a time into page-locked
    buffers (full-speed copies, no page faults) in turn, each block's pieces (one per stripe
    file it covers) written by the writer threads while this thread copies the next.

    With ``done`` (a :class:`side_stream.Mark`) the copies wait only for the marked work, on
    this thread's own stream; without, they are numba's copies on its default stream."""
    count, width = device_rows.shape
    row_bytes = width * device_rows.dtype.itemsize
    buffers = _staging_buffers(max(STAGING_BYTES, row_bytes))
    per_block = buffers[0].size // row_bytes
    writes = [[] for _ in buffers]  # the writes still reading each buffer
    try:
        for block, first in enumerate(range(0, count, per_block)):
            rows = min(per_block, count - first)
            slot = block % len(buffers)
            finish(writes[slot])  # the buffer's previous block is written
            host = buffers[slot][:rows * row_bytes]
            _copy_to_host(device_rows[first:first + rows], host, done)
            writes[slot] = [_writers().submit(_write_piece, path, position, host[at:at + size])
                            for path, position, at, size in files.pieces(start + first, rows)]
    except BaseException:
        futures_wait([write for slot in writes for write in slot])
        raise
    finish([write for slot in writes for write in slot])


def _distance_block(shipment, batch, method, device, options):
    """On a worker: one batch's float64 distances (``inf`` unreachable), for
    :func:`distance_array`."""
    dist, _, _ = _solve_batch(shipment, batch, 0, _Layout(np.dtype(np.float64)), method,
                              device, options)
    return dist


def _worker_facts(device, method, dask_worker=None):
    """On a worker (through ``client.run``): ``(host bytes, free GPU bytes or None, the
    device that ``device=`` and ``method=`` run on there)``."""
    from .device import simulated

    runs_on = _runs_on(device, method)
    host = dask_worker.memory_manager.memory_limit if dask_worker is not None else None
    host = host or available_memory() or 0
    gpu = None
    if runs_on == "cuda" and not simulated():
        from numba import cuda

        gpu = int(cuda.current_context().get_memory_info().free)
    return int(host), gpu, runs_on


def _batch_size(facts, num_sources, num_vertices, predecessors, worker_threads) -> int:
    """Rows per batch: what the tightest worker's memory holds with a batch per thread
    (``worker_threads``: threads per worker address, ``client.nthreads()``), capped so each
    worker thread gets about ``BATCHES_PER_THREAD`` batches.

    Examples
    --------
    >>> facts = {"a": (64 * 2**30, 8 * 2**30, "cuda")}   # 64 GiB host, 8 GiB free GPU
    >>> _batch_size(facts, 10**6, 10**5, False, {"a": 1}), _batch_size(
    ...     facts, 10**6, 10**5, False, {"a": 2})
    (2684, 1342)
    """
    row_bytes = num_vertices * entry_bytes(predecessors)
    fits = min(rows_per_batch((host if gpu is None else min(host, gpu))
                              // max(1, worker_threads.get(address, 1)), row_bytes)
               for address, (host, gpu, _) in facts.items())
    balanced = math.ceil(num_sources / (BATCHES_PER_THREAD * sum(worker_threads.values())))
    return max(1, min(fits, balanced, num_sources))


def _stored_types(graph, devices, shifted, predecessors, out, predecessors_out):
    """``(distance dtype, predecessor dtype or None)`` of the result matrices.

    The single-process call's types on the workers' device (the widest when the
    workers differ): int32 distances and predecessors from GPUs where they fit,
    int64 / float64 from CPUs; float64 for floats shifted back by potentials
    (they are, in float64); the documented float64 and int64 in ``out=`` files.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(10, seed=0)
    >>> _stored_types(g, ["cuda"], False, True, None, None)
    (dtype('int32'), dtype('int32'))
    >>> _stored_types(g, ["cpu", "cuda"], False, False, None, None)
    (dtype('int64'), None)
    """
    dist = np.result_type(*(result_dtype(graph, device) for device in devices))
    if out is not None or (shifted and dist.kind == "f"):
        dist = np.dtype(np.float64)
    if not predecessors:
        return dist, None
    # A GPU's predecessors are vertex indices in the graph's index type, a CPU's int64.
    pred = np.result_type(*(graph.indices.dtype if device == "cuda" else np.int64
                            for device in devices))
    return dist, np.dtype(np.int64) if predecessors_out is not None else pred


def _client(client):
    if client is not None:
        return client
    try:
        return distributed.get_client()
    except ValueError:
        raise ValueError("no Dask client: pass client=distributed.Client(...) or create one "
                         "first (it becomes the default)") from None


def _check_method(method):
    """Workers run ``multi_source`` per batch, so the method must be one of its names."""
    if method == "auto":
        return
    names = sorted({m.name for m in methods.available("multi_source")})
    if method not in names:
        raise methods.MethodNotAvailable(
            f"the distributed path solves batches of sources with multi_source, which has no "
            f"method {method!r}; use 'auto' or one of: {', '.join(names)}")


def _check_sources(graph: Graph, sources) -> np.ndarray:
    """The sources as int64, or the same :class:`SourceError` the single-process call raises."""
    array = np.atleast_1d(np.asarray(sources))
    if array.ndim != 1 or array.size == 0:
        raise SourceError("sources must be a non-empty list of vertex indices")
    if array.dtype.kind in "iu":
        bad = np.flatnonzero((array < 0) | (array >= graph.num_vertices))
        if bad.size == 0:
            return array.astype(np.int64)
        api.check_source(graph, array[bad[0]])
    return np.array([api.check_source(graph, s) for s in array], dtype=np.int64)


def _prepare(client, graph, sources, method):
    """Validate on the client; return ``(client, graph, sources)``."""
    client = _client(client)
    graph = api.as_graph(graph)
    if graph.num_vertices == 0:
        raise EmptyGraphError("a distributed query needs a graph with at least one vertex")
    _check_method(method)
    sources = _check_sources(graph, sources)
    try:
        client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
    except TimeoutError:
        raise DeviceError(f"no Dask worker joined the cluster of {client} within "
                          f"{WORKER_TIMEOUT:.0f} s") from None
    return client, graph, sources


def _split(sources, size):
    return [sources[i:i + size] for i in range(0, sources.size, size)]


#: How rows reach the client: see :func:`choose_transfer`.
TRANSFERS = ("auto", "shared", "send")


def local_hosts() -> set[str]:
    """The names and addresses of this host: loopback, host names, every interface's IP.

    Examples
    --------
    >>> {"127.0.0.1", "localhost"} <= local_hosts()
    True
    """
    import psutil  # a dependency of dask.distributed

    hosts = {"localhost", "127.0.0.1", "::1", socket.gethostname(), socket.getfqdn()}
    for addresses in psutil.net_if_addrs().values():
        hosts.update(a.address.split("%")[0] for a in addresses  # drop an IPv6 zone
                     if a.family in (socket.AF_INET, socket.AF_INET6))
    return hosts


def choose_transfer(transfer, workers, hosts=None) -> str:
    """``"shared"`` or ``"send"``: how the workers hand their rows to the client.

    ``"shared"``: each worker writes its rows into the client's result files
    (memory maps in shared memory, or the ``out=`` files), which needs every
    worker on the client's host.  ``"send"``: the rows travel through Dask's
    comms to the client, which copies them in (any cluster).  ``"auto"`` takes
    ``"shared"`` when every worker's host is one of ``hosts`` (and the system
    has ``os.pwrite``: not Windows), else ``"send"``.

    Parameters
    ----------
    transfer : {"auto", "shared", "send"}
    workers : iterable of str
        The workers' addresses: ``client.nthreads()`` or
        ``client.scheduler_info()["workers"]`` (its keys).
    hosts : set of str, optional
        This host's names and addresses; :func:`local_hosts` by default.

    Raises
    ------
    ArgumentError
        For another ``transfer``, or ``"shared"`` with a worker on another host.

    Examples
    --------
    >>> choose_transfer("auto", {"tcp://127.0.0.1:40331": {}, "tcp://127.0.0.1:39551": {}})
    'shared'
    >>> choose_transfer("auto", ["tcp://127.0.0.1:40331", "tcp://10.1.2.3:40331"], {"127.0.0.1"})
    'send'
    """
    if transfer not in TRANSFERS:
        raise ArgumentError(f"transfer must be one of {', '.join(map(repr, TRANSFERS))}, "
                            f"not {transfer!r}")
    if transfer == "send":
        return "send"
    if not hasattr(os, "pwrite"):  # Windows: the workers' positioned writes are POSIX
        if transfer == "shared":
            raise ArgumentError("transfer='shared' needs os.pwrite, which this system lacks; "
                                "use transfer='send'")
        return "send"
    hosts = local_hosts() if hosts is None else hosts
    remote = sorted({get_address_host(address) for address in workers
                     if not str(address).startswith("inproc://")} - hosts)  # inproc: this process
    if not remote:
        return "shared"
    if transfer == "shared":
        raise ArgumentError(f"transfer='shared' needs every worker on this host, but some run "
                            f"on {', '.join(remote)}; use transfer='send' (or 'auto')")
    return "send"


def _workers_see(client, path) -> bool:
    """Whether every worker opens the same ``path`` (not so when they share the host's
    network but not its files, as containers do)."""
    return all(client.run(os.path.exists, path).values())


class _Rows:
    """The client's result matrices and the :class:`_Layout` that says how batches fill them.

    With ``transfer="send"``: host matrices (or the ``out=`` memory maps) that
    :meth:`put` copies sent rows into.  With ``"shared"``: matrices the workers
    write into, the ``out=`` files or temporary ones in shared memory: on Linux
    a file per stripe of rows, mapped side by side (:mod:`warpath.shared_rows`:
    workers writing different batches write different files, which the kernel
    does in parallel), elsewhere one ``.npy`` file each.
    """

    def __init__(self, shape, dtypes, out, predecessors_out, transfer):
        self.shape = shape
        self.transfer = transfer
        # Temporary files are unlinked when the run ends (release()); the client's mapping
        # keeps their memory until the result is freed.  Unlinking right after mapping
        # would free it the same way, but the workers open them by name during the run.
        # The cost: a client killed mid-run leaves its warpath-* files in /dev/shm, holding
        # memory until removed.
        self._striped, self._temporary = [], []
        matrices, files = [None, None], [None, None]
        try:
            for i, (dtype, path) in enumerate(zip(dtypes, (out, predecessors_out))):
                if dtype is not None:
                    matrices[i], files[i] = self._matrix(shape, dtype, path)
        except BaseException:
            self._unlink()
            raise
        self.distances, self.predecessors = matrices
        self.layout = _Layout(dtypes[0], dtypes[1], *files)
        # The distances' and predecessors' files in turn: the order batches write them in.
        per_matrix = [striped.paths for striped in self._striped]
        per_matrix += [[path] for path in self._temporary]
        in_turn = [p for paths in itertools.zip_longest(*per_matrix) for p in paths if p]
        self._allocation = shared_rows.Preallocation(
            [path for path in in_turn if path.startswith("/dev/shm/")])

    def _matrix(self, shape, dtype, path):
        """One result matrix and the :class:`shared_rows.RowFiles` the workers write it by
        (``None`` when rows are sent)."""
        if self.transfer == "shared" and path is None:
            folder = shared_rows.shared_folder(math.prod(shape) * dtype.itemsize)
            if shared_rows.supported():
                striped = shared_rows.striped_matrix(shape, dtype, folder)
                self._striped.append(striped)
                return striped.array, striped.files
            fd, path = tempfile.mkstemp(prefix="warpath-", suffix=".npy", dir=folder)
            os.close(fd)
            self._temporary.append(path)
        path = None if path is None else os.path.abspath(path)
        matrix = host_matrix(path, dtype, shape)
        if self.transfer != "shared":
            return matrix, None
        return matrix, shared_rows.RowFiles(path, matrix.offset, shape[1] * dtype.itemsize)

    def put(self, start, distances, predecessors):
        """Copy sent rows in (nothing to do for rows the workers wrote themselves)."""
        if distances is not None:
            self.distances[start:start + distances.shape[0]] = distances
        if predecessors is not None:
            self.predecessors[start:start + predecessors.shape[0]] = predecessors

    def release(self):
        """Flush the memory maps and unlink the temporary files (their maps stay valid)."""
        self._allocation.stop()
        for array in (self.distances, self.predecessors):
            if isinstance(array, np.memmap):
                array.flush()
        self._unlink()

    def _unlink(self):
        for striped in self._striped:
            striped.unlink()
        for path in self._temporary:
            os.unlink(path)
        self._striped, self._temporary = [], []


def _result_rows(client, transfer, shape, dtypes, out, predecessors_out) -> _Rows:
    """The result matrices for ``transfer`` (see :func:`choose_transfer`); ``"auto"`` falls
    back to ``"send"`` when the workers cannot open the client's files."""
    chosen = choose_transfer(transfer, client.nthreads())
    rows = _Rows(shape, dtypes, out, predecessors_out, chosen)
    if chosen == "send":
        return rows
    path = rows.layout.distance_files.path_of(0)
    try:
        seen = _workers_see(client, path)
    except BaseException:
        rows.release()
        raise
    if seen:
        return rows
    rows.release()
    if transfer == "shared":
        raise DeviceError(f"transfer='shared': the workers cannot open {path}, a file of the "
                          "client's host; use transfer='send'")
    return _Rows(shape, dtypes, out, predecessors_out, "send")


def _show_progress(progress) -> bool:
    if progress is not None:
        return bool(progress)
    return hasattr(sys.stderr, "isatty") and sys.stderr.isatty()


def _run_batches(client, ship, batches, solve_args, retries, worker_threads, bar, on_result):
    """Submit the batches a few at a time and hand each finished one to ``on_result``, with
    its first row's index and its number of rows.

    Each worker is given ``IN_FLIGHT_PER_THREAD`` batches per thread (``worker_threads``:
    threads per worker address), then a new batch whenever one of its batches finishes: a
    worker that runs faster gets more batches.  Left to itself the scheduler would send
    most batches to the worker that holds the graph (its only copy: Dask's active memory
    manager drops the others), and the run would last as long as that worker's queue.  The
    placement is a preference (``allow_other_workers``): a batch of a worker that dies
    runs elsewhere.

    ``ship(stale)`` gives the future of the graph on the workers, sent again when it is
    ``stale``.  A batch whose future the scheduler cancels (it forgets a task whose worker
    died at the wrong moment, "already forgotten", or the graph's only copy died with its
    worker) is submitted again, up to ``retries`` times, on a graph sent again."""
    from distributed.utils import CancelledError

    run = uuid.uuid4().hex[:12]
    starts = np.cumsum([0] + [batch.size for batch in batches])
    todo = iter(enumerate(batches))
    index_of = {}
    outstanding = set()
    pending = distributed.as_completed()

    def submit(i, attempt=0, stale=None, worker=None):
        shipment = ship(stale)
        placement = {} if worker is None else {"workers": [worker], "allow_other_workers": True}
        future = client.submit(_solve_batch, shipment, batches[i], int(starts[i]), *solve_args,
                               key=f"warpath-batch-{run}-{i}-{attempt}", retries=retries,
                               pure=False, **placement)
        index_of[future.key] = (i, attempt, shipment)
        outstanding.add(future)
        pending.add(future)

    def submit_next(worker):
        item = next(todo, None)
        if item is not None:
            submit(item[0], worker=worker)

    finished = 0
    try:
        # In turns over the workers, so that a run of few batches spreads over all of them;
        # with no worker listed (all left since the call began), the scheduler places them.
        slots = sorted(worker_threads.items()) or [(None, 1)]
        for turn in range(IN_FLIGHT_PER_THREAD * max(threads for _, threads in slots)):
            for worker, threads in slots:
                if turn < IN_FLIGHT_PER_THREAD * threads:
                    submit_next(worker)
        for future in pending:
            i, attempt, shipment = index_of.pop(future.key)
            outstanding.discard(future)
            try:
                solved = future.result()
            except CancelledError:
                if attempt >= retries:
                    raise
                submit(i, attempt + 1, stale=shipment)
                continue
            on_result(int(starts[i]), int(batches[i].size), *solved)
            finished += 1
            future.release()
            bar.update(1)
            submit_next(solved[2].get("worker"))
    finally:
        if outstanding:  # an error stopped the run: drop what is still queued
            client.cancel(list(outstanding))
    if finished != len(batches):  # never a result with rows left unwritten
        raise RuntimeError(f"{len(batches) - finished} of {len(batches)} batches never ran")


def multi_source(graph, sources, *, client=None, method="auto", device="auto",
                 predecessors=True, batch_size=None, out=None, predecessors_out=None,
                 transfer="auto", retries=2, progress=None, **options):
    """Shortest paths from each of several sources, batches of sources solved on Dask workers.

    Gives the same :class:`~warpath.DistanceMatrix` as :func:`warpath.multi_source`
    (same distances, exact integer distances and predecessors as its method
    on each worker).

    Parameters
    ----------
    graph : Graph, scipy sparse matrix or networkx graph
        Pass a :class:`~warpath.Graph` to reuse the copy already on the workers
        (it is cached per client and graph object).
    sources : array_like of int
        0-based sources (duplicates allowed).
    client : distributed.Client, optional
        The cluster to run on; the default client when ``None``.
    method : str
        Run by each worker through :func:`warpath.multi_source` on its batch:
        ``"auto"`` (the best method of the worker's device) or a ``multi_source`` method name.
    device : {"auto", "cpu", "cuda"}
        As seen by each worker: ``"auto"`` uses a worker's GPU when it has one.
    predecessors : bool
        Whether to compute predecessors (needed for ``path(s, t)``).
    batch_size : int, optional
        Sources per batch; by default what the tightest worker's free memory
        holds (:func:`rows_per_batch`, GPU memory on GPU workers), at most
        ``len(sources) / (4 * worker threads)`` so every thread gets several batches.
    out : str or path, optional
        A ``.npy`` file to write the float64 distances into (``inf`` unreachable),
        batch by batch through a memory map, instead of holding them in memory.
    predecessors_out : str or path, optional
        With ``out=`` and ``predecessors=True``: the ``.npy`` file for the int64 predecessors.
    transfer : {"auto", "shared", "send"}
        How the rows reach the client (:func:`choose_transfer`).  ``"shared"``:
        every worker writes its rows straight into the client's result matrices,
        ``.npy`` memory maps (the ``out=`` files, else temporary files in
        ``/dev/shm``, unlinked when the call returns); only for workers on the
        client's host.  ``"send"``: the rows travel through Dask's comms (any
        cluster).  ``"auto"``: ``"shared"`` when every worker runs on this host
        and opens its files, else ``"send"``.
    retries : int
        Reruns of a batch whose task raised (a worker that dies is handled by
        the scheduler regardless: its batches run elsewhere).
    progress : bool, optional
        A progress bar over batches on stderr; by default when stderr is a terminal.
    **options
        Method options, passed to each worker's call.

    Returns
    -------
    DistanceMatrix
        ``stats`` holds ``method`` and ``device`` (as the workers ran them),
        ``seconds`` (the whole distributed run), ``iterations`` and
        ``relaxations`` summed over batches (and the potentials), ``batches``,
        ``batch_size``, ``workers``, ``transfer`` (``"shared"`` or ``"send"``),
        ``rows_per_worker`` (rows solved by each worker's address), and the
        workers' ``solve_seconds`` and ``hand_over_seconds`` summed over batches
        (the method's call; writing or preparing the rows).
        The matrices hold the types the single-process call gives on the
        workers' device (int32 from a GPU where every path fits; ``.distances``
        reads float64, ``exact_distances`` int64); with ``out=`` the distances
        are its float64 memory map; with ``transfer="shared"`` they are memory
        maps of shared memory.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle anywhere (Johnson's potentials find it).
    SourceError, EmptyGraphError, MethodNotAvailable
        As :func:`warpath.multi_source`, raised on the client before any work is sent.
    ArgumentError
        For an unknown ``transfer``, or ``"shared"`` with a worker on another host.
    MemoryLimitError
        When the matrix would not fit in this machine's memory (use ``out=``).

    Examples
    --------
    >>> import warpath, warpath.distributed
    >>> from distributed import Client
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [4, -2, 1])
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1) as client:
    ...     m = warpath.distributed.multi_source(g, [2, 0], client=client)
    >>> m.distances.tolist(), m.path(2, 1).tolist()
    ([[1.0, 5.0, 0.0], [0.0, 4.0, 2.0]], [2, 0, 1])
    """
    start = time.perf_counter()
    client, graph, sources = _prepare(client, graph, sources, method)
    if out is not None and predecessors and predecessors_out is None:
        raise ValueError("with out= and predecessors=True, name a predecessors_out= .npy file "
                         "too (or pass predecessors=False)")
    for path in (out, predecessors_out):
        if path is not None and not str(path).endswith(".npy"):
            raise ValueError(f"out= and predecessors_out= must be .npy files, not {str(path)!r}")
    if batch_size is not None and int(batch_size) < 1:
        raise ValueError(f"batch_size must be a positive number of sources, not {batch_size!r}")
    choose_transfer(transfer, ())  # an unknown transfer= is refused before any work
    shipment, potential_stats = _shipment(graph)  # NegativeCycleError here, before any work
    _scatter(client, graph)  # sent before the workers are asked their facts
    facts = client.run(_worker_facts, device, method)
    size = int(batch_size) if batch_size else _batch_size(
        facts, sources.size, graph.num_vertices, predecessors, client.nthreads())
    batches = _split(sources, size)
    dtypes = _stored_types(graph, sorted({runs_on for _, _, runs_on in facts.values()}),
                           shipment.potentials is not None, predecessors, out, predecessors_out)
    if out is None:
        _check_host_matrix(sources.size, graph.num_vertices, dtypes)
    from tqdm import tqdm

    rows = _result_rows(client, transfer, (sources.size, graph.num_vertices), dtypes, out,
                        predecessors_out)
    totals = dict(potential_stats, gpu_wait_seconds=0.0, solve_seconds=0.0,
                  hand_over_seconds=0.0)
    ran = {"method": set(), "device": set()}
    rows_per_worker = {}

    def on_result(first_row, count, distances, batch_predecessors, stats):
        rows.put(first_row, distances, batch_predecessors)
        for key in ("iterations", "relaxations"):
            totals[key] += int(stats[key] or 0)
        for key in ("gpu_wait_seconds", "solve_seconds", "hand_over_seconds"):
            totals[key] += stats[key]
        for key in ran:
            ran[key].add(str(stats[key]))
        worker = str(stats["worker"])
        rows_per_worker[worker] = rows_per_worker.get(worker, 0) + count

    try:
        with tqdm(total=len(batches), unit="batch", desc="warpath.distributed",
                  file=sys.stderr, disable=not _show_progress(progress), leave=False) as bar:
            _run_batches(client, lambda stale: _scatter(client, graph, stale), batches,
                         (rows.layout, method, device, options), retries,
                         client.nthreads(), bar, on_result)
    finally:
        rows.release()
    stats = {"method": "+".join(sorted(ran["method"])),
             "device": "+".join(sorted(ran["device"])),
             "seconds": time.perf_counter() - start, **totals,
             "batches": len(batches), "batch_size": size, "workers": len(client.nthreads()),
             "transfer": rows.transfer, "rows_per_worker": rows_per_worker}
    return DistanceMatrix(sources, rows.distances, rows.predecessors, stats=stats)


def apsp(graph, *, client=None, method="auto", device="auto", predecessors=True,
         batch_size=None, out=None, predecessors_out=None, transfer="auto", retries=2,
         progress=None, **options):
    """All-pairs shortest paths on Dask workers: :func:`multi_source` from every vertex.

    Gives the same matrix as :func:`warpath.apsp`.  The workers solve batches
    of sources, so the method is a ``multi_source`` one (``johnson``,
    ``repeated-sssp``, a GPU method), never Floyd-Warshall.  Parameters,
    returns and errors as :func:`multi_source`.

    Examples
    --------
    >>> import warpath, warpath.distributed
    >>> from distributed import Client
    >>> g = warpath.Graph.from_edges([0, 1], [1, 0], [2, 3])
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1) as client:
    ...     warpath.distributed.apsp(g, client=client).distances.tolist()
    [[0.0, 2.0], [3.0, 0.0]]
    """
    graph = api.as_graph(graph)
    return multi_source(graph, np.arange(graph.num_vertices, dtype=np.int64), client=client,
                        method=method, device=device, predecessors=predecessors,
                        batch_size=batch_size, out=out, predecessors_out=predecessors_out,
                        transfer=transfer, retries=retries, progress=progress, **options)


def distance_array(graph, sources=None, *, client=None, method="auto", device="auto",
                   batch_size=None, **options):
    """The distances from ``sources`` (all vertices when ``None``) as a lazy dask array.

    One chunk of rows per batch, computed on the workers only when asked for,
    so a matrix larger than any one machine can stay on the cluster
    (``.persist()``) or stream to storage (``.to_zarr()``, ``da.store``).  Values are
    float64 with ``inf`` for unreachable, as ``DistanceMatrix.distances``.
    Parameters as :func:`multi_source` (no predecessors: query those rows
    with :func:`multi_source`).  The chunks read the graph scattered to the
    workers when the array was made: if it is lost (its only copy on a worker
    that died), computing raises ``CancelledError``; a new array, from a new
    call, sends the graph again.

    Examples
    --------
    >>> import warpath, warpath.distributed
    >>> from distributed import Client
    >>> g = warpath.generators.ring(5, seed=0)
    >>> with Client(processes=False, n_workers=1, threads_per_worker=1) as client:
    ...     d = warpath.distributed.distance_array(g, client=client, batch_size=2)
    ...     d.chunks[0], bool((d.compute() == warpath.apsp(g).distances).all())
    ((2, 2, 1), True)
    """
    import dask
    import dask.array as da

    graph = api.as_graph(graph)
    if sources is None:
        sources = np.arange(graph.num_vertices, dtype=np.int64)
    client, graph, sources = _prepare(client, graph, sources, method)
    _shipment(graph)
    shipment = _scatter(client, graph)
    size = int(batch_size) if batch_size else _batch_size(
        client.run(_worker_facts, device, method), sources.size, graph.num_vertices, False,
        client.nthreads())
    n = graph.num_vertices
    solve = dask.delayed(_distance_block, pure=True)
    blocks = [da.from_delayed(solve(shipment, batch, method, device, options),
                              shape=(batch.size, n), dtype=np.float64)
              for batch in _split(sources, size)]
    return da.concatenate(blocks, axis=0)


@contextlib.contextmanager
def cluster_client(scheduler=None, workers=None, device="auto"):
    """A Dask client for the command line: to ``scheduler``, or on a new local cluster.

    The local cluster has ``workers`` workers: one per GPU (the first
    ``workers`` visible ones, ``dask_cuda.LocalCUDACluster``) when a GPU is
    usable, ``dask_cuda`` is installed and ``device`` is not ``"cpu"``;
    otherwise ``workers`` single-threaded CPU worker processes.

    Raises
    ------
    DeviceError
        When more GPU workers are asked for than GPUs are visible.

    Examples
    --------
    >>> with cluster_client(workers=1, device="cpu") as client:
    ...     len(client.nthreads())
    1
    """
    if scheduler is not None:
        with distributed.Client(scheduler) as client:
            yield client
        return
    workers = int(workers or 1)
    with _local_cluster(workers, device) as local, distributed.Client(local) as client:
        yield client


def _real_gpu() -> bool:
    """A GPU to give a worker (the simulator is not one)."""
    from .device import gpu_available, simulated

    return gpu_available() and not simulated()


def _local_cluster(workers, device):
    if device != "cpu" and _real_gpu():
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            LocalCUDACluster = None
        if LocalCUDACluster is not None:
            from numba import cuda

            gpus = len(cuda.gpus)
            if workers > gpus:
                raise DeviceError(f"{workers} GPU workers asked for but {gpus} GPU(s) visible")
            return LocalCUDACluster(CUDA_VISIBLE_DEVICES=list(range(workers)),
                                    threads_per_worker=GPU_WORKER_THREADS,
                                    dashboard_address=":0")
    # ":0": a free port. The scheduler starts its HTTP server even without a dashboard,
    # and a second cluster on the default port 8787 fails to start.
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    dashboard_address=":0")


def apsp_on_cluster(graph, *, scheduler=None, workers=None, device="auto", **kwargs):
    """:func:`apsp` on the cluster at ``scheduler`` or on a local one of ``workers`` workers
    (see :func:`cluster_client`), closed afterwards: ``warpath apsp --scheduler/--workers``.

    Examples
    --------
    >>> import warpath
    >>> m = apsp_on_cluster(warpath.generators.ring(3, seed=0), workers=1, device="cpu")
    >>> m.distances.shape, m.stats["workers"]
    ((3, 3), 1)
    """
    graph = api.as_graph(graph)
    _shipment(graph)  # a negative cycle is found before a cluster is started
    with cluster_client(scheduler, workers, device) as client:
        return apsp(graph, client=client, device=device, **kwargs)


def _check_host_matrix(rows: int, num_vertices: int, dtypes) -> None:
    """Refuse, before any batch runs, a result matrix larger than this host's free memory.

    ``dtypes`` are the stored types (:func:`_stored_types`): int32 rows from GPUs
    need half the bytes of float64 ones.

    Raises
    ------
    MemoryLimitError
        Naming the bytes needed and available, and the ways out.

    Examples
    --------
    >>> _check_host_matrix(10, 10, (np.dtype(np.int32), None))
    >>> _check_host_matrix(10**6, 10**6, (np.dtype(np.int32), np.dtype(np.int32)))
    Traceback (most recent call last):
    ...
    warpath.errors.MemoryLimitError: a 1,000,000 x 1,000,000 distance matrix with predecessors needs 7450.6 GiB but only ...
    """
    distance_dtype, predecessor_dtype = dtypes
    predecessors = predecessor_dtype is not None
    needed = matrix_bytes(rows, num_vertices, predecessors, distance_dtype.itemsize,
                          predecessor_dtype.itemsize if predecessors else 0)
    available = available_memory()
    if available is not None and needed > available:
        raise MemoryLimitError(
            f"a {rows:,} x {num_vertices:,} distance matrix"
            f"{' with predecessors' if predecessors else ''} needs {needed / 2**30:.1f} GiB but "
            f"only {available / 2**30:.1f} GiB of memory is available; write it to disk with "
            "out=, or keep it on the cluster with warpath.distributed.distance_array")
