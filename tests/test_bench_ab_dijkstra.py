"""bench/ab_dijkstra.py: an earlier commit's Dijkstra loaded beside today's, both checked."""

import numpy as np
import pytest
from bench_scripts import ROOT, load_bench_script
from git_history import needs_git_history

import warpath

# It loads src/warpath/sssp/dijkstra.py as HEAD has it (git show): no history, no test.
pytestmark = needs_git_history("src/warpath/sssp/dijkstra.py", root=ROOT)


@pytest.fixture(scope="module")
def ab_dijkstra():
    return load_bench_script("ab_dijkstra")


def test_the_old_module_is_separate_and_solves(ab_dijkstra, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    before = warpath.methods.available("sssp")
    old = ab_dijkstra.load_revision("HEAD", tmp_path)
    assert old is not ab_dijkstra.current
    assert warpath.methods.available("sssp") == before  # the registry is left as it was
    g = warpath.generators.random(200, 800, seed=3, weights="float")
    assert np.array_equal(old.dijkstra(g, 0).distances, warpath.sssp(g, 0, device="cpu").distances)


def test_compare_prints_old_new_and_scipy(ab_dijkstra, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    old = ab_dijkstra.load_revision("HEAD", tmp_path)
    ab_dijkstra.compare("tiny", warpath.generators.grid(6, 6, seed=1), old, sources=2)
    line = capsys.readouterr().out
    assert line.startswith("tiny") and "old" in line and "new" in line and "scipy" in line


def test_compare_stops_on_a_wrong_answer(ab_dijkstra, monkeypatch):
    class Wrong:
        @staticmethod
        def dijkstra(graph, source):
            return warpath.sssp(warpath.Graph.from_edges([0], [1], [1], num_vertices=graph.num_vertices), 0,
                                device="cpu")
    with pytest.raises(SystemExit, match="old dijkstra.py disagrees"):
        ab_dijkstra.compare("tiny", warpath.generators.grid(4, 4, seed=1), Wrong, sources=1)
