"""The method registry."""

import pytest

import warpath
from warpath import Graph, MethodNotAvailable, methods


def test_registered_cpu_methods_are_listed():
    names = {(m.problem, m.name) for m in methods.available(device="cpu")}
    assert {("sssp", "dijkstra"), ("sssp", "bellman-ford"), ("bfs", "queue"),
            ("apsp", "floyd-warshall"), ("apsp", "johnson"), ("apsp", "repeated-sssp"),
            ("multi_source", "repeated-sssp")} <= names


def test_find_names_the_alternatives():
    with pytest.raises(MethodNotAvailable, match="dijkstra \\(cpu\\)"):
        methods.find("sssp", "nonexistent", "cpu")


def test_choose_respects_negative_weights():
    positive = Graph.from_edges([0], [1], [3])
    negative = Graph.from_edges([0], [1], [-3])
    assert methods.choose("sssp", "cpu", positive).name == "dijkstra"
    assert methods.choose("sssp", "cpu", negative).negative_weights


def test_register_and_unregister_a_plugin_method():
    @methods.register("sssp", "test-plugin", "cpu", negative_weights=True, summary="x")
    def run(graph, source, *, predecessors=True):
        return warpath.SSSPResult(source, [0.0] * graph.num_vertices)

    try:
        r = warpath.sssp(Graph.from_edges([0], [1]), 0, method="test-plugin")
        assert r.stats["method"] == "test-plugin" and r.stats["device"] == "cpu"
    finally:
        methods.unregister("sssp", "test-plugin", "cpu")
    assert "test-plugin" not in methods.describe("sssp")


def test_register_rejects_unknown_problem():
    with pytest.raises(ValueError):
        methods.register("tsp", "x", "cpu")


def test_batch_methods_serve_batches_only_and_auto_if_filters():
    g = Graph.from_edges([0], [1])
    seen = []

    def picky(graph):
        seen.append(graph)
        return graph.num_vertices > 5

    methods.register("bfs", "doc-batch", "cpu", auto_rank=-2, batch=True)(lambda *a, **k: None)
    methods.register("bfs", "doc-picky", "cpu", auto_rank=-1, auto_if=picky)(lambda *a, **k: None)
    try:
        assert methods.choose("bfs", "cpu", g, batch=True).name == "doc-batch"
        assert methods.choose("bfs", "cpu", g).name == "queue"  # picky declines, batch excluded
        assert seen == [g, g]
        big = warpath.generators.ring(8, seed=0)
        assert methods.choose("bfs", "cpu", big).name == "doc-picky"
    finally:
        methods.unregister("bfs", "doc-batch", "cpu")
        methods.unregister("bfs", "doc-picky", "cpu")
