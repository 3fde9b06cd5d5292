"""Where a warm GPU BFS query's time goes: before the launch, the kernel, after it (issue 12).

    python bench/gpu_bfs_split.py                          # rmat(22, 16), 8 keys x 7 queries
    python bench/gpu_bfs_split.py --plain                  # the bench's clock only
    python bench/gpu_bfs_split.py --src /path/to/old/src   # another tree (run both in turn)
    python bench/gpu_bfs_split.py --scale 8 --keys 2 --queries 2   # simulator smoke run

``direction-optimizing`` from Graph500 search keys (``gpu_bfs.search_keys``), warm.  Each
query is timed as ``gpu_bfs.py`` times it (CUDA events around the call); without
``--plain`` also with events right before and after the persistent kernel's launch, which
split the call into the host's time before the launch, the kernel (with the launch's own
driver time) and what follows it, and with ``perf_counter`` marks at the engine's steps
(``LevelRun.reused``, ``LevelRun.start``, the direction's restart, ``LevelRun.rounds``,
``PersistentRounds.prepare``, the launch, ``PendingOutcome``, ``LevelRun.finish``): the
median time between consecutive marks is printed as ``from->to=us``.  Each pass ends with
``/proc/stat``'s share of user, system, idle and steal time over the pass and the
process's own CPU use, to tell the host's slow phases from our own work.  The graph is
cached in ``/tmp`` between runs.  Under the CUDA simulator the clocks are ``perf_counter``
and the split is not made.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

#: The engine's steps marked in a split query: (owner path, attribute, label).
MARKED = (("warpath.bfs.gpu_levels", "LevelRun", "reused", "reused"),
          ("warpath.bfs.gpu_levels", "LevelRun", "start", "start"),
          ("warpath.bfs.gpu_levels", "LevelRun", "rounds", "rounds"),
          ("warpath.bfs.gpu_levels", "LevelRun", "finish", "finish"),
          ("warpath.cuda.direction", None, "restart_direction", "restart"),
          ("warpath.cuda.enactor", "PersistentRounds", "prepare", "prepare"),
          ("warpath.cuda.enactor", "PendingOutcome", "__init__", "pending"))


def cached_rmat(warpath, scale: int, folder: str = "/tmp"):
    """rmat(scale, 16) undirected, unweighted, kept in ``folder`` between runs."""
    path = os.path.join(folder, f"warpath-rmat{scale}-16.npz")
    if not os.path.exists(path):
        g = warpath.generators.rmat(scale, 16, seed=1, directed=False)
        np.savez(path, indptr=g.indptr, indices=g.indices)
    saved = np.load(path)
    return warpath.Graph(saved["indptr"], saved["indices"], None, directed=False)


class Split:
    """``perf_counter`` marks at the engine's steps and events around the launch."""

    def __init__(self):
        import importlib

        from numba import cuda

        self.cuda, self.marks, self.launch_events = cuda, [], []
        for module_name, owner_name, attribute, label in MARKED:
            module = importlib.import_module(module_name)
            owner = module if owner_name is None else getattr(module, owner_name)
            self._mark(owner, attribute, label)
        enactor = importlib.import_module("warpath.cuda.enactor")
        launch = enactor.launch

        def timed_launch(*args, **options):
            self.marks.append(("launch>", time.perf_counter_ns()))
            before = cuda.event(timing=True)
            before.record()
            launch(*args, **options)
            after = cuda.event(timing=True)
            after.record()
            self.launch_events.append((before, after))
            self.marks.append(("launch<", time.perf_counter_ns()))

        enactor.launch = timed_launch

    def _mark(self, owner, attribute, label):
        found = owner.__dict__[attribute]
        is_class_method = isinstance(found, classmethod)
        inner = found.__func__ if is_class_method else found
        marks = self.marks

        def marked(*args, **options):
            marks.append((label + ">", time.perf_counter_ns()))
            result = inner(*args, **options)
            marks.append((label + "<", time.perf_counter_ns()))
            return result

        setattr(owner, attribute, classmethod(marked) if is_class_method else marked)

    def clear(self):
        self.marks.clear()
        self.launch_events.clear()


def query(warpath, graph, source, split, simulated: bool) -> dict:
    """One timed query: ``whole`` ms (and, split, ``pre``/``kernel``/``post`` and the steps)."""
    if split is not None:
        split.clear()
    if simulated:
        start = time.perf_counter()
        result = warpath.bfs(graph, source, method="direction-optimizing", device="cuda")
        result.stats
        return {"whole": (time.perf_counter() - start) * 1e3}
    from numba import cuda

    first, last = cuda.event(timing=True), cuda.event(timing=True)
    first.record()
    start = time.perf_counter_ns()
    result = warpath.bfs(graph, source, method="direction-optimizing", device="cuda")
    returned = time.perf_counter_ns()
    last.record()
    last.synchronize()
    out = {"whole": cuda.event_elapsed_time(first, last), "host": (returned - start) / 1e6}
    if split is not None and split.launch_events:
        before, after = split.launch_events[-1]
        out.update(pre=cuda.event_elapsed_time(first, before),
                   kernel=cuda.event_elapsed_time(before, after),
                   post=cuda.event_elapsed_time(after, last))
        previous, at = "call", start
        for label, when in split.marks:
            out[f"{previous}->{label}"] = (when - at) / 1e6
            previous, at = label, when
        out[f"{previous}->return"] = (returned - at) / 1e6
    del result
    return out


def cpu_shares(before: list, after: list) -> str:
    """User, system, idle and steal shares of the machine between two ``/proc/stat`` reads."""
    delta = [b - a for a, b in zip(before, after)]
    total = sum(delta) or 1
    return (f"user {100 * delta[0] / total:.1f}% system {100 * delta[2] / total:.1f}% "
            f"idle {100 * delta[3] / total:.1f}% steal {100 * delta[7] / total:.2f}%")


def proc_stat() -> list:
    """The machine's CPU time counters (``/proc/stat``'s first line; zeros where absent)."""
    try:
        with open("/proc/stat") as stat:
            return [int(x) for x in stat.readline().split()[1:]] + [0] * 10
    except OSError:
        return [0] * 10


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=22)
    parser.add_argument("--keys", type=int, default=8)
    parser.add_argument("--queries", type=int, default=7)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--plain", action="store_true", help="the bench's clock only")
    parser.add_argument("--src", help="import warpath from this source tree")
    parser.add_argument("--cache", default="/tmp", help="where the graph is kept")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, os.path.abspath(args.src))
    sys.path.insert(0, HERE)
    import warpath
    from gpu_bfs import search_keys

    simulated = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    graph = cached_rmat(warpath, args.scale, args.cache)
    keys = search_keys(graph, args.keys)
    split = None if args.plain or simulated else Split()
    for source in keys[:2]:
        query(warpath, graph, source, split, simulated)   # compile, make the runs
    print(f"rmat({args.scale}, 16), {len(keys)} keys x {args.queries} queries, "
          f"{warpath.__file__}", flush=True)
    for number in range(args.passes):
        stat, wall = proc_stat(), time.perf_counter()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        queries, per_key = [], []
        for source in keys:
            timed = [query(warpath, graph, source, split, simulated) for _ in range(args.queries)]
            queries += timed
            per_key.append(statistics.median(q["whole"] for q in timed[:3]))
        after = resource.getrusage(resource.RUSAGE_SELF)
        busy = (after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime) / \
            (time.perf_counter() - wall)
        print(f"pass {number}: the bench's statistic {statistics.median(per_key):.3f} ms "
              f"(median over keys of each key's median of its first 3); every query's "
              f"median {statistics.median(q['whole'] for q in queries):.3f} ms", flush=True)
        print(f"  machine: {cpu_shares(stat, proc_stat())}; this process {100 * busy:.0f}% "
              f"of a core", flush=True)
        if split is not None:
            names = [name for name in queries[-1] if name != "whole"]
            medians = {name: 1e3 * statistics.median(q.get(name, 0.0) for q in queries)
                       for name in names}
            print("  " + "  ".join(f"{name}={us:.0f}us" for name, us in medians.items()),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
