"""GPU peer programs run as outside processes: a fake Gunrock (tests/benchmark/fake_gunrock.py)
stands in for the real binaries, so the plumbing (input files, times, checks, SKIPPED and ERROR
rows) is tested without a GPU."""

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import warpath
from warpath.benchmark import gpu_peers
from warpath.benchmark.command import configure, run
from warpath.benchmark.runner import run_suite
from warpath.benchmark.suite import SuiteError, parse_suite
from formats._graphs import assert_same_graph

FAKE = Path(__file__).with_name("fake_gunrock.py")
GPU = ("cpu", "cuda")   # what --device cuda gives on a machine with a usable GPU

SUITE = '''
name = "peers"
[graphs.roads]
generator = "grid"
params = {{ rows = 12, cols = 14, max_weight = 300000, directed = false }}
[graphs.topology]
generator = "grid"
params = {{ rows = 9, cols = 9, directed = false }}
[[experiments]]
id = "sssp"
problem = "sssp"
graphs = ["roads"]
methods = ["dijkstra@cpu"]
peers = ["scipy-dijkstra", "gunrock-sssp"]
sources = 3
repeat = {repeat}
[[experiments]]
id = "bfs"
problem = "bfs"
graphs = ["topology"]
methods = ["queue@cpu"]
peers = ["gunrock-bfs"]
sources = 2
repeat = 1
'''


@pytest.fixture
def fake_peers(tmp_path, monkeypatch):
    """A peers folder holding gunrock/gunrock_{sssp,bfs} that run the fake, and a fresh cache."""
    folder = tmp_path / "peers"
    for problem in ("sssp", "bfs"):
        program = folder / "gunrock" / f"gunrock_{problem}"
        program.parent.mkdir(parents=True, exist_ok=True)
        program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" {problem} "$@"\n')
        program.chmod(0o755)
    monkeypatch.setenv("WARPATH_PEERS", str(folder))
    monkeypatch.setenv("WARPATH_PEER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKE_GUNROCK_MODE", raising=False)
    return folder


def suite(repeat=2):
    return parse_suite(SUITE.format(repeat=repeat))


def gpu_runs(results, name):
    return [r for r in results["runs"] if r["name"] == name]


def test_fake_gunrock_runs_beside_the_other_peers(fake_peers):
    results = run_suite(suite(), devices=GPU, log=None)
    [sssp] = gpu_runs(results, "gunrock-sssp")
    assert sssp["status"] == "OK", sssp["reason"]
    assert sssp["device"] == "cuda" and sssp["kind"] == "peer"
    assert sssp["clock"] == "the peer program's own"
    assert sssp["queries"] == 3 and [len(t) for t in sssp["seconds_per_query"]] == [3, 3]
    assert sssp["first_call_seconds"] > 0 and sssp["time"]["median"] > 0
    assert len(sssp["program_wall_seconds"]) == 2
    assert "printed distances of source" in sssp["reason"] and "--validate (0 errors)" in \
        sssp["reason"]
    [scipy_run] = gpu_runs(results, "scipy-dijkstra")
    assert sssp["reached_edges"] == scipy_run["reached_edges"]   # same graph, same sources
    [bfs] = gpu_runs(results, "gunrock-bfs")
    assert bfs["status"] == "OK", bfs["reason"]


def test_the_input_file_is_written_once_and_reads_back_as_the_graph(fake_peers, tmp_path):
    g = warpath.generators.grid(5, 6, seed=1, directed=False)
    path, seconds = gpu_peers.matrix_market_input(g)
    assert path.parent == tmp_path / "cache" and seconds > 0
    assert gpu_peers.matrix_market_input(g) == (path, 0.0)
    back = warpath.read(path)
    assert_same_graph(back, g, labels=False)
    other, _ = gpu_peers.matrix_market_input(g.with_random_weights(1, 9, seed=0))
    assert other != path


@pytest.mark.parametrize("mode, status, words", [
    ("wrong", "FAILED", "wrong answer: vertex 1"),
    ("validate-errors", "FAILED", "own --validate counts 5 vertices"),
    ("crash", "ERROR", "exited with status 3: CUDA error: no device"),
    ("no-json", "ERROR", "no readable metrics JSON"),
    ("short-json", "ERROR", "'process_times' should hold 4 times"),
])
def test_a_misbehaving_program_gives_a_failed_or_error_row(fake_peers, monkeypatch, mode,
                                                           status, words):
    monkeypatch.setenv("FAKE_GUNROCK_MODE", mode)
    results = run_suite(suite(), devices=GPU, experiments=["sssp"], log=None)
    [sssp] = gpu_runs(results, "gunrock-sssp")
    assert sssp["status"] == status and words in sssp["reason"], sssp["reason"]
    assert {r["status"] for r in gpu_runs(results, "dijkstra")} == {"OK"}


def test_no_gpu_or_no_program_gives_skipped_rows(fake_peers, monkeypatch, tmp_path):
    results = run_suite(suite(), devices=("cpu",), log=None)
    for name in ("gunrock-sssp", "gunrock-bfs"):
        [row] = gpu_runs(results, name)
        assert row["status"] == "SKIPPED" and "a GPU peer; this benchmark runs on cpu" in \
            row["reason"]
    monkeypatch.setenv("WARPATH_PEERS", str(tmp_path / "nowhere"))
    results = run_suite(suite(), devices=GPU, experiments=["sssp"], log=None)
    [row] = gpu_runs(results, "gunrock-sssp")
    assert row["status"] == "SKIPPED" and "no program at" in row["reason"]
    assert "WARPATH_PEERS" in row["reason"]


def test_negative_weights_and_the_wrong_problem_are_skipped(fake_peers):
    peer = gpu_peers.GPU_PEERS["gunrock-sssp"]
    negative = warpath.generators.with_negative_weights(warpath.generators.grid(4, 4, seed=0),
                                                        seed=0)
    assert "negative weights" in gpu_peers.skip_reason(peer, negative, "sssp", GPU)
    assert "does not solve bfs" in gpu_peers.skip_reason(peer, negative, "bfs", GPU)
    assert gpu_peers.skip_reason(peer, negative, "sssp", GPU, max_edges=10).startswith(
        "gunrock-sssp does not take")
    plain = warpath.generators.grid(4, 4, seed=0)
    assert "over this peer's cap of 10" in gpu_peers.skip_reason(peer, plain, "sssp", GPU, 10)
    assert gpu_peers.skip_reason(peer, plain, "sssp", GPU) is None


@pytest.mark.parametrize("stdout, words", [
    ("nothing here\n", "no 'GPU distances"),
    ("GPU distances[:3] = 0 1 \n", "has 2 values, not 3"),
    ("GPU distances[:2] = 0 x \n", "unreadable distances line"),
])
def test_unreadable_output_is_an_error(stdout, words):
    with pytest.raises(gpu_peers.PeerProgramError, match=words):
        gpu_peers.parse_head(stdout, levels=False)


def test_printed_digits_are_compared_with_a_matching_tolerance():
    g = warpath.Graph.from_edges([0, 1], [1, 2], [1234567, 1])
    reference = np.array([0.0, 1234567.0, 1234568.0])
    printed = gpu_peers.parse_head("GPU distances[:3] = 0 1.23457e+06 1.23457e+06 \n",
                                   levels=False)
    run = gpu_peers.ProgramRun([0.1], printed, None, 1.0)
    assert gpu_peers.check_head(run, reference, g, "sssp") is None
    off = gpu_peers.ProgramRun([0.1], printed + [0, 0, 30], None, 1.0)
    assert "vertex 2" in gpu_peers.check_head(off, reference, g, "sssp")


def test_metrics_must_name_the_sources_asked_for(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"srcs": [1, 2], "process_times": [1.0, 2.0], "search_depths": [4, 5]}')
    assert gpu_peers.parse_metrics(path, [1, 2]) == ([0.001, 0.002], [4, 5])
    with pytest.raises(gpu_peers.PeerProgramError, match="are not the sources"):
        gpu_peers.parse_metrics(path, [2, 1])


def test_suites_accept_gpu_peer_names_and_list_them_for_unknown_ones():
    assert [p.name for p in suite().experiments[0].peers] == ["scipy-dijkstra", "gunrock-sssp"]
    with pytest.raises(SuiteError, match="gunrock-bfs, gunrock-sssp"):
        parse_suite(SUITE.format(repeat=1).replace('"gunrock-sssp"', '"gunrock-xyz"'))


def test_bench_options_point_at_peers_and_datasets(fake_peers, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("WARPATH_PEERS")
    monkeypatch.setenv("WARPATH_DATASETS", "unset")   # restored after the test
    path = tmp_path / "peers.toml"
    path.write_text(SUITE.format(repeat=1))
    parser = argparse.ArgumentParser()
    configure(parser)
    args = parser.parse_args([str(path), "--device", "cpu", "--peers", str(fake_peers),
                              "--datasets", str(tmp_path), "--output", str(tmp_path / "out"),
                              "--no-plots"])
    assert run(args) == 0

    assert os.environ["WARPATH_PEERS"] == str(fake_peers)
    assert os.environ["WARPATH_DATASETS"] == str(tmp_path)
    recorded = json.loads((tmp_path / "out" / "peers.json").read_text())
    assert f"--peers {fake_peers}" in recorded["command"]
    rows = [r for r in recorded["runs"] if r["name"] == "gunrock-sssp"]
    assert rows[0]["status"] == "SKIPPED"   # --device cpu: no GPU run
