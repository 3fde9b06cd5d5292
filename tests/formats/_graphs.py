"""Helpers shared by the format tests: graph comparison and an independent text parser."""

from __future__ import annotations

import gzip

import numpy as np


def assert_same_graph(actual, expected, *, dtype=True, labels=True, directed=True):
    """The two graphs hold the same CSR arrays (and weight dtype, labels, direction)."""
    assert actual.num_vertices == expected.num_vertices
    np.testing.assert_array_equal(actual.indptr, expected.indptr)
    np.testing.assert_array_equal(actual.indices, expected.indices)
    np.testing.assert_array_equal(actual.weights, expected.weights)
    assert actual.weighted == expected.weighted
    if dtype:
        assert actual.weights.dtype == expected.weights.dtype
    if labels:
        np.testing.assert_array_equal(actual.labels, expected.labels)
    if directed:
        assert actual.directed == expected.directed


def arc_dict(graph):
    """{(label u, label v): weight} of every arc (labels, not indices)."""
    labels = graph.labels.tolist()
    tails = graph.tails().tolist()
    return {(labels[u], labels[v]): w
            for u, v, w in zip(tails, graph.indices.tolist(), graph.weights.tolist())}


def python_edges(path, *, skip=("#", "%", "c", "p"), tag=None, sep=None):
    """Parse an edge list line by line in plain Python: [(u, v, [values...]), ...]."""
    opener = gzip.open if str(path).endswith(".gz") else open
    edges = []
    with opener(path, "rt") as handle:
        for line in handle:
            fields = line.strip().split(sep)
            if not fields or not fields[0] or fields[0][0] in skip:
                continue
            if tag is not None:
                assert fields[0] == tag
                fields = fields[1:]
            edges.append((int(fields[0]), int(fields[1]), [int(f) for f in fields[2:]]))
    return edges


def min_arcs(edges, *, undirected=False, weight_column=0):
    """{(u, v): min weight} (weight 1 when no column), both ways when undirected."""
    arcs = {}
    for u, v, values in edges:
        w = values[weight_column] if values else 1
        pairs = [(u, v), (v, u)] if undirected else [(u, v)]
        for key in pairs:
            arcs[key] = min(arcs.get(key, w), w)
    return arcs
