"""Scaling of warpath.distributed over the GPUs of one host (issue 18).

For each workload and each GPU count N: a ``LocalCUDACluster`` of N workers (one per
GPU), a small warm-up call (numba compiles or loads its cache in every worker), then
``--repeat`` timed calls of ``warpath.distributed.multi_source`` with the distances
only (no predecessors) delivered to host memory (the workers write their int32 rows
into shared memory: ``transfer="shared"``).  Each run reports its seconds, the rows
and bytes each worker received and wrote, and the peak memory of each GPU (NVML,
sampled every 20 ms), and is checked against ``warpath.multi_source`` on one GPU in
this process on a sample of rows.  At the end: speed-up over N = 1 and parallel
efficiency (speed-up / N), from the fastest run of each N.

Workloads (``--workloads``, comma-separated):

- ``apsp-random``: APSP of ``random(V, 6V)``, V = ``--apsp-vertices`` (100,000);
- ``ms-random``: ``--sources`` (10,000) sources on ``random(V, 6V)``, V =
  ``--ms-vertices`` (1,000,000);
- ``ms-ne``: ``--sources`` sources on the DIMACS NE road network (real topology,
  synthetic weights: seeded uniform integers in [1, 1000]).

Every run appends a JSON line to ``--json``.  ``--cpu`` runs single-threaded CPU
worker processes instead (no GPU needed: for trying the script on small sizes).
``--plot RESULTS.jsonl PNG`` draws speed-up against GPUs from such a file.

Run (device, 2 GPUs): ``python bench/distributed_scaling.py --gpus 1,2 --repeat 2
--json scaling.jsonl``; here: ``python bench/distributed_scaling.py --cpu --gpus 1,2
--apsp-vertices 2000 --ms-vertices 20000 --sources 200 --workloads apsp-random,ms-random``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import threading
import time

import numpy as np
import psutil  # a dependency of dask.distributed
from distributed import Client, LocalCluster

import warpath
import warpath.distributed as wd
from bench_cpu_dijkstra import dataset  # a script beside this one

NE_FILE = "USA-road-NE.pace16.gr.xz"
#: The shared hand-over of this tree: a file per 64 MiB stripe, written by 4 threads a worker.
WRITE_PATH = f"stripes x{wd.WRITE_THREADS}"
#: Who places the batches on the workers in this tree: the client, a new batch to the worker
#: that finished one (records without the key: the scheduler, which favoured the worker
#: holding the graph).
PLACEMENT = "client"


def meminfo() -> dict:
    """Total and available host memory in GiB (a VM whose memory grows as used reports less)."""
    memory = psutil.virtual_memory()
    return {"MemTotal": round(memory.total / 2**30, 1),
            "MemAvailable": round(memory.available / 2**30, 1)}


def grow_memory(gib: int) -> dict:
    """Touch ``gib`` GiB once and free it, so a VM that adds memory as it is used has it.

    Returns the seconds it took and MemTotal / MemAvailable before and after.
    """
    before, start = meminfo(), time.perf_counter()
    blocks = []
    for _ in range(gib):
        blocks.append(np.ones(2**27, dtype=np.float64))  # 1 GiB, every page written
    del blocks
    gc.collect()
    return {"grow_gib": gib, "grow_seconds": round(time.perf_counter() - start, 1),
            "before": before, "after": meminfo()}


class GpuMemoryPeaks:
    """Peak used memory of every GPU (NVML, sampled every ``interval`` s) while entered."""

    def __init__(self, interval=0.02):
        self.interval, self.peaks, self._stop = interval, {}, threading.Event()
        try:
            import pynvml

            pynvml.nvmlInit()
            self._nvml = pynvml
            self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i)
                             for i in range(pynvml.nvmlDeviceGetCount())]
        except Exception:  # no NVML (no GPU, or nvidia-ml-py missing): no peaks
            self._nvml, self._handles = None, []

    def _sample(self):
        for i, handle in enumerate(self._handles):
            used = self._nvml.nvmlDeviceGetMemoryInfo(handle).used
            self.peaks[i] = max(self.peaks.get(i, 0), used)

    def _run(self):
        while not self._stop.wait(self.interval):
            self._sample()

    def __enter__(self):
        if self._handles:
            self._sample()
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._handles:
            self._stop.set()
            self._thread.join()
            self._sample()

    def gib(self):
        return {str(i): round(used / 2**30, 2) for i, used in sorted(self.peaks.items())}


def workload(name, args):
    """``(graph, sources, description)`` of a workload."""
    if name == "apsp-random":
        n = args.apsp_vertices
        graph = warpath.generators.random(n, 6 * n, seed=1)
        return graph, np.arange(n, dtype=np.int64), f"APSP of random({n:,}, {6 * n:,})"
    rng = np.random.default_rng(2)
    if name == "ms-random":
        n = args.ms_vertices
        graph = warpath.generators.random(n, 6 * n, seed=1)
        label = f"random({n:,}, {6 * n:,})"
    elif name == "ms-ne":
        graph = warpath.read(dataset(NE_FILE)).with_random_weights(1, 1000, seed=1)
        label = "USA-road NE (seeded weights U[1, 1000])"
    else:
        raise SystemExit(f"unknown workload {name!r}")
    sources = np.sort(rng.choice(graph.num_vertices, args.sources, replace=False))
    return graph, sources, f"{args.sources:,} sources on {label}"


@contextlib.contextmanager
def cluster(n, cpu, threads):
    if cpu:
        local = LocalCluster(n_workers=n, threads_per_worker=threads, processes=True,
                             dashboard_address=":0")
    else:
        from dask_cuda import LocalCUDACluster

        local = LocalCUDACluster(CUDA_VISIBLE_DEVICES=list(range(n)), threads_per_worker=threads,
                                 dashboard_address=":0")
    with local, Client(local) as client:
        yield client


def check_rows(result, reference, sample):
    """The sampled rows equal the single-device call's (exact integers)."""
    for source in sample:
        ours, single = result.row(source), reference.row(source)
        if not np.array_equal(ours.exact_distances, single.exact_distances):
            raise AssertionError(f"row of source {source} differs from the single-device call")


def run_workload(name, args, device, out):
    graph, sources, description = workload(name, args)
    graph_bytes = sum(a.nbytes for a in (graph.indptr, graph.indices, graph.weights))
    rng = np.random.default_rng(3)
    sample = rng.choice(sources, min(args.sample, sources.size), replace=False)
    start = time.perf_counter()
    reference = warpath.multi_source(graph, sample, device=device, predecessors=False)
    print(f"{description}: the single-{device} reference on {sample.size} sampled rows took "
          f"{time.perf_counter() - start:.1f} s ({reference.stats['method']})", flush=True)
    for n, threads in ((n, t) for n in args.gpus for t in args.worker_threads):
        with cluster(n, args.cpu, threads) as client:
            warm = time.perf_counter()
            wd.multi_source(graph, sources[:min(sources.size, 64 * n)], client=client,
                            device=device, predecessors=False, batch_size=16, progress=False)
            warm = time.perf_counter() - warm
            for repeat in range(args.repeat):
                gc.collect()
                with GpuMemoryPeaks() as peaks:
                    start = time.perf_counter()
                    result = wd.multi_source(graph, sources, client=client, device=device,
                                             predecessors=False, progress=False)
                    seconds = time.perf_counter() - start
                check_rows(result, reference, sample)
                itemsize = result._arrays.raw_row(0).dtype.itemsize
                per_worker = result.stats["rows_per_worker"]
                record = {
                    "workload": name, "description": description, "workers": n,
                    "repeat": repeat, "seconds": round(seconds, 3),
                    "warm_up_seconds": round(warm, 1),
                    "vertices": graph.num_vertices, "arcs": graph.num_edges,
                    "sources": int(sources.size), "method": result.stats["method"],
                    "device": result.stats["device"], "batches": result.stats["batches"],
                    "batch_size": result.stats["batch_size"],
                    "transfer": result.stats["transfer"], "distance_bytes": itemsize,
                    # summed over the batches of all workers: the method, the rows' copy
                    "solve_seconds": round(result.stats["solve_seconds"], 2),
                    "hand_over_seconds": round(result.stats["hand_over_seconds"], 2),
                    "rows_per_worker": sorted(per_worker.values()),
                    # received: the graph once (cached per client after the warm-up) and
                    # its sources; written: its rows into the shared matrix
                    "gb_written_per_worker": sorted(round(rows * graph.num_vertices * itemsize
                                                          / 1e9, 2)
                                                    for rows in per_worker.values()),
                    "mb_received_per_worker": sorted(round((graph_bytes + 8 * rows) / 1e6, 1)
                                                     for rows in per_worker.values()),
                    "peak_gpu_gib": peaks.gib(), "checked_rows": int(sample.size),
                    "host_memory": meminfo(),
                    # how rows reach the client: this tree's stripe files (the earlier
                    # records: "pwrite" into one file, "maps", "maps+prefault")
                    "write_path": WRITE_PATH, "device_kind": args.device_kind,
                    # threads per worker: with 2, one hands rows over while one solves
                    "worker_threads": threads, "placement": PLACEMENT,
                    "date": time.strftime("%Y-%m-%d"),
                    "gpu_wait_seconds": round(result.stats.get("gpu_wait_seconds", 0.0), 2),
                }
                del result
                gc.collect()
                print(json.dumps(record), flush=True)
                with open(out, "a") as lines:
                    lines.write(json.dumps(record) + "\n")


def fastest(records, series):
    """``{(series(record), workers): the fastest such record}``."""
    best = {}
    for r in records:
        key = (series(r), r["workers"])
        if key not in best or r["seconds"] < best[key]["seconds"]:
            best[key] = r
    return best


def threads_of(record) -> int:
    """Threads per worker of a record (1 in the records made before the option)."""
    return record.get("worker_threads", 1)


def summary(records):
    """Lines of speed-up and efficiency per workload and threads per worker, from the fastest
    run of each N (against one worker with the same threads)."""
    best = fastest(records, lambda r: (r["workload"], threads_of(r)))
    lines = []
    for ((name, threads), n), r in sorted(best.items()):
        one = best.get(((name, threads), 1))
        speedup = one["seconds"] / r["seconds"] if one else float("nan")
        lines.append(f"{r['description']}: {n} worker(s) of {threads} thread(s) "
                     f"{r['seconds']:.2f} s, "
                     f"speed-up {speedup:.2f}, efficiency {speedup / n:.0%}, "
                     f"{r['batches']} batches of {r['batch_size']}, solve "
                     f"{r.get('solve_seconds', float('nan')):.1f} s and hand-over "
                     f"{r.get('hand_over_seconds', float('nan')):.1f} s summed over workers "
                     f"(waiting for the GPU {r.get('gpu_wait_seconds', float('nan')):.1f} s), "
                     f"rows per worker {r['rows_per_worker']}, "
                     f"peak GPU GiB {r['peak_gpu_gib']}")
    return lines


def series_label(record) -> str:
    """A plot line's name: the workload, how rows reach the client, threads per worker and,
    for runs before the client placed the batches, the scheduler's placement."""
    how = [record.get("write_path", "")]
    if threads_of(record) > 1:
        how.append(f"{threads_of(record)} threads a worker")
    if "write_path" in record and record.get("placement", "scheduler") != "client":
        how.append("scheduler placement")
    return f"{record['description']} [{', '.join(h for h in how if h)}]"


def plot(results, png):
    """Speed-up against GPUs from the fastest run of each count, the runs of the newest date
    in ``results``: one line per :func:`series_label` measured on two counts or more."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = [json.loads(line) for line in open(results) if line.strip()]
    newest = max((r.get("date", "") for r in records), default="")
    records = [r for r in records if r.get("date", "") == newest]
    best = {key: r["seconds"] for key, r in fastest(records, series_label).items()}
    figure, axes = plt.subplots(figsize=(7, 4.5))
    counts = sorted({n for _, n in best})
    axes.plot(counts, counts, "k--", label="ideal")
    for series in sorted({s for s, _ in best}):
        ns = [n for n in counts if (series, n) in best]
        if len(ns) > 1 and (series, 1) in best:
            axes.plot(ns, [best[(series, 1)] / best[(series, n)] for n in ns], "o-",
                      label=series)
    axes.set_xlabel("GPUs (one Dask worker each)")
    axes.set_ylabel("speed-up over one GPU")
    axes.set_xticks(counts)
    axes.legend(fontsize=6)
    axes.set_title(f"warpath.distributed on the GPUs of one host ({newest})")
    figure.tight_layout()
    figure.savefig(png, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", default="apsp-random,ms-random,ms-ne")
    parser.add_argument("--gpus", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--apsp-vertices", type=int, default=100_000)
    parser.add_argument("--ms-vertices", type=int, default=1_000_000)
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=16, help="rows checked per run")
    parser.add_argument("--grow-memory", type=int, default=0, metavar="GIB",
                        help="touch and free this much host memory first")
    parser.add_argument("--json", default="distributed-scaling.jsonl")
    parser.add_argument("--cpu", action="store_true", help="CPU worker processes")
    parser.add_argument("--worker-threads", default=str(wd.GPU_WORKER_THREADS),
                        help="threads per worker, comma-separated (each a run of its own)")
    parser.add_argument("--device-kind", default="",
                        help="the machine's name, kept in each record (e.g. nvidia-h100-x2)")
    parser.add_argument("--plot", nargs=2, metavar=("RESULTS", "PNG"))
    args = parser.parse_args(argv)
    if args.plot:
        plot(*args.plot)
        return
    args.gpus = [int(n) for n in args.gpus.split(",")]
    args.worker_threads = [int(n) for n in args.worker_threads.split(",")]
    if args.grow_memory:
        print("host memory:", json.dumps(grow_memory(args.grow_memory)), flush=True)
    device = "cpu" if args.cpu else "cuda"
    records_before = os.path.getsize(args.json) if os.path.exists(args.json) else 0
    for name in args.workloads.split(","):
        run_workload(name, args, device, args.json)
    with open(args.json) as lines:
        lines.seek(records_before)
        records = [json.loads(line) for line in lines if line.strip()]
    print("\n".join(summary(records)))


if __name__ == "__main__":
    main()
