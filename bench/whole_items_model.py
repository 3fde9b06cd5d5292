"""A CPU model of task-parallel's rounds over whole items (``whole_items=True``, issue 13).

A queued item (a vertex and 32 rows) relaxes every row over every arc, a lane a row,
so a round's cost is its (item, arc) pairs: each reads the head's 32 distances, one
128-byte line.  This model replays one launch's rounds on the CPU and counts them: in
Jacobi order (each round reads the distances of the round before: the most rounds)
and in Gauss-Seidel order (a relaxation sees the ones before it in the round: the
fewest).  The GPU's rounds fall between the two.  It prints the rounds, the pairs per
arc, the bytes of distance lines and the time those bytes take at ``--bandwidth``,
for one launch and for ``--sources`` sources; and the lowerings (each an ``atomicMin``
and a mark stored on the GPU) with the time they take at ``--atomic-rate``.

Run: ``python bench/whole_items_model.py --vertices 1000000 --sources 1000``
(about 30 s on the CI box).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import warpath

UNREACHED = np.int64(1) << 60


@numba.njit(cache=False)
def item_rounds(indptr, indices, weights, sources, jacobi):
    """``(rounds, pairs, expanded, lowerings, d)``: the rounds of one launch of ``sources``
    (a row each), the (item, arc) pairs they relax, the items they expand, the (row, arc)
    relaxations that lower a distance, and the n x rows distances (``UNREACHED`` where no
    path)."""
    n = indptr.size - 1
    k = sources.size
    d = np.full((n, k), UNREACHED, np.int64)
    queued = np.zeros(n, np.uint8)
    for row in range(k):
        d[sources[row], row] = 0
        queued[sources[row]] = 1
    written = d.copy() if jacobi else d
    rounds = pairs = expanded = lowerings = 0
    while True:
        following = np.zeros(n, np.uint8)
        for u in range(n):
            if queued[u] == 0:
                continue
            expanded += 1
            pairs += indptr[u + 1] - indptr[u]
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                for row in range(k):
                    if d[u, row] == UNREACHED:
                        continue
                    candidate = d[u, row] + weights[e]
                    if candidate < written[v, row]:
                        written[v, row] = candidate
                        lowerings += 1
                        following[v] = 1
        if jacobi:
            d[:, :] = written
        rounds += 1
        queued = following
        if following.sum() == 0:
            return rounds, pairs, expanded, lowerings, d


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--degree", type=int, default=6)
    parser.add_argument("--rows", type=int, default=32, help="rows of one launch (one item)")
    parser.add_argument("--sources", type=int, default=1000, help="sources in all")
    parser.add_argument("--bandwidth", type=float, default=4.0e12, help="bytes a second")
    parser.add_argument("--atomic-rate", type=float, default=45e9,
                        help="random atomicMin a second (45G: measured on the H100)")
    args = parser.parse_args(argv)
    if not 1 <= args.rows <= 32:
        parser.error(f"--rows must be 1 to 32 (one item a vertex), not {args.rows}")
    n = args.vertices
    graph = warpath.generators.random(n, args.degree * n, seed=2008)
    sources = np.random.default_rng(13).integers(0, n, size=args.rows)
    weights = graph.weights.astype(np.int64)
    launches = -(-args.sources // args.rows)
    print(f"random({n:,}, {graph.num_edges:,}), weights {weights.min()}-{weights.max()}, "
          f"{args.rows} rows a launch, {launches} launches for {args.sources} sources")
    for jacobi in (True, False):
        start = time.perf_counter()
        rounds, pairs, expanded, lowerings, _ = item_rounds(graph.indptr, graph.indices,
                                                             weights, sources, jacobi)
        line_bytes = 4 * args.rows * (pairs + expanded)   # heads' lines and the items' own
        seconds = line_bytes / args.bandwidth
        print(f"{'Jacobi' if jacobi else 'Gauss-Seidel':>12}: {rounds} rounds, "
              f"{pairs:,} (item, arc) pairs ({pairs / graph.num_edges:.2f} an arc), "
              f"{expanded:,} items expanded; {line_bytes / 1e9:.2f} GB of distance lines: "
              f"{seconds * 1e3:.2f} ms a launch, {seconds * launches * 1e3:.0f} ms in all; "
              f"{lowerings:,} lowerings ({lowerings / (n * args.rows):.2f} a vertex and row): "
              f"{lowerings * launches / args.atomic_rate * 1e3:.0f} ms of atomics in all "
              f"[{time.perf_counter() - start:.0f} s]")


if __name__ == "__main__":
    main()
