"""Result types: conversions, lazy device arrays, paths."""

import numpy as np
import pytest

from warpath import SourceError
from warpath.result import BFSResult, DistanceMatrix, SSSPResult, walk_predecessors


def test_integer_sentinel_becomes_inf_and_exact_values_kept():
    big = np.iinfo(np.int64).max
    r = SSSPResult(0, np.array([0, 2**60 + 1, big], dtype=np.int64), np.array([-1, 0, -1]))
    assert r.distances.tolist()[2] == np.inf
    assert r.exact_distances.tolist() == [0, 2**60 + 1, big]
    assert r.reached == 2


def test_int32_sentinel_maps_to_int64_max():
    r = SSSPResult(0, np.array([0, np.iinfo(np.int32).max], dtype=np.int32))
    assert r.exact_distances[1] == np.iinfo(np.int64).max and r.distances[1] == np.inf


def test_float_distances_have_no_exact_copy():
    r = SSSPResult(1, np.array([np.inf, 0.0], dtype=np.float32))
    assert r.exact_distances is None and r.distances.dtype == np.float64


class FakeDeviceArray:
    """Stands in for a numba device array: counts copies to the host."""

    def __init__(self, data):
        self.data = data
        self.copies = 0

    def copy_to_host(self):
        self.copies += 1
        return self.data.copy()

    @property
    def shape(self):
        return self.data.shape

    def __getitem__(self, index):
        return FakeDeviceArray(self.data[index])


def test_device_arrays_are_copied_once_and_only_when_read():
    dist = FakeDeviceArray(np.array([0, 5], dtype=np.int32))
    pred = FakeDeviceArray(np.array([-1, 0], dtype=np.int32))
    r = SSSPResult(0, dist, pred)
    assert dist.copies == 0 and pred.copies == 0
    assert r.device_distances is dist
    assert r.distances.tolist() == [0.0, 5.0]
    r.distances
    r.exact_distances
    assert dist.copies == 1 and pred.copies == 0
    assert r.path(1).tolist() == [0, 1] and pred.copies == 1


def test_path_reconstruction_and_errors():
    pred = np.array([-1, 0, 1, -1, 2])
    r = SSSPResult(0, np.array([0.0, 1, 2, np.inf, 3]), pred)
    assert r.path(4).tolist() == [0, 1, 2, 4]
    assert r.path(0).tolist() == [0]
    assert r.path(3).tolist() == []
    with pytest.raises(SourceError):
        r.path(9)
    with pytest.raises(ValueError, match="predecessors=True"):
        SSSPResult(0, np.zeros(2)).path(1)


def test_walk_predecessors_detects_a_cycle():
    with pytest.raises(RuntimeError, match="cycle"):
        walk_predecessors(np.array([-1, 2, 1]), 0, 1)


def test_bfs_result_levels_and_distances():
    r = BFSResult(0, [0, 1, -1], [-1, 0, -1])
    assert r.distances.tolist() == [0.0, 1.0, np.inf]
    assert r.reached == 2 and r.path(1).tolist() == [0, 1] and r.path(2).tolist() == []


def test_distance_matrix_rows_and_paths():
    m = DistanceMatrix([2, 0], np.array([[np.inf, 1.0, 0.0], [0.0, 4.0, 5.0]]),
                       np.array([[-1, 2, -1], [-1, 0, 1]]))
    assert m.path(0, 2).tolist() == [0, 1, 2]
    assert m.path(2, 0).tolist() == []
    row = m.row(2)
    assert row.source == 2 and row.distances.tolist() == [np.inf, 1.0, 0.0]
    with pytest.raises(SourceError, match="not one of the sources"):
        m.row(1)


def test_a_matrix_row_copies_and_converts_that_row_only():
    unreached = np.iinfo(np.int32).max
    dist = FakeDeviceArray(np.array([[0, 5, unreached], [2, 0, 7]], dtype=np.int32))
    pred = FakeDeviceArray(np.array([[-1, 0, -1], [1, -1, 1]], dtype=np.int32))
    m = DistanceMatrix([0, 1], dist, pred)
    assert repr(m).startswith("<DistanceMatrix 2 sources x 3 vertices")
    row = m.row(0)
    assert row.distances.tolist() == [0.0, 5.0, np.inf]
    assert row.exact_distances.tolist() == [0, 5, np.iinfo(np.int64).max]
    assert row.predecessors.dtype == np.int64 and row.path(1).tolist() == [0, 1]
    assert dist.copies == 0 and pred.copies == 0 and m._arrays._cache == {}
    # the whole matrix, once read, is what later rows come from
    assert m.distances[1].tolist() == m.row(1).distances.tolist() == [2.0, 0.0, 7.0]
    assert dist.copies == 1


def test_bfs_matrix_rows_paths_and_stacking():
    from warpath.result import BFSMatrix

    levels = np.array([[0, 1, 2, -1], [-1, 0, 1, -1]], dtype=np.int32)
    parents = np.array([[-1, 0, 1, -1], [-1, -1, 1, -1]], dtype=np.int32)
    m = BFSMatrix([0, 1], levels, parents, {"iterations": 5})
    assert m.levels.dtype == np.int64 and m.path(0, 2).tolist() == [0, 1, 2]
    assert m.path(1, 3).tolist() == [] and m.path(1, 1).tolist() == [1]
    row = m.row(1)
    assert isinstance(row, BFSResult) and row.levels.tolist() == [-1, 0, 1, -1]
    assert row.path(2).tolist() == [1, 2] and row.distances.tolist()[0] == np.inf
    with pytest.raises(SourceError):
        m.row(3)
    stacked = BFSMatrix.stack([0, 1], [m.row(0), row])
    np.testing.assert_array_equal(stacked.levels, m.levels)
    assert stacked.stats["iterations"] == 10
    with pytest.raises(ValueError, match="predecessors"):
        BFSMatrix([0], levels[:1]).path(0, 1)


def test_bfs_result_reads_device_arrays_lazily():
    class Device:
        reads = 0

        def __init__(self, array):
            self.array = array

        def copy_to_host(self):
            Device.reads += 1
            return self.array

    r = BFSResult(0, Device(np.array([0, 1, -1], dtype=np.int32)),
                  Device(np.array([-1, 0, -1], dtype=np.int32)))
    assert Device.reads == 0
    assert r.levels.tolist() == [0, 1, -1] and r.parents.tolist() == [-1, 0, -1]
    assert r.reached == 2 and Device.reads == 2


def test_a_bfs_result_pickles_complete():
    """A result whose stats wait for the GPU is completed before it is pickled; its lock is
    not pickled but made again."""
    import pickle

    r = BFSResult(0, np.array([0, 1, -1]), np.array([-1, 0, -1]))
    r.stats_later(lambda: {"iterations": 2})
    r.amend_stats(lambda stats: stats.update(method="queue"))
    back = pickle.loads(pickle.dumps(r))
    assert not r.stats_pending and back.stats == {"iterations": 2, "method": "queue"}
    assert back.levels.tolist() == [0, 1, -1] and back.path(1).tolist() == [0, 1]
    back.amend_stats(lambda stats: stats.update(seconds=1.0))
    assert back.stats["seconds"] == 1.0


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
def test_a_big_matrix_is_converted_block_by_block_on_several_threads(monkeypatch, dtype):
    from warpath import result

    monkeypatch.setattr(result, "_BLOCK_ENTRIES", 64)   # a block of 1 row of 40
    monkeypatch.setattr(result, "_PARALLEL_ENTRIES", 100)
    raw = np.random.default_rng(3).integers(0, 50, size=(45, 40)).astype(dtype)
    raw[raw > 40] = np.iinfo(dtype).max   # some unreached entries in most blocks
    matrix = DistanceMatrix(np.arange(45), raw)
    expected = np.where(raw == np.iinfo(dtype).max, np.inf, raw.astype(np.float64))
    np.testing.assert_array_equal(matrix.distances, expected)
    exact = np.where(raw == np.iinfo(dtype).max, np.iinfo(np.int64).max, raw.astype(np.int64))
    np.testing.assert_array_equal(matrix.exact_distances, exact)
