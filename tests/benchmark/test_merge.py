"""``--merge``: re-run some experiments of a suite, keep the others of the earlier results."""

import json

import pytest

from benchmark._suites import tiny_gpu_suite_text, tiny_suite
from warpath.benchmark.__main__ import main
from warpath.benchmark.merge import MergeError, merge_results

SECOND_EXPERIMENT = '''
[[experiments]]
id = "bfs"
problem = "bfs"
graphs = ["ring"]
methods = ["queue@cpu"]
peers = ["scipy-bfs"]
baseline = "queue@cpu"
sources = 2
repeat = 1
'''


@pytest.fixture
def suite_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(tiny_suite(extra=SECOND_EXPERIMENT))
    return path


def _load(directory):
    return json.loads((directory / "tiny.json").read_text())


def test_rerunning_one_experiment_keeps_the_others(suite_file, tmp_path):
    out = tmp_path / "out"
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots"]) == 0
    first = _load(out)
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots",
                 "--experiment", "bfs", "--merge"]) == 0
    merged = _load(out)
    assert [e["id"] for e in merged["experiments"]] == ["sssp", "bfs"]
    kept = [r for r in merged["runs"] if r["experiment"] == "sssp"]
    assert kept == [r for r in first["runs"] if r["experiment"] == "sssp"]
    assert merged["experiments"][0]["kept_from"]["command"] == first["command"]
    assert "kept_from" not in merged["experiments"][1]
    assert "--merge" in merged["command"]
    redone = [r for r in merged["runs"] if r["experiment"] == "bfs"]
    assert redone and all(r["status"] in ("OK", "SKIPPED") for r in redone)
    assert redone != [r for r in first["runs"] if r["experiment"] == "bfs"]  # fresh timings
    report = (out / "tiny.md").read_text()
    assert "kept by `--merge`" in report and report.count("kept by `--merge`") == 1


def test_without_merge_the_earlier_experiments_are_replaced(suite_file, tmp_path):
    out = tmp_path / "out"
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots"]) == 0
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots",
                 "--experiment", "bfs"]) == 0
    assert [e["id"] for e in _load(out)["experiments"]] == ["bfs"]


def test_merge_with_no_earlier_file_just_writes(suite_file, tmp_path):
    out = tmp_path / "fresh"
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots",
                 "--experiment", "bfs", "--merge"]) == 0
    assert [e["id"] for e in _load(out)["experiments"]] == ["bfs"]


def test_an_unreadable_earlier_file_is_a_clear_error(suite_file, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiny.json").write_text("{ not json")
    # the command line is right, the earlier file is not: exit status 1 (the CLI's rule)
    assert main([str(suite_file), "--device", "cpu", "--output", str(out), "--no-plots",
                 "--experiment", "bfs", "--merge"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("warpath: error: ") and f"cannot read {out / 'tiny.json'}" in err


def test_results_of_another_suite_are_refused():
    with pytest.raises(MergeError, match="suite 'a'.*suite 'b'"):
        merge_results({"suite": "a", "experiments": [], "runs": []},
                      {"suite": "b", "experiments": [], "runs": [], "graphs": {}})


def test_a_graph_skipped_now_keeps_the_earlier_statistics():
    earlier = {"suite": "s", "graphs": {"g": {"id": "g", "status": "OK", "stats": {"v": 1}}},
               "experiments": [{"id": "a"}], "runs": []}
    latest = {"suite": "s", "graphs": {"g": {"id": "g", "status": "SKIPPED", "stats": None},
                                       "h": {"id": "h", "status": "SKIPPED"}},
              "experiments": [{"id": "b"}], "runs": []}
    graphs = merge_results(earlier, latest)["graphs"]
    assert graphs["g"]["stats"] == {"v": 1} and graphs["h"]["status"] == "SKIPPED"


def test_a_graph_skipped_both_times_says_why_it_was_skipped_now():
    earlier = {"suite": "s", "experiments": [{"id": "a"}], "runs": [],
               "graphs": {"g": {"id": "g", "status": "SKIPPED", "reason": "over 25,000,000"}}}
    latest = {"suite": "s", "experiments": [{"id": "b"}], "runs": [],
              "graphs": {"g": {"id": "g", "status": "SKIPPED", "reason": "over 70,000,000"}}}
    assert merge_results(earlier, latest)["graphs"]["g"]["reason"] == "over 70,000,000"


def test_a_killed_run_leaves_a_partial_report_that_keeps_the_merged_experiments(
        suite_file, tmp_path, monkeypatch):
    from warpath.benchmark import runner

    suite = suite_file
    out = tmp_path / "out"
    assert main([str(suite), "--device", "cpu", "--output", str(out), "--no-plots"]) == 0
    real_execute = runner.execute_run

    def dies_on_the_ring(plan, experiment, graph, *args, **kwargs):
        if experiment.id == "sssp" and graph.num_vertices == 30:
            raise KeyboardInterrupt  # stands for a time limit killing the process
        return real_execute(plan, experiment, graph, *args, **kwargs)

    monkeypatch.setattr(runner, "execute_run", dies_on_the_ring)
    assert main([str(suite), "--device", "cpu", "--output", str(out), "--no-plots",
                 "--experiment", "sssp", "--merge"]) == 130   # the CLI's status when interrupted
    partial = _load(out)
    assert partial["partial"] is True
    assert {r["graph"] for r in partial["runs"] if r["experiment"] == "sssp"} == {"grid"}
    assert [e["id"] for e in partial["experiments"]] == ["sssp", "bfs"]
    assert partial["experiments"][1]["kept_from"]["command"].startswith("warpath bench")
    report = (out / "tiny.md").read_text(encoding="utf-8")
    assert "**Partial results**" in report
    assert "No runs yet: not reached." in report


def test_only_device_reruns_the_gpu_runs_and_keeps_the_cpu_baselines():
    # a GPU machine's short lease re-runs the GPU methods; the CPU baselines measured
    # elsewhere keep their results and the speed-ups are computed against them again
    import warpath
    from warpath.benchmark.report import render_report
    from warpath.benchmark.runner import run_suite
    from warpath.benchmark.suite import parse_suite
    from warpath.device import gpu_status

    if not gpu_status()[0] or not warpath.methods.devices_of("sssp", "harish"):
        pytest.skip("no CUDA device or simulator")
    suite = parse_suite(tiny_gpu_suite_text())
    first = {**run_suite(suite, devices=("cpu", "cuda"), log=None),
             "command": "first", "environment": {"date": "2026-11-23"}}
    latest = run_suite(suite, devices=("cpu", "cuda"), only_device="cuda", log=None)
    left_out = [r for r in latest["runs"] if r["label"] == "dijkstra@cpu"]
    assert [r["status"] for r in left_out] == ["SKIPPED", "SKIPPED"]
    assert all(r["reason"] == "not run this time: --only-device cuda" for r in left_out)
    merged = merge_results(first, latest)
    cpu = [r for r in merged["runs"] if r["label"] == "dijkstra@cpu"]
    gpu = [r for r in merged["runs"] if r["label"] == "harish@cuda"]
    earlier_cpu = [r for r in first["runs"] if r["label"] == "dijkstra@cpu"]
    assert [{k: v for k, v in r.items() if k != "kept_from"} for r in cpu] == earlier_cpu
    assert all(r["kept_from"] == {"command": "first", "date": "2026-11-23"} for r in cpu)
    assert [r["status"] for r in gpu] == ["OK", "OK"]
    for cpu_run, gpu_run in zip(cpu, gpu):   # the new GPU time against the kept baseline
        assert gpu_run["speedup"] == pytest.approx(cpu_run["time"]["median"]
                                                   / gpu_run["time"]["median"])
    assert "OK (kept from the run of 2026-11-23)" in render_report(merged)


def test_only_device_keeps_nothing_measured_on_other_sources():
    from warpath.benchmark.merge import _other_devices_kept

    skipped = {"status": "SKIPPED", "reason": "not run this time: --only-device cuda"}
    earlier = {"experiments": [{"id": "e", "sources": {"g": {"sources": [1, 2]}}}],
               "runs": [{"experiment": "e", "graph": "g", "label": "cpu", "status": "OK",
                         "time": {"median": 2.0}}]}
    fresh = {"e": {"id": "e", "baseline": "cpu", "sources": {"g": {"sources": [1, 3]}}}}
    runs = [{"experiment": "e", "graph": "g", "label": "cpu", **skipped}]
    [run] = _other_devices_kept(earlier, fresh, runs, {"command": "c", "date": "d"})
    assert run["status"] == "SKIPPED" and "other sources, so it is not kept" in run["reason"]


def test_only_device_says_why_the_earlier_run_was_not_measured_either():
    from warpath.benchmark.merge import _other_devices_kept

    skipped = {"status": "SKIPPED", "reason": "not run this time: --only-device cuda"}
    earlier = {"experiments": [{"id": "e", "sources": {}}],
               "runs": [{"experiment": "e", "graph": "g", "label": "cpu", "status": "SKIPPED",
                         "reason": "about 47,983,328 arcs, over --max-edges 25,000,000"}]}
    fresh = {"e": {"id": "e", "baseline": "cpu", "sources": {"g": {"sources": [1, 3]}}}}
    runs = [{"experiment": "e", "graph": "g", "label": "cpu", **skipped}]
    [run] = _other_devices_kept(earlier, fresh, runs, {"command": "c", "date": "d"})
    assert run["status"] == "SKIPPED" and "kept_from" not in run
    assert run["reason"] == ("not run this time: --only-device cuda (nor was it measured in the "
                             "earlier run: about 47,983,328 arcs, over --max-edges 25,000,000)")


def test_only_device_off_the_benchmarks_devices_is_a_clear_error(suite_file, tmp_path, capsys):
    assert main([str(suite_file), "--device", "cpu", "--only-device", "cuda", "--output",
                 str(tmp_path / "out"), "--no-plots"]) == 2
    assert "--only-device cuda, but this benchmark runs on cpu" in capsys.readouterr().err
