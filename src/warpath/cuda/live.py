"""Live lists: the items a repeated pass still has to look at, narrowed by each pass.

A pull (:func:`~warpath.cuda.direction.pull`) walks a fixed list every time
it runs: the vertices with in-arcs.  Most of them are visited by the first
big pull of a small-world graph, yet a later pull still spends a check on
each (rmat(22, 16): 2.4M, ~24 a thread), and the few left unvisited are
scanned by threads that walk dozens of visited ones before and after them.  A
live list keeps, instead, the positions in that list of the items a pass left
unfinished, and the next pass walks only those.

It pays where a pass drops most of its list at once.  Where most items stay
live for several passes (the segments of a 64-search batch's pull, each
complete only once every search has reached its vertex), the appends cost
more than the walk saves: every warp's append is one atomic on the same
counter (measured in ``docs/performance.md``: the batch 0.1-0.4 ms slower).

A list is two buffers of positions and a control block of four int64 words:
the buffer being read, the sizes of both buffers (-1: never narrowed, every
position is live) and a flag set by a pass.  A pass reads the current buffer
(:func:`live_span`, :func:`live_position`) and appends what it keeps to the
other one (:func:`keep_live`: warp-aggregated, with its size word as the
counter); every thread of the grid must call it the same number of times.
The pass's thread 0 sets the flag (:func:`mark_passed`).  A later step of
the round, behind a grid barrier, turns the list (:func:`live_turn`): the
buffer just written becomes the one read, the other is emptied.  Passes need
not come in consecutive rounds; rounds without one leave the list as it is.

Whatever stays finished once may be dropped: a pass must keep every item that a
later pass could still have work for (a superset is correct, only slower).

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> live = LiveList(6)
>>> live.restart_fill()[1:]
(4, 0, 1, -1)
>>> @cuda.jit
... def keep_odd(items, control):
...     thread, stride = cuda.grid(1), cuda.gridsize(1)
...     current, size = live_span(items, control, 6)
...     for begin in range(0, size, stride):
...         i, keep, position = begin + thread, False, 0
...         if i < size:
...             position = live_position(items, control, current, i)
...             keep = position % 2 == 1
...         keep_live(items, control, current, position, keep)
...     mark_passed(control, thread)
>>> @cuda.jit
... def turn(items, control):
...     turn_live(control, cuda.grid(1))
>>> from warpath.cuda.fills import fill_job, run_fills
>>> run_fills([fill_job(*live.restart_fill())])
True
>>> keep_odd[1, 32](live.items, live.control); turn[1, 32](live.items, live.control)
>>> live.positions()
[1, 3, 5]
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda

from .frontier import enqueue
from .mappings import thread_per_vertex
from .operators import Operator

#: Control words: the buffer read, the sizes of buffers 0 and 1 (from SIZES), the flag.
CURRENT, SIZES, PASSED = 0, 1, 3
#: A size meaning "never narrowed: every position of the list is live".
WHOLE = -1


def position_dtype(capacity: int):
    """int32 for the positions of a list of up to 2**31 - 1, else int64.

    Examples
    --------
    >>> position_dtype(10).__name__, position_dtype(2**31).__name__
    ('int32', 'int64')
    """
    return np.int32 if capacity <= np.iinfo(np.int32).max else np.int64


class LiveList:
    """The two buffers (``items``, (2, capacity)) and the ``control`` block of a live list
    over a list of ``capacity`` positions; see the module notes.

    Examples
    --------
    >>> live = LiveList(5)
    >>> live.items.shape, live.items.dtype.name, live.control.shape
    ((2, 5), 'int32', (4,))
    """

    def __init__(self, capacity: int):
        self.capacity = int(capacity)
        self.items = cuda.device_array((2, max(self.capacity, 1)), dtype=position_dtype(capacity))
        self.control = cuda.device_array(4, dtype=np.int64)

    def positions(self) -> list:
        """The live positions now, ascending, read back to the host (for tests and
        inspection: two copies from the GPU)."""
        control = self.control.copy_to_host()
        current = int(control[CURRENT])
        size = int(control[SIZES + current])
        if size < 0:
            return list(range(self.capacity))
        return sorted(self.items.copy_to_host()[current, :size].tolist())

    def restart_fill(self) -> tuple:
        """The fill (``(array, count, value, at, at_value)``, see :mod:`warpath.cuda.fills`)
        that makes every position live again: buffer 0 read, never narrowed."""
        return (self.control, 4, 0, SIZES, WHOLE)


@cuda.jit(device=True)
def live_span(items, control, whole):
    """(current buffer, live positions) for a pass over a list of ``whole`` positions."""
    current = control[CURRENT]
    size = control[SIZES + current]
    if size < 0:
        size = whole
    return current, size


@cuda.jit(device=True)
def live_position(items, control, current, i):
    """The ``i``-th live position (``i`` below :func:`live_span`'s size)."""
    if control[SIZES + current] < 0:
        return i
    return items[current, i]


@cuda.jit(device=True)
def keep_live(items, control, current, position, keep):
    """Keep ``position`` for the next pass if ``keep``; every lane of the warp calls it."""
    enqueue(items[1 - current], control, SIZES + 1 - current, position, keep)


@cuda.jit(device=True)
def mark_passed(control, thread):
    """Thread 0 of a pass: the list has a new buffer to turn to."""
    if thread == 0:
        control[PASSED] = 1


@cuda.jit(device=True)
def turn_live(control, thread):
    """Thread 0, a step after a pass (behind a grid barrier): read what the pass kept
    and empty the other buffer; nothing in a round without a pass."""
    if thread == 0 and control[PASSED] != 0:
        current = control[CURRENT]
        control[SIZES + current] = 0
        control[CURRENT] = 1 - current
        control[PASSED] = 0


@functools.lru_cache(maxsize=None)
def narrowing(items_at: int):
    """The four device functions a pass over a list calls, for the live list at
    ``state[items_at]`` (its items) and ``state[items_at + 1]`` (its control), or for
    none when ``items_at`` is -1 (every position, every time):

    - ``span(state, whole) -> (current, size)``: the positions to walk;
    - ``position(state, current, i) -> p``: the ``i``-th of them;
    - ``keep(state, current, p, keep)``: keep ``p`` for the next pass (every lane);
    - ``passed(state, thread)``: at the pass's end, every thread.

    Examples
    --------
    >>> narrowing(-1) is narrowing(-1), len(narrowing(4))
    (True, 4)
    """
    if items_at < 0:
        @cuda.jit(device=True)
        def span_all(state, whole):
            return 0, whole

        @cuda.jit(device=True)
        def position_all(state, current, i):
            return i

        @cuda.jit(device=True)
        def keep_none(state, current, p, wanted):
            return

        @cuda.jit(device=True)
        def passed_none(state, thread):
            return

        return span_all, position_all, keep_none, passed_none
    control_at = items_at + 1

    @cuda.jit(device=True)
    def span(state, whole):
        return live_span(state[items_at], state[control_at], whole)

    @cuda.jit(device=True)
    def position(state, current, i):
        return live_position(state[items_at], state[control_at], current, i)

    @cuda.jit(device=True)
    def keep(state, current, p, wanted):
        keep_live(state[items_at], state[control_at], current, p, wanted)

    @cuda.jit(device=True)
    def passed(state, thread):
        mark_passed(state[control_at], thread)

    return span, position, keep, passed


@functools.lru_cache(maxsize=None)
def live_turn(control_at: int):
    """A step (an :class:`~warpath.cuda.operators.Operator`) turning the live list whose
    control block is ``state[control_at]``: put it in a step after the pass, e.g. with
    :func:`~warpath.cuda.operators.together`.

    Examples
    --------
    >>> live_turn(3) is live_turn(3)
    True
    """
    @cuda.jit(device=True)
    def op(graph, frontier, state, conv, rows, r, thread, stride):
        turn_live(state[control_at], thread)
        return 0

    return Operator(op, thread_per_vertex())


__all__ = ["position_dtype", "LiveList", "live_span", "live_position", "keep_live", "mark_passed",
           "turn_live", "narrowing", "live_turn", "WHOLE"]
