"""bench/gpu_bfs_split.py: a small run (under the simulator here) prints each pass."""

from bench_scripts import load_bench_script


def test_a_small_run_prints_the_bench_statistic_and_the_machine(capsys, tmp_path):
    split = load_bench_script("gpu_bfs_split")
    assert split.main(["--scale", "7", "--keys", "2", "--queries", "2", "--passes", "1",
                       "--cache", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pass 0: the bench's statistic" in out and "machine: user" in out
    assert (tmp_path / "warpath-rmat7-16.npz").exists()
