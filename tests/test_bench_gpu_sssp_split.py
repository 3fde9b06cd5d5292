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


def test_a_suites_graph_is_built_as_the_harness_builds_it(split, capsys):
    import warpath
    from warpath.benchmark.graphs import build_graph
    from warpath.benchmark.suite import load_suite

    made = split.graph_maker("hbf/flickr", tiny=True)(warpath.generators)
    expected = build_graph(load_suite("hbf").graphs["flickr"], quick=True)
    assert np.array_equal(made.indptr, expected.indptr)
    assert np.array_equal(made.weights, expected.weights)
    # run on the smallest suite graph there is: the simulator runs every thread in Python
    assert split.main(["--tiny", "--graphs", "harish/apsp-1024", "--queries", "1", "--check",
                       "--methods", "hbf:trace=True"]) == 0
    out = capsys.readouterr().out
    assert "== harish/apsp-1024: 128 vertices, 768 arcs" in out
    [sizes] = [line for line in out.splitlines() if "frontier sizes" in line]
    assert sizes.split(": ")[-1].split()[0] == "1"   # round 0: the source alone
    assert [line for line in out.splitlines() if "whole" in line][0].endswith("ok")


def test_an_unknown_graph_stops_before_any_graph_is_made(split):
    with pytest.raises(SystemExit, match="no graph 'rmat-99'"):
        split.main(["--tiny", "--graphs", "rmat-21-10", "rmat-99"])
    with pytest.raises(SystemExit, match="suite hbf has no graph 'nope'"):
        split.graph_maker("hbf/nope")


@pytest.fixture
def calls(monkeypatch):
    """The source of every ``warpath.sssp`` call, in order, and ``"start"`` / ``"stop"`` for
    the profiler's calls."""
    import warpath
    from numba import cuda

    logged = []
    original = warpath.sssp

    def logging_sssp(graph, source, **options):
        logged.append(source)
        return original(graph, source, **options)

    monkeypatch.setattr(warpath, "sssp", logging_sssp)
    monkeypatch.setattr(cuda, "profile_start", lambda: logged.append("start"), raising=False)
    monkeypatch.setattr(cuda, "profile_stop", lambda: logged.append("stop"), raising=False)
    return logged


def tiny_sources(split):
    """:func:`sources_for` of the tiny graph these tests run on."""
    import warpath

    return split.sources_for(split.graph_maker("harish/apsp-1024", tiny=True)(
        warpath.generators))


def test_profile_adds_one_call_from_the_source_chosen(split, capsys, calls):
    from warpath.cuda.runtime import SIMULATOR

    assert split.main(["--tiny", "--graphs", "harish/apsp-1024", "--queries", "1", "--check",
                       "--profile", "2", "--per-source", "--methods", "hbf", "edge-bf"]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = [line for line in out if " whole " in line and "from" not in line]
    assert len(lines) == 2 and all(line.endswith("ok") for line in lines)
    first, second, third = tiny_sources(split)
    # each method: the untimed first call, a timed one from each source, then the profiled
    # call from source 2, inside the profiler's range on a GPU (the simulator has none)
    profiled = [third] if SIMULATOR else ["start", third, "stop"]
    assert calls == ([first, first, second, third] + profiled) * 2
    # and one line of medians per source, in that order
    assert [line.split()[1] for line in out if line.startswith("    from ")] == [
        str(first), str(second), str(third)] * 2


def test_profile_without_a_number_takes_the_vertex_of_most_arcs(split, calls):
    assert split.main(["--tiny", "--graphs", "harish/apsp-1024", "--queries", "1",
                       "--profile", "--methods", "edge-bf"]) == 0
    sources = [call for call in calls if call not in ("start", "stop")]
    assert sources[-1] == sources[0] == tiny_sources(split)[0]


def test_each_sources_medians_are_its_own_calls(split):
    import types

    import warpath

    graph = warpath.generators.random(40, 160, seed=2)
    sources = split.sources_for(graph)
    count = {}

    def fake_sssp(graph, source, **options):   # rounds and relaxations tell the source apart
        count[source] = count.get(source, 0) + 1
        stats = {"launches": 1, "iterations": 10 + sources.index(source),
                 "relaxations": 1000 * (1 + sources.index(source)) + count[source],
                 "dense_rounds": sources.index(source)}
        return types.SimpleNamespace(stats=stats, distances=np.zeros(graph.num_vertices))

    r = split.measure(types.SimpleNamespace(sssp=fake_sssp), graph, "edge-bf", 3, False,
                      False, split.KernelClock(True), True)
    assert [row[0] for row in r["by_source"]] == sources
    assert [row[2:] for row in r["by_source"]] == [(10, 0, 1003), (11, 1, 2002),
                                                   (12, 2, 3002)]
    assert r["rounds"] == 11 and r["relaxations"] == 2002   # the medians of all nine


def test_profile_takes_one_of_the_sources(split, capsys):
    with pytest.raises(SystemExit):
        split.main(["--tiny", "--graphs", "rmat-21-10", "--profile", "3"])
    assert "--profile: invalid choice: 3" in capsys.readouterr().err
