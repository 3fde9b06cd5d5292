"""Path recording for the task-parallel methods (Okuyama, Ino & Hagihara, section 5.3).

After a launch's distances converge, every task <v, s> records a parent: an
in-neighbour u with ``d[u, s] + w(u, v) == d[v, s]`` (a *tight* arc), and
:meth:`DistanceMatrix.path` backtraces from the target to the source on the
host.  The state stays vertex-major, so the pass reads and writes contiguous
words per warp like the rounds do.

- Weights that strictly increase every distance (positive integers, or
  positive floats too large for rounding to absorb): any tight arc is a
  correct parent, and one pass finds them as the paper does, over the
  reversed graph: task <v, s> scans v's in-arcs and keeps the last tight one.
  No atomics (a task writes only its own entry), and the choice is
  deterministic.
- Zero, negative or absorbed weights: two tight arcs can close a cycle
  (u -> v and v -> u of weight 0), which a backtrace would never leave.  Then
  the pass is a breadth-first search per row over tight arcs from the source
  (the rounds of an :func:`~warpath.cuda.enactor.enact` call): a task is
  claimed once, by compare-and-swap, by a task claimed before it, so every
  row's parents form a tree rooted at its source.  (The engine's SSSP
  recording, :mod:`warpath.cuda.predecessors`, makes the same choice.)

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 1], [1, 0, 2], [0, 0, 5])
>>> m = warpath.multi_source(g, [1, 0], method="task-parallel", device="cuda")
>>> m.predecessors.tolist()
[[1, -1, 1], [-1, 0, 1]]
"""

from __future__ import annotations

import functools

import numpy as np

#: numba.cuda, bound by :func:`_steps` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None


@functools.lru_cache(maxsize=None)
def _steps():
    """``(pull, tree)``: the one-pass recording over the reversed graph (state ``(d, pred,
    inf, W, sources)``) and a round of the tight-arc search (state ``(d, masks, W, T, inf,
    pred)``, the masks as the task-parallel rounds', see
    :func:`~warpath.apsp.gpu_rows.mask_functions`)."""
    global cuda
    from numba import cuda

    from ..cuda.atomics import claim
    from ..cuda.mappings import tasks
    from ..cuda.operators import advance
    from .gpu_rows import mask_functions

    @cuda.jit(device=True)
    def reached_target(state, row, v, r):
        """The recording kernel's task <v, s>: its parent starts unknown (-1); it looks for
        one when v is reached and is not the row's source."""
        i = v * state[3] + row
        state[1][i] = -1
        dv = state[0][i]
        return dv != state[2] and v != state[4][row], dv

    @cuda.jit(device=True)
    def tight_in_arc(state, row, v, dv, u, w, e, r, conv):
        """A reversed arc v -> u is the arc u -> v: u is a parent if d[u, s] + w == d[v, s]."""
        du = state[0][u * state[3] + row]
        if du != state[2] and du + w == dv:
            state[1][v * state[3] + row] = u
        return False

    in_mask, join_next = mask_functions()   # the tasks claimed last round expand

    @cuda.jit(device=True)
    def claim_tight_arc(state, row, u, du, v, w, e, r, conv):
        """A tight arc u -> v claims <v, s> for u if nothing claimed it before; <v, s>
        expands next round."""
        j = v * state[2] + row
        if du + w == state[0][j] and claim(state[5], j, u, -1):
            join_next(state, j, r, conv)
        return False

    return advance(tasks(), reached_target, tight_in_arc), advance(tasks(), in_mask,
                                                                   claim_tight_arc)


@functools.lru_cache(maxsize=None)
def _start_tree_kernel():
    """Each row's source claims itself (so that nothing claims it) and expands first."""
    global cuda
    from numba import cuda

    @cuda.jit
    def start_tree(pred, masks, sources):
        i = cuda.grid(1)
        width, tasks = sources.shape[0], pred.shape[0]
        if i < tasks:
            v = i // width
            source = v == sources[i - v * width]
            pred[i] = v if source else -1
            masks[i] = 1 if source else 0
            masks[tasks + i] = 0

    return start_tree


def record_predecessors(problem, masks, pred, sources, pull: bool, loop: str = "fast") -> None:
    """Record the parents of every task of a converged launch into ``pred``.

    Parameters
    ----------
    problem : Problem
        The launch: its graph, its vertex-major distances (``problem.distances``), rows
        and launch tally.  The recording runs on a problem of its own (fresh flags and
        counters), so the launch's counters stay its own.
    masks : device array of uint8
        The launch's two masks (2 n W bytes), reused by the tight-arc search.
    pred : device array
        Receives the parents, vertex-major (-1: none; a row's source keeps itself, which
        :func:`~warpath.apsp.gpu_rows.deliver` turns into -1).
    sources : device array of int64
        The launch's sources.
    pull : bool
        One pass over the reversed graph (weights that strictly increase distances),
        else the tight-arc search.
    loop : {"fast", "paper"}
        How the search's rounds run.

    Examples
    --------
    >>> import warpath
    >>> from numba import cuda as nb
    >>> from warpath.cuda.problem import Problem
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [0, 0])
    >>> d = nb.to_device(np.zeros(3, np.int32))          # 3 vertices x 1 row, all 0
    >>> pred, masks = nb.device_array(3, np.int32), nb.device_array(6, np.uint8)
    >>> record_predecessors(Problem(g, [0], distances=d), masks, pred,
    ...                     nb.to_device(np.array([0])), pull=False)
    >>> pred.copy_to_host().tolist()
    [0, 0, 1]
    """
    from ..cuda.enactor import enact, run_once
    from ..cuda.problem import Problem
    from ..cuda.runtime import THREADS, blocks_for

    graph, d, rows = problem.graph, problem.distances, problem.rows
    recording = Problem(graph, problem.sources, distances=d, tally=problem.tally)
    pull_step, tree_step = _steps()
    if pull:
        rev = graph.reverse()
        state = (d, pred, problem.inf, np.int64(rows), sources)
        run_once(recording, pull_step, state,
                 graph=(rev.indptr, rev.indices, rev.weights, rev.indices[:1]))
        recording.release_scratch()
        return
    _start_tree_kernel()[blocks_for(pred.shape[0]), THREADS](pred, masks, sources)
    problem.tally.launch()
    state = (d, masks, np.int64(rows), np.int64(pred.shape[0]), problem.inf, pred)
    enact(recording, [tree_step], state, loop=loop, max_rounds=problem.n + 1)
    recording.release_scratch()
