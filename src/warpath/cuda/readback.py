"""Results to the host: float64 distances made on the GPU, then copied.

A GPU method leaves its distances in their compact type (int32 with the type's
maximum for "unreachable", float32, ...).  Reading ``result.distances`` wants
float64 with ``inf``.  Converting on the host costs more than the copy: numpy
replaces the sentinel with a masked store whose branch mispredicts on every
other vertex when about half the graph is reached (13 ms for 2M int32 distances
on the H100's host, against 1.9 ms to copy them as float64).  So the GPU
converts, in blocks of at most :data:`BLOCK_ENTRIES` entries, and the host only
receives float64.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> raw = cuda.to_device(np.array([[0, 7, 2**31 - 1]], np.int32))
>>> float64_to_host(raw, on_gpu=True).tolist()
[[0.0, 7.0, inf]]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..dtypes import unreached_value
from .downloads import Download, download
from .runtime import SIMULATOR, THREADS, blocks_for
from .scratch import is_out_of_memory

#: The most entries converted per block (a float64 buffer of 128 MB on the device).
BLOCK_ENTRIES = 1 << 24


@cuda.jit
def _to_float64(raw, out, unreached):
    """out[i] = raw[i] as float64, inf where raw[i] is the unreached sentinel."""
    i = cuda.grid(1)
    if i < raw.shape[0]:
        value = raw[i]
        out[i] = np.inf if value == unreached else np.float64(value)


def float64_to_host(device, out: np.ndarray | None = None, *,
                    on_gpu: bool = not SIMULATOR) -> np.ndarray:
    """Float64 host copy of device distances (1-D or 2-D), ``inf`` where unreachable.

    Parameters
    ----------
    device : numba device array
        C-contiguous integer distances (the type's maximum: unreachable) or float distances.
    out : ndarray of float64, optional
        Where to write (same shape, C-contiguous); a new array by default.
    on_gpu : bool
        Convert on the GPU (default), or copy the raw values and convert on the host
        (the default under the simulator, whose kernels run a Python thread per entry).

    Examples
    --------
    >>> row = cuda.to_device(np.array([3.5, np.inf], np.float32))
    >>> float64_to_host(row, on_gpu=True).tolist()
    [3.5, inf]
    """
    shape = device.shape
    out = np.empty(shape, dtype=np.float64) if out is None else out
    if out.shape != shape or out.dtype != np.float64 or not out.flags["C_CONTIGUOUS"]:
        raise ValueError(f"out must be a C-contiguous float64 array of shape {shape}")
    if device.size == 0:
        return out
    dtype = np.dtype(device.dtype)
    if dtype == np.float64:  # nothing to convert
        return download(device, out)
    if on_gpu:
        try:
            return _convert_on_gpu(device, out, dtype)
        except Exception as error:  # numba's CudaAPIError: no room for the buffer
            if not is_out_of_memory(error):
                raise
    from ..result import _as_float_distances

    out[...] = _as_float_distances(device.copy_to_host())
    return out


def _convert_on_gpu(device, out, dtype):
    """The GPU conversion of :func:`float64_to_host`, block by block through one buffer."""
    # a float sentinel never equals a finite value, and inf stays inf by conversion
    unreached = unreached_value(dtype) if dtype.kind in "iu" else dtype.type(np.inf)
    flat_device = device.reshape(device.size)
    flat_out = out.reshape(out.size)
    buffer = cuda.device_array(min(BLOCK_ENTRIES, device.size), dtype=np.float64)
    with Download() as copies:   # a block's host side overlaps the next block's conversion
        for start in range(0, device.size, BLOCK_ENTRIES):
            stop = min(start + BLOCK_ENTRIES, device.size)
            part = buffer[:stop - start]
            _to_float64[blocks_for(stop - start), THREADS](flat_device[start:stop], part,
                                                           unreached)
            copies.copy(part, flat_out[start:stop])
    return out
