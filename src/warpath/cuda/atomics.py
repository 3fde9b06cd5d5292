"""Atomic helpers shared by the relaxing kernels.

The one relax step of every Bellman-Ford-family method here is
``atomicMin(d[v], candidate)`` (Agarwal Alg. 3, Safari Alg. 2); it must also
say whether it lowered ``d[v]`` (to set a flag, enqueue ``v`` or count a
change) and refuse to go below the floor that proves a negative cycle
(:func:`warpath.cuda.distances.floor_value`), raising the cycle flag instead.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def demo(d, flags):
...     relax_min(d, 0, d.dtype.type(3), d.dtype.type(-100), flags)
>>> d, flags = cuda.to_device(np.array([5])), cuda.to_device(np.zeros(4, np.int32))
>>> demo[1, 1](d, flags); d.copy_to_host().tolist()
[3]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .flags import NEGATIVE_CYCLE
from .runtime import SIMULATOR


@cuda.jit(device=True)
def relax_min(d, v, candidate, floor, conv):
    """Lower ``d[v]`` to ``candidate`` atomically; True if this call lowered it.

    A candidate below ``floor`` proves a negative cycle: it is not written,
    and ``conv[NEGATIVE_CYCLE]`` is set, which stops the rounds (within two rounds in a
    persistent kernel: :mod:`warpath.cuda.flags`) and tells the host.

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def below_floor(d, conv):
    ...     relax_min(d, 0, d.dtype.type(-200), d.dtype.type(-100), conv)
    >>> d, conv = cuda.to_device(np.array([5])), cuda.to_device(np.zeros(4, np.int32))
    >>> below_floor[1, 1](d, conv); d.copy_to_host().tolist(), int(conv.copy_to_host()[3])
    ([5], 1)
    """
    if candidate >= d[v]:  # the cheap read first: most relax tests fail (Agarwal Alg. 3, line 2)
        return False
    if candidate < floor:
        conv[NEGATIVE_CYCLE] = 1
        return False
    return cuda.atomic.min(d, v, candidate) > candidate


@cuda.jit(device=True)
def claim(owner, v, who, free):
    """Set ``owner[v] = who`` if it still holds ``free``; True for the one caller that did.

    The word is read first: a claimed word is never freed during a pass, so a caller
    that sees it taken loses without an atomic (thousands of tails offering one R-MAT
    hub would otherwise queue on its word).

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def first_wins(owner, won):
    ...     won[cuda.grid(1)] = claim(owner, 0, cuda.grid(1), -1)
    >>> owner, won = cuda.to_device(np.array([-1])), cuda.to_device(np.zeros(4, np.bool_))
    >>> first_wins[1, 4](owner, won); int(won.copy_to_host().sum())
    1
    """
    return owner[v] == free and cuda.atomic.cas(owner, v, free, who) == free


if SIMULATOR:
    @cuda.jit(device=True)
    def warp_or_into(words, slot, bits):
        """OR ``bits`` into ``words[slot]``; every lane of the warp calls it.  Simulator (no
        shuffles): one atomic per lane that adds a bit (see :func:`_demo_union`)."""
        if (words[slot] & bits) != bits:
            cuda.atomic.or_(words, slot, bits)
else:
    @cuda.jit(device=True)
    def warp_or_into(words, slot, bits):
        """OR ``bits`` into ``words[slot]``; every lane of the warp calls it.  The warp's OR
        of its lanes' bits (five shuffles), then one atomic by lane 0, only if it adds a
        bit: the word is one address that every warp of the grid updates.
        See :func:`_demo_union`."""
        shuffled = np.int64(bits)   # shuffles take signed words: the same 64 bits
        shuffled |= cuda.shfl_xor_sync(0xFFFFFFFF, shuffled, 16)
        shuffled |= cuda.shfl_xor_sync(0xFFFFFFFF, shuffled, 8)
        shuffled |= cuda.shfl_xor_sync(0xFFFFFFFF, shuffled, 4)
        shuffled |= cuda.shfl_xor_sync(0xFFFFFFFF, shuffled, 2)
        shuffled |= cuda.shfl_xor_sync(0xFFFFFFFF, shuffled, 1)
        total = words.dtype.type(shuffled)
        if cuda.laneid == 0 and (words[slot] & total) != total:
            cuda.atomic.or_(words, slot, total)


if SIMULATOR:
    @cuda.jit(device=True)
    def take_lane(words, slot, lane, width):
        """Whether bit ``lane`` of ``words[slot]`` is set, leaving the word cleared once every
        lane of the group has called it for the same slot.  Simulator (no warp barrier):
        each lane clears its own bit atomically (see :func:`_demo_take`)."""
        bit = words.dtype.type(1) << words.dtype.type(lane)
        return (cuda.atomic.and_(words, slot, ~bit) & bit) != 0
else:
    @cuda.jit(device=True)
    def take_lane(words, slot, lane, width):
        """Whether bit ``lane`` of ``words[slot]`` is set, leaving the word cleared; the
        ``width`` lanes of an aligned group of the warp (8, 16 or 32; ``lane`` is the
        caller's place in it) call it for the same slot (a frontier item's word of lanes,
        read by the lanes that expand the item): they read, meet at a barrier of the
        group's lanes, and the group's first lane stores the zero, instead of one atomic
        a lane on one address.  Every lane of the group must call it (a barrier of only
        the lanes active at the time would let the clear overtake a read).  Nothing else
        may write the word meanwhile.  See :func:`_demo_take`."""
        word = words[slot]
        first = cuda.laneid - lane
        cuda.syncwarp((np.uint32(0xFFFFFFFF) >> np.uint32(32 - width)) << np.uint32(first))
        if lane == 0:
            words[slot] = 0
        return ((word >> lane) & 1) != 0


@cuda.jit
def _demo_take(words, taken, width):
    """Docstring example: each group of ``width`` lanes takes word ``thread // width`` of
    ``words``, a lane per bit (a warp a word for 32).

    >>> import numpy as np
    >>> words = cuda.to_device(np.array([0b1010, 1 << 31], np.uint32))
    >>> taken = cuda.to_device(np.zeros(64, np.bool_))
    >>> _demo_take[2, 32](words, taken, 32)
    >>> np.flatnonzero(taken.copy_to_host()).tolist(), words.copy_to_host().tolist()
    ([1, 3, 63], [0, 0])

    Groups of 8 lanes (four words a warp): ``width`` 8.

    >>> words = cuda.to_device(np.array([1, 0, 0b110, 0, 0, 0, 0, 1 << 7], np.uint32))
    >>> taken = cuda.to_device(np.zeros(64, np.bool_))
    >>> _demo_take[2, 32](words, taken, 8)
    >>> np.flatnonzero(taken.copy_to_host()).tolist(), words.copy_to_host().tolist()
    ([0, 17, 18, 63], [0, 0, 0, 0, 0, 0, 0, 0])
    """
    thread = cuda.grid(1)
    taken[thread] = take_lane(words, thread // width, thread % width, width)


@cuda.jit
def _demo_union(words, bits):
    """Docstring example: the OR of ``bits`` (one per thread) into ``words[0]``.

    >>> import numpy as np
    >>> words = cuda.to_device(np.zeros(1, np.uint64))
    >>> bits = cuda.to_device(np.array([1 << (i % 5) for i in range(64)], np.uint64))
    >>> _demo_union[2, 32](words, bits); int(words.copy_to_host()[0])
    31
    """
    warp_or_into(words, 0, bits[cuda.grid(1)])
