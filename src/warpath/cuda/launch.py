"""Launching a compiled kernel in one driver call, without numba's per-launch typing.

``kernel[grid, block](*args)`` types every argument (the engine's persistent
kernel takes nested tuples of 13-17 device arrays), turns each array into a
memory view, flattens them into 100-130 kernel parameters and hands those to
cuda.core one Python int at a time: 0.33-0.45 ms of host time per launch on
the H100 host, as long as the kernel of a small-world BFS (docs/performance.md).

:func:`launch` keeps, per kernel and argument types
(:func:`~warpath.cuda.runtime.argument_types`), the compiled function; a
launch writes the parameters into one int64 array, in numba's order and
layout (an array: meminfo and parent pointers, both null, then its size,
item size, data pointer, shape and byte strides; a scalar: its bits in the
low bytes of its slot) and calls ``cuLaunchCooperativeKernel`` (or
``cuLaunchKernel``) once.  Under the CUDA simulator, and for arguments it
does not flatten (host arrays, records, float16, ...), numba launches the
kernel itself.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def add(a, pair):
...     a[cuda.grid(1)] += pair[0] + pair[1]
>>> a = cuda.to_device(np.zeros(4, np.int64))
>>> launch(add, 1, 4, (a, (np.int64(2), 3)))
>>> a.copy_to_host().tolist()
[5, 5, 5, 5]
"""

from __future__ import annotations

import struct

import numpy as np

from .runtime import SIMULATOR, argument_types

#: The compiled function per (kernel, argument types): ``(handle, cooperative, stream)``,
#: or ``None`` where numba's own launch is used.
_FUNCTIONS: dict = {}


class _NotFlat(TypeError):
    """An argument :func:`parameters` does not flatten (numba launches that kernel)."""


def _scalar_bits(value) -> int:
    """A scalar argument's bits as a signed 64-bit int (4-byte types in the low bytes)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        bits = int(value) & 0xFFFF_FFFF_FFFF_FFFF
        return bits - (1 << 64) if bits >= 1 << 63 else bits
    if isinstance(value, np.float32):
        return struct.unpack("<i", struct.pack("<f", value))[0]
    if isinstance(value, (float, np.float64)):
        return struct.unpack("<q", struct.pack("<d", value))[0]
    raise _NotFlat(type(value).__name__)


def parameters(args, out=None) -> list:
    """The kernel parameters of ``args`` (appended to ``out``) in numba's order, one int
    per 8-byte slot; raises ``_NotFlat`` for an argument it does not flatten.

    Device arrays (anything with ``device_ctypes_pointer``) give ``0, 0, size,
    itemsize, data pointer``, then their shape and byte strides; tuples are
    flattened in order; ints, floats and booleans give their bits.

    Examples
    --------
    >>> class Device:   # what the flattening reads of a device array
    ...     size, shape, strides, dtype = 6, (2, 3), (24, 8), np.dtype(np.int64)
    ...     class device_ctypes_pointer:
    ...         value = 4096
    >>> parameters((Device(), (np.int32(-1), 2.0, True)))
    [0, 0, 6, 8, 4096, 2, 3, 24, 8, -1, 4611686018427387904, 1]
    """
    out = [] if out is None else out
    for a in args:
        if isinstance(a, tuple):
            parameters(a, out)
        elif hasattr(a, "device_ctypes_pointer"):
            out += (0, 0, a.size, a.dtype.itemsize, a.device_ctypes_pointer.value or 0)
            out += a.shape
            out += a.strides
        else:
            out.append(_scalar_bits(a))
    return out


def _function(kernel, args):
    """``(handle, cooperative, stream)`` of ``kernel`` compiled for ``args``, or ``None``
    when numba's own launch must run it (a debug build, argument extensions).  The stream
    is numba's default: the legacy one (0), or the per-thread one (2) when numba is
    configured so."""
    from cuda.bindings import driver
    from numba import typeof
    from numba.cuda.core import config

    compiled = kernel.compile(tuple(typeof(a) for a in args))
    if getattr(compiled, "debug", False) or getattr(compiled, "extensions", None):
        return None
    handle = compiled._codelibrary.get_cufunc().handle   # a CUkernel: launched as a CUfunction
    stream = 2 if getattr(config, "CUDA_PER_THREAD_DEFAULT_STREAM", False) else 0
    return (driver.CUfunction(int(handle)), bool(getattr(compiled, "cooperative", False)),
            driver.CUstream(stream))


def launch(kernel, griddim: int, blockdim: int, args: tuple, types=None) -> None:
    """``kernel[griddim, blockdim](*args)`` on the default stream, in one driver call.

    Parameters
    ----------
    kernel : numba CUDA dispatcher
        Compiled (once) for the types of ``args``; cooperative kernels (those that
        sync the grid) go through ``cuLaunchCooperativeKernel``.
    griddim, blockdim : int
        One-dimensional grid and block.
    args : tuple
        The kernel's arguments, as numba takes them.
    types : tuple, optional
        Their :func:`~warpath.cuda.runtime.argument_types`, when the caller has them.

    Raises
    ------
    RuntimeError
        When the driver refuses the launch (its error code named).
    """
    key = None if SIMULATOR else (kernel, argument_types(args) if types is None else types)
    entry = _FUNCTIONS.get(key, False) if key is not None else None
    if entry is False:
        try:
            parameters(args)
            entry = _function(kernel, args)
        except _NotFlat:
            entry = None
        _FUNCTIONS[key] = entry
    if entry is None:
        kernel[griddim, blockdim](*args)
        return
    from cuda.bindings import driver

    handle, cooperative, stream = entry
    values = np.array(parameters(args), dtype=np.int64)
    pointers = values.ctypes.data + 8 * np.arange(values.size, dtype=np.int64)
    if cooperative:
        status, = driver.cuLaunchCooperativeKernel(handle, int(griddim), 1, 1, int(blockdim), 1,
                                                   1, 0, stream, pointers.ctypes.data)
    else:
        status, = driver.cuLaunchKernel(handle, int(griddim), 1, 1, int(blockdim), 1, 1, 0,
                                        stream, pointers.ctypes.data, 0)
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"kernel launch failed: {status.name}")
