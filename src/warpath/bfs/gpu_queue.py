"""Frontier-queue BFS on the GPU (``queue``): each vertex claimed once, by one atomic CAS.

Level-synchronous, like Harish & Narayanan's BFS, but a round expands only a
compact queue of the frontier's vertices (not one thread per vertex of the
graph), with the engine's load balancing shared with ``hbf``:

- each frontier vertex is expanded by a *virtual warp* of 4 to 32 lanes sized
  every round to the frontier (H-BF section 5.2), or by several warps when the
  frontier is too small to fill the grid with warps (a ``wide`` mapping: a round
  of four vertices holding 5,000 arcs on rmat(22, 16) took 258 us in 32-lane
  warps, 16 us so);
- vertices of more than ``high_degree`` arcs sit in a second queue that the
  whole persistent grid expands together (H-BF section 5.3);
- a head still unvisited is *claimed* with an atomic compare-and-swap of its
  level from -1 to r + 1: exactly one arc wins, so each vertex enters the next
  frontier once (the queue needs n slots, no duplicate removal), and the winning
  tail is its parent; a plain read first skips the atomic for visited heads
  (most arcs of a dense level);
- the winners enter the next queue by warp-aggregated enqueue (H-BF section 5.1).

The rounds run in the enactor's persistent cooperative kernel (``loop="fast"``)
or as one launch per level with the frontier's emptiness read back after each
(``loop="paper"``).  Weights are ignored, negative ones included.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 0, 1, 3], [1, 2, 3, 4], [5, -1, 2, 7])
>>> r = warpath.bfs(g, 0, method="queue", device="cuda")
>>> r.levels.tolist(), r.path(4).tolist()
([0, 1, 1, 2, 3], [0, 1, 3, 4])
"""

from __future__ import annotations

import functools

from ..methods import register

#: numba.cuda, bound by :func:`claim_step` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def claim_step(record: bool, lanes: tuple, heavy: int, balanced: bool = False):
    """The push round: an advance over the frontier queue that claims unvisited heads
    (``balanced``: arcs dealt over blocks instead of ``lanes``-wide virtual warps).

    State: ``(levels, parents, unvisited, ...)`` (:class:`~warpath.bfs.gpu_levels.LevelRun`);
    ``direction-optimizing`` reuses it for its push rounds.
    """
    global cuda
    from numba import cuda

    from ..cuda.atomics import claim
    from ..cuda.mappings import frontier
    from ..cuda.operators import QUEUE, advance

    @cuda.jit(device=True)
    def level_of(state, row, u, r):
        """Level-synchronous: every vertex of round r's frontier is at level r."""
        return True, r

    @cuda.jit(device=True)
    def discover(state, row, u, du, v, w, e, r, conv):
        """Claim v for level r + 1 (one CAS winner, the plain read first); u is its parent."""
        levels = state[0]
        if levels[v] != state[2] or not claim(levels, v, du + 1, state[2]):
            return False
        if record:
            state[1][v] = u
        return True

    return advance(frontier(lanes, heavy_degree=heavy, balanced=balanced, wide=True), level_of,
                   discover, QUEUE, heavy)


@register("bfs", "queue", "cuda", limit=True, auto_rank=1, negative_weights=True,
          options=("high_degree", "virtual_warps", "loop"),
          summary="frontier-queue BFS: CAS-claimed levels, virtual warps, warp-aggregated "
                  "enqueue, high-degree vertices expanded by the whole grid")
def run(graph, source, *, predecessors=True, limit=None, high_degree=4096,
        virtual_warps=True, loop="fast"):
    """Breadth-first search from ``source`` over a frontier queue on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
        Weights are ignored.
    source : int
    predecessors : bool
        Record BFS parents (the tail whose CAS claimed each vertex).
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.
    high_degree : int
        Vertices of more arcs are expanded by the whole grid (0: off).
    virtual_warps : True or "block"
        Frontier vertices expanded by virtual warps sized every round (H-BF 5.2), or
        ``"block"``: each block's chunk of vertices has its arcs dealt evenly to its threads.
    loop : {"fast", "paper"}
        One persistent kernel, or one launch and one read-back per level.

    Returns
    -------
    BFSResult
        ``stats``: iterations (levels expanded), relaxations (arcs looked at),
        launches, host_syncs.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(4, 4, seed=1)
    >>> a = warpath.bfs(g, 0, method="queue", device="cuda", limit=3)
    >>> b = warpath.bfs(g, 0, method="queue", device="cpu", limit=3)
    >>> bool((a.levels == b.levels).all())
    True
    """
    from ..cuda.enactor import check_loop
    from ..cuda.mappings import frontier_lanes
    from .gpu_levels import LevelRun, check_high_degree

    check_loop(loop)
    heavy = check_high_degree(high_degree)
    lanes, balanced = frontier_lanes(virtual_warps, one_thread=False)
    bfs = LevelRun.reused(graph, ("queue",), predecessors=predecessors, heavy_degree=heavy)
    state = bfs.start(source, limit)
    stats = bfs.rounds([claim_step(bfs.record, lanes, heavy, balanced)], state, loop=loop,
                       wait=False)
    return bfs.finish(stats, loop=loop)
