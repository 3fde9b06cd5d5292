"""Locality-based relaxation on the GPU (``locality``; Safari & Ebnenasir Alg. 6-9).

A flagged vertex u does not relax only its own arcs: it sends a wave of
relaxation up to ``k`` arcs deep, depth-first (Alg. 7), continuing from every
vertex it lowers and flagging the vertices it lowers at depth ``k`` for the
next launch.  Each thread owns ``vertices_per_thread`` consecutive vertices
(Alg. 8: two in the paper).  Two flag arrays alternate between launches
(launch i reads ``FlagArray[i % 2]`` and writes ``FlagArray[(i + 1) % 2]``),
so no thread reads a flag that another is setting, without any
synchronisation.  The host (Alg. 6) launches ``N`` times without reading
anything back, then once per launch with a read-back until nothing is flagged.

``N`` is chosen automatically (the paper tuned it offline, as the fewest
Harish iterations over 100 sources divided by k): a wave travels at least k
arcs per launch, and any vertex's hop eccentricity is at least half the hop
diameter, so ``N = max(1, approx_diameter // (2 k))`` launches are needed
anyway; ``approx_diameter`` is the host graph's cached ``stats()`` lower
bound (``N = 1`` for a DeviceGraph without a host graph).

On the engine a launch is one round of a :func:`~warpath.cuda.operators.compute`
step over vertex groups.  ``loop="paper"`` is Alg. 6's host loop;
``loop="fast"`` (default) runs all launches as rounds of the enactor's
persistent cooperative kernel, with no ``N``.  With negative weights this is a
Bellman-Ford: a launch still flagging vertices after |V| launches means a
negative cycle.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 3], [1, 1, 1, 5])
>>> r = warpath.sssp(g, 0, method="locality", device="cuda", k=2)
>>> r.distances.tolist(), r.path(3).tolist()
([0.0, 1.0, 2.0, 3.0], [0, 1, 2, 3])
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import OptionError
from ..methods import register

#: numba.cuda, bound by :func:`_step` on first use so that ``import warpath`` needs no
#: numba-cuda; a module global (not a local) because the CUDA simulator swaps module globals.
cuda = None

#: The deepest wave allowed: each thread keeps a depth-k stack in local memory.
MAX_K = 16


@functools.lru_cache(maxsize=None)
def _step(k: int, per_thread: int):
    """One round: every flagged vertex sends a k-deep wave (Alg. 8/9 over vertex groups).

    State: ``(d, flags, floor)`` with ``flags`` FlagArray[0..1], shape (2, n).
    """
    global cuda
    from numba import cuda, int64

    from ..cuda.atomics import relax_min
    from ..cuda.flags import mark_changed
    from ..cuda.mappings import vertex_groups
    from ..cuda.operators import compute

    @cuda.jit(device=True)
    def relax_locality(graph, state, u, r, conv):
        """Alg. 7 (RelaxLocalityAndSetFrontier): a depth-first wave of up to k arcs from u.

        Returns the number of arcs relaxed; sets FlagArray[(r + 1) % 2][v]
        and the round's change flag for every v lowered at depth k.
        """
        count = 0
        d, flags, floor = state[0], state[1], state[2]
        if flags[r % 2, u] == 0:
            return count
        flags[r % 2, u] = 0
        indptr, indices, weights = graph[0], graph[1], graph[2]
        stack_vertex = cuda.local.array(k, int64)
        stack_arc = cuda.local.array(k, int64)
        stack_vertex[0] = u
        stack_arc[0] = indptr[u]
        depth = 1  # the vertex on top of the stack is at depth - 1
        while depth > 0:
            w = stack_vertex[depth - 1]
            e = stack_arc[depth - 1]
            if e == indptr[w + 1]:
                depth -= 1  # all arcs of w done: backtrack
                continue
            stack_arc[depth - 1] = e + 1
            v = indices[e]
            count += 1
            if not relax_min(d, v, d[w] + weights[e], floor, conv):
                continue  # (w, v) already relaxed: backtrack to w
            if depth == k:
                flags[(r + 1) % 2, v] = 1  # the wave stops at depth k; v resumes it next launch
                mark_changed(conv, r)
            else:
                stack_vertex[depth] = v
                stack_arc[depth] = indptr[v]
                depth += 1
        return count

    return compute(vertex_groups(per_thread), relax_locality)


def launches_before_check(graph, k: int) -> int:
    """Safari's ``N``, chosen automatically: ``max(1, approx_diameter // (2 k))``.

    Examples
    --------
    >>> import warpath
    >>> launches_before_check(warpath.generators.ring(40, seed=0), 4)
    4
    """
    diameter = graph.approx_diameter() if getattr(graph, "is_device_graph", False) \
        else graph.stats().approx_diameter
    return 1 if diameter is None else max(1, int(diameter) // (2 * k))


def _check_options(k, vertices_per_thread, launches):
    for name, value in (("k", k), ("vertices_per_thread", vertices_per_thread)):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise OptionError(f"{name} must be a positive integer, not {value!r}")
    if k > MAX_K:
        raise OptionError(
            f"k must be at most {MAX_K} (the wave's stack lives in registers), not {k}")
    if launches is not None and (not isinstance(launches, (int, np.integer)) or launches < 1):
        raise OptionError(f"launches must be a positive integer or None, not {launches!r}")


@register("sssp", "locality", "cuda", negative_weights=True, auto_rank=12,
          options=("loop", "k", "vertices_per_thread", "launches"),
          summary="locality-based k-step relaxation (Safari & Ebnenasir Alg. 6-9)")
def run(graph, source, *, predecessors=True, loop="fast", k=4, vertices_per_thread=2,
        launches=None):
    """Locality-based relaxation from ``source`` on the GPU.

    Parameters
    ----------
    graph : Graph or DeviceGraph
    source : int
    predecessors : bool
        Record predecessors after convergence (Okuyama section 5.3).
    loop : {"fast", "paper"}
        ``"paper"``: Alg. 6 (``N`` launches, then one launch and one read-back
        per round); ``"fast"``: one persistent cooperative kernel.
    k : int
        How many arcs deep one wave relaxes (paper's best: 4).
    vertices_per_thread : int
        Consecutive vertices owned by one thread (paper: 2).
    launches : int, optional
        ``N`` for the paper loop; default :func:`launches_before_check`.

    Returns
    -------
    SSSPResult
        ``stats`` also holds ``launches_before_check`` (paper loop).

    Raises
    ------
    NegativeCycleError
        When a negative cycle is reachable from ``source``.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 4, seed=1)
    >>> a = warpath.sssp(g, 0, method="locality", device="cuda", loop="paper")
    >>> b = warpath.sssp(g, 0, method="dijkstra", device="cpu")
    >>> bool((a.distances == b.distances).all())
    True
    """
    from ..cuda.enactor import check_loop, enact
    from ..cuda.problem import Problem

    check_loop(loop)
    _check_options(k, vertices_per_thread, launches)
    problem = Problem(graph, source, deferred=True)   # its fills run in the first kernel
    flags = problem.filled("locality flags", (2, problem.n), np.uint8, 0, problem.source, 1)
    state = (problem.row, flags, problem.floor)
    extra = {"k": int(k), "vertices_per_thread": int(vertices_per_thread)}
    first = 1
    if loop == "paper":
        first = launches if launches is not None else launches_before_check(problem.graph, k)
        extra["launches_before_check"] = int(first)
    outcome = enact(problem, [_step(int(k), int(vertices_per_thread))], state,
                    loop=loop, first_check=first, later=True)
    return problem.finish_sssp_later(outcome, predecessors=predecessors, loop=loop, **extra)
