"""Tests of warpath.benchmark.graphs: building a suite's graphs and predicting their size."""

import pytest

from warpath.benchmark.graphs import build_graph, estimated_arcs
from warpath.benchmark.suite import GraphSpec

EXACT = [
    ("grid", {"rows": 7, "cols": 5}),
    ("random", {"n": 100, "m": 300}),
    ("random", {"n": 100, "m": 300, "directed": False}),
    ("ring", {"n": 50}),
    ("ring", {"n": 50, "directed": False}),
    ("complete", {"n": 20}),
]
BOUNDS = [
    ("rmat", {"scale": 10, "edge_factor": 4}),
    ("power_law", {"n": 3000, "avg_degree": 6, "max_degree": 100}),
]


@pytest.mark.parametrize("generator, params", EXACT)
def test_the_estimate_is_the_arc_count_of_exact_generators(generator, params):
    spec = GraphSpec("g", generator=generator, params=params)
    assert estimated_arcs(spec) == build_graph(spec).num_edges


@pytest.mark.parametrize("generator, params", BOUNDS)
def test_the_estimate_bounds_generators_that_drop_repeated_arcs(generator, params):
    spec = GraphSpec("g", generator=generator, params=params)
    built = build_graph(spec).num_edges
    assert built <= estimated_arcs(spec) <= 1.25 * built


def test_quick_parameters_enter_the_estimate():
    spec = GraphSpec("g", generator="grid", params={"rows": 300, "cols": 300},
                     quick_params={"rows": 3, "cols": 3})
    assert estimated_arcs(spec, quick=True) == 24


def test_a_file_has_no_estimate():
    assert estimated_arcs(GraphSpec("f", file="data/helsinki-osm-drive.gr.gz")) is None
