"""Clocks: CUDA events for GPU runs, ``perf_counter`` for CPU runs; median and spread.

A GPU query is timed with two CUDA events recorded on the default stream
around the call and a synchronize on the second, so the figure covers all
the device work the call queued (the copy of the distances back to the host
is lazy in warpath and not included).  Under the CUDA simulator events carry
no time, so ``perf_counter`` is used and the record says so.

Examples
--------
>>> clock = Clock("cpu")
>>> seconds, value = clock.measure(lambda: 6 * 7)
>>> value, seconds >= 0, clock.name
(42, True, 'perf_counter')
"""

from __future__ import annotations

import os
import time

import numpy as np


def cuda_simulated() -> bool:
    """Whether numba's CUDA simulator is on (``NUMBA_ENABLE_CUDASIM=1``).

    Examples
    --------
    >>> isinstance(cuda_simulated(), bool)
    True
    """
    return os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


class Clock:
    """Times one call on ``device``: CUDA events on a real GPU, else ``perf_counter``.

    Parameters
    ----------
    device : {"cpu", "cuda"}

    Attributes
    ----------
    name : str
        ``"cuda-events"`` or ``"perf_counter"`` (what the JSON records).
    """

    def __init__(self, device: str):
        self.device = device
        self._cuda = None
        if device == "cuda" and not cuda_simulated():
            from numba import cuda

            self._cuda = cuda
        self.name = "cuda-events" if self._cuda is not None else "perf_counter"

    def measure(self, call):
        """``(seconds, result)`` of ``call()``.

        Examples
        --------
        >>> Clock("cpu").measure(lambda: "done")[1]
        'done'
        """
        if self._cuda is None:
            start = time.perf_counter()
            result = call()
            return time.perf_counter() - start, result
        cuda = self._cuda
        start, end = cuda.event(timing=True), cuda.event(timing=True)
        start.record()
        result = call()
        end.record()
        end.synchronize()
        return cuda.event_elapsed_time(start, end) / 1e3, result

    def synchronize(self):
        """Wait for queued device work (a no-op on the CPU).

        Examples
        --------
        >>> Clock("cpu").synchronize()
        """
        if self._cuda is not None:
            self._cuda.synchronize()


def gpu_memory_in_use():
    """Device memory in use now, in bytes (total - free, all processes), or ``None``.

    ``None`` on the CPU, under the simulator, or when the driver cannot say.

    Examples
    --------
    >>> gpu_memory_in_use() is None or gpu_memory_in_use() >= 0
    True
    """
    if cuda_simulated():
        return None
    try:
        from numba import cuda

        if not cuda.is_available():
            return None
        free, total = cuda.current_context().get_memory_info()
        return int(total - free)
    except Exception:  # no driver, no device: the figure is simply absent
        return None


class MemoryWatch:
    """The largest increase of device memory in use over a baseline, sampled at chosen points.

    CUDA has no peak counter that covers allocations by other libraries, so
    we sample ``total - free`` (``cuMemGetInfo``) right after every timed
    query, while its result (and any buffer the method keeps, such as the
    uploaded graph) is still alive, and report the largest increase over
    what was in use before the first query on the graph.  Temporaries a
    method frees before it returns are missed; numba frees device memory in
    deferred batches, so most of them are still counted.

    Examples
    --------
    >>> watch = MemoryWatch("cpu")
    >>> watch.sample(); watch.peak_bytes is None
    True
    """

    def __init__(self, device: str):
        self.enabled = device == "cuda"
        self.baseline = gpu_memory_in_use() if self.enabled else None
        self.peak_bytes = None

    def sample(self):
        """Take one sample (no-op when the device cannot report memory)."""
        if self.baseline is None:
            return
        used = gpu_memory_in_use()
        if used is not None:
            increase = max(0, used - self.baseline)
            self.peak_bytes = increase if self.peak_bytes is None else max(self.peak_bytes,
                                                                            increase)


def summarize(values) -> dict:
    """Median and spread of repeated measurements.

    Returns
    -------
    dict
        ``median``, ``min``, ``max``, ``q1``, ``q3``, ``mean``, ``count`` and
        ``spread`` (``(max - min) / median``, the relative range); ``None``
        values when there are no measurements.

    Examples
    --------
    >>> s = summarize([3.0, 1.0, 2.0])
    >>> s["median"], s["min"], s["max"], s["spread"]
    (2.0, 1.0, 3.0, 1.0)
    """
    data = np.asarray([v for v in values if v is not None], dtype=np.float64)
    if data.size == 0:
        return {"median": None, "min": None, "max": None, "q1": None, "q3": None,
                "mean": None, "count": 0, "spread": None}
    median = float(np.median(data))
    return {"median": median, "min": float(data.min()), "max": float(data.max()),
            "q1": float(np.percentile(data, 25)), "q3": float(np.percentile(data, 75)),
            "mean": float(data.mean()), "count": int(data.size),
            "spread": float((data.max() - data.min()) / median) if median > 0 else 0.0}
