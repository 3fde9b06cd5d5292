"""The state every GPU SSSP method sets up and the way each one ends.

:class:`SSSPRun` holds the device graph, the distance array (type rules of
:mod:`~warpath.cuda.distances`), the convergence flags, counters and the
launch tally; :meth:`SSSPRun.finish` turns the outcome into an
:class:`~warpath.SSSPResult` (distances left on the device until read,
predecessors recorded by :func:`~warpath.cuda.predecessors.record_predecessors`)
or raises :class:`~warpath.NegativeCycleError` with a cycle.

Examples
--------
>>> import warpath
>>> run = SSSPRun(warpath.generators.ring(3, seed=0), 0)
>>> run.finish({"iterations": 0, "relaxations": 0}, False, predecessors=False).distances.tolist()
[0.0, inf, inf]
"""

from __future__ import annotations

from ..errors import NegativeCycleError
from ..result import SSSPResult
from .counters import RunTally, new_counters
from .device_graph import device_graph
from .distances import distance_dtype, floor_value, infinity, new_distances
from .flags import ConvergenceFlags
from .negative_cycle import negative_cycle
from .predecessors import record_predecessors

#: The loops every GPU SSSP method offers.
LOOPS = ("fast", "paper")


def check_loop(loop: str) -> str:
    """Validate the ``loop=`` option.

    Examples
    --------
    >>> check_loop("paper")
    'paper'
    """
    if loop not in LOOPS:
        raise ValueError(f"loop must be one of {LOOPS}, not {loop!r}")
    return loop


class SSSPRun:
    """Device state for one single-source query: ``d``, ``conv``, ``counters``, ``tally``.

    Attributes
    ----------
    graph : DeviceGraph
    n, m : int
        Vertices and arcs.
    dtype : numpy dtype
        The distance type; ``inf`` and ``floor`` are scalars of it.

    Examples
    --------
    >>> import warpath
    >>> run = SSSPRun(warpath.Graph.from_edges([0], [1], [2.5]), 1)
    >>> run.dtype, run.d.copy_to_host().tolist(), run.tally.launches
    (dtype('float64'), [inf, 0.0], 1)
    """

    def __init__(self, graph, source: int):
        self.graph = device_graph(graph)
        self.source = int(source)
        self.n = self.graph.num_vertices
        self.m = self.graph.num_edges
        self.dtype = distance_dtype(self.graph)
        self.inf = infinity(self.dtype)
        self.floor = floor_value(self.graph, self.dtype)
        self.tally = RunTally()
        self.d = new_distances(self.n, self.source, self.dtype)
        self.tally.launch()
        self.conv = ConvergenceFlags()
        self.counters = new_counters()

    def finish(self, stats: dict, negative: bool, *, predecessors: bool, **extra) -> SSSPResult:
        """The result of a converged run, or :class:`NegativeCycleError` when ``negative``."""
        if negative:
            cycle = negative_cycle(self.graph, self.source)
            raise NegativeCycleError(cycle)
        pred = record_predecessors(self.graph, self.d, self.source, self.tally) \
            if predecessors else None
        return SSSPResult(self.source, self.d, pred, self.tally.as_stats({**stats, **extra}))
