"""A stand-in for Gunrock's example programs, for testing the GPU-peer plumbing without a GPU.

``python fake_gunrock.py sssp|bfs -m G.mtx -s 1,2 --export_metrics -d DIR -f out.json
[--validate]`` reads the Matrix Market file with scipy, solves each source with
scipy.sparse.csgraph, writes the JSON shape Gunrock's ``--export_metrics`` writes
(``srcs``, ``process_times`` in ms, ...) and prints what Gunrock prints: the first 40
distances of the last source with six significant digits (unreached: float32 max, or int32
max for BFS) and, with ``--validate``, ``Number of errors : 0``.

``FAKE_GUNROCK_MODE`` makes it misbehave: ``wrong`` (one printed distance 1% + 1 too long),
``crash`` (exit status 3), ``no-json``, ``short-json`` (one time fewer than sources),
``validate-errors`` (``--validate`` reports 5 errors).
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import scipy.io
from scipy.sparse.csgraph import breadth_first_order, dijkstra


def main():
    problem = sys.argv[1]
    parser = argparse.ArgumentParser()
    parser.add_argument("-m")
    parser.add_argument("-s")
    parser.add_argument("--export_metrics", action="store_true")
    parser.add_argument("-d")
    parser.add_argument("-f")
    parser.add_argument("--validate", action="store_true")
    args = parser.parse_args(sys.argv[2:])
    mode = os.environ.get("FAKE_GUNROCK_MODE", "")
    if mode == "crash":
        print("CUDA error: no device", file=sys.stderr)
        return 3
    matrix = scipy.io.mmread(args.m).tocsr()
    sources = [int(s) for s in args.s.split(",")]
    times, rows = [], []
    for source in sources:
        started = time.perf_counter()
        if problem == "bfs":
            order, parents = breadth_first_order(matrix, source, return_predecessors=True)
            row = np.full(matrix.shape[0], 2**31 - 1, dtype=np.float64)
            row[source] = 0
            for v in order[1:]:
                row[v] = row[parents[v]] + 1
        else:
            row = dijkstra(matrix, indices=source)
            row[np.isinf(row)] = np.finfo(np.float32).max
        times.append((time.perf_counter() - started) * 1e3)
        rows.append(row)
    if mode == "short-json":
        times = times[:-1]
    if mode != "no-json":
        metrics = {"engine": "Essentials", "primitive": problem, "srcs": sources,
                   "process_times": times, "avg_process_time": float(np.mean(times or [0]))}
        with open(os.path.join(args.d, args.f), "w") as handle:
            json.dump(metrics, handle)
    head = rows[-1][:40].copy()
    if mode == "wrong" and head.size > 1:
        head[1] = head[1] * 1.01 + 1
    text = " ".join(f"{int(v)}" if problem == "bfs" else f"{v:g}" for v in head)
    print(f"Source : {sources[-1]}\nGPU distances[:{head.size}] = {text} ")
    print(f"GPU Elapsed Time : {times[-1] if times else 0} (ms)")
    if args.validate:
        print(f"Number of errors : {5 if mode == 'validate-errors' else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
