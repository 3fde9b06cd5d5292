"""Progress of long runs on stderr: a bar on a terminal, plain lines anywhere else.

A run whose output goes to a pipe or a log file would otherwise print nothing
for minutes; there, :class:`ProgressLines` writes one line per 10% done or
per 30 seconds, whichever comes first.  Both reporters are called as
``report(done, total)`` (the ``progress=`` argument of :func:`warpath.apsp`
and :func:`warpath.multi_source`) and closed with ``close()``.

Examples
--------
>>> import io
>>> out = io.StringIO()
>>> report = ProgressLines("apsp", out, clock=iter(range(0, 1000, 1)).__next__)
>>> for done in range(0, 101, 5):
...     report(done, 100)
>>> out.getvalue().splitlines()[:2]
['apsp: 10% (10 of 100 sources, 3 s)', 'apsp: 20% (20 of 100 sources, 5 s)']
"""

from __future__ import annotations

import sys
import time

#: A line at least every this many percent, and at least every this many seconds.
STEP_PERCENT = 10
STEP_SECONDS = 30.0


class ProgressLines:
    """``label: 40% (400 of 1,000 sources, 12 s)`` lines, every 10% or 30 s."""

    def __init__(self, label: str, stream=None, clock=time.monotonic):
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.start = clock()
        self.last_time = self.start
        self.last_step = 0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        step = (100 * done // total) // STEP_PERCENT if total else 0
        if done == 0 or (step <= self.last_step and now - self.last_time < STEP_SECONDS):
            return
        self.last_step, self.last_time = step, now
        print(f"{self.label}: {100 * done // total}% ({done:,} of {total:,} sources, "
              f"{now - self.start:.0f} s)", file=self.stream, flush=True)

    def close(self) -> None:
        """Nothing to release (the bar's counterpart)."""


class ProgressBar:
    """A tqdm bar on stderr that disappears when done (for a terminal)."""

    def __init__(self, label: str, stream=None):
        from tqdm import tqdm

        self.bar = tqdm(unit="sources", desc=label, file=sys.stderr if stream is None else stream,
                        leave=False)

    def __call__(self, done: int, total: int) -> None:
        self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        """Remove the bar."""
        self.bar.close()


def reporter(label: str, stream=None):
    """A bar when ``stream`` (default stderr) is a terminal, else :class:`ProgressLines`.

    Examples
    --------
    >>> import io
    >>> type(reporter("apsp", io.StringIO())).__name__
    'ProgressLines'
    """
    stream = sys.stderr if stream is None else stream
    if hasattr(stream, "isatty") and stream.isatty():
        return ProgressBar(label, stream)
    return ProgressLines(label, stream)
