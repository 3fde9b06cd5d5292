"""Many rows on the GPU: the vertex-major layout, how many rows a launch takes, and delivery.

The task-parallel methods keep a launch's state interleaved vertex-major
(Okuyama, Ino & Hagihara, Fig. 8(b)): the entry of vertex ``v`` in row ``s``
of a launch of ``width`` rows sits at ``v * width + s``, so the rows of one
vertex are neighbours in memory and the threads of a warp (the engine's
:func:`~warpath.cuda.mappings.tasks` mapping) read and write contiguous words.
This module holds what every such method shares:

- :func:`launch_width`: how many sources one launch solves, from the GPU's
  free memory and its L2 cache (groups of ``group`` sources, the paper's N);
- where the result goes (:func:`choose_delivery`): a row-major matrix on the
  GPU when it fits there (read to the host when first read, like every GPU
  result), else host matrices that each launch's rows are streamed into;
- the kernels that start a launch (:func:`start_rows`) and deliver its rows
  row-major (:func:`deliver`), with Johnson's potentials undone on the way;
- :func:`gpu_memory`, the ``memory=`` hook of the registry for these methods.

Examples
--------
>>> launch_width(10_000, 100, group=32, pair_bytes=10, state_bytes=6, free_bytes=None,
...              cache_bytes=2**20)   # one group: 1.9 MB of state is more than the cache
32
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..errors import MemoryLimitError, OptionError

#: numba.cuda, bound by :func:`_kernels` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: Sources per group: the paper's N, a warp's width (section 5.2).
GROUP = 32
#: Mask bytes per task: this round's set M and the next round's (see
#: :mod:`warpath.apsp.task_parallel`).
MASK_BYTES = 2
#: ``deliver=`` values: the GPU when the result fits there, else the host; or either one.
DELIVERIES = ("auto", "device", "host")
#: Share of the GPU's free memory a launch's arrays may take (the rest is the allocator's
#: slack and room for other work on the device).
FREE_SHARE = 0.8
#: The delivery kernels' block: 32 x 8 threads, each block moving a tile of 32 vertices x
#: 32 rows through shared memory, so that a warp reads 32 rows of one
#: vertex (128 contiguous bytes of the vertex-major d, int32) and writes 32 vertices of one
#: row.  The kernel before it (a thread an entry, a warp's reads 4 bytes of 32 separate
#: pieces shared through L1 by the block's 8 rows) delivered 1,000 rows of random(1M, 6M)
#: in 7.3 ms on the H200, and a 1-D grid took 28 ms (docs/performance.md, twenty-eighth
#: session); the tile's 8 GB moved predict about 2-3 ms (twenty-ninth session).
DELIVERY_BLOCK = (32, 8)
#: The rows of a tile a block's thread rows take in one pass: the block's y, compiled into
#: the delivery kernels as a constant (they are launched with :data:`DELIVERY_BLOCK` only).
TILE_PASS = DELIVERY_BLOCK[1]
#: The tiles of 32 rows each block of the delivery kernels moves in turn (the grid's y is
#: the rows' tiles over this): a block a tile was a million blocks for 1,000 rows of 1M
#: vertices, 6.1 ms for 8 GB moved on the H200 (docs/performance.md, thirty-fourth session).
DELIVERY_ROW_TILES = 8
#: The least groups of a launch of rounds over a frontier when ``launch_groups=None`` and
#: the result stays on the GPU: a round's cost is then the latency of its items more than
#: its bytes, so wide launches that share each round among more rows win even where the
#: state is far larger than L2 (H200, 1,000 sources, 1M vertices, same call: power-law,
#: 32 groups 0.91 s, 8 groups 1.68 s, one group (the L2 rule) 5.43 s; random(1M, 6M) 0.48
#: against 0.51 s, whole items 0.294 against 0.334 s; docs/performance.md, twenty-eighth
#: session).
FRONTIER_GROUPS = 32


def frontier_groups(where: str) -> int:
    """The least groups of a frontier launch for rows delivered ``where`` (``"device"`` or
    ``"host"``): :data:`FRONTIER_GROUPS` on the GPU, one for host memory, where narrow
    launches let each launch's copy overlap the next ones (H200, random(1M, 6M), 1,000
    rows to the host: launches of 32 rows 0.81 s, of 256 rows 1.23 s, one launch 1.61 s).

    Examples
    --------
    >>> frontier_groups("device"), frontier_groups("host")
    (32, 1)
    """
    return FRONTIER_GROUPS if where == "device" else 1


#: The largest y dimension of a CUDA grid; the delivery kernels loop over rows past it.
MAX_GRID_Y = 65535
#: The L2 size assumed when the device cannot say (the simulator): an H100's 50 MB.
DEFAULT_CACHE_BYTES = 50 * 10**6


def check_group_options(group, launch_groups, deliver="auto") -> None:
    """Validate ``group`` (a positive int), ``launch_groups`` (``None`` or a positive int)
    and ``deliver`` (one of :data:`DELIVERIES`).

    Examples
    --------
    >>> check_group_options(32, None)
    >>> check_group_options(0, None)
    Traceback (most recent call last):
    ...
    warpath.errors.OptionError: group must be a positive integer, not 0
    """
    if deliver not in DELIVERIES:
        raise OptionError(f"deliver must be one of {DELIVERIES}, not {deliver!r}")
    for name, value in (("group", group), ("launch_groups", launch_groups)):
        if value is None and name == "launch_groups":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise OptionError(f"{name} must be a positive integer, not {value!r}")


def pair_bytes(dtype, index_dtype, out_dtype, predecessors: bool) -> int:
    """Device bytes per (vertex, row) pair of a launch: distance and the two mask bytes,
    the predecessor, and for rows streamed to the host (``out_dtype`` not ``None``) their
    row-major copies (distance in ``out_dtype``, int64 predecessor).

    Examples
    --------
    >>> pair_bytes(np.int32, np.int32, np.int32, False), pair_bytes(np.int32, np.int32,
    ...                                                              np.int32, True)
    (10, 22)
    >>> pair_bytes(np.int32, np.int32, None, True)   # rows written into a GPU matrix
    10
    """
    staged = out_dtype is not None
    size = np.dtype(dtype).itemsize + MASK_BYTES
    if staged:
        size += np.dtype(out_dtype).itemsize
    if predecessors:
        size += np.dtype(index_dtype).itemsize + (8 if staged else 0)
    return size


def result_bytes(rows: int, num_vertices: int, out_dtype, index_dtype,
                 predecessors: bool) -> int:
    """Bytes of a result kept on the GPU: distances, and predecessors in the index type.

    Examples
    --------
    >>> result_bytes(10, 100, np.int32, np.int32, True)
    8000
    """
    per_pair = np.dtype(out_dtype).itemsize
    if predecessors:
        per_pair += np.dtype(index_dtype).itemsize
    return int(rows) * int(num_vertices) * per_pair


def choose_delivery(deliver: str, result: int, launch: int, free_bytes: int | None) -> str:
    """``"device"`` or ``"host"``: where a result of ``result`` bytes goes, given the
    ``launch`` bytes one launch needs beside it.

    ``"auto"`` keeps it on the GPU when both fit in :data:`FREE_SHARE` of the free
    memory (or when the free memory is unknown: the simulator), else streams the rows to
    the host (an output larger than the GPU).

    Raises
    ------
    MemoryLimitError
        For ``deliver="device"`` when the result does not fit on the GPU.

    Examples
    --------
    >>> choose_delivery("auto", 10 * 2**30, 2**20, 80 * 2**30)
    'device'
    >>> choose_delivery("auto", 70 * 2**30, 2**20, 80 * 2**30)
    'host'
    """
    fits = free_bytes is None or result + launch <= FREE_SHARE * free_bytes
    if deliver == "device" and not fits:
        raise MemoryLimitError(
            f"the result needs about {(result + launch) / 2**30:,.2f} GiB of GPU memory but "
            f"{free_bytes / 2**30:,.2f} GiB is free; use deliver='host' (rows streamed to "
            f"host memory) or fewer sources")
    if deliver == "auto":
        return "device" if fits else "host"
    return deliver


def l2_cache_bytes() -> int:
    """The current GPU's L2 cache size in bytes (an H100's when the device cannot say).

    Examples
    --------
    >>> l2_cache_bytes() > 0
    True
    """
    from ..device import simulated

    if simulated():
        return DEFAULT_CACHE_BYTES
    try:
        from numba import cuda as _cuda

        return int(_cuda.get_current_device().L2_CACHE_SIZE) or DEFAULT_CACHE_BYTES
    except Exception:  # an attribute the driver lacks: keep the default, the run is still right
        return DEFAULT_CACHE_BYTES


#: A launch of whole items is padded with idle rows to a multiple of 32 when that adds at
#: most one row in ``PAD_SHARE`` (:func:`padded_rows`).
PAD_SHARE = 16


def padded_rows(rows: int, share: int | None = None) -> int:
    """The rows a launch of ``rows`` sources keeps a vertex in the vertex-major layout:
    ``rows`` rounded up to a multiple of 32 when the idle rows added are at most one in
    ``share`` (:data:`PAD_SHARE`), else ``rows``.

    The distances of an item (a vertex and 32 rows) are then one aligned 128-byte line
    (int32 or float32).  With 1,000 rows a vertex takes 4,000 bytes, and three items in
    four straddle two lines: each warp's read of an item, and each warp's ``atomicMin``
    into one, is then two L1 wavefronts and two L2 requests instead of one, and ends in a
    part of a 64-byte DRAM burst at each side.  Small launches stay unpadded: there an
    item's rows are a few words, and padding would multiply the memory.  The padding
    takes at most one row in 16 more memory than :func:`launch_width` planned for, inside
    the fifth of the free memory that :data:`FREE_SHARE` leaves.

    Examples
    --------
    >>> padded_rows(1000), padded_rows(1024), padded_rows(100), padded_rows(7)
    (1024, 1024, 100, 7)
    >>> padded_rows(100, share=2)
    128
    """
    share = PAD_SHARE if share is None else share
    whole = -(-int(rows) // 32) * 32
    return whole if (whole - rows) * share <= rows else int(rows)


def launch_width(num_vertices: int, num_sources: int, *, group: int = GROUP,
                 launch_groups: int | None = None, pair_bytes: int, state_bytes: int,
                 free_bytes: int | None, cache_bytes: int, min_groups: int = 1) -> int:
    """How many sources one launch solves: whole groups of ``group``, at most ``num_sources``.

    With ``launch_groups=None`` a launch takes as many groups as keep the state the rounds
    sweep (``state_bytes`` per pair: distance and masks) within ``cache_bytes`` of L2, at
    least ``min_groups``: on small graphs that makes launches wide (few rounds of host and
    barrier cost for many sources), on large ones it keeps the relaxations in the cache
    (rounds over a frontier, whose cost is their latency more than their bytes, ask for
    :data:`FRONTIER_GROUPS`).  Either way a launch takes no more than :data:`FREE_SHARE`
    of ``free_bytes`` (``None``: unknown, no limit).

    Raises
    ------
    MemoryLimitError
        When not even one group fits in the GPU's free memory.

    Examples
    --------
    >>> launch_width(4677, 4677, pair_bytes=10, state_bytes=6, free_bytes=None,
    ...              cache_bytes=50 * 10**6)
    1760
    >>> launch_width(100, 10, group=4, launch_groups=1, pair_bytes=10, state_bytes=6,
    ...              free_bytes=None, cache_bytes=10**9)
    4
    >>> launch_width(10**6, 1000, pair_bytes=10, state_bytes=6, free_bytes=None,
    ...              cache_bytes=50 * 10**6, min_groups=FRONTIER_GROUPS)
    1000
    """
    n = max(int(num_vertices), 1)
    per_group = n * group
    if launch_groups is None:
        launch_groups = max(1, min_groups, int(cache_bytes) // (per_group * state_bytes))
    if free_bytes is not None:
        fit = int(FREE_SHARE * free_bytes) // (per_group * pair_bytes)
        if fit < 1:
            raise MemoryLimitError(
                f"one group of {group} sources on {num_vertices:,} vertices needs about "
                f"{per_group * pair_bytes / 2**30:,.2f} GiB of GPU memory but "
                f"{free_bytes / 2**30:,.2f} GiB is free; try a smaller group= or "
                f"predecessors=False")
        launch_groups = min(launch_groups, fit)
    groups = min(launch_groups, math.ceil(num_sources / group))
    return min(int(num_sources), groups * group)


@functools.lru_cache(maxsize=None)
def mask_functions():
    """``(in_mask, join_next)``: the device functions of Harish's mask M, double-buffered.

    The rounds of a launch read this round's mask and write the next round's
    (:mod:`warpath.apsp.task_parallel`).  Their state starts ``(d, masks, W, T,
    placeholder, ...)``: the vertex-major distances, the two masks (round r's at ``(r %
    2) * T``), the launch's width W and its T = n W tasks, and a value of d's type.
    ``in_mask(state, row, u, r)`` is an advance's gather: a task in round r's mask leaves
    it and expands with its distance; ``join_next(state, i, r, conv)`` puts task ``i`` in
    round r + 1's mask and marks the round as changed.
    """
    global cuda
    from numba import cuda

    from ..cuda.flags import mark_changed

    @cuda.jit(device=True)
    def in_mask(state, row, u, r):
        i = u * state[2] + row
        slot = (r & 1) * state[3] + i
        if state[1][slot] == 0:
            return False, state[4]
        state[1][slot] = 0  # only this task's thread touches round r's mask in round r
        return True, state[0][i]

    @cuda.jit(device=True)
    def join_next(state, i, r, conv):
        state[1][((r + 1) & 1) * state[3] + i] = 1
        mark_changed(conv, r)

    return in_mask, join_next


@functools.lru_cache(maxsize=None)
def _kernels():
    """The start and delivery kernels (compiled per argument types on first launch)."""
    global cuda
    from numba import cuda

    from ..cuda.indices import at

    @cuda.jit
    def start(d, masks, sources, inf):
        """Okuyama Fig. 7 lines 1-3, vertex-major: d[v, s] = 0 and <s, s> in round 0's set
        M at each row's source, infinity elsewhere; round 1's set empty."""
        i = cuda.grid(1)
        width, tasks = sources.shape[0], d.shape[0]
        if i < tasks:
            v = i // width
            source = v == sources[i - v * width]
            d[i] = 0 if source else inf
            masks[i] = 1 if source else 0
            masks[tasks + i] = 0

    @cuda.jit(device=True)
    def load_tile(tile, values, width, rows, n, v0, s0):
        """``tile[i, j]`` = values[v0 + i, s0 + j] of the vertex-major ``values`` (``width``
        entries a vertex, of which the first ``rows`` are read), a warp reading 32 rows of
        one vertex; then a barrier."""
        x, y = cuda.threadIdx.x, cuda.threadIdx.y
        s = s0 + x
        i = y
        while i < 32:   # a constant step: no division for the trip count
            v = v0 + i
            if v < n and s < rows:
                tile[i, x] = values[at(v, width, s)]
            i += TILE_PASS
        cuda.syncthreads()

    @cuda.jit
    def distances(d, out, sources, inf, out_inf, h, shifted):
        """out[s, v] = d[v, s], a tile of 32 vertices x 32 rows a block at a time
        (:data:`DELIVERY_BLOCK`): read a vertex's 32 rows a warp, written a row's 32
        vertices a warp; with ``shifted``, Johnson's d(s, v) = d_h(s, v) - h[s] + h[v].
        Positions are unsigned (no wraparound test) and the loops step by constants, with
        no division for their trip counts: a profile of 1,000 rows of 1M vertices found
        this kernel bound by its instructions (76% of the SMs' peak, 21% of DRAM's;
        thirty-first session).  d keeps ``len(sources)`` entries a vertex, of which the
        first ``out.shape[0]`` are delivered (the rest: a launch's idle rows that pad it
        to whole items, :func:`padded_rows`)."""
        tile = cuda.shared.array((32, 33), d.dtype)   # 33: a column read hits 32 banks
        rows, n = out.shape
        width = sources.shape[0]
        x, y = cuda.threadIdx.x, cuda.threadIdx.y
        v0 = cuda.blockIdx.x * 32
        v = v0 + x
        s0 = cuda.blockIdx.y * 32
        while s0 < rows:   # one pass unless the grid's y is capped
            load_tile(tile, d, width, rows, n, v0, s0)
            j = y
            while j < 32:
                s = s0 + j
                if v < n and s < rows:
                    value = tile[x, j]
                    row, column = np.uint64(s), np.uint64(v)   # no wraparound test
                    if value == inf:
                        out[row, column] = out_inf
                    elif shifted:
                        out[row, column] = value - h[sources[s]] + h[v]
                    else:
                        out[row, column] = value
                j += TILE_PASS
            cuda.syncthreads()   # the tile is read before the next one is loaded
            s0 += cuda.gridDim.y * 32

    @cuda.jit
    def predecessors(pred, out, sources):
        """out[s, v] = pred[v, s], and -1 at the row's own source (the root of its tree);
        the tiles, grid and layout of :func:`distances`."""
        tile = cuda.shared.array((32, 33), pred.dtype)
        rows, n = out.shape
        width = sources.shape[0]
        x, y = cuda.threadIdx.x, cuda.threadIdx.y
        v0 = cuda.blockIdx.x * 32
        v = v0 + x
        s0 = cuda.blockIdx.y * 32
        while s0 < rows:
            load_tile(tile, pred, width, rows, n, v0, s0)
            j = y
            while j < 32:
                s = s0 + j
                if v < n and s < rows:
                    out[np.uint64(s), np.uint64(v)] = -1 if v == sources[s] else tile[x, j]
                j += TILE_PASS
            cuda.syncthreads()
            s0 += cuda.gridDim.y * 32

    @cuda.jit
    def start_items(d, words, sources, inf):
        """The frontier form's start (``frontier=True``): every distance ``inf`` and every
        item's word of lanes cleared; the sources' zeros and lanes come after, from
        ``mark_sources`` (or whole items' own mark kernel, which runs this on its uint8
        mark bytes: ``words`` of any integer type, only zeros are written).  A source
        test on each of the n x rows entries took a 64-bit division each: 4.6 ms for
        1,000 rows of 1M vertices on the H200, bound by its instructions (thirty-first
        session).  A grid-stride loop (:func:`~warpath.cuda.runtime.stride_blocks`): a
        thread an entry, 4M blocks for those 4.1 GB, took 2.8 ms; this loop 1.7 ms
        (thirty-fourth)."""
        stride = cuda.gridsize(1)
        i = cuda.grid(1)
        while i < d.shape[0]:
            d[i] = inf
            i += stride
        i = cuda.grid(1)
        while i < words.shape[0]:
            words[i] = 0
            i += stride

    @cuda.jit
    def mark_sources(words, d, sources, groups, item_rows):
        """Each row's distance 0 at its source and its lane in the source's item of round
        0's words (``item_rows`` rows an item)."""
        row = cuda.grid(1)
        if row < sources.shape[0]:
            d[at(sources[row], sources.shape[0], row)] = 0
            bit = words.dtype.type(1) << words.dtype.type(row % item_rows)
            cuda.atomic.or_(words, sources[row] * groups + row // item_rows, bit)

    return start, distances, predecessors, start_items, mark_sources


def start_items(d, words, sources, host_sources, inf, queue, tally, item_rows: int = 32) -> None:
    """Start a launch of the frontier form: distances as :func:`start_rows`, round 0's
    words of lanes holding each row's source, and ``queue`` (a
    :class:`~warpath.cuda.frontier.FrontierQueue` of items) holding the sources' items.

    ``words`` holds both rounds' words, ``2 n G`` of them (G items of ``item_rows`` rows
    a vertex, :func:`~warpath.cuda.mappings.item_groups`); ``host_sources`` is
    ``sources`` on the host (the queue's items are made there: at most one per row).

    Examples
    --------
    >>> from numba import cuda as nb
    >>> from warpath.cuda.counters import RunTally
    >>> from warpath.cuda.frontier import FrontierQueue
    >>> d, words = nb.device_array(6, np.int32), nb.device_array(6, np.uint32)
    >>> queue = FrontierQueue(3)
    >>> rows = np.array([2, 0])   # 3 vertices, 2 rows
    >>> start_items(d, words, nb.to_device(rows), rows, np.int32(9), queue, RunTally())
    >>> d.copy_to_host().tolist(), words.copy_to_host().tolist()
    ([9, 0, 9, 9, 0, 9], [2, 0, 1, 0, 0, 0])
    >>> queue.counts.copy_to_host().tolist(), queue.queues.copy_to_host()[0, :2].tolist()
    ([2, 0, 0], [0, 2])
    >>> rows = np.array([2, 0, 0, 0, 0, 0, 0, 0, 1])   # 9 rows of 8 a item: 2 a vertex
    >>> d, words = nb.device_array(27, np.int32), nb.device_array(12, np.uint32)
    >>> start_items(d, words, nb.to_device(rows), rows, np.int32(9), queue, RunTally(), 8)
    >>> words.copy_to_host().tolist()[:6], queue.queues.copy_to_host()[0, :3].tolist()
    ([254, 0, 0, 1, 1, 0], [0, 3, 4])
    """
    from ..cuda.mappings import item_groups
    from ..cuda.runtime import THREADS, blocks_for, stride_blocks

    kernels = _kernels()
    rows = host_sources.shape[0]
    groups = item_groups(rows, item_rows)
    kernels[3][stride_blocks(max(d.shape[0], words.shape[0])), THREADS](d, words, sources,
                                                                         inf)
    kernels[4][blocks_for(rows), THREADS](words, d, sources, np.int64(groups),
                                          np.int64(item_rows))
    items = np.unique(host_sources * groups + np.arange(rows) // item_rows)
    queue.queues[0, :items.shape[0]].copy_to_device(items.astype(queue.queues.dtype))
    queue.counts.copy_to_device(np.array([items.shape[0], 0, 0], dtype=np.int64))
    tally.launch(2)


def start_rows(d, masks, sources, inf, tally) -> None:
    """Start a launch: each row's source at distance 0 and in round 0's mask, the rest at
    infinity (``d``: a flat vertex-major device array of n x len(sources) tasks; ``masks``:
    twice as long, round 0's mask then round 1's).

    Examples
    --------
    >>> from numba import cuda as nb
    >>> from warpath.cuda.counters import RunTally
    >>> d, masks = nb.device_array(6, np.int32), nb.device_array(12, np.uint8)
    >>> start_rows(d, masks, nb.to_device(np.array([2, 0])), np.int32(9), RunTally())
    >>> d.copy_to_host().tolist(), masks.copy_to_host().tolist()
    ([9, 0, 9, 9, 0, 9], [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
    """
    from ..cuda.runtime import THREADS, blocks_for

    _kernels()[0][blocks_for(d.shape[0]), THREADS](d, masks, sources, inf)
    tally.launch()


def deliver(d, sources, inf, out, tally, *, host=None, pred=None, pred_out=None,
            pred_host=None, potentials=None, download=None) -> None:
    """Write a launch's rows row-major into ``out`` (rows x n device matrix, the result's
    distance type) and the predecessors ``pred`` into ``pred_out``.  ``d`` and ``pred``
    keep ``len(sources)`` entries a vertex: ``out``'s rows, or more for a launch padded
    with idle rows (:func:`padded_rows`), which are not delivered.  With ``host`` /
    ``pred_host`` (C-contiguous blocks of host matrices) ``out`` and ``pred_out`` are
    staging buffers, copied there: by ``download`` (a
    :class:`~warpath.cuda.downloads.Download`, complete after its ``finish``), else at once.

    Unreached entries become the result type's own unreached value; ``potentials`` (a
    device array h) undoes Johnson's reweighting; a row's source gets predecessor -1.

    Examples
    --------
    >>> from numba import cuda as nb
    >>> from warpath.cuda.counters import RunTally
    >>> d = nb.to_device(np.array([0, 5, 3, 0, 9, 9], np.int32))   # 3 vertices x 2 rows
    >>> host = np.zeros((2, 3), np.int64)
    >>> deliver(d, nb.to_device(np.array([0, 1])), np.int32(9), nb.device_array((2, 3),
    ...         np.int64), RunTally(), host=host)
    >>> host.tolist()
    [[0, 3, 9223372036854775807], [5, 0, 9223372036854775807]]
    """
    from ..dtypes import unreached_value

    _, distances, predecessors = _kernels()[:3]
    rows, n = out.shape
    block = DELIVERY_BLOCK
    tiles = -(-rows // block[0])   # tiles of 32 x 32, DELIVERY_ROW_TILES of them a block
    blocks = (-(-n // block[0]), min(-(-tiles // DELIVERY_ROW_TILES), MAX_GRID_Y))
    shifted = potentials is not None
    h = potentials if shifted else out[0, :1]
    distances[blocks, block](d, out, sources, inf, unreached_value(out.dtype), h, shifted)
    tally.launch()
    if host is not None:
        _copy(out, host, download)
    if pred is not None:
        predecessors[blocks, block](pred, pred_out, sources)
        tally.launch()
        if pred_host is not None:
            _copy(pred_out, pred_host, download)


def _copy(device, host, download) -> None:
    """``device`` into ``host``: queued on ``download``, or at once without one."""
    if download is None:
        from ..cuda.downloads import download as at_once

        at_once(device, host)
    else:
        download.copy(device, host)


class Destination:
    """Where a run's rows go (:func:`choose_delivery`): a row-major matrix on the GPU, or
    host matrices (left unfilled: every row is delivered), fed through staging buffers
    of one launch's rows and a :class:`~warpath.cuda.downloads.Download`.

    Examples
    --------
    >>> from numba import cuda as nb
    >>> from warpath.cuda.counters import RunTally
    >>> out = Destination("host", 2, 3, np.int32, np.int32, predecessors=False)
    >>> out.stage(2)
    >>> d = nb.to_device(np.array([0, 5, 3, 0, 9, 9], np.int32))   # 3 vertices x 2 rows
    >>> out.write(0, d, nb.to_device(np.array([0, 1])), np.int32(9), RunTally())
    >>> out.matrix(np.array([0, 1]), {}).exact_distances.tolist()[0]
    [0, 3, 9223372036854775807]
    """

    def __init__(self, where: str, rows: int, num_vertices: int, out_dtype, index_dtype,
                 predecessors: bool):
        from numba import cuda as _cuda

        self.where = where
        self.out_dtype = np.dtype(out_dtype)
        self.predecessors = predecessors
        if where == "device":
            self.dist = _cuda.device_array((rows, num_vertices), dtype=self.out_dtype)
            self.pred = _cuda.device_array((rows, num_vertices) if predecessors else (1, 1),
                                           dtype=index_dtype)
        else:   # every entry is delivered: no fill (a fresh page is paid on first write)
            self.dist = np.empty((rows, num_vertices), dtype=self.out_dtype)
            self.pred = np.empty((rows, num_vertices if predecessors else 0), dtype=np.int64)
        self._staging = None
        self._download = None

    def pair_bytes(self, dtype, index_dtype) -> int:
        """Device bytes per task of a launch writing here (see :func:`pair_bytes`)."""
        staged = self.out_dtype if self.where == "host" else None
        return pair_bytes(dtype, index_dtype, staged, self.predecessors)

    def stage(self, width: int) -> None:
        """Allocate the staging buffers of launches of ``width`` rows (host delivery only)."""
        if self.where == "host":
            from numba import cuda as _cuda

            from ..cuda.downloads import Download

            self._download = Download()   # its host side overlaps the next launch's kernels

            n = self.dist.shape[1]
            self._staging = (_cuda.device_array((width, n), dtype=self.out_dtype),
                             _cuda.device_array((width, n) if self.predecessors else (1, 1),
                                                dtype=np.int64))

    def write(self, start: int, d, sources, inf, tally, pred=None, potentials=None,
              rows: int | None = None) -> None:
        """Deliver the rows ``start ...`` of one launch (``sources`` on the device): its
        first ``rows`` (all of ``sources`` by default; fewer when idle rows pad the
        launch, :func:`padded_rows`)."""
        rows = sources.shape[0] if rows is None else int(rows)
        block = slice(start, start + rows)
        if self.where == "device":
            deliver(d, sources, inf, self.dist[block], tally, pred=pred,
                    pred_out=self.pred[block], potentials=potentials)
            return
        out, pred_out = self._staging
        deliver(d, sources, inf, out[:rows], tally, host=self.dist[block], pred=pred,
                pred_out=pred_out[:rows], pred_host=self.pred[block], potentials=potentials,
                download=self._download)

    def matrix(self, sources, stats):
        """The :class:`~warpath.DistanceMatrix` of the delivered rows (once their copies to
        the host are done)."""
        from ..result import DistanceMatrix

        if self._download is not None:
            self._download.finish()

        return DistanceMatrix(sources, self.dist, self.pred if self.predecessors else None,
                              {**stats, "delivered": self.where})


def gpu_memory(graph, rows, predecessors, group: int = GROUP):
    """The registry's ``memory=`` hook of the task-parallel methods: ``(host, gpu)`` bytes.

    Host: the result matrices in the GPU's distance type (int32 where every path fits)
    with int64 predecessors, and the work arrays (what reading a result kept on the GPU
    takes too).  GPU: the graph (twice with predecessors: the reverse graph of the
    recording pass) and one launch of ``group`` sources streamed to the host, the least a
    run needs; a result kept on the GPU and wider launches take what is free beyond that.

    Examples
    --------
    >>> import warpath
    >>> host, gpu = gpu_memory(warpath.generators.ring(100, seed=0), 100, False)
    >>> host > 100 * 100 * 4, gpu >= 32 * 100 * 9
    (True, True)
    """
    from ..dtypes import distance_dtype, index_dtype
    from .memory import matrix_bytes, result_dtype, workspace_bytes

    n, m = graph.num_vertices, graph.num_edges
    dtype = distance_dtype(graph, (np.int32, np.int64), keep_float32=True, warn=False)
    index = index_dtype(max(n, m))
    host = matrix_bytes(rows, n, predecessors, result_dtype(graph, "cuda").itemsize)
    graph_bytes = (n + 1 + m) * index.itemsize + m * np.dtype(graph.weights.dtype).itemsize
    launch = min(int(rows), group) * n * pair_bytes(dtype, index, dtype, predecessors)
    return host + workspace_bytes(graph), graph_bytes * (2 if predecessors else 1) + launch
