"""The method registry: every solver registers itself here under a name and a device.

A method module decorates its entry function with :func:`register`; the
public entry points (:func:`warpath.sssp` and friends) find it with
:func:`find` or pick one with :func:`choose`.  Adding a method is adding a
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

from dataclasses import dataclass, field
from typing import Callable

from .errors import MethodNotAvailable

PROBLEMS = ("sssp", "bfs", "apsp", "multi_source")
DEVICES = ("cpu", "cuda")


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
    batch: bool = False
    auto_if: Callable | None = field(default=None, repr=False)


_REGISTRY: dict[tuple[str, str, str], Method] = {}


def register(problem: str, name: str, device: str, *, negative_weights: bool = False,
             limit: bool = False, auto_rank: int | None = None, summary: str = "",
             options: tuple = (), batch: bool = False, auto_if: Callable | None = None):
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
        _REGISTRY[(problem, name, device)] = Method(problem, name, device, run, negative_weights,
                                                    limit, auto_rank, summary, tuple(options),
                                                    batch, auto_if)
        return run

    return decorate


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
           batch: bool = False) -> Method:
    """The preferred method of ``problem`` on ``device`` for this graph (``method="auto"``).

    Only methods that accept the graph's weights (and a ``limit=`` cutoff when
    ``limit`` is true) and whose ``auto_if`` accepts the graph are candidates;
    the lowest ``auto_rank`` wins.  For a batch of sources (``batch``) a
    batch method is preferred when there is one; a single source never gets one.

    Raises
    ------
    MethodNotAvailable
        When no registered method qualifies.
    """
    negative = graph.has_negative_weights
    candidates = [m for m in available(problem, device)
                  if m.auto_rank is not None and (m.negative_weights or not negative)
                  and (m.limit or not limit) and (m.auto_if is None or m.auto_if(graph))]
    batched = [m for m in candidates if m.batch]
    candidates = batched if batch and batched else [m for m in candidates if not m.batch]
    if not candidates:
        needs = " with limit=" if limit else ""
        raise MethodNotAvailable(
            f"no {problem} method{needs} on {device} handles this graph; "
            f"available: {describe(problem)}")
    return min(candidates, key=lambda m: m.auto_rank)
