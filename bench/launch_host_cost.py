"""Host cost of a persistent query's launch, before and after issue 12's cuts, on the CPU.

    python bench/launch_host_cost.py [--repeat 500] [--scale 8]

``gpu_bfs.py``'s CUDA events enclose the whole query call, so every microsecond of
Python before the driver call counts.  This times, with the driver's launch calls stubbed out
(no GPU needed; under numba's CUDA simulator when there is none), on the arguments of a
real ``direction-optimizing`` BFS query (captured from :meth:`PersistentRounds.start` on
a small rmat graph; the simulator's arrays are given a device pointer so they flatten):

- the parameters' conversion: ``np.array(values, np.int64)`` and numpy's ``.ctypes`` for
  the slot addresses (old) against writing this thread's kept slots (new);
- the compiled function's lookup: hashing ``(kernel, types)`` (old) against comparing the
  run's types with the last run's (new);
- the whole ``launch()``: a copy of the old body against the new one, given the prepared
  arguments (and, new, the kept function);
- a run's flattening: ``prepare()`` of the whole argument tuple (old) against
  :meth:`PersistentRounds.prepare` (the fixed head and tail flattened once);
- and all of it together, as ``PersistentRounds.start`` does before the driver call.

Each figure is the mean over ``--repeat`` calls in the best of 60 batches (old and new
timed alternately), in microseconds.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import os
import shutil
import sys
import timeit

if shutil.which("nvidia-smi") is None:
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np  # noqa: E402
from cuda.bindings import driver  # noqa: E402

import warpath  # noqa: E402
from warpath.cuda import launch as launching  # noqa: E402
from warpath.cuda.enactor import PersistentRounds  # noqa: E402


def captured_run(scale: int = 8):
    """``(rounds, state, jobs, max_rounds, graph)`` of a warm direction-optimizing BFS query
    (and the graph it ran on)."""
    if launching.SIMULATOR:   # a device pointer, as real arrays have, so that they flatten
        from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

        FakeCUDAArray.device_ctypes_pointer = property(
            lambda a: ctypes.c_void_p(a._ary.ctypes.data))
    runs, start = [], PersistentRounds.start

    def capturing(self, state, jobs, tally, max_rounds):
        runs.append((self, state, tuple(jobs), max_rounds))
        return start(self, state, jobs, tally, max_rounds)

    PersistentRounds.start = capturing
    graph = warpath.generators.rmat(scale, 16, seed=1, directed=False)
    for _ in range(2):   # the second query reuses the first's rounds, as a warm one does
        warpath.bfs(graph, 0, method="direction-optimizing", device="cuda")
    PersistentRounds.start = start
    return runs[-1] + (graph,)


@functools.lru_cache(maxsize=64)
def _offsets(size: int) -> np.ndarray:
    return 8 * np.arange(size, dtype=np.int64)


def old_launch(kernel, griddim, blockdim, args, prepared=None):
    """``launch()`` before issue 12's cuts (a copy of its body past the simulator's test)."""
    types, values = launching.prepare(args) if prepared is None else prepared
    key = (kernel, types)
    entry = launching._FUNCTIONS.get(key, False)
    if entry is False:
        entry = launching._FUNCTIONS[key] = (None if values is None
                                             else launching._function(kernel, args))
    if entry is None:
        kernel[griddim, blockdim](*args)
        return
    handle, cooperative, stream = entry
    values = np.array(values, dtype=np.int64)
    pointers = values.ctypes.data + _offsets(values.size)
    if cooperative:
        status, = driver.cuLaunchCooperativeKernel(handle, int(griddim), 1, 1, int(blockdim), 1,
                                                   1, 0, stream, pointers.ctypes.data)
    else:
        status, = driver.cuLaunchKernel(handle, int(griddim), 1, 1, int(blockdim), 1, 1, 0,
                                        stream, pointers.ctypes.data, 0)
    if status != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"kernel launch failed: {status.name}")


def best_us(old, new, repeat: int) -> tuple:
    """The old and the new call's microseconds, timed in alternate batches (so that both
    see the same load), each the mean over a batch of ``repeat`` calls in its best batch."""
    best = [float("inf"), float("inf")]
    for _ in range(BATCHES):
        for i, call in enumerate((old, new)):
            best[i] = min(best[i], timeit.timeit(call, number=repeat) / repeat * 1e6)
    return tuple(best)


#: Batches timed per figure: the best one is the least disturbed (a shared box is noisy).
BATCHES = 60


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=500, help="calls a batch")
    parser.add_argument("--scale", type=int, default=8, help="rmat scale of the captured query")
    options = parser.parse_args(argv)
    rounds, state, jobs, max_rounds, _ = captured_run(options.scale)
    query = (np.int64(max_rounds),) + ((jobs,) if jobs else ())   # as run() makes it
    args = rounds._head + (state,) + rounds._tail + query
    types, values = launching.prepare(args)
    kept_types, kept_values = rounds.prepare(state, query)
    assert values is not None and (kept_types, list(kept_values)) == (types, values)

    success = (driver.CUresult.CUDA_SUCCESS,)
    driver.cuLaunchCooperativeKernel = lambda *a: success   # stubs: nothing is launched
    driver.cuLaunchKernel = lambda *a: success
    launching.SIMULATOR = False
    kernel, entry = rounds.kernel, ("handle", True, 0)
    launching._FUNCTIONS[(kernel, types)] = entry
    rounds._last_function = types, entry
    count, repeat = len(values), options.repeat
    print(f"{count} parameters, {len(types)} arguments (direction-optimizing, rmat "
          f"{options.scale}); microseconds a call, best of {BATCHES} batches of {repeat} calls")

    def old_conversion():
        array = np.array(values, dtype=np.int64)
        return (array.ctypes.data + _offsets(array.size)).ctypes.data

    def new_conversion():
        slots, pointers, _ = launching._parameter_slots(count)
        slots[:] = values
        return pointers

    next_types = rounds.prepare(state, query)[0]   # a new run's, equal to types
    rows = [
        ("parameters to the driver's array", old_conversion, new_conversion),
        ("compiled function's lookup", lambda: launching._FUNCTIONS.get((kernel, next_types)),
         lambda: rounds._function_for((next_types, values), args)),
        ("launch(), prepared arguments given",
         lambda: old_launch(kernel, 1, 256, args, (types, values)),
         lambda: launching.launch(kernel, 1, 256, args, (types, values), entry)),
        ("a run's flattening", lambda: launching.prepare(args),
         lambda: rounds.prepare(state, query)),
        ("flattening + lookup + launch()",
         lambda: old_launch(kernel, 1, 256, args, launching.prepare(args)),
         lambda: _new_run(rounds, state, query, args)),
    ]
    print(f"{'':36} {'old':>8} {'new':>8}")
    for name, old, new in rows:
        print(f"{name:36} {'{:8.2f} {:8.2f}'.format(*best_us(old, new, repeat))}")


def _new_run(rounds, state, query, args):
    """What :meth:`PersistentRounds.start` does before the driver call (the grid size kept)."""
    prepared = rounds.prepare(state, query)
    launching.launch(rounds.kernel, 1, 256, args, prepared, rounds._function_for(prepared, args))


if __name__ == "__main__":
    main()
