"""Compile hbf's kernels and the predecessor recording pass to PTX for an H100 (sm_90), no GPU.

The CUDA simulator never types a kernel, so code numba's GPU compiler refuses passes
every simulator test.  This script compiles hbf's persistent kernel (and the paper
loop's kernel of its round) for the option sets that change the code: near-far off and
on, the read before the atomic on and off, the dense sweep, dedup and classification
off, the sweep's 32-bit positions, packed 32-bit distances (int32, float32) and 64-bit
ones; then its final passes
and the predecessor passes: the offers over every arc, their check by pointer jumping,
and the balanced search over tight arcs.  Set-up as for ``bench/gpu_compile_check.py``::

    CUDA_HOME=$T/cuda_nvcc LD_LIBRARY_PATH=$T/cuda_nvrtc/lib:$T/cuda_nvcc/nvvm/lib64 \\
        PYTHONPATH=src:bench:/tmp/nvtools python3 bench/gpu_sssp_compile_check.py
"""

from __future__ import annotations

import sys

import numpy as np
import numba.cuda.dispatcher as _dispatcher

from gpu_compile_check import N, _SM90, compile_steps

#: (dedup, classify, near_far, dense, read_first) sets that change hbf's round.
HBF_OPTIONS = ((True, True, False, 0.0, True), (True, True, False, 0.02, True),
               (True, True, True, 0.0, False), (True, True, True, 0.0, True),
               (False, False, False, 0.0, True), (False, False, True, 0.0, True))


def hbf_state(dtype, index, near_far):
    """hbf's state tuple (see ``warpath.sssp.hbf._steps``)."""
    packed = np.dtype(dtype).itemsize == 4
    far_n = N if near_far else 1
    inf = np.dtype(dtype).type(0)
    return (np.zeros(N, dtype), np.zeros(N, np.int64 if packed else np.int32),
            np.zeros(30, np.uint8), inf, inf, index(0), np.zeros((3, 2), np.int64),
            np.zeros((2, far_n), index), np.zeros(3, np.int64), np.zeros(far_n, np.int64),
            np.float64(1), np.zeros(3, np.int64), np.zeros(3, np.int64))


def main():
    _dispatcher.get_current_device = lambda: _SM90()
    from warpath.cuda import predecessors
    from warpath.cuda.mappings import frontier, thread_per_edge
    from warpath.cuda.operators import QUEUE, advance, filter_vertices
    from warpath.sssp import hbf

    for index in (np.int32, np.int64):
        for dtype in (np.int32, np.float32, np.int64, np.float64):
            packed = np.dtype(dtype).itemsize == 4
            tag = f"{np.dtype(dtype).name} distances, {np.dtype(index).name} indices"
            for dedup, classify, near_far, dense, read_first in HBF_OPTIONS:
                if dense and not packed:
                    continue
                heavy = 64
                # the dense sweep's bench-only forms (hbf.SWEEP_EARLY, SWEEP_HEAVY) too
                forms = ((False, True), (True, True), (True, False)) if dense else \
                    ((False, True),)
                for narrow in (False, True) if dense else (False,):
                    for early, split in forms:
                        steps, sinks, unpacking = hbf._steps(
                            np.dtype(dtype).name if packed else None, dedup, classify,
                            classify, True, (4, 32), heavy, near_far, True,
                            np.dtype(dtype).name, dense, read_first, narrow, early, split)
                        state = hbf_state(dtype, index, near_far)
                        compile_steps(f"hbf dedup={dedup} classify={classify} "
                                      f"near_far={near_far} dense={dense} "
                                      f"read_first={read_first} narrow={narrow} "
                                      f"sweep early={early} heavy split={split}, {tag}",
                                      list(steps), state, True, index, dtype, one_row=True)
                final = [sinks, unpacking] if packed else [sinks]   # unpacking: packed only
                compile_steps(f"hbf final passes, {tag}", final, state, False, index, dtype,
                              one_row=True)
            pred = np.zeros(N, index)
            record = advance(thread_per_edge(), predecessors._gather_reached,
                             predecessors._offer_tight_arc)
            state = (np.zeros(N, dtype), pred, np.dtype(dtype).type(0), index(0), index(-1))
            compile_steps(f"recording pass, {tag}", [record], state, False, index, dtype,
                          one_row=True)
            heavy = predecessors.HEAVY_DEGREE
            search = advance(frontier(predecessors.SEARCH_LANES, heavy_degree=heavy),
                             predecessors._gather_reached, predecessors._claim_tight_arc,
                             QUEUE, heavy)
            compile_steps(f"search over tight arcs, {tag}", [search], state, True, index,
                          dtype, one_row=True)
        compile_steps(f"offers' check, {np.dtype(index).name} indices",
                      [filter_vertices(predecessors._jump)], (pred, pred, index(0)), False,
                      index, one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
