"""The ``warpath`` command end to end: results checked against scipy, errors as one line.

The reference graphs are parsed here with a few lines of numpy, not with
``warpath.read``, so that a parser bug cannot hide a CLI bug.
"""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra, floyd_warshall, shortest_path

import warpath
from warpath.cli import main

HELSINKI = Path(__file__).resolve().parents[1] / "data" / "helsinki-osm-drive.gr.gz"


def read_dimacs(path):
    """(n, tails, heads, weights) of a DIMACS .gr file, 0-based, straight from the text."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = [line.split() for line in f if line.startswith(("p", "a"))]
    n = int(lines[0][2])
    arcs = np.array([[int(t) for t in line[1:]] for line in lines[1:]], dtype=np.int64)
    return n, arcs[:, 0] - 1, arcs[:, 1] - 1, arcs[:, 2]


def min_weight_csr(n, tails, heads, weights):
    """A scipy CSR matrix keeping the lightest of parallel arcs (scipy would sum them)."""
    order = np.lexsort((weights, heads, tails))
    tails, heads, weights = tails[order], heads[order], weights[order]
    first = np.ones(tails.size, dtype=bool)
    first[1:] = (tails[1:] != tails[:-1]) | (heads[1:] != heads[:-1])
    return sp.csr_array((weights[first].astype(np.float64), (tails[first], heads[first])),
                        shape=(n, n))


def run_cli(capsys, *argv):
    """``main(argv)``: (exit status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def summary_value(out, name):
    """The value column of one summary row."""
    for line in out.splitlines():
        if line.startswith(name + "  "):
            return line[len(name):].strip()
    raise AssertionError(f"no {name!r} row in:\n{out}")


def assert_one_line_error(err, *fragments):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("warpath: error: ") and "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture(scope="module")
def helsinki_reference():
    n, tails, heads, weights = read_dimacs(HELSINKI)
    matrix = min_weight_csr(n, tails, heads, weights)
    return matrix, dijkstra(matrix, indices=0)


# ---------------------------------------------------------------------------- sssp


def test_sssp_on_shipped_road_graph_matches_scipy(tmp_path, capsys, helsinki_reference):
    matrix, expected = helsinki_reference
    out_file = tmp_path / "d.npy"
    status, out, err = run_cli(capsys, "sssp", HELSINKI, "--source", "1", "--output", out_file)
    assert status == 0, err
    distances = np.load(out_file)
    np.testing.assert_array_equal(distances, expected)
    reached = np.isfinite(expected)
    assert summary_value(out, "reached").startswith(f"{reached.sum():,} of 1,437 vertices")
    assert summary_value(out, "max distance").startswith(f"{int(expected[reached].max()):,} ")
    assert summary_value(out, "source").startswith("1 (index 0)")
    for row in ("method", "time", "MTEPS"):
        summary_value(out, row)


def test_sssp_csv_has_labels_distances_and_predecessors(tmp_path, capsys, helsinki_reference):
    matrix, expected = helsinki_reference
    out_file = tmp_path / "d.csv"
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "-s", "1", "-m", "dijkstra",
                             "--device", "cpu", "-o", out_file)
    assert status == 0, err
    lines = out_file.read_text().splitlines()
    assert lines[0] == "vertex,label,distance,predecessor"
    rows = [line.split(",") for line in lines[1:]]
    assert len(rows) == matrix.shape[0]
    dense = matrix.toarray()
    for vertex, label, distance, predecessor in rows:
        v = int(vertex)
        assert int(label) == v + 1  # DIMACS ids count from 1
        if np.isinf(expected[v]):
            assert distance == "inf" and predecessor == ""
            continue
        assert distance == str(int(expected[v]))  # integer weights print exactly
        if v == 0:
            assert predecessor == ""
        else:  # the predecessor (a file label) lies on a shortest path
            u = int(predecessor) - 1
            assert dense[u, v] > 0 and expected[u] + dense[u, v] == expected[v]


def test_sssp_path_to_prints_a_shortest_path_in_file_ids(capsys, helsinki_reference):
    matrix, expected = helsinki_reference
    target = int(np.argmax(np.where(np.isfinite(expected), expected, -1)))  # the farthest
    status, out, err = run_cli(capsys, "sssp", HELSINKI, "--source", "1",
                               "--path-to", target + 1)
    assert status == 0, err
    labels = [int(x) for x in summary_value(out, "path").split(" -> ")]
    assert labels[0] == 1 and labels[-1] == target + 1
    dense = matrix.toarray()
    length = sum(dense[a - 1, b - 1] for a, b in zip(labels, labels[1:]))
    assert all(dense[a - 1, b - 1] > 0 for a, b in zip(labels, labels[1:]))
    assert length == expected[target]
    assert summary_value(out, "path length").startswith(f"{int(length):,} ({len(labels)} vertices")


def test_sssp_path_to_an_unreachable_vertex(capsys, helsinki_reference):
    _, expected = helsinki_reference
    unreachable = int(np.flatnonzero(np.isinf(expected))[0])
    status, out, _ = run_cli(capsys, "sssp", HELSINKI, "-s", "1", "-t", unreachable + 1)
    assert status == 0
    assert "not reachable" in summary_value(out, "path")


def test_sssp_limit_and_no_predecessors(tmp_path, capsys, helsinki_reference):
    _, expected = helsinki_reference
    out_file = tmp_path / "d.npy"
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "-s", "1", "--limit", "5000",
                             "--no-predecessors", "-o", out_file)
    assert status == 0, err
    np.testing.assert_array_equal(np.load(out_file), np.where(expected <= 5000, expected, np.inf))


def test_sssp_undirected_matches_scipy(tmp_path, capsys, helsinki_reference):
    matrix, _ = helsinki_reference
    out_file = tmp_path / "d.npy"
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "-s", "1", "--undirected", "-o", out_file)
    assert status == 0, err
    np.testing.assert_array_equal(np.load(out_file),
                                  dijkstra(matrix, directed=False, indices=0))


# ---------------------------------------------------------------------------- bfs, apsp


def test_bfs_levels_match_scipy(tmp_path, capsys, helsinki_reference):
    matrix, _ = helsinki_reference
    out_file = tmp_path / "levels.csv"
    status, out, err = run_cli(capsys, "bfs", HELSINKI, "--source", "1", "-o", out_file)
    assert status == 0, err
    hops = shortest_path(matrix, unweighted=True, indices=0)
    rows = [line.split(",") for line in out_file.read_text().splitlines()[1:]]
    levels = np.array([int(row[2]) for row in rows])
    np.testing.assert_array_equal(levels, np.where(np.isinf(hops), -1, hops))
    assert summary_value(out, "max level").startswith(f"{int(hops[np.isfinite(hops)].max())} ")
    npy = tmp_path / "levels.npy"
    assert run_cli(capsys, "bfs", HELSINKI, "-s", "1", "-o", npy)[0] == 0
    np.testing.assert_array_equal(np.load(npy), levels)


@pytest.fixture
def small_random_file(tmp_path, capsys):
    path = tmp_path / "random.gr"
    status, out, err = run_cli(capsys, "generate", "random", "--vertices", 40, "--edges", 160,
                               "--seed", 3, "--output", path)
    assert status == 0, err
    assert out.startswith(f"wrote {path}: random, 40 vertices")
    return path


def test_apsp_matrix_and_long_csv_match_scipy(small_random_file, tmp_path, capsys):
    expected = floyd_warshall(min_weight_csr(*read_dimacs(small_random_file)))
    npy, csv_file = tmp_path / "m.npy", tmp_path / "m.csv"
    status, out, err = run_cli(capsys, "apsp", small_random_file, "-o", npy)
    assert status == 0, err
    np.testing.assert_array_equal(np.load(npy), expected)
    pairs = int(np.isfinite(expected).sum())
    assert summary_value(out, "reachable pairs").startswith(f"{pairs:,} of 1,600")

    status, _, err = run_cli(capsys, "apsp", small_random_file, "--method", "floyd-warshall",
                             "-o", csv_file)
    assert status == 0, err
    lines = csv_file.read_text().splitlines()
    assert lines[0] == "source,source_label,target,target_label,distance,predecessor"
    assert len(lines) - 1 == pairs  # one row per reachable pair
    for line in lines[1:]:
        s, s_label, t, t_label, distance, _ = line.split(",")
        assert int(s_label) == int(s) + 1 and int(t_label) == int(t) + 1
        assert float(distance) == expected[int(s), int(t)]


# ---------------------------------------------------------------------------- info, generate, convert


def test_info_prints_the_stats_table(capsys):
    status, out, err = run_cli(capsys, "info", HELSINKI)
    assert status == 0, err
    n, tails, heads, weights = read_dimacs(HELSINKI)
    assert summary_value(out, "vertices") == f"{n:,}"
    assert summary_value(out, "edges (arcs)") == f"{tails.size:,}"
    assert summary_value(out, "vertex ids").startswith(f"1..{n}")
    assert summary_value(out, "weights").endswith(f"{weights.min():,} .. {weights.max():,}")
    assert summary_value(out, "max out-degree") == str(np.bincount(tails).max())


@pytest.mark.parametrize("kind, params", [
    ("grid", ["--rows", 4, "--cols", 5]),
    ("ring", ["--vertices", 9, "--float-weights"]),
    ("complete", ["--vertices", 6, "--undirected"]),
    ("rmat", ["--scale", 5, "--edge-factor", 4]),
    ("power-law", ["--vertices", 200, "--avg-degree", 4, "--max-degree", 40]),
    ("random", ["--vertices", 30, "--edges", 90, "--negative-weights"]),
])
def test_generate_and_convert_round_trip(kind, params, tmp_path, capsys):
    first = tmp_path / "g.npz"
    status, _, err = run_cli(capsys, "generate", kind, *params, "--seed", 7, "-o", first)
    assert status == 0, err
    original = warpath.read(first)
    chain = [first, tmp_path / "g.mtx", tmp_path / "g.gr.gz", tmp_path / "back.npz"]
    for source, target in zip(chain, chain[1:]):
        status, out, err = run_cli(capsys, "convert", source, target)
        assert status == 0, err
        assert out.startswith(f"wrote {target}: {original.num_vertices:,} vertices, "
                              f"{original.num_edges:,} arcs")
    back = warpath.read(chain[-1])
    assert back.num_vertices == original.num_vertices
    assert (back.to_scipy() != original.to_scipy()).nnz == 0


def test_generate_is_seeded(tmp_path, capsys):
    paths = [tmp_path / f"{i}.gr" for i in range(3)]
    for path, seed in zip(paths, (1, 1, 2)):
        assert run_cli(capsys, "generate", "random", "-n", 20, "-e", 50, "--seed", seed,
                       "-o", path)[0] == 0
    assert paths[0].read_bytes() == paths[1].read_bytes() != paths[2].read_bytes()


def test_methods_lists_the_registry(capsys):
    status, out, _ = run_cli(capsys, "methods")
    assert status == 0
    for m in warpath.methods.available():
        assert re.search(rf"^{m.problem}\s+{re.escape(m.name)}\s+{m.device}\s", out, re.M), m
    assert "GPU: " in out


# ---------------------------------------------------------------------------- user errors


def test_missing_file(capsys, tmp_path):
    status, out, err = run_cli(capsys, "sssp", tmp_path / "nope.gr", "--source", "1")
    assert status == 1 and out == ""
    assert_one_line_error(err, "nope.gr", "no such file")


def test_malformed_file_names_file_and_line(capsys, tmp_path):
    path = tmp_path / "bad.gr"
    path.write_text("p sp 3 2\na 1 2 5\na 2 x 1\n")
    status, _, err = run_cli(capsys, "sssp", path, "--source", "1")
    assert status == 1
    assert_one_line_error(err, "bad.gr", ":3")


@pytest.mark.parametrize("option", ["--source", "--path-to"])
@pytest.mark.parametrize("vertex", ["0", "1438", "abc"])
def test_vertex_not_in_graph(capsys, option, vertex):
    args = ["sssp", HELSINKI, "--source", "1", option, vertex]
    status, _, err = run_cli(capsys, *args)
    assert status == 1
    assert_one_line_error(err, option, vertex)


def test_negative_cycle_prints_the_cycle_in_file_ids(tmp_path, capsys):
    path = tmp_path / "cycle.gr"
    assert run_cli(capsys, "generate", "ring", "-n", 12, "--negative-cycle", "--seed", 5,
                   "-o", path)[0] == 0
    status, _, err = run_cli(capsys, "sssp", path, "--source", "1")
    assert status == 1
    assert_one_line_error(err, "negative-weight cycle", "reachable from source 1")
    cycle = [int(x) for x in err.rsplit(": ", 1)[1].split(" (file ids)")[0].split(" -> ")]
    assert cycle[0] == cycle[-1] and len(cycle) >= 2
    n, tails, heads, weights = read_dimacs(path)
    lightest = {}
    for a, b, w in zip(tails + 1, heads + 1, weights):  # file ids
        lightest[a, b] = min(w, lightest.get((a, b), w))
    assert sum(lightest[a, b] for a, b in zip(cycle, cycle[1:])) < 0

    status, _, err = run_cli(capsys, "apsp", path)
    assert status == 1
    assert_one_line_error(err, "negative-weight cycle")


def test_negative_weights_with_dijkstra_names_bellman_ford(tmp_path, capsys):
    path = tmp_path / "neg.gr"
    assert run_cli(capsys, "generate", "grid", "--rows", 3, "--cols", 3, "--negative-weights",
                   "-o", path)[0] == 0
    status, _, err = run_cli(capsys, "sssp", path, "-s", "1", "-m", "dijkstra")
    assert status == 1
    assert_one_line_error(err, "bellman-ford")


@pytest.mark.parametrize("args, fragment", [
    (["--method", "teleport"], "teleport"),
    (["--method", "queue"], "queue"),  # a bfs method, not an sssp one
    (["--option", "k=4", "--method", "dijkstra"], "no option k"),
])
def test_unknown_method_or_option(capsys, args, fragment):
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "--source", "1", *args)
    assert status in (1, 2)
    assert_one_line_error(err, fragment)


def test_cuda_without_gpu_is_one_line(capsys, monkeypatch):
    import warpath.device

    monkeypatch.setattr(warpath.device, "gpu_status", lambda: (False, "no CUDA GPU was found"))
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "--source", "1", "--device", "cuda")
    assert status == 1
    assert_one_line_error(err, "cuda", "no CUDA GPU was found")
    # and auto falls back to the CPU
    status, out, err = run_cli(capsys, "sssp", HELSINKI, "--source", "1")
    assert status == 0, err
    assert summary_value(out, "method").endswith("(cpu)")


def test_gpu_method_by_name(tmp_path, capsys):
    """A CUDA method named on the command line runs (in the simulator without a GPU)."""
    gpu = [m.name for m in warpath.methods.available("sssp", "cuda")]
    if not gpu or not warpath.gpu_available():
        pytest.skip("no CUDA sssp method or no GPU/simulator here")
    path, out_file = tmp_path / "grid.gr", tmp_path / "d.npy"
    assert run_cli(capsys, "generate", "grid", "--rows", 4, "--cols", 4, "-o", path)[0] == 0
    status, out, err = run_cli(capsys, "sssp", path, "-s", "1", "-m", gpu[0], "-o", out_file)
    assert status == 0, err
    assert summary_value(out, "method") == f"{gpu[0]} (cuda)"
    expected = dijkstra(min_weight_csr(*read_dimacs(path)), indices=0)
    np.testing.assert_array_equal(np.load(out_file), expected)


@pytest.mark.parametrize("args", [
    [],
    ["sssp", str(HELSINKI)],  # no --source
    ["sssp", str(HELSINKI), "-s", "1", "--device", "tpu"],
    ["sssp", str(HELSINKI), "-s", "1", "--limit", "-3"],
    ["sssp", str(HELSINKI), "-s", "1", "-o", "out.txt"],
    ["sssp", str(HELSINKI), "-s", "1", "-t", "5", "--no-predecessors"],
    ["generate", "grid", "--rows", "3", "-o", "g.gr"],  # no --cols
    ["generate", "hypercube", "-n", "3", "-o", "g.gr"],
    ["frobnicate"],
])
def test_usage_errors_exit_2(capsys, args):
    status, out, err = run_cli(capsys, *args)
    assert status == 2 and out == ""
    assert_one_line_error(err)


def test_output_into_missing_directory_fails_before_work(capsys, tmp_path):
    status, _, err = run_cli(capsys, "sssp", HELSINKI, "-s", "1", "-o", tmp_path / "no" / "d.npy")
    assert status == 1
    assert_one_line_error(err, "does not exist")


def test_version_and_help(capsys):
    status, out, _ = run_cli(capsys, "--version")
    assert status == 0 and out.strip() == f"warpath {warpath.__version__}"
    status, out, _ = run_cli(capsys, "sssp", "--help")
    assert status == 0 and "--path-to" in out


def test_bench_is_delegated(capsys):
    pytest.importorskip("warpath.benchmark.command")
    status, out, _ = run_cli(capsys, "bench", "--help")
    assert status == 0 and "--quick" in out


# ---------------------------------------------------------------------------- as a process


def _python_m_warpath(*args):
    src = os.path.dirname(os.path.dirname(warpath.__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [src] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    return subprocess.run([sys.executable, "-m", "warpath", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)


def test_python_m_warpath_runs_the_readme_demo(helsinki_reference):
    _, expected = helsinki_reference
    done = _python_m_warpath("sssp", HELSINKI, "--source", "1")
    assert done.returncode == 0, done.stderr
    reached = int(np.isfinite(expected).sum())
    assert summary_value(done.stdout, "reached").startswith(f"{reached:,} of 1,437")
    assert done.stderr == ""


def test_python_m_warpath_error_is_one_line(tmp_path):
    done = _python_m_warpath("info", tmp_path / "missing.gr")
    assert done.returncode == 1 and done.stdout == ""
    assert_one_line_error(done.stderr, "missing.gr")


def test_apsp_npy_is_written_during_the_run_in_the_dtype_asked(small_random_file, tmp_path,
                                                                capsys, monkeypatch):
    """``apsp -o X.npy`` goes through warpath.apsp's out= (no writer after the run), with
    progress, and --dtype picks the file's type."""
    import warpath.api
    import warpath.cli as cli

    monkeypatch.setattr(cli, "APSP_PROGRESS_MIN_VERTICES", 1)
    calls = []
    real = warpath.api.apsp
    monkeypatch.setattr(warpath, "apsp", lambda *a, **k: calls.append(k) or real(*a, **k))
    expected = floyd_warshall(min_weight_csr(*read_dimacs(small_random_file)))
    npy = tmp_path / "m.npy"
    status, out, err = run_cli(capsys, "apsp", small_random_file, "-o", npy, "--dtype", "int32")
    assert status == 0, err
    assert calls[0]["out"] == str(npy) and calls[0]["dtype"] == "int32"
    assert err.strip().splitlines()[-1].split(": ")[1].startswith("100% (")
    stored = np.load(npy)
    assert stored.dtype == np.int32
    np.testing.assert_array_equal(np.where(np.isinf(expected), 2**31 - 1, expected), stored)
    assert summary_value(out, "output") == str(npy)


@pytest.mark.parametrize("method", ["repeated-sssp", "johnson", "floyd-warshall"])
def test_apsp_progress_lines_when_not_on_a_terminal(small_random_file, tmp_path, capsys,
                                                    monkeypatch, method):
    """Piped (not a terminal), a big apsp says how far it is on stderr; same matrix."""
    import warpath.cli as cli

    monkeypatch.setattr(cli, "APSP_PROGRESS_MIN_VERTICES", 1)
    expected = floyd_warshall(min_weight_csr(*read_dimacs(small_random_file)))
    csv_file = tmp_path / "m.csv"
    status, out, err = run_cli(capsys, "apsp", small_random_file, "-m", method, "-o", csv_file)
    assert status == 0, err
    lines = err.strip().splitlines()
    assert lines and all(line.startswith(f"apsp ({method}, cpu): ") for line in lines), err
    assert lines[-1].split(": ")[1].startswith("100% (")
    rows = [line.split(",") for line in csv_file.read_text().splitlines()[1:]]
    got = np.full_like(expected, np.inf)
    for s, _, t, _, distance, _ in rows:
        got[int(s), int(t)] = float(distance)
    np.testing.assert_array_equal(got, expected)
    assert summary_value(out, "method") == f"{method} (cpu)"


def test_apsp_progress_bar_on_a_terminal(small_random_file, capsys, monkeypatch):
    import warpath.cli as cli
    import warpath.progress

    monkeypatch.setattr(cli, "APSP_PROGRESS_MIN_VERTICES", 1)
    drawn = []
    monkeypatch.setattr(warpath.progress, "ProgressBar",
                        lambda label, stream=None: drawn.append(label) or
                        warpath.progress.ProgressLines(label, stream))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, out, err = run_cli(capsys, "apsp", small_random_file, "-m", "johnson")
    assert status == 0, err
    assert drawn == ["apsp (johnson, cpu)"]


# ---------------------------------------------------------------------------- the README


README = HELSINKI.parents[1] / "README.md"


def test_readme_python_examples_run(monkeypatch):
    import doctest

    monkeypatch.chdir(README.parent)  # the examples read data/... from the repository root
    source = "\n".join(re.findall(r"```python\n(.*?)```", README.read_text(), re.S))
    test = doctest.DocTestParser().get_doctest(source, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 10 and failed == 0


def test_readme_command_line_examples_run(tmp_path, monkeypatch, capsys):
    """Every ``python3 -m warpath`` line of the README's command-line tour exits 0."""
    tour = README.read_text().split("## The command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", tour, re.S).group(1)
    lines = [line.split() for line in block.splitlines() if line.strip()]
    assert len(lines) >= 8
    (tmp_path / "data").symlink_to(HELSINKI.parent)
    monkeypatch.chdir(tmp_path)
    for words in lines:
        assert words[:3] == ["python3", "-m", "warpath"], words
        if words[3] == "bench":
            continue  # CI runs the quick suite on its own (.ci/run)
        status, _, err = run_cli(capsys, *words[3:])
        assert status == 0, (words, err)


def test_readme_begins_with_the_two_set_up_commands():
    first = README.read_text().split("```", 2)[1].splitlines()
    assert first[0] == "bash" and len(first) == 3
    assert first[1].endswith("python3 -m warpath sssp data/helsinki-osm-drive.gr.gz --source 1")
    assert first[2] == 'python3 -m pip install -e ".[test]" && python3 -m pytest'
    ci = (README.parent / ".ci" / "run").read_text()
    assert f"TEST_COMMAND='{first[2]}'" in ci


# ---------------------------------------------------------------------------- PACE road topologies, random weights


def write_pace_text(path, n, pairs):
    path.write_text(f"c test\np tw {n} {len(pairs)}\n" + "".join(f"{u} {v}\n" for u, v in pairs))
    return path


def test_info_counts_the_edges_of_a_real_pace_road_network(capsys, datasets_dir):
    status, out, err = run_cli(capsys, "info", f"{datasets_dir}/USA-road-NY.pace16.gr.xz")
    assert status == 0, err
    assert summary_value(out, "vertices") == "264,346"
    assert summary_value(out, "edges (arcs)") == "365,050 undirected (730,100 arcs)"
    assert summary_value(out, "weights").startswith("none")


def test_convert_pace_with_random_weights_to_matrix_market(tmp_path, capsys):
    pairs = [(1, 2), (2, 3), (3, 4), (4, 1), (2, 4)]
    source = write_pace_text(tmp_path / "square.gr", 4, pairs)
    target = tmp_path / "square.mtx"
    status, out, err = run_cli(capsys, "convert", source, target, "--random-weights", "10:20",
                               "--seed", "5")
    assert status == 0, err
    lines = [line.split() for line in target.read_text().splitlines() if line[:1] != "%"]
    assert lines[0] == ["4", "4", "5"]   # symmetric: each undirected edge once
    edges = {tuple(sorted((int(u), int(v)))): int(w) for u, v, w in lines[1:]}
    assert set(edges) == {tuple(sorted(pair)) for pair in pairs}
    assert all(10 <= w <= 20 for w in edges.values())
    expected = warpath.read(source).with_random_weights(10, 20, seed=5)
    assert sorted(edges.values()) == sorted(expected.weights[expected.tails() < expected.indices])


def test_sssp_with_random_weights_matches_scipy(tmp_path, capsys):
    rng = np.random.default_rng(4)
    pairs = sorted({tuple(sorted(p)) for p in rng.integers(1, 61, size=(150, 2)).tolist()
                    if p[0] != p[1]})
    source = write_pace_text(tmp_path / "roads.gr", 60, pairs)
    out_file = tmp_path / "d.npy"
    status, _, err = run_cli(capsys, "sssp", source, "--source", "1", "--random-weights",
                             "1:1000", "--seed", "8", "--output", out_file, "--device", "cpu")
    assert status == 0, err
    g = warpath.read(source).with_random_weights(1, 1000, seed=8)   # the same draws
    tails, heads = g.tails(), g.indices
    assert all(g.weights[(tails == v - 1) & (heads == u - 1)] ==
               g.weights[(tails == u - 1) & (heads == v - 1)] for u, v in pairs)
    matrix = sp.csr_array((g.weights.astype(float), (tails, heads)), shape=(60, 60))
    np.testing.assert_array_equal(np.load(out_file), dijkstra(matrix, indices=0))


@pytest.mark.parametrize("args, fragment", [
    (["--random-weights", "1-9"], "LOW:HIGH"),
    (["--random-weights", "9:1"], "LOW is above HIGH"),
    (["--random-weights", "a:b"], "two integers"),
    (["--seed", "3"], "--seed goes with --random-weights"),
])
def test_random_weight_usage_errors(tmp_path, capsys, args, fragment):
    source = write_pace_text(tmp_path / "g.gr", 2, [(1, 2)])
    status, _, err = run_cli(capsys, "info", source, *args)
    assert status == 2
    assert_one_line_error(err, fragment)

# ---------------------------------------------------------------------------- cold start

# Runs in a fresh interpreter with an empty numba cache (a fresh install): the CLI under a
# CompileTimer; prints the compile seconds, the wall seconds and the CLI's own output.
COLD_SCRIPT = """
import json, sys, time
start = time.perf_counter()
sys.path.insert(0, sys.argv[1])
from warpath.jit import CompileTimer
import warpath.cli
if sys.argv[2] == "compiled-parser":
    from warpath.formats import _plain
    _plain.SMALL_FILE_BYTES = 0
with CompileTimer() as compiling:
    status = warpath.cli.main(sys.argv[3:])
print(json.dumps([status, compiling.seconds, time.perf_counter() - start]))
"""


def _cold(tmp_path, mode, *argv):
    src = os.path.dirname(os.path.dirname(warpath.__file__))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    done = subprocess.run([sys.executable, "-c", COLD_SCRIPT, src, mode, *map(str, argv)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    *out, last = done.stdout.splitlines()
    status, compile_seconds, wall = __import__("json").loads(last)
    return status, compile_seconds, wall, "\n".join(out), done.stderr


def test_readme_command_compiles_nothing_on_a_fresh_install(tmp_path):
    """Issue 16: the README's main command took 28 s on its first run (numba compiling the
    parser and Dijkstra); a small graph now needs no compilation at all."""
    status, compile_seconds, wall, out, err = _cold(tmp_path, "plain", "sssp", HELSINKI,
                                                    "--source", "1")
    assert status == 0 and err == ""
    assert compile_seconds == 0.0
    assert "compiling" not in summary_value(out, "graph")
    assert summary_value(out, "time").endswith("(run in the interpreter: no compilation for a "
                                               "graph this small)")
    assert wall < 5.0   # the bound for a first run (about 1 s on the 2-core machine)


def test_parser_compilation_is_reported_as_compilation(tmp_path):
    """A file big enough for the compiled parser: its compile time is said apart, not counted
    as reading time."""
    status, compile_seconds, wall, out, err = _cold(tmp_path, "compiled-parser", "info",
                                                    HELSINKI)
    assert status == 0 and compile_seconds > 0
    match = re.search(r"\(read in ([\d.]+) (us|ms|s) \(and ([\d.]+) s compiling the parser, "
                      r"once\)\)", summary_value(out, "file"))
    assert match, out
    # info also compiles the statistics' BFS after reading: the parser's share is said alone
    assert 0 < float(match.group(3)) <= compile_seconds + 0.01


WARM_UP_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import warpath
from warpath.jit import CompileTimer
g = warpath.read(sys.argv[2])
chosen = warpath.methods.resolve("sssp", g, device="cpu")
with CompileTimer() as warming:
    warpath.api.warm_up(chosen, g)
with CompileTimer() as querying:
    warpath.sssp(g, 0, method=chosen.name, device=chosen.device)
print(json.dumps([warming.seconds, querying.seconds]))
"""


def test_warm_up_compiles_what_the_query_then_runs(tmp_path):
    """Above the interpreted size, the warm-up compiles the kernel: the timed query does not."""
    g = warpath.generators.grid(100, 100, seed=0)            # 39,600 arcs: the compiled path
    assert g.num_edges > warpath.methods.find("sssp", "dijkstra", "cpu").interpreted_arcs
    path = tmp_path / "grid.gr"
    warpath.write(g, path)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    done = subprocess.run([sys.executable, "-c", WARM_UP_SCRIPT,
                           os.path.dirname(os.path.dirname(warpath.__file__)), path],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    warming, querying = __import__("json").loads(done.stdout.splitlines()[-1])
    assert warming > 0 and querying == 0.0


# ---------------------------------------------------------------------------- the contract

@pytest.fixture(scope="module")
def contract_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("contract")
    grid = warpath.generators.grid(4, 4, seed=1)
    warpath.write(grid, folder / "grid.gr")
    warpath.write(warpath.generators.with_negative_weights(grid, seed=1), folder / "negative.gr")
    warpath.write(warpath.generators.with_negative_cycle(grid, seed=1), folder / "cycle.gr")
    (folder / "bad.gr").write_text("p sp 2 1\na 1 x 3\n")
    return folder


# (command line, exit status, text the one error line must hold): 2 when the command line is
# wrong, 1 when the data or the machine says no.
CLI_CASES = [
    (["sssp", "{f}/missing.gr", "-s", "1"], 1, "missing.gr"),
    (["sssp", "{f}/bad.gr", "-s", "1"], 1, "bad.gr:2"),
    (["sssp", "{f}/grid.gr", "-s", "99"], 1, "no vertex 99"),
    (["sssp", "{f}/grid.gr", "-s", "x"], 1, "'x'"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-m", "nosuch"], 2, "'nosuch'"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-O", "nosuch=1"], 2, "no option nosuch"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-m", "dijkstra", "-O", "heap_arity=0"], 2,
     "heap_arity must be an integer from 2 to 16, not 0"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-O", "k"], 2, "NAME=VALUE"),
    (["sssp", "{f}/grid.gr", "-s", "1", "--limit", "-1"], 2, "'-1'"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-d", "gpu"], 2, "'gpu'"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-o", "{f}/out.txt"], 2, ".npy or .csv"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-o", "{f}/no/out.npy"], 1, "does not exist"),
    (["sssp", "{f}/grid.gr", "-s", "1", "--format", "nosuch"], 2, "'nosuch'"),
    (["sssp", "{f}/negative.gr", "-s", "1", "-m", "dijkstra"], 1, "non-negative"),
    (["sssp", "{f}/cycle.gr", "-s", "1"], 1, "negative-weight cycle"),
    (["sssp", "{f}/grid.gr", "-s", "1", "-m", "bellman-ford", "--limit", "3"], 2, "limit"),
    (["bfs", "{f}/grid.gr", "-s", "1", "--limit", "1.5"], 2, "'1.5'"),
    (["bfs", "{f}/grid.gr", "-s", "1", "--path-to", "5", "--no-predecessors"], 2,
     "--path-to needs the predecessors"),
    (["apsp", "{f}/grid.gr", "-m", "floyd-warshall", "-O", "tile=0"], 2, "tile"),
    (["apsp", "{f}/cycle.gr"], 1, "negative-weight cycle"),
    (["apsp", "{f}/grid.gr", "-m", "nosuch"], 2, "'nosuch'"),
    (["info", "{f}/bad.gr"], 1, "bad token 'x'"),
    (["info", "{f}"], 1, "directory"),
    (["generate", "grid", "--rows", "3", "-o", "{f}/g.gr"], 2, "--cols"),
    (["generate", "random", "-n", "3", "-e", "100", "-o", "{f}/g.gr"], 2, "100"),
    (["generate", "ring", "-n", "3", "-o", "{f}/g.xyz"], 2, "'.xyz'"),
    (["generate", "ring", "-n", "3", "-o", "{f}/no/g.gr"], 1, "does not exist"),
    (["convert", "{f}/grid.gr", "{f}/grid.xyz"], 2, "'.xyz'"),
    (["convert", "{f}/grid.gr", "{f}/grid.out", "--to", "nosuch"], 2, "'nosuch'"),
    (["convert", "{f}/missing.gr", "{f}/g.mtx"], 1, "missing.gr"),
    (["methods", "nosuch"], 2, "'nosuch'"),
    (["bench", "nosuch"], 2, "unknown suite 'nosuch'"),
    (["bench"], 2, "give a SUITE"),
    (["nosuch"], 2, "'nosuch'"),
    ([], 2, "required"),
    (["sssp", "{f}/grid.gr", "-s", "1", "--nosuch"], 2, "--nosuch"),
]


@pytest.mark.parametrize("argv, status, text", CLI_CASES,
                         ids=[" ".join(case[0]) for case in CLI_CASES])
def test_every_command_called_wrong_says_one_line_and_follows_the_exit_rule(
        contract_files, capsys, argv, status, text):
    got, out, err = run_cli(capsys, *[a.format(f=contract_files) for a in argv])
    assert got == status, err
    assert_one_line_error(err, text)
    assert "internal error" not in err


def test_bfs_takes_negative_weights(contract_files, capsys):
    """Issue 16: BFS ignores weights, so a graph with negative ones is traversed."""
    status, out, err = run_cli(capsys, "bfs", contract_files / "negative.gr", "--source", "1")
    assert status == 0 and err == "", err
    assert summary_value(out, "reached").startswith("16 of 16")


def test_warnings_are_one_line_without_a_source_path(tmp_path, capsys):
    g = warpath.Graph.from_edges([0, 1], [1, 2], np.array([2**62, 2**62], dtype=np.int64))
    warpath.write(g, tmp_path / "huge.gr")
    status, out, err = run_cli(capsys, "sssp", tmp_path / "huge.gr", "--source", "1")
    assert status == 0
    assert err.strip() and all(line.startswith("warpath: warning: ")
                               for line in err.strip().splitlines()), err
    assert ".py:" not in err and "RuntimeWarning" not in err


def test_a_reader_that_stops_early_is_not_an_error():
    """``warpath methods | head -1``: the closed pipe ends the command quietly, with 0."""
    src = os.path.dirname(os.path.dirname(warpath.__file__))
    env = dict(os.environ, PYTHONPATH=src)
    process = subprocess.Popen([sys.executable, "-m", "warpath", "methods"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()   # before it writes anything: every write meets a closed pipe
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0 and err == "", err


def test_info_says_how_the_direction_was_decided(tmp_path, capsys):
    import networkx as nx

    path = tmp_path / "karate.txt"
    nx.write_edgelist(nx.karate_club_graph(), path, data=False)
    status, out, err = run_cli(capsys, "info", path)
    assert status == 0
    assert err.startswith("warpath: warning: ") and "--undirected" in err and len(
        err.strip().splitlines()) == 1
    assert summary_value(out, "direction").startswith("directed, assumed: the edge list does "
                                                      "not say")
    status, out, err = run_cli(capsys, "info", path, "--undirected")
    assert err == "" and summary_value(out, "direction").startswith("undirected (--undirected")
    assert summary_value(out, "edges (arcs)") == "78 undirected (156 arcs)"
    status, out, err = run_cli(capsys, "info", HELSINKI)
    assert summary_value(out, "direction") == "directed (as the file says)"


def test_warm_up_and_query_run_the_one_resolved_method(contract_files, capsys, monkeypatch):
    """Issue 10 (one door): on a GPU machine 'sssp --limit' warmed up a GPU method, then ran the
    CPU one. The CLI now asks methods.resolve, as the API does, and warms what runs."""
    import warpath.cli as cli
    import warpath.device

    monkeypatch.setattr(warpath.device, "_real_gpu", lambda: True)   # as on a GPU machine
    warmed, ran = [], []
    real_warm_up, real_sssp = cli.warm_up, warpath.sssp
    monkeypatch.setattr(cli, "warm_up", lambda chosen, graph, **kw: warmed.append(
        (chosen.name, chosen.device)) or real_warm_up(chosen, graph, **kw))
    monkeypatch.setattr(warpath, "sssp", lambda *a, **kw: ran.append(
        (kw["method"], kw["device"])) or real_sssp(*a, **kw))
    status, out, err = run_cli(capsys, "sssp", contract_files / "grid.gr", "-s", "1",
                               "--limit", "50")
    assert status == 0, err
    assert warmed == ran == [("hbf", "cuda")]   # hbf takes a limit: the GPU runs it
    assert summary_value(out, "method") == "hbf (cuda)"


def test_a_large_csv_is_announced_with_its_size_and_npy_advised(contract_files, tmp_path,
                                                                 capsys, monkeypatch):
    import warpath.output

    monkeypatch.setattr(warpath.output, "CSV_WARNING_BYTES", 1)
    status, out, err = run_cli(capsys, "apsp", contract_files / "grid.gr", "-o",
                               tmp_path / "m.csv")
    assert status == 0
    assert err.startswith("warpath: warning: ") and "m.csv: a CSV of up to 256 pairs" in err
    assert ".npy matrix would be" in err and len(err.strip().splitlines()) == 1
