"""bench/gpu_sssp_split.py: the per-query split runs (here under the simulator) and checks."""

import numpy as np
import pytest
from bench_scripts import load_bench_script


@pytest.fixture(scope="module")
def split():
    return load_bench_script("gpu_sssp_split")


def test_method_specs_carry_their_options(split):
    assert split.method_spec("hbf:dense=0.02,classify=False") == (
        "hbf", {"dense": 0.02, "classify": False})


def test_a_tiny_run_prints_every_method_checked(split, capsys):
    assert split.main(["--tiny", "--graphs", "rmat-21-10", "--queries", "1", "--check",
                       "--methods", "hbf", "hbf:dense=0.02", "edge-bf"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "whole" in line]
    assert len(lines) == 3 and all(line.endswith("ok") for line in lines)
    assert "dense rounds 0" not in lines[1]   # the sweeping rounds happened


def test_negative_versions_are_checked_against_the_shifted_distances(split, capsys):
    assert split.main(["--tiny", "--graphs", "rmat-21-10", "--queries", "1", "--check",
                       "--negative", "--methods", "hbf", "edge-bf"]) == 0
    out = capsys.readouterr().out
    assert "== rmat-21-10 with negative weights" in out
    lines = [line for line in out.splitlines() if "whole" in line]
    assert len(lines) == 4 and all(line.endswith("ok") for line in lines)


def test_the_reference_of_a_negative_version_is_its_own_shortest_paths(split):
    import scipy.sparse.csgraph as csgraph
    import warpath

    g = warpath.generators.rmat(6, 8, seed=3)
    shifted, p = warpath.generators.with_negative_weights(g, seed=4, return_potentials=True)
    assert (shifted.weights < 0).any()
    for source in (0, 5):
        expected = csgraph.bellman_ford(shifted.to_scipy(), indices=source)
        assert np.array_equal(split.reference_distances(shifted, source, (g, p)), expected)


def test_the_check_fails_a_predecessor_over_a_loose_arc(split):
    import warpath

    g = warpath.Graph.from_edges([0, 0, 1], [1, 2, 2], [1, 5, 1])
    good = warpath.sssp(g, 0, method="dijkstra", device="cpu")
    assert split.tight_tree(g, 0, good)
    good.predecessors[2] = 0   # the arc 0 -> 2 (5) is not tight: d[2] = 2
    assert not split.tight_tree(g, 0, good)


def test_a_missing_road_network_is_a_clear_stop(split, monkeypatch, tmp_path):
    monkeypatch.setattr(split, "DATASETS", (str(tmp_path),))
    monkeypatch.delenv("WARPATH_DATASETS", raising=False)
    with pytest.raises(SystemExit, match="USA-road-NY.pace16.gr.xz is in none of"):
        split.road("NY")


def test_a_register_cap_is_hbfs_option_only(split):
    with pytest.raises(SystemExit, match="hbf's option"):
        split.main(["--tiny", "--graphs", "rmat-21-10", "--queries", "1",
                    "--methods", "edge-bf:_registers=64"])


def test_teps_count_the_arcs_out_of_the_reached_vertices_only(split):
    import warpath

    # 0 -> 1 -> 2, and 3 -> {0, 1, 2} unreachable from 0: two arcs reached, three not
    g = warpath.Graph.from_edges([0, 1, 3, 3, 3], [1, 2, 0, 1, 2], [1, 1, 1, 1, 1])
    d = warpath.sssp(g, 0, method="dijkstra", device="cpu").distances
    assert split.reached_arcs(np.diff(g.indptr), d) == 2
