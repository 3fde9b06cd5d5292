"""Host cost of a warm BFS query's set-up, before and after the recycled rows and the
standing fills (issue 12), on the CPU.

    python bench/query_host_cost.py [--repeat 500] [--scale 8] [--part rows|fills]

Two parts, each old and new timed alternately (best batch of 60, microseconds a call):

- ``rows``, on numba's own device arrays (never under the simulator; the driver is not
  called: blocks come from a stub, at made-up addresses): the levels and parents of a
  query, ``recycled_array((2, n))`` then ``rows_of`` and the rows' launch shares (old),
  against ``recycled_rows`` with the run's context kept (new).  ``cuda.current_context()``,
  which the old path calls and the new one does not, is stubbed here: on the H100 host it
  cost ~5 us more that this figure does not show.
- ``fills`` (under the simulator when there is no GPU, its arrays given device pointers):
  the fills of a warm ``direction-optimizing`` query from a changing source, queued as
  :meth:`LevelRun.start` and the method do, and the run's flattening
  (:meth:`PersistentRounds.prepare`), each fill made fresh (old) against the standing ones
  kept with their parameters (new).

Without ``--part`` both run, each in its own process (the simulator is chosen at import).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))


def rows_part(repeat: int, scale: int) -> None:
    import numpy as np
    from numba import cuda
    from numba.cuda.cudadrv.devicearray import DeviceNDArray
    from numba.cuda.cudadrv.driver import MemoryPointer, binding

    from warpath.cuda import launch, recycled
    from warpath.cuda.distances import rows_of

    from launch_host_cost import best_us   # after warpath: it picks the simulator on import

    assert not recycled.SIMULATOR
    context = object()

    def block(nbytes, dtype):   # a block at a made-up address: nothing is allocated
        memory = MemoryPointer(context, binding.CUdeviceptr(1 << 32), nbytes)
        return DeviceNDArray((nbytes,), (1,), np.uint8, gpu_data=memory)

    cuda.device_array, cuda.current_context = block, lambda: context
    n, index = 1 << scale, np.dtype(np.int32)

    def old():
        rows = rows_of(recycled.recycled_array((2, n), index), (0, 1))
        return [launch._array_share(row) for row in rows]   # as the first flatten does

    def new():
        return recycled.recycled_rows(2, n, index, context)

    print(f"levels and parents of a query, n = {n} (numba's arrays, no driver call)")
    print(f"{'':36} {'old':>8} {'new':>8}")
    timed = best_us(old, new, repeat)
    print(f"{'rows and their launch shares':36} {timed[0]:8.2f} {timed[1]:8.2f}")


def fills_part(repeat: int, scale: int) -> None:
    import numpy as np

    from launch_host_cost import best_us, captured_run
    from warpath.bfs.gpu_levels import UNVISITED, LevelRun
    from warpath.cuda import problem as problems
    from warpath.cuda.direction import restart_direction
    from warpath.cuda.fills import fill_job

    rounds, state, _, _, graph = captured_run(scale)
    run = LevelRun.reused(graph, ("direction-optimizing",), predecessors=True,
                          heavy_degree=4096)
    problem, arrays = run.problem, run.kept("direction", None)
    reverse, levels, parents = problem.graph.reverse(), state[0], state[1]
    n, sources = problem.n, [0]

    def set_up():   # what a query does from LevelRun.start to the flattened parameters
        source = sources[0] = (sources[0] + 1) % n
        problem.reset(source)
        problem.fill(levels, n, UNVISITED, source, 0)
        problem.fill(parents, n, -1)
        problem.restart_frontier(run.frontier, run.heavy_degree)
        restart_direction(problem, arrays, problem.graph.degree(source), reverse.degree(source))
        query = (np.int64(n), problem.take_fills())
        return rounds.prepare(state, query)

    def fresh_fill(self, array, count, value, at=-1, at_value=0, *, standing=False):
        self._fills.append(fill_job(array, count, value, at, at_value))   # the old body

    kept_fill = problems.Problem.fill

    def old():
        problems.Problem.fill = fresh_fill
        try:
            return set_up()
        finally:
            problems.Problem.fill = kept_fill

    def new():
        return set_up()

    assert old()[0] == new()[0] and len(old()[1]) == len(new()[1])
    jobs = len(problem.standing_jobs)
    print(f"a query's fills, queued and flattened ({len(set_up()[1])} parameters, "
          f"{jobs} standing fills; rmat {scale}, direction-optimizing)")
    print(f"{'':36} {'old':>8} {'new':>8}")
    timed = best_us(old, new, repeat)
    print(f"{'fills queued + flattening':36} {timed[0]:8.2f} {timed[1]:8.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=500, help="calls a batch")
    parser.add_argument("--scale", type=int, default=8, help="rmat scale (rows: log2 of n)")
    parser.add_argument("--part", choices=("rows", "fills"))
    options = parser.parse_args(argv)
    if options.part is None:
        for part in ("rows", "fills"):
            subprocess.run([sys.executable, __file__, "--part", part, "--repeat",
                            str(options.repeat), "--scale", str(options.scale)], check=True)
        return
    if options.part == "fills" and shutil.which("nvidia-smi") is None:
        os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
    if options.part == "rows":
        os.environ.pop("NUMBA_ENABLE_CUDASIM", None)
    (rows_part if options.part == "rows" else fills_part)(options.repeat, options.scale)


if __name__ == "__main__":
    main()
