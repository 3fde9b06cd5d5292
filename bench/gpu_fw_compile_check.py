"""Compile GPU Floyd-Warshall's kernels for an H100 (sm_90) on a machine without a GPU.

The simulator never types the kernels (a shared array whose shape is not a literal, a
register tile spilled to local memory pass every simulator test), so this script compiles
every variant (distance type, predecessors, the clamp of negative weights, DPX) to PTX
with numba's NVVM, checks that the blocked kernels keep their 4 x 4 register tiles out of
local memory, and compiles the DPX source ``warpath/apsp/dpx_min_plus.cu`` with NVRTC.
(Read with ``cuobjdump -sass``, ptxas 12.9 turns the plain kernel's ``add.s32`` and
``min.s32`` into DPX's VIADDMNMX for sm_90 by itself: 64 of them and 32 LDS per four pivots
of the phase-3 loop, unrolled.)
Set up as for ``bench/gpu_compile_check.py`` (NVVM and NVRTC wheels in a folder)::

    T=/tmp/nvtools/nvidia
    CUDA_HOME=$T/cuda_nvcc LD_LIBRARY_PATH=$T/cuda_nvrtc/lib:$T/cuda_nvcc/nvvm/lib64 \\
        PYTHONPATH=src:/tmp/nvtools python3 bench/gpu_fw_compile_check.py

With ``ptxas`` on the PATH (``$T/cuda_nvcc/bin``) it also prints the registers each
blocked phase-3 kernel uses.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import numba.cuda.dispatcher as _dispatcher
from gpu_compile_check import CC, _SM90
from numba import cuda, typeof


def nvrtc_compile(path) -> str:
    """The PTX of a CUDA C file (relocatable device code, as numba-cuda links it)."""
    from cuda.bindings import nvrtc

    with open(path, "rb") as handle:
        _, program = nvrtc.nvrtcCreateProgram(handle.read(), path.encode(), 0, [], [])
    options = [f"--gpu-architecture=compute_{CC[0]}{CC[1]}".encode(), b"-rdc=true"]
    (result,) = nvrtc.nvrtcCompileProgram(program, len(options), options)
    _, size = nvrtc.nvrtcGetProgramLogSize(program)
    log = b" " * size
    nvrtc.nvrtcGetProgramLog(program, log)
    if result != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise SystemExit(f"NVRTC failed on {path}: {log.decode(errors='replace')}")
    _, size = nvrtc.nvrtcGetPTXSize(program)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(program, ptx)
    return ptx.rstrip(b"\0 ").decode()


def registers(ptx: str) -> str:
    """ptxas's register count for ``ptx`` (sm_90), or a note without ptxas."""
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return "(no ptxas on the PATH)"
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as source:
        # numba's NVVM may write a newer PTX version than this ptxas reads; the code is the same
        source.write(re.sub(r"^\.version \d+\.\d+", ".version 8.0", ptx, flags=re.M))
        source.flush()
        done = subprocess.run([ptxas, f"-arch=sm_{CC[0]}{CC[1]}", "-v", source.name, "-o",
                               "/dev/null"], capture_output=True, text=True)
    found = re.search(r"Used (\d+) registers", done.stderr)
    return f"{found.group(1)} registers" if found else done.stderr.strip()[-200:]


def main():
    _dispatcher.get_current_device = lambda: _SM90()
    from warpath.apsp.dpx import SOURCE
    from warpath.apsp.gpu_floyd_warshall import default_tile
    from warpath.apsp.gpu_floyd_warshall_kernels import blocked_kernels, harish_kernel

    ptx = nvrtc_compile(SOURCE)
    assert "warpath_dpx_min_plus" in ptx and "warpath_dpx_min_plus_clamped" in ptx
    print("ok DPX source (NVRTC)")
    failures = 0
    for dtype in (np.int32, np.int64, np.float32, np.float64):
        dtype = np.dtype(dtype)
        tile = default_tile(dtype)
        d, p = np.zeros((tile, tile), dtype), np.zeros((tile, tile), np.int32)
        k, floor = typeof(np.int64(0)), typeof(dtype.type(0))
        for predecessors in (False, True):
            for clamp in (False, True):
                for dpx in ((False, True) if dtype == np.int32 else (False,)):
                    tag = (f"{dtype} predecessors={predecessors} clamp={clamp} dpx={dpx} "
                           f"tile={tile}")
                    dependent, independent = blocked_kernels(dtype, tile, predecessors, clamp,
                                                             dpx)
                    phase3 = cuda.compile_ptx(independent.py_func,
                                              (typeof(d), typeof(p), k, floor), cc=CC)[0]
                    phases12 = cuda.compile_ptx(dependent.py_func,
                                                (typeof(d), typeof(p), k, k, floor), cc=CC)[0]
                    cuda.compile_ptx(harish_kernel(dtype, predecessors, clamp, dpx).py_func,
                                     (typeof(d), typeof(p), k, floor), cc=CC)
                    spills = len(re.findall(r"\b(?:ld|st)\.local", phase3 + phases12))
                    if dpx:   # the foreign ABI returns through a local slot until LTO inlines
                        print(f"ok {tag}: {spills} local loads/stores of the DPX calls' result "
                              f"slots (gone once nvJitLink inlines them)", flush=True)
                        continue
                    failures += spills > 0
                    state = "ok" if not spills else f"FAIL {spills} local loads/stores"
                    print(f"{state} {tag}: phase 3 {registers(phase3)}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
