"""A query's control block: its convergence flags and run counters in one allocation.

Every GPU query ends by reading its flags (did the last round still change
something? was a negative cycle proven?) and its counters (rounds,
relaxations).  Two small copies to the host cost two driver round trips;
kept side by side in one int64 device array, they come back in one copy,
into a page-locked buffer that every query of the thread reuses.

Layout: the flags (:mod:`warpath.cuda.flags`: three rotating round flags and
:data:`~warpath.cuda.flags.NEGATIVE_CYCLE`) in slots 0-3, then the counters
(:mod:`warpath.cuda.counters`: :data:`~warpath.cuda.counters.ITERATIONS`,
:data:`~warpath.cuda.counters.RELAXATIONS` and
:data:`~warpath.cuda.counters.COUNTED`, a count a method keeps itself).

Examples
--------
>>> import numpy as np
>>> control = Control()
>>> control.counters.copy_to_device(np.array([4, 17, 2], np.int64))
>>> flags, counts = control.read()
>>> flags.tolist(), counts.tolist()
([0, 0, 0, 0], [4, 17, 2])
"""

from __future__ import annotations

import threading

import numpy as np
from numba import cuda

from .counters import COUNTER_SLOTS
from .flags import FLAG_SLOTS, ConvergenceFlags
from .runtime import SIMULATOR, pinned_buffer, read_event, read_small, start_read

#: Slots of the block: the flags, then the counters.
SLOTS = FLAG_SLOTS + COUNTER_SLOTS

class Control:
    """Convergence flags and counters of one query, side by side on the device.

    Attributes
    ----------
    conv : ConvergenceFlags
        The flags, a view of the block (the paper loop reads them alone).
    counters : device array, int64
        The counters, a view of the block.
    block : device array, int64
        The whole block (:data:`SLOTS` slots), e.g. for one fill job clearing it.

    The views are made once: problems borrow a control block from the device
    graph's scratch pool (:mod:`warpath.cuda.scratch`) and clear it on the GPU.
    """

    def __init__(self):
        self.block = cuda.to_device(np.zeros(SLOTS, dtype=np.int64))
        self.conv = ConvergenceFlags(self.block[:FLAG_SLOTS])
        self.counters = self.block[FLAG_SLOTS:]
        # the GPU context the block lives in, for a read waited for on another thread
        self.context = None if SIMULATOR else cuda.current_context()

    def read(self):
        """``(flags, counters)`` on the host, in one copy (one host synchronisation).

        Both are views of this thread's page-locked block, overwritten by its next read.
        """
        host = read_small(self.block, pinned_buffer(SLOTS, np.int64))
        return host[:FLAG_SLOTS], host[FLAG_SLOTS:]

    def read_later(self, owner) -> tuple:
        """Queue the block's copy to the host after the work queued so far, and return at
        once ``(host, done)``: the page-locked buffer it lands in (flags, then counters)
        and the event recorded right behind the copy; the buffer holds the values after
        ``finish_read(done=done)`` (:func:`~warpath.cuda.runtime.finish_read`), which
        waits for nothing queued after the copy, such as the next query's kernel.

        The host thread has one such buffer and event.  ``owner`` (e.g. a
        :class:`~warpath.cuda.enactor.PendingOutcome`) takes its values out in its
        ``settle()`` and then calls :func:`read_done`; a read queued while another
        owner's is pending calls that owner's ``settle()`` first (an error there stays
        with that owner, for its own read to raise: this read is another query's).

        Examples
        --------
        >>> from warpath.cuda.runtime import finish_read
        >>> class Owner:
        ...     def settle(self):
        ...         finish_read(done=done); self.values = host.tolist(); read_done(self)
        >>> control = Control()
        >>> first, second = Owner(), Owner()
        >>> host, done = control.read_later(first)
        >>> control.read_later(second)[0] is host, first.values[FLAG_SLOTS:]   # first settled
        (True, [0, 0, 0])
        >>> second.settle()
        """
        earlier = getattr(_pending, "owner", None)
        if earlier is not None and earlier is not owner:
            try:
                earlier.settle()   # its values leave the buffer before the next copy lands
            except Exception:   # noqa: BLE001 - kept by that owner, raised by its own read
                pass
        host = pinned_buffer(SLOTS, np.int64, "pending")
        done = read_event(self.context)
        start_read(self.block, host, done)
        _pending.owner = owner
        return host, done


#: The owner of the host thread's pending read (:meth:`Control.read_later`), if any.
_pending = threading.local()


def read_done(owner) -> None:
    """``owner``'s read (:meth:`Control.read_later`) was waited for and its values taken:
    the thread's buffer is free again.

    Examples
    --------
    >>> read_done(object())   # not the pending owner: nothing changes
    """
    if getattr(_pending, "owner", None) is owner:
        _pending.owner = None
