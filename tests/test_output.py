"""warpath.output: the pairs CSV and the .npy matrix against straightforward references."""

import csv
import io
import time

import networkx as nx
import numpy as np
import pytest

import warpath
from warpath import output


def reference_pairs_csv(graph, matrix) -> bytes:
    """The long-format CSV written the obvious way (Python's csv module, row by row)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["source", "source_label", "target", "target_label", "distance",
                     "predecessor"])
    labels = graph.labels.tolist()
    exact = matrix.exact_distances
    for row, source in enumerate(matrix.sources.tolist()):
        for target in np.flatnonzero(np.isfinite(matrix.distances[row])).tolist():
            value = exact[row, target] if exact is not None else matrix.distances[row, target]
            pred = -1 if matrix.predecessors is None else matrix.predecessors[row, target]
            writer.writerow([source, labels[source], target, labels[target], repr(value.item()),
                             "" if pred < 0 else labels[pred]])
    return out.getvalue().encode()


def written(graph, matrix) -> bytes:
    out = io.BytesIO()
    output.write_pairs_csv(out, graph, matrix)
    return out.getvalue()


@pytest.mark.parametrize("weights", ["int", "float"])
@pytest.mark.parametrize("predecessors", [True, False])
def test_pairs_csv_matches_the_csv_module(weights, predecessors):
    g = warpath.generators.random(60, 150, seed=2, weights=weights)   # some pairs unreachable
    matrix = warpath.apsp(g, predecessors=predecessors)
    assert written(g, matrix) == reference_pairs_csv(g, matrix)


def test_pairs_csv_quotes_labels_that_need_it():
    g = warpath.Graph.from_networkx(nx.grid_2d_graph(3, 3))   # labels like (0, 1): a comma
    matrix = warpath.apsp(g)
    text = written(g, matrix)
    assert text == reference_pairs_csv(g, matrix)
    rows = list(csv.reader(io.StringIO(text.decode())))[1:]
    assert {row[1] for row in rows} == {str(label) for label in g.labels.tolist()}


def test_negative_distances_and_a_subset_of_sources():
    g = warpath.generators.with_negative_weights(warpath.generators.grid(5, 5, seed=1), seed=1)
    matrix = warpath.multi_source(g, [3, 0, 3])
    assert written(g, matrix) == reference_pairs_csv(g, matrix)


def test_pairs_csv_is_ten_times_faster_than_the_csv_module():
    """Issue 16: a 20K APSP CSV was written at 12 MB/s; the writer must be >= 10x faster."""
    g = warpath.generators.grid(30, 30, seed=3)
    matrix = warpath.apsp(g)
    written(g, matrix)   # compile first

    def best(write):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            write()
            times.append(time.perf_counter() - start)
        return min(times)

    new = best(lambda: written(g, matrix))
    old = best(lambda: reference_pairs_csv(g, matrix))
    assert old / new >= 10, f"csv module {old:.3f} s, warpath {new:.3f} s"


def test_csv_warning_names_sizes_and_npy():
    g = warpath.generators.ring(20_000, seed=0)
    warning = output.csv_warning("big.csv", g, 20_000)
    assert warning.startswith("big.csv: a CSV of up to 400,000,000 pairs, about ")
    assert ".npy matrix would be 3.2 GB" in warning
    assert output.csv_warning("small.csv", warpath.generators.ring(100, seed=0), 100) is None
