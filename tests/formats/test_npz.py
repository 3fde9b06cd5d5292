"""The native .npz format: lossless for every dtype, labels, coordinates and name."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

import warpath
from warpath.formats import npz
from formats._graphs import assert_same_graph


@pytest.mark.parametrize("weights", [None, np.array([1, 2, 3], np.int32), np.array([1, 2, 2**40]),
                                     np.array([0.5, 1, 2], np.float32), np.array([0.1, 0.2, 0.3])])
@pytest.mark.parametrize("labels", [None, np.array([10, 5, 7]), np.array(["x", "y", "z"])])
@pytest.mark.parametrize("directed", [True, False])
def test_round_trip_is_lossless(tmp_path, weights, labels, directed):
    g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 0], weights, directed=directed, labels=labels,
                                 coordinates=np.array([[0.5, 1], [2, 3], [4, 5]]), name="tri")
    path = tmp_path / "g.npz"
    npz.write_npz(g, path)
    back = npz.read_npz(path)
    assert_same_graph(back, g)
    assert back.has_labels == g.has_labels and back.name == "tri"
    np.testing.assert_array_equal(back.coordinates, g.coordinates)
    assert back.indices.dtype == g.indices.dtype and back.indptr.dtype == g.indptr.dtype


def test_compressed_npz_and_directed_overrides(tmp_path):
    g = warpath.Graph.from_edges([0, 1], [1, 2], [3, 4])
    path = tmp_path / "g.npz.xz"
    warpath.write(g, path)
    assert_same_graph(warpath.read(path), g)
    undirected = warpath.read(path, directed=False)
    assert not undirected.directed and undirected.num_edges == 4
    assert warpath.read(path, directed=True).directed


def _archive(**arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return io.BytesIO(buffer.getvalue())


def test_not_a_warpath_archive():
    with pytest.raises(warpath.GraphFormatError, match="no warpath_npz, indptr"):
        npz.read_npz(_archive(something=np.zeros(2)))


def test_inconsistent_arrays_are_a_format_error():
    broken = _archive(warpath_npz=np.int64(1), indptr=np.array([0, 1]), indices=np.array([5]),
                      directed=np.bool_(True))
    with pytest.raises(warpath.GraphFormatError, match="inconsistent"):
        npz.read_npz(broken)


def test_corrupt_zip(tmp_path):
    path = tmp_path / "bad.npz"
    path.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(warpath.GraphFormatError, match="not a readable .npz") as info:
        warpath.read(path)
    assert info.value.path == str(path)


def test_archives_never_unpickle(tmp_path):
    buffer = io.BytesIO()
    good = {"warpath_npz": np.int64(1), "indptr": np.array([0, 0]),
            "indices": np.zeros(0, np.int32), "directed": np.bool_(True),
            "labels": np.array([{"evil": 1}], dtype=object)}
    with zipfile.ZipFile(buffer, "w") as archive:
        for key, value in good.items():
            with archive.open(f"{key}.npy", "w") as member:
                np.save(member, value, allow_pickle=True)
    with pytest.raises(warpath.GraphFormatError, match="pickle"):
        npz.read_npz(io.BytesIO(buffer.getvalue()))


def test_object_labels_that_are_not_strings_cannot_be_written():
    g = warpath.Graph.from_edges([0], [1], labels=np.array([(1, 2), (3,)], dtype=object))
    with pytest.raises(warpath.GraphError, match="numbers or strings"):
        npz.format_npz(g)
