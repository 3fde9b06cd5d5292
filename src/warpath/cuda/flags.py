"""Convergence flags and vertex flag arrays.

A convergence flag says whether a round changed anything.  The host loops
read it back; a persistent kernel reads it after ``grid.sync()``.  In the
persistent case one flag cannot be reset safely (a slow thread may still be
reading round r's flag while a fast one clears it for round r + 1), so there
are three, used in rotation: round r sets ``conv[r % 3]``, and thread 0
clears ``conv[(r + 1) % 3]`` during round r, a flag last read before the
barrier that ended round r - 1 and next written after the one that ends round r.
Slot :data:`NEGATIVE_CYCLE` is raised by a relax step that proves a negative cycle.
The host reads it after the rounds.  The rounds never read it to decide: it is
one slot, which a fast thread may raise in round r while a slow one is still
deciding after the barrier that ended round r - 1, so a round loop that read it
could stop in some threads and not in others, and the others would wait at the
next barrier for ever.  Instead thread 0, when it clears a round's flag, writes
:data:`STOP` there if a proof is in: the loop stops after that round (at most
two rounds after the proof), and every thread reads the same word to decide.

Examples
--------
>>> flags = ConvergenceFlags()
>>> flags.read().tolist()
[0, 0, 0, 0]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .distances import device_full
from .runtime import SIMULATOR, pinned_buffer, read_small


#: The slot of the convergence array raised when a negative cycle is proven.
NEGATIVE_CYCLE = 3


#: A round flag: the round changed something.
CHANGED = 1
#: A round flag written before the round, once a negative cycle is proven: the round loop
#: stops after it, whatever it changes (:func:`mark_changed` stores only over a 0).
STOP = 2


@cuda.jit(device=True)
def begin_round(conv, r, thread):
    """Clear the flag of round ``r + 1``, or mark it :data:`STOP` once the negative-cycle
    slot is raised (thread 0 only; see the module notes).

    Examples
    --------
    >>> import numpy as np
    >>> @cuda.jit
    ... def rounds(conv, out):
    ...     for r in range(3):
    ...         begin_round(conv, r, cuda.grid(1))
    ...         if r < 2:
    ...             mark_changed(conv, r)
    ...         cuda.syncthreads()
    ...         out[r] = round_changed(conv, r)
    ...         cuda.syncthreads()
    >>> conv, out = cuda.to_device(np.zeros(4, np.int32)), cuda.to_device(np.zeros(3, np.bool_))
    >>> rounds[1, 8](conv, out); out.copy_to_host().tolist()
    [True, True, False]
    """
    if thread == 0:
        conv[(r + 1) % 3] = STOP if conv[NEGATIVE_CYCLE] != 0 else 0


if SIMULATOR:
    @cuda.jit(device=True)
    def mark_changed(conv, r):
        """Record that round ``r`` changed something (simulator: every caller that reads
        0 stores; a :data:`STOP` stays).  See :func:`begin_round` for an example."""
        if conv[r % 3] == 0:
            conv[r % 3] = CHANGED
else:
    @cuda.jit(device=True)
    def mark_changed(conv, r):
        """Record that round ``r`` changed something.  See :func:`begin_round` for an example.

        The flag is one word that every successful relax of the round reports
        to: stored unconditionally, millions of stores a round queue at that one
        L2 address (a 32-source task-parallel launch makes ~10^8 over its
        rounds).  So one lane of the calling lanes of a warp reports for all of
        them, and it stores only if it still reads 0: once an SM has seen the 1,
        its warps skip the store.  A stale 0 costs one redundant store; a stale
        1 cannot occur, since the flag was cleared before the ``grid.sync()``
        (or kernel boundary) that began the round and loads after it see the
        clear.  (H100, 1,000 sources on random(1M, 6M): 3.1 s with every lane
        storing, 2.8 s with one store per warp, 1.8 s with the read first.)
        """
        slot = r % 3
        if cuda.laneid == 31 - cuda.clz(cuda.activemask()) and conv[slot] == 0:
            conv[slot] = CHANGED


@cuda.jit(device=True)
def round_changed(conv, r):
    """Whether round ``r`` changed anything and was not marked :data:`STOP` (a value no
    thread writes after the barrier that ended round r: every thread of a grid gets the
    same answer; see the module notes for why the negative-cycle slot is not read here).
    See :func:`begin_round` for an example."""
    return conv[r % 3] == CHANGED


#: Slots of a convergence array: three rotating round flags and :data:`NEGATIVE_CYCLE`.
FLAG_SLOTS = 4

class ConvergenceFlags:
    """The device array ``conv`` (:data:`FLAG_SLOTS` integers) and its reads to the host.

    Parameters
    ----------
    device : device array, optional
        The flags, e.g. a view of a query's control block
        (:class:`~warpath.cuda.control.Control`); by default a new int32 array of zeros.

    Examples
    --------
    >>> ConvergenceFlags().changed(0)
    False
    """

    def __init__(self, device=None):
        self.device = cuda.to_device(np.zeros(FLAG_SLOTS, dtype=np.int32)) if device is None \
            else device
        self._host = None

    def read(self) -> np.ndarray:
        """Copy the flags to the host (one host synchronisation); a view of this thread's
        buffer, overwritten by its next read."""
        self._host = read_small(self.device, pinned_buffer(FLAG_SLOTS, self.device.dtype))
        return self._host

    def changed(self, r: int) -> bool:
        """Read back whether round ``r`` changed anything (one host synchronisation)."""
        flags = self.read()
        return bool(flags[r % 3]) and not flags[NEGATIVE_CYCLE]

    @property
    def negative_cycle(self) -> bool:
        """Whether a relax step proved a negative cycle (uses the last :meth:`read`)."""
        return self._host is not None and bool(self._host[NEGATIVE_CYCLE])


def vertex_flags(num_vertices: int, copies: int = 1, set_vertex: int = -1):
    """``copies`` uint8 flag arrays of ``num_vertices`` (shape (copies, n)), all clear
    except ``flags[0, set_vertex]`` when given (the source, Agarwal Alg. 5 / Safari Alg. 6).

    Examples
    --------
    >>> vertex_flags(3, 2, set_vertex=1).copy_to_host().tolist()
    [[0, 1, 0], [0, 0, 0]]
    """
    flags = device_full(copies * num_vertices, 0, np.uint8, set_vertex, 1)
    return flags.reshape(copies, num_vertices)
