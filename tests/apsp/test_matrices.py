"""warpath.apsp.matrices: dtype= and out= for every many-source method, against scipy."""

import numpy as np
import pytest
from graph_strategies import assert_path, min_arc_weights, scipy_graph
from scipy.sparse import csgraph

import warpath
from warpath.apsp import memory
from warpath.apsp.matrices import Output, RowMatrices

CPU_METHODS = [("apsp", m.name) for m in warpath.methods.available("apsp", "cpu")] + \
    [("multi_source", m.name) for m in warpath.methods.available("multi_source", "cpu")]
SOURCES = [4, 0, 17, 4]


def run(problem, method, graph, **kwargs):
    if problem == "apsp":
        return warpath.apsp(graph, method=method, device="cpu", **kwargs)
    return warpath.multi_source(graph, SOURCES, method=method, device="cpu", **kwargs)


def expected(problem, graph):
    full = csgraph.floyd_warshall(scipy_graph(graph))
    return full if problem == "apsp" else full[SOURCES]


def test_every_cpu_method_is_covered():
    assert {name for _, name in CPU_METHODS} >= {"johnson", "repeated-sssp", "floyd-warshall"}


@pytest.mark.parametrize("problem, method", CPU_METHODS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32"])
@pytest.mark.parametrize("negative", [False, True])
def test_dtype_and_out_match_scipy(tmp_path, problem, method, dtype, negative):
    g = warpath.generators.random(30, 70, seed=3, max_weight=50)   # some pairs unreachable
    if negative:
        g = warpath.generators.with_negative_weights(g, seed=3)
    reference = expected(problem, g)
    assert np.isinf(reference).any() and np.isfinite(reference).any()
    in_memory = run(problem, method, g, dtype=dtype)
    assert in_memory._arrays._raw().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(in_memory.distances, reference)
    path = tmp_path / "d.npy"
    on_disk = run(problem, method, g, dtype=dtype, out=path)
    stored = np.load(path)
    assert stored.dtype == np.dtype(dtype) and stored.shape == reference.shape
    unreached = np.iinfo(dtype).max if dtype.startswith("int") else np.inf
    np.testing.assert_array_equal(np.where(np.isinf(reference), unreached, reference), stored)
    np.testing.assert_array_equal(on_disk.distances, reference)
    lightest = min_arc_weights(g)
    for row, source in enumerate(on_disk.sources[:3]):
        target = int(np.nanargmax(np.where(np.isfinite(reference[row]), reference[row], -1e18)))
        assert_path(g, on_disk.path(source, target), source, target, reference[row, target],
                    lightest)


@pytest.mark.parametrize("problem, method", CPU_METHODS)
def test_default_file_is_what_np_save_writes(tmp_path, problem, method):
    g = warpath.generators.grid(5, 6, seed=2)
    matrix = run(problem, method, g, out=tmp_path / "d.npy", predecessors=False)
    np.save(tmp_path / "expected.npy", run(problem, method, g).distances)
    assert (tmp_path / "d.npy").read_bytes() == (tmp_path / "expected.npy").read_bytes()
    assert matrix.predecessors is None


def test_default_keeps_the_exact_integer_matrix():
    g = warpath.Graph.from_edges([0], [1], np.array([2**40], dtype=np.int64))
    m = warpath.apsp(g, method="johnson", device="cpu")
    assert m.exact_distances[0, 1] == 2**40 and m._arrays._raw().dtype == np.int64


def test_predecessors_out_holds_the_predecessors(tmp_path):
    g = warpath.generators.random(25, 80, seed=9)
    m = warpath.apsp(g, method="repeated-sssp", device="cpu", out=tmp_path / "d.npy",
                     predecessors_out=tmp_path / "p.npy")
    reference = warpath.apsp(g, method="repeated-sssp", device="cpu")
    np.testing.assert_array_equal(np.load(tmp_path / "p.npy"), reference.predecessors)
    assert m.path(3, 20).tolist() == reference.path(3, 20).tolist()


def test_progress_reports_with_out(tmp_path):
    g = warpath.generators.random(300, 1200, seed=5)
    heard = []
    warpath.apsp(g, method="johnson", device="cpu", out=tmp_path / "d.npy",
                 progress=lambda done, total: heard.append((done, total)))
    assert len(heard) > 10 and heard[-1] == (300, 300) and heard == sorted(heard)


def test_int32_overflow_is_a_clear_error():
    g = warpath.Graph.from_edges([0, 1], [1, 2], np.array([2**30, 2**30], dtype=np.int64))
    with pytest.raises(warpath.DistanceOverflowError, match=r"2147483648 \(row 0, vertex 2\)"):
        warpath.apsp(g, method="johnson", device="cpu", dtype="int32")
    assert warpath.apsp(g, method="johnson", device="cpu", dtype="int64").exact_distances[0, 2] == 2**31


@pytest.mark.parametrize("dtype, match", [
    ("int32", "needs integer weights"), ("int8", "one of float64"), ("nonsense", "one of"),
])
def test_bad_dtype(dtype, match):
    g = warpath.generators.grid(3, 3, seed=0, weights="float")
    with pytest.raises(warpath.ArgumentError, match=match):
        warpath.apsp(g, device="cpu", dtype=dtype)


def test_bad_out_paths(tmp_path):
    g = warpath.generators.grid(3, 3, seed=0)
    with pytest.raises(warpath.ArgumentError, match=r"\.npy"):
        warpath.apsp(g, device="cpu", out=tmp_path / "d.csv")
    with pytest.raises(warpath.PathNotFoundError, match="does not exist"):
        warpath.multi_source(g, [0], device="cpu", out=tmp_path / "no" / "d.npy")
    with pytest.raises(warpath.ArgumentError, match="same file"):
        warpath.apsp(g, device="cpu", out=tmp_path / "d.npy", predecessors_out=tmp_path / "d.npy")


def test_a_failed_run_leaves_no_file(tmp_path):
    bad = warpath.generators.with_negative_cycle(warpath.generators.ring(8, seed=0), seed=0)
    with pytest.raises(warpath.NegativeCycleError):
        warpath.apsp(bad, method="repeated-sssp", device="cpu", out=tmp_path / "d.npy")
    assert not (tmp_path / "d.npy").exists()


def test_out_moves_the_matrix_from_memory_to_disk(tmp_path, monkeypatch):
    g = warpath.generators.ring(3000, seed=0)
    in_memory = memory.estimate(g, method="johnson", device="cpu", predecessors=False)
    on_disk = memory.estimate(g, method="johnson", device="cpu", predecessors=False,
                              out=tmp_path / "d.npy")
    assert on_disk.disk_bytes == 3000 * 3000 * 8 + memory.NPY_HEADER_BYTES
    assert on_disk.host_bytes < in_memory.host_bytes / 10
    halved = memory.estimate(g, method="johnson", device="cpu", predecessors=False,
                             dtype="int32", float_distances=False)
    assert halved.host_bytes < 0.6 * in_memory.host_bytes
    # Too little memory: the error says out= would help; with out= it runs.
    monkeypatch.setattr(memory, "available_memory", lambda: in_memory.host_bytes // 2)
    with pytest.raises(warpath.MemoryLimitError, match="out='d.npy'"):
        warpath.apsp(g, method="johnson", device="cpu", predecessors=False)


def test_disk_too_small_is_refused_before_any_work(tmp_path, monkeypatch):
    g = warpath.generators.ring(200, seed=0)
    monkeypatch.setattr(memory, "disk_free", lambda path: 1000)
    with pytest.raises(warpath.MemoryLimitError) as caught:
        warpath.apsp(g, method="johnson", device="cpu", out=tmp_path / "d.npy", dtype="float32")
    message = str(caught.value)
    assert f"0.0 GiB of disk in {tmp_path}" in message and "0.0 GiB is free" in message
    assert not (tmp_path / "d.npy").exists()


def test_row_matrices_convert_a_foreign_marker():
    """A GPU kernel's own infinity (here 100) becomes the stored type's unreachable value."""
    m = RowMatrices(1, 3, np.int32, 100, False, Output(np.dtype(np.float32)))
    m.write(0, np.array([[0, 100, 7]], dtype=np.int32))
    assert m.result(np.array([0]), {}).distances.tolist() == [[0.0, np.inf, 7.0]]
