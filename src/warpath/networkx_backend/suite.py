"""Run networkx's own shortest-path tests against the warpath backend and count the calls.

``python3 -m warpath.networkx_backend.suite`` is networkx's documented way of
testing a backend (``NETWORKX_TEST_BACKEND=warpath NETWORKX_FALLBACK_TO_NX=True
python -m pytest --pyargs networkx.algorithms.shortest_paths``): every
dispatchable call in the tests is converted to the backend and its result
compared by the tests.  On top, it listens to the dispatcher's debug log and
prints, per networkx function, how many calls warpath ran and how many fell
back to networkx (a ``can_run`` refusal, a conversion or function raising
``NotImplementedError``, or a function warpath does not have), then, for the
functions warpath has, why each fallback happened (``can_run``'s reason or
the exception's message).  It exits with pytest's status.

Examples
--------
>>> tally = DispatchTally()
>>> tally.ran["dijkstra_path"] += 2
>>> tally.fell_back["path_graph"] += 1
>>> print(tally.report({"dijkstra_path"}).splitlines()[2])
shortest-path functions: warpath ran 2 calls, networkx ran 0 (fell back)
"""

from __future__ import annotations

import collections
import logging
import os
import sys

#: The test packages run by default.
DEFAULT_TESTS = ("networkx.algorithms.shortest_paths",)


class DispatchTally(logging.Handler):
    """Counts the dispatcher's decisions from its log records, per function name.

    Attach it to the ``networkx.utils.backends`` logger at level DEBUG.

    Examples
    --------
    >>> import networkx as nx
    >>> tally, logger = DispatchTally(), logging.getLogger("networkx.utils.backends")
    >>> logger.addHandler(tally); level = logger.level; logger.setLevel(logging.DEBUG)
    >>> nx.has_path(nx.path_graph(3), 0, 2, backend="warpath")
    True
    >>> logger.removeHandler(tally); logger.setLevel(level)
    >>> tally.ran["has_path"]
    1
    """

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.ran = collections.Counter()
        self.fell_back = collections.Counter()
        #: ``(function, reason) -> count`` for the fallbacks whose reason the log gives.
        self.reasons = collections.Counter()

    def emit(self, record):
        """Count one log record of the dispatcher (others are ignored).

        Examples
        --------
        >>> tally = DispatchTally()
        >>> tally.emit(logging.makeLogRecord({"msg": "Backend '%s' does not implement '%s'",
        ...                                   "args": ("warpath", "astar_path")}))
        >>> sum(tally.ran.values()) + sum(tally.fell_back.values())
        0
        """
        message, args = record.msg, record.args
        if not isinstance(message, str) or not args:
            return
        # The dispatcher's own messages (networkx/utils/backends.py); the arguments are
        # (backend, function, ...): ``args`` are read without formatting the record.
        if message.startswith("Using backend '%s' for call to '%s'") and args[0] == "warpath":
            self.ran[args[1]] += 1
        elif message.startswith("Falling back to use 'networkx' instead of '%s' backend") \
                or message.startswith("Graph conversion failed; falling back"):
            self.fell_back[args[1]] += 1
        elif message.startswith("Backend '%s' raised when calling '%s'") \
                and "falling back" in message and args[0] == "warpath":
            self.ran[args[1]] -= 1  # it was counted as run just before it raised
            self.fell_back[args[1]] += 1
            self.reasons[args[1], f"raised NotImplementedError: {args[2]}"] += 1
        elif message.startswith("Backend '%s' can't run `%s`") and args[0] == "warpath":
            # logged just before the fallback itself, with can_run's answer (or "")
            self.reasons[args[1], str(args[3]).removeprefix(", because: ") or "can_run False"] += 1

    def report(self, in_scope) -> str:
        """A per-function table for ``in_scope`` names, totals for them and the rest, and the
        reasons of their fallbacks.

        Examples
        --------
        >>> tally = DispatchTally()
        >>> tally.ran["johnson"] += 3
        >>> print(tally.report({"johnson"}))  # doctest: +NORMALIZE_WHITESPACE
        function                                       warpath  networkx
        johnson                                              3         0
        shortest-path functions: warpath ran 3 calls, networkx ran 0 (fell back)
        other networkx functions (graph builders, helpers): warpath ran 0 calls, networkx ran 0
        """
        lines = [f"{'function':45} {'warpath':>8} {'networkx':>9}"]
        names = sorted(set(self.ran) | set(self.fell_back))
        scoped = [name for name in names if name in in_scope]
        for name in scoped:
            lines.append(f"{name:45} {self.ran[name]:8d} {self.fell_back[name]:9d}")
        ran = sum(self.ran[name] for name in scoped)
        back = sum(self.fell_back[name] for name in scoped)
        other_ran = sum(self.ran[name] for name in names if name not in in_scope)
        other_back = sum(self.fell_back[name] for name in names if name not in in_scope)
        lines.append(f"shortest-path functions: warpath ran {ran} calls, "
                     f"networkx ran {back} (fell back)")
        lines.append(f"other networkx functions (graph builders, helpers): warpath ran "
                     f"{other_ran} calls, networkx ran {other_back}")
        explained = sorted((name, why, count) for (name, why), count in self.reasons.items()
                           if name in in_scope)
        if explained:
            lines.append("why calls to functions warpath has fell back:")
            lines.extend(f"  {name}: {count} x {why}" for name, why, count in explained)
        return "\n".join(lines)


def shortest_path_names() -> set:
    """The dispatchable functions of ``networkx.algorithms.shortest_paths``.

    Examples
    --------
    >>> {"dijkstra_path", "astar_path", "floyd_warshall"} <= shortest_path_names()
    True
    """
    import networkx as nx

    return {name for name, func in nx.utils.backends._registered_algorithms.items()
            if func.__module__.startswith("networkx.algorithms.shortest_paths")}


def main(argv=None) -> int:
    """Run the tests (``argv``: extra pytest arguments, or test packages) and print the tally.

    Returns pytest's exit status.

    Examples
    --------
    A short run of one networkx test module (``-k``: a few of its tests),
    whose tally is printed after pytest's summary::

        main(["networkx.algorithms.shortest_paths.tests.test_dense", "-k", "numpy"])
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ["NETWORKX_TEST_BACKEND"] = "warpath"
    os.environ.setdefault("NETWORKX_FALLBACK_TO_NX", "True")
    import pytest

    tally = DispatchTally()
    logger = logging.getLogger("networkx.utils.backends")
    logger.addHandler(tally)
    previous_level = logger.level
    logger.setLevel(logging.DEBUG)
    targets = [arg for arg in argv if not arg.startswith("-")] or list(DEFAULT_TESTS)
    options = [arg for arg in argv if arg.startswith("-")]
    try:
        status = pytest.main(["--pyargs", *targets, "-q", "-p", "no:cacheprovider", *options])
    finally:
        logger.removeHandler(tally)
        logger.setLevel(previous_level)
    print(tally.report(shortest_path_names()))
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
