"""Direction-optimizing BFS on the GPU (``direction-optimizing``): push while the frontier is
small, pull while it is large (Beamer, Asanović & Patterson, SC 2012).

A *push* round is the ``queue`` method's round: the frontier's out-arcs claim
their unvisited heads by CAS (a frontier of a few vertices is spread over the
whole grid, several warps to a vertex).  A *pull* round gives every vertex with
in-arcs one thread; a vertex not yet visited scans them (the reverse CSR, built
once per graph and cached on the device graph; an undirected graph is its own),
four at a time, and stops at the first tail on the frontier (level r): that tail is
its parent, and only that thread writes the vertex, so no atomic is needed.
In the dense middle levels of a small-world graph most unvisited vertices
find a parent among their first in-arcs, so most arcs are never read.

Beamer's heuristic picks the direction at the start of every round, on the
device (every thread computes the same choice from counters that the previous
round completed, so the persistent kernel needs no host round trip):

- m_f, the arcs out of the frontier (what a push checks), and m_u, the arcs
  into unvisited vertices (what a pull would check at most), are kept by a
  step after each round that sums the new frontier's out- and in-degrees
  (:func:`~warpath.cuda.direction.frontier_degrees`), or by the pull itself,
  as it takes each vertex (it holds the vertex's offsets already);
- push -> pull when the frontier has grown since the last round and
  ``m_f > m_u / alpha``; pull -> push when it has shrunk and
  ``n_f < n / beta`` (n_f: its vertices).  ``alpha = 14`` and ``beta = 24``
  are Beamer's constants (tuned in the paper on Kronecker and social graphs);
  the growing / shrinking conditions are the paper's too: on a road network
  the frontier never grows for long, so late thin levels (where m_u is small
  too) do not flip into pulls, each a pass over every vertex with in-arcs.
  ``alpha=0`` never pulls; ``alpha`` and ``beta`` both huge pull from the
  first growing round until the frontier is empty.

``stats["pull_rounds"]`` counts the rounds that pulled.  Weights are ignored.

Examples
--------
>>> import warpath
>>> g = warpath.generators.rmat(7, 8, seed=1, directed=False)
>>> a = warpath.bfs(g, 0, method="direction-optimizing", device="cuda")
>>> b = warpath.bfs(g, 0, method="queue", device="cpu")
>>> bool((a.levels == b.levels).all()), a.stats["pull_rounds"] > 0
(True, True)
"""

from __future__ import annotations

import functools

import numpy as np

from ..graph_stats import low_diameter
from ..methods import register

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: Beamer's constants: pull when m_f > m_u / ALPHA, push again when n_f < n / BETA.
ALPHA, BETA = 14.0, 24.0
#: Directions, as recorded per round.
PUSH, PULL = 0, 1
#: Places in the state: the reverse CSR (offsets, tails, the vertices with in-arcs), the
#: degree tally and the live list of the vertices a pull left unvisited (items, control).
IN_ARCS, TALLY, LIVE = 3, 6, 12


@functools.lru_cache(maxsize=None)
def _steps(record: bool, heavy: int, balanced: bool = False, symmetric: bool = False):
    """The round (push or pull, Beamer's choice) and the degree tally after it.

    State: ``(levels, parents, unvisited, in_indptr, in_tails, with_in_arcs, tally,
    choices, arcs, alpha, beta, counters, live items, live control)``; ``choices``
    (int64, (3, 2)) holds each round's direction and frontier size, in rotation, written
    by thread 0, which also counts the pull rounds in the problem's counters (slot
    :data:`~warpath.cuda.counters.COUNTED`).
    """
    global cuda
    from numba import cuda

    from ..cuda.counters import COUNTED
    from ..cuda.direction import OUT_ARCS, VISITED_IN_ARCS, either, frontier_degrees, pull
    from ..cuda.live import live_turn
    from ..cuda.operators import QUEUE, together
    from .gpu_levels import LANES
    from .gpu_queue import claim_step

    @cuda.jit(device=True)
    def pulls(graph, frontier, state, r, thread):
        """Beamer's choice for round r, from what round r - 1 left; thread 0 records it."""
        sums, choices = state[6], state[7]
        size = frontier[1][r % 3] + frontier[3][r % 3]
        unvisited_arcs = state[8] - sums[r % 3, VISITED_IN_ARCS]
        pulling = False
        if r > 0:
            before = choices[(r + 2) % 3]
            if before[0] == PUSH:
                pulling = size > before[1] and sums[r % 3, OUT_ARCS] * state[9] > unvisited_arcs
            else:
                n = graph[0].shape[0] - 1
                pulling = not (size < before[1] and size * state[10] < n)
        if thread == 0:
            choices[r % 3, 0] = PULL if pulling else PUSH
            choices[r % 3, 1] = size
            if pulling:
                state[11][COUNTED] += 1
        return pulling

    @cuda.jit(device=True)
    def unvisited(state, row, v, r):
        return state[0][v] == state[2]

    @cuda.jit(device=True)
    def on_frontier(state, row, v, u, e, r):
        """Pull: whether in-neighbour u is on the frontier (level r)."""
        return state[0][u] == r

    @cuda.jit(device=True)
    def adopt(state, row, v, u, e, r, conv):
        """Pull: u is v's parent (v's thread alone writes v)."""
        state[0][v] = r + 1
        if record:
            state[1][v] = u

    @cuda.jit(device=True)
    def pulled(state, r):
        """Round r pulled: the pull summed the next frontier's degrees as it took them."""
        return state[7][r % 3, 0] == PULL

    push_step = claim_step(record, LANES, heavy, balanced)
    pull_step = pull(IN_ARCS, unvisited, on_frontier, adopt, QUEUE, heavy, tally_at=TALLY,
                     symmetric=symmetric, live_at=LIVE)
    return [either(pulls, push_step, pull_step),
            together(frontier_degrees(IN_ARCS, TALLY, pulled), live_turn(LIVE + 1))]


@register("bfs", "direction-optimizing", "cuda", limit=True, auto_rank=0, auto_if=low_diameter,
          negative_weights=True,
          options=("alpha", "beta", "high_degree", "virtual_warps", "loop"),
          summary="direction-optimizing BFS: push rounds on small frontiers, pull rounds over "
                  "the reverse graph on large ones (Beamer et al.)")
def run(graph, source, *, predecessors=True, limit=None, alpha=ALPHA, beta=BETA,
        high_degree=4096, virtual_warps=True, loop="fast"):
    """Direction-optimizing breadth-first search from ``source`` on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
        Weights are ignored; directed graphs pull over their reverse graph.
    source : int
    predecessors : bool
        Record BFS parents.
    limit : int, optional
        The deepest level to explore; farther vertices get level -1.
    alpha, beta : float
        Beamer's switching constants (see the module notes); non-negative.
    high_degree : int
        In push rounds, vertices of more arcs are expanded by the whole grid (0: off).
    virtual_warps : True or "block"
        How push rounds spread a frontier's arcs (see the ``queue`` method).
    loop : {"fast", "paper"}
        One persistent kernel, or one launch per step and a read-back per level.

    Returns
    -------
    BFSResult
        ``stats``: iterations (levels expanded), relaxations (arcs looked at; a pull
        counts the whole group of four it probed),
        ``pull_rounds``, launches, host_syncs.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.random(200, 2000, seed=2)
    >>> a = warpath.bfs(g, 0, method="direction-optimizing", device="cuda", alpha=1e9, beta=1e9)
    >>> b = warpath.bfs(g, 0, method="queue", device="cpu")
    >>> bool((a.levels == b.levels).all()), a.stats["pull_rounds"] >= 1
    (True, True)
    """
    from ..cuda.direction import direction_arrays, restart_direction
    from ..cuda.enactor import check_loop
    from ..cuda.live import LiveList
    from ..cuda.mappings import frontier_lanes
    from .gpu_levels import LevelRun, check_high_degree

    check_loop(loop)
    heavy = check_high_degree(high_degree)
    _, balanced = frontier_lanes(virtual_warps, one_thread=False)
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not (isinstance(value, (int, float, np.number)) and value >= 0):
            raise ValueError(f"{name} must be a non-negative number, not {value!r}")
    bfs = LevelRun.reused(graph, ("direction-optimizing",), predecessors=predecessors,
                          heavy_degree=heavy)
    problem = bfs.problem
    reverse = problem.graph.reverse()
    arrays = bfs.kept("direction", lambda: direction_arrays(problem))
    with_in_arcs = reverse.vertices_with_arcs()
    count = with_in_arcs.shape[0]
    live = bfs.kept("live", lambda: problem.scratch(("pull live", count),
                                                    lambda: LiveList(count)))
    state = bfs.start(source, limit)
    restart_direction(problem, arrays, problem.graph.degree(source), reverse.degree(source))
    problem.fill(*live.restart_fill(), standing=True)
    state += (reverse.indptr, reverse.indices, with_in_arcs, arrays.tally, arrays.choices,
              np.int64(problem.m), np.float64(alpha), np.float64(beta), problem.counters,
              live.items, live.control)
    stats = bfs.rounds(_steps(bfs.record, heavy, balanced, reverse is problem.graph), state,
                       loop=loop, counted="pull_rounds", wait=False)
    return bfs.finish(stats, loop=loop)
