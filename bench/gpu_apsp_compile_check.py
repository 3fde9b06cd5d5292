"""Compile every kernel of the GPU many-source methods to PTX for an H100 (sm_90), no GPU needed.

The CUDA simulator never types a kernel, so code numba's GPU compiler refuses
passes every simulator test; this script compiles, with numba's NVVM only, the
persistent kernel and the paper loop's kernel of the task-parallel round (plain and
near-far), both
path-recording steps, the start / delivery kernels and Johnson's reweighting,
for int32, int64, float32 and float64 distances and int32 / int64 indices.
Set-up as for ``bench/gpu_compile_check.py`` (NVVM and NVRTC wheels)::

    CUDA_HOME=$T/cuda_nvcc LD_LIBRARY_PATH=$T/cuda_nvrtc/lib:$T/cuda_nvcc/nvvm/lib64 \\
        PYTHONPATH=src:bench:/tmp/nvtools python3 bench/gpu_apsp_compile_check.py
"""

from __future__ import annotations

import sys

import numpy as np
import numba.cuda.dispatcher as _dispatcher
from numba import cuda, typeof

from gpu_compile_check import CC, N, _SM90, compile_steps


def _compile(kernel, args):
    cuda.compile_ptx(kernel.py_func, tuple(typeof(a) for a in args), cc=CC)


def compile_frontier_form(task_parallel, d, words, rows, inf, dtype, index, tag):
    """The frontier form's rounds (items of 8 and 32 rows, 32 spread too; near-far off
    and on) and the whole items' round."""
    from warpath.apsp import gpu_rows, whole_items

    items = np.int64(N * 4)
    for item_rows, spread in ((8, False), (32, False), (32, True)):
        for near_far in (False, True):
            state = (d, words, rows, items, inf, inf, np.int64(1))
            if near_far:
                state += (np.zeros(2, dtype), np.zeros(2, np.uint8), dtype(1),
                          np.zeros(2, dtype), np.zeros(N * 4, np.uint32))
            compile_steps(f"task-parallel frontier form, {item_rows} rows an item, spread="
                          f"{spread}, near_far={near_far}, {tag}",
                          task_parallel._frontier_steps(near_far, item_rows, spread),
                          state, False, index)
    marks = np.zeros(2 * N * 4, np.uint8)
    lows = np.zeros(2 * N * 4, d.dtype)
    claims = np.zeros(3, np.uint32)
    for narrow, shuffled, paired, claimed in (
            (False, False, False, False), (False, True, False, True),
            (False, True, True, True), (True, False, False, False), (True, True, False, False),
            (True, True, True, False), (True, True, True, True)):
        for near_far in (False, True):
            state = (d, marks, rows, items, inf, inf, np.int64(1))
            if near_far:
                state += (lows, np.zeros(2, d.dtype), np.zeros(2, np.uint8), inf,
                          np.zeros(2, d.dtype))
            compile_steps(f"task-parallel whole items, narrow={narrow}, near_far={near_far}, "
                          f"shuffled={shuffled}, paired={paired}, claimed={claimed}, {tag}",
                          whole_items.whole_item_steps(narrow, near_far, shuffled, paired,
                                                       claimed),
                          state + (claims,),
                          False, index)
    sources = np.zeros(4, np.int64)
    _compile(gpu_rows._kernels()[3], (d, marks, sources, inf))   # whole items' start
    _compile(whole_items._mark_kernel(), (marks, d, lows, sources, np.int64(1), claims))


def main():
    _dispatcher.get_current_device = lambda: _SM90()
    from warpath.apsp import gpu_johnson, gpu_predecessors, gpu_rows, task_parallel

    rows = np.int64(4)
    for index in (np.int32, np.int64):
        sources = np.zeros(4, np.int64)
        for dtype in (np.int32, np.int64, np.float32, np.float64):
            d = np.zeros(N * 4, dtype)
            masks = np.zeros(2 * N * 4, np.uint8)
            tasks = np.int64(N * 4)
            pred = np.zeros(N * 4, index)
            inf = dtype(0)
            tag = f"{np.dtype(dtype).name} distances, {np.dtype(index).name} indices"
            compile_steps(f"task-parallel round, {tag}", [task_parallel._round_step()],
                          (d, masks, rows, tasks, inf, inf), False, index)
            compile_steps(f"task-parallel near-far round, {tag}",
                          task_parallel._near_far_steps(),
                          (d, masks, rows, tasks, inf, inf, np.zeros(4, dtype),
                           np.zeros(8, np.uint8), dtype(1), np.zeros(4, dtype)), False, index)
            pull, tree = gpu_predecessors._steps()
            compile_steps(f"recording pass, {tag}", [pull], (d, pred, inf, rows, sources),
                          False, index)
            compile_steps(f"tight-arc search, {tag}", [tree], (d, masks, rows, tasks, inf, pred), False,
                          index)
            start, distances, predecessors, start_items, mark_sources = gpu_rows._kernels()
            _compile(start, (d, masks, sources, inf))
            words = np.zeros(2 * N * 4, np.uint32)
            _compile(start_items, (d, words, sources, inf))
            _compile(mark_sources, (words, d, sources, np.int64(4), np.int64(8)))
            if index is np.int32 and dtype in (np.int32, np.float64):
                compile_frontier_form(task_parallel, d, words, rows, inf, dtype, index, tag)
            for out in (np.zeros((4, N), dtype), np.zeros((4, N), np.int64)):
                _compile(distances, (d, out, sources, inf, out[0, 0], d[:N], True))
            for out in (np.zeros((4, N), np.int64), np.zeros((4, N), index)):   # host, device
                _compile(predecessors, (pred, out, sources))
            _compile(gpu_predecessors._start_tree_kernel(), (pred, masks, sources))
            weights = np.zeros(30, dtype)
            _compile(gpu_johnson._reweight_kernel(), (np.zeros(30, index), np.zeros(30, index),
                                                      weights, np.zeros(N, dtype), weights,
                                                      np.zeros(1, dtype)))
            print("ok start, delivery, reweighting kernels,", tag, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
