"""Issue 13's dense Floyd-Warshall target, measured on one GPU in one process.

    python bench/gpu_floyd_warshall.py                       # n = 16,384 (a few minutes)
    python bench/gpu_floyd_warshall.py --n 8192 --harish-n 1024 --scipy-n 512
    python bench/gpu_floyd_warshall.py --tiny                 # small shapes (simulator smoke run)

The graph: a complete directed graph (no self-loops) with seeded integer weights in [1, 1000]
(int32), so the GPU matrix is int32.  Each line is one measurement, the peers in the same run:

- ``blocked`` at ``--n`` with ``dpx=False`` and ``dpx=True`` (the DPX line only where DPX can
  run: compute capability 9.0 and nvJitLink), without predecessors (``dtype="int32"``: the
  matrix comes back to host memory as int32), then with predecessors;
- ``harish`` (one thread per pair, one launch per pivot: the paper's version) and ``blocked``
  at ``--harish-n``;
- scipy's ``floyd_warshall`` and warpath's CPU ``floyd-warshall`` at ``--scipy-n``, beside
  ``blocked`` at the same size.

``pivots`` is the time of the n pivots alone (``stats["pivot_seconds"]``: synchronised before
and after); ``total`` the whole ``warpath.apsp`` call (matrix built on the GPU, pivots,
negative-cycle check, rows copied back).  Min-plus steps per second = n**3 / pivots.

The integer peak assumed for the share: an H100 SXM5 has 132 SMs of 64 INT32 lanes at a boost
clock of 1.98 GHz (NVIDIA H100 Tensor Core GPU Architecture whitepaper, 2022: SM count and
INT32 units per SM; boost clock from the H100 SXM5 datasheet), 16.7e12 int32 instructions/s.
A min-plus step is two of them (add, min): 8.4e12 steps/s; one with DPX's VIADDMNMX (add and
min in one instruction), 16.7e12 steps/s if DPX issues at the INT32 rate (NVIDIA does not
publish that rate; the script prints both shares).  The same figures from the device the
script runs on (its SM count and clock, 64 lanes per SM) are printed first.

The target (issue 13): n = 16,384 int32 under 1.5 s on one H100.  Note: ptxas 12.9 already
fuses the plain kernel's add and min into VIADDMNMX for sm_90 (SASS read with cuobjdump), so
``dpx=False`` and ``dpx=True`` may measure the same on an H100.  ``--out FILE`` writes the
records as JSON.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

#: H100 SXM5: SMs, INT32 lanes per SM, boost clock (Hz); see the module docstring.
H100_SMS, INT32_LANES, H100_CLOCK = 132, 64, 1.98e9


def complete_graph(n: int, seed: int = 1, max_weight: int = 1000):
    """A complete digraph on ``n`` vertices (no self-loops), int32 weights in [1, max_weight]."""
    import warpath

    rng = np.random.default_rng(seed)
    columns = np.tile(np.arange(n, dtype=np.int32), n).reshape(n, n)
    indices = columns[~np.eye(n, dtype=bool)]
    del columns
    weights = rng.integers(1, max_weight + 1, size=indices.size, dtype=np.int32)
    indptr = np.arange(n + 1, dtype=np.int64) * (n - 1)
    return warpath.Graph(indptr, indices, weights, name=f"complete-{n}", validate=False)


def device_peak():
    """``(name, SMs, clock Hz, int32 instructions/s)`` of the current GPU (64 lanes per SM)."""
    from numba import cuda

    device = cuda.get_current_device()
    name = getattr(device, "name", "CUDA simulator")
    name = name.decode() if isinstance(name, bytes) else str(name)
    sms = getattr(device, "MULTIPROCESSOR_COUNT", 1)
    clock = getattr(device, "CLOCK_RATE", 1e6) * 1e3   # kHz
    return name, sms, clock, sms * INT32_LANES * clock


def run_gpu(graph, **options):
    import warpath

    start = time.perf_counter()
    result = warpath.apsp(graph, method="floyd-warshall", device="cuda", **options)
    total = time.perf_counter() - start
    return result, total


def line(record):
    print("  ".join(f"{k}={v}" for k, v in record.items()), flush=True)


def measure_gpu(label, graph, repeats, peak_int, **options):
    """Best of ``repeats`` runs (after a warm-up on a small graph of the same kind)."""
    run_gpu(complete_graph(96), **options)   # compiles the kernels for these options
    best = None
    for _ in range(repeats):
        result, total = run_gpu(graph, **options)
        if best is None or result.stats["pivot_seconds"] < best[0].stats["pivot_seconds"]:
            best = (result, total)
    result, total = best
    n = graph.num_vertices
    pivots = result.stats["pivot_seconds"]
    steps = n ** 3 / pivots
    record = {"what": label, "n": n, "pivots_s": round(pivots, 4), "total_s": round(total, 3),
              "minplus_per_s": f"{steps:.3e}", "share_of_2op_peak": round(steps / (peak_int / 2), 3),
              "share_of_1op_peak": round(steps / peak_int, 3),
              "dtype": result.stats["distance_dtype"], "dpx": result.stats["dpx"],
              "tile": result.stats["tile"], "launches": result.stats["launches"]}
    line(record)
    return record, result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16_384, help="the target size (blocked)")
    parser.add_argument("--harish-n", type=int, default=2048, help="Harish's variant vs blocked")
    parser.add_argument("--scipy-n", type=int, default=1024, help="scipy and the CPU method")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tiny", action="store_true", help="small shapes (a smoke run)")
    parser.add_argument("--out", help="write the records as JSON")
    args = parser.parse_args(argv)
    if args.tiny:
        args.n, args.harish_n, args.scipy_n, args.repeats = 40, 24, 24, 1

    import warpath
    from scipy.sparse import csgraph

    from warpath.apsp.dpx import dpx_status

    name, sms, clock, peak = device_peak()
    h100 = H100_SMS * INT32_LANES * H100_CLOCK
    dpx_usable, dpx_reason = dpx_status()
    line({"device": name, "sms": sms, "clock_ghz": round(clock / 1e9, 3),
          "int32_per_s": f"{peak:.3e}", "h100_sxm_int32_per_s": f"{h100:.3e}",
          "dpx": dpx_usable, "dpx_reason": dpx_reason})
    records = []

    graph = complete_graph(args.n)
    target = {"dtype": "int32", "predecessors": False}
    records.append(measure_gpu("blocked", graph, args.repeats, h100, dpx=False, **target)[0])
    if dpx_usable:
        records.append(measure_gpu("blocked+dpx", graph, args.repeats, h100, dpx=True,
                                   **target)[0])
    records.append(measure_gpu("blocked+predecessors", graph, 1, h100, dtype="int32")[0])
    del graph

    small = complete_graph(args.harish_n)
    records.append(measure_gpu("harish", small, 1, h100, variant="harish", **target)[0])
    records.append(measure_gpu("blocked", small, args.repeats, h100, **target)[0])
    del small

    graph = complete_graph(args.scipy_n)
    ours, _ = measure_gpu("blocked", graph, args.repeats, h100, **target)
    matrix = graph.to_scipy()
    start = time.perf_counter()
    reference = csgraph.floyd_warshall(matrix)
    seconds = time.perf_counter() - start
    record = {"what": "scipy floyd_warshall", "n": args.scipy_n, "total_s": round(seconds, 3),
              "minplus_per_s": f"{args.scipy_n ** 3 / seconds:.3e}",
              "gpu_blocked_speedup": round(seconds / ours["pivots_s"], 1)}
    line(record)
    records += [ours, record]
    warpath.apsp(complete_graph(96), method="floyd-warshall", device="cpu")   # compile
    start = time.perf_counter()
    cpu = warpath.apsp(graph, method="floyd-warshall", device="cpu", predecessors=False)
    seconds = time.perf_counter() - start
    record = {"what": "warpath cpu floyd-warshall", "n": args.scipy_n,
              "total_s": round(seconds, 3), "minplus_per_s": f"{args.scipy_n ** 3 / seconds:.3e}"}
    line(record)
    records.append(record)
    gpu = run_gpu(graph, dtype="int32", predecessors=False)[0]
    same = bool(np.array_equal(gpu.distances, reference)
                and np.array_equal(cpu.distances, reference))
    line({"check": "gpu and cpu equal scipy", "n": args.scipy_n, "ok": same})
    if args.out:
        with open(args.out, "w") as handle:
            json.dump({"device": name, "records": records}, handle, indent=1)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
