"""The host drivers of iterative kernels: paper loops, batched checks and persistent kernels.

Every relaxing method here repeats *rounds* until one changes nothing.  Three ways to drive them:

- :func:`host_loop` with ``first_check=1, every=1``: the papers' loop, one
  launch per kernel step and the convergence flag read back after each round
  (~65 us per round on an H100, most of it the launch and the read-back).
- :func:`host_loop` with a larger ``first_check`` or ``every``: launch
  several rounds back to back and read the flag only then (Safari's ``N``
  launches without communication, or "check every k launches").  A round
  after convergence finds nothing flagged and changes nothing, so running a
  few extra is harmless.
- :func:`persistent_launch`: one cooperative kernel loops over the rounds
  itself, separated by ``grid.sync()`` (~1.5 us each), and reads the flag on
  the device; the host reads the outcome once at the end.

A round that still changes something after ``num_vertices`` rounds (or a
relax step below the floor of :func:`~warpath.cuda.distances.floor_value`)
means a negative cycle.

Examples
--------
>>> tally = RunTally()
>>> rounds, negative = host_loop(lambda r: None, _NeverChanged(), tally, 10)
>>> rounds, negative, tally.host_syncs
(1, False, 1)
"""

from __future__ import annotations

from .counters import RunTally
from .flags import NEGATIVE_CYCLE
from .runtime import THREADS, cooperative_blocks


def host_loop(step, conv, tally: RunTally, max_rounds: int, first_check: int = 1,
              every: int = 1):
    """Run ``step(r)`` for r = 0, 1, ... until a checked round changed nothing.

    Parameters
    ----------
    step : callable
        Launches the kernels of round ``r`` (and counts them in ``tally``).
    conv : ConvergenceFlags
        Read after round r when ``r + 1 == first_check``, then every ``every`` rounds.
    tally : RunTally
        Counts the flag reads as host syncs.
    max_rounds : int
        The Bellman-Ford bound (the number of vertices); the last round is always checked.

    Returns
    -------
    rounds : int
        Rounds run.
    negative_cycle : bool
        Whether round ``max_rounds`` still changed something, or a relax step
        proved a negative cycle.

    Examples
    --------
    >>> host_loop(print, _NeverChanged(), RunTally(), 5, first_check=3)
    0
    1
    2
    (3, False)
    """
    first_check = max(1, min(first_check, max_rounds))
    every = max(1, every)
    for r in range(max_rounds):
        step(r)
        done = r + 1
        if done == max_rounds or (done >= first_check and (done - first_check) % every == 0):
            tally.sync()
            changed = conv.changed(r)
            if conv.negative_cycle:
                return done, True
            if not changed:
                return done, False
    return max_rounds, True


def persistent_launch(kernel, args, items: int, tally: RunTally) -> int:
    """Launch ``kernel(*args)`` once as a persistent cooperative grid; returns its block count.

    The grid is as large as ``items`` needs, capped at what can be resident
    at once (:func:`~warpath.cuda.runtime.cooperative_blocks`).

    Examples
    --------
    >>> import numpy as np
    >>> from numba import cuda
    >>> @cuda.jit
    ... def two_phases(a):
    ...     a[cuda.grid(1)] = 1
    ...     cuda.cg.this_grid().sync()
    ...     if cuda.grid(1) == 0:
    ...         a[0] = a[0] + a[a.shape[0] - 1]
    >>> a, tally = cuda.to_device(np.zeros(32, np.int32)), RunTally()
    >>> blocks = persistent_launch(two_phases, (a,), 32, tally)
    >>> int(a.copy_to_host()[0]), tally.launches
    (2, 1)
    """
    blocks = cooperative_blocks(kernel, args, items)
    kernel[blocks, THREADS](*args)
    tally.launch()
    return blocks


def persistent_outcome(conv, counters, tally: RunTally, max_rounds: int):
    """Read a persistent kernel's counters and flags (two host syncs).

    Returns
    -------
    stats : dict
        ``iterations`` (rounds run) and ``relaxations``.
    negative_cycle : bool
        As for :func:`host_loop`.

    Examples
    --------
    >>> import numpy as np
    >>> from numba import cuda
    >>> from .flags import ConvergenceFlags
    >>> counters = cuda.to_device(np.array([7, 30], np.int64))
    >>> persistent_outcome(ConvergenceFlags(), counters, RunTally(), 100)
    ({'iterations': 7, 'relaxations': 30}, False)
    """
    stats = tally.read_counters(counters)
    tally.sync()
    flags = conv.read()
    rounds = stats["iterations"]
    negative = bool(flags[NEGATIVE_CYCLE]) or (
        rounds >= max_rounds and bool(flags[(rounds - 1) % 3]))
    return stats, negative


class _NeverChanged:
    """A stand-in for ConvergenceFlags whose rounds never change anything (doctests)."""

    negative_cycle = False

    def changed(self, r):
        return False
