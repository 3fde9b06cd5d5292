"""The typed errors warpath raises.

Every error a user can cause derives from :class:`WarpathError`, so a caller
(and the command line) can catch them all in one place and print one line.
Each one also derives from the built-in exception a Python caller would
expect (``ValueError`` for a bad value, ``TypeError`` for an unknown option,
``FileNotFoundError`` for a missing file or folder, ``MemoryError`` for a
result that cannot fit), and its message names the offending value.

The command line maps them to exit statuses by one rule: an
:class:`ArgumentError` (the call itself is wrong: an unknown method or
option, a value out of its domain) exits with 2, every other
:class:`WarpathError` (the data or the machine says no) with 1.

Examples
--------
>>> import warpath
>>> issubclass(warpath.NegativeCycleError, warpath.WarpathError)
True
"""

from __future__ import annotations


class WarpathError(Exception):
    """Base class of the errors a user of warpath can cause."""


class WarpathWarning(UserWarning):
    """Base class of the warnings warpath gives (the command line prints them as one line)."""


class DirectionWarning(WarpathWarning):
    """An edge list whose file does not say whether it is directed, read as directed."""


class ArgumentError(WarpathError, ValueError):
    """An argument whose value the function does not take (``limit=-1``, ``device="gpu"``)."""


class OptionError(ArgumentError, TypeError):
    """A method option that the method does not take, or a value it refuses."""


class PathNotFoundError(WarpathError, FileNotFoundError):
    """A file to read, or the folder to write a file into, does not exist."""


class MissingPredecessorsError(WarpathError, ValueError):
    """A path asked of a result computed with ``predecessors=False``."""


class MemoryLimitError(WarpathError, MemoryError):
    """A computation whose memory estimate exceeds what the machine has (the message says both)."""


class DistanceOverflowError(WarpathError, OverflowError):
    """A distance that does not fit in the integer ``dtype=`` asked for its result matrix."""


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


class UnknownFormatError(GraphFormatError, ArgumentError):
    """A format name, or a file suffix to write, that names no supported format (both a
    :class:`GraphFormatError` and an :class:`ArgumentError`)."""


class GraphFileNotFoundError(GraphFormatError, PathNotFoundError):
    """A graph file that does not exist (both a :class:`GraphFormatError` and a
    ``FileNotFoundError``)."""


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


class MethodNotAvailable(ArgumentError, LookupError):
    """A method/device pair that does not exist (the message lists those that do)."""


class DeviceError(WarpathError, RuntimeError):
    """The requested device cannot be used (no GPU, numba-cuda missing, graph too big)."""
