"""``warpath bench`` / ``python -m warpath.benchmark``: arguments, exit codes, the quick suite."""

import argparse
import json

import pytest

from warpath.benchmark.__main__ import main
from warpath.benchmark.command import benchmark_devices, configure


def _args(*argv):
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(list(argv))


def test_arguments():
    args = _args("hbf", "--device", "cpu", "--output", "out", "--repeat", "2", "--sources", "4",
                 "--experiment", "table2", "--max-edges", "1000", "--max-seconds", "3")
    assert (args.suite, args.device, args.output, args.repeat, args.sources) == \
        ("hbf", "cpu", "out", 2, 4)
    assert args.experiment == ["table2"] and args.max_edges == 1000
    with pytest.raises(SystemExit):
        _args("hbf", "--repeat", "0")


def test_no_suite_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "give a SUITE" in capsys.readouterr().err


def test_unknown_suite_and_experiment_exit_2(capsys, tmp_path):
    assert main(["nope", "--output", str(tmp_path)]) == 2
    assert "unknown suite 'nope'" in capsys.readouterr().err
    assert main(["quick", "--experiment", "nope", "--output", str(tmp_path)]) == 2
    assert "no experiment 'nope'" in capsys.readouterr().err


def test_cpu_device():
    assert benchmark_devices("cpu") == ("cpu",)


def test_quick_suite_end_to_end(tmp_path):
    """``--quick`` alone runs the quick suite; every run is right, pending or skipped."""
    assert main(["--quick", "--device", "cpu", "--output", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "quick.json").read_text())
    statuses = {r["status"] for r in data["runs"]}
    assert statuses <= {"OK", "PENDING", "SKIPPED"}
    ok = [r for r in data["runs"] if r["status"] == "OK"]
    assert {r["experiment"] for r in ok} == {"sssp-road", "sssp-negative", "bfs", "apsp",
                                             "multi-source", "paths"}
    assert {"dijkstra@cpu", "bellman-ford@cpu", "queue@cpu", "floyd-warshall@cpu",
            "scipy-dijkstra"} <= {r["label"] for r in ok}
    assert (tmp_path / "quick.md").read_text().startswith("# Benchmark: Quick suite")
