"""Where a GPU query's fixed cost goes: warm wall time per query on a tiny and a mid-size graph,
and a cProfile of the host side (issue 10's per-query overhead).

    python bench/gpu_query_overhead.py                       # every method, both graphs
    python bench/gpu_query_overhead.py --methods sssp:hbf bfs:queue --profile 12

A tiny graph (a 16 x 16 grid) takes microseconds of GPU work, so its wall time is the
per-query overhead: allocations, fills, launches, flag reads and Python.  The mid-size graph
(NY-size grid, 264K vertices) shows what of that overhead grows with n (host uploads of
n-sized arrays were the suspects).  ``--profile K`` prints the K host functions with the
most own time over 20 warm queries on the mid-size graph.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

import warpath
from warpath import generators as gen

METHODS = ["sssp:hbf", "sssp:harish", "sssp:edge-bf", "sssp:edge-bf-flags", "sssp:locality",
           "bfs:queue", "bfs:direction-optimizing", "bfs:harish"]


def query(problem, method, graph, predecessors):
    if problem == "bfs":
        return warpath.bfs(graph, 0, method=method, device="cuda", predecessors=predecessors)
    return warpath.sssp(graph, 0, method=method, device="cuda", predecessors=predecessors)


def warm_ms(problem, method, graph, predecessors, repeat):
    """Median wall time of ``repeat`` warm queries, the result read to the host."""
    query(problem, method, graph, predecessors)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = query(problem, method, graph, predecessors)
        _ = result.distances if problem == "sssp" else result.levels
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", nargs="+", default=METHODS)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--profile", type=int, default=0)
    args = parser.parse_args()
    tiny = gen.grid(16, 16, seed=1)
    mid = gen.grid(514, 514, seed=1, max_weight=300000)
    for spec in args.methods:
        problem, method = spec.split(":")
        for predecessors in (False, True):
            a = warm_ms(problem, method, tiny, predecessors, args.repeat)
            b = warm_ms(problem, method, mid, predecessors, max(3, args.repeat // 3))
            print(f"{spec:28s} predecessors={predecessors!s:5s} tiny {a:8.3f} ms   "
                  f"ny-size {b:8.3f} ms", flush=True)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(20):
                query(problem, method, mid, True).distances if problem == "sssp" else None
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
