"""Time warpath's CPU Dijkstra against scipy.sparse.csgraph.dijkstra.

Both are warm (JIT compiled, first call discarded) and both compute
predecessors; each number is the median over random sources, the two
solvers alternating source by source.  The graphs: a
514 x 514 road-like grid (the size of DIMACS USA-road-d.NY: 264K vertices)
and the Helsinki OSM driving network shipped in ../shared/datasets.

Run: ``PYTHONPATH=src python3 bench/bench_cpu_dijkstra.py [--sources 20] [--random] [--msdoor]``
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import warpath
from warpath.benchmark.graphs import resolve_file
from warpath.benchmark.suite import repository_root


def dataset(name):
    """A shared dataset's path: ../shared/datasets, or WARPATH_DATASETS (the harness's rule)."""
    return str(resolve_file(f"../shared/datasets/{name}", root=repository_root()))


def load_helsinki():
    """The Helsinki road graph, with warpath.read when the formats module has it."""
    path = dataset("helsinki-osm-drive.gr.gz")
    try:
        return warpath.read(path)
    except (NotImplementedError, AttributeError, ImportError):
        with gzip.open(path, "rt") as text:
            arcs = np.array([line.split()[1:] for line in text if line.startswith("a ")],
                            dtype=np.int64)
        return warpath.Graph.from_edges(arcs[:, 0] - 1, arcs[:, 1] - 1, arcs[:, 2])


def time_alternating(solvers, sources):
    """Run every solver of ``{label: solve(source)}`` on each source, taking turns source by source.

    Taking turns keeps a busy machine from favouring whichever ran second.
    Returns ``(seconds, stats)``: per label, the time and the result's
    ``stats`` (``None`` for a result without) of each source.
    """
    seconds = {label: [] for label in solvers}
    stats = {label: [] for label in solvers}
    for source in sources:
        for label, solve in solvers.items():
            start = time.perf_counter()
            result = solve(source)
            seconds[label].append(time.perf_counter() - start)
            stats[label].append(getattr(result, "stats", None))
    return seconds, stats


def bench(name, graph, num_sources, seed):
    """Print the median seconds per source of both solvers, alternating them source by source."""
    sources = np.random.default_rng(seed).integers(0, graph.num_vertices, num_sources)
    csr = graph.to_scipy()

    def ours(s):
        return warpath.sssp(graph, s, method="dijkstra", device="cpu")

    def theirs(s):
        return csgraph.dijkstra(csr, indices=s, return_predecessors=True)

    ours(0), theirs(0)  # warm-up: JIT compile (or load the numba cache), page in the arrays
    seconds, _ = time_alternating({"ours": ours, "theirs": theirs}, sources.tolist())
    ours_times, theirs_times = seconds["ours"], seconds["theirs"]
    check = int(sources[0])
    assert np.array_equal(ours(check).distances, csgraph.dijkstra(csr, indices=check))
    mine, scipys = statistics.median(ours_times), statistics.median(theirs_times)
    print(f"| {name:<26} | {graph.num_vertices:>9,} | {graph.num_edges:>10,} | "
          f"{mine * 1e3:>10.2f} | {scipys * 1e3:>10.2f} | {scipys / mine:>7.2f}x |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=20, help="random sources per graph")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", action="store_true",
                        help="also random graphs of 1M and 2M vertices, degree 6, int and "
                             "float weights (5 sources each)")
    parser.add_argument("--msdoor", action="store_true",
                        help="also H-BF's msdoor stand-in: 415,863 vertices, 20.6M arcs, degree "
                             "~50 (8 sources)")
    args = parser.parse_args()
    print("| graph                      |  vertices |       arcs | warpath ms |   scipy ms |"
          " speed-up |")
    print("| -------------------------- | --------: | ---------: | ---------: | ---------: |"
          " -------: |")
    for weights in ("int", "float"):
        graph = warpath.generators.grid(514, 514, seed=args.seed, weights=weights)
        bench(f"grid 514x514 ({weights})", graph, args.sources, args.seed)
    bench("helsinki-osm-drive", load_helsinki(), args.sources, args.seed)
    if args.random:
        # Harish Fig. 4's random graphs (degree 6): no locality, a heap of millions of entries
        for n in (1_000_000, 2_000_000):
            for weights in ("int", "float"):
                graph = warpath.generators.random(n, 6 * n, seed=args.seed, weights=weights)
                bench(f"random {n // 1_000_000}M deg 6 ({weights})", graph,
                      min(args.sources, 5), args.seed)
    if args.msdoor:
        # bench/suites/hbf.toml's msdoor: high degree, small diameter, a short heap
        graph = warpath.generators.random(415_863, 10_300_000, directed=False, seed=1)
        bench("msdoor stand-in deg 50", graph, min(args.sources, 8), args.seed)


if __name__ == "__main__":
    main()
