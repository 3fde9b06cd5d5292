"""Which device runs a query: the ``device="auto"|"cpu"|"cuda"`` rule.

``"auto"`` picks the GPU when numba-cuda is installed and a real CUDA device
is usable, else the CPU.  ``"cuda"`` without a usable GPU raises
:class:`~warpath.DeviceError` saying why.  numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``, used by the tests) counts as usable for an
explicit ``device="cuda"`` but is never picked by ``"auto"``: it is far slower
than the CPU path.

Examples
--------
>>> resolve_device("cpu", "sssp", "auto")
'cpu'
"""

from __future__ import annotations

import functools
import os
import sys

from . import methods
from .errors import ArgumentError, DeviceError, MethodNotAvailable


#: Where a Linux machine with an NVIDIA driver shows it (WSL 2: /dev/dxg).
DRIVER_PATHS = ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg")


def _no_driver_reason() -> str | None:
    """Why there cannot be a GPU, found without importing numba-cuda (which takes a third
    of a second, a third of a small command's run), or ``None`` when there may be one."""
    if simulated() or not sys.platform.startswith("linux"):
        return None
    if any(os.path.exists(path) for path in DRIVER_PATHS):
        return None
    return "no NVIDIA driver was found (none of " + ", ".join(DRIVER_PATHS) + " exists)"


@functools.lru_cache(maxsize=1)
def gpu_status() -> tuple[bool, str]:
    """``(usable, reason)``: whether a CUDA GPU (or the simulator) can run warpath's kernels."""
    reason = _no_driver_reason()
    if reason is not None:
        return False, reason
    try:
        from numba import cuda
    except ImportError:
        return False, "numba-cuda is not installed (pip install warpath[cuda])"
    try:
        if cuda.is_available():
            if simulated():
                return True, "CUDA simulator"
            name = cuda.get_current_device().name
            return True, name.decode() if isinstance(name, bytes) else str(name)
    except Exception as exc:  # the driver can fail in many ways; report, don't crash
        return False, f"CUDA is not usable: {exc}"
    return False, "no CUDA GPU was found"


def simulated() -> bool:
    """Whether numba-cuda runs in its CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def gpu_available() -> bool:
    """Whether ``device="cuda"`` can run here.

    Examples
    --------
    >>> isinstance(gpu_available(), bool)
    True
    """
    return gpu_status()[0]


def _real_gpu() -> bool:
    return gpu_available() and not simulated()


def resolve_device(device: str, problem: str, method: str) -> str:
    """Turn the user's ``device`` and ``method`` into the device that will run.

    Raises
    ------
    ValueError
        For an unknown device name.
    DeviceError
        For ``"cuda"`` (explicit, or implied by a GPU-only method) without a usable GPU.
    MethodNotAvailable
        For a method name that exists on no device.
    """
    if device not in ("auto", "cpu", "cuda"):
        raise ArgumentError(f"device must be 'auto', 'cpu' or 'cuda', not {device!r}")
    if device == "auto":
        if method != "auto":
            on = methods.devices_of(problem, method)
            if not on:
                raise MethodNotAvailable(
                    f"there is no {problem} method {method!r}; available: {methods.describe(problem)}")
            if on == ["cuda"]:
                device = "cuda"
            elif on == ["cpu"]:
                return "cpu"
            else:
                return "cuda" if _real_gpu() else "cpu"
        else:
            has_gpu_methods = bool(methods.available(problem, "cuda"))
            return "cuda" if has_gpu_methods and _real_gpu() else "cpu"
    if device == "cuda":
        usable, reason = gpu_status()
        if not usable:
            raise DeviceError(f"device='cuda' is not usable here: {reason}")
    return device
