"""Issue 13's GPU many-source targets (part A: task-parallel), measured on one GPU in one process.

    python bench/gpu_apsp.py                         # every part at the issue's sizes
    python bench/gpu_apsp.py --quick                 # smaller sizes: a couple of minutes
    python bench/gpu_apsp.py --parts table1 launches --table1-vertices 4677
    python bench/gpu_apsp.py --parts apsp --apsp-vertices 100000 --apsp-dtype int32
    python bench/gpu_apsp.py --parts multi --multi-vertices 1000000 --multi-sources 1000
    python bench/gpu_apsp.py --parts table1 multi --src /path/to/old/src   # another tree
    python bench/gpu_apsp.py --parts multi --variants "whole_items=0,form=lanes" "pairs=0"
    NUMBA_ENABLE_CUDASIM=1 python bench/gpu_apsp.py --tiny   # simulator smoke run

Every line is one measurement with its peer measured in the same run, wall-clock
(``perf_counter`` around the call, the GPU synchronised before and after), after a first
call on the same graph (two sources) that compiles the kernels and uploads the graph.
task-parallel leaves a result that fits on the GPU there (``deliver="auto"``) and streams
larger ones to host memory; ``deliver="host"`` streams every launch's rows to the host
inside the call, which the lines comparing with peers that deliver to the host use.

- ``table1``: Okuyama Table 1 (V = 4,677: random E = 16K and power-law E = 16K, max
  out-degree 834, both w_max = 4096; ring and complete, w = 1), APSP without predecessors
  (the paper times the costs): ``task-parallel`` against ``repeated-sssp`` (one hbf run per
  source) and scipy's ``dijkstra``.  The peers run on ``--peer-sources`` evenly spaced
  sources and are scaled to all V (the line says so); their rows are checked against
  task-parallel's.  Target: task-parallel at least 2.8x faster than repeated-sssp on every
  topology.  task-parallel runs with ``deliver="host"`` (rows in host memory, as the
  peers'); the line also gives its time with the matrix left on the GPU.  Each of
  ``--variants`` adds a line per graph: task-parallel with those options, checked
  against the default's rows.
- ``launches``: task-parallel APSP on the Table 1 random and ring graphs with 1, 4, 16
  groups of 32 per launch, the default rule (L2-sized launches) and all sources in one
  launch: what several groups per launch buy.
- ``paths``: predecessors on against off (Okuyama Fig. 14: +3.0% to +7.7%), task-parallel
  APSP on the Table 1 graphs.
- ``apsp``: APSP of ``random(V, 6V)`` (Harish & Narayanan's 100K graph: about 22 minutes
  on an 8800 GTX) delivered to host memory as an int32 (or float32) matrix, no
  predecessors: streamed launch by launch (``deliver="host"``), and left on the GPU then
  read to the host in one copy (when it fits there); the estimate beside the process's
  peak resident memory and the GPU memory one launch holds; a sample of rows checked
  against scipy.  Target: under 60 s.
- ``multi``: ``multi_source`` from ``--multi-sources`` random sources of
  ``random(V, 6V)`` against as many ``warpath.sssp(..., method="hbf")`` calls from Python,
  both leaving their distances on the GPU; and both delivering them to host memory
  (``deliver="host"`` against each row copied to the host).  Target: at least 10x faster.

``--out FILE`` writes the records as JSON.  Exit status 1 if a check failed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import time

import numpy as np

TABLE1 = ("random", "power-law", "ring", "complete")


def table1_graph(gen, kind, n):
    """Okuyama Table 1's graphs at ``n`` vertices (the paper's E = 16K scaled as E = 3.5 n)."""
    if kind == "random":
        return gen.random(n, round(16384 * n / 4677), seed=2009, max_weight=4096)
    if kind == "power-law":
        return gen.power_law(n, 3.5, max(4, round(834 * n / 4677)), seed=2009, max_weight=4096)
    if kind == "ring":
        return gen.ring(n, seed=2009, max_weight=1)
    return gen.complete(n, seed=2009, max_weight=1)


class Bench:
    """The clock, the records and the checks of one run."""

    def __init__(self, warpath, out):
        from numba import cuda

        self.warpath = warpath
        self.cuda = cuda
        self.records = []
        self.out = out

    def wall(self, call):
        """``(seconds, result)`` of ``call()``, the GPU idle before and after."""
        self.cuda.synchronize()
        start = time.perf_counter()
        result = call()
        self.cuda.synchronize()
        return time.perf_counter() - start, result

    def many(self, graph, sources, method, **options):
        """A timed multi-source run after a two-source first call (compilation, upload).
        The keys of :data:`SWITCHES` among ``options`` set task-parallel's module switches
        for this run (``form``: "spread" or "lanes", the way of walking an item of 32 rows;
        ``read_first``: reads before the round's atomics, in trees that still have that
        switch, before 2026-11-28; ``whole_registers``: the register cap of
        ``whole_items=True``, 0 for none; ``shuffles``: whole items' arcs shared by
        shuffles; ``pairs``: shuffled whole items two at a time; ``claims``: whole items'
        warps claim chunks from a counter), else its defaults."""
        w = self.warpath
        from warpath.apsp import task_parallel

        saved = {}
        for key in [key for key in options if key in SWITCHES]:
            name, values = SWITCHES[key]
            value = options.pop(key)
            if value not in values:
                raise SystemExit(f"{key} must be one of {list(values)}, not {value!r}")
            if not hasattr(task_parallel, name):
                raise SystemExit(f"{key}={value}: this warpath tree has no {name}")
            saved[name] = getattr(task_parallel, name)
            setattr(task_parallel, name, values[value])
        try:
            w.multi_source(graph, sources[:2], method=method, device="cuda", **options)
            return self.wall(lambda: w.multi_source(graph, sources, method=method,
                                                    device="cuda", **options))
        finally:
            for name, value in saved.items():
                setattr(task_parallel, name, value)

    def record(self, line, **fields):
        self.records.append(fields)
        print(line, flush=True)

    def write(self):
        if self.out:
            with open(self.out, "w") as out:
                json.dump({"records": self.records}, out, indent=1,
                      default=lambda o: o.item() if hasattr(o, "item") else str(o))


def spaced(n, count):
    """``count`` evenly spaced sources of 0..n-1 (all of them when count is 0 or >= n)."""
    if count <= 0 or count >= n:
        return np.arange(n, dtype=np.int64)
    return np.unique(np.linspace(0, n - 1, count).astype(np.int64))


def same_rows(ours, peer_distances, rows):
    return bool(np.array_equal(ours.distances[rows], peer_distances))


def part_table1(bench, args):
    from scipy.sparse import csgraph

    w = bench.warpath
    for kind in TABLE1:
        graph = table1_graph(w.generators, kind, args.table1_vertices)
        n = graph.num_vertices
        every = np.arange(n, dtype=np.int64)
        ours_s, ours = bench.many(graph, every, "task-parallel", predecessors=False,
                                  deliver="host")
        kept_s, _ = bench.many(graph, every, "task-parallel", predecessors=False)
        sample = spaced(n, args.peer_sources)
        peer_s, peer = bench.many(graph, sample, "repeated-sssp", predecessors=False)
        scale = n / len(sample)
        scipy_sample = spaced(n, args.scipy_sources)
        scipy_s, expected = bench.wall(lambda: csgraph.dijkstra(graph.to_scipy(),
                                                                indices=scipy_sample))
        ok = same_rows(ours, peer.distances, sample) and same_rows(ours, expected, scipy_sample)
        peer_all, scipy_all = peer_s * scale, scipy_s * n / len(scipy_sample)
        bench.record(
            f"table1 {kind:9s} V={n:,} E={graph.num_edges:,}  task-parallel {ours_s:8.3f} s "
            f"(width {ours.stats['launch_width']}, {ours.stats['batches']} launches, "
            f"{ours.stats['iterations']} rounds; {kept_s:8.3f} s left on the GPU) | "
            f"repeated-sssp (hbf) {peer_all:8.3f} s "
            f"(from {len(sample)} sources) {peer_all / ours_s:6.1f}x | scipy dijkstra "
            f"{scipy_all:8.3f} s (from {len(scipy_sample)}) {scipy_all / ours_s:6.1f}x | "
            f"{'ok' if ok else 'WRONG'}",
            part="table1", graph=kind, vertices=n, arcs=graph.num_edges, seconds=ours_s,
            seconds_left_on_gpu=kept_s,
            repeated_sssp_seconds=peer_all, scipy_seconds=scipy_all,
            speedup_vs_repeated=peer_all / ours_s, speedup_vs_scipy=scipy_all / ours_s,
            stats={k: v for k, v in ours.stats.items() if not isinstance(v, str)}, check=ok)
        for options in [parse_variant(text) for text in args.variants]:
            variant_s, variant = bench.many(graph, every, "task-parallel", predecessors=False,
                                            deliver="host", **options)
            same = same_rows(variant, ours.distances[sample], sample)
            label = ", ".join(f"{key}={value}" for key, value in options.items())
            bench.record(
                f"table1 {kind:9s} {label} (spread {variant.stats.get('spread')}): "
                f"{variant_s:8.3f} s, {variant.stats['iterations']} rounds (default "
                f"{ours_s:8.3f} s) | "
                f"repeated-sssp {peer_all / variant_s:6.1f}x | {'ok' if same else 'WRONG'}",
                part="table1-variant", graph=kind, vertices=n, options=options,
                seconds=variant_s, default_seconds=ours_s, check=same)


def part_launches(bench, args):
    w = bench.warpath
    for kind in ("random", "ring"):
        graph = table1_graph(w.generators, kind, args.table1_vertices)
        every = np.arange(graph.num_vertices, dtype=np.int64)
        groups = -(-graph.num_vertices // 32)
        base = None
        for launch_groups in (1, 4, 16, None, groups):
            seconds, m = bench.many(graph, every, "task-parallel", predecessors=False,
                                    launch_groups=launch_groups)
            base = seconds if base is None else base
            label = "default" if launch_groups is None else str(launch_groups)
            bench.record(
                f"launches {kind:6s} V={graph.num_vertices:,} groups per launch {label:>7s} "
                f"(width {m.stats['launch_width']:5d}, {m.stats['batches']:4d} launches, "
                f"{m.stats['iterations']:7d} rounds): {seconds:8.3f} s, "
                f"{base / seconds:5.2f}x the one-group launches",
                part="launches", graph=kind, launch_groups=launch_groups, seconds=seconds,
                width=m.stats["launch_width"], rounds=m.stats["iterations"], check=True)


def part_paths(bench, args):
    w = bench.warpath
    for kind in TABLE1:
        graph = table1_graph(w.generators, kind, args.table1_vertices)
        every = np.arange(graph.num_vertices, dtype=np.int64)
        off_s, off = bench.many(graph, every, "task-parallel", predecessors=False)
        on_s, on = bench.many(graph, every, "task-parallel", predecessors=True)
        ok = bool(np.array_equal(on.distances, off.distances))
        target = int(np.argmax(np.where(np.isfinite(on.distances[0]), on.distances[0], -1)))
        ok = ok and on.path(0, target)[-1] == target
        bench.record(
            f"paths  {kind:9s} V={graph.num_vertices:,} task-parallel without predecessors "
            f"{off_s:8.3f} s, with {on_s:8.3f} s: +{100 * (on_s / off_s - 1):5.1f}% "
            f"(Okuyama Fig. 14: +3.0% to +7.7%) | {'ok' if ok else 'WRONG'}",
            part="paths", graph=kind, seconds_without=off_s, seconds_with=on_s,
            overhead=on_s / off_s - 1, check=ok)


def part_apsp(bench, args):
    from scipy.sparse import csgraph

    from warpath.apsp import gpu_rows, memory
    from warpath.result import float_blocks

    w = bench.warpath
    n = args.apsp_vertices
    weights = "float" if args.apsp_dtype == "float32" else "int"
    graph = w.generators.random(n, 6 * n, seed=2007, weights=weights)
    if weights == "float":
        graph = w.Graph(graph.indptr, graph.indices, graph.weights.astype(np.float32))
    estimate = memory.estimate(graph, method="task-parallel", device="cuda",
                               predecessors=False, float_distances=False)
    w.multi_source(graph, [0, 1], method="task-parallel", device="cuda", predecessors=False)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    seconds, m = bench.wall(lambda: w.apsp(graph, method="task-parallel", device="cuda",
                                           predecessors=False, deliver="host"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    raw = m._arrays._raw()   # the matrix as delivered (.distances would add a float64 copy)
    rows = spaced(n, 8)
    got = np.vstack([block for _, block in float_blocks(raw[rows])])
    expected = csgraph.dijkstra(graph.to_scipy(), indices=rows)
    ok = bool(np.allclose(got, expected, rtol=1e-5))
    stats = dict(m.stats)
    del m, raw
    gc.collect()
    try:   # the matrix left on the GPU, then read to the host in one copy
        kept_s, kept = bench.wall(lambda: w.apsp(graph, method="task-parallel", device="cuda",
                                                 predecessors=False, deliver="device"))
        read_s, read = bench.wall(lambda: kept._arrays._raw())
        # both in float form: the raw int32 matrix marks unreachable pairs by its sentinel
        kept_rows = np.vstack([block for _, block in float_blocks(read[rows])])
        ok = ok and bool(np.array_equal(kept_rows, got))
        kept_line = f"left on the GPU {kept_s:8.2f} s + read to the host {read_s:6.2f} s"
        del kept, read
    except w.MemoryLimitError as error:
        kept_s = read_s = None
        kept_line = f"not left on the GPU ({error})"
    gc.collect()
    dtype = np.dtype(np.float32 if weights == "float" else np.int32)
    launch = stats["launch_width"] * n * gpu_rows.pair_bytes(dtype, graph.indices.dtype,
                                                             dtype, False)
    bench.record(
        f"apsp   random V={n:,} E={graph.num_edges:,} {dtype} matrix streamed to host: "
        f"{seconds:8.2f} s (target < 60 s; Harish & Narayanan: ~22 min on an 8800 GTX); "
        f"{kept_line} | matrix {n * n * dtype.itemsize / 2**30:.1f} GiB, estimate "
        f"{estimate.host_bytes / 2**30:.1f} GiB host + {estimate.gpu_bytes / 2**30:.2f} GiB "
        f"GPU, peak resident {max(peak, before) / 2**30:.1f} GiB (before the call "
        f"{before / 2**30:.1f} GiB), launches of {stats['launch_width']} sources "
        f"({launch / 2**20:.0f} MiB on the GPU), {stats['batches']} launches, "
        f"{stats['iterations']} rounds | {'ok' if ok else 'WRONG'} ({len(rows)} rows against "
        f"scipy)",
        part="apsp", vertices=n, arcs=graph.num_edges, dtype=str(dtype), seconds=seconds,
        seconds_left_on_gpu=kept_s, seconds_read=read_s, matrix_bytes=n * n * dtype.itemsize,
        estimate_host=estimate.host_bytes, estimate_gpu=estimate.gpu_bytes, peak_rss=peak,
        rss_before=before, launch_bytes=int(launch),
        stats={k: v for k, v in stats.items() if not isinstance(v, str)}, check=ok)


#: ``--multi-graph``: the many-source part's graph on ``--multi-vertices`` vertices, 6 arcs
#: a vertex (the issue's ``random(1M, 6M)``, or a power-law graph of that size whose
#: largest hub has a tenth of the vertices as arcs).
MULTI_GRAPHS = ("random", "power-law")


def multi_graph(gen, name, n):
    """The many-source part's graph ``name`` (:data:`MULTI_GRAPHS`) on ``n`` vertices.

    Examples
    --------
    >>> import warpath
    >>> multi_graph(warpath.generators, "power-law", 1000).num_vertices
    1000
    """
    if name == "power-law":
        return gen.power_law(n, 6, max(2, n // 10), seed=2008)
    return gen.random(n, 6 * n, seed=2008)


def part_multi(bench, args):
    w = bench.warpath
    n = args.multi_vertices
    graph = multi_graph(w.generators, args.multi_graph, n)
    sources = np.random.default_rng(13).integers(0, n, size=args.multi_sources)
    ours_s, left = bench.many(graph, sources, "task-parallel", predecessors=False)
    left_s, _ = bench.wall(lambda: left.distances)   # float64 made on the GPU, then copied
    left = None   # the GPU matrix freed before the next runs
    host_s, ours = bench.many(graph, sources, "task-parallel", predecessors=False,
                              deliver="host")

    def singles(method, copy):
        rows = []
        for s in sources.tolist():
            r = w.sssp(graph, s, method=method, device="cuda", predecessors=False)
            rows.append(r.device_distances.copy_to_host() if copy else r)
        return rows

    lazy = {}   # every single-source method of args.single_methods, timed in this call
    for method in args.single_methods:
        w.sssp(graph, int(sources[0]), method=method, device="cuda", predecessors=False)
        lazy[method], _ = bench.wall(lambda: singles(method, False))
    best = min(lazy, key=lazy.get)   # the baseline: the fastest of them
    lazy_s = lazy[best]
    copied_s, copied = bench.wall(lambda: singles(best, True))
    raw = ours._arrays._raw()   # the matrix in the GPU's type
    float_s, _ = bench.wall(lambda: ours.distances)   # float64 with inf, as scipy gives it
    ok = all(np.array_equal(raw[i], copied[i]) for i in range(0, len(sources), 97))
    bench.record(
        f"multi  {args.multi_graph} V={n:,} E={graph.num_edges:,} {len(sources)} sources, left on the GPU: "
        f"multi_source (task-parallel, width {ours.stats['launch_width']}) {ours_s:8.3f} s | "
        f"{len(sources)} x sssp({best}) from Python {lazy_s:8.3f} s: {lazy_s / ours_s:6.1f}x "
        f"(singles: {', '.join(f'{m} {t:.3f} s' for m, t in lazy.items())}) "
        f"(target >= 10x); delivered to host memory: {host_s:8.3f} s | {copied_s:8.3f} s: "
        f"{copied_s / host_s:6.1f}x; reading .distances (float64): left on the GPU "
        f"{left_s:.3f} s, delivered ({raw.dtype}) {float_s:.3f} s | {'ok' if ok else 'WRONG'}",
        part="multi", vertices=n, arcs=graph.num_edges, sources=len(sources), seconds=ours_s,
        seconds_to_host=host_s, singles_seconds=lazy_s, singles_copied_seconds=copied_s,
        singles_method=best, singles_by_method=lazy, seconds_read_left=left_s,
        seconds_read_float64=float_s,
        speedup=lazy_s / ours_s, speedup_to_host=copied_s / host_s, check=ok)
    variants = [{"near_far": True, "delta": delta} for delta in args.near_far_deltas]
    variants += [parse_variant(text) for text in args.variants]
    for options in variants:   # task-parallel with other options (issue 13)
        near_s, near = bench.many(graph, sources, "task-parallel", predecessors=False,
                                  **options)
        same = all(np.array_equal(near._arrays._raw()[i], copied[i])
                   for i in range(0, len(sources), 97))
        label = ", ".join(f"{key}={value}" for key, value in options.items())
        bench.record(
            f"multi  {label} (spread {near.stats.get('spread')}): {near_s:8.3f} s, "
            f"{near.stats['iterations']:,} rounds, {near.stats['relaxations']:,} relaxations "
            f"(plain: {ours.stats['iterations']:,}, {ours.stats['relaxations']:,}) | "
            f"{len(sources)} x "
            f"sssp({best}) {lazy_s:8.3f} s: {lazy_s / near_s:6.1f}x | {'ok' if same else 'WRONG'}",
            part="multi-variant", vertices=n, arcs=graph.num_edges, sources=len(sources),
            options=options, launch_width=near.stats["launch_width"], seconds=near_s,
            rounds=near.stats["iterations"],
            relaxations=near.stats["relaxations"], singles_seconds=lazy_s,
            speedup=lazy_s / near_s, check=same)


#: The ways task-parallel walks an item of 32 rows: its switch SPREAD_ITEMS for each.
ITEM_FORMS = {"spread": True, "lanes": False}
#: Variant keys that set a module switch of task-parallel for one run: the switch's name
#: and its value for each value the key takes.
SWITCHES = {"form": ("SPREAD_ITEMS", ITEM_FORMS),
            "read_first": ("READ_FIRST", {False: False, True: True}),
            "shuffles": ("WHOLE_ITEM_SHUFFLES", {False: False, True: True}),
            "pairs": ("WHOLE_ITEM_PAIRS", {False: False, True: True}),
            "claims": ("WHOLE_ITEM_CLAIMS", {False: False, True: True}),
            "whole_registers": ("WHOLE_ITEM_REGISTERS",
                                {cap: cap for cap in (0, 40, 48, 56, 64, 72, 80, 96)})}


def parse_variant(text):
    """``"frontier=1,near_far=1,delta=50"`` as task-parallel options (numbers; 0 and 1 of
    ``frontier``, ``near_far``, ``read_first``, ``whole_items``, ``shuffles``, ``pairs``
    and ``claims`` as booleans; ``form=lanes`` names a way of walking items, see
    :data:`ITEM_FORMS`).

    Examples
    --------
    >>> parse_variant("near_far=1,delta=50,form=lanes,read_first=0")
    {'near_far': True, 'delta': 50.0, 'form': 'lanes', 'read_first': False}
    >>> parse_variant("whole_items=1,whole_registers=64")
    {'whole_items': True, 'whole_registers': 64}
    """
    options = {}
    for pair in filter(None, text.split(",")):
        key, value = pair.split("=")
        if key == "form":
            options[key] = value
            continue
        number = float(value)
        if key in ("frontier", "near_far", "read_first", "whole_items", "shuffles", "pairs",
                   "claims"):
            options[key] = bool(number)
        else:
            options[key] = int(number) if number.is_integer() and key != "delta" else number
    return options


PARTS = {"table1": part_table1, "launches": part_launches, "paths": part_paths,
         "apsp": part_apsp, "multi": part_multi}
SIZES = {  # --quick and --tiny: (table1 V, peer sources, scipy sources, apsp V, multi V, sources)
    "quick": (1500, 128, 64, 20_000, 200_000, 200),
    "tiny": (40, 8, 8, 60, 200, 6),
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=list(PARTS))
    parser.add_argument("--table1-vertices", type=int, default=4677)
    parser.add_argument("--peer-sources", type=int, default=512,
                        help="sources the repeated-sssp peer runs (0: all), scaled to V")
    parser.add_argument("--scipy-sources", type=int, default=128,
                        help="sources scipy's dijkstra runs (0: all), scaled to V")
    parser.add_argument("--apsp-vertices", type=int, default=100_000)
    parser.add_argument("--apsp-dtype", choices=("int32", "float32"), default="int32")
    parser.add_argument("--multi-vertices", type=int, default=1_000_000)
    parser.add_argument("--multi-sources", type=int, default=1000)
    parser.add_argument("--multi-graph", choices=MULTI_GRAPHS, default="random")
    parser.add_argument("--single-methods", nargs="+", default=["hbf", "edge-bf", "harish"],
                        help="single-source methods timed as multi's baseline (the fastest "
                             "is the one compared)")
    parser.add_argument("--near-far-deltas", type=float, nargs="*", default=[],
                        help="also time multi with task-parallel's near_far at these deltas")
    parser.add_argument("--variants", nargs="*", default=[],
                        help="also time table1 and multi with these task-parallel options, "
                             "each 'key=value,...' (e.g. 'frontier=1,near_far=1,delta=50')")
    parser.add_argument("--quick", action="store_true", help="smaller sizes (see SIZES)")
    parser.add_argument("--tiny", action="store_true", help="simulator-sized smoke run")
    parser.add_argument("--out")
    parser.add_argument("--src", help="import warpath from this source tree")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, os.path.abspath(args.src))
    mode = "tiny" if args.tiny else "quick" if args.quick else None
    if mode:
        (args.table1_vertices, args.peer_sources, args.scipy_sources, args.apsp_vertices,
         args.multi_vertices, args.multi_sources) = SIZES[mode]

    import warpath

    from warpath.device import gpu_status

    print(f"device: {gpu_status()[1]} ({warpath.__file__})", flush=True)
    bench = Bench(warpath, args.out)
    for part in args.parts:
        PARTS[part](bench, args)
    bench.write()
    return 0 if all(r["check"] for r in bench.records) else 1


if __name__ == "__main__":
    raise SystemExit(main())
