"""The 64-source BFS batch's options on the GPU: ``alpha`` and ``pull_wide`` (issue 12).

    python bench/gpu_bfs_batch_sweep.py                   # rmat(20, 16) and rmat(22, 16)
    python bench/gpu_bfs_batch_sweep.py --scales 20

For 64 Graph500 search keys and 64 random vertices, times ``warpath.bfs(g, sources=...)``
(method ``multi-source``, no parents) for each (alpha, pull_wide) pair, CUDA events around
the call, median of 5, and checks the levels against the push-only batch (``alpha=0``).
On rmat(20, 16) it also times 64 single ``direction-optimizing`` queries from the same
sources, each result dropped.  Needs a GPU.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from gpu_bfs import search_keys

PAIRS = ((0, 64), (2, 64), (14, 64), (4, 0), (4, 16), (4, 32), (4, 64), (4, 128), (4, 256))


def _timed(query, repeat=5):
    """(median ms of ``repeat`` calls, CUDA events around each; the last result)."""
    from warpath.benchmark.timing import Clock

    clock, times = Clock("cuda"), []
    for _ in range(repeat):
        seconds, result = clock.measure(query)
        times.append(1e3 * seconds)
    return statistics.median(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", default="20,22")
    args = parser.parse_args(argv)
    import warpath
    from warpath import generators

    for scale in map(int, args.scales.split(",")):
        graph = generators.rmat(scale, 16, seed=1, directed=False)
        randoms = np.random.default_rng(7).integers(0, graph.num_vertices, size=64)
        for kind, sources in (("search keys", search_keys(graph, 64)),
                              ("random vertices", randoms)):
            batch = lambda **o: warpath.bfs(graph, sources=sources, predecessors=False,
                                            device="cuda", **o)
            pushed = batch(alpha=0).levels
            for alpha, wide in PAIRS:
                batch(alpha=alpha, pull_wide=wide)
                ms, m = _timed(lambda: batch(alpha=alpha, pull_wide=wide))
                print(f"rmat({scale}, 16) {kind} alpha={alpha:g} pull_wide={wide}: {ms:.3f} ms, "
                      f"pull rounds {m.stats['pull_rounds']}, arcs looked at "
                      f"{m.stats['relaxations'] / 1e6:.1f}M, "
                      f"{'ok' if np.array_equal(m.levels, pushed) else 'WRONG'}", flush=True)
            if scale == 20:
                single = lambda s: warpath.bfs(graph, int(s), method="direction-optimizing",
                                               predecessors=False, device="cuda")
                single(sources[0])
                total = sum(_timed(lambda: single(s), 3)[0] for s in sources)
                print(f"rmat({scale}, 16) {kind}: 64 single direction-optimizing queries "
                      f"{total:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
