"""Where a warm GPU SSSP query's time goes: the whole call, the host's share, each kernel.

    python bench/gpu_sssp_split.py                                  # issue 11's graphs
    python bench/gpu_sssp_split.py --graphs rmat-21-10 --methods hbf hbf:dense=0.02 edge-bf
    python bench/gpu_sssp_split.py --src /path/to/old/src ...       # another tree, same run
    python bench/gpu_sssp_split.py --graphs usa-road-ne --methods hbf hbf:lookahead=2
    python bench/gpu_sssp_split.py --graphs rmat-21-10 --methods hbf:_registers=64  # a cap
    python bench/gpu_sssp_split.py --graphs hbf/rmat-3mv-20me --methods hbf hbf:_sweep_early=True
    python bench/gpu_sssp_split.py --negative --check --graphs random-2m-32m   # and negative
    python bench/gpu_sssp_split.py --tiny                           # simulator smoke run
    python bench/gpu_sssp_split.py --graphs hbf/msdoor hbf/flickr --methods hbf:trace=True
    ncu --profile-from-start off -o /tmp/run python bench/gpu_sssp_split.py --profile 2 ...
    python bench/gpu_sssp_split.py --graphs hbf/rmat-3mv-20me --per-source   # each source

Per graph and method (``name`` or ``name:option=value,...``; ``True``/``False`` or
numbers): one untimed call, then ``--queries`` warm calls from each of three sources
(the vertex of most arcs and two random ones with arcs).  Printed, as medians: the whole
call (CUDA events around it), the host's time in the call (``perf_counter``), the sum
and the largest of the kernels launched through :func:`warpath.cuda.launch.launch`
(events around each: the persistent kernel, the fills, the passes after the rounds),
how many of the call's launches those were, rounds, relaxations, ``dense_rounds``, and
GTEPS: the arcs out of the reached vertices over the whole call (issue 11 asks for 25 on
an R-MAT graph of 150M arcs or more: ``--graphs rmat-23-19``).  ``--check`` compares
the first answer with scipy's ``dijkstra``.  Under the CUDA simulator every time is
``perf_counter`` and the kernels are not timed.

A graph named ``SUITE/ID`` is the graph ``[graphs.ID]`` of ``bench/suites/SUITE.toml``, built
as the benchmark harness builds it (``hbf/msdoor``: H-BF Table 2's msdoor stand-in).  A
method that records its frontier sizes (``hbf:trace=True``) has them printed, the first
call's, round by round.  With ``--profile K``, each method's last call (from source K, 0 by
default) runs between ``cuda.profile_start()`` and ``profile_stop()``: under ``ncu
--profile-from-start off`` only its kernels are profiled, not the first call's compilation
or the timed queries.  ``--per-source`` prints each source's medians too: the medians of all
calls hide a slow source (on the undirected R-MAT, calls timed one by one took 3.8 ms from
the hub and 8.8 ms from a random vertex: thirty-third session).

The split told where hbf's time went in issue 11's eighteenth session
(``docs/performance.md``): 1.5-2.7 ms a query in numba's typing of the recording pass's
launch, before the kernels.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time

import numpy as np

GRAPHS = {
    "rmat-21-10": lambda gen: gen.rmat(21, 10, seed=1),
    "flickr-like": lambda gen: gen.power_law(820_000, 12, 100_000, seed=1),
    "random-2m-32m": lambda gen: gen.random(2_000_000, 32_000_000, seed=1),
    "random-1m-6m": lambda gen: gen.random(1_000_000, 6_000_000, seed=1),
    "random-1m-16m": lambda gen: gen.random(1_000_000, 16_000_000, seed=1),
    "rmat-20-16": lambda gen: gen.rmat(20, 16, seed=1),
    # issue 11's GTEPS target: an R-MAT graph of at least 150M arcs (8.4M vertices; of the
    # 159M arcs drawn, ~155M stay once duplicates and self-loops go: rmat(23, 18) kept 147M)
    "rmat-23-19": lambda gen: gen.rmat(23, 19, seed=1),
    "cal-grid": lambda gen: gen.grid(1378, 1378, seed=1),
    "usa-road-ny": lambda gen: road("NY"),
    "usa-road-ne": lambda gen: road("NE"),
    "usa-road-nw": lambda gen: road("NW"),
}
#: Where the DIMACS road networks are looked for (the team's datasets, or a copy
#: carried to the GPU machine); override with WARPATH_DATASETS.
DATASETS = ("../shared/datasets", ".carry/datasets")


def road(name: str):
    """A DIMACS road network with weights as the benchmark suites give it: seeded uniform
    integers in [1, 1000] (seed 1), since the shared copies have none."""
    import pathlib

    import warpath

    folders = [os.environ.get("WARPATH_DATASETS", ""), *DATASETS]
    for folder in filter(None, folders):
        path = pathlib.Path(folder) / f"USA-road-{name}.pace16.gr.xz"
        if path.is_file():
            return warpath.read(path).with_random_weights(1, 1000, seed=1)
    raise SystemExit(f"USA-road-{name}.pace16.gr.xz is in none of {folders}")
TINY = {name: (lambda gen: gen.rmat(7, 8, seed=1)) for name in GRAPHS}


def graph_maker(name: str, tiny: bool = False):
    """The maker of graph ``name``: one of :data:`GRAPHS`, or ``SUITE/ID`` for a benchmark
    suite's graph (its quick size with ``tiny``).

    Examples
    --------
    >>> import warpath
    >>> graph_maker("hbf/msdoor", tiny=True)(warpath.generators).num_vertices
    2000
    """
    if "/" not in name:
        if name not in GRAPHS:
            raise SystemExit(f"no graph {name!r}: one of {', '.join(GRAPHS)}, or SUITE/ID")
        return (TINY if tiny else GRAPHS)[name]
    from warpath.benchmark.graphs import build_graph
    from warpath.benchmark.suite import load_suite, repository_root

    suite_name, graph_id = name.split("/", 1)
    suite = load_suite(suite_name)
    if graph_id not in suite.graphs:
        raise SystemExit(f"suite {suite_name} has no graph {graph_id!r}: one of "
                         f"{', '.join(suite.graphs)}")
    spec = suite.graphs[graph_id]
    return lambda gen: build_graph(spec, root=repository_root(), quick=tiny)


def method_spec(spec: str) -> tuple:
    """``(method, options)`` of ``"hbf:dense=0.02,classify=False"``.

    Examples
    --------
    >>> method_spec("hbf:dense=0.02,classify=False,high_degree=64,virtual_warps=block")
    ('hbf', {'dense': 0.02, 'classify': False, 'high_degree': 64, 'virtual_warps': 'block'})
    >>> method_spec("edge-bf")
    ('edge-bf', {})
    """
    name, _, text = spec.partition(":")
    options = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        options[key] = _option_value(value)
    return name, options


def _option_value(text: str):
    """``True``/``False``, an int, a float, else the text itself."""
    if text in ("True", "False"):
        return text == "True"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


#: The sources a graph's queries start from (:func:`sources_for`).
SOURCES = 3


def sources_for(graph) -> list:
    """The vertex of most arcs, then ``SOURCES - 1`` random vertices with arcs.

    Examples
    --------
    >>> import warpath
    >>> sources = sources_for(warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 1, 1]))
    >>> len(sources), sources[0], set(sources) <= {0, 1}
    (3, 0, True)
    """
    degrees = graph.out_degrees()
    with_arcs = np.flatnonzero(degrees > 0)
    return ([int(np.argmax(degrees))]
            + np.random.default_rng(3).choice(with_arcs, SOURCES - 1).tolist())


class KernelClock:
    """CUDA events around every launch made through ``warpath.cuda.launch.launch`` (by any
    warpath module that imported it), kept for the current query; nothing under the
    simulator, whose events carry no time."""

    def __init__(self, simulated: bool):
        self.spans = []
        if simulated:
            return
        from numba import cuda

        import warpath.cuda.launch as launching

        original = launching.launch

        def timed(kernel, griddim, blockdim, args, *rest, **options):
            before, after = cuda.event(timing=True), cuda.event(timing=True)
            before.record()
            original(kernel, griddim, blockdim, args, *rest, **options)
            after.record()
            self.spans.append((before, after))

        for name, module in list(sys.modules.items()):
            if name.startswith("warpath") and getattr(module, "launch", None) is original:
                module.launch = timed

    def kernel_ms(self) -> list:
        from numba import cuda

        return [cuda.event_elapsed_time(a, b) for a, b in self.spans]


def reference_distances(graph, source, original=None):
    """scipy's ``dijkstra`` distances from ``source``: on ``graph``, or, for a graph made by
    ``with_negative_weights`` from ``original = (graph, potentials)``, on that graph and
    shifted back (``d'(s, t) = d(s, t) + p(s) - p(t)``).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.random(30, 120, seed=1)
    >>> negative, p = warpath.generators.with_negative_weights(g, seed=2, return_potentials=True)
    >>> import scipy.sparse.csgraph as csgraph
    >>> expected = csgraph.bellman_ford(negative.to_scipy(), indices=0)
    >>> bool(np.array_equal(reference_distances(negative, 0, (g, p)), expected))
    True
    """
    import scipy.sparse.csgraph as csgraph

    if original is None:
        return csgraph.dijkstra(graph.to_scipy(), indices=source)
    positive, potentials = original
    d = csgraph.dijkstra(positive.to_scipy(), indices=source)
    shift = float(potentials[source]) - potentials.astype(np.float64)
    return np.where(np.isfinite(d), d + shift, np.inf)


def tight_tree(graph, source, result) -> bool:
    """Whether every reached vertex but the source has a predecessor over a tight arc
    (a tree when weights are positive), and the others none.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
    >>> tight_tree(g, 0, warpath.sssp(g, 0, method="dijkstra", device="cpu"))
    True
    """
    d, pred = result.distances, result.predecessors
    n = graph.num_vertices
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    heads = np.asarray(graph.indices, dtype=np.int64)
    tight = d[tails] + graph.weights == d[heads]
    keys = tails[tight] * n + heads[tight]
    reached = np.isfinite(d)
    reached[source] = False
    chosen = pred[reached].astype(np.int64) * n + np.flatnonzero(reached)
    return bool(np.isin(chosen, keys).all() and (pred[~reached] == -1).all())


def reached_arcs(degrees, distances) -> int:
    """The arcs of the reached part (out of the vertices at a finite distance): the
    numerator of TEPS, as issue 11's 25 GTEPS counts them.

    Examples
    --------
    >>> reached_arcs(np.array([2, 1, 3]), np.array([0.0, np.inf, 4.0]))
    5
    """
    return int(degrees[np.isfinite(distances)].sum())


def time_query(run, simulated: bool) -> tuple:
    """``(whole ms, host ms, result)`` of ``run()``: CUDA events around it on a GPU."""
    if simulated:
        start = time.perf_counter()
        result = run()
        host = (time.perf_counter() - start) * 1e3
        return host, host, result
    from numba import cuda

    first, last = cuda.event(timing=True), cuda.event(timing=True)
    first.record()
    start = time.perf_counter()
    result = run()
    host = (time.perf_counter() - start) * 1e3
    last.record()
    last.synchronize()
    return cuda.event_elapsed_time(first, last), host, result


def hbf_switches(registers: int) -> dict:
    """hbf's bench-only options: ``{option: (module constant, default)}``.
    ``_registers``: the persistent kernel's register cap without near-far (0: none;
    ``registers`` is hbf's own); ``_sweep_early``, ``_sweep_heavy``: the dense sweep's forms
    (``warpath.sssp.hbf.SWEEP_EARLY``, ``SWEEP_HEAVY``).

    Examples
    --------
    >>> sorted(hbf_switches(80))
    ['_registers', '_sweep_early', '_sweep_heavy']
    """
    return {"_registers": ("KERNEL_REGISTERS", registers),
            "_sweep_early": ("SWEEP_EARLY", False),
            "_sweep_heavy": ("SWEEP_HEAVY", True)}


def measure(warpath, graph, spec: str, queries: int, predecessors: bool, check: bool,
            clock: KernelClock, simulated: bool, hbf_registers: int = 0,
            original=None, profile: int | None = None) -> dict:
    """The medians of ``queries`` warm calls from each source (see the module notes);
    ``original``: ``(graph, potentials)`` when ``graph`` has negative weights made from it
    (:func:`reference_distances`).  ``profile``: then one more call from source number
    ``profile`` (0: the vertex of most arcs), between ``cuda.profile_start()`` and
    ``profile_stop()`` on a GPU: the one call a profiler started with its capture off
    sees.  ``by_source`` holds, per source, the medians of its calls: ``(source, whole ms,
    rounds, dense rounds, relaxations)``."""
    method, options = method_spec(spec)
    sources = sources_for(graph)
    # hbf's bench-only switches (hbf_switches): set on its module for this method, to
    # their defaults when not given
    hbf = importlib.import_module("warpath.sssp.hbf")
    for option, (name, default) in hbf_switches(hbf_registers).items():
        if option in options and method != "hbf":
            raise SystemExit(f"{option} is hbf's option, not {method}'s")
        if hasattr(hbf, name):   # (an older tree may lack one)
            setattr(hbf, name, options.pop(option, default))
        elif option in options:
            raise SystemExit(f"this tree's hbf has no {name} for {option}")

    def run(source):
        return warpath.sssp(graph, source, method=method, device="cuda",
                            predecessors=predecessors, **options)

    started = time.perf_counter()
    first = run(sources[0])
    # the cold first call (compilation, upload, the graph's cached arrays), printed at once so
    # a run cut short by a time limit still says where its time went
    print(f"  {spec}: first call {time.perf_counter() - started:.1f} s", flush=True)
    sizes = first.stats.get("frontier_sizes")
    if sizes is not None:
        print(f"  {spec}: frontier sizes, round by round: {' '.join(map(str, sizes))}",
              flush=True)
    checked = None
    if check:
        checked = bool(np.array_equal(first.distances,
                                      reference_distances(graph, sources[0], original)))
        if predecessors:
            checked = checked and tight_tree(graph, sources[0], first)
    keys = ("whole_ms", "host_ms", "kernels_ms", "largest_kernel_ms", "timed_launches",
            "launches", "rounds", "relaxations", "dense_rounds", "gteps")
    per_source = [keys.index(key) for key in ("whole_ms", "rounds", "dense_rounds",
                                              "relaxations")]
    rows = []
    by_source = []
    degrees = np.diff(graph.indptr)
    for source in sources:
        source_rows = []
        arcs = None
        for _ in range(queries):
            clock.spans.clear()
            whole, host, result = time_query(lambda: run(source), simulated)
            kernels = [] if simulated else clock.kernel_ms()
            stats = result.stats
            if arcs is None:   # after the timing: the arcs out of the reached vertices
                arcs = reached_arcs(degrees, result.distances)
            source_rows.append((whole, host, sum(kernels), max(kernels, default=0.0),
                                len(kernels), stats["launches"], stats["iterations"],
                                stats["relaxations"], stats.get("dense_rounds", 0),
                                arcs / whole / 1e6))
        by_source.append((source, *(statistics.median(row[i] for row in source_rows)
                                    for i in per_source)))
        rows.extend(source_rows)
    if profile is not None:   # under the simulator the call runs, with no profiler round it
        from numba import cuda

        if not simulated:
            cuda.synchronize()
            cuda.profile_start()
        run(sources[profile])
        if not simulated:
            cuda.synchronize()
            cuda.profile_stop()
    record = {key: statistics.median(row[i] for row in rows) for i, key in enumerate(keys)}
    return {"method": spec, "check": checked, **record, "by_source": by_source}


def graph_versions(names, tiny: bool, generators, negative: bool):
    """``(name, graph, original)`` for each graph named (:func:`graph_maker`), followed
    (``negative``) by its version with negative weights, whose ``original`` is
    ``(graph, potentials)``."""
    for name in names:
        graph = graph_maker(name, tiny)(generators)
        yield name, graph, None
        if negative:
            shifted, potentials = generators.with_negative_weights(graph, seed=5,
                                                                   return_potentials=True)
            yield f"{name} with negative weights", shifted, (graph, potentials)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", nargs="+", default=list(GRAPHS),
                        help=f"of {', '.join(GRAPHS)}, or SUITE/ID (a benchmark suite's graph)")
    parser.add_argument("--methods", nargs="+", default=["hbf", "edge-bf", "harish"])
    parser.add_argument("--queries", type=int, default=3)
    parser.add_argument("--no-predecessors", action="store_true")
    parser.add_argument("--check", action="store_true", help="compare with scipy's dijkstra")
    parser.add_argument("--negative", action="store_true",
                        help="after each graph, the same with negative weights and no "
                             "negative cycle (generators.with_negative_weights, seed 5)")
    parser.add_argument("--src", help="import warpath from this source tree")
    parser.add_argument("--tiny", action="store_true", help="small graphs (simulator smoke run)")
    parser.add_argument("--profile", nargs="?", type=int, const=0, choices=range(SOURCES),
                        metavar="K", help="after each method's queries, one more from source "
                        "K (0: the vertex of most arcs, the default) inside cuda.profile_start "
                        "and profile_stop, for ncu --profile-from-start off")
    parser.add_argument("--per-source", action="store_true",
                        help="also each source's medians: whole call, rounds, dense rounds, "
                             "relaxations")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, os.path.abspath(args.src))
    import warpath
    from warpath import generators

    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    clock = KernelClock(simulated)
    # hbf's own register cap, before any ``_registers`` option changes it (0 in a tree
    # that has none)
    hbf_registers = getattr(importlib.import_module("warpath.sssp.hbf"), "KERNEL_REGISTERS", 0)
    for name in args.graphs:   # every name checked before the first graph is made
        graph_maker(name, args.tiny)
    started = time.perf_counter()
    for name, graph, original in graph_versions(args.graphs, args.tiny, generators,
                                                args.negative):
        print(f"== {name}: {graph.num_vertices:,} vertices, {graph.num_edges:,} arcs, made in "
              f"{time.perf_counter() - started:.1f} s ({warpath.__file__})", flush=True)
        for spec in args.methods:
            r = measure(warpath, graph, spec, args.queries, not args.no_predecessors,
                        args.check, clock, simulated, hbf_registers, original,
                        args.profile)
            check = "" if r["check"] is None else ("  ok" if r["check"] else "  WRONG")
            print(f"  {spec:24s} whole {r['whole_ms']:8.3f} ms  host {r['host_ms']:8.3f}  "
                  f"kernels {r['kernels_ms']:8.3f} (largest {r['largest_kernel_ms']:.3f}, "
                  f"{r['timed_launches']:.0f} of {r['launches']:.0f} launches)  rounds "
                  f"{r['rounds']:.0f}  relaxations {r['relaxations']:.3g}  dense rounds "
                  f"{r['dense_rounds']:.0f}  GTEPS {r['gteps']:.2f}{check}", flush=True)
            if args.per_source:
                for source, whole, rounds, dense, relaxations in r["by_source"]:
                    print(f"    from {source:<10d} whole {whole:8.3f} ms  rounds {rounds:.0f}  "
                          f"dense rounds {dense:.0f}  relaxations {relaxations:.3g}",
                          flush=True)
        started = time.perf_counter()
    return 0


if __name__ == "__main__":
    sys.exit(main())
