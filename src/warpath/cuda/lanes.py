"""Lane arithmetic for a warp that spreads an item's work over its lanes.

A warp expanding a many-source item (:func:`~warpath.cuda.mappings.frontier_tasks`)
holds one row of the item in each lane, but on a sparse round only one or two of
the 32 rows are active.  With ``spread=True`` the warp deals the item's
``k x d`` pairs (d arcs, k active rows) over its 32 lanes instead of walking the
arcs lane per row: pair ``p`` is arc ``p // k`` in the ``p % k``-th active row.

- :func:`nth_set_bit` names that row: the lane of the n-th set bit of the mask
  (pure bit arithmetic, run by the simulator too).
- :func:`first_pair`, :func:`pair_steps` and :func:`next_pair` step a lane through
  its pairs, 32 apart: two 32-bit divisions per item, none per pair.
- :func:`vote` and :func:`pick` are the warp's ballot and shuffle.  The CUDA
  simulator has neither (nor a warp barrier), so there they raise, and the
  operators that use them keep a lane-per-row loop under the simulator.
- :func:`held` is a lane's value handed to itself by a shuffle, to keep the compiler
  from hoisting what a loop derives from it (the value itself under the simulator).

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def rows_of(mask, out):
...     i = cuda.grid(1)
...     out[i] = nth_set_bit(mask, i)
>>> out = cuda.to_device(np.zeros(3, np.int64))
>>> rows_of[1, 3](np.uint32(0b1010_0100), out)
>>> out.copy_to_host().tolist()
[2, 5, 7]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .runtime import SIMULATOR

#: Every lane of a warp, the mask of a vote or a pick by all of them.
WARP = np.uint32(0xFFFFFFFF)


@cuda.jit(device=True)
def nth_set_bit(mask, n):
    """The position of the ``n``-th set bit (counting from 0) of the 32-bit ``mask``; any
    position in [0, 31] when ``n`` is not below the bits set.  A binary search of five
    population counts, the same cost for every ``n``.  ``mask`` may be a signed int32 (a
    vote is: lane 31's bit makes it negative); only its low 32 bits are read."""
    bits = np.int64(mask)
    n = np.int64(n)
    position = np.int64(0)
    # Each step: is the bit in the low half of the window, or the high half?  Written out
    # for the widths 16, 8, 4, 2, 1; a loop over them would do the same, but this is the
    # form that was measured and checked on the H100.
    low = np.int64(cuda.popc(bits & 0xFFFF))
    if n >= low:
        n -= low
        bits >>= 16
        position += 16
    low = np.int64(cuda.popc(bits & 0xFF))
    if n >= low:
        n -= low
        bits >>= 8
        position += 8
    low = np.int64(cuda.popc(bits & 0xF))
    if n >= low:
        n -= low
        bits >>= 4
        position += 4
    low = np.int64(cuda.popc(bits & 0x3))
    if n >= low:
        n -= low
        bits >>= 2
        position += 2
    if n >= (bits & 1):
        position += 1
    return position


@cuda.jit(device=True)
def first_pair(lane, k):
    """``(arc, rank)`` of pair ``lane`` of an item with ``k`` active rows: pair p is arc
    ``p // k`` in active row ``p % k``.  One 32-bit unsigned division, once per item (a
    64-bit one is a long subroutine on the GPU).  See :func:`_demo_pairs` for an example."""
    arc = np.int64(np.uint32(lane) // np.uint32(k))
    return arc, np.int64(lane) - arc * np.int64(k)


@cuda.jit(device=True)
def pair_steps(k):
    """``(arc_step, rank_step)``: how far 32 pairs move ``(arc, rank)`` for ``k`` active
    rows, before the carry of :func:`next_pair`.  Computed once per item."""
    arc_step = np.int64(np.uint32(32) // np.uint32(k))
    return arc_step, 32 - arc_step * np.int64(k)


@cuda.jit(device=True)
def next_pair(arc, rank, k, steps):
    """``(arc, rank)`` of the pair 32 after ``(arc, rank)`` (the lane's next pair), with
    ``steps`` from :func:`pair_steps`: no division.  See :func:`_demo_pairs` for an
    example."""
    rank += steps[1]
    arc += steps[0]
    if rank >= k:
        rank -= k
        arc += 1
    return arc, rank


if SIMULATOR:
    @cuda.jit(device=True)
    def vote(active):
        """The warp's ballot (GPU only: the simulator has no warp votes)."""
        raise NotImplementedError("the CUDA simulator has no warp votes")

    @cuda.jit(device=True)
    def pick(value, lane):
        """Lane ``lane``'s ``value`` (GPU only: the simulator has no warp shuffles)."""
        raise NotImplementedError("the CUDA simulator has no warp shuffles")

    @cuda.jit(device=True)
    def held(value):
        """``value`` (see the GPU form)."""
        return value
else:
    @cuda.jit(device=True)
    def vote(active):
        """The bits of the warp's lanes whose ``active`` is true; every lane calls it."""
        return cuda.ballot_sync(WARP, active)

    @cuda.jit(device=True)
    def pick(value, lane):
        """Lane ``lane``'s ``value``, in every lane; every lane calls it."""
        return cuda.shfl_sync(WARP, value, lane)

    @cuda.jit(device=True)
    def held(value):
        """``value``, handed by this lane to itself: the same value, which the compiler
        cannot prove the same.  Carried round a loop this way, a value loaded before
        the loop is not consumed before the loop starts: what the loop derives from it
        (the widening of a row's distance for its sums) is not hoisted in front of the
        loop, where it would wait for the load before the loop's own loads are sent.
        Every lane calls it."""
        return cuda.shfl_sync(WARP, value, cuda.laneid)


@cuda.jit
def _demo_pairs(k, arcs, rows, mask):
    """Docstring example: lane ``t``'s pairs of an item of ``k`` active rows (``mask``) and
    ``arcs.shape[0]`` arcs, as the spread advance walks them: ``arcs[a, rank]`` and
    ``rows[a, rank]`` record who took each pair.

    >>> import numpy as np
    >>> arcs = cuda.to_device(np.full((3, 2), -1, np.int64))
    >>> rows = cuda.to_device(np.full((3, 2), -1, np.int64))
    >>> _demo_pairs[1, 32](2, arcs, rows, np.uint32(0b1001))
    >>> arcs.copy_to_host().tolist(), rows.copy_to_host().tolist()
    ([[0, 1], [2, 3], [4, 5]], [[0, 3], [0, 3], [0, 3]])
    """
    lane = cuda.grid(1)
    total = k * arcs.shape[0]
    arc, rank = first_pair(lane, k)
    steps = pair_steps(k)
    for base in range(0, total, 32):
        if base + lane < total:
            arcs[arc, rank] = base + lane
            rows[arc, rank] = nth_set_bit(mask, rank)
        arc, rank = next_pair(arc, rank, k, steps)
