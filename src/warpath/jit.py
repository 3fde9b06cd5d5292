"""numba's compilation, kept out of small jobs and out of the times reported for the rest.

numba compiles a kernel on its first call, seconds on a fresh install (and
caches it on disk, so later processes only load it, which still costs about
half a second to start numba's compiler).  On a small input that is all the
time there is, so :func:`interpreted` runs the very same kernel code in the
Python interpreter instead: same results, same counters, no compilation.
Where compilation does happen, :class:`CompileTimer` measures it, so a
command can report it apart from reading or query time.

Examples
--------
>>> import time
>>> with CompileTimer() as timer:
...     time.sleep(0)
>>> timer.seconds
0.0
"""

from __future__ import annotations

import types
from contextlib import contextmanager

from numba.core import event
from numba.core.registry import CPUDispatcher

# One copy of a module's globals per module, its kernels replaced by their Python code.
_INTERPRETED_GLOBALS: dict = {}
# Whether small inputs may run interpreted (benchmarks switch it off: they time the kernels).
_SMALL_INPUTS_INTERPRETED = [True]


def runs_interpreted(arcs: int, limit: int) -> bool:
    """Whether an input of ``arcs`` arcs runs interpreted under a method's ``limit``
    (``interpreted_arcs``), unless :func:`compiled_only` is in force.

    Examples
    --------
    >>> runs_interpreted(100, 1000), runs_interpreted(100, 0)
    (True, False)
    >>> with compiled_only():
    ...     runs_interpreted(100, 1000)
    False
    """
    return _SMALL_INPUTS_INTERPRETED[-1] and arcs <= limit


@contextmanager
def compiled_only():
    """Inside this block every kernel runs compiled, whatever the input size (the benchmark
    harness times kernels, not the interpreter)."""
    _SMALL_INPUTS_INTERPRETED.append(False)
    try:
        yield
    finally:
        _SMALL_INPUTS_INTERPRETED.pop()


def interpreted(kernel):
    """The Python function behind the numba ``kernel``, calling its helpers' Python code too.

    The kernel's own code runs in the interpreter with every numba function
    of its module (the helpers it calls) replaced by the helper's Python
    function, so nothing is compiled.  Helpers from other modules must not be
    called (none of warpath's kernels do).  The module's other globals are
    those of the first call (a snapshot).

    Examples
    --------
    >>> from numba import njit
    >>> @njit
    ... def twice(x):
    ...     return 2 * x
    >>> interpreted(twice)(21), twice.signatures   # ran in Python: nothing compiled
    (42, [])
    """
    function = kernel.py_func
    key = id(function.__globals__)
    if key not in _INTERPRETED_GLOBALS:
        namespace = dict(function.__globals__)
        for name, value in function.__globals__.items():
            if isinstance(value, CPUDispatcher):
                namespace[name] = _rebound(value.py_func, namespace)
        _INTERPRETED_GLOBALS[key] = namespace
    return _rebound(function, _INTERPRETED_GLOBALS[key])


def _rebound(function, namespace):
    return types.FunctionType(function.__code__, namespace, function.__name__,
                              function.__defaults__, function.__closure__)


class CompileTimer:
    """A context manager: ``seconds`` is the compilation time inside the ``with`` block.

    Nested compilations (a kernel compiling the functions it calls) count once.
    """

    def __init__(self):
        self.seconds = 0.0
        self._recorder = None

    def __enter__(self) -> "CompileTimer":
        self._recorder = event.install_recorder("numba:compile")
        self._buffer = self._recorder.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._recorder.__exit__(*exc)
        depth = 0
        started = 0.0
        for timestamp, happened in self._buffer.buffer:
            if happened.is_start:
                if depth == 0:
                    started = timestamp
                depth += 1
            elif depth:
                depth -= 1
                if depth == 0:
                    self.seconds += timestamp - started
