"""A CPU model of task-parallel's frontier of items: how many warp passes each form needs.

task-parallel's default round (issue 13) expands a queue of items, an item being a vertex
and 32 rows (sources), a warp each.  How a warp walks an item decides its passes:

- a lane a row: every lane walks all d arcs for its own row, d passes an item;
- spread (the default since the twenty-second session): the item's k x d pairs of
  (arc, active row) dealt over the 32 lanes, ceil(k d / 32) passes (d when k = 32);
- packed: the pairs of 32 queued items at once, ceil(sum of k d / 32) passes for the 32
  items (the experiment ``task_parallel.PACK_ITEMS`` dealt 256 items a block; the model
  counts warps of 32).

The packed form was measured on the H100 on 2026-11-28 and was slower than spread
(random(1M, 6M), 1,000 sources: 0.763 s against 0.637 s, with near-far 0.537 against
0.497 s; Okuyama's complete graph, V = 4,677: 3.48 s against 0.467 s), so the model's
guess that packed's fewer passes would make it faster was wrong, and the GPU form was
removed; its passes are still counted here.

This replays one launch's rounds on the CPU, 32 rows in step as on the GPU, plain or in
near-far order with one bound for the launch's rows (a task at or above it waits in a far
pile; after a round in which nothing scattered, the bound moves ``delta`` past the nearest
waiting task and the pile comes back), and counts items, relaxations and each form's
passes.  The order within a round is sequential (a scatter sees the ones before it), not
the GPU's; its counts came within 3% of the H100's on random(1M, 6M) (docs/performance.md,
"Twenty-second session").  The shape of the items (k and d) is what the model is for.

Run: ``python bench/item_passes_model.py --vertices 1000000 --launches 2`` (about a minute
on the CI box); ``--delta 0`` for plain Bellman-Ford rounds.
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

import warpath

ROWS = 32
NO_BOUND = np.int64(1) << 60


@numba.njit
def _popcount(word):
    count = 0
    while word:
        word &= word - 1
        count += 1
    return count


@numba.njit
def launch_model(indptr, indices, weights, sources, delta):
    """Counts of one launch of ``sources`` (at most 32 rows): ``(rounds, items, relaxations,
    lane-a-row passes, spread passes, packed passes, histogram of k over items, distances)``
    (``distances[v, row]``, :data:`NO_BOUND` where unreached)."""
    n = indptr.size - 1
    rows = sources.size
    d = np.full((n, ROWS), NO_BOUND, np.int64)
    words = np.zeros(n, np.int64)       # this round's M, a bit a row
    following = np.zeros(n, np.int64)   # the next round's
    far = np.zeros(n, np.int64)         # the far pile
    queue = np.empty(n, np.int64)
    size = 0
    for row in range(rows):
        s = sources[row]
        d[s, row] = 0
        if words[s] == 0:
            queue[size] = s
            size += 1
        words[s] |= np.int64(1) << row
    bound = delta if delta > 0 else NO_BOUND
    next_queue = np.empty(n, np.int64)
    histogram = np.zeros(ROWS + 1, np.int64)
    rounds = items = relaxations = lane_passes = spread_passes = packed_passes = 0
    nearest = NO_BOUND   # the least waiting distance, kept from round to round
    while True:
        scattered = False
        next_size = 0
        chunk_pairs = 0
        for i in range(size):
            u = queue[i]
            word = words[u]
            words[u] = 0
            active = np.int64(0)
            for row in range(rows):
                bit = np.int64(1) << row
                if word & bit:
                    if d[u, row] >= bound:
                        far[u] |= bit
                        nearest = min(nearest, d[u, row])
                    else:
                        active |= bit
            k = _popcount(active)
            degree = indptr[u + 1] - indptr[u]
            items += 1
            histogram[k] += 1
            if k > 0:
                scattered = True
                lane_passes += degree
                spread_passes += degree if k == ROWS else (k * degree + ROWS - 1) // ROWS
            chunk_pairs += k * degree
            if i % ROWS == ROWS - 1 or i == size - 1:   # a warp's 32 queued items
                packed_passes += (chunk_pairs + ROWS - 1) // ROWS
                chunk_pairs = 0
            for row in range(rows):
                bit = np.int64(1) << row
                if not active & bit:
                    continue
                du = d[u, row]
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    relaxations += 1
                    candidate = du + weights[e]
                    if candidate < d[v, row]:
                        d[v, row] = candidate
                        if candidate >= bound:
                            far[v] |= bit
                            nearest = min(nearest, candidate)
                        else:
                            if following[v] == 0:
                                next_queue[next_size] = v
                                next_size += 1
                            following[v] |= bit
        rounds += 1
        if not scattered and nearest < NO_BOUND:   # the bucket is empty: move the bound
            bound = nearest + delta
            nearest = NO_BOUND
            for v in range(n):
                if far[v]:
                    if following[v] == 0:
                        next_queue[next_size] = v
                        next_size += 1
                    following[v] |= far[v]
                    far[v] = 0
        if next_size == 0 and nearest == NO_BOUND:
            return (rounds, items, relaxations, lane_passes, spread_passes, packed_passes,
                    histogram, d)
        queue, next_queue = next_queue, queue
        words, following = following, words
        size = next_size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--degree", type=int, default=6)
    parser.add_argument("--launches", type=int, default=2, help="launches of 32 sources")
    parser.add_argument("--delta", type=float, default=50.0,
                        help="near-far bucket width (0: plain rounds)")
    args = parser.parse_args(argv)
    graph = warpath.generators.random(args.vertices, args.degree * args.vertices, seed=2008)
    indptr = np.asarray(graph.indptr, np.int64)
    indices = np.asarray(graph.indices, np.int64)
    weights = np.asarray(graph.weights, np.int64)
    rng = np.random.default_rng(13)
    totals = np.zeros(6, np.int64)
    histogram = np.zeros(ROWS + 1, np.int64)
    for _ in range(args.launches):
        sources = rng.integers(0, args.vertices, size=ROWS).astype(np.int64)
        *counts, seen, _ = launch_model(indptr, indices, weights, sources,
                                        np.int64(args.delta))
        totals += np.array(counts, np.int64)
        histogram += seen
    rounds, items, relaxations, lane, spread, packed = (int(t) for t in totals)
    print(f"random({args.vertices:,}, {args.degree * args.vertices:,}), {args.launches} "
          f"launches of 32 sources, delta {args.delta:g}: {rounds:,} rounds, {items:,} items, "
          f"{relaxations:,} relaxations ({relaxations / items:.1f} an item)")
    print(f"warp passes: a lane a row {lane:,}; spread {spread:,} ({spread / lane:.2f}); "
          f"packed {packed:,} ({packed / lane:.3f})")
    shares = histogram / histogram.sum()
    print("items by active rows k: " + ", ".join(
        f"k={k} {shares[k]:.1%}" for k in range(ROWS + 1) if shares[k] >= 0.005))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
