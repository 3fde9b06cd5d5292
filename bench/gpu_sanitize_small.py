"""A small run of every GPU SSSP method and loop, for compute-sanitizer (memcheck, racecheck).

    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py
    compute-sanitizer --tool racecheck python bench/gpu_sanitize_small.py

Checks the answers against scipy too, so a silent corruption also fails.
"""

import sys

import numpy as np
import scipy.sparse.csgraph as csgraph

import warpath
from warpath import generators as gen


#: Every method, both loops; hbf with all its optimizations and with each one off.
RUNS = ([(m, {"loop": loop}) for m in ("edge-bf", "edge-bf-flags", "harish", "locality")
         for loop in ("paper", "fast")]
        + [("hbf", o) for o in ({}, {"dedup": False}, {"classify": False},
                                {"coalesced_enqueue": False}, {"virtual_warps": False},
                                {"high_degree": 8}, {"trace": True})])


def main():
    graphs = [gen.with_negative_weights(gen.grid(12, 12, seed=1), seed=2),
              gen.rmat(8, 4, seed=3), gen.power_law(400, 4, 40, seed=4, weights="float")]
    failures = 0
    for g in graphs:
        ref = csgraph.bellman_ford(g.to_scipy(), indices=0)
        for method, options in RUNS:
            r = warpath.sssp(g, 0, method=method, device="cuda", **options)
            ok = np.allclose(r.distances, ref, rtol=1e-6) and all(
                len(r.path(t)) > 0 for t in np.flatnonzero(np.isfinite(ref)))
            failures += not ok
            print(g.num_vertices, method, options, "ok" if ok else "WRONG", flush=True)
    cyclic = gen.with_negative_cycle(gen.grid(5, 5, seed=5), seed=6)
    for method in ("edge-bf", "edge-bf-flags", "harish", "locality", "hbf"):
        try:
            warpath.sssp(cyclic, 0, method=method, device="cuda")
            failures += 1
        except warpath.NegativeCycleError as err:
            print(method, "negative cycle", err.cycle, flush=True)
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
