"""warpath.apsp.gpu_rows: the launch plan, the start and delivery kernels, the memory hook."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath.apsp import gpu_rows, memory
from warpath.cuda.counters import RunTally


def width(n, sources, **options):
    options = {"pair_bytes": 10, "state_bytes": 6, "free_bytes": None,
               "cache_bytes": 50 * 10**6, **options}
    return gpu_rows.launch_width(n, sources, **options)


def test_launches_take_whole_groups_within_the_cache():
    assert width(4677, 4677) == 55 * 32           # 55 groups of 32 x 4,677 x 6 B in 50 MB
    assert width(100_000, 100_000) == 2 * 32
    assert width(1_000_000, 1000) == 32           # at least one group, however large
    assert width(100, 7) == 7                      # never more rows than sources
    assert width(1000, 100, group=8, launch_groups=2) == 16
    assert width(1000, 100, group=8, launch_groups=50) == 100


def test_free_memory_caps_a_launch_and_refuses_when_one_group_does_not_fit():
    free = 10 * 1000 * 32 * 10                     # ten groups' bytes at 100% use
    assert width(1000, 10_000, launch_groups=100, free_bytes=free) == 8 * 32  # 80% of it
    with pytest.raises(warpath.MemoryLimitError, match="one group of 32 sources on 1,000,000"):
        width(1_000_000, 100, free_bytes=2**20)


def test_pair_bytes_count_every_array_of_a_launch():
    assert gpu_rows.pair_bytes(np.int32, np.int32, np.int32, False) == 4 + 2 + 4
    assert gpu_rows.pair_bytes(np.float64, np.int64, np.float64, True) == 8 + 2 + 8 + 8 + 8


def test_start_and_delivery_round_trip_vertex_major_rows():
    sources = np.array([2, 0, 2])
    n, rows = 4, 3
    d = cuda.device_array(n * rows, np.int64)
    masks = cuda.device_array(2 * n * rows, np.uint8)
    tally = RunTally()
    inf = np.int64(np.iinfo(np.int64).max)
    gpu_rows.start_rows(d, masks, cuda.to_device(sources), inf, tally)
    start = d.copy_to_host().reshape(n, rows)
    assert (start == 0).sum() == rows and start[2, 0] == start[0, 1] == start[2, 2] == 0
    first, second = masks.copy_to_host().reshape(2, n, rows)
    assert (first == 1).tolist() == (start == 0).tolist() and not second.any()
    values = np.arange(n * rows, dtype=np.int64).reshape(n, rows)   # d[v, s] = 3 v + s
    values[3, 1] = inf
    d.copy_to_device(values.reshape(-1))
    pred = cuda.to_device(np.full(n * rows, 7, np.int32))
    host = np.zeros((rows, n), np.int32)
    host_pred = np.zeros((rows, n), np.int64)
    h = cuda.to_device(np.array([0, -10, -20, -30], np.int64))
    gpu_rows.deliver(d, cuda.to_device(sources), inf, cuda.device_array((rows, n), np.int32),
                     tally, host=host, pred=pred, pred_out=cuda.device_array((rows, n), np.int64),
                     pred_host=host_pred, potentials=h)
    expected = values.T - h.copy_to_host()[sources][:, None] + h.copy_to_host()[None, :]
    expected[1, 3] = np.iinfo(np.int32).max     # unreached: the host type's own marker
    assert host.tolist() == expected.tolist()
    assert host_pred[0].tolist() == [7, 7, -1, 7] and host_pred[1].tolist() == [-1, 7, 7, 7]
    assert tally.launches == 3


def test_a_result_stays_on_the_gpu_when_it_fits_there():
    gib = 2**30
    assert gpu_rows.choose_delivery("auto", 40 * gib, gib, 80 * gib) == "device"
    assert gpu_rows.choose_delivery("auto", 64 * gib, gib, 80 * gib) == "host"
    assert gpu_rows.choose_delivery("auto", 64 * gib, gib, None) == "device"   # unknown
    assert gpu_rows.choose_delivery("host", gib, gib, 80 * gib) == "host"
    with pytest.raises(warpath.MemoryLimitError, match="deliver='host'"):
        gpu_rows.choose_delivery("device", 64 * gib, gib, 80 * gib)
    assert gpu_rows.result_bytes(3, 10, np.float32, np.int64, True) == 3 * 10 * 12


@pytest.mark.parametrize("where", ["device", "host"])
def test_both_destinations_give_the_same_matrix(where):
    n, rows = 5, 3
    out = gpu_rows.Destination(where, 4, n, np.int64, np.int32, predecessors=True)
    out.stage(rows)
    assert out.pair_bytes(np.int32, np.int32) == (4 + 2 + 8 + 4 + 8 if where == "host" else 10)
    d = cuda.to_device(np.arange(n * rows, dtype=np.int32))      # d[v, s] = 3 v + s
    pred = cuda.to_device(np.arange(n * rows, dtype=np.int32))
    tally = RunTally()
    out.write(0, d, cuda.to_device(np.array([0, 1, 2])), np.int32(99), tally, pred=pred)
    out.write(3, d[:n], cuda.to_device(np.array([4])), np.int32(99), tally, pred=pred[:n])
    matrix = out.matrix(np.array([0, 1, 2, 4]), {"iterations": 1})
    assert matrix.stats["delivered"] == where
    assert matrix.exact_distances.tolist()[:3] == np.arange(15).reshape(5, 3).T.tolist()
    assert matrix.exact_distances.tolist()[3] == list(range(5))
    assert matrix.predecessors[1].tolist() == [1, -1, 7, 10, 13]


def test_bad_group_options():
    gpu_rows.check_group_options(1, 1)
    for group, groups in ((0, None), (True, None), (4, 0), (4, 2.0)):
        with pytest.raises(warpath.OptionError):
            gpu_rows.check_group_options(group, groups)
    with pytest.raises(warpath.OptionError, match="deliver must be one of"):
        gpu_rows.check_group_options(1, 1, "gpu")


def test_the_estimate_counts_the_gpu_type_and_the_gpu_bytes():
    g = warpath.generators.random(2000, 8000, seed=1)
    gpu = memory.estimate(g, method="task-parallel", device="cuda", float_distances=False)
    cpu = memory.estimate(g, method="johnson", device="cpu", float_distances=False)
    pair = 2000 * 2000
    assert round((gpu.host_bytes - memory.workspace_bytes(g)) / pair) == 4 + 8   # int32, preds
    assert round((cpu.host_bytes - memory.workspace_bytes(g)) / pair) == 8 + 8
    assert gpu.gpu_bytes >= 32 * 2000 * gpu_rows.pair_bytes(np.int32, np.int32, np.int32, True)
    lean = memory.estimate(g, method="task-parallel", device="cuda", predecessors=False)
    assert round((lean.host_bytes - memory.workspace_bytes(g)) / pair) == 4 + 8  # + float copy
    assert lean.gpu_bytes < gpu.gpu_bytes


def test_the_api_refuses_a_launch_the_gpu_cannot_hold(monkeypatch):
    monkeypatch.setattr(memory, "gpu_free_memory", lambda: 1000)
    g = warpath.generators.ring(200, seed=0)
    with pytest.raises(warpath.MemoryLimitError, match="GPU memory"):
        warpath.apsp(g, method="task-parallel", device="cuda")


@pytest.mark.parametrize("grid_rows", [1, 2, gpu_rows.MAX_GRID_Y])
def test_delivery_covers_every_row_and_vertex_past_one_block(monkeypatch, grid_rows):
    # 37 vertices x 70 rows: tiles of 32 x 32, partial both ways; a capped grid loops over
    # the rows' tiles
    monkeypatch.setattr(gpu_rows, "MAX_GRID_Y", grid_rows)
    n, rows = 37, 70
    values = np.arange(n * rows, dtype=np.int32).reshape(n, rows)   # d[v, s]
    sources = cuda.to_device(np.arange(rows) % n)
    out = cuda.to_device(np.full((rows, n), -7, np.int64))   # a missed entry stays -7
    pred_out = cuda.to_device(np.full((rows, n), -7, np.int64))
    gpu_rows.deliver(cuda.to_device(values.reshape(-1)), sources, np.int32(-1), out, RunTally(),
                     pred=cuda.to_device(values.reshape(-1)), pred_out=pred_out)
    assert out.copy_to_host().tolist() == values.T.tolist()
    expected_pred = values.T.astype(np.int64)
    expected_pred[np.arange(rows), np.arange(rows) % n] = -1
    assert pred_out.copy_to_host().tolist() == expected_pred.tolist()


@pytest.mark.parametrize("row_tiles", [1, 2])
def test_a_padded_launch_is_read_at_its_width_and_only_its_rows_delivered(monkeypatch,
                                                                          row_tiles):
    # 70 rows padded to 96: d keeps 96 entries a vertex, the last 26 idle (source -1)
    monkeypatch.setattr(gpu_rows, "DELIVERY_ROW_TILES", row_tiles)
    n, rows, width = 37, 70, 96
    values = np.arange(n * width, dtype=np.int32).reshape(n, width)   # d[v, s]
    sources = cuda.to_device(np.concatenate([np.arange(rows) % n, np.full(width - rows, -1)]))
    out = cuda.to_device(np.full((rows, n), -7, np.int64))
    pred_out = cuda.to_device(np.full((rows, n), -7, np.int64))
    gpu_rows.deliver(cuda.to_device(values.reshape(-1)), sources, np.int32(-1), out, RunTally(),
                     pred=cuda.to_device(values.reshape(-1)), pred_out=pred_out)
    assert out.copy_to_host().tolist() == values[:, :rows].T.tolist()
    expected_pred = values[:, :rows].T.astype(np.int64)
    expected_pred[np.arange(rows), np.arange(rows) % n] = -1
    assert pred_out.copy_to_host().tolist() == expected_pred.tolist()


def test_padded_rows_round_up_to_whole_items_only_when_few_rows_idle():
    for rows in range(1, 2100):
        kept = gpu_rows.padded_rows(rows)
        if rows % 32 == 0:
            assert kept == rows
        elif kept != rows:
            assert kept % 32 == 0 and 0 < kept - rows < 32
            assert (kept - rows) * gpu_rows.PAD_SHARE <= rows
        else:
            assert (-(-rows // 32) * 32 - rows) * gpu_rows.PAD_SHARE > rows
    assert gpu_rows.padded_rows(1000) == 1024 and gpu_rows.padded_rows(60, share=1) == 64
    # a narrower launch never keeps more rows than a wider one (solve sizes by the widest)
    assert all(gpu_rows.padded_rows(narrow) <= gpu_rows.padded_rows(wide)
               for wide in range(1, 400) for narrow in range(1, wide))
