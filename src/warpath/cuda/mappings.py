"""Mappings: how the work of one operator is spread over GPU threads.

A mapping is a value, not code: the operators of :mod:`~warpath.cuda.operators`
take one and compile the matching loop.  Choosing a mapping is choosing a
load-balancing policy (Gunrock's advance strategies), not rewriting a method.

- :func:`thread_per_edge`: every arc of the graph, one thread each (Agarwal &
  Dutta's edge-parallel relax); needs the arcs' tails.
- :func:`thread_per_vertex`: every vertex, one thread each (Harish's kernels).
- :func:`frontier`: the vertices of a frontier queue; ``lanes`` threads share
  one vertex's arcs (a *virtual warp*, H-BF section 5.2).  With
  ``lanes=(4, 32)`` the size is chosen every round as the largest power of two
  not above (resident threads / frontier size), clamped to those bounds.
  ``heavy_degree=T`` keeps vertices of more than T arcs in a second queue that
  the whole grid expands together (H-BF section 5.3's dynamic parallelism,
  done inside the persistent grid).  ``balanced=True`` replaces the virtual
  warps by a block-wide balance: a block takes a chunk of frontier vertices
  (one per thread), sums their degrees and deals the chunk's arcs evenly to
  its threads, so a vertex of 2,000 arcs beside ones of 3 keeps every lane
  busy (Merrill et al.'s and Gunrock's load-balanced advance, per block).
- :func:`vertex_groups`: every vertex, ``per_thread`` consecutive vertices a
  thread (Safari & Ebnenasir Alg. 8), for operators that walk arcs themselves.
- :func:`tasks`: every (vertex, row) pair of a many-source problem, one thread
  each, vertex-major (Okuyama et al. section 5): the threads of a vertex's rows
  are neighbours and share each read of its arcs.
- :func:`frontier_tasks`: the same tasks, but only those of a frontier queue of
  *items*, an item being a vertex and a group of 32 rows (a warp: a lane per
  row), so a round costs what its frontier holds, not n x rows threads.
- :func:`marked_items`: the items marked for the round, found by a sweep of every
  item's mark (a warp reads 32 at once) instead of a queue: joining the next round
  is a plain store, no atomic.

Examples
--------
>>> frontier(lanes=(4, 32), heavy_degree=4096)
Mapping(kind='frontier', lanes=(4, 32), heavy_degree=4096, per_thread=1, balanced=False, value_type='int64', wide=False, spread=False)
>>> thread_per_edge().items(10, 40, 1)
40
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import cuda

from ..errors import OptionError

KINDS = ("edges", "vertices", "frontier", "vertex-groups", "tasks", "frontier-tasks",
         "marked-items")

#: Rows of one :func:`frontier_tasks` item by default: a warp, a lane per row.
ITEM_ROWS = 32

#: The item widths :func:`frontier_tasks` takes: a warp, half a warp or a quarter
#: (8 rows of 4 bytes: one 32-byte sector).
ITEM_WIDTHS = (8, 16, 32)

#: H-BF section 5.2's virtual warps: 4 to 32 lanes a frontier vertex, sized every round.
VIRTUAL_WARP_LANES = (4, 32)


@dataclass(frozen=True)
class Mapping:
    """One way of assigning work to threads; build it with the functions of this module.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    lanes : (int, int)
        Threads per frontier vertex: fixed when both are equal, else chosen per
        round between them (powers of two up to 32).
    heavy_degree : int
        Frontier vertices above this out-degree are expanded by the whole grid (0: off).
    per_thread : int
        Consecutive vertices per thread (``vertex-groups``).
    balanced : bool
        ``frontier`` only: arcs dealt evenly over a block's threads (``lanes`` unused).
    value_type : str
        ``balanced`` only: the numpy type of the value a method's ``gather`` returns
        (a distance, a level), kept in shared memory for the lanes that visit the arcs.
    wide : bool
        ``frontier`` with ``lanes`` reaching 32 only: when the per-round size is 32
        lanes and one-warp groups would leave all but 1 /
        :data:`~warpath.cuda.operators.WIDE_FROM` of the grid idle, each vertex gets
        the largest power of two of threads that fits the grid at least twice over
        (several warps), so a tiny frontier's arcs spread over the whole grid.
    spread : bool
        ``frontier-tasks`` of 32 rows only: an item's pairs of (arc, active row) are
        dealt over the warp's lanes (:mod:`~warpath.cuda.lanes`) instead of each lane
        walking every arc for its own row, so an item with one active row and six arcs
        takes one pass of the warp, not six.
    """

    kind: str
    lanes: tuple = (1, 1)
    heavy_degree: int = 0
    per_thread: int = 1
    balanced: bool = False
    value_type: str = "int64"
    wide: bool = False
    spread: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"mapping kind must be one of {KINDS}, not {self.kind!r}")
        low, high = self.lanes
        for value in (low, high):
            if value not in (1, 2, 4, 8, 16, 32):
                raise ValueError(f"lanes must be powers of two up to 32, not {self.lanes}")
        if low > high:
            raise ValueError(f"lanes {self.lanes}: the lower bound is above the upper")
        if self.heavy_degree < 0 or self.per_thread < 1:
            raise ValueError("heavy_degree must be >= 0 and per_thread >= 1")
        if (self.balanced or self.wide) and self.kind != "frontier":
            raise ValueError(f"only a frontier mapping can be balanced or wide, not {self.kind!r}")
        if self.wide and high != 32:
            raise ValueError(f"a wide mapping's lanes must reach 32, not {self.lanes}")
        if self.spread and (self.kind != "frontier-tasks" or self.lanes != (32, 32)):
            raise ValueError(f"only frontier tasks of 32 rows can be spread, not {self}")

    def items(self, num_vertices: int, num_edges: int, rows: int) -> int:
        """How many threads one pass wants (the grid size before capping).

        Examples
        --------
        >>> vertex_groups(2).items(11, 0, 1), tasks().items(10, 0, 32)
        (6, 320)
        >>> frontier_tasks().items(10, 0, 40)   # two items a vertex, a warp each
        640
        """
        if self.kind == "edges":
            return num_edges
        if self.kind == "vertex-groups":
            return -(-num_vertices // self.per_thread)
        if self.kind == "tasks":
            return num_vertices * rows
        if self.kind == "marked-items":
            return num_vertices * item_groups(rows) * ITEM_ROWS
        if self.kind == "frontier-tasks":
            width = self.lanes[0]
            return num_vertices * item_groups(rows, width) * width
        if self.balanced:  # the work is the arcs, dealt evenly
            return max(num_vertices, num_edges)
        return num_vertices * self.lanes[1]

    @property
    def spreads_lanes(self) -> bool:
        """Whether an advance over this mapping deals an item's (arc, active row) pairs
        over a warp's lanes: ``spread``, on a GPU (the CUDA simulator, which has no warp
        votes or shuffles, walks a lane a row instead).

        Examples
        --------
        >>> from warpath.cuda.runtime import SIMULATOR
        >>> frontier_tasks(spread=True).spreads_lanes is not SIMULATOR
        True
        >>> frontier_tasks().spreads_lanes
        False
        """
        from .runtime import SIMULATOR

        return self.spread and not SIMULATOR

    @property
    def fills_gpu(self) -> bool:
        """Whether a persistent grid running this mapping may take every resident block
        when its passes are large (:func:`~warpath.cuda.runtime.cooperative_blocks`).

        Not for vertex groups: Safari's k-step waves ran slower on a full GPU (H100,
        random(10M, 60M): 116 ms against 96 ms), the other mappings faster (edge-bf 76
        against 88 ms).

        Examples
        --------
        >>> thread_per_edge().fills_gpu, vertex_groups(2).fills_gpu
        (True, False)
        """
        return self.kind != "vertex-groups"


def thread_per_edge() -> Mapping:
    """Every arc, one thread each (needs ``DeviceGraph.tails``).

    Examples
    --------
    >>> thread_per_edge().kind
    'edges'
    """
    return Mapping("edges")


def thread_per_vertex() -> Mapping:
    """Every vertex, one thread each.

    Examples
    --------
    >>> thread_per_vertex().kind
    'vertices'
    """
    return Mapping("vertices")


def frontier(lanes=1, heavy_degree: int = 0, balanced: bool = False,
             value_type: str = "int64", wide: bool = False) -> Mapping:
    """The vertices of a frontier queue; ``lanes`` an int or a ``(low, high)`` range, or
    ``balanced`` arcs dealt over each block (``value_type``: what ``gather`` returns);
    ``wide``: groups wider than a warp on tiny frontiers (see :class:`Mapping`).

    Examples
    --------
    >>> frontier().lanes, frontier(8).lanes
    ((1, 1), (8, 8))
    >>> frontier(balanced=True, value_type="float32").balanced
    True
    >>> frontier((4, 32), wide=True).wide
    True
    """
    if isinstance(lanes, int):
        lanes = (lanes, lanes)
    return Mapping("frontier", tuple(lanes), int(heavy_degree), 1, bool(balanced),
                   str(value_type), bool(wide))


def frontier_lanes(virtual_warps, one_thread: bool = True):
    """``(lanes, balanced)`` for a method's ``virtual_warps`` option, for :func:`frontier`.

    True: the paper's virtual warps; ``"block"``: the same on small frontiers,
    arcs dealt over blocks on wide ones; False (where ``one_thread`` allows it):
    one thread per vertex.

    Raises
    ------
    OptionError
        For any other value.

    Examples
    --------
    >>> frontier_lanes(True), frontier_lanes("block"), frontier_lanes(False)
    (((4, 32), False), ((4, 32), True), ((1, 1), False))
    """
    if isinstance(virtual_warps, (bool, np.bool_)) and (virtual_warps or one_thread):
        return (VIRTUAL_WARP_LANES if virtual_warps else (1, 1)), False
    if isinstance(virtual_warps, str) and virtual_warps == "block":
        return VIRTUAL_WARP_LANES, True
    allowed = "True, False or 'block'" if one_thread else "True or 'block'"
    raise OptionError(f"virtual_warps must be {allowed}, not {virtual_warps!r}")


def vertex_groups(per_thread: int) -> Mapping:
    """Every vertex, ``per_thread`` consecutive vertices to a thread.

    Examples
    --------
    >>> vertex_groups(2).per_thread
    2
    """
    return Mapping("vertex-groups", per_thread=int(per_thread))


def tasks() -> Mapping:
    """Every (vertex, row) pair, one thread each, rows of a vertex side by side.

    Examples
    --------
    >>> tasks().kind
    'tasks'
    """
    return Mapping("tasks")


def frontier_tasks(item_rows: int = ITEM_ROWS, spread: bool = False) -> Mapping:
    """The (vertex, row) tasks of a frontier queue of items, ``item_rows`` lanes per item
    (one of :data:`ITEM_WIDTHS`: a warp, or two or four items to a warp); ``spread``
    (32 rows only) deals an item's (arc, active row) pairs over its lanes.

    Item ``i`` is vertex ``i // G`` with rows ``W (i % G)`` to ``W (i % G) + W - 1``
    (the lanes past the last row idle), where ``W = item_rows`` and
    ``G = item_groups(rows, W)``; a task's vertex-major index ``v * rows + row`` is
    then ``W i + lane`` whenever rows is a multiple of W.  The method's ``gather``
    says which lanes of an item are active (a word of lane bits per item, say; the
    lanes of an item share their trip counts, so they may meet at a barrier of their
    own, :func:`~warpath.cuda.atomics.take_lane`), and its ``visit`` returns True
    for the one relax that must put the head's item in the next frontier.

    Examples
    --------
    >>> frontier_tasks().kind, item_groups(32), item_groups(33), item_groups(4)
    ('frontier-tasks', 1, 2, 1)
    >>> frontier_tasks(8).lanes, item_groups(33, 8), frontier_tasks(8).items(10, 0, 40)
    ((8, 8), 5, 400)
    >>> frontier_tasks(12)
    Traceback (most recent call last):
    warpath.errors.OptionError: item_rows must be one of (8, 16, 32), not 12
    >>> frontier_tasks(spread=True).spread
    True
    >>> frontier_tasks(8, spread=True)
    Traceback (most recent call last):
    warpath.errors.OptionError: spread needs items of 32 rows, not 8
    """
    if item_rows not in ITEM_WIDTHS or isinstance(item_rows, bool):
        raise OptionError(f"item_rows must be one of {ITEM_WIDTHS}, not {item_rows!r}")
    if spread and item_rows != 32:
        raise OptionError(f"spread needs items of 32 rows, not {item_rows}")
    return Mapping("frontier-tasks", lanes=(int(item_rows), int(item_rows)),
                   spread=bool(spread))


def marked_items() -> Mapping:
    """Every item (a vertex and 32 rows, a warp: a lane a row) marked for the round.

    A round sweeps the marks of all items, each warp reading those of 32 items at
    once; the method's ``active(state, item, r)`` reads one, and its ``visit`` marks
    the head's item for round r + 1 (a plain store).  Item ``i`` is vertex ``i // G``
    with rows ``32 (i % G)`` to ``32 (i % G) + 31``, ``G = item_groups(rows)``, as for
    :func:`frontier_tasks`.  See :func:`~warpath.cuda.operators.advance_marked`.

    Examples
    --------
    >>> marked_items().kind, marked_items().items(10, 0, 40)   # two items a vertex
    ('marked-items', 640)
    """
    return Mapping("marked-items", lanes=(ITEM_ROWS, ITEM_ROWS))


def item_groups(rows: int, item_rows: int = ITEM_ROWS) -> int:
    """Items per vertex of a :func:`frontier_tasks` frontier of ``rows`` rows, ``item_rows``
    to an item (see there)."""
    return max(1, -(-int(rows) // int(item_rows)))


@cuda.jit(device=True)
def virtual_warp_lanes(threads, size, low, high):
    """H-BF section 5.2: the largest power of two <= threads / size, within [low, high].

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def pick(out):
    ...     out[0] = virtual_warp_lanes(1024, 40, 4, 32)
    ...     out[1] = virtual_warp_lanes(1024, 1000, 4, 32)
    ...     out[2] = virtual_warp_lanes(1024, 1, 4, 32)
    >>> out = cuda.to_device(np.zeros(3, np.int64)); pick[1, 1](out)
    >>> out.copy_to_host().tolist()
    [16, 4, 32]
    """
    lanes = low
    while lanes < high and lanes * 2 * size <= threads:
        lanes *= 2
    return lanes
