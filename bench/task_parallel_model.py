"""A CPU model of task-parallel's rounds on one source: relaxations and rounds (issue 13).

task-parallel scatters every task of its mask M each round (Bellman-Ford rounds), so on
random(1M, 6M) it relaxed each arc 3.17 times per source on the H100, against once for
Dijkstra.  This model replays the rounds of one row on the CPU, in Gauss-Seidel order
(each scatter sees the ones before it in the round: fewer relaxations than the GPU's
order) and in Jacobi order (each round reads the distances of the round before: more),
and with near-far buckets of width ``delta`` (``near_far=True``: a task scatters only
below its row's bound; after a round with none below, the bound is ``delta`` past the
nearest waiting task), to choose ``delta`` before a GPU run.  Counts per arc and per
source, averaged over a few sources.

Run: ``python bench/task_parallel_model.py --vertices 1000000 --deltas 25,50,100,200,400``
(about a minute on the CI box).
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

import warpath

NO_BOUND = np.int64(1) << 60


@numba.njit
def rounds_model(indptr, indices, weights, source, delta, jacobi):
    """``(relaxations, rounds, distances)`` of one row's rounds (``delta`` 0: no buckets)."""
    n = indptr.size - 1
    d = np.full(n, NO_BOUND, np.int64)
    d[source] = 0
    mask = np.zeros(n, np.uint8)
    mask[source] = 1
    following = np.zeros(n, np.uint8)
    before = d.copy()
    bound = delta if delta > 0 else NO_BOUND
    relaxations = 0
    rounds = 0
    while True:
        near = False
        far = False
        nearest = NO_BOUND
        if jacobi:
            before[:] = d
        for u in range(n):
            if mask[u] == 0:
                continue
            du = before[u] if jacobi else d[u]
            if du >= bound:
                far = True
                following[u] = 1  # waits in the next round's M
                nearest = min(nearest, du)
                continue
            near = True
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                relaxations += 1
                if du + weights[e] < d[v]:
                    d[v] = du + weights[e]
                    following[v] = 1
        rounds += 1
        mask, following = following, mask
        following[:] = 0
        if not near:
            if not far:
                return relaxations, rounds - 1, d  # the last round found nothing
            bound = nearest + delta


def model(graph, sources, delta=0, jacobi=False):
    """Relaxations per arc per source and rounds per source, averaged over ``sources``."""
    arrays = (graph.indptr.astype(np.int64), graph.indices.astype(np.int64),
              graph.weights.astype(np.int64))
    runs = [rounds_model(*arrays, int(s), int(delta), bool(jacobi)) for s in sources]
    relaxations = np.mean([r[0] for r in runs]) / max(graph.num_edges, 1)
    return relaxations, float(np.mean([r[1] for r in runs])), [r[2] for r in runs]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--degree", type=int, default=6)
    parser.add_argument("--sources", type=int, default=4)
    parser.add_argument("--deltas", default="25,50,100,200,400,800")
    args = parser.parse_args(argv)
    n = args.vertices
    graph = warpath.generators.random(n, args.degree * n, seed=1)
    sources = np.random.default_rng(0).choice(n, args.sources, replace=False)
    print(f"random({n:,}, {graph.num_edges:,}), integer weights in [1, "
          f"{int(graph.weights.max())}], mean {float(graph.weights.mean()):.1f}; "
          f"{args.sources} sources")
    runs = [("Bellman-Ford rounds, Gauss-Seidel order", 0, False),
            ("Bellman-Ford rounds, Jacobi order", 0, True)]
    runs += [(f"near-far, delta {d}", int(d), False) for d in args.deltas.split(",")]
    for label, delta, jacobi in runs:
        relaxations, rounds, _ = model(graph, sources, delta, jacobi)
        print(f"{label:40s} relaxations per arc {relaxations:.2f}, rounds {rounds:.0f}",
              flush=True)


if __name__ == "__main__":
    main()
