"""Where the 64-source BFS batch's time goes on the GPU, round by round (issue 12).

    python bench/gpu_bfs_batch_rounds.py                  # rmat(20, 16), 64 search keys
    python bench/gpu_bfs_batch_rounds.py --scale 22 --parents --alpha 0
    PYTHONPATH=/path/to/old/src python bench/gpu_bfs_batch_rounds.py --limits none   # A/B

Times ``warpath.bfs(g, sources=keys)`` (method ``multi-source``) with ``limit=`` 0, 1, 2,
...: the kernel stops after round L, so each row's kernel time minus the row above is what
round L costs.  CUDA events around the call and around every launch give, per row, the
total, the host time before the first launch and the time inside the launches (median of
``--repeat``).  Also printed: the pull rounds and the arcs looked at.  Needs a GPU.
"""

from __future__ import annotations

import argparse
import importlib
import statistics

from gpu_bfs import search_keys


def _time_launches():
    """Wrap the engine's launch so that each records a CUDA event before and after it;
    returns the list the events go to."""
    from numba import cuda

    from warpath.cuda import launch as launching

    marks, original = [], launching.launch

    def timed(kernel, griddim, blockdim, args, prepared=None, function=None):
        before = cuda.event()
        before.record()
        original(kernel, griddim, blockdim, args, prepared, function)
        after = cuda.event()
        after.record()
        marks.append((before, after))

    for name in ("enactor", "fills", "problem", "distances"):
        importlib.import_module("warpath.cuda." + name).launch = timed
    return marks


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--parents", action="store_true")
    parser.add_argument("--alpha", type=float, default=None)
    parser.add_argument("--limits", default="0,1,2,3,4,5,6,none")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    from numba import cuda

    import warpath
    from warpath import generators

    marks = _time_launches()
    graph = generators.rmat(args.scale, 16, seed=1, directed=False)
    keys = search_keys(graph, 64)
    options = {"predecessors": args.parents}
    if args.alpha is not None:
        options["alpha"] = args.alpha
    for text in args.limits.split(","):
        limit = None if text == "none" else int(text)
        query = lambda: warpath.bfs(graph, sources=keys, device="cuda", limit=limit, **options)
        query()
        rows = []
        for _ in range(args.repeat):
            marks.clear()
            start = cuda.event()
            start.record()
            result = query()
            end = cuda.event()
            end.record()
            end.synchronize()
            rows.append((cuda.event_elapsed_time(start, end),
                         cuda.event_elapsed_time(start, marks[0][0]),
                         sum(cuda.event_elapsed_time(b, a) for b, a in marks)))
        total, before, inside = (statistics.median(column) for column in zip(*rows))
        print(f"rmat({args.scale}, 16) limit={limit}: total {total:.3f} ms, host before the "
              f"launch {before:.3f} ms, in launches {inside:.3f} ms, pull rounds "
              f"{result.stats['pull_rounds']}, arcs looked at "
              f"{result.stats['relaxations'] / 1e6:.1f}M", flush=True)


if __name__ == "__main__":
    main()
