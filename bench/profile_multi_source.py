"""One many-source call inside ``cuda.profile_start/stop``, for Nsight Compute (issue 13).

    ncu --profile-from-start off --launch-count 10 --metrics gpu__time_duration.sum,... \\
        --section WarpStateStats --section SourceCounters -o /tmp/run \\
        python bench/profile_multi_source.py
    ncu --import /tmp/run.ncu-rep --page raw --csv --print-units base > raw.csv
    python bench/ncu_metrics.py raw.csv gpu__time_duration.sum dram__bytes_read.sum
    ncu --import /tmp/run.ncu-rep --page source --print-source sass --csv > sass.csv
    python bench/sass_hotspots.py sass.csv

The graph and sources are those of ``bench/gpu_apsp.py --parts multi`` (random(V, 6V),
seed 2008; sources from ``default_rng(13)``).  Two calls compile and warm up outside the
profiled range, a third is timed and prints its stats, and the fourth is the one profiled:
its launches (fills, start, marks, the rounds' persistent kernel, the delivery) are the
only ones ncu sees.  ``NAME=VALUE`` arguments set module switches of
:mod:`warpath.apsp.task_parallel` first (``WHOLE_ITEM_CLAIMS=0``).  The thirty-first
session's profile of the rounds is in docs/performance.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def set_switches(module, items) -> dict:
    """Set ``NAME=VALUE`` integer or boolean switches of ``module``; the values set.

    Examples
    --------
    >>> import types
    >>> m = types.SimpleNamespace(FLAG=True, CAP=64)
    >>> set_switches(m, ["FLAG=0", "CAP=48"]), m.FLAG, m.CAP
    ({'FLAG': False, 'CAP': 48}, False, 48)
    """
    done = {}
    for item in items:
        name, _, value = item.partition("=")
        if not hasattr(module, name):
            raise SystemExit(f"{module.__name__} has no switch {name!r}")
        done[name] = type(getattr(module, name))(int(value))
        setattr(module, name, done[name])
    return done


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("switches", nargs="*", metavar="NAME=VALUE")
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--sources", type=int, default=1000)
    args = parser.parse_args(argv)
    from numba import cuda

    import warpath
    from warpath.apsp import task_parallel

    set_switches(task_parallel, args.switches)
    n = args.vertices
    graph = warpath.generators.random(n, 6 * n, seed=2008)
    sources = np.random.default_rng(13).integers(0, n, size=args.sources)

    def call():
        return warpath.multi_source(graph, sources, method="task-parallel", device="cuda",
                                    predecessors=False)

    warpath.multi_source(graph, sources[:2], method="task-parallel", device="cuda",
                         predecessors=False)
    call()
    cuda.synchronize()
    start = time.perf_counter()
    result = call()
    cuda.synchronize()
    stats = {key: result.stats[key] for key in ("iterations", "relaxations", "launch_width")}
    print(f"warm call {time.perf_counter() - start:.3f} s, {stats}")
    result = None
    cuda.profile_start()
    call()
    cuda.synchronize()
    cuda.profile_stop()
    print("profiled call done")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
