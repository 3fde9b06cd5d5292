"""Launching a compiled kernel in one driver call, without numba's per-launch typing.

``kernel[grid, block](*args)`` types every argument (the engine's persistent
kernel takes nested tuples of 13-17 device arrays), turns each array into a
memory view, flattens them into 100-130 kernel parameters and hands those to
cuda.core one Python int at a time: 0.33-0.45 ms of host time per launch on
the H100 host, as long as the kernel of a small-world BFS (docs/performance.md).

:func:`launch` keeps, per kernel and argument types
(:func:`~warpath.cuda.runtime.argument_types`), the compiled function
(:func:`kernel_function`); a launch makes the types and the parameters in one pass over the arguments
(:func:`flatten`; a device array's share is computed once and kept on the
array, a scalar's bits come from a table by type), writes the parameters
into this thread's int64 slots (:func:`_parameter_slots`), in numba's order and
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

import math
import struct
import threading

import numpy as np

from .runtime import SIMULATOR, argument_types, default_stream

#: The compiled function per (kernel, argument types): ``(handle, cooperative, stream)``,
#: or ``None`` where numba's own launch is used.
_FUNCTIONS: dict = {}


class _NotFlat(TypeError):
    """An argument :func:`parameters` does not flatten (numba launches that kernel)."""


def _signed(value) -> int:
    bits = int(value) & 0xFFFF_FFFF_FFFF_FFFF
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def _float32_bits(value) -> int:
    return struct.unpack("<i", struct.pack("<f", value))[0]


def _float64_bits(value) -> int:
    return struct.unpack("<q", struct.pack("<d", value))[0]


#: A scalar's bits as a signed 64-bit int (4-byte types in the low bytes), by type: one
#: dictionary lookup per scalar, as a launch flattens dozens of them.  Numpy's integers
#: but uint64 are their own bits already (``int``, the cheapest call; the fill jobs alone
#: hand over ~40 of them a query).
_SCALAR_BITS = {bool: int, np.bool_: int, float: _float64_bits, np.float64: _float64_bits,
                np.float32: _float32_bits, int: _signed, np.uint64: _signed,
                **{kind: int for kind in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                          np.uint16, np.uint32)}}


def _scalar_bits(value) -> int:
    """A scalar argument's bits as a signed 64-bit int (4-byte types in the low bytes)."""
    bits = _SCALAR_BITS.get(type(value))
    if bits is None:
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            return _signed(value)   # subclasses of int, other numpy integer types
        raise _NotFlat(type(value).__name__)
    return bits(value)


def parameters(args, out=None) -> list:
    """The kernel parameters of ``args`` (appended to ``out``) in numba's order, one int
    per 8-byte slot; raises ``_NotFlat`` for an argument it does not flatten.

    Device arrays (anything with ``device_ctypes_pointer``) give ``0, 0, size,
    itemsize, data pointer``, then their shape and byte strides; tuples are
    flattened in order; ints, floats and booleans give their bits.

    Examples
    --------
    >>> class Device:   # what the flattening reads of a device array
    ...     size, ndim, shape, strides, dtype = 6, 2, (2, 3), (24, 8), np.dtype(np.int64)
    ...     flags = {"C_CONTIGUOUS": True, "F_CONTIGUOUS": False}
    ...     class device_ctypes_pointer:
    ...         value = 4096
    >>> parameters((Device(), (np.int32(-1), 2.0, True)))
    [0, 0, 6, 8, 4096, 2, 3, 24, 8, -1, 4611686018427387904, 1]
    """
    out = [] if out is None else out
    _flatten(args, [], out)
    return out


def flatten(args) -> tuple:
    """``(argument_types(args), parameters(args))`` in one pass over ``args``, a device
    array's share of both computed once and kept on the array (its memory, shape and
    strides never change); raises ``_NotFlat`` as :func:`parameters` does.

    Examples
    --------
    >>> args = ((np.int64(5), 1.5), True)
    >>> flatten(args)[0] == argument_types(args), flatten(args)[1]
    (True, [5, 4609434218613702656, 1])
    """
    types, values = [], []
    _flatten(args, types, values)
    return tuple(types), values


def _flatten(args, types: list, values: list) -> None:
    for a in args:
        kind = type(a)
        bits = _SCALAR_BITS.get(kind)
        if bits is not None:
            values.append(bits(a))
            types.append(_scalar_type(a) if kind is int else kind)
        elif isinstance(a, tuple):
            inner = []
            _flatten(a, inner, values)
            types.append((kind, tuple(inner)))   # a namedtuple class is part of the type
        else:
            share = getattr(a, "_warpath_launch_share", None)
            if share is None:
                if not hasattr(a, "device_ctypes_pointer"):
                    types.append(_scalar_type(a))
                    values.append(_scalar_bits(a))
                    continue
                share = _array_share(a)
            types.append(share[0])
            values += share[1]


class ParameterBlock:
    """A kernel's parameters kept from one launch to the next, rewritten where the
    arguments changed: what :func:`flatten` gives, for a caller launching one kernel
    again and again with arguments that are mostly the same objects (a warm query's
    graph, queues, counters and standing fills; only its rows, its source and a few
    fill jobs are new).

    The last arguments are held (so that identity, not an id that a new object may
    reuse, tells what changed), each top-level argument and each item of a top-level
    plain tuple (a method's state, the fill jobs) with its place among the
    parameters.  :meth:`update` flattens again only the items that are not the same
    objects as last time, writes their parameters in place and keeps the types: the
    same tuple object while every rewritten item keeps its type (anything else, or
    another shape of arguments, flattens everything again).  The parameters are an
    int64 array, which :func:`launch` copies into its slots at once.

    Examples
    --------
    >>> block = ParameterBlock()
    >>> shared = (np.int64(1), np.float32(2.0))
    >>> types, values = block.update((shared, (np.int32(3), shared), 4))
    >>> values.tolist()
    [1, 1073741824, 3, 1, 1073741824, 4]
    >>> again, values = block.update((shared, (np.int32(-3), shared), 5))
    >>> again is types, values.tolist()   # two items rewritten, their types unchanged
    (True, [1, 1073741824, -3, 1, 1073741824, 5])
    >>> block.update((shared, (np.int64(3), shared), 5))[0] == types   # another type
    False
    """

    def __init__(self):
        self._args = None
        self.types = self.values = None
        self._places = ()   # per argument: (at, count, type, places of a plain tuple's items)

    def update(self, args: tuple) -> tuple:
        """``(types, parameters)`` of ``args`` (see the class notes); raises ``_NotFlat``
        as :func:`flatten` does (the block is then left empty)."""
        last, self._args = self._args, None   # until the rewrite is whole: an exception
        if last is not None and len(args) == len(last) and self._rewrite(args, last):
            self._args = args                  # mid-way must not leave a half-new block
            return self.types, self.values
        try:
            return self._rebuild(args)
        except _NotFlat:
            self._args = None
            raise

    def _rebuild(self, args: tuple) -> tuple:
        types, values, places = [], [], []
        for argument in args:
            at = len(values)
            inner = None
            if type(argument) is tuple:
                kinds, inner = [], []
                for item in argument:
                    start = len(values)
                    _flatten((item,), kinds, values)
                    inner.append((start, len(values) - start, kinds[-1]))
                types.append((tuple, tuple(kinds)))
            else:
                _flatten((argument,), types, values)
            places.append((at, len(values) - at, types[-1], inner))
        self.types, self.values = tuple(types), np.array(values, dtype=np.int64)
        self._places, self._args = places, args
        return self.types, self.values

    def _rewrite(self, args: tuple, last: tuple) -> bool:
        """Rewrite the parameters of what changed since ``last``; ``False`` when a type
        or the shape of the arguments changed (nothing is then kept)."""
        for argument, was, (at, count, kind, inner) in zip(args, last, self._places):
            if argument is was or _same_scalar(argument, was):
                continue
            if inner is None or type(argument) is not tuple or len(argument) != len(inner):
                if not self._write(argument, at, count, kind):
                    return False
                continue
            for item, item_was, (start, size, item_kind) in zip(argument, was, inner):
                if item is item_was or _same_scalar(item, item_was):
                    continue
                if not self._write(item, start, size, item_kind):
                    return False
        return True

    def _write(self, item, at: int, count: int, kind) -> bool:
        types, found = [], []
        try:
            _flatten((item,), types, found)
        except _NotFlat:
            return False
        if len(found) != count or types[0] != kind:
            return False
        if count == 1:
            self.values[at] = found[0]
        else:
            self.values[at:at + count] = found
        return True


def _same_scalar(item, was) -> bool:
    """Whether ``item`` is a scalar of the same type and bits as ``was`` (a new object made
    for each run, e.g. ``np.int64(m)``): the same parameters, nothing to rewrite.  Equal
    floats of opposite signs (0.0 and -0.0) are not the same bits.

    Examples
    --------
    >>> _same_scalar(np.int64(3), np.int64(3)), _same_scalar(np.int64(3), np.int32(3))
    (True, False)
    >>> _same_scalar(np.float64(-0.0), np.float64(0.0)), _same_scalar(0.0, 0.0)
    (False, True)
    """
    kind = type(item)
    if kind is not type(was) or kind not in _SCALAR_BITS or item != was:
        return False
    if item != 0 or kind not in _FLOATS:
        return True
    return math.copysign(1.0, item) == math.copysign(1.0, was)


_FLOATS = (float, np.float32, np.float64)


def _scalar_type(value):
    """:func:`~warpath.cuda.runtime.argument_types`' key of a scalar outside the table."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (int, value > _INT64_MAX)
    return type(value)


_INT64_MAX = np.iinfo(np.int64).max


def _array_share(array) -> tuple:
    """A device array's type key (as :func:`~warpath.cuda.runtime.argument_types` gives it)
    and its parameter slots, made once and kept on the array where it takes attributes
    (:func:`_flatten` looks there first)."""
    flags = array.flags
    key = (array.dtype, array.ndim, (bool(flags["C_CONTIGUOUS"]),
                                     bool(flags["F_CONTIGUOUS"]), True))
    share = (key, (0, 0, array.size, array.dtype.itemsize,
                   array.device_ctypes_pointer.value or 0) + tuple(array.shape)
             + tuple(array.strides))
    try:
        array._warpath_launch_share = share
    except AttributeError:   # an object without attributes of its own: made each time
        pass
    return share


def vector_share(dtype, length: int, address: int) -> tuple:
    """What :func:`_array_share` gives for a C-contiguous one-dimensional device array of
    ``length`` items of ``dtype`` at device ``address``, without reading the array (its
    maker attaches it as ``_warpath_launch_share``: numba's ``flags`` cost microseconds).

    Examples
    --------
    >>> key, values = vector_share(np.dtype(np.int32), 5, 4096)
    >>> key[1:], values
    ((1, (True, True, True)), (0, 0, 5, 4, 4096, 5, 4))
    """
    item = dtype.itemsize
    return (dtype, 1, (True, True, True)), (0, 0, length, item, address, length, item)


def _function(kernel, args):
    """``(handle, cooperative, stream)`` of ``kernel`` compiled for ``args``, or ``None``
    when numba's own launch must run it (a debug build, argument extensions).  The stream
    is numba's default: the legacy one (0), or the per-thread one (2) when numba is
    configured so."""
    from cuda.bindings import driver
    from numba import typeof

    compiled = kernel.compile(tuple(typeof(a) for a in args))
    if getattr(compiled, "debug", False) or getattr(compiled, "extensions", None):
        return None
    handle = compiled._codelibrary.get_cufunc().handle   # a CUkernel: launched as a CUfunction
    return (driver.CUfunction(int(handle)), bool(getattr(compiled, "cooperative", False)),
            default_stream())


def prepare(args) -> tuple:
    """``(types, parameters)`` of ``args`` for :func:`launch`, parameters ``None`` where
    numba must launch (an argument :func:`flatten` does not take).

    Examples
    --------
    >>> prepare((np.zeros(2),))[1] is None   # a host array: numba's launch copies it
    True
    """
    try:
        return flatten(args)
    except _NotFlat:
        return argument_types(args), None


def kernel_function(kernel, prepared, args):
    """``(handle, cooperative, stream)`` of ``kernel`` compiled for ``args`` (``prepared``:
    their :func:`prepare`), kept per kernel and argument types; ``None`` where numba must
    launch it.  A caller launching again with arguments of equal types may keep it and
    hand it to :func:`launch`, which then skips hashing the types.

    Examples
    --------
    >>> kernel_function(None, prepare((np.zeros(2),)), (np.zeros(2),)) is None
    True
    """
    types, values = prepared
    key = (kernel, types)
    entry = _FUNCTIONS.get(key, False)
    if entry is False:
        entry = _FUNCTIONS[key] = None if values is None else _function(kernel, args)
    return entry


def launch(kernel, griddim: int, blockdim: int, args: tuple, prepared=None,
           function=None) -> None:
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
    prepared : tuple, optional
        Their :func:`prepare`, when the caller has it.
    function : tuple, optional
        Their :func:`kernel_function`, when the caller has it.

    Raises
    ------
    RuntimeError
        When the driver refuses the launch (its error code named).
    """
    if SIMULATOR:
        kernel[griddim, blockdim](*args)
        return
    prepared = prepare(args) if prepared is None else prepared
    entry = function or kernel_function(kernel, prepared, args)
    if entry is None:
        kernel[griddim, blockdim](*args)
        return
    from cuda.bindings import driver

    handle, cooperative, stream = entry
    values = prepared[1]
    slots, pointers, _ = _parameter_slots(len(values))
    slots[:] = values   # the driver copies them during the call: the slots are free after it
    if cooperative:
        status, = driver.cuLaunchCooperativeKernel(handle, int(griddim), 1, 1, int(blockdim), 1,
                                                   1, 0, stream, pointers)
    else:
        status, = driver.cuLaunchKernel(handle, int(griddim), 1, 1, int(blockdim), 1, 1, 0,
                                        stream, pointers, 0)
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"kernel launch failed: {status.name}")


_slots = threading.local()


def _parameter_slots(count: int) -> tuple:
    """``(slots, pointers, addresses)``: this thread's ``count`` int64 parameter slots,
    the address of the array of their addresses (what the driver takes) and that array,
    made once per thread and count (numpy's ``.ctypes`` and an allocation cost
    microseconds at every launch; threads may launch at once).

    Examples
    --------
    >>> import ctypes
    >>> slots, pointers, _ = _parameter_slots(3)
    >>> addresses = np.frombuffer((ctypes.c_int64 * 3).from_address(pointers), np.int64)
    >>> (addresses - slots.ctypes.data).tolist(), _parameter_slots(3)[0] is slots
    ([0, 8, 16], True)
    """
    kept = _slots.__dict__.setdefault("by_count", {})
    found = kept.get(count)
    if found is None:
        slots = np.zeros(count, dtype=np.int64)
        addresses = slots.ctypes.data + 8 * np.arange(count, dtype=np.int64)
        found = kept[count] = (slots, addresses.ctypes.data, addresses)
    return found
