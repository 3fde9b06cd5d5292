"""warpath.distributed on a local Dask cluster of two worker processes, against the
single-process calls (bit for bit) and scipy.sparse.csgraph.

The CPU cluster's tests name ``device="cpu"`` in every call: on a GPU machine ``"auto"``
would take GPU methods, whose shortest-path trees may break ties another way.  The
LocalCUDACluster test checks the GPU path."""

import os
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from graph_strategies import (assert_distances_equal, assert_negative_cycle,  # noqa: E402
                              scipy_graph, union)
from scipy.sparse import csgraph  # noqa: E402
from worker_faults import KillAfterFirstBatch  # noqa: E402

import warpath  # noqa: E402
import warpath.distributed as wd  # noqa: E402
from warpath import cli, generators, host_pool  # noqa: E402


@pytest.fixture(scope="module")
def client():
    # Worker processes, as on a real cluster: results cross process boundaries.  Each
    # worker imports warpath and loads the numba kernels on its first batch (seconds).
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        yield c


def random_graph():
    return generators.random(150, 900, seed=1)


def negative_graph(weights="int"):
    return generators.with_negative_weights(
        generators.random(120, 700, seed=2, weights=weights), seed=3)


def disconnected_graph():
    # two components that do not reach each other, and an isolated last vertex
    first = generators.random(40, 200, seed=4)
    second = generators.ring(30, seed=5)
    both = union(first, second)
    return warpath.Graph(np.append(both.indptr, both.indptr[-1]), both.indices, both.weights)


def assert_same_matrix(ours, single):
    """Bit-equal distances, exact distances and predecessors."""
    np.testing.assert_array_equal(ours.sources, single.sources)
    np.testing.assert_array_equal(ours.distances, single.distances)
    if single.exact_distances is None:
        assert ours.exact_distances is None
    else:
        np.testing.assert_array_equal(ours.exact_distances, single.exact_distances)
    np.testing.assert_array_equal(ours.predecessors, single.predecessors)


TRANSFERS = pytest.mark.parametrize("transfer", ["shared", "send"])


@TRANSFERS
def test_multi_source_random_graph(client, transfer):
    g = random_graph()
    sources = np.random.default_rng(0).integers(0, g.num_vertices, 37)
    sources[5] = sources[6]  # a duplicate gives an equal row
    ours = wd.multi_source(g, sources, client=client, batch_size=8, transfer=transfer, device="cpu")
    assert ours.stats["batches"] == 5 and ours.stats["workers"] == 2
    assert ours.stats["transfer"] == transfer
    per_worker = ours.stats["rows_per_worker"]
    assert set(per_worker) <= set(client.nthreads()) and sum(per_worker.values()) == 37
    assert ours.stats["solve_seconds"] > 0 and ours.stats["hand_over_seconds"] > 0
    assert_same_matrix(ours, warpath.multi_source(g, sources, device="cpu"))
    reference = csgraph.dijkstra(scipy_graph(g), indices=sources)
    assert_distances_equal(ours.distances, reference, g)


@TRANSFERS
@pytest.mark.parametrize("weights", ["int", "float"])
def test_apsp_negative_weights(client, weights, transfer):
    g = negative_graph(weights)
    assert g.has_negative_weights
    ours = wd.apsp(g, client=client, batch_size=25, transfer=transfer, device="cpu")
    single = warpath.apsp(g, device="cpu")
    assert single.stats["method"] == "johnson"
    assert_same_matrix(ours, single)
    assert_distances_equal(ours.distances, csgraph.johnson(scipy_graph(g)), g)
    assert ours.stats["iterations"] == single.stats["iterations"]


@TRANSFERS
def test_apsp_disconnected_graph_and_paths(client, transfer):
    g = disconnected_graph()
    ours = wd.apsp(g, client=client, batch_size=9, transfer=transfer, device="cpu")
    single = warpath.apsp(g, device="cpu")
    assert_same_matrix(ours, single)
    assert np.isinf(ours.distances[0, 45]) and np.isinf(ours.distances[:, -1]).sum() == 70
    assert_distances_equal(ours.distances, csgraph.dijkstra(scipy_graph(g)), g)
    for s, t in [(0, 39), (41, 40), (0, 45), (70, 70)]:
        np.testing.assert_array_equal(ours.path(s, t), single.path(s, t))
    assert ours.path(0, 45).size == 0


@TRANSFERS
def test_out_writes_npy_memory_maps(client, tmp_path, monkeypatch, transfer):
    g = negative_graph()
    monkeypatch.chdir(tmp_path)  # relative paths: the workers (other folders) get them whole
    out, pred_out = "d.npy", "p.npy"
    ours = wd.apsp(g, client=client, batch_size=30, out=out, predecessors_out=pred_out,
                   transfer=transfer, device="cpu")
    assert ours.stats["transfer"] == transfer
    single = warpath.apsp(g, device="cpu")
    np.testing.assert_array_equal(np.load(out), single.distances)
    np.testing.assert_array_equal(np.load(pred_out), single.predecessors)
    assert ours.distances.dtype == np.float64 and ours.exact_distances is None
    np.testing.assert_array_equal(ours.path(3, 77), single.path(3, 77))


def test_out_arguments_are_checked(client, tmp_path):
    g = random_graph()
    with pytest.raises(ValueError, match="predecessors_out"):
        wd.apsp(g, client=client, out=str(tmp_path / "d.npy"), device="cpu")
    with pytest.raises(ValueError, match=".npy"):
        wd.apsp(g, client=client, out=str(tmp_path / "d.csv"), predecessors=False, device="cpu")
    assert not os.listdir(tmp_path)


def test_negative_cycle_raises_with_the_cycle(client):
    bad = generators.with_negative_cycle(generators.random(60, 300, seed=6), seed=7)
    with pytest.raises(warpath.NegativeCycleError) as caught:
        wd.apsp(bad, client=client, device="cpu")
    assert_negative_cycle(bad, caught.value.cycle)
    with pytest.raises(warpath.NegativeCycleError):  # wherever the cycle is, as johnson
        wd.multi_source(bad, [0], client=client, device="cpu")


def test_bad_input_is_refused_on_the_client(client):
    g = random_graph()
    with pytest.raises(warpath.SourceError, match="150"):
        wd.multi_source(g, [0, 150], client=client, device="cpu")
    with pytest.raises(warpath.SourceError):
        wd.multi_source(g, [], client=client, device="cpu")
    with pytest.raises(warpath.MethodNotAvailable, match="floyd-warshall"):
        wd.apsp(g, client=client, method="floyd-warshall", device="cpu")
    with pytest.raises(warpath.EmptyGraphError):
        wd.apsp(warpath.Graph([0], []), client=client, device="cpu")


def test_graph_is_scattered_once_per_client(client, monkeypatch):
    g = random_graph()
    calls = []
    scatter = client.scatter
    monkeypatch.setattr(client, "scatter", lambda *a, **k: calls.append(1) or scatter(*a, **k))
    first = wd.multi_source(g, [0, 1], client=client, predecessors=False, device="cpu")
    second = wd.multi_source(g, [2, 3], client=client, predecessors=False, device="cpu")
    assert len(calls) == 1
    np.testing.assert_array_equal(second.distances,
                                  warpath.multi_source(g, [2, 3], device="cpu").distances)
    assert first.stats["method"] == "repeated-sssp" and first.stats["device"] == "cpu"


def test_distance_array_stays_lazy_and_matches(client):
    g = negative_graph()
    array = wd.distance_array(g, np.arange(50), client=client, batch_size=16, device="cpu")
    assert array.chunks[0] == (16, 16, 16, 2)
    np.testing.assert_array_equal(client.compute(array).result(),
                                  warpath.multi_source(g, np.arange(50), device="cpu").distances)


def test_distance_array_after_its_graph_is_lost(client):
    g = random_graph()
    array = wd.distance_array(g, np.arange(6), client=client, batch_size=3, device="cpu")
    client.cancel(wd._scattered[client][g])   # as when its only copy dies with a worker
    with pytest.raises(distributed.utils.CancelledError):
        client.compute(array).result()
    again = wd.distance_array(g, np.arange(6), client=client, batch_size=3, device="cpu")
    np.testing.assert_array_equal(client.compute(again).result(),
                                  warpath.multi_source(g, np.arange(6), device="cpu").distances)


def test_worker_killed_mid_run_loses_nothing(client, tmp_path):
    # On the shared path: the killed worker's batch is written again by the one that reruns it.
    g = negative_graph()
    flag = tmp_path / "killed"
    client.register_plugin(KillAfterFirstBatch(str(flag)))
    try:
        ours = wd.apsp(g, client=client, batch_size=6, transfer="shared", device="cpu")
    finally:
        client.unregister_worker_plugin(KillAfterFirstBatch.name)
    assert flag.exists(), "no worker was killed"
    assert ours.stats["transfer"] == "shared"
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the killed one


@TRANSFERS
def test_graph_lost_mid_run_is_sent_again(client, monkeypatch, transfer):
    # Dask's active memory manager keeps one copy of the broadcast graph when no task waits
    # for it: the worker holding it can die with it mid-run.  Its loss cancels every batch
    # that depends on it; they must run again on a graph sent again, not on the lost one.
    g = negative_graph()
    scatters = []
    scatter = client.scatter
    monkeypatch.setattr(client, "scatter", lambda *a, **k: scatters.append(1) or scatter(*a, **k))
    put = wd._Rows.put

    def lose_the_graph_after_the_first_batch(rows, *args):
        if len(scatters) == 1:
            client.cancel(wd._scattered[client][g])
            scatters.append("lost")
        put(rows, *args)

    monkeypatch.setattr(wd._Rows, "put", lose_the_graph_after_the_first_batch)
    ours = wd.apsp(g, client=client, batch_size=10, transfer=transfer, device="cpu")
    assert scatters == [1, "lost", 1], "the graph was not sent again"
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))


def test_auto_transfer_shares_files_on_a_local_cluster(client, tmp_path, monkeypatch):
    monkeypatch.setattr(wd.shared_rows, "shared_folder", lambda nbytes: str(tmp_path))
    g = random_graph()
    ours = wd.apsp(g, client=client, batch_size=40, device="cpu")
    assert ours.stats["transfer"] == "shared"
    assert not os.listdir(tmp_path), "the temporary result files were not unlinked"
    # read after the unlink: the maps hold the rows
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))


@pytest.mark.skipif(not wd.shared_rows.supported(), reason="stripe files need Linux")
def test_batches_write_across_many_stripe_files(client, tmp_path, monkeypatch):
    # Rows of 500 int64 (4,000 bytes) in files of one page: every batch of 40 rows is cut
    # into dozens of pieces, rows split between two files, written side by side by the
    # worker's threads.
    monkeypatch.setattr(wd.shared_rows, "shared_folder", lambda nbytes: str(tmp_path))
    monkeypatch.setattr(wd.shared_rows, "STRIPE_BYTES", 1)
    made = []
    real = wd.shared_rows.striped_matrix
    monkeypatch.setattr(wd.shared_rows, "striped_matrix",
                        lambda *args, **kw: made.append(real(*args, **kw)) or made[-1])
    g = generators.random(500, 3000, seed=6)
    ours = wd.apsp(g, client=client, batch_size=40, device="cpu")
    assert ours.stats["transfer"] == "shared"
    assert [m.files.stripe_bytes for m in made] == [wd.shared_rows.PAGE] * 2  # d, p
    assert not os.listdir(tmp_path)
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))


def test_without_stripe_files_one_temporary_file_each(client, tmp_path, monkeypatch):
    # Systems that cannot map files side by side (not Linux) share one .npy file per matrix.
    monkeypatch.setattr(wd.shared_rows, "shared_folder", lambda nbytes: str(tmp_path))
    monkeypatch.setattr(wd.shared_rows, "supported", lambda: False)
    seen = []
    real = wd._workers_see
    monkeypatch.setattr(wd, "_workers_see", lambda c, path: seen.append(path) or real(c, path))
    g = random_graph()
    ours = wd.apsp(g, client=client, batch_size=40, device="cpu")
    assert ours.stats["transfer"] == "shared"
    assert [os.path.dirname(p) for p in seen] == [str(tmp_path)] and seen[0].endswith(".npy")
    assert not os.listdir(tmp_path)
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))


def test_choose_transfer_on_remote_looking_workers():
    here = {"127.0.0.1", "192.0.2.2", "vm"}
    local = {"tcp://127.0.0.1:40331": {"host": "127.0.0.1"},
             "tcp://192.0.2.2:39551": {"host": "192.0.2.2"},
             "inproc://192.0.2.2/557/4": {"host": "192.0.2.2"}}
    remote = {**local, "tcp://10.8.0.5:40001": {"host": "10.8.0.5"}}
    assert wd.choose_transfer("auto", local, here) == "shared"
    assert wd.choose_transfer("shared", local, here) == "shared"
    assert wd.choose_transfer("auto", remote, here) == "send"
    assert wd.choose_transfer("send", local, here) == "send"
    with pytest.raises(warpath.ArgumentError, match="10.8.0.5"):
        wd.choose_transfer("shared", remote, here)
    with pytest.raises(warpath.ArgumentError, match="'gather'"):
        wd.choose_transfer("gather", local, here)
    assert {"127.0.0.1", "localhost"} <= wd.local_hosts()


def test_workers_that_cannot_open_the_files(client, tmp_path, monkeypatch):
    # Containers can share the host's network but not its files: auto sends, shared refuses;
    # the files made for the workers are removed either way.
    monkeypatch.setattr(wd.shared_rows, "shared_folder", lambda nbytes: str(tmp_path))
    monkeypatch.setattr(wd, "_workers_see", lambda client, path: False)
    g = random_graph()
    ours = wd.multi_source(g, [3, 1, 4], client=client, device="cpu")
    assert ours.stats["transfer"] == "send"
    assert_same_matrix(ours, warpath.multi_source(g, [3, 1, 4], device="cpu"))
    with pytest.raises(warpath.DeviceError, match="transfer='send'"):
        wd.multi_source(g, [3, 1, 4], client=client, transfer="shared", device="cpu")
    assert not os.listdir(tmp_path)
    with pytest.raises(warpath.ArgumentError, match="transfer"):
        wd.multi_source(g, [3], client=client, transfer="gather", device="cpu")


def test_files_are_removed_when_asking_the_workers_fails(client, tmp_path, monkeypatch):
    monkeypatch.setattr(wd.shared_rows, "shared_folder", lambda nbytes: str(tmp_path))

    def lost(client, path):
        raise OSError("the cluster went away")

    monkeypatch.setattr(wd, "_workers_see", lost)
    with pytest.raises(OSError, match="went away"):
        wd.multi_source(random_graph(), [3, 1], client=client, device="cpu", transfer="shared")
    assert not os.listdir(tmp_path)


def shared_files(tmp_path, dtypes, shape):
    """New ``.npy`` files as the client makes them for ``out=``, and their ``RowFiles``."""
    files = []
    for name, dtype in zip("dp", dtypes):
        path = str(tmp_path / f"{name}.npy")
        matrix = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=shape)
        files.append(wd.shared_rows.RowFiles(path, matrix.offset, shape[1] * matrix.itemsize))
    return files


def test_a_batch_writes_a_gpus_compact_types_into_the_shared_files(tmp_path):
    # As a GPU worker would (int32 distances and predecessors), here on the CPU in this
    # process: the rows are narrowed, shifted back by the potentials and written in place.
    g = negative_graph()
    shipment, _ = wd._shipment(g)
    files = shared_files(tmp_path, (np.int32, np.int32), (g.num_vertices,) * 2)
    layout = wd._Layout(np.dtype(np.int32), np.dtype(np.int32), *files)
    batch = np.arange(40, 80)
    assert wd._solve_batch(shipment, batch, 40, layout, "auto", "cpu", {})[:2] == (None, None)
    single = warpath.apsp(g, device="cpu")  # johnson, as the distributed path
    distances, predecessors = (np.load(files.path) for files in files)
    np.testing.assert_array_equal(warpath.DistanceMatrix(batch, distances[40:80]).exact_distances,
                                  single.exact_distances[40:80])
    np.testing.assert_array_equal(predecessors[40:80], single.predecessors[40:80])
    assert not distances[:40].any() and not distances[80:].any()  # no other rows touched


def test_rows_go_from_a_device_array_into_the_files(tmp_path, monkeypatch):
    cuda = pytest.importorskip("numba.cuda")
    # A staging buffer of two rows: the four rows go through it in two blocks.
    monkeypatch.setattr(wd, "STAGING_BYTES", 2 * 3 * 4)
    monkeypatch.setattr(wd, "_staging", threading.local())
    unreached = np.iinfo(np.int32).max
    rows = np.array([[0, 5, unreached], [3, 0, 1], [1, 1, 0], [0, 9, 2]], dtype=np.int32)
    preds = np.array([[-1, 0, 1], [1, -1, 1], [2, 2, -1], [-1, 0, 0]], dtype=np.int32)
    on_gpu = warpath.DistanceMatrix([0, 1, 2, 0], cuda.to_device(rows), cuda.to_device(preds))
    files = shared_files(tmp_path, (np.int32, np.int64), (6, 3))
    # the same type: straight from the GPU (no host rows are asked for)
    assert wd._hand_over(files[0], 1, on_gpu.device_distances, np.dtype(np.int32), None) is None
    assert wd._hand_over(files[1], 1, on_gpu._arrays.device_predecessors, np.dtype(np.int64),
                         lambda: wd._predecessor_rows(on_gpu, np.int64)) is None
    distances, predecessors = (np.load(files.path) for files in files)
    np.testing.assert_array_equal(distances[1:5], rows)
    np.testing.assert_array_equal(predecessors[1:5], preds)  # widened on the host
    assert not distances[[0, 5]].any() and not predecessors[[0, 5]].any()
    # Sent rows in other types: int64 and float64 with the unreached entries mapped.
    reference = warpath.DistanceMatrix([0, 1, 2, 0], rows)
    for expected in (reference.exact_distances, reference.distances):
        np.testing.assert_array_equal(
            wd._distance_rows(on_gpu, [0, 1, 2, 0], None, expected.dtype), expected)


class _FakeMark:
    def __init__(self, marks):
        self.released = False
        marks.append(self)

    def release(self):
        self.released = True


def test_a_gpu_workers_threads_solve_in_turn_and_hand_over_beside(tmp_path, monkeypatch):
    # Two threads of one GPU worker (here solving on the CPU, the worker taken for a GPU
    # one): the second batch asks to solve while the first is solving, and waits its turn;
    # then it is solved while the first batch's rows wait to be written.
    g = random_graph()
    shipment, _ = wd._shipment(g)
    files = shared_files(tmp_path, (np.float64,), (g.num_vertices, g.num_vertices))
    layout = wd._Layout(np.dtype(np.float64), None, files[0])
    solving, most, marks, results = [], [0], [], {}
    real_solve, real_write = wd.api.multi_source, wd._write_rows
    first_solving, first_writing, release = (threading.Event() for _ in range(3))

    def solve_alone(graph, batch, **kwargs):
        solving.append(1)
        most[0] = max(most[0], len(solving))
        if batch[0] == 0:
            first_solving.set()
            time.sleep(0.3)  # the second batch asks for the GPU meanwhile
        else:   # solved while the first batch's rows wait to be written (without this
            # wait, a quick second batch could finish before the first reached its write)
            assert first_writing.wait(30)
        try:
            return real_solve(graph, batch, **kwargs)
        finally:
            solving.pop()

    def held_write(files, start, rows):
        if start == 0:
            first_writing.set()
            assert release.wait(30)
        real_write(files, start, rows)

    monkeypatch.setattr(wd.api, "multi_source", solve_alone)
    monkeypatch.setattr(wd, "_runs_on", lambda device, method: "cuda")
    monkeypatch.setattr(wd, "_gpu_mark", lambda: _FakeMark(marks))
    monkeypatch.setattr(wd, "_write_rows", held_write)

    def run(first_row):
        results[first_row] = wd._solve_batch(shipment, np.arange(first_row, first_row + 75),
                                              first_row, layout, "auto", "cpu", {})

    first = threading.Thread(target=run, args=(0,))
    first.start()
    assert first_solving.wait(60)
    second = threading.Thread(target=run, args=(75,))
    second.start()
    second.join(60)
    assert not second.is_alive() and first_writing.is_set()
    assert first.is_alive(), "the second batch waited for the first one's hand-over"
    release.set()
    first.join()
    assert most[0] == 1, "two batches solved at once"
    assert results[75][2]["gpu_wait_seconds"] > 0.1  # it waited for the first one's solve
    assert len(marks) == 2 and all(m.released for m in marks)
    expected = warpath.multi_source(g, np.arange(150), device="cpu").distances
    np.testing.assert_array_equal(np.load(files[0].path), expected)


def test_batches_leave_room_for_every_thread_of_a_worker():
    facts = {"a": (2**40, 2**30, "cuda"), "b": (2**40, 2**30, "cuda")}
    one = wd._batch_size(facts, 10**6, 1000, False, {"a": 1, "b": 1})
    assert one == 2**29 // (1000 * wd.entry_bytes(False))
    # worker b runs two threads, each holding a batch: half the rows per batch
    assert wd._batch_size(facts, 10**6, 1000, False, {"a": 1, "b": 2}) == one // 2
    # few sources: about BATCHES_PER_THREAD batches per thread of all the workers
    assert wd._batch_size(facts, 600, 1000, False, {"a": 2, "b": 1}) == 50


def test_rows_converted_on_the_host_are_read_after_the_mark_too():
    # Johnson's shifted rows, sent rows and widened predecessors go through the host: their
    # copies wait for the batch's mark, not for the next batch's solve (a GPU worker of two
    # threads overlaps those hand-overs too).
    cuda = pytest.importorskip("numba.cuda")
    rows = np.array([[0, 5, np.iinfo(np.int32).max], [3, 0, 1]], dtype=np.int32)
    preds = np.array([[-1, 0, -1], [1, -1, 1]], dtype=np.int32)
    on_gpu = warpath.DistanceMatrix([0, 1], cuda.to_device(rows), cuda.to_device(preds))
    copies = []

    class Mark:
        def copy_to_host(self, device, host):
            copies.append(device.shape)
            device.copy_to_host(host)
            return host

    expected = warpath.DistanceMatrix([0, 1], rows)
    np.testing.assert_array_equal(wd._distance_rows(on_gpu, [0, 1], None, np.float64, Mark()),
                                  expected.distances)
    np.testing.assert_array_equal(wd._predecessor_rows(on_gpu, np.int64, Mark()), preds)
    assert copies == [(2, 3), (2, 3)]


@pytest.fixture
def one_writer(monkeypatch):
    """One writer thread, staging buffers of three rows of 4,000 bytes (two of them)."""
    monkeypatch.setattr(wd, "WRITE_THREADS", 1)
    monkeypatch.setattr(wd, "STAGING_BYTES", 3 * 4000)
    monkeypatch.setattr(wd, "_staging", threading.local())
    host_pool.forget("write")   # made again with one thread
    yield
    host_pool.forget("write")


@pytest.mark.skipif(not wd.shared_rows.supported(), reason="stripe files need Linux")
def test_device_rows_cross_stripe_files_through_reused_buffers(tmp_path, one_writer):
    cuda = pytest.importorskip("numba.cuda")
    # Rows of 4,000 bytes in files of one page: rows 1..7 are three blocks of 3, 3 and 1
    # rows, each cut into pieces where it crosses into the next file; the third block
    # reuses the first buffer once its pieces are written.
    rows = np.arange(7 * 1000, dtype=np.int32).reshape(7, 1000)
    matrix = wd.shared_rows.striped_matrix((9, 1000), np.int32, str(tmp_path), stripe_bytes=1)
    assert len(matrix.paths) == -(-9 * 4000 // wd.shared_rows.PAGE)
    wd._hand_over(matrix.files, 1, cuda.to_device(rows), np.dtype(np.int32), None)
    assert len(wd._staging.buffers) == 2
    matrix.unlink()
    np.testing.assert_array_equal(matrix.array[1:8], rows)
    assert not matrix.array[[0, 8]].any()


class _DeviceRowsThatFail:
    """Device rows whose ``fail_at``-th block copy raises (as a GPU error would)."""

    def __init__(self, rows, fail_at):
        self.rows, self.shape, self.dtype = rows, rows.shape, rows.dtype
        self.copies, self.fail_at = 0, fail_at

    def __getitem__(self, block):
        outer = self

        class Block:
            dtype, shape = outer.dtype, outer.rows[block].shape

            def copy_to_host(self, ary):
                outer.copies += 1
                if outer.copies == outer.fail_at:
                    raise RuntimeError("copy failed")
                ary[...] = outer.rows[block]
        return Block()


def test_no_write_is_left_on_a_buffer_when_a_copy_fails(tmp_path, one_writer, monkeypatch):
    pytest.importorskip("numba.cuda")
    running = []

    def slow_write(path, position, data):
        running.append(1)
        time.sleep(0.2)
        running.pop()

    monkeypatch.setattr(wd, "_write_piece", slow_write)
    files = wd.shared_rows.RowFiles(str(tmp_path / "m.npy"), 0, 4000)
    rows = _DeviceRowsThatFail(np.ones((9, 1000), dtype=np.int32), fail_at=2)
    with pytest.raises(RuntimeError, match="copy failed"):
        wd._write_device_rows(files, 0, rows)
    assert not running, "a write was still reading a staging buffer when the error left"


def test_progress_bar_over_batches(client, capsys):
    wd.multi_source(random_graph(), np.arange(20), client=client, batch_size=5, progress=True,
                    device="cpu")
    assert "warpath.distributed" in capsys.readouterr().err


def test_host_memory_check_counts_the_stored_types(monkeypatch):
    int32, int64 = np.dtype(np.int32), np.dtype(np.int64)
    monkeypatch.setattr(wd, "available_memory", lambda: 1000 * 1000 * 4)
    wd._check_host_matrix(1000, 1000, (int32, None))  # int32 rows from GPUs fit
    with pytest.raises(warpath.MemoryLimitError, match="needs 0.0 GiB"):
        wd._check_host_matrix(1000, 1000, (int64, None))
    with pytest.raises(warpath.MemoryLimitError, match="with predecessors"):
        wd._check_host_matrix(1000, 1000, (int32, int32))


def test_rows_per_batch_fills_the_share_of_memory():
    for available, row in [(10**9, 8 * 3000), (80 * 2**30, 32 * 20_000), (7, 3)]:
        rows = wd.rows_per_batch(available, row)
        assert rows * row <= available / 2 < (rows + 1) * row
    assert wd.rows_per_batch(100, 10**6) == 1


def test_cli_workers_flag(tmp_path, capsys):
    path, out = str(tmp_path / "g.gr"), tmp_path / "d.npy"
    g = negative_graph()
    warpath.write(g, path)
    assert cli.main(["apsp", path, "--workers", "1", "--device", "cpu",
                     "--output", str(out)]) == 0
    assert "batches" in capsys.readouterr().out
    np.testing.assert_array_equal(np.load(out),
                                  warpath.apsp(warpath.read(path), device="cpu").distances)


@pytest.mark.gpu
def test_local_cuda_cluster_matches_the_single_gpu_call():
    dask_cuda = pytest.importorskip("dask_cuda")
    from numba import cuda

    g = generators.random(3000, 24000, seed=9)
    sources = np.arange(g.num_vertices)
    with dask_cuda.LocalCUDACluster() as cluster, distributed.Client(cluster) as c:
        shared = wd.multi_source(g, sources, client=c)  # the GPU copies into shared memory
        sent = wd.multi_source(g, sources, client=c, transfer="send")
    single = warpath.multi_source(g, sources)
    for ours in (shared, sent):
        assert ours.stats["workers"] == len(cuda.gpus)
        assert ours.stats["device"] == single.stats["device"]
        assert_same_matrix(ours, single)
    assert shared.stats["transfer"] == "shared"
    assert shared._arrays._raw().dtype == np.int32  # the GPU's compact type, as the single call
    with wd.cluster_client(workers=1) as c:  # what `warpath apsp --workers 1` runs on
        assert type(c.cluster).__name__ == "LocalCUDACluster"
        assert list(c.nthreads().values()) == [wd.GPU_WORKER_THREADS]
        threaded = wd.multi_source(g, sources, client=c)  # one thread's rows beside a solve
        assert_same_matrix(threaded, single)
        negative = negative_graph()
        np.testing.assert_array_equal(wd.apsp(negative, client=c).distances,
                                      warpath.apsp(negative).distances)


class _CancelsOneBatch:
    """A client whose first submission of batch 1 is cancelled, as the scheduler cancels a
    batch it forgot when a worker died at the wrong moment."""

    def __init__(self, client):
        self._client, self.cancelled = client, []

    def submit(self, *args, key, **kwargs):
        future = self._client.submit(*args, key=key, **kwargs)
        if key.endswith("-1-0"):
            self._client.cancel(future)
            self.cancelled.append(key)
        return future

    def __getattr__(self, name):
        return getattr(self._client, name)


def test_each_worker_gets_a_new_batch_when_one_of_its_batches_ends(client, monkeypatch):
    # Left to the scheduler, most batches would go where the graph's one copy lives.
    g = random_graph()
    events, submit = [], client.submit

    def recording(*args, **kwargs):
        events.append(("placed", kwargs.get("workers")))
        return submit(*args, **kwargs)

    def on_result(first_row, count, distances, predecessors, stats):
        events.append(("done", stats["worker"]))
        rows[first_row:first_row + count] = distances

    monkeypatch.setattr(client, "submit", recording)
    batches = wd._split(np.arange(40), 2)
    rows = np.zeros((40, g.num_vertices))
    wd._run_batches(client, lambda stale: wd._scatter(client, g, stale), batches,
                    (wd._Layout(np.dtype(np.float64)), "auto", "cpu", {}), 2,
                    client.nthreads(), _NoBar(), on_result)
    workers = sorted(client.nthreads())
    first = wd.IN_FLIGHT_PER_THREAD * len(workers)  # one thread a worker
    assert events[:first] == [("placed", [w]) for w in workers] * wd.IN_FLIGHT_PER_THREAD
    follow_ups = [(done[1], placed[1]) for done, placed in zip(events[first:], events[first + 1:])
                  if done[0] == "done" and placed[0] == "placed"]
    assert len(follow_ups) == len(batches) - first
    assert all(placed == [worker] for worker, placed in follow_ups)
    assert {worker for worker, _ in follow_ups} == set(workers)
    np.testing.assert_array_equal(rows, warpath.multi_source(g, np.arange(40),
                                                             device="cpu").distances)


class _NoBar:
    def update(self, n):
        pass


def test_no_batch_is_dropped_when_no_worker_is_listed(monkeypatch):
    # client.nthreads() may be empty when the batches are placed (every worker left after
    # the call began): the scheduler places them then, and none is skipped.
    real = wd._run_batches

    def no_worker_listed(client, ship, batches, solve_args, retries, worker_threads, *rest):
        return real(client, ship, batches, solve_args, retries, {}, *rest)

    monkeypatch.setattr(wd, "_run_batches", no_worker_listed)
    g = random_graph()
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=":0") as c:
        m = wd.multi_source(g, np.arange(20), client=c, device="cpu", batch_size=4,
                            transfer="send", predecessors=False)
    assert sum(m.stats["rows_per_worker"].values()) == 20
    np.testing.assert_array_equal(m.distances, warpath.multi_source(
        g, np.arange(20), device="cpu", predecessors=False).distances)


def test_a_run_that_loses_batches_raises(monkeypatch):
    # Were a batch never to come back, the result would hold unwritten rows: an error instead.
    g = random_graph()
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=":0") as c:
        class Forgets:  # an iterator over finished batches that loses every one
            def add(self, future):
                pass

            def __iter__(self):
                return iter(())

        monkeypatch.setattr(wd.distributed, "as_completed", Forgets)
        with pytest.raises(RuntimeError, match="batches never ran"):
            wd.multi_source(g, np.arange(20), client=c, device="cpu", batch_size=4,
                            transfer="send", predecessors=False)


def test_a_cancelled_batch_is_submitted_again(client):
    g = random_graph()
    proxy = _CancelsOneBatch(client)
    ours = wd.apsp(g, client=proxy, batch_size=10, transfer="send", device="cpu")
    assert len(proxy.cancelled) == 1
    assert_same_matrix(ours, warpath.apsp(g, device="cpu"))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_writes_through_its_own_writer_threads(tmp_path):
    # The parent's pool has threads; a forked child has none of them and must not wait
    # on that pool forever.
    files = wd.shared_rows.RowFiles(str(tmp_path / "m"), 0, 8, stripe_bytes=8)
    for stripe in range(2):
        (tmp_path / f"m-{stripe:06d}").write_bytes(bytes(8))
    # every writer thread started and idle in the parent, as after a run
    started = threading.Barrier(wd.WRITE_THREADS)
    for waited in [wd._writers().submit(started.wait) for _ in range(wd.WRITE_THREADS)]:
        waited.result(timeout=60)
    pid = os.fork()
    if pid == 0:  # the child: write two pieces (side by side), exit 0 if it got through
        code = 1
        try:
            wd._write_rows(files, 0, np.array([[1], [2]], dtype=np.int64))
            code = 0
        finally:
            os._exit(code)
    for _ in range(600):  # 60 s
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung on its parent's writer threads")
    assert os.waitstatus_to_exitcode(status) == 0
    assert [np.fromfile(tmp_path / f"m-{s:06d}", dtype=np.int64)[0] for s in range(2)] == [1, 2]
