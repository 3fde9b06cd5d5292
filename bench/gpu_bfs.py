"""Issue 12's GPU BFS targets, measured on one GPU in one process.

    python bench/gpu_bfs.py                                # every graph (about 5 minutes)
    python bench/gpu_bfs.py --graphs rmat-22 --sources 16  # one graph
    python bench/gpu_bfs.py --graphs ne --datasets .carry/datasets
    python bench/gpu_bfs.py --tiny                         # small shapes (simulator smoke run)

Per graph and GPU method: the first call (JIT and the graph's upload, excluded), then
``--repeat`` timed queries in a row per source, their median kept (CUDA events around the
call; levels stay on the GPU).  The sources: the vertex of most arcs, then random ones with
arcs (Graph500's search keys).  Checked against the CPU ``queue`` BFS for the first source.  Printed per method: median and worst time over
the sources, GTEPS in the Graph500 convention (undirected edges of the reached component,
counted once, over the time; for a directed graph its arcs) and the arcs the method actually
inspected per second (``stats["relaxations"]``).  The ``batch`` line: ``warpath.bfs(g,
sources=64 sources)`` (method ``multi-source``; the median of ``--repeat``, at least 5,
warm batches) against the same 64 sources run one by one
with the single-source method named by ``--single`` (default ``direction-optimizing``),
for 64 random vertices and for 64 search keys, the singles' results dropped one by one
and kept.

Targets (issue 12, H100): random-10m under 10 ms; rmat-22 at least 100 GTEPS; NE under 15 ms
from any source (the worst of the sources); the 64-source batch on rmat-20 at least 10x faster
than 64 single searches.  ``--out FILE`` writes the records as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics

import numpy as np

GRAPHS = {
    "random-10m": lambda gen, read: gen.random(10_000_000, 60_000_000, seed=1),
    "rmat-22": lambda gen, read: gen.rmat(22, 16, seed=1, directed=False),
    "rmat-20": lambda gen, read: gen.rmat(20, 16, seed=1, directed=False),
    "random-1m-16m": lambda gen, read: gen.random(1_000_000, 16_000_000, seed=1),
    "ne": lambda gen, read: read("USA-road-NE.pace16.gr.xz"),
    "ny": lambda gen, read: read("USA-road-NY.pace16.gr.xz"),
}
TINY = {
    "random-10m": lambda gen, read: gen.random(300, 1800, seed=1),
    "rmat-22": lambda gen, read: gen.rmat(8, 8, seed=1, directed=False),
    "rmat-20": lambda gen, read: gen.rmat(7, 8, seed=1, directed=False),
    "random-1m-16m": lambda gen, read: gen.random(200, 3200, seed=1),
    "ne": lambda gen, read: gen.grid(12, 12, seed=1, directed=False),
    "ny": lambda gen, read: gen.grid(8, 8, seed=1, directed=False),
}
METHODS = ("queue", "direction-optimizing", "harish")


def graph500_edges(graph, levels) -> int:
    """Edges of the reached component: arcs out of reached vertices, halved when undirected
    (self-loops, stored once, counted once)."""
    reached = levels >= 0
    arcs = int(graph.out_degrees()[reached].sum())
    if graph.directed:
        return arcs
    loops = int(np.count_nonzero((graph.tails() == graph.indices) & reached[graph.tails()]))
    return (arcs + loops) // 2


def search_keys(graph, count: int, seed: int = 12) -> list:
    """The sources: the vertex of most arcs, then ``count - 1`` drawn at random among the
    vertices with at least one arc besides self-loops (Graph500's rule for search keys:
    an isolated vertex, ~30% of an R-MAT graph's, is no search at all).

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 2, 3], [1, 2, 0], directed=False, num_vertices=5)
    >>> sorted(set(search_keys(g, 6)))
    [0, 1, 3]
    """
    tails = graph.tails()
    degrees = graph.out_degrees() - np.bincount(tails[tails == graph.indices],
                                                minlength=graph.num_vertices)
    candidates = np.flatnonzero(degrees > 0)
    rng = np.random.default_rng(seed)
    return [int(np.argmax(graph.out_degrees()))] + rng.choice(candidates, size=count - 1).tolist()


def time_method(warpath, clock, graph, sources, method, keep=False, repeat=1, **options):
    """(seconds per source, per source: ``(Graph500 edges, arcs inspected)``, first result),
    the first call excluded.  Each source is searched ``repeat`` times in a row and its
    median kept (warm queries); its result is read and dropped before the next source, as
    a program running query after query would (their device memory is then reused), and
    the edges are counted after all the timing; ``keep`` keeps every result instead
    (returned in place of the first)."""
    warpath.bfs(graph, int(sources[0]), method=method, device="cuda", **options)
    times, found, kept = [], [], []
    for s in sources:
        runs = []
        for _ in range(max(repeat, 1)):
            seconds, result = clock.measure(
                lambda: warpath.bfs(graph, int(s), method=method, device="cuda", **options))
            runs.append(seconds)
        times.append(statistics.median(runs))
        found.append((result.levels, result.stats["relaxations"]))
        if keep or not kept:
            kept.append(result)
        del result
    counts = [(graph500_edges(graph, levels), inspected) for levels, inspected in found]
    return times, counts, kept if keep else kept[0]


def run_graph(warpath, clock, name, graph, sources, methods, records, repeat=3):
    check = warpath.bfs(graph, int(sources[0]), method="queue", device="cpu").levels
    for method in methods:
        times, counts, first = time_method(warpath, clock, graph, sources, method,
                                           repeat=repeat)
        ok = bool(np.array_equal(first.levels, check))
        gteps = [e / t / 1e9 for (e, _), t in zip(counts, times)]
        inspected = [a / t / 1e9 for (_, a), t in zip(counts, times)]
        record = {"graph": name, "method": method, "median_ms": 1e3 * statistics.median(times),
                  "worst_ms": 1e3 * max(times), "gteps_graph500": statistics.median(gteps),
                  "arcs_inspected_per_s_e9": statistics.median(inspected),
                  "levels": int(first.levels.max()) + 1, "check": ok,
                  "pull_rounds": first.stats.get("pull_rounds")}
        records.append(record)
        print(f"{name:14s} {method:22s} median {record['median_ms']:9.3f} ms  worst "
              f"{record['worst_ms']:9.3f} ms  {record['gteps_graph500']:8.2f} GTEPS (Graph500)  "
              f"{record['arcs_inspected_per_s_e9']:8.2f} G arcs inspected/s  levels "
              f"{record['levels']}  {'ok' if ok else 'WRONG'}", flush=True)


def run_batch(warpath, clock, name, graph, single, records, repeat=5):
    """The 64-source batch against 64 single searches from the same sources, for 64 random
    vertices (isolated ones included) and for 64 Graph500 search keys.  The batch's time is
    the median of ``repeat`` warm batches: one batch is one sample, where the singles' time
    sums 64 (each source searched once, the first call of the run excluded).
    The singles are timed twice: each result dropped before the next query (its device
    memory reused) and every result kept, as a program wanting the 64 rows would (each
    query then allocates)."""
    for kind, sources in (("random vertices", np.random.default_rng(7).integers(
            0, graph.num_vertices, size=64)), ("search keys", search_keys(graph, 64))):
        for predecessors in (False, True):
            run = lambda: warpath.bfs(graph, sources=sources, method="multi-source",
                                      device="cuda", predecessors=predecessors)
            run()
            seconds, batch = [], None
            for _ in range(repeat):
                batch = None   # the last batch dropped before the next, as singles' results are
                took, batch = clock.measure(run)
                seconds.append(took)
            batch_s = statistics.median(seconds)
            dropped, _, _ = time_method(warpath, clock, graph, sources, single,
                                        predecessors=predecessors)
            kept, _, results = time_method(warpath, clock, graph, sources, single, keep=True,
                                           predecessors=predecessors)
            ok = all(np.array_equal(batch.levels[i], r.levels) for i, r in enumerate(results))
            record = {"graph": name, "method": f"multi-source vs 64 x {single}",
                      "sources": kind, "predecessors": predecessors,
                      "batch_ms": 1e3 * batch_s, "singles_dropped_ms": 1e3 * sum(dropped),
                      "singles_kept_ms": 1e3 * sum(kept),
                      "speedup_dropped": sum(dropped) / batch_s,
                      "speedup_kept": sum(kept) / batch_s, "check": ok}
            records.append(record)
            print(f"{name:14s} batch of 64 {kind} (predecessors={predecessors}): "
                  f"{record['batch_ms']:.3f} ms vs 64 x {single} "
                  f"{record['singles_dropped_ms']:.3f} ms dropped "
                  f"({record['speedup_dropped']:.1f}x), {record['singles_kept_ms']:.3f} ms "
                  f"kept ({record['speedup_kept']:.1f}x)  {'ok' if ok else 'WRONG'}",
                  flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", nargs="+", default=list(GRAPHS))
    parser.add_argument("--methods", nargs="+", default=list(METHODS))
    parser.add_argument("--sources", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3,
                        help="searches per source in a row; the median is kept")
    parser.add_argument("--single", default="direction-optimizing")
    parser.add_argument("--batch-graph", default="rmat-20")
    parser.add_argument("--datasets", default=os.environ.get("WARPATH_DATASETS",
                                                             "../shared/datasets"))
    parser.add_argument("--tiny", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args(argv)

    import warpath
    from warpath.benchmark.timing import Clock

    def read(file):
        return warpath.read(os.path.join(args.datasets, file))

    shapes = TINY if args.tiny else GRAPHS
    clock = Clock("cuda")
    records = []
    for name in args.graphs:
        graph = shapes[name](warpath.generators, read)
        sources = search_keys(graph, args.sources)
        print(f"{name}: {graph}", flush=True)
        run_graph(warpath, clock, name, graph, sources, args.methods, records, args.repeat)
        if name == args.batch_graph:
            run_batch(warpath, clock, name, graph, args.single, records, max(args.repeat, 5))
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"clock": clock.name, "records": records}, out, indent=1)
    return 0 if all(r["check"] for r in records) else 1


if __name__ == "__main__":
    raise SystemExit(main())
