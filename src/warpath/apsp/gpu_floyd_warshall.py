"""Floyd-Warshall on the GPU: Harish & Narayanan's version and the blocked three-phase one.

``warpath.apsp(g, method="floyd-warshall", device="cuda")``; on the GPU
``method="auto"`` takes it for dense graphs (arcs at least :data:`DENSE_FRACTION`
of n**2).  The graph becomes an ``n x n`` matrix in GPU memory (arcs scattered
by an atomic min, so parallel arcs keep the lightest), then:

- ``variant="harish"``: Harish & Narayanan Sec. 3.4, Alg. 6: one thread per
  pair (i, j) and one launch per pivot k, the matrix read from global memory
  (the paper's version, kept for its comparison);
- ``variant="blocked"`` (default): the three-phase blocked algorithm with
  shared-memory tiles (the pivot tile, then its row and column, then the rest,
  which is almost all the work) and a 4 x 4 block of cells per thread held in
  registers, so each value read from shared memory serves four min-plus steps.

Distances are int32 for integer weights whose paths fit (every simple path
weight ``B`` with ``4 B < 2**30``), else int64; float32 or float64 for float
weights.  On compute capability 9.0 and later the int32 min-plus step runs
through DPX instructions (:mod:`warpath.apsp.dpx`; ``dpx=`` chooses).
Negative weights are allowed; a negative cycle leaves a negative diagonal
entry and raises :class:`~warpath.NegativeCycleError` with a cycle.

The result is copied back a block of rows at a time into the matrices that
``dtype=``/``out=`` ask for (:mod:`warpath.apsp.matrices`), so the host never
holds a second copy.  GPU memory: the ``n x n`` matrix (``N`` rounded up to the
tile) and, with predecessors, an int32 one beside it: 2 GiB for n = 16,384 with
int32 distances and predecessors.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, -1, 3])
>>> m = warpath.apsp(g, method="floyd-warshall", device="cuda", tile=8)
>>> m.distances.tolist(), m.path(0, 2).tolist()
([[0.0, 1.0, 0.0], [2.0, 0.0, -1.0], [3.0, 4.0, 0.0]], [0, 1, 2])
"""

from __future__ import annotations

import time

import numpy as np

from ..dtypes import path_length_bound, warn_inexact
from ..errors import NegativeCycleError, OptionError
from ..methods import register
from ..negative_cycles import find_negative_cycle, host_graph, negative_cycle_from
from .dpx import use_dpx
from .gpu_floyd_warshall_kernels import (CELLS, MAX_TILE, Numbers, blocked_kernels,
                                         harish_kernel, setup_kernels)
from .matrices import RowMatrices
from .memory import chunk_rows, matrix_bytes, workspace_bytes

VARIANTS = ("blocked", "harish")
#: ``method="auto"`` on the GPU takes Floyd-Warshall when arcs >= this fraction of n**2.
DENSE_FRACTION = 0.1
#: Shared memory a block may hold without opting in (two tiles of phase 3).
SHARED_BYTES = 48 * 1024
#: Negative diagonal entries whose predecessor rows are searched for a cycle.
CYCLE_ROWS = 16


def matrix_dtype(graph) -> np.dtype:
    """The type of the distance matrix on the GPU: int32 while every path fits, else int64;
    the float weights' own type.

    Examples
    --------
    >>> import warpath
    >>> matrix_dtype(warpath.Graph.from_edges([0], [1], [3]))
    dtype('int32')
    >>> matrix_dtype(warpath.Graph.from_edges([0], [1], [2**40]))
    dtype('int64')
    """
    if graph.weights.dtype.kind == "f":
        return np.dtype(graph.weights.dtype)
    bound = path_length_bound(graph) + float(graph.max_abs_weight)   # a cycle: one more arc
    for dtype in (np.dtype(np.int32), np.dtype(np.int64)):
        if Numbers.of(dtype).holds(bound):
            return dtype
    warn_inexact(graph)
    return np.dtype(np.float64)


def default_tile(dtype) -> int:
    """The largest tile whose two phase-3 tiles fit in 48 KiB: 64 for 4-byte distances, 32
    for 8-byte ones."""
    return MAX_TILE if np.dtype(dtype).itemsize == 4 else MAX_TILE // 2


def _check_tile(tile, dtype) -> int:
    if tile is None:
        return default_tile(dtype)
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)) or tile < CELLS \
            or tile % CELLS:
        raise OptionError(f"tile must be a positive multiple of {CELLS}, not {tile!r}")
    needed = tile * (2 * tile + 1) * np.dtype(dtype).itemsize
    if needed > SHARED_BYTES:
        raise OptionError(f"tile={tile} needs {needed:,} bytes of shared memory for "
                          f"{np.dtype(dtype)} distances; at most {default_tile(dtype)} fits")
    return int(tile)


def padded_size(n: int, tile: int) -> int:
    """``n`` rounded up to a multiple of ``tile`` (the matrix side on the GPU).

    Examples
    --------
    >>> padded_size(100, 64), padded_size(128, 64)
    (128, 128)
    """
    return -(-int(n) // tile) * tile


def is_dense(graph) -> bool:
    """The ``auto_if`` rule: arcs at least :data:`DENSE_FRACTION` of n**2.

    Examples
    --------
    >>> import warpath
    >>> is_dense(warpath.generators.complete(10, seed=0)), is_dense(warpath.generators.ring(100, seed=0))
    (True, False)
    """
    return graph.num_edges >= DENSE_FRACTION * float(graph.num_vertices) ** 2


def memory(graph, rows, predecessors):
    """The ``memory=`` hook: host: the result and a block of rows; GPU: the matrices.

    Examples
    --------
    >>> import warpath
    >>> host, gpu = memory(warpath.generators.complete(100, seed=0), 100, False)
    >>> gpu >= 128 * 128 * 4
    True
    """
    n = graph.num_vertices
    dtype = matrix_dtype(graph)
    side = padded_size(n, default_tile(dtype))
    on_gpu = side * side * (dtype.itemsize + (4 if predecessors else 0))
    on_gpu += workspace_bytes(graph)   # the CSR and the tails while the matrix is built
    block = chunk_rows(rows, n) * side * (dtype.itemsize + 4)
    return matrix_bytes(rows, n, predecessors) + 2 * block + workspace_bytes(graph), on_gpu


@register("apsp", "floyd-warshall", "cuda", negative_weights=True, auto_rank=0,
          auto_if=is_dense, memory=memory, options=("variant", "tile", "dpx"),
          summary="Floyd-Warshall: blocked with shared-memory tiles (or Harish's one thread "
                  "per pair), DPX on Hopper")
def gpu_floyd_warshall(graph, sources, *, predecessors=True, progress=None, output=None,
                       variant="blocked", tile=None, dpx="auto"):
    """All-pairs shortest paths by Floyd-Warshall on the GPU, called through :func:`warpath.apsp`.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    sources : ndarray of int64
        ``arange(n)`` (all pairs).
    predecessors : bool
        Keep an int32 predecessor matrix on the GPU beside the distances
        (``False`` halves the GPU memory for int32 distances).
    progress : callable, optional
        ``progress(done, n)`` as pivots finish (one synchronisation per tile of pivots).
    output : Output, optional
        The result's type and place (:mod:`warpath.apsp.matrices`).
    variant : {"blocked", "harish"}
    tile : int, optional
        The tile edge of ``"blocked"``, a multiple of 4 (default 64 for 4-byte
        distances, 32 for 8-byte ones: the most that fits in shared memory).
    dpx : {"auto", True, False}
        The DPX min-plus step (int32 distances, compute capability 9.0 and later).

    Returns
    -------
    DistanceMatrix
        ``stats``: ``iterations`` (pivots), ``relaxations`` (n**3 min-plus
        steps), ``launches``, ``distance_dtype``, ``dpx``, ``tile``,
        ``pivot_seconds`` (the n pivots alone), ``kernel_seconds`` (the matrix
        built, the pivots, the negative-cycle check; synchronised) and
        ``copy_seconds`` (the rows back to the host).

    Raises
    ------
    NegativeCycleError
        If the graph has a negative cycle (``.cycle`` holds one).
    OptionError
        For an unknown variant, a tile that is not a multiple of 4 or too large
        for shared memory, or ``dpx=True`` where DPX cannot run.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.complete(6, seed=2)
    >>> m = gpu_floyd_warshall(g, np.arange(6), variant="harish")
    >>> bool((m.distances == warpath.apsp(g, device="cpu").distances).all())
    True
    """
    from numba import cuda

    from ..cuda.device_graph import device_graph
    from ..cuda.runtime import THREADS, blocks_for

    if variant not in VARIANTS:
        raise OptionError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    dtype = matrix_dtype(graph)
    tile = _check_tile(tile, dtype) if variant == "blocked" else 1
    dpx_on = use_dpx(dpx, dtype)
    numbers = Numbers.of(dtype)
    n = graph.num_vertices
    side = padded_size(n, tile)
    clamp = bool(graph.has_negative_weights)
    start = time.perf_counter()

    d = cuda.device_array((side, side), dtype=dtype)
    p = cuda.device_array((side, side) if predecessors else (1, 1), dtype=np.int32)
    launches = _first_matrix(device_graph(graph), d, p, n, numbers)
    floor = numbers.floor
    cuda.synchronize()
    pivots_start = time.perf_counter()
    if variant == "harish":
        pivot = harish_kernel(dtype, predecessors, clamp, dpx_on)
        grid = (blocks_for(side), side)
        for k in range(n):
            pivot[grid, THREADS](d, p, k, floor)
            if progress is not None and (k + 1) % max(1, n // 100) == 0:
                cuda.synchronize()
                progress(k + 1, n)
        launches += n
    else:
        dependent, independent = blocked_kernels(dtype, tile, predecessors, clamp, dpx_on)
        tiles = side // tile
        threads = (tile // CELLS, tile // CELLS)
        for kb in range(tiles):
            dependent[(1, 1), threads](d, p, kb, 1, floor)
            dependent[(tiles, 2), threads](d, p, kb, 2, floor)
            independent[(tiles, tiles), threads](d, p, kb, floor)
            if progress is not None:
                cuda.synchronize()
                progress(min(n, (kb + 1) * tile), n)
        launches += 3 * tiles
    cuda.synchronize()
    pivot_seconds = time.perf_counter() - pivots_start
    _raise_on_negative_cycle(graph, d, p, n, numbers, variant, tile, predecessors)
    fill, scatter, links, finish, diagonal = setup_kernels(dtype)
    finish[(blocks_for(side), side), THREADS](d, p, numbers.half, numbers.marker)
    cuda.synchronize()
    kernel_seconds = time.perf_counter() - start

    start = time.perf_counter()
    matrices = RowMatrices(n, n, dtype, numbers.marker, predecessors, output)
    step = chunk_rows(n, n)
    for row in range(0, n, step):
        stop = min(n, row + step)
        block_p = p[row:stop].copy_to_host()[:, :n] if predecessors else None
        matrices.write(row, d[row:stop].copy_to_host()[:, :n], block_p)
    stats = {"iterations": n, "relaxations": n ** 3, "launches": launches + 2,
             "distance_dtype": str(dtype), "dpx": dpx_on, "tile": tile, "variant": variant,
             "pivot_seconds": pivot_seconds, "kernel_seconds": kernel_seconds,
             "copy_seconds": time.perf_counter() - start}
    return matrices.result(np.asarray(sources, dtype=np.int64), stats)


def _first_matrix(graph, d, p, n, numbers) -> int:
    """The arcs into the matrix (unreachable elsewhere, 0 on the diagonal); kernel launches."""
    from ..cuda.runtime import THREADS, blocks_for

    fill, scatter, links, finish, diagonal = setup_kernels(numbers.dtype)
    side = d.shape[0]
    cells = (blocks_for(side), side)
    fill[cells, THREADS](d, p, numbers.infinity)
    if graph.num_edges:
        scatter[blocks_for(graph.num_edges), THREADS](graph.tails, graph.indices,
                                                    graph.weights, d)
    links[(blocks_for(n), n), THREADS](d, p, n, numbers.infinity)
    return 3


def _raise_on_negative_cycle(graph, d, p, n, numbers, variant, tile, predecessors):
    """A negative diagonal entry proves a negative cycle: raise with one.

    The cycle is read off the predecessor rows of the negative entries (a rerun
    with predecessors when they were not kept), verified against the graph;
    failing that, Bellman-Ford from such a vertex finds one (:mod:`warpath.negative_cycles`).
    """
    from numba import cuda

    from ..cuda.runtime import blocks_for

    diagonal = setup_kernels(numbers.dtype)[4]
    values = cuda.device_array(n, dtype=numbers.dtype)
    diagonal[blocks_for(n), 32](d, values)
    negative = np.flatnonzero(values.copy_to_host() < 0)
    if negative.size == 0:
        return
    host = host_graph(graph)
    if predecessors:
        for vertex in negative[:CYCLE_ROWS]:
            cycle = find_negative_cycle(host, p[int(vertex)].copy_to_host()[:n])
            if cycle is not None:
                raise NegativeCycleError(cycle)
    else:   # an error path: run once more, keeping the predecessors this time
        gpu_floyd_warshall(graph, np.arange(n), predecessors=True, variant=variant,
                           tile=tile if variant == "blocked" else None, dpx=False)
    raise NegativeCycleError(negative_cycle_from(host, [int(negative[0])]))
