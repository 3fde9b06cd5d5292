"""The Dask path's overhead: warpath.distributed.apsp against the direct warpath.apsp call.

Runs the same APSP through the direct single-process call and through local Dask
clusters of 1 and N worker processes (one thread each; on a GPU machine with
dask_cuda, ``--cuda`` makes them a LocalCUDACluster, one worker per GPU), taking
turns repetition by repetition, after one warm-up run of each (numba compiles
or loads its cache in every worker process on first use).  ``--transfer``
names how the workers hand their rows over (``shared,send`` runs both on each
cluster).  Checks that every result equals the direct one, then prints the
median seconds of each, and the rate at which Dask's comms bring rows to the
client (the matrix's bytes gathered from the largest cluster into one host
array), the bound on the ``send`` transfer.  When the direct result stays on the
GPU, ``direct+copy`` also copies its rows to host memory, where the Dask path's are.

Run: ``PYTHONPATH=src python3 bench/distributed_overhead.py [--vertices 3000]
[--degree 8] [--workers 2] [--repeat 5] [--device cpu] [--no-predecessors] [--cuda]
[--transfer auto|shared|send|shared,send]``
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time

import numpy as np
from distributed import Client, LocalCluster, as_completed, wait

import warpath
import warpath.distributed as wd
from bench_cpu_dijkstra import time_alternating  # a script beside this one


def local_cluster(workers, cuda):
    if cuda:
        from dask_cuda import LocalCUDACluster

        return LocalCUDACluster(CUDA_VISIBLE_DEVICES=list(range(workers)), dashboard_address=":0")
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                        dashboard_address=":0")


def _rows(count, width):
    return np.ones((count, width), dtype=np.int64)


def on_host(result):
    """The direct result with its rows copied to host memory when they are on the GPU."""
    for rows in (result.device_distances, result._arrays.device_predecessors):
        if rows is not None:
            rows.copy_to_host()
    return result


def gather_rate(client, rows, width, batches):
    """GB/s at which the client gathers ``rows x width`` int64 rows, made on the workers in
    ``batches`` pieces, into one host array (the copy ``warpath.distributed`` makes)."""
    sizes = [len(part) for part in np.array_split(np.arange(rows), batches)]
    futures = [client.submit(_rows, size, width, pure=False) for size in sizes]
    wait(futures)
    start = time.perf_counter()
    out = np.empty((rows, width), dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    index = {future.key: i for i, future in enumerate(futures)}
    for future in as_completed(futures):
        i = index[future.key]
        out[offsets[i]:offsets[i + 1]] = future.result()
    return out.nbytes / 1e9 / (time.perf_counter() - start)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=3000)
    parser.add_argument("--degree", type=int, default=8, help="average out-degree")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--no-predecessors", dest="predecessors", action="store_false")
    parser.add_argument("--cuda", action="store_true", help="LocalCUDACluster workers")
    parser.add_argument("--transfer", default="auto",
                        help="comma-separated transfer= values of warpath.distributed.apsp")
    args = parser.parse_args(argv)
    transfers = args.transfer.split(",")
    graph = warpath.generators.random(args.vertices, args.vertices * args.degree, seed=1)
    kwargs = {"device": args.device, "predecessors": args.predecessors}
    sizes = sorted({1, args.workers})
    with contextlib.ExitStack() as stack:
        clients = {n: stack.enter_context(Client(stack.enter_context(local_cluster(n, args.cuda))))
                   for n in sizes}
        solvers = {"direct": lambda _: warpath.apsp(graph, **kwargs)}
        reference = solvers["direct"](0)
        if reference.device_distances is not None:
            solvers["direct+copy"] = lambda _: on_host(warpath.apsp(graph, **kwargs))
        for n, client in clients.items():
            for transfer in transfers:
                label = f"dask-{n}" + (f"-{transfer}" if len(transfers) > 1 else "")
                solvers[label] = (lambda c, t: lambda _: wd.apsp(
                    graph, client=c, transfer=t, **kwargs))(client, transfer)
        for label, solve in solvers.items():  # warm-up, and every path gives the same matrix
            assert np.array_equal(solve(0).distances, reference.distances), label
        seconds, stats = time_alternating(solvers, range(args.repeat))
        largest = stats[[label for label in solvers if label.startswith("dask")][-1]][0]
        entries = 2 if args.predecessors else 1
        rate = statistics.median(gather_rate(clients[sizes[-1]], entries * args.vertices,
                                             args.vertices, entries * largest["batches"])
                                 for _ in range(3))
    print(f"APSP of random({args.vertices:,}, {graph.num_edges:,}), device={args.device}, "
          f"predecessors={args.predecessors}, method {reference.stats['method']} "
          f"({reference.stats['device']}), median of {args.repeat}:")
    direct = statistics.median(seconds["direct"])
    for label, times in seconds.items():
        median = statistics.median(times)
        extra = stats[label][0]
        batches = f", {extra['batches']} batches of {extra['batch_size']}, " \
            f"transfer {extra['transfer']}" if "batch_size" in extra else ""
        print(f"  {label:<13} {median:8.3f} s  ({median / direct:5.2f}x direct{batches})")
    print(f"  the client gathers rows from {sizes[-1]} worker(s) at {rate:.2f} GB/s "
          f"(median of 3, {entries * 8 * args.vertices ** 2 / 1e9:.2f} GB each)")


if __name__ == "__main__":
    main()
