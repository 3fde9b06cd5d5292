"""A/B: the CPU Dijkstra of an earlier commit against today's, and scipy, in one process.

Two builds of one kernel are best compared in one process, source by source,
so that the machine's mood (other jobs, turbo, the page cache) hits both
alike.  This loads ``src/warpath/sssp/dijkstra.py`` as it was at ``--against``
(``git show``) beside the current module, compiles both without numba's
on-disk cache, checks that both give scipy's distances, then times the old,
the new and ``scipy.sparse.csgraph.dijkstra`` alternating over random
sources (predecessors on) and prints the medians and the vertex scans.

Run: ``PYTHONPATH=src python3 bench/ab_dijkstra.py --against HEAD~1 [--graphs grid,random]
[--sources 5]``
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy.sparse import csgraph

import warpath
import warpath.methods
from warpath.sssp import dijkstra as current

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cpu_dijkstra import time_alternating  # noqa: E402  (a script beside this one)

MODULE = "src/warpath/sssp/dijkstra.py"


def load_revision(revision: str, workdir: Path):
    """``dijkstra.py`` at ``revision`` as a module of its own (cache off, not registered)."""
    source = subprocess.run(["git", "show", f"{revision}:{MODULE}"], check=True,
                            capture_output=True, text=True).stdout
    path = workdir / "dijkstra_old.py"
    path.write_text(source.replace("cache=True", "cache=False"))
    register = warpath.methods.register
    warpath.methods.register = lambda *args, **kwargs: (lambda run: run)  # keep the registry as it is
    try:
        spec = importlib.util.spec_from_file_location("warpath.sssp._dijkstra_old", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        warpath.methods.register = register
    return module


def compare(name, graph, old, sources):
    """Print the median time per source of old, new and scipy, and their scans."""
    matrix = graph.to_scipy()
    solvers = {"old": lambda s: old.dijkstra(graph, s),
               "new": lambda s: current.dijkstra(graph, s),
               "scipy": lambda s: csgraph.dijkstra(matrix, indices=s, return_predecessors=True)}
    reference = csgraph.dijkstra(matrix, indices=0)
    for label in ("old", "new"):
        if not np.array_equal(solvers[label](0).distances, reference):
            raise SystemExit(f"{label} dijkstra.py disagrees with scipy on {name}")
    solvers["scipy"](0)  # warm
    chosen = np.random.default_rng(0).integers(0, graph.num_vertices, sources).tolist()
    times, stats = time_alternating(solvers, chosen)
    scans = {label: sum(s["iterations"] for s in stats[label]) for label in ("old", "new")}
    medians = "  ".join(f"{label} {statistics.median(t) * 1e3:9.1f} ms" for label, t in times.items())
    print(f"{name:28} {medians}   scans old {scans['old']:,} new {scans['new']:,}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="HEAD", help="the earlier commit (default: HEAD)")
    parser.add_argument("--graphs", default="grid,random", help="grid and/or random")
    parser.add_argument("--sources", type=int, default=5, help="random sources per random graph "
                        "(the grids take four times as many)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        old = load_revision(args.against, Path(workdir))
        print(f"old: {MODULE} at {args.against}; new: the working tree")
        if "grid" in args.graphs:
            for weights in ("int", "float"):
                graph = warpath.generators.grid(514, 514, seed=0, weights=weights)
                compare(f"grid(514, 514) {weights}", graph, old, 4 * args.sources)
        if "random" in args.graphs:
            for n in (1_000_000, 2_000_000):
                graph = warpath.generators.random(n, 6 * n, seed=0, weights="float")
                compare(f"random({n // 10**6}M, {6 * n // 10**6}M) float", graph, old, args.sources)


if __name__ == "__main__":
    main()
