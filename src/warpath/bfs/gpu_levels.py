"""What every GPU BFS method shares: levels and parents on the device, the round bound, the result.

A GPU BFS keeps one level per vertex in the graph's index type (int32 while
the graph's indices are), -1 for a vertex not yet visited, and optionally a
parent per vertex (-1 where none).  Rounds are levels: round r expands the
vertices of level r and gives level r + 1 to the ones it discovers, so
``limit=L`` is simply L rounds, and the enactor's ``iterations`` count the
levels expanded, as the CPU ``queue`` method counts them.  The result keeps
its arrays on the GPU until read.

Imported by the GPU BFS methods when they run (it imports numba-cuda).

Examples
--------
>>> import warpath
>>> run = LevelRun(warpath.generators.ring(4, seed=0), 1, predecessors=True, limit=None)
>>> run.problem.run_fills()   # else the first kernel of the method runs them
True
>>> run.levels.copy_to_host().tolist(), run.max_rounds
([-1, 0, -1, -1], 4)
"""

from __future__ import annotations

import numpy as np

from ..cuda.device_graph import device_graph
from ..cuda.distances import rows_of
from ..cuda.mappings import VIRTUAL_WARP_LANES
from ..cuda.problem import Problem
from ..cuda.recycled import recycled_array
from ..result import BFSResult

#: The level of a vertex not (yet) visited.
UNVISITED = -1

#: Threads per frontier vertex: a virtual warp sized every round (H-BF section 5.2).
LANES = VIRTUAL_WARP_LANES


def rounds_for(limit, num_vertices: int) -> int:
    """The round bound: ``limit`` levels (floored), else n (no BFS has more levels).

    Examples
    --------
    >>> rounds_for(None, 10), rounds_for(2.7, 10), rounds_for(1e30, 10)
    (10, 2, 10)
    """
    if limit is None:
        return num_vertices
    return int(min(np.floor(limit), num_vertices))


def check_high_degree(high_degree) -> int:
    """Validate a ``high_degree`` option (vertices of more arcs are expanded by the whole
    grid; 0 turns it off).

    Examples
    --------
    >>> check_high_degree(4096)
    4096
    """
    if not isinstance(high_degree, (int, np.integer)) or isinstance(high_degree, bool) \
            or high_degree < 0:
        raise ValueError(f"high_degree must be a non-negative integer (0: off), "
                         f"not {high_degree!r}")
    return int(high_degree)


class LevelRun:
    """The device state of one GPU BFS from ``source``.

    Attributes
    ----------
    problem : Problem
        The engine's query state; its ``distances`` are the levels, shape (1, n).  It
        is deferred: the fills of the levels, parents, flags and queues run in the
        method's first kernel, which must be the enactor's.
    levels, parents : device arrays
        Levels (-1: not visited, 0 at the source); parents (-1 where none), or a
        one-slot stand-in when not recorded.
    record : bool
        Whether parents are recorded.
    max_rounds : int
        The round bound for ``limit``.
    state : tuple
        ``(levels, parents, unvisited)``: the head of every method's state.
    """

    def __init__(self, graph, source, *, predecessors, limit):
        dgraph = device_graph(graph)
        index = np.dtype(dgraph.indices.dtype)
        n = dgraph.num_vertices
        self.record = bool(predecessors)
        # one recycled allocation for both; without parents, a stand-in the kernels never write
        pair = recycled_array((2 if self.record else 1, n), index)
        rows = rows_of(pair, (0, 1) if self.record else (0,))
        self.levels, self.parents = rows[0], rows[-1]
        distances = rows_of(pair, (0,), keepdims=True)[0] if self.record else pair
        self.problem = Problem(dgraph, source, distances=distances, deferred=True)
        self.problem.fill(self.levels, n, UNVISITED, source, 0)
        if self.record:
            self.problem.fill(self.parents, n, -1)
        self.max_rounds = rounds_for(limit, n)
        self.state = (self.levels, self.parents, index.type(UNVISITED))

    def finish(self, stats: dict, **extra) -> BFSResult:
        """The :class:`~warpath.BFSResult`, its arrays left on the device until read."""
        self.problem.release_scratch()
        return BFSResult(self.problem.source, self.levels, self.parents if self.record else None,
                         self.problem.tally.as_stats({**stats, **extra}))
