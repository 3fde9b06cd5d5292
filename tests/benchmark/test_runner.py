"""Running suites: wrong answers FAIL, missing methods are PENDING, missing peers SKIPPED, output."""

import json

import numpy as np
import pytest

import warpath
from benchmark._suites import tiny_gpu_suite_text, tiny_suite
from warpath.benchmark import peers as peer_module
from warpath.benchmark.output import write_results
from warpath.benchmark.report import render_report
from warpath.benchmark.runner import run_suite
from warpath.benchmark.suite import parse_suite
from warpath.methods import register, unregister
from warpath.result import SSSPResult


def _runs(results, label):
    return [r for r in results["runs"] if r["label"] == label]


@pytest.fixture
def wrong_method():
    """A registered CPU method that is fast and wrong (one distance off by one)."""
    @register("sssp", "test-wrong", "cpu", summary="deliberately wrong")
    def run(graph, source, *, predecessors=True):
        from scipy.sparse import csgraph

        distances = csgraph.dijkstra(graph.to_scipy(), indices=source)
        distances[(source + 1) % graph.num_vertices] += 1
        return SSSPResult(source, distances, None, {"iterations": 1, "relaxations": 2})

    yield "test-wrong"
    unregister("sssp", "test-wrong", "cpu")


def test_wrong_answer_marks_the_run_failed(wrong_method):
    suite = parse_suite(tiny_suite(methods='["dijkstra@cpu", "test-wrong@cpu"]', peers="[]"))
    results = run_suite(suite, log=None)
    assert {r["status"] for r in _runs(results, "dijkstra@cpu")} == {"OK"}
    failed = _runs(results, "test-wrong@cpu")
    assert [r["status"] for r in failed] == ["FAILED", "FAILED"]
    assert "wrong answer" in failed[0]["reason"]
    assert failed[0]["speedup"] is None
    assert warpath.methods.devices_of("sssp", "test-wrong") == ["cpu"]


def test_figures_of_a_good_run():
    suite = parse_suite(tiny_suite(methods='["dijkstra@cpu", "bellman-ford@cpu"]'))
    results = run_suite(suite, log=None)
    run = [r for r in _runs(results, "dijkstra@cpu") if r["graph"] == "grid"][0]
    assert run["status"] == "OK" and run["queries"] == 3
    assert len(run["seconds_per_query"]) == 2 and len(run["seconds_per_query"][0]) == 3
    assert run["time"]["count"] == 2 and run["time"]["median"] > 0
    assert run["first_call_seconds"] > 0
    # every source reaches the whole grid (undirected, connected): 42 vertices, 142 arcs
    assert run["reached_edges"] == 142
    assert run["mteps"] == pytest.approx(142 * 3 / sum(run["seconds_per_query"][0]) / 1e6,
                                         rel=1.0)
    assert run["speedup"] == pytest.approx(1.0)
    assert run["relaxations"] is not None
    sources = results["experiments"][0]["sources"]["grid"]
    assert len(sources["sources"]) == 3 and sources["seed"] == 2024


def test_pending_and_device_skips():
    suite = parse_suite(tiny_suite(
        methods='["dijkstra@cpu", "no-such-method", "no-such@cuda", '
                '{name = "dijkstra", device = "cpu", label = "dij k", options = {k = 2}}, '
                '"edge-bf@cuda"]', peers="[]"))
    results = run_suite(suite, devices=("cpu",), log=None)
    status = {r["label"]: (r["status"], r["reason"]) for r in results["runs"]
              if r["graph"] == "grid"}
    assert status["no-such-method"][0] == "PENDING"
    assert status["no-such@cuda"][0] == "PENDING"
    assert status["dij k"][0] == "PENDING" and "option(s) k" in status["dij k"][1]
    if warpath.methods.devices_of("sssp", "edge-bf") == ["cuda"]:
        assert status["edge-bf@cuda"][0] == "SKIPPED"
        assert "this benchmark runs on cpu" in status["edge-bf@cuda"][1]


def test_missing_peer_is_skipped_with_its_reason(monkeypatch):
    from dataclasses import replace

    fake = replace(peer_module.PEERS["scipy-dijkstra"], name="scipy-dijkstra",
                   module="warpath_no_such_library", install="warpath-no-such-library")
    monkeypatch.setitem(peer_module.PEERS, "scipy-dijkstra", fake)
    suite = parse_suite(tiny_suite())
    results = run_suite(suite, log=None)
    skipped = _runs(results, "scipy-dijkstra")
    assert [r["status"] for r in skipped] == ["SKIPPED", "SKIPPED"]
    assert "warpath_no_such_library is not installed" in skipped[0]["reason"]
    assert "pip install warpath-no-such-library" in skipped[0]["reason"]


def test_peer_size_cap_and_negative_weights():
    suite = parse_suite(tiny_suite(peers='[{name = "networkx-dijkstra", max_edges = 50}]'))
    results = run_suite(suite, log=None)
    by_graph = {r["graph"]: r for r in _runs(results, "networkx-dijkstra")}
    assert by_graph["grid"]["status"] == "SKIPPED" and "cap of 50" in by_graph["grid"]["reason"]
    assert by_graph["ring"]["status"] == "OK"


def test_missing_graph_file_skips_its_runs(tmp_path):
    text = tiny_suite().replace('generator = "ring"\nparams = { n = 30 }',
                                'file = "no/such/graph.gr"')
    results = run_suite(parse_suite(text, root=tmp_path), log=None)
    assert results["graphs"]["ring"]["status"] == "SKIPPED"
    ring_runs = [r for r in results["runs"] if r["graph"] == "ring"]
    assert ring_runs and all(r["status"] == "SKIPPED" for r in ring_runs)


def test_report_json_and_plots_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    suite = parse_suite(tiny_suite(methods='["dijkstra@cpu", "bellman-ford@cpu"]',
                                   extra='plot = "speedup"\n[experiments.paper_table]\n'
                                         'caption = "Their numbers."\ncolumns = ["graph", "t"]\n'
                                         'rows = [["grid", "1 s"]]'))
    results = run_suite(suite, log=None)
    paths = write_results(results, tmp_path, command="warpath bench tiny")
    names = sorted(p.split("/")[-1] for p in paths)
    assert names == ["tiny-sssp-speedup.png", "tiny.json", "tiny.md"]
    data = json.loads((tmp_path / "tiny.json").read_text())
    assert data["command"] == "warpath bench tiny"
    assert data["environment"]["versions"]["numpy"] == np.__version__
    assert data["environment"]["cpu"]
    assert data["experiments"][0]["sources"]["grid"]["sources"]
    report = (tmp_path / "tiny.md").read_text()
    assert "| dijkstra@cpu | OK |" in report
    assert "### The paper's figures" in report and "| grid | 1 s |" in report
    assert "![sssp](tiny-sssp-speedup.png)" in report
    assert (tmp_path / "tiny-sssp-speedup.png").stat().st_size > 1000


def test_without_matplotlib_plots_are_skipped_with_a_note(tmp_path, monkeypatch):
    from warpath.benchmark import plots

    monkeypatch.setattr(plots, "matplotlib_missing",
                        lambda: "plots skipped: matplotlib is not installed")
    results = run_suite(parse_suite(tiny_suite()), log=None)
    paths = write_results(results, tmp_path)
    assert not [p for p in paths if p.endswith(".png")]
    assert "plots skipped: matplotlib is not installed" in (tmp_path / "tiny.md").read_text()


def test_other_problems_run_and_check():
    text = '''
name = "problems"
[graphs.g]
generator = "random"
params = { n = 60, m = 300 }
[[experiments]]
id = "bfs"
problem = "bfs"
graphs = ["g"]
methods = ["queue@cpu"]
peers = ["scipy-bfs"]
repeat = 1
sources = 2
[[experiments]]
id = "apsp"
problem = "apsp"
graphs = ["g"]
methods = ["floyd-warshall@cpu", "johnson@cpu"]
peers = ["scipy-floyd-warshall"]
repeat = 1
[[experiments]]
id = "multi"
problem = "multi_source"
graphs = ["g"]
methods = ["repeated-sssp@cpu"]
predecessors = true
repeat = 1
sources = 4
'''
    results = run_suite(parse_suite(text), log=None)
    assert [r["status"] for r in results["runs"]] == ["OK"] * 6
    apsp = [r for r in results["runs"] if r["experiment"] == "apsp"][0]
    assert apsp["sources_per_query"] == 60


def test_cuda_runs_under_the_simulator():
    """The GPU path of the harness (device cuda, memory watch, clock) on a tiny graph."""
    from warpath.device import gpu_status

    if not gpu_status()[0] or not warpath.methods.devices_of("sssp", "harish"):
        pytest.skip("no CUDA device or simulator, or no GPU method registered")
    suite = parse_suite(tiny_gpu_suite_text())
    results = run_suite(suite, devices=("cpu", "cuda"), log=None)
    gpu = _runs(results, "harish@cuda")
    assert [r["status"] for r in gpu] == ["OK", "OK"], gpu[0].get("reason")
    assert gpu[0]["device"] == "cuda"
    assert gpu[0]["clock"] in ("perf_counter", "cuda-events")


def test_spent_suite_budget_skips_the_remaining_runs_and_still_reports():
    results = run_suite(parse_suite(tiny_suite()), suite_seconds=0.0, log=None)
    assert results["runs"]
    skipped = [r for r in results["runs"] if r["status"] == "SKIPPED"]
    assert len(skipped) == len(results["runs"])
    assert all("--suite-seconds" in r["reason"] for r in skipped if r["kind"] != "pending")
    report = render_report(results)
    assert "the suite's time budget (--suite-seconds 0.0) was spent" in report
    unlimited = run_suite(parse_suite(tiny_suite()), suite_seconds=3600.0, log=None)
    assert any(r["status"] == "OK" for r in unlimited["runs"])


def test_max_edges_skips_a_generated_graph_without_building_it(monkeypatch):
    from warpath.benchmark import runner

    built = []
    real_build = runner.build_graph
    monkeypatch.setattr(runner, "build_graph",
                        lambda spec, **kw: built.append(spec.id) or real_build(spec, **kw))
    results = run_suite(parse_suite(tiny_suite()), max_edges=40, log=None)
    assert built == ["ring"]
    assert "over --max-edges 40" in results["graphs"]["grid"]["reason"]
    grid_runs = [r for r in results["runs"] if r["graph"] == "grid"]
    assert grid_runs and all(r["status"] == "SKIPPED" for r in grid_runs)
    assert "over --max-edges 40" in render_report(results)


def test_large_negative_graphs_are_checked_by_the_certificate(monkeypatch):
    from warpath.benchmark import reference, runner

    @register("sssp", "test-off-by-one", "cpu", negative_weights=True, summary="wrong on purpose")
    def run(graph, source, *, predecessors=True):
        from scipy.sparse import csgraph

        distances = csgraph.johnson(graph.to_scipy(), indices=source)
        distances[(source + 1) % graph.num_vertices] -= 1
        return SSSPResult(source, distances, None, {"iterations": 1, "relaxations": 2})

    johnson_calls = []
    real_reference = runner.reference_distances
    monkeypatch.setattr(runner, "reference_distances",
                        lambda *a: johnson_calls.append(a) or real_reference(*a))
    monkeypatch.setattr(reference, "JOHNSON_MAX_ARCS", 10)
    text = tiny_suite(methods='["bellman-ford@cpu", "test-off-by-one@cpu"]', peers="[]")
    text = text.replace("cols = 7 }", "cols = 7 }\nnegative = true")
    try:
        results = run_suite(parse_suite(text), log=None)
    finally:
        unregister("sssp", "test-off-by-one", "cpu")
    assert results["graphs"]["grid"]["stats"] is not None
    grid = {r["label"]: r for r in results["runs"] if r["graph"] == "grid"}
    assert grid["bellman-ford@cpu"]["status"] == "OK"
    assert grid["bellman-ford@cpu"]["mteps"] > 0
    assert grid["test-off-by-one@cpu"]["status"] == "FAILED"
    assert "improves" in grid["test-off-by-one@cpu"]["reason"] or \
        "exact arcs" in grid["test-off-by-one@cpu"]["reason"]
    assert [graph for graph, *_ in johnson_calls if graph.has_negative_weights] == []


def test_a_long_first_call_over_the_run_budget_is_the_only_sample(monkeypatch):
    from warpath.benchmark import runner

    monkeypatch.setattr(runner, "SINGLE_SAMPLE_SECONDS", 0.0)
    results = run_suite(parse_suite(tiny_suite()), max_seconds=1e-9, log=None)
    ran = [r for r in results["runs"] if r["status"] == "OK"]
    assert ran
    for run in ran:
        assert run["queries"] == 1
        assert run["seconds_per_query"] == [[run["first_call_seconds"]]]
        assert "only sample" in run["reason"]


def test_a_short_first_call_over_the_budget_is_still_followed_by_a_timed_query():
    # the first call may be mostly JIT compilation: it must not become the figure
    results = run_suite(parse_suite(tiny_suite()), max_seconds=1e-9, log=None)
    ran = [r for r in results["runs"] if r["status"] == "OK"]
    assert ran
    for run in ran:
        assert run["queries"] == 1 and len(run["seconds_per_query"]) == 1
        assert "only sample" not in run["reason"] and "1 of 3 queries" in run["reason"]


def test_checkpoints_carry_the_results_so_far():
    seen, reports = [], []

    def checkpoint(partial):
        seen.append((partial["partial"], sorted(partial["graphs"]), len(partial["runs"])))
        reports.append(render_report(partial))

    results = run_suite(parse_suite(tiny_suite()), log=None, checkpoint=checkpoint)
    assert [(flag, graphs) for flag, graphs, _ in seen] == [(True, ["grid"]),
                                                           (True, ["grid", "ring"])]
    assert 0 < seen[0][2] < seen[1][2] == len(results["runs"])
    assert "partial" not in results
    assert "**Partial results**" in reports[0] and "**ring**: not reached yet." in reports[0]
    assert "not reached yet" not in reports[1]


def test_the_harness_times_compiled_kernels_on_small_graphs_too(monkeypatch):
    """Small graphs run Dijkstra interpreted outside benchmarks; the harness must not."""
    from warpath import jit
    from warpath.benchmark.runner import run_suite
    from warpath.benchmark.suite import load_suite

    seen = []
    real = jit.runs_interpreted
    monkeypatch.setattr(jit, "runs_interpreted", lambda arcs, limit: seen.append(
        real(arcs, limit)) or seen[-1])
    run_suite(load_suite("quick"), quick=True, experiments=["paths"], log=None)
    assert seen and not any(seen)
    assert jit.runs_interpreted(10, 100)   # switched back on after the suite
