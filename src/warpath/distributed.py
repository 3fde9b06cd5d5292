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
4. Rows come back as batches finish and go into the host matrix, or into an
   ``out=`` ``.npy`` memory map, behind a progress bar over batches.

A worker that dies mid-run loses nothing: the scheduler reruns its batches on
the others (the graph is replicated on all of them), and ``retries=`` reruns a
batch whose task raised.  Workers import warpath and numba compiles (or loads
from its on-disk cache, ``cache=True`` kernels) each kernel on its first use
in each worker process: the first call on a fresh cluster pays that, seconds
per method, later calls do not.

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
import math
import sys
import time
import uuid
import weakref

import numpy as np

try:
    import distributed
except ImportError as error:  # the optional extra is missing
    raise ImportError("warpath.distributed needs dask.distributed: "
                      "pip install 'warpath[distributed]'") from error

from . import api, methods
from .apsp.johnson import johnson_dtype, potentials, reweighted
from .apsp.memory import available_memory, matrix_bytes
from .errors import DeviceError, EmptyGraphError, MemoryLimitError, SourceError
from .graph import Graph
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


def _scatter(client, graph: Graph):
    """The future of the graph's shipment on every worker of ``client`` (sent once)."""
    per_client = _scattered.setdefault(client, weakref.WeakKeyDictionary())
    future = per_client.get(graph)
    if future is None or future.status != "finished":  # first call, or lost in a restart
        shipment, _ = _shipment(graph)
        future = client.scatter(shipment, broadcast=True, hash=False)
        per_client[graph] = future
    return future


def _solve_batch(shipment: _Shipment, batch, method, device, predecessors, options):
    """On a worker: one batch of rows, shifted back when the graph was reweighted.

    Returns ``(distances, predecessors, stats)`` with the distances exact int64
    (int64 max where unreachable) for integer weights, float64 (``inf``) otherwise.
    """
    result = api.multi_source(shipment.graph, batch, method=method, device=device,
                              predecessors=predecessors, **options)
    raw = result.exact_distances
    if raw is None:
        raw = result.distances
    if shipment.potentials is not None:
        raw = _shift_back(np.array(raw), batch, shipment.potentials)
    stats = {key: result.stats.get(key) for key in ("method", "device", "iterations",
                                                    "relaxations")}
    return raw, result.predecessors, stats


def _shift_back(rows, sources, h):
    """Johnson's ``d(s, t) = d_h(s, t) - h[s] + h[t]`` on reached entries, row by row so
    no batch-sized temporary is made; the same operation order as the single-process
    method, so float results agree to the bit."""
    unreached = np.iinfo(np.int64).max if rows.dtype.kind == "i" else np.inf
    for row, source in zip(rows, sources):
        reached = row != unreached
        row[reached] = row[reached] - h[source] + h[reached]
    return rows


def _distance_block(shipment, batch, method, device, options):
    """On a worker: one batch's float64 distances (``inf`` unreachable), for :func:`distance_array`."""
    raw, _, _ = _solve_batch(shipment, batch, method, device, False, options)
    return DistanceMatrix(batch, raw).distances


def _worker_memory(device, dask_worker=None):
    """On a worker (through ``client.run``): ``(host bytes, free GPU bytes or None)``."""
    host = dask_worker.memory_manager.memory_limit if dask_worker is not None else None
    host = host or available_memory() or 0
    gpu = None
    if device != "cpu" and _real_gpu():
        from numba import cuda

        gpu = int(cuda.current_context().get_memory_info().free)
    return int(host), gpu


def _batch_size(client, num_sources, num_vertices, predecessors, device, threads) -> int:
    """Rows per batch: what the tightest worker's memory holds, capped so each worker
    thread gets about ``BATCHES_PER_THREAD`` batches."""
    row_bytes = num_vertices * entry_bytes(predecessors)
    fits = min(rows_per_batch(host if gpu is None else min(host, gpu), row_bytes)
               for host, gpu in client.run(_worker_memory, device).values())
    balanced = math.ceil(num_sources / (BATCHES_PER_THREAD * threads))
    return max(1, min(fits, balanced, num_sources))


def _real_gpu() -> bool:
    """A GPU to size batches for or to give a worker (the simulator is neither)."""
    from .device import gpu_available, simulated

    return gpu_available() and not simulated()


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
    """Validate on the client; return ``(client, graph, sources, worker threads)``."""
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
    threads = sum(client.nthreads().values())
    return client, graph, sources, threads


def _split(sources, size):
    return [sources[i:i + size] for i in range(0, sources.size, size)]


class _Rows:
    """Where finished batches go: the host matrix (allocated on the first batch, in its
    dtype), or float64 ``.npy`` memory maps for ``out=`` / ``predecessors_out=``."""

    def __init__(self, shape, predecessors, out, predecessors_out):
        self.shape = shape
        self.distances = self.predecessors = None
        if out is not None:
            self.distances = np.lib.format.open_memmap(out, mode="w+", dtype=np.float64,
                                                       shape=shape)
        if predecessors and predecessors_out is not None:
            self.predecessors = np.lib.format.open_memmap(predecessors_out, mode="w+",
                                                          dtype=np.int64, shape=shape)
        elif predecessors:
            self.predecessors = np.empty(shape, dtype=np.int64)

    def put(self, start, sources, raw, predecessors):
        rows = slice(start, start + raw.shape[0])
        if self.distances is None:
            self.distances = np.empty(self.shape, dtype=raw.dtype)
        if self.distances.dtype != raw.dtype:  # out= holds float64 with inf
            raw = DistanceMatrix(sources, raw).distances
        self.distances[rows] = raw
        if self.predecessors is not None:
            self.predecessors[rows] = predecessors

    def flush(self):
        for array in (self.distances, self.predecessors):
            if isinstance(array, np.memmap):
                array.flush()


def _show_progress(progress) -> bool:
    if progress is not None:
        return bool(progress)
    return hasattr(sys.stderr, "isatty") and sys.stderr.isatty()


def _run_batches(client, shipment, batches, solve_args, retries, in_flight, bar, on_result):
    """Submit the batches a few at a time and hand each finished one to ``on_result``."""
    run = uuid.uuid4().hex[:12]
    todo = iter(enumerate(batches))
    index_of = {}
    outstanding = set()
    pending = distributed.as_completed()

    def submit_next():
        item = next(todo, None)
        if item is not None:
            i, batch = item
            future = client.submit(_solve_batch, shipment, batch, *solve_args,
                                   key=f"warpath-batch-{run}-{i}", retries=retries, pure=False)
            index_of[future.key] = i
            outstanding.add(future)
            pending.add(future)

    try:
        for _ in range(in_flight):
            submit_next()
        for future in pending:
            on_result(index_of.pop(future.key), *future.result())
            outstanding.discard(future)
            future.release()
            bar.update(1)
            submit_next()
    finally:
        if outstanding:  # an error stopped the run: drop what is still queued
            client.cancel(list(outstanding))


def multi_source(graph, sources, *, client=None, method="auto", device="auto",
                 predecessors=True, batch_size=None, out=None, predecessors_out=None,
                 retries=2, progress=None, **options):
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
        ``batch_size`` and ``workers``.  With ``out=`` the distances are the
        memory map.

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle anywhere (Johnson's potentials find it).
    SourceError, EmptyGraphError, MethodNotAvailable
        As :func:`warpath.multi_source`, raised on the client before any work is sent.
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
    client, graph, sources, threads = _prepare(client, graph, sources, method)
    if out is not None and predecessors and predecessors_out is None:
        raise ValueError("with out= and predecessors=True, name a predecessors_out= .npy file "
                         "too (or pass predecessors=False)")
    for path in (out, predecessors_out):
        if path is not None and not str(path).endswith(".npy"):
            raise ValueError(f"out= and predecessors_out= must be .npy files, not {str(path)!r}")
    if out is None:
        _check_host_matrix(sources.size, graph.num_vertices, predecessors)
    _, potential_stats = _shipment(graph)  # NegativeCycleError here, before any work is sent
    shipment = _scatter(client, graph)
    size = int(batch_size) if batch_size else _batch_size(
        client, sources.size, graph.num_vertices, predecessors, device, threads)
    if size < 1:
        raise ValueError(f"batch_size must be a positive number of sources, not {batch_size!r}")
    batches = _split(sources, size)
    rows = _Rows((sources.size, graph.num_vertices), predecessors, out, predecessors_out)
    totals = dict(potential_stats)
    ran = {"method": set(), "device": set()}

    def on_result(i, raw, batch_predecessors, stats):
        rows.put(i * size, batches[i], raw, batch_predecessors)
        for key in ("iterations", "relaxations"):
            totals[key] += int(stats[key] or 0)
        for key in ran:
            ran[key].add(str(stats[key]))

    from tqdm import tqdm

    with tqdm(total=len(batches), unit="batch", desc="warpath.distributed", file=sys.stderr,
              disable=not _show_progress(progress), leave=False) as bar:
        _run_batches(client, shipment, batches, (method, device, predecessors, options),
                     retries, IN_FLIGHT_PER_THREAD * threads, bar, on_result)
    rows.flush()
    stats = {"method": "+".join(sorted(ran["method"])),
             "device": "+".join(sorted(ran["device"])),
             "seconds": time.perf_counter() - start, **totals,
             "batches": len(batches), "batch_size": size, "workers": len(client.nthreads())}
    return DistanceMatrix(sources, rows.distances, rows.predecessors, stats=stats)


def apsp(graph, *, client=None, method="auto", device="auto", predecessors=True,
         batch_size=None, out=None, predecessors_out=None, retries=2, progress=None, **options):
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
                        retries=retries, progress=progress, **options)


def distance_array(graph, sources=None, *, client=None, method="auto", device="auto",
                   batch_size=None, **options):
    """The distances from ``sources`` (all vertices when ``None``) as a lazy dask array.

    One chunk of rows per batch, computed on the workers only when asked for,
    so a matrix larger than any one machine can stay on the cluster
    (``.persist()``) or stream to storage (``.to_zarr()``, ``da.store``).  Values are
    float64 with ``inf`` for unreachable, as ``DistanceMatrix.distances``.
    Parameters as :func:`multi_source` (no predecessors: query those rows
    with :func:`multi_source`).

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
    client, graph, sources, threads = _prepare(client, graph, sources, method)
    _shipment(graph)
    shipment = _scatter(client, graph)
    size = int(batch_size) if batch_size else _batch_size(
        client, sources.size, graph.num_vertices, False, device, threads)
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


def _check_host_matrix(rows: int, num_vertices: int, predecessors: bool) -> None:
    """Refuse, before any work, a result matrix larger than this host's free memory.

    Raises
    ------
    MemoryLimitError
        Naming the bytes needed and available, and the ways out.

    Examples
    --------
    >>> _check_host_matrix(10, 10, predecessors=True)
    """
    needed = matrix_bytes(rows, num_vertices, predecessors)
    available = available_memory()
    if available is not None and needed > available:
        raise MemoryLimitError(
            f"a {rows:,} x {num_vertices:,} distance matrix"
            f"{' with predecessors' if predecessors else ''} needs {needed / 2**30:.1f} GiB but "
            f"only {available / 2**30:.1f} GiB of memory is available; write it to disk with "
            "out=, or keep it on the cluster with warpath.distributed.distance_array")
