"""The kernels of GPU Floyd-Warshall: the first matrix, Harish's pivot step, the blocked phases.

All work on an ``N x N`` distance matrix ``d`` (``N`` is ``n`` rounded up to the
tile; padding vertices are isolated) and, with predecessors, an int32 matrix
``p`` updated with it (``p[i, j]`` = the vertex before ``j`` on the path from
``i``; a pivot ``k`` that shortens ``i -> j`` sets ``p[i, j] = p[k, j]``).

Integer distances use a smaller infinity than the type's maximum (``2**30 - 1``
for int32), so that ``d[i, k] + d[k, j]`` never overflows and the inner step is
a plain ``min(c, a + b)`` without tests for infinity, one DPX instruction
(``__viaddmin_s32``) on Hopper.  A sum through an unreachable pair stays above
``infinity - B`` (B: the longest simple path's weight), every real distance
below ``B``; :func:`finish` maps the first to the type's maximum, the
unreachable marker of :mod:`warpath.result`.  With negative weights every
result is clamped at ``-infinity`` (a negative cycle can halve values each
pivot); simple paths stay above that floor, so a negative cycle still leaves a
negative diagonal entry.

Examples
--------
>>> import numpy as np
>>> numbers = Numbers.of(np.dtype(np.int32))
>>> int(numbers.infinity), int(numbers.floor), int(numbers.half)
(1073741823, -1073741823, 536870911)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numba import from_dtype, int32

#: Cells per thread along each side of a tile (register tiling: 4 x 4 = 16 cells a thread).
CELLS = 4
#: Tile edges allowed: a multiple of CELLS, the two shared tiles of phase 3 under 48 KiB.
MAX_TILE = 64

#: numba.cuda, bound by the kernel factories on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@dataclass(frozen=True)
class Numbers:
    """The kernel's number system for one distance type.

    Attributes
    ----------
    dtype : numpy.dtype
    infinity : scalar
        'Unreachable' inside the kernels (``inf`` for floats).
    floor : scalar
        The clamp of graphs with negative weights (``-infinity``; a quarter of
        the float range for floats).
    half : scalar
        Values at or above it are unreachable once the kernels are done.
    marker : scalar
        The unreachable value of the finished matrix (the type's maximum, ``inf``).
    """

    dtype: np.dtype
    infinity: object
    floor: object
    half: object
    marker: object

    @classmethod
    def of(cls, dtype) -> "Numbers":
        """The numbers of ``dtype`` (int32, int64, float32 or float64)."""
        dtype = np.dtype(dtype)
        if dtype.kind == "f":
            big = dtype.type(np.finfo(dtype).max / 4)
            return cls(dtype, dtype.type(np.inf), -big, dtype.type(np.inf), dtype.type(np.inf))
        infinity = (np.iinfo(dtype).max + 1) // 2 - 1   # 2 * infinity still fits
        return cls(dtype, dtype.type(infinity), dtype.type(-infinity), dtype.type(infinity // 2),
                   dtype.type(np.iinfo(dtype).max))

    def holds(self, bound: float) -> bool:
        """Whether distances bounded by ``bound`` in absolute value are exact here (the sums
        through an unreachable pair stay apart from them, and clamping never hides a cycle)."""
        return self.dtype.kind == "f" or 2.0 * bound < float(self.infinity) / 2


def _steps(nb_type, dpx):
    """The min-plus step ``min(c, a + b)`` and its clamped form, plain or through DPX."""
    global cuda
    from numba import cuda

    if dpx:
        from .dpx import dpx_functions

        return dpx_functions()

    @cuda.jit(device=True)
    def min_plus(a, b, c):
        s = nb_type(a + b)
        return s if s < c else c

    @cuda.jit(device=True)
    def min_plus_clamped(a, b, c, floor):
        s = nb_type(a + b)
        s = s if s < c else c
        return s if s > floor else floor

    return min_plus, min_plus_clamped


@functools.lru_cache(maxsize=None)
def setup_kernels(dtype):
    """``(fill, scatter_arcs, first_links, finish, diagonal)``: the matrix before and after.

    Examples
    --------
    >>> from numba import cuda
    >>> fill, scatter, links, finish, diagonal = setup_kernels(np.dtype(np.float64))
    >>> d = cuda.to_device(np.zeros((2, 2))); p = cuda.to_device(np.zeros((2, 2), np.int32))
    >>> fill[(1, 2), 32](d, p, 7.0); d.copy_to_host().tolist()
    [[7.0, 7.0], [7.0, 7.0]]
    """
    global cuda
    from numba import cuda

    nb_type = from_dtype(np.dtype(dtype))

    @cuda.jit
    def fill(d, p, infinity):
        """Every cell unreachable, no predecessor (grid: columns x rows)."""
        i = cuda.blockIdx.y
        j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < d.shape[0] and j < d.shape[1]:
            d[i, j] = infinity
            if p.shape[0] == d.shape[0]:
                p[i, j] = -1

    @cuda.jit
    def scatter_arcs(tails, heads, weights, d):
        """The lightest arc u -> v into d[u, v] (one thread per arc)."""
        e = cuda.grid(1)
        if e < heads.shape[0]:
            cuda.atomic.min(d, (tails[e], heads[e]), nb_type(weights[e]))

    @cuda.jit
    def first_links(d, p, n, infinity):
        """0 on the diagonal (a negative self-loop stays, a cycle); an arc's tail as predecessor."""
        i = cuda.blockIdx.y
        j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i >= n or j >= n:
            return
        if i == j and d[i, j] >= 0:
            d[i, j] = 0
        elif p.shape[0] == d.shape[0] and d[i, j] < infinity:
            p[i, j] = i

    @cuda.jit
    def finish(d, p, half, marker):
        """Sums through unreachable pairs back to the unreachable marker, without predecessor."""
        i = cuda.blockIdx.y
        j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < d.shape[0] and j < d.shape[1] and d[i, j] >= half:
            d[i, j] = marker
            if p.shape[0] == d.shape[0]:
                p[i, j] = -1

    @cuda.jit
    def diagonal(d, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = d[i, i]

    return fill, scatter_arcs, first_links, finish, diagonal


@functools.lru_cache(maxsize=None)
def harish_kernel(dtype, predecessors: bool, clamp: bool, dpx: bool):
    """Harish & Narayanan Alg. 6, line 4: one thread per (i, j), one launch per pivot ``k``.

    ``kernel[(column blocks, n), threads](d, p, k, floor)``.

    Examples
    --------
    >>> from numba import cuda
    >>> pivot = harish_kernel(np.dtype(np.int32), False, False, False)
    >>> d = cuda.to_device(np.array([[0, 1, 9], [9, 0, 1], [9, 9, 0]], np.int32))
    >>> for k in range(3):
    ...     pivot[(1, 3), 32](d, d, k, 0)
    >>> d.copy_to_host()[0].tolist()
    [0, 1, 2]
    """
    global cuda
    from numba import cuda

    nb_type = from_dtype(np.dtype(dtype))
    min_plus, min_plus_clamped = _steps(nb_type, dpx)

    @cuda.jit
    def pivot(d, p, k, floor):
        i = cuda.blockIdx.y
        j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if j >= d.shape[1]:
            return
        a = d[i, k]
        b = d[k, j]
        c = d[i, j]
        if predecessors:
            s = nb_type(a + b)
            if clamp and s < floor:
                s = floor
            if s < c:
                d[i, j] = s
                p[i, j] = p[k, j]
        elif clamp:
            d[i, j] = min_plus_clamped(a, b, c, floor)
        else:
            d[i, j] = min_plus(a, b, c)

    return pivot


@functools.lru_cache(maxsize=None)
def blocked_kernels(dtype, tile: int, predecessors: bool, clamp: bool, dpx: bool):
    """The three-phase blocked Floyd-Warshall (Venkataraman et al.; Katz & Kider's GPU tiling).

    Returns ``(dependent, independent)``, each launched with ``(side, side)``
    threads, ``side = tile // CELLS``:

    - ``dependent[(1, 1)](d, p, kb, 1, floor)``: phase 1, the pivot tile ``(kb, kb)``;
    - ``dependent[(nb, 2)](d, p, kb, 2, floor)``: phase 2, the tiles of pivot row
      ``kb`` (grid row 0) and pivot column ``kb`` (grid row 1);
    - ``independent[(nb, nb)](d, p, kb, floor)``: phase 3, every other tile.

    Each thread owns ``CELLS x CELLS`` cells of its tile (rows ``ty + side*r``,
    columns ``tx + side*c``) in registers.  Phase 3 reads the pivot column
    tile and pivot row tile from shared memory and, for predecessors, keeps the
    winning pivot per cell, reading ``p[k, j]`` once at the end (the pivot row
    tile is final in phase 3).  Phases 1 and 2 update their own tile pivot by
    pivot, so the owners of row ``k`` and column ``k`` publish them in shared
    memory before each step.

    Examples
    --------
    >>> from numba import cuda
    >>> dependent, independent = blocked_kernels(np.dtype(np.int32), 8, False, False, False)
    >>> d = np.full((8, 8), 2**30 - 1, np.int32); np.fill_diagonal(d, 0)
    >>> d[0, 1] = d[1, 2] = 1
    >>> dd = cuda.to_device(d)
    >>> dependent[(1, 1), (2, 2)](dd, dd, 0, 1, 0)
    >>> int(dd.copy_to_host()[0, 2])
    2
    """
    global cuda
    from numba import cuda

    nb_type = from_dtype(np.dtype(dtype))
    side = tile // CELLS
    padded = tile + 1   # shared arrays need literal shapes: computed here, not in the kernel
    min_plus, min_plus_clamped = _steps(nb_type, dpx)

    @cuda.jit(device=True)
    def step(a, b, c, floor):
        if clamp:
            return min_plus_clamped(a, b, c, floor)
        return min_plus(a, b, c)

    @cuda.jit
    def dependent(d, p, kb, phase, floor):
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        if phase == 1:
            bi = kb
            bj = kb
        else:
            if cuda.blockIdx.x == kb:
                return
            bi = kb if cuda.blockIdx.y == 0 else cuda.blockIdx.x
            bj = cuda.blockIdx.x if cuda.blockIdx.y == 0 else kb
        own_a = bj == kb   # d[i, k] comes from this tile (pivot or pivot-column tile)
        own_b = bi == kb   # d[k, j] comes from this tile (pivot or pivot-row tile)
        pivot_d = cuda.shared.array((tile, padded), nb_type)
        pivot_p = cuda.shared.array((tile, tile), int32)
        column_k = cuda.shared.array(tile, nb_type)
        row_k = cuda.shared.array(tile, nb_type)
        row_k_p = cuda.shared.array(tile, int32)
        k0 = kb * tile
        i0 = bi * tile
        j0 = bj * tile
        c_d = cuda.local.array((CELLS, CELLS), nb_type)
        c_p = cuda.local.array((CELLS, CELLS), int32)
        a = cuda.local.array(CELLS, nb_type)
        b = cuda.local.array(CELLS, nb_type)
        b_p = cuda.local.array(CELLS, int32)
        for r in range(CELLS):
            for c in range(CELLS):
                row = ty + side * r
                col = tx + side * c
                c_d[r, c] = d[i0 + row, j0 + col]
                if predecessors:
                    c_p[r, c] = p[i0 + row, j0 + col]
                if not (own_a and own_b):
                    pivot_d[row, col] = d[k0 + row, k0 + col]
                    if predecessors:
                        pivot_p[row, col] = p[k0 + row, k0 + col]
        cuda.syncthreads()
        for k in range(tile):
            # The owners of row k and column k publish them (as they stand before pivot k).
            for r in range(CELLS):
                for c in range(CELLS):
                    if own_a and tx + side * c == k:
                        column_k[ty + side * r] = c_d[r, c]
                    if own_b and ty + side * r == k:
                        row_k[tx + side * c] = c_d[r, c]
                        if predecessors:
                            row_k_p[tx + side * c] = c_p[r, c]
            cuda.syncthreads()
            for r in range(CELLS):
                a[r] = column_k[ty + side * r] if own_a else pivot_d[ty + side * r, k]
            for c in range(CELLS):
                b[c] = row_k[tx + side * c] if own_b else pivot_d[k, tx + side * c]
                if predecessors:
                    b_p[c] = row_k_p[tx + side * c] if own_b else pivot_p[k, tx + side * c]
            for r in range(CELLS):
                for c in range(CELLS):
                    new = step(a[r], b[c], c_d[r, c], floor)
                    if predecessors and new < c_d[r, c]:
                        c_p[r, c] = b_p[c]
                    c_d[r, c] = new
            cuda.syncthreads()   # every read of this step before the next publication
        for r in range(CELLS):
            for c in range(CELLS):
                d[i0 + ty + side * r, j0 + tx + side * c] = c_d[r, c]
                if predecessors:
                    p[i0 + ty + side * r, j0 + tx + side * c] = c_p[r, c]

    @cuda.jit
    def independent(d, p, kb, floor):
        bi = cuda.blockIdx.y
        bj = cuda.blockIdx.x
        if bi == kb or bj == kb:
            return
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        # d[i, k] tiles read by column: one padding column keeps a warp's two rows apart in banks
        column_tile = cuda.shared.array((tile, padded), nb_type)
        row_tile = cuda.shared.array((tile, tile), nb_type)
        k0 = kb * tile
        i0 = bi * tile
        j0 = bj * tile
        c_d = cuda.local.array((CELLS, CELLS), nb_type)
        best = cuda.local.array((CELLS, CELLS), int32)
        a = cuda.local.array(CELLS, nb_type)
        b = cuda.local.array(CELLS, nb_type)
        for r in range(CELLS):
            for c in range(CELLS):
                row = ty + side * r
                col = tx + side * c
                column_tile[row, col] = d[i0 + row, k0 + col]
                row_tile[row, col] = d[k0 + row, j0 + col]
                c_d[r, c] = d[i0 + row, j0 + col]
                best[r, c] = -1
        cuda.syncthreads()
        for k in range(tile):
            for r in range(CELLS):
                a[r] = column_tile[ty + side * r, k]
            for c in range(CELLS):
                b[c] = row_tile[k, tx + side * c]
            for r in range(CELLS):
                for c in range(CELLS):
                    new = step(a[r], b[c], c_d[r, c], floor)
                    if predecessors and new < c_d[r, c]:
                        best[r, c] = k
                    c_d[r, c] = new
        for r in range(CELLS):
            for c in range(CELLS):
                row = i0 + ty + side * r
                col = j0 + tx + side * c
                d[row, col] = c_d[r, c]
                if predecessors and best[r, c] >= 0:
                    p[row, col] = p[k0 + best[r, c], col]

    return dependent, independent
