"""Array positions computed without numba's negative-index wraparound.

numba treats a signed index as Python does: ``a[-1]`` is the last element, so every
access with a signed integer index carries a test and an add (four instructions in
64-bit arithmetic on the GPU).  The kernels' positions are never negative, and a
profile of the whole items' round (``docs/performance.md``, twenty-seventh session)
found that arithmetic a large share of the instructions a relaxation issues.
:func:`at` computes ``row * width + column`` in unsigned 64-bit arithmetic, whose
indices numba uses as they are when it loads or stores.  ``cuda.atomic.*`` turn every
index back into a signed one and keep the wraparound, so a position handed to an
atomic gains nothing.

Where every position of an array fits in 32 bits, :func:`at32` computes it in
unsigned 32-bit arithmetic: one multiply-add instead of a 64-bit product, and a
position an atomic widens again is known to be non-negative, so its wraparound
goes too.  The caller checks the sizes on the host and picks one of the two when it
builds its kernel.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def second_row(a, out):
...     out[0] = a[at(1, 3, 2)]
>>> out = cuda.to_device(np.zeros(1, np.int64))
>>> second_row[1, 1](cuda.to_device(np.arange(6)), out)
>>> out.copy_to_host().tolist()
[5]
>>> @cuda.jit
... def second_row32(a, out):
...     out[0] = a[at32(1, 3, 2)]
>>> second_row32[1, 1](cuda.to_device(np.arange(6)), out)
>>> out.copy_to_host().tolist()
[5]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .runtime import SIMULATOR


@cuda.jit(device=True)
def at(row, width, column):
    """``row * width + column`` as an unsigned 64-bit array position (all three must be
    non-negative).  See the module's Examples."""
    return np.uint64(row) * np.uint64(width) + np.uint64(column)


def _multiply_add32(row, width, column):
    """``row * width + column`` in unsigned 32-bit arithmetic, as plain Python (the
    simulator's :func:`at32`)."""
    return np.uint32((int(row) * int(width) + int(column)) & 0xFFFFFFFF)


if not SIMULATOR:
    from llvmlite import ir
    from numba import types
    from numba.cuda.extending import intrinsic

    @intrinsic
    def _multiply_add32(typingctx, row, width, column):   # noqa: F811 (the GPU's form)
        """One 32-bit multiply-add: numba would widen each operand to 64 bits first."""

        def codegen(context, builder, signature, args):
            word = ir.IntType(32)

            def as_word(value):
                bits = value.type.width
                return (builder.trunc(value, word) if bits > 32
                        else builder.zext(value, word) if bits < 32 else value)

            a, b, c = (as_word(value) for value in args)
            return builder.add(builder.mul(a, b), c)

        return types.uint32(row, width, column), codegen


@cuda.jit(device=True)
def at32(row, width, column):
    """``row * width + column`` as an unsigned 32-bit array position, in one 32-bit
    multiply-add: the caller makes sure that every such position is below ``2**32``
    (all three non-negative).  See the module's Examples."""
    return _multiply_add32(row, width, column)


#: The largest array length whose positions :func:`at32` can compute.
AT32_LIMIT = 2**32


@cuda.jit(device=True)
def narrow(x):
    """``x`` as an unsigned 32-bit position (for :func:`at32`'s users)."""
    return np.uint32(x)


@cuda.jit(device=True)
def wide(x):
    """``x`` as an unsigned 64-bit position (for :func:`at`'s users)."""
    return np.uint64(x)
