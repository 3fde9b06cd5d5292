"""Launch, read-back and grid.sync() costs, and the GPU SSSP methods beside scipy's dijkstra.

Standalone (not the benchmark harness): prints a markdown table and writes
JSON.  Run on the GPU machine:

    python bench/gpu_loop_overhead.py --suite ny --out results/

Suites (the papers' graphs are not available here: generators at their sizes)
    micro    kernel launch, launch + flag read-back, grid.sync() in a persistent kernel
    blocks   the persistent grid's blocks per SM (1, 2, 4, all) on the NY-size grid
    ny       grid(514, 514): the size of USA-road-d.NY (264K vertices); harish,
             locality and edge-bf-flags, both loops (issue 4's overhead target)
    agarwal  Agarwal & Dutta Tables 1-2: random graphs of 20K..147K arcs, both loops

The papers' full experiments (Harish Table 1 / Figs 4-5, Safari Figs 3-4, and
these) are suites of the benchmark harness: ``python -m warpath.benchmark``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np
import scipy.sparse.csgraph as csgraph
from numba import cuda

import warpath
from warpath import generators as gen

METHODS = ("edge-bf", "edge-bf-flags", "harish", "locality")


def _device_name():
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else name


def micro(repeats=2000):
    """Per-launch, per-read-back and per-grid.sync() costs in microseconds."""

    @cuda.jit
    def empty(a):
        if cuda.grid(1) == 0:
            a[0] += 1

    @cuda.jit
    def syncs(a, rounds):
        g = cuda.cg.this_grid()
        for _ in range(rounds):
            if cuda.grid(1) == 0:
                a[0] += 1
            g.sync()

    a = cuda.to_device(np.zeros(1, np.int32))
    host = cuda.pinned_array(1, np.int32)
    empty[132, 256](a)
    cuda.synchronize()
    t = time.perf_counter()
    for _ in range(repeats):
        empty[132, 256](a)
    cuda.synchronize()
    launch = (time.perf_counter() - t) / repeats * 1e6
    t = time.perf_counter()
    for _ in range(repeats):
        empty[132, 256](a)
        a.copy_to_host(host)
    readback = (time.perf_counter() - t) / repeats * 1e6
    blocks = syncs.compile((numba.typeof(a), numba.int64)).max_cooperative_grid_blocks(256)
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    grid_sync = {}
    for grid_blocks in sorted({sms, 2 * sms, 4 * sms, blocks}):
        syncs[grid_blocks, 256](a, 10)
        cuda.synchronize()
        rounds = 20000
        t = time.perf_counter()
        syncs[grid_blocks, 256](a, rounds)
        cuda.synchronize()
        grid_sync[int(grid_blocks)] = (time.perf_counter() - t) / rounds * 1e6
    return {"launch_us": launch, "launch_and_readback_us": readback,
            "grid_sync_us_by_blocks": grid_sync, "max_cooperative_blocks": int(blocks)}


def timed(fn, repeats):
    fn()  # warm-up: compilation, upload of the DeviceGraph
    cuda.synchronize()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        cuda.synchronize()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def run_graph(name, g, configs, repeats, rows, source=0):
    t_scipy, ref = timed(lambda: csgraph.dijkstra(g.to_scipy(), indices=source), repeats)
    rows.append({"graph": name, "vertices": g.num_vertices, "arcs": g.num_edges,
                 "method": "scipy-dijkstra", "loop": "", "ms": t_scipy * 1e3})
    print(f"{name}: n={g.num_vertices} m={g.num_edges} scipy dijkstra {t_scipy*1e3:.2f} ms",
          flush=True)
    from warpath.cuda import runtime

    default = getattr(runtime, "_DEFAULT_BLOCKS_PER_SM", runtime.PERSISTENT_BLOCKS_PER_SM)
    runtime._DEFAULT_BLOCKS_PER_SM = default
    for method, options in configs:
        options = dict(options)
        runtime.PERSISTENT_BLOCKS_PER_SM = options.pop("_blocks_per_sm", default)
        t, r = timed(lambda: warpath.sssp(g, source, method=method, device="cuda", **options),
                     repeats)
        ok = bool(np.array_equal(r.distances, ref))
        row = {"graph": name, "vertices": g.num_vertices, "arcs": g.num_edges, "method": method,
               "ms": t * 1e3, "correct": ok, "speedup_vs_scipy": t_scipy / t,
               **{k: (v if not isinstance(v, np.generic) else v.item())
                  for k, v in r.stats.items() if k not in ("method", "device", "seconds")}}
        row["options"] = {k: v for k, v in options.items() if k != "loop"}
        rows.append(row)
        print(f"  {method:14s} {options} {t*1e3:9.2f} ms  x{t_scipy/t:6.2f}"
              f"  it={r.stats['iterations']} relax={r.stats['relaxations']}"
              f" launches={r.stats['launches']}"
              f" syncs={r.stats['host_syncs']} ok={ok}", flush=True)


def all_loops(methods=METHODS):
    return [(m, {"loop": loop}) for m in methods for loop in ("paper", "fast")]


def suite_graphs(suite):
    road = ("harish", "locality", "edge-bf-flags")
    if suite == "ny":
        return [("grid514 (NY-size)", gen.grid(514, 514, seed=1), all_loops(road))]
    if suite == "blocks":  # persistent grid size: blocks per SM (0: as many as fit)
        g = gen.grid(514, 514, seed=1)
        return [(f"grid514, {b or 'max'} blocks/SM", g,
                 [(m, {"loop": "fast", "_blocks_per_sm": b}) for m in road])
                for b in (1, 2, 4, 0)]
    if suite == "agarwal":
        sizes = [(8192, 20_000), (12_000, 30_000), (16_000, 40_000), (22_000, 55_000),
                 (35_000, 88_000), (62_000, 147_000)]
        return [(f"random {n}/{m}", gen.random(n, m, seed=n, max_weight=100),
                 all_loops(("edge-bf", "edge-bf-flags"))) for n, m in sizes]
    raise SystemExit(f"unknown suite {suite!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=".")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    result = {"device": _device_name(), "suites": {}}
    for suite in args.suite or ["micro", "ny"]:
        start = time.perf_counter()
        if suite == "micro":
            result["suites"]["micro"] = micro()
            print("micro:", json.dumps(result["suites"]["micro"]), flush=True)
        else:
            rows = []
            for name, g, configs in suite_graphs(suite):
                run_graph(name, g, configs, args.repeats, rows)
            result["suites"][suite] = rows
        print(f"[{suite} took {time.perf_counter() - start:.1f} s]", flush=True)
        (out / "gpu_bench.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
