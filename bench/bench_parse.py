"""Benchmark: how fast ``warpath.read`` parses a large DIMACS ``.gr`` file.

Generates a road-like random graph (15M arcs by default: average out-degree
4, integer weights up to 10^6, as in the USA road networks), writes it with
warpath's own writer into a temporary folder, then times ``warpath.read``
(file read + parse + CSR build) and prints MB of text per second.  A second
file holds the same arcs in random order (real files are not sorted by tail),
which exercises the counting-sort CSR build.  Target (issue 2): >= 30 MB/s on
the 2-core CI machine.

Usage::

    PYTHONPATH=src python3 bench/bench_parse.py [--arcs 15000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import warpath
from warpath.formats import _text


def make_graph(num_arcs, seed=0):
    """A random directed graph with ``num_arcs`` arcs over ``num_arcs / 4`` vertices."""
    rng = np.random.default_rng(seed)
    n = max(num_arcs // 4, 2)
    src = rng.integers(0, n, num_arcs)
    dst = rng.integers(0, n, num_arcs)
    weights = rng.integers(1, 1_000_000, num_arcs)
    return warpath.Graph.from_edges(src, dst, weights, n, name=f"bench-{num_arcs}")


def write_shuffled(graph, path, seed=1):
    """The ``.gr`` text of ``graph`` with its arc lines in random order."""
    order = np.random.default_rng(seed).permutation(graph.num_edges)
    columns = np.vstack([graph.tails()[order] + 1, graph.indices[order] + 1,
                         graph.weights[order]]).astype(np.int64)
    body = _text.format_rows(np.frombuffer(b"a ", np.uint8), columns,
                             _text.no_real_text(graph.num_edges), _text.SPACE)
    with open(path, "wb") as handle:
        handle.write(f"c shuffled arcs\np sp {graph.num_vertices} {graph.num_edges}\n".encode())
        handle.write(body.tobytes())


def time_read(path, expected, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        graph = warpath.read(path)
        best = min(best, time.perf_counter() - start)
        assert graph.num_edges == expected.num_edges
        assert np.array_equal(graph.indices, expected.indices)
        assert np.array_equal(graph.weights, expected.weights)
        del graph
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arcs", type=int, default=15_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    # Warm the numba caches so the timing measures parsing, not compiling.
    with tempfile.TemporaryDirectory() as folder:
        warm = os.path.join(folder, "warm.gr")
        warpath.write(make_graph(100), warm)
        warpath.read(warm)

    graph = make_graph(args.arcs)
    with tempfile.TemporaryDirectory() as folder:
        sorted_path = os.path.join(folder, "bench.gr")
        start = time.perf_counter()
        warpath.write(graph, sorted_path)
        write_seconds = time.perf_counter() - start
        shuffled_path = os.path.join(folder, "bench-shuffled.gr")
        write_shuffled(graph, shuffled_path)
        size_mb = os.path.getsize(sorted_path) / 1e6
        print(f"{graph.num_vertices:,} vertices, {graph.num_edges:,} arcs, {size_mb:.0f} MB of text "
              f"(written in {write_seconds:.2f} s, {size_mb / write_seconds:.0f} MB/s)")
        for label, path in (("writer order (sorted by tail)", sorted_path),
                            ("random arc order", shuffled_path)):
            seconds = time_read(path, graph, args.repeat)
            mb = os.path.getsize(path) / 1e6
            print(f"warpath.read, {label}: {seconds:.2f} s, {mb / seconds:.0f} MB/s "
                  f"({graph.num_edges / seconds / 1e6:.1f} M arcs/s), best of {args.repeat}")


if __name__ == "__main__":
    main()
