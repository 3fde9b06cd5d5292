"""The typed errors warpath raises.

Every error a user can cause derives from :class:`WarpathError`, so a caller
(and the command line) can catch them all in one place and print one line.

Examples
--------
>>> import warpath
>>> issubclass(warpath.NegativeCycleError, warpath.WarpathError)
True
"""

from __future__ import annotations


class WarpathError(Exception):
    """Base class of the errors a user of warpath can cause."""


class GraphError(WarpathError, ValueError):
    """A graph that cannot be built or used as given (bad arrays, NaN weights, ...)."""


class GraphFormatError(GraphError):
    """A malformed graph file.

    Carries the file, the 1-based line number (``None`` when the problem is not
    on one line, such as a missing header) and the message, and prints as
    ``file:line: message``.

    Examples
    --------
    >>> str(GraphFormatError("bad token 'x'", path="g.gr", line=7))
    "g.gr:7: bad token 'x'"
    """

    def __init__(self, message: str, *, path=None, line: int | None = None):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        where = self.path or "<input>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}")


class NegativeCycleError(WarpathError):
    """A negative-weight cycle is reachable, so shortest paths are undefined.

    ``cycle`` holds the vertices of one negative cycle in order (0-based
    indices; the last vertex has an arc back to the first), or ``None`` when
    the method that detected it could not recover one.

    Examples
    --------
    >>> err = NegativeCycleError([2, 5, 3])
    >>> err.cycle
    [2, 5, 3]
    """

    def __init__(self, cycle=None, message: str | None = None):
        self.cycle = None if cycle is None else [int(v) for v in cycle]
        if message is None:
            message = "the graph has a negative-weight cycle reachable from the source"
            if self.cycle is not None:
                shown = " -> ".join(str(v) for v in self.cycle[:20])
                more = " -> ..." if len(self.cycle) > 20 else ""
                message += f": {shown}{more} -> {self.cycle[0]}"
        super().__init__(message)


class NegativeWeightError(WarpathError, ValueError):
    """A method that needs non-negative weights (e.g. dijkstra) was given a negative one."""


class SourceError(WarpathError, IndexError):
    """A source (or target) vertex that is not in the graph."""


class EmptyGraphError(GraphError):
    """An operation that needs at least one vertex was given an empty graph."""


class MethodNotAvailable(WarpathError, LookupError):
    """A method/device pair that does not exist (the message lists those that do)."""


class DeviceError(WarpathError, RuntimeError):
    """The requested device cannot be used (no GPU, numba-cuda missing, graph too big)."""
