"""Compile every GPU BFS kernel to PTX for an H100 (sm_90) on a machine without a GPU.

The CUDA simulator runs kernels as Python and never types them, so a kernel
that numba's GPU compiler refuses (a device function returning an array it
was not handed, a tuple indexed by a variable, a mixed-signedness integer
expression) passes every simulator test.  This script compiles the
persistent kernel and the paper loop's per-step kernels of ``harish``,
``queue``, ``direction-optimizing`` and ``multi-source`` for every option that
changes the code (parents recorded or not, heavy queue on or off, int32 and
int64 indices), with numba's NVVM, no driver and no GPU.

It needs NVVM and NVRTC, e.g. the ``nvidia-cuda-nvcc-cu12`` and
``nvidia-cuda-nvrtc-cu12`` wheels in a folder of their own::

    pip install --target /tmp/nvtools nvidia-cuda-nvcc-cu12 nvidia-cuda-nvrtc-cu12
    T=/tmp/nvtools/nvidia
    CUDA_HOME=$T/cuda_nvcc LD_LIBRARY_PATH=$T/cuda_nvrtc/lib:$T/cuda_nvcc/nvvm/lib64 \\
        PYTHONPATH=src:/tmp/nvtools python3 bench/gpu_compile_check.py

Without a driver numba cannot ask the device for its compute capability, so
the script tells numba's dispatcher that the device is an sm_90 one.
"""

from __future__ import annotations

import sys

import numpy as np
import numba.cuda.dispatcher as _dispatcher
from numba import cuda, typeof

CC = (9, 0)
N = 10


class _SM90:
    compute_capability = CC


def _kernel_args(state, index, weights=np.int32):
    """The arguments of the enactor's kernels, as host arrays of the device arrays' types
    (``weights``: the arcs' weight type)."""
    graph = (np.zeros(N + 1, index), np.zeros(30, index), np.zeros(30, weights),
             np.zeros(1, index))
    frontier = (np.zeros((2, N), index), np.zeros(3, np.int64), np.zeros((2, N), index),
                np.zeros(3, np.int64))
    return (graph, frontier, state, np.zeros(4, np.int32), np.zeros(2, np.int64),
            np.zeros(0, np.int64), np.int64(1), np.int64(5))


def compile_steps(name, steps, state, heavy, index, weights=np.int32, one_row=False):
    """PTX of the persistent kernel and of each step's paper-loop kernel (``one_row``: as
    a one-row problem's kernels are compiled)."""
    from warpath.cuda.enactor import persistent_kernel, round_kernel

    signature = tuple(typeof(a) for a in _kernel_args(state, index, weights))
    kernels = [persistent_kernel(tuple(s.device for s in steps), heavy, one_row)]
    kernels += [round_kernel(s.device, i == 0, heavy, one_row) for i, s in enumerate(steps)]
    for kernel in kernels:
        cuda.compile_ptx(kernel.py_func, signature, cc=CC)
    print("ok", name, flush=True)


def main():
    _dispatcher.get_current_device = lambda: _SM90()
    from warpath.bfs import gpu_direction_optimizing, gpu_harish, gpu_multi_source, gpu_queue
    from warpath.bfs.gpu_levels import LANES
    from warpath.cuda.fills import _fill_kernel, fill_job
    from warpath.cuda.problem import _init_rows

    for index in (np.int32, np.int64):
        levels = np.zeros(N, index)
        head = (levels, np.zeros(N, index), index(-1))
        flags = np.zeros(N, np.uint8)
        for record in (True, False):
            tag = f"{index.__name__} parents={record}"
            compile_steps(f"harish paper {tag}", gpu_harish._steps("paper", record),
                          head + (flags, flags, flags), False, index)
            compile_steps(f"harish fast {tag}", gpu_harish._steps("fast", record),
                          head + (levels[:1], flags, flags), False, index)
            for heavy in (0, 8):
                tag_heavy = f"{tag} high_degree={heavy}"
                compile_steps(f"queue {tag_heavy}", [gpu_queue.claim_step(record, LANES, heavy)],
                              head, heavy > 0, index)
                state = head + (np.zeros(N + 1, index), np.zeros(30, index),
                                np.zeros(N, np.int32), np.zeros((3, 2), np.int64),
                                np.zeros((3, 2), np.int64), np.int64(30), np.float64(14),
                                np.float64(24), np.zeros(3, np.int64),
                                np.zeros((2, N), np.int32), np.zeros(4, np.int64))
                for symmetric in (False, True):
                    compile_steps(f"direction-optimizing {tag_heavy} symmetric={symmetric}",
                                  gpu_direction_optimizing._steps(record, heavy, False,
                                                                  symmetric),
                                  state, heavy > 0, index)
                words = np.zeros(N, np.uint64)
                matrix = np.zeros((4, N), index)
                state = (words, words, words, matrix,
                         matrix if record else np.zeros((1, 1), index),
                         np.zeros(N + 1, index), np.zeros(30, index), np.zeros(N + 1, index),
                         np.zeros(N, index),
                         np.zeros((3, 2), np.int64), np.zeros(64, index), words[:3],
                         np.uint64(7), np.float64(4), np.int64(30), np.zeros(3, np.int64),
                         np.zeros(-(-N // 32), np.uint32))
                compile_steps(f"multi-source {tag_heavy}",
                              gpu_multi_source._steps(record, heavy), state, heavy > 0, index)
        jobs = tuple(fill_job(np.zeros(N, dtype), N, 0) for dtype in (index, np.uint8))
        cuda.compile_ptx(_fill_kernel(len(jobs)).py_func, (typeof(jobs),), cc=CC)
        cuda.compile_ptx(_init_rows.py_func, (typeof(np.zeros((2, N), index)),
                                              typeof(np.zeros(2, np.int64)), typeof(index(0)),
                                              typeof(np.zeros(4, np.int32)),
                                              typeof(np.zeros(3, np.int64))), cc=CC)
    print("ok fills")
    return 0


if __name__ == "__main__":
    sys.exit(main())
