"""Hopper's DPX instructions for the min-plus step: when to use them, and their declarations.

``__viaddmin_s32(a, b, c)`` computes ``min(a + b, c)`` on 32-bit integers in one
instruction on compute capability 9.0 (H100) and later; numba has no such
intrinsic, so the two device functions of ``dpx_min_plus.cu`` wrap it and numba-cuda
links them into the kernels (``cuda.declare_device(..., link=...)``).  They pay
off only when inlined, which needs numba-cuda's link-time optimisation
(nvJitLink); without it each step would be a real function call.

Measured on the H100 (``bench/gpu_floyd_warshall.py``, n = 16,384 int32, 2026-11-23):
the blocked kernel took 0.84 s with the plain ``min(c, a + b)`` and 1.10 s with the
linked DPX functions, because ptxas already turns the plain add and min into Hopper's
fused VIADDMNMX instruction.  So ``dpx="auto"`` takes the plain form everywhere;
``dpx=True`` (int32 distances on compute capability 9.0 or later with link-time
optimisation) keeps the explicit DPX path for comparison.

Examples
--------
>>> import numpy as np
>>> use_dpx("auto", np.dtype(np.float32))
False
>>> use_dpx(False, np.dtype(np.int32))
False
"""

from __future__ import annotations

import functools
import os

from ..errors import OptionError

#: The CUDA C source of the DPX device functions (shipped beside this module).
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dpx_min_plus.cu")
#: The first compute capability with DPX in hardware.
DPX_CAPABILITY = (9, 0)


@functools.lru_cache(maxsize=1)
def dpx_status() -> tuple[bool, str]:
    """``(usable, reason)``: whether this machine runs the DPX min-plus step in hardware.

    Examples
    --------
    >>> usable, reason = dpx_status()
    >>> isinstance(usable, bool) and bool(reason)
    True
    """
    from ..device import gpu_status, simulated

    if simulated():
        return False, "the CUDA simulator has no DPX instructions"
    usable, reason = gpu_status()
    if not usable:
        return False, reason
    from numba import cuda

    capability = tuple(cuda.get_current_device().compute_capability)
    if capability < DPX_CAPABILITY:
        return False, f"compute capability {capability[0]}.{capability[1]} < 9.0 (DPX is emulated)"
    from numba.cuda.decorators import _have_nvjitlink

    if not _have_nvjitlink():
        return False, "no nvJitLink (link-time optimisation) to inline the DPX functions"
    return True, f"compute capability {capability[0]}.{capability[1]} with link-time optimisation"


def use_dpx(option, dtype) -> bool:
    """Resolve the ``dpx=`` option (``"auto"``, ``True``, ``False``) for distances of ``dtype``.

    Raises
    ------
    OptionError
        For another value, or ``dpx=True`` where it cannot run (the message says why).
    """
    if option == "auto":
        return False   # the compiler's own fused min-plus was faster (module notes)
    if option is False:
        return False
    if option is not True:
        raise OptionError(f"dpx must be 'auto', True or False, not {option!r}")
    if dtype != "int32":
        raise OptionError(f"dpx=True needs int32 distances, not {dtype} (integer weights whose "
                          f"paths fit in 2**29)")
    usable, reason = dpx_status()
    if not usable:
        raise OptionError(f"dpx=True cannot run here: {reason}")
    return True


@functools.lru_cache(maxsize=1)
def dpx_functions():
    """``(min_plus, min_plus_clamped)``: the DPX device functions, declared for numba."""
    from numba import cuda

    min_plus = cuda.declare_device("warpath_dpx_min_plus", "int32(int32, int32, int32)",
                                   link=[SOURCE])
    min_plus_clamped = cuda.declare_device("warpath_dpx_min_plus_clamped",
                                           "int32(int32, int32, int32, int32)", link=[SOURCE])
    return min_plus, min_plus_clamped
