"""The method registry: every solver registers itself here under a name and a device.

A method module decorates its entry function with :func:`register`; the
public entry points (:func:`warpath.sssp` and friends) and the command line
pick the method that will run with one function, :func:`resolve` (which uses
:func:`find` for a name and :func:`choose` for ``"auto"``).  Adding a method is adding a
module that registers itself; nothing else changes.

A registered function takes ``(graph, source_or_sources, **options)`` and
returns a result object (see :mod:`warpath.result`); the entry point has
already validated the graph and the sources and fills in ``method``,
``device`` and ``seconds`` in ``stats``.

Examples
--------
>>> import warpath
>>> sorted(m.name for m in warpath.methods.available("sssp", "cpu"))
['bellman-ford', 'dijkstra']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

from .errors import MethodNotAvailable, NegativeWeightError, OptionError

PROBLEMS = ("sssp", "bfs", "apsp", "multi_source")
DEVICES = ("cpu", "cuda")
#: Problems whose methods never read the weights: any graph will do, negative weights included.
WEIGHTLESS_PROBLEMS = ("bfs",)
#: Keywords every entry point takes itself; they are not method options.
COMMON_KEYWORDS = ("predecessors", "limit", "progress")


@dataclass(frozen=True)
class Method:
    """One registered solver.

    Attributes
    ----------
    problem : str
        ``"sssp"``, ``"bfs"``, ``"apsp"`` or ``"multi_source"``.
    name : str
        The public name (``"dijkstra"``, ``"edge-bf"``, ...).
    device : str
        ``"cpu"`` or ``"cuda"``.
    run : callable
        The solver.
    negative_weights : bool
        Whether it accepts negative weights (and detects negative cycles; BFS
        methods accept them because they ignore weights).
    limit : bool
        Whether it accepts a ``limit=`` distance cutoff.
    auto_rank : int or None
        Preference when ``method="auto"`` (lower wins); ``None`` never auto-picked.
    summary : str
        One line for listings and error messages.
    options : tuple of str
        The extra keyword arguments it takes.
    interpreted_arcs : int
        Graphs of at most this many arcs run the method's kernel code in the
        Python interpreter (no compilation, see :mod:`warpath.jit`); 0: never.
    memory : callable or None
        ``memory(graph, rows, predecessors) -> (host_bytes, gpu_bytes)``: the
        peak memory of one run over ``rows`` sources, its result included
        (see :mod:`warpath.apsp.memory`); ``None`` for methods whose memory
        is O(n + m).
    batch : bool
        It solves several sources in one call: ``run(graph, sources_array, ...)``
        returns a matrix result (e.g. :class:`~warpath.BFSMatrix`).
    auto_if : callable or None
        ``auto_if(graph) -> bool``: ``method="auto"`` considers it only for
        graphs where this holds (``None``: every graph).
    """

    problem: str
    name: str
    device: str
    run: Callable = field(repr=False)
    negative_weights: bool = False
    limit: bool = False
    auto_rank: int | None = None
    summary: str = ""
    options: tuple = ()
    interpreted_arcs: int = 0
    memory: Callable | None = field(default=None, repr=False)
    batch: bool = False
    auto_if: Callable | None = field(default=None, repr=False)

    def runs_interpreted(self, graph) -> bool:
        """Whether a query on ``graph`` runs this method's kernel code in the interpreter
        (at most ``interpreted_arcs`` arcs; see :mod:`warpath.jit`).

        Examples
        --------
        >>> import warpath
        >>> dijkstra = find("sssp", "dijkstra", "cpu")
        >>> dijkstra.runs_interpreted(warpath.generators.grid(3, 3, seed=0))
        True
        """
        from .jit import runs_interpreted

        return runs_interpreted(graph.num_edges, self.interpreted_arcs)

    def takes(self, graph) -> bool:
        """Whether this method accepts the graph's weights (negative ones need a method for them).

        Examples
        --------
        >>> import warpath
        >>> g = warpath.Graph.from_edges([0], [1], [-2])
        >>> find("sssp", "dijkstra", "cpu").takes(g), find("bfs", "queue", "cpu").takes(g)
        (False, True)
        """
        return (self.negative_weights or self.problem in WEIGHTLESS_PROBLEMS
                or not graph.has_negative_weights)


_REGISTRY: dict[tuple[str, str, str], Method] = {}


def register(problem: str, name: str, device: str, *, negative_weights: bool = False,
             limit: bool = False, auto_rank: int | None = None, summary: str = "",
             options: tuple = (), interpreted_arcs: int = 0, memory: Callable | None = None,
             batch: bool = False, auto_if: Callable | None = None):
    """Decorator that registers ``run`` as method ``name`` of ``problem`` on ``device``.

    Examples
    --------
    >>> @register("sssp", "doc-example", "cpu", summary="an example")
    ... def run(graph, source, **options):
    ...     raise NotImplementedError
    >>> find("sssp", "doc-example", "cpu").summary
    'an example'
    >>> unregister("sssp", "doc-example", "cpu")
    """
    if problem not in PROBLEMS or device not in DEVICES:
        raise ValueError(f"unknown problem {problem!r} or device {device!r}")

    def decorate(run):
        solver = in_one_gpu_context(run) if device == "cuda" else run
        _REGISTRY[(problem, name, device)] = Method(problem, name, device, solver, negative_weights,
                                                    limit, auto_rank, summary, tuple(options),
                                                    interpreted_arcs, memory, batch, auto_if)
        return run

    return decorate


def in_one_gpu_context(run: Callable) -> Callable:
    """``run``, called with numba's CUDA context attached for the whole call.

    numba looks the current context up in the driver at every top-level call
    of its API (an allocation, a copy, a launch, a slice of a device array)
    unless a caller further up has attached it: about 25 such lookups in one
    warm BFS query, each a few driver calls.  A GPU method attaches it once,
    here, so that the calls inside find it.  numba is imported at the first
    call, not at registration (``import warpath`` needs no numba-cuda).

    Examples
    --------
    >>> solver = in_one_gpu_context(lambda graph, source: source + 1)
    >>> solver(None, 41)
    42
    """
    attached = None

    @functools.wraps(run)
    def solver(*args, **kwargs):
        nonlocal attached
        if attached is None:
            from numba import cuda

            attached = cuda.require_context(run)
        return attached(*args, **kwargs)

    return solver


def unregister(problem: str, name: str, device: str) -> None:
    """Remove a registration (for tests and plug-ins)."""
    _REGISTRY.pop((problem, name, device), None)


def available(problem: str | None = None, device: str | None = None) -> list[Method]:
    """The registered methods, optionally only those of one problem and/or device."""
    return [m for (p, _, d), m in sorted(_REGISTRY.items())
            if (problem is None or p == problem) and (device is None or d == device)]


def describe(problem: str) -> str:
    """A one-line list of the ``name (device)`` pairs registered for ``problem``."""
    pairs = [f"{m.name} ({m.device})" for m in available(problem)]
    return ", ".join(pairs) if pairs else "none"


def devices_of(problem: str, name: str) -> list[str]:
    """The devices on which ``name`` exists for ``problem``."""
    return [d for d in DEVICES if (problem, name, d) in _REGISTRY]


def find(problem: str, name: str, device: str) -> Method:
    """The method ``name`` of ``problem`` on ``device``.

    Raises
    ------
    MethodNotAvailable
        Naming the pairs that do exist.
    """
    try:
        return _REGISTRY[(problem, name, device)]
    except KeyError:
        raise MethodNotAvailable(
            f"there is no {problem} method {name!r} on {device}; "
            f"available: {describe(problem)}") from None


def choose(problem: str, device: str, graph, *, limit: bool = False,
           batch: bool = False, options=()) -> Method:
    """The preferred method of ``problem`` on ``device`` for this graph (``method="auto"``).

    Only methods that accept the graph's weights (and a ``limit=`` cutoff when
    ``limit`` is true) and whose ``auto_if`` accepts the graph are candidates;
    the lowest ``auto_rank`` wins.  For a batch of sources (``batch``) a
    batch method is preferred when there is one; a single source never gets one.
    Method ``options`` the caller passes narrow the candidates to those that
    take them all, when any does (``trace=True`` asks for hbf, whatever the graph).

    Raises
    ------
    MethodNotAvailable
        When no registered method qualifies.
    """
    candidates = [m for m in available(problem, device)
                  if m.auto_rank is not None and m.takes(graph) and (m.limit or not limit)
                  and (m.auto_if is None or m.auto_if(graph))]
    batched = [m for m in candidates if m.batch]
    candidates = batched if batch and batched else [m for m in candidates if not m.batch]
    asked = set(options) - set(COMMON_KEYWORDS)
    taking = [m for m in candidates if asked <= set(m.options)]
    candidates = taking or candidates  # none takes them: resolve() names the missing option
    if not candidates:
        needs = " with limit=" if limit else ""
        raise MethodNotAvailable(
            f"no {problem} method{needs} on {device} handles this graph; "
            f"available: {describe(problem)}")
    return min(candidates, key=lambda m: m.auto_rank)


@functools.lru_cache(maxsize=None)
def _device_module():
    """``warpath.device``, imported on first use (it imports this module); a lookup after
    that, not an import statement at every query."""
    from . import device

    return device


def resolve(problem: str, graph, method: str = "auto", device: str = "auto", *,
            limit: bool = False, options=(), batch: bool = False) -> Method:
    """The method that ``problem(graph, method=..., device=..., **options)`` will run.

    The one rule behind every entry point (:func:`warpath.sssp` and friends)
    and the command line, so what a caller warms up, estimates or reports is
    what runs.  ``device="auto"`` takes the GPU when one is usable and it has
    a method for the query, else the CPU (e.g. a distance ``limit`` only CPU
    methods take); ``method="auto"`` takes the preferred method that accepts
    the graph (see :func:`choose`).

    Parameters
    ----------
    problem : {"sssp", "bfs", "apsp", "multi_source"}
    graph : Graph
    method : str
        ``"auto"`` or a registered name.
    device : {"auto", "cpu", "cuda"}
    limit : bool
        Whether the query has a distance or depth ``limit``.
    options : iterable of str
        The names of the method options the caller passes.
    batch : bool
        Several sources in one query: a batch method is preferred (see :func:`choose`).

    Returns
    -------
    Method

    Raises
    ------
    MethodNotAvailable
        For an unknown name, or no method on the device that takes the query.
    DeviceError
        For ``device="cuda"`` (or a GPU-only method) without a usable GPU.
    ArgumentError
        For an unknown device name.
    NegativeWeightError
        For a named method that cannot take the graph's negative weights.
    OptionError
        For an option the method does not take (the message lists those it does).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.grid(3, 3, seed=0)
    >>> resolve("sssp", g, device="cpu").name
    'dijkstra'
    >>> negative = warpath.generators.with_negative_weights(g, seed=0)
    >>> resolve("sssp", negative, device="cpu").name, resolve("bfs", negative).name
    ('bellman-ford', 'queue')
    """
    if problem not in PROBLEMS:
        raise MethodNotAvailable(f"unknown problem {problem!r}; one of {', '.join(PROBLEMS)}")
    ran_on = _device_module().resolve_device(device, problem, method)
    if method != "auto":
        chosen = find(problem, method, ran_on)
    else:
        try:
            chosen = choose(problem, ran_on, graph, limit=limit, batch=batch, options=options)
        except MethodNotAvailable:
            # device="auto" chose the GPU, but only a CPU method takes this query
            # (e.g. a distance limit): run it there rather than fail.
            if device != "auto" or ran_on == "cpu":
                raise
            chosen = choose(problem, "cpu", graph, limit=limit, batch=batch, options=options)
    if not chosen.takes(graph):
        others = sorted({m.name for m in available(problem) if m.negative_weights})
        raise NegativeWeightError(
            f"method {chosen.name!r} needs non-negative weights but the graph has a weight of "
            f"{graph.min_weight}; use one of: {', '.join(others) or 'none'}")
    if limit and not chosen.limit:
        takers = sorted({m.name for m in available(problem) if m.limit})
        raise MethodNotAvailable(f"method {chosen.name!r} does not take limit=; "
                                 f"these do: {', '.join(takers) or 'none'}")
    unknown = sorted({o for o in options if o not in chosen.options and o not in COMMON_KEYWORDS})
    if unknown:
        raise OptionError(f"method {chosen.name!r} has no option {', '.join(unknown)}; "
                          f"it takes: {', '.join(chosen.options) or 'none'}")
    return chosen
