"""Time networkx calls through the warpath backend against plain networkx, in one process.

``nx.single_source_dijkstra_path_length(G, s, backend="warpath")`` against
``nx.single_source_dijkstra_path_length(G, s)`` on a random graph of about 1M
arcs and on the Bremen OSM road graph (``../shared/datasets``).  The first
backend call (which converts the networkx graph and caches the conversion on
it) is reported apart from the warm calls; numba compilation is done before,
on a tiny graph, and reported too.  Every answer is checked equal to
networkx's, and the warm backend time is split into the search itself and
building the result dict.  Warm calls alternate with networkx source by
source, with a garbage collection before each (untimed): networkx's searches
leave enough garbage that a collection otherwise lands in whichever call
comes next.

The warm calls are timed twice.  First as they always were: each
``gc.collect()`` also walks the networkx graph (hundreds of thousands of
dicts), which evicts the CPU caches before every timed call.  Then with the
graph moved out of the collector's reach by ``gc.freeze()``, as in a program
that holds a graph while it queries it (full collections, which walk
long-lived objects, are rare there): the collections still run before each
call, but only over young garbage.  Both sides get the same treatment in
both; the table reports both speed-ups.

``--all-pairs N`` times ``dict(nx.all_pairs_dijkstra_path_length(G))`` on a
random graph of N vertices (``--degree`` x N arcs, 4 by default), twice: the
first call (which on the GPU also compiles the many-source kernels, once per
machine) and a warm one, the figure the speed-up uses; networkx's time can be taken on a
sample of ``--nx-sources`` sources and scaled to all N (said so in the
output).  ``--device cuda`` runs the backend's GPU path (warpath's GPU SSSP;
the default "auto" takes it when a GPU is usable).  Last, the same process
times the dicts alone (N dicts of N entries from lists already made): the
least any backend returning networkx's dicts pays, so the highest speed-up
one can reach on this machine.

Run: ``PYTHONPATH=src python3 bench/bench_networkx_backend.py [--sources 5] [--device cpu]
[--all-pairs 5000 --nx-sources 200 [--degree 4]] [--skip-single]``
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

import networkx as nx
import numpy as np

import warpath
from warpath.benchmark.graphs import resolve_file
from warpath.benchmark.suite import repository_root
from warpath.networkx_backend.results import lengths_in_order
from warpath.networkx_backend.weighted import _run_dijkstra as run_dijkstra


def dataset(name):
    """A shared dataset's path: ../shared/datasets, or WARPATH_DATASETS (the harness's rule)."""
    return str(resolve_file(f"../shared/datasets/{name}", root=repository_root()))


def register_backend():
    """Use the installed entry point, or register the backend as the tests do (source tree)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    from networkx_backend._compare import ensure_backend_registered

    ensure_backend_registered()
    nx.config.warnings_to_ignore.add("cache")


def time_alternating(solvers, sources):
    """Seconds per source of each ``{label: solve(source)}``, taking turns source by source,
    each call after an untimed ``gc.collect()``."""
    seconds = {label: [] for label in solvers}
    for source in sources:
        for label, solve in solvers.items():
            gc.collect()
            start = time.perf_counter()
            solve(source)
            seconds[label].append(time.perf_counter() - start)
    return seconds


def networkx_graph(g):
    """``g`` as a networkx DiGraph (nodes 0..n-1, ``weight`` attributes), and the build time."""
    start = time.perf_counter()
    G = nx.DiGraph()
    G.add_nodes_from(range(g.num_vertices))
    G.add_weighted_edges_from(zip(g.tails().tolist(), g.indices.tolist(), g.weights.tolist()))
    return G, time.perf_counter() - start


def graphs(which):
    if "random" in which:
        g = warpath.generators.random(250_000, 1_000_000, seed=1, weights="int", max_weight=1000)
        yield "random 250K x 1M", g
    if "bremen" in which:
        yield "bremen-osm-dist", warpath.read(dataset("bremen-osm-dist.gr.gz"))


def warm_up():
    """Compile the numba kernels (or load them from numba's cache): the seconds it took."""
    start = time.perf_counter()
    tiny = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2})])
    nx.single_source_dijkstra_path_length(tiny, 0, backend="warpath")
    tiny = nx.DiGraph([(0, 1, {"weight": 1.5})])
    nx.single_source_dijkstra_path_length(tiny, 0, backend="warpath")
    return time.perf_counter() - start


def bench_single_source(name, g, num_sources, seed):
    G, build = networkx_graph(g)
    sources = np.random.default_rng(seed).integers(0, g.num_vertices, num_sources).tolist()
    start = time.perf_counter()
    first = nx.single_source_dijkstra_path_length(G, sources[0], backend="warpath")
    first_seconds = time.perf_counter() - start
    assert first == nx.single_source_dijkstra_path_length(G, sources[0])
    solvers = {
        "warpath": lambda s: nx.single_source_dijkstra_path_length(G, s, backend="warpath"),
        "networkx": lambda s: nx.single_source_dijkstra_path_length(G, s),
    }
    seconds = time_alternating(solvers, sources)
    gc.collect()
    gc.freeze()  # the graph and its conversion: long-lived, no longer walked by collections
    frozen = time_alternating(solvers, sources)
    gc.unfreeze()
    converted, = G.__networkx_cache__["backends"]["warpath"].values()
    search, build_dict = [], []
    for s in sources:  # the warm call's two parts, timed apart (each after a collection too)
        gc.collect()
        t0 = time.perf_counter()
        run = run_dijkstra(converted, [s], record=False)
        t1 = time.perf_counter()
        gc.collect()
        t2 = time.perf_counter()
        lengths_in_order(converted, run.order, run.order_dist, [s])
        t3 = time.perf_counter()
        search.append(t1 - t0)
        build_dict.append(t3 - t2)
    ours = statistics.median(seconds["warpath"])
    theirs = statistics.median(seconds["networkx"])
    ours_frozen = statistics.median(frozen["warpath"])
    theirs_frozen = statistics.median(frozen["networkx"])
    reached = len(first)
    print(f"| {name} | {g.num_vertices:,} | {g.num_edges:,} | {reached:,} | {build:.2f} s | "
          f"{first_seconds * 1e3:,.0f} | {ours * 1e3:,.1f} | "
          f"{statistics.median(search) * 1e3:,.1f} + {statistics.median(build_dict) * 1e3:,.1f} | "
          f"{theirs * 1e3:,.0f} | {theirs / ours:.1f}x | {ours_frozen * 1e3:,.1f} | "
          f"{theirs_frozen * 1e3:,.0f} | {theirs_frozen / ours_frozen:.1f}x |")


def bench_all_pairs(n, nx_sources, seed, degree=4):
    g = warpath.generators.random(n, degree * n, seed=seed, weights="int", max_weight=1000)
    G, _ = networkx_graph(g)
    nx.single_source_dijkstra_path_length(G, 0, backend="warpath")  # convert and cache first
    runs, ours = [], None
    for _ in range(2):   # the first call also compiles the many-source kernels (once a machine)
        del ours   # the previous answer is freed outside the timed call
        gc.collect()
        ours = None
        start = time.perf_counter()
        ours = dict(nx.all_pairs_dijkstra_path_length(G, backend="warpath"))
        runs.append(time.perf_counter() - start)
    ours_seconds = runs[-1]
    rows = ""
    from warpath.device import resolve_device
    from warpath.networkx_backend import device_lengths

    on_gpu = resolve_device(nx.config.backends.warpath.device, "sssp", "auto") == "cuda"
    if on_gpu and 8 * n * n <= device_lengths.ROWS_BYTES:   # the backend's one call
        rows_on_gpu = device_lengths.rows_on_gpu
        rows_on_gpu(g, np.arange(n))   # compiled already; the same call warm
        start = time.perf_counter()
        rows_on_gpu(g, np.arange(n))
        rows = f", of which ~{time.perf_counter() - start:.2f} s the GPU's rows (timed apart)"
    sample = range(n) if nx_sources is None else range(min(nx_sources, n))
    gc.collect()
    start = time.perf_counter()
    for s in sample:
        assert nx.single_source_dijkstra_path_length(G, s) == ours[s]
    theirs = (time.perf_counter() - start) * n / len(sample)
    scaled = "" if len(sample) == n else f" (timed on {len(sample)} sources, scaled to {n})"
    print(f"all_pairs_dijkstra_path_length, random {n:,} vertices x {g.num_edges:,} arcs, "
          f"device {nx.config.backends.warpath.device}: warpath {ours_seconds:.2f} s warm "
          f"(first call {runs[0]:.2f} s{rows}), networkx {theirs:.2f} s{scaled}, "
          f"speed-up {theirs / ours_seconds:.1f}x")
    del ours
    floor = dict_floor(n, seed)
    print(f"the dicts alone ({n:,} x {n:,} entries from ready lists, this process): "
          f"{floor:.2f} s, at most {theirs / floor:.1f}x against networkx")


def dict_floor(n, seed):
    """Seconds to build ``n`` dicts of ``n`` entries from lists already made (shared objects,
    the dicts kept): what any backend returning networkx's all-pairs dicts pays at least."""
    rng = np.random.default_rng(seed)
    nodes, numbers = list(range(n)), list(range(4 * n))
    keys = [[nodes[i] for i in rng.permutation(n)] for _ in range(16)]
    values = [[numbers[i] for i in rng.integers(0, 4 * n, n)] for _ in range(16)]
    gc.collect()
    start = time.perf_counter()
    kept = [dict(zip(keys[i % 16], values[i % 16])) for i in range(n)]
    seconds = time.perf_counter() - start
    del kept
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=5, help="warm sources per graph")
    parser.add_argument("--graphs", default="random,bremen", help="random and/or bremen")
    parser.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--all-pairs", type=int, metavar="N", help="also time all pairs on N vertices")
    parser.add_argument("--nx-sources", type=int, help="networkx's all-pairs time from this many "
                                                       "sources, scaled to N")
    parser.add_argument("--degree", type=int, default=4,
                        help="arcs per vertex of the all-pairs graph (default 4)")
    parser.add_argument("--skip-single", action="store_true", help="only the all-pairs timing")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    register_backend()
    nx.config.backends.warpath.device = args.device
    print(f"numba compile / cache load before timing: {warm_up():.2f} s; "
          f"device setting {args.device}; networkx {nx.__version__}")
    if not args.skip_single:
        print("| graph | vertices | arcs | reached | nx graph built | first call ms (converts) "
              "| warm ms | = search + dict ms | networkx warm ms | speed-up "
              "| warm ms, G frozen | networkx ms, G frozen | speed-up, G frozen |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: |")
        for name, g in graphs(args.graphs.split(",")):
            bench_single_source(name, g, args.sources, args.seed)
    if args.all_pairs:
        bench_all_pairs(args.all_pairs, args.nx_sources, args.seed, args.degree)


if __name__ == "__main__":
    main()
