"""Order-preserving integer codes for 32-bit distances (H-BF's 64-bit duplicate removal).

H-BF (Sec. 4.2) keeps a vertex's distance and a round number in one 64-bit
word, the distance in the high half, so that one ``atomicMin`` orders by
distance first.  That needs the distance as a signed 32-bit integer whose
order is the distances' order: int32 distances are their own code; a float32
is its bit pattern, with every bit but the sign flipped when negative (the
usual trick: positive floats already compare as integers, negative ones in
reverse).  The simulator has no bit casts, so it reinterprets through numpy.

Examples
--------
>>> import numpy as np
>>> codes = [encode_host(np.float32(x)) for x in (-3.5, -0.5, 0.0, 0.25, 7.0, np.inf)]
>>> codes == sorted(codes)
True
>>> float(decode_host(encode_host(np.float32(-2.75)), np.float32))
-2.75
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .runtime import SIMULATOR

FLIP = 0x7FFFFFFF

if SIMULATOR:
    def _float_bits(x):
        return int(np.float32(x).view(np.int32))

    def _bits_float(b):
        return np.int32(b).view(np.float32)
else:
    from numba.cuda import libdevice

    _float_bits = libdevice.float_as_int
    _bits_float = libdevice.int_as_float


@cuda.jit(device=True)
def encode_float32(x):
    """The signed code of a float32, as int64 (see the module notes)."""
    bits = _float_bits(x)
    if bits < 0:
        bits ^= FLIP
    return np.int64(bits)


@cuda.jit(device=True)
def decode_float32(code):
    """The float32 of a code made by :func:`encode_float32`."""
    bits = np.int32(code)
    if bits < 0:
        bits ^= FLIP
    return _bits_float(bits)


@cuda.jit(device=True)
def encode_int(x):
    """An int32 distance is its own code."""
    return np.int64(x)


@cuda.jit(device=True)
def decode_int(code):
    """The int32 distance of a code."""
    return np.int32(code)


def codec(dtype):
    """``(encode, decode)`` device functions for a 32-bit distance type.

    Examples
    --------
    >>> codec(np.float32)[0] is encode_float32
    True
    """
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return encode_float32, decode_float32
    if dtype == np.int32:
        return encode_int, decode_int
    raise ValueError(f"only 32-bit distances are packed, not {dtype}")


def encode_host(x) -> int:
    """:func:`encode_float32` / :func:`encode_int` on the host (a Python int)."""
    if np.asarray(x).dtype == np.float32:
        bits = int(np.float32(x).view(np.int32))
        return bits ^ FLIP if bits < 0 else bits
    return int(x)


def decode_host(code: int, dtype):
    """The distance of ``dtype`` behind a host code."""
    if np.dtype(dtype) == np.float32:
        bits = code ^ FLIP if code < 0 else code
        return np.int32(bits).view(np.float32)
    return np.dtype(dtype).type(code)
