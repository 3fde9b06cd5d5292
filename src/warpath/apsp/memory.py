"""How much memory a many-source query needs, before it runs: one rule for the API and the CLI.

A query over ``rows`` sources of an ``n``-vertex graph (APSP: ``rows = n``)
keeps a ``rows x n`` distance matrix (:func:`result_dtype`: int64 or float64
on the CPU, the GPU's own type on the GPU, int32 where every path fits) and,
with predecessors, an int64 matrix of the same shape.  Reading
``result.distances`` of a result that is not float64 builds a float64 copy
(8 more bytes per pair); the command line reads it in row blocks instead.  Each method says what it needs on top through the
registry's ``memory=`` hook (Floyd-Warshall keeps its predecessor matrix while
it runs, even without ``predecessors=True``); a GPU method adds the bytes it
holds on the device the same way, and :func:`estimate` checks them against
the GPU's free memory.

Measured on the 2-core development machine (peak resident memory over the
interpreter's, ``tests/apsp/test_memory.py``): 24-25 bytes per pair for
integer weights with predecessors, 16-17 without, within 20% of
:func:`estimate` at 1,000 to 3,000 vertices.

Examples
--------
>>> import warpath
>>> g = warpath.generators.grid(20, 20, seed=0)
>>> e = estimate(g, method="johnson", device="cpu")
>>> e.rows, round(e.bytes_per_pair)   # int64 distances, predecessors, the float64 copy
(400, 24)
>>> e.fits
True
"""

from __future__ import annotations

import inspect
import math
import os
import shutil
from dataclasses import dataclass

import numpy as np

from .. import methods
from ..errors import MemoryLimitError

#: Bytes of one distance or predecessor entry (int64 or float64).
ENTRY_BYTES = 8
#: Bytes of an ``.npy`` file's header (numpy pads it to a multiple of 64).
NPY_HEADER_BYTES = 128
#: Bytes per vertex plus arc of the O(n + m) work arrays (heap, reweighted arcs, queues).
WORKSPACE_BYTES_PER_ITEM = 32
#: Progress steps of a chunked run, and the most bytes a chunk's temporaries may take.
CHUNKS = 100
CHUNK_BYTES = 64 * 2**20


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (``MemAvailable``), or ``None`` if unknown.

    Examples
    --------
    >>> m = available_memory()
    >>> m is None or m > 0
    True
    """
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def gpu_free_memory() -> int | None:
    """Free bytes on the current GPU, or ``None`` without a real one (the simulator has none),
    after the working arrays pooled by earlier queries are let go (:mod:`warpath.cuda.scratch`).

    Examples
    --------
    >>> free = gpu_free_memory()
    >>> free is None or free > 0
    True
    """
    from ..device import gpu_status, simulated

    if simulated() or not gpu_status()[0]:
        return None
    from numba import cuda

    from ..cuda.scratch import free_pending, release_all

    release_all()  # working arrays kept from earlier queries count as free
    free_pending()
    return int(cuda.current_context().get_memory_info()[0])


def matrix_bytes(rows: int, num_vertices: int, predecessors: bool,
                 distance_bytes: int = ENTRY_BYTES, predecessor_bytes: int = ENTRY_BYTES) -> int:
    """The bytes of a result: distances of ``distance_bytes`` each, plus predecessors of
    ``predecessor_bytes`` (int64 by default) when kept.

    Examples
    --------
    >>> matrix_bytes(10, 10, predecessors=True), matrix_bytes(10, 10, False, 4)
    (1600, 400)
    >>> matrix_bytes(10, 10, True, 4, 4)
    800
    """
    per_pair = int(distance_bytes) + (int(predecessor_bytes) if predecessors else 0)
    return int(rows) * int(num_vertices) * per_pair


def workspace_bytes(graph) -> int:
    """The O(n + m) work arrays a method keeps besides its matrices (an upper bound)."""
    return WORKSPACE_BYTES_PER_ITEM * (graph.num_vertices + graph.num_edges)


def result_memory(graph, rows, predecessors):
    """``memory=`` hook of the methods that fill the result matrices in place (host, GPU bytes).

    Examples
    --------
    >>> import warpath
    >>> result_memory(warpath.generators.ring(10, seed=0), 10, False)
    (1440, 0)
    """
    return matrix_bytes(rows, graph.num_vertices, predecessors) + workspace_bytes(graph), 0


def result_dtype(graph, device: str):
    """The type of a many-source result's distance matrix on ``device``: the one rule of
    :func:`warpath.dtypes.distance_dtype`, with the GPU's narrower types on ``"cuda"``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(10, seed=0)
    >>> result_dtype(g, "cpu"), result_dtype(g, "cuda")
    (dtype('int64'), dtype('int32'))
    """
    from ..dtypes import distance_dtype

    if device == "cuda":
        return distance_dtype(graph, (np.int32, np.int64), keep_float32=True, warn=False)
    return distance_dtype(graph, warn=False)


def chunk_rows(rows: int, num_vertices: int) -> int:
    """Sources per chunk of a chunked run: about ``CHUNKS`` steps, each chunk's
    temporaries at most ``CHUNK_BYTES``.

    Examples
    --------
    >>> chunk_rows(1000, 1000), chunk_rows(100_000, 100_000)
    (10, 83)
    """
    by_steps = math.ceil(rows / CHUNKS)
    by_bytes = CHUNK_BYTES // max(1, num_vertices * ENTRY_BYTES)
    return max(1, min(by_steps, by_bytes))


@dataclass(frozen=True)
class MemoryEstimate:
    """The memory (and disk) a query will take, and what this machine has.

    Attributes
    ----------
    problem, method, device : str
        The query and the method that will run it.
    rows, num_vertices : int
        The result's shape.
    predecessors : bool
    host_bytes, gpu_bytes : int
        Peak host and GPU memory of the run, its result included (unless it goes to disk).
    host_available, gpu_available : int or None
        What the machine has free (``None`` when unknown or not used).
    disk_bytes : int
        Bytes written to ``out=`` / ``predecessors_out=`` files (0 without them).
    disk_available : int or None
        Free bytes where those files go (``None`` without them).
    disk_folder : str or None
        The folder of the ``out=`` file (or of ``predecessors_out=``).
    """

    problem: str
    method: str
    device: str
    rows: int
    num_vertices: int
    predecessors: bool
    host_bytes: int
    gpu_bytes: int
    host_available: int | None
    gpu_available: int | None
    disk_bytes: int = 0
    disk_available: int | None = None
    disk_folder: str | None = None

    @property
    def bytes_per_pair(self) -> float:
        """Host bytes per (source, target) pair."""
        return self.host_bytes / max(1, self.rows * self.num_vertices)

    @property
    def npy_bytes(self) -> int:
        """The size of the distance matrix written as ``.npy`` (float64, plus a header)."""
        return self.rows * self.num_vertices * ENTRY_BYTES + NPY_HEADER_BYTES

    def _short(self):
        """``(what, needed, available)`` of each place that lacks room."""
        places = [("memory", self.host_bytes, self.host_available),
                  ("GPU memory", self.gpu_bytes, self.gpu_available),
                  (f"disk in {self.disk_folder}", self.disk_bytes, self.disk_available)]
        return [p for p in places if p[2] is not None and p[1] > p[2]]

    @property
    def fits(self) -> bool:
        """Whether the host, the GPU and the disk have the room the estimate asks for."""
        return not self._short()

    def check(self) -> "MemoryEstimate":
        """Return ``self`` when it fits, else raise :class:`~warpath.MemoryLimitError` saying
        what is needed, what is there and what would help."""
        short = self._short()
        if not short:
            return self
        what = (f"{self.problem} by {self.method} ({self.device}) on {self.num_vertices:,} "
                f"vertices" + (f" from {self.rows:,} sources" if self.rows != self.num_vertices
                               else ""))
        place, needed, available = short[0]
        per_pair = f" ({self.bytes_per_pair:.0f} bytes per pair)" if place == "memory" else ""
        message = (f"{what} needs about {_gib(needed)} of {place}{per_pair} but "
                   f"{_gib(available)} is {'available' if place == 'memory' else 'free'}")
        hints = []
        if self.predecessors:
            hints.append("no predecessors (predecessors=False, --no-predecessors)")
        if place != "GPU memory":
            hints.append("a smaller dtype (dtype='float32' or 'int32')")
        if place == "memory" and self.disk_folder is None:
            hints.append("writing it to disk (out='d.npy', --output d.npy)")
        hints.append("fewer sources (warpath.multi_source)")
        if self.device == "cpu" and methods.available(self.problem, "cuda"):
            hints.append("the GPU")
        raise MemoryLimitError(f"{message}; try {', or '.join(hints)}")


def _gib(count) -> str:
    return f"{count / 2**30:,.1f} GiB"


def disk_free(path) -> int | None:
    """Free bytes in the folder of ``path`` (``None`` when it cannot be told).

    Examples
    --------
    >>> disk_free("result.npy") > 0
    True
    """
    folder = os.path.dirname(os.fspath(path)) or "."
    try:
        return int(shutil.disk_usage(folder).free)
    except OSError:
        return None


def streams(chosen) -> bool:
    """Whether a method writes its rows through :class:`~warpath.apsp.matrices.RowMatrices`
    (it takes ``output=``), so that ``dtype=``/``out=`` cost no second matrix."""
    return "output" in inspect.signature(chosen.run).parameters


def estimate(graph, num_sources: int | None = None, *, method="auto", device="auto",
             predecessors: bool = True, problem: str = "apsp",
             float_distances: bool = True, dtype=None, out=None,
             predecessors_out=None) -> MemoryEstimate:
    """The memory an APSP or multi-source query will need, before running it.

    Parameters
    ----------
    graph : Graph
    num_sources : int, optional
        Rows of the result (default: every vertex, as APSP).
    method : str or Method
        A registered name, ``"auto"`` (resolved as the query would be, see
        :func:`warpath.methods.resolve`), or the :class:`~warpath.methods.Method`.
    device : {"auto", "cpu", "cuda"}
    predecessors : bool
    problem : {"apsp", "multi_source"}
    float_distances : bool
        Count the float64 copy that reading ``result.distances`` of an integer
        (or float32) result builds.  :func:`warpath.apsp` and
        :func:`warpath.multi_source` check without it (they do not build it),
        and the command line reads row blocks instead.
    dtype, out, predecessors_out
        The result's type and files, as :func:`warpath.apsp` takes them
        (:mod:`warpath.apsp.matrices`): a matrix in a file costs disk, not memory.

    Returns
    -------
    MemoryEstimate
        Call ``.check()`` to raise :class:`~warpath.MemoryLimitError` when it
        does not fit.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(1000, seed=0)
    >>> e = estimate(g, method="floyd-warshall", device="cpu", predecessors=False)
    >>> round(e.bytes_per_pair)   # its predecessor matrix lives while it runs
    16
    >>> estimate(g, 10, method="johnson", device="cpu", problem="multi_source").rows
    10
    >>> e = estimate(g, method="johnson", device="cpu", predecessors=False, out="d.npy")
    >>> e.disk_bytes, e.host_bytes < 8 * 10**6
    (8000128, True)
    """
    from .matrices import Output

    chosen = method if isinstance(method, methods.Method) else methods.resolve(
        problem, graph, method, device)
    output = Output.checked(graph, dtype, out, predecessors_out)
    n = graph.num_vertices
    rows = n if num_sources is None else int(num_sources)
    pairs = rows * n
    hook = chosen.memory or result_memory
    run_host, run_gpu = hook(graph, rows, predecessors)
    work = result_dtype(graph, chosen.device)
    # nothing asked: the method's own type (a GPU result keeps its int32 / float32)
    stored = work if output.default else output.stored_dtype(work)
    distance_bytes = pairs * stored.itemsize
    predecessor_bytes = pairs * ENTRY_BYTES if predecessors else 0
    kept = ((0 if output.out else distance_bytes)
            + (0 if output.predecessors_out else predecessor_bytes))
    disk = sum(size + NPY_HEADER_BYTES for path, size in
               ((output.out, distance_bytes), (output.predecessors_out, predecessor_bytes))
               if path is not None)
    if output.default:
        host = int(run_host)
    elif streams(chosen):   # rows go to their place block by block, through small temporaries
        host = int(run_host) - matrix_bytes(rows, n, predecessors) + kept \
            + 2 * chunk_rows(rows, n) * n * ENTRY_BYTES
    else:                   # the method's own matrices, then the converted copy
        host = int(run_host) + kept
    result = kept
    if float_distances and stored != np.float64:
        result += pairs * ENTRY_BYTES
    host = max(host, result + workspace_bytes(graph))
    folder = output.out or output.predecessors_out
    return MemoryEstimate(problem, chosen.name, chosen.device, rows, n, bool(predecessors),
                          host, int(run_gpu), available_memory(),
                          gpu_free_memory() if chosen.device == "cuda" else None,
                          disk, None if folder is None else disk_free(folder),
                          None if folder is None else (os.path.dirname(folder) or "."))


def in_chunks(rows: int, num_vertices: int, work, progress=None) -> None:
    """Call ``work(start, stop)`` over ``0..rows`` in chunks of :func:`chunk_rows` rows.

    A method fills its preallocated result this way: chunk temporaries stay
    small, and ``progress(done, rows)``, when given, hears after each chunk.

    Examples
    --------
    >>> seen = []
    >>> in_chunks(5, 5, lambda a, b: seen.append((a, b)))
    >>> seen[:2], seen[-1]
    ([(0, 1), (1, 2)], (4, 5))
    """
    size = chunk_rows(rows, num_vertices)
    for start in range(0, rows, size):
        stop = min(rows, start + size)
        work(start, stop)
        if progress is not None:
            progress(stop, rows)
