"""A/B of the GPU SSSP methods: an earlier tree against today's, on the same graphs, same GPU.

Two numba-cuda builds of a method cannot share one process (both are
``warpath``), so each side runs in its own process on the same cached graphs,
and the sides alternate (old, new, old, new) so that drift hits both alike.
Each run writes JSON (median warm time per method and its counters); ``--compare``
prints the side-by-side table with the ratio and whether the counters agree.

    python bench/gpu_ab.py --label new --out /tmp/new.json            # today's tree
    PYTHONPATH=old/src python bench/gpu_ab.py --label old --out /tmp/old.json
    python bench/gpu_ab.py --compare /tmp/old.json /tmp/new.json

Graphs (issue 10's set, the Harish suite's stand-ins): ``ny`` grid(514, 514),
264K vertices like USA-road-d.NY; ``random-10m`` random(10M, 60M), weights
1-10; ``scale-free-10m`` power_law(10M, 6, 1000), weights 1-10.  They are
built once and cached as .npz under ``--cache``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

GRAPHS = {
    "ny": lambda gen: gen.grid(514, 514, seed=1, max_weight=300000),
    "random-10m": lambda gen: gen.random(10_000_000, 60_000_000, seed=1, max_weight=10),
    "scale-free-10m": lambda gen: gen.power_law(10_000_000, 6, 1000, seed=1, max_weight=10),
    "random-1m": lambda gen: gen.random(1_000_000, 6_000_000, seed=1, max_weight=10),
    # issue 11's graphs (H-BF targets)
    "cal-grid": lambda gen: gen.grid(1378, 1378, seed=1),
    "rmat-21-10": lambda gen: gen.rmat(21, 10, seed=1),
    "random-2m-32m": lambda gen: gen.random(2_000_000, 32_000_000, seed=1),
    "flickr-like": lambda gen: gen.power_law(820_000, 12, 100_000, seed=1),
}
METHODS = ("edge-bf", "edge-bf-flags", "harish", "locality")


def load_graph(name, cache: Path):
    """The named graph, from the .npz cache when present (written on first build)."""
    import warpath
    from warpath import generators as gen

    path = cache / f"{name}.npz"
    if path.exists():
        return warpath.read(path)
    graph = GRAPHS[name](gen)
    cache.mkdir(parents=True, exist_ok=True)
    warpath.write(graph, path)
    return graph


def measure(graph, method, repeat, source=0):
    """Median wall time (ms) of warm calls, and the counters of the last one."""
    import warpath
    from numba import cuda

    warpath.sssp(graph, source, method=method, device="cuda")  # compile, upload
    times, result = [], None
    for _ in range(repeat):
        cuda.synchronize()
        start = time.perf_counter()
        result = warpath.sssp(graph, source, method=method, device="cuda")
        result.distances  # the answer on the host: the same end point for both sides
        times.append((time.perf_counter() - start) * 1e3)
    keys = ("iterations", "relaxations", "launches", "host_syncs")
    import numpy as np

    reached = np.isfinite(result.distances)
    arcs = int(np.diff(graph.indptr)[reached].sum())  # Dijkstra's relax operations
    ms = statistics.median(times)
    return {"ms": ms, "all_ms": times, "reached_arcs": arcs, "gteps": arcs / ms / 1e6,
            **{k: result.stats[k] for k in keys}}


def run(args):
    import warpath

    out = {"label": args.label, "warpath": warpath.__file__, "results": {}}
    for name in args.graphs.split(","):
        graph = load_graph(name, Path(args.cache))
        for method in args.methods.split(","):
            key = f"{name}/{method}"
            out["results"][key] = measure(graph, method, args.repeat)
            res = out["results"][key]
            print(args.label, key, f"{res['ms']:.2f} ms", f"{res['gteps']:.2f} GTEPS",
                  f"rounds {res['iterations']}",
                  f"relax/dijkstra {res['relaxations'] / max(res['reached_arcs'], 1):.2f}",
                  flush=True)
    Path(args.out).write_text(json.dumps(out, indent=1))


def compare(paths):
    """Markdown: per graph/method, each side's median (over its files), ratio, counters equal?"""
    sides = {}
    for path in paths:
        data = json.loads(Path(path).read_text())
        for key, value in data["results"].items():
            sides.setdefault(data["label"], {}).setdefault(key, []).append(value)
    old, new = list(sides)[:2]
    print(f"| graph / method | {old} ms | {new} ms | {new}/{old} | same counters |")
    print("| --- | --- | --- | --- | --- |")
    for key in sides[old]:
        a = statistics.median(r["ms"] for r in sides[old][key])
        b = statistics.median(r["ms"] for r in sides[new][key])
        same = all(sides[old][key][0][k] == sides[new][key][0][k]
                   for k in ("iterations", "relaxations"))
        print(f"| {key} | {a:.2f} | {b:.2f} | {b / a:.3f} | {'yes' if same else 'NO'} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="new")
    parser.add_argument("--out", default="ab.json")
    parser.add_argument("--graphs", default="ny,random-10m,scale-free-10m")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cache", default="/tmp/warpath-ab-graphs")
    parser.add_argument("--compare", nargs="+", metavar="JSON")
    args = parser.parse_args(argv)
    if args.compare:
        compare(args.compare)
    else:
        run(args)


if __name__ == "__main__":
    main()
