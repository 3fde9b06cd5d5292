"""bench/gpu_bfs_split.py: a small run (under the simulator here) prints each pass."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_small_run_prints_the_bench_statistic_and_the_machine(capsys, tmp_path):
    spec = importlib.util.spec_from_file_location("gpu_bfs_split",
                                                  ROOT / "bench" / "gpu_bfs_split.py")
    split = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(split)
    assert split.main(["--scale", "7", "--keys", "2", "--queries", "2", "--passes", "1",
                       "--cache", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pass 0: the bench's statistic" in out and "machine: user" in out
    assert (tmp_path / "warpath-rmat7-16.npz").exists()
