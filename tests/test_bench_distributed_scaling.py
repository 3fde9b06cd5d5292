"""bench/distributed_scaling.py on CPU workers: every run checked, recorded and summarised."""

import json
import sys

import pytest
from bench_scripts import ROOT, load_bench_script

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scaling():
    sys.path.insert(0, str(ROOT / "bench"))  # it imports a script beside it
    try:
        yield load_bench_script("distributed_scaling")
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_runs_on_one_and_two_workers_and_records_each(scaling, tmp_path, capsys):
    results = tmp_path / "runs.jsonl"
    scaling.main(["--cpu", "--gpus", "1,2", "--repeat", "1", "--workloads", "apsp-random",
                  "--apsp-vertices", "300", "--sample", "5", "--json", str(results),
                  "--device-kind", "test-box", "--worker-threads", "1,2"])
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["workers"], r["worker_threads"]) for r in records] == [(1, 1), (1, 2), (2, 1),
                                                                       (2, 2)]
    for r in records:
        assert r["sources"] == 300 and r["checked_rows"] == 5 and r["device"] == "cpu"
        assert sum(r["rows_per_worker"]) == 300 and len(r["rows_per_worker"]) == r["workers"]
        assert r["gb_written_per_worker"] == sorted(
            round(rows * 300 * r["distance_bytes"] / 1e9, 2) for rows in r["rows_per_worker"])
        assert r["device_kind"] == "test-box" and r["write_path"].startswith("stripes")
    summary = capsys.readouterr().out
    assert "2 worker(s)" in summary and "efficiency" in summary and "hand-over" in summary


def test_a_wrong_row_is_caught(scaling):
    import numpy as np

    import warpath

    g = warpath.generators.random(50, 300, seed=1)
    good = warpath.multi_source(g, [0, 1], predecessors=False, device="cpu")
    rows = good.exact_distances.copy()
    rows[1, 7] += 1
    with pytest.raises(AssertionError, match="source 1"):
        scaling.check_rows(warpath.DistanceMatrix([0, 1], rows), good, np.array([0, 1]))


def test_plot_draws_a_png(scaling, tmp_path):
    pytest.importorskip("matplotlib")
    runs = tmp_path / "runs.jsonl"
    runs.write_text("\n".join(json.dumps({"description": "w", "workers": n, "seconds": 10 / n,
                                          "write_path": "pwrite"}) for n in (1, 2)))
    scaling.plot(str(runs), str(tmp_path / "s.png"))
    assert (tmp_path / "s.png").stat().st_size > 1000


def test_series_labels_name_threads_and_the_old_placement(scaling):
    old = {"description": "w", "write_path": "pwrite"}
    new = {"description": "w", "write_path": "stripes x4", "worker_threads": 2,
           "placement": "client"}
    assert scaling.series_label(old) == "w [pwrite, scheduler placement]"
    assert scaling.series_label(new) == "w [stripes x4, 2 threads a worker]"
    assert scaling.series_label({"description": "w"}) == "w []"
