"""Task-parallel rounds over whole items (``whole_items=True`` of ``task-parallel``).

The frontier form of :mod:`warpath.apsp.task_parallel` keeps a word of lane bits
per item (a vertex and 32 rows) and expands only the rows whose bit is set.  On
random(1M, 6M) about 1.5 of an item's 32 rows are active in a round, so most of a
warp's lanes idle, and the bits cost an atomic ``or`` per lowered distance, a
queue entry per item and a warp barrier per item.  Here an item in the round
relaxes **all** its rows, a lane per row, every lane reading the same arcs.  A row
whose distance did not change since it last relaxed these arcs lowers nothing,
and its read of the head's distance shares a 128-byte line with the rows that do
change, so it costs no extra traffic.

No queue either: each item has a mark byte for even rounds and one for odd rounds.
A lowering in round r sets the head's item's mark for round r + 1 (a plain store,
whoever stores it), and round r sweeps every item's mark for r, a warp reading 32
at once (:func:`~warpath.cuda.operators.advance_marked`), so joining the next round
costs no atomic and no wait.  A second step, after the round's barrier, clears the
marks for r, which round r + 1 sets again for r + 2.  (One stamp an item, "due in
round r", stored over by a lowering in round r, lost its round when the lowering
came before the sweep reached it: on a ring, every item waited behind its
predecessor's, and the rounds ran past the negative-cycle bound.)  Each lane takes
four arcs at once: it loads their heads, then its row's distance at each head,
before relaxing any.

A CPU model of the rounds on random(1M, 6M), 32 sources
(``bench/whole_items_model.py``) expands 53-85M (item, arc) pairs a launch, 8.8 to
14 per arc, in 28-35 rounds: 7.9-12.7 GB of distance lines, 2-3 ms at the H200's
bandwidth.  Measured there (H200, 1,000 sources, same call): 48.7M pairs and 13.3 ms
a launch, 0.425 s in all against 0.490 s for the default (items of lane bits with
near-far); on Okuyama's V = 4,677 graphs faster on the random (0.018 against 0.050 s)
and complete ones, slower on the power-law graph (0.129 against 0.030 s: a warp walks
a hub's 834 arcs alone) and on the ring (every round sweeps every mark).  So it is an
option, not the default (docs/performance.md, twenty-sixth session).  Its positions
computed without numba's wraparound (:func:`~warpath.cuda.indices.at`) took the 1,000
sources from 0.426 to 0.344 s (twenty-seventh session).

State: ``(d, marks, W, items, inf, floor, groups)`` (:meth:`WholeItems.start`), the
marks for round r at ``(r & 1) * items + item``.

Examples
--------
>>> import warpath
>>> g = warpath.generators.random(50, 200, seed=3)
>>> a = warpath.multi_source(g, [0, 7], device="cuda", whole_items=True)
>>> b = warpath.multi_source(g, [0, 7], device="cpu")
>>> bool((a.distances == b.distances).all()), a.stats["whole_items"]
(True, True)
"""

from __future__ import annotations

import functools

import numpy as np

#: numba.cuda, bound by :func:`whole_item_steps` on first use (a module global, not a
#: local: the CUDA simulator swaps module globals).
cuda = None

#: The rows of a whole item: a warp, a lane per row.
ITEM_ROWS = 32


@functools.lru_cache(maxsize=None)
def whole_item_steps() -> list:
    """The steps of a round over whole items: an
    :func:`~warpath.cuda.operators.advance_marked` over the items marked for the round,
    then a :func:`~warpath.cuda.operators.filter_indices` that clears those marks.

    Examples
    --------
    >>> steps = whole_item_steps()
    >>> len(steps), steps[0].mapping.kind, steps[0].mapping.lanes
    (2, 'marked-items', (32, 32))
    """
    global cuda
    from numba import cuda

    from ..cuda.flags import NEGATIVE_CYCLE
    from ..cuda.indices import at
    from ..cuda.operators import advance_marked, filter_indices

    @cuda.jit(device=True)
    def active(state, item, r):
        """Whether ``item`` is marked for round r."""
        return state[1][at(r & 1, state[3], item)] != 0

    @cuda.jit(device=True)
    def gather(state, row, u, r):
        """Row ``row`` of u's item: its distance; rows past the launch's last and
        unreached rows stay idle."""
        if row >= state[2]:
            return False, state[4]
        du = state[0][at(u, state[2], row)]
        return du != state[4], du

    @cuda.jit(device=True)
    def peek(state, row, v):
        """Row ``row``'s distance at the head v, read before the arc's relaxation."""
        return state[0][at(v, state[2], row)]

    @cuda.jit(device=True)
    def relax(state, row, u, du, v, w, dv, e, r, conv):
        """d[v, row] = min(d[v, row], du + w) when the peeked ``dv`` says it lowers, and
        v's item is then marked for round r + 1.  A candidate below the floor proves a
        negative cycle and is not written."""
        candidate = du + w
        if not candidate < dv:
            return False
        if candidate < state[5]:
            conv[NEGATIVE_CYCLE] = 1
            return False
        cuda.atomic.min(state[0], at(v, state[2], row), candidate)
        state[1][at((r + 1) & 1, state[3], at(v, state[6], row // ITEM_ROWS))] = 1
        return True

    @cuda.jit(device=True)
    def every_item(graph, frontier, state, conv, r, thread):
        return state[3]

    @cuda.jit(device=True)
    def unmark(state, row, item, r, conv):
        """Clear ``item``'s mark for round r (every lane has read it)."""
        state[1][at(r & 1, state[3], item)] = 0
        return False

    return [advance_marked(active, gather, peek, relax), filter_indices(every_item, unmark)]


@functools.lru_cache(maxsize=None)
def _mark_kernel():
    """``mark(marks, sources, groups)``: round 0's mark on each row's source item (after
    ``gpu_rows``' start kernel has filled d and cleared every mark)."""
    global cuda
    from numba import cuda

    @cuda.jit
    def mark(marks, sources, groups):
        row = cuda.grid(1)
        if row < sources.shape[0]:
            marks[sources[row] * groups + row // ITEM_ROWS] = 1

    return mark


class WholeItems:
    """The whole items' marks (two bytes an item) for launches of up to ``width`` rows on
    ``n`` vertices.

    Examples
    --------
    >>> import warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> from warpath.cuda.problem import Problem
    >>> from numba import cuda as nb
    >>> dgraph = device_graph(warpath.generators.ring(3, seed=0, weights=None))
    >>> items = WholeItems(3, 40)   # two items a vertex
    >>> d = nb.device_array(3 * 2, np.int32)
    >>> problem = Problem(dgraph, [2, 1], distances=d)
    >>> state = items.start(d, nb.to_device(np.array([2, 1])), problem)
    >>> state[1].copy_to_host().tolist(), d.copy_to_host().tolist()[:4]
    ([0, 1, 1, 0, 0, 0], [2147483647, 2147483647, 2147483647, 0])
    """

    def __init__(self, n: int, width: int):
        from numba import cuda as _cuda

        from ..cuda.mappings import item_groups

        self.n = n
        self.marks = _cuda.device_array(2 * n * item_groups(width), dtype=np.uint8)

    def start(self, d, on_device, problem) -> tuple:
        """Start a launch of the rows ``on_device`` (sources on the GPU): the state tuple
        of :func:`whole_item_steps`."""
        from ..cuda.mappings import item_groups
        from ..cuda.runtime import THREADS, blocks_for
        from . import gpu_rows

        rows = on_device.shape[0]
        groups = item_groups(rows)
        marks = self.marks[:2 * self.n * groups]
        start_items = gpu_rows._kernels()[3]   # d filled, every mark cleared
        start_items[blocks_for(max(d.shape[0], marks.shape[0])), THREADS](
            d, marks, on_device, problem.inf)
        _mark_kernel()[blocks_for(rows), THREADS](marks, on_device, np.int64(groups))
        problem.tally.launch(2)
        return (d, marks, np.int64(rows), np.int64(self.n * groups), problem.inf,
                problem.floor, np.int64(groups))
