"""How fast rows reach the client in warpath.distributed's shared hand-over (issue 18).

Two parts (``--parts``), each with 1 and 2 writers (``--workers``):

- ``write``: worker processes write ``--gb`` GB of int32 rows (``--width`` columns, batches
  of ``--batch-rows``, handed out in turn as Dask does) into a result in ``/dev/shm``, the
  client's page preallocation running: into one ``.npy`` file (the hand-over before
  stripes, one write stream per worker) and into stripe files (:mod:`warpath.shared_rows`)
  with 1 and with ``WRITE_THREADS`` writer threads per worker.
- ``apsp``: ``warpath.distributed.apsp`` of an edgeless graph of ``--vertices`` vertices on
  CPU worker processes, predecessors off: every row is trivial to solve, so the run is the
  hand-over of n x n int64 rows (whatever tree ``warpath`` is imported from: point
  PYTHONPATH at another checkout's ``src`` to time it).

Run: ``python bench/distributed_handover.py --repeat 3`` (about 2 minutes on the CI box).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time

import numpy as np

import warpath
import warpath.distributed as wd
from warpath import shared_rows


def _writer(files, batches, batch_rows, width, threads, barrier):
    rows = np.full((batch_rows, width), 7, dtype=np.int32)
    wd.WRITE_THREADS = max(1, threads)
    barrier.wait()
    for batch in batches:
        if threads:
            wd._write_rows(files, batch * batch_rows, rows)
        else:  # before stripes: one pwrite stream per batch into the one file
            path, position, _, _ = files.pieces(batch * batch_rows, batch_rows)[0]
            shared_rows.write_piece(path, position, rows)


def write_part(workers, how, args):
    """GB/s of ``workers`` processes writing into one file (``how == "file"``) or stripes
    with ``how`` threads each."""
    rows = int(args.gb * 1e9 / (args.width * 4)) // args.batch_rows * args.batch_rows
    shape = (rows, args.width)
    if how == "file":
        fd, path = tempfile.mkstemp(prefix="warpath-", suffix=".npy", dir="/dev/shm")
        os.close(fd)
        array = np.lib.format.open_memmap(path, mode="w+", dtype=np.int32, shape=shape)
        files, paths = shared_rows.RowFiles(path, array.offset, args.width * 4), [path]
    else:
        matrix = shared_rows.striped_matrix(shape, np.int32, "/dev/shm")
        array, files, paths = matrix.array, matrix.files, matrix.paths
    ahead = shared_rows.Preallocation(paths)
    batches = rows // args.batch_rows
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(workers + 1)
    threads = 0 if how == "file" else how
    processes = [context.Process(target=_writer, args=(
        files, list(range(w, batches, workers)), args.batch_rows, args.width, threads, barrier))
        for w in range(workers)]
    for process in processes:
        process.start()
    barrier.wait()
    start = time.perf_counter()
    for process in processes:
        process.join()
        assert process.exitcode == 0
    seconds = time.perf_counter() - start
    ahead.stop()
    assert (array[::997, ::991] == 7).all()
    for path in paths:
        os.unlink(path)
    if how != "file":
        os.rmdir(os.path.dirname(paths[0]))
    return rows * args.width * 4 / 1e9 / seconds


def apsp_part(workers, args):
    """Seconds of an edgeless APSP (the hand-over of its rows) and its stats."""
    from distributed import Client, LocalCluster

    n = args.vertices
    empty = warpath.Graph(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32),
                          np.zeros(0, dtype=np.int32))
    runs = []
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        wd.apsp(warpath.Graph.from_edges([0], [1]), client=client, device="cpu",
                predecessors=False)  # workers import warpath and load the kernels
        for _ in range(args.repeat):
            result = wd.apsp(empty, client=client, device="cpu", predecessors=False)
            assert result.stored_distances[n - 1, n - 1] == 0
            assert result.stored_distances[0, n - 1] != 0
            runs.append(result.stats)
            del result
    return runs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="write,apsp")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gb", type=float, default=6.0)
    parser.add_argument("--width", type=int, default=100_000)
    parser.add_argument("--batch-rows", type=int, default=1000)
    parser.add_argument("--vertices", type=int, default=28_000)
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.workers.split(",")]
    print(f"warpath from {os.path.dirname(warpath.__file__)}; {os.cpu_count()} cores")
    if "write" in args.parts:
        for rep in range(args.repeat):
            for workers in counts:
                rates = {how: write_part(workers, how, args) for how in ("file", 1, 4)}
                print(f"write, run {rep}, {workers} worker(s): one file {rates['file']:.2f}, "
                      f"stripes 1 thread {rates[1]:.2f}, stripes 4 threads {rates[4]:.2f} GB/s",
                      flush=True)
    if "apsp" in args.parts:
        for workers in counts:
            for stats in apsp_part(workers, args):
                print(f"apsp, {workers} worker(s): {stats['seconds']:.2f} s, "
                      f"{args.vertices ** 2 * 8 / 1e9:.1f} GB, solve {stats['solve_seconds']:.2f}"
                      f" s, hand-over {stats['hand_over_seconds']:.2f} s (summed over workers), "
                      f"{stats['batches']} batches", flush=True)


if __name__ == "__main__":
    main()
