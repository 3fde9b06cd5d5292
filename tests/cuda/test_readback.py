"""Float64 distances made on the GPU before the copy to the host (warpath.cuda.readback)."""

import numpy as np
import pytest
from numba import cuda

import warpath
from warpath.cuda import readback
from warpath.result import _as_float_distances


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7,), (3, 5)])
def test_gpu_conversion_equals_the_host_rule(dtype, shape):
    rng = np.random.default_rng(4)
    raw = rng.integers(-50, 50, size=shape).astype(dtype)
    unreached = np.iinfo(dtype).max if np.dtype(dtype).kind == "i" else np.inf
    raw[rng.random(shape) < 0.4] = unreached
    got = readback.float64_to_host(cuda.to_device(raw), on_gpu=True)
    assert got.dtype == np.float64 and got.shape == shape
    np.testing.assert_array_equal(got, _as_float_distances(raw))


def test_blocks_cover_the_array(monkeypatch):
    monkeypatch.setattr(readback, "BLOCK_ENTRIES", 4)
    raw = np.arange(22, dtype=np.int32).reshape(2, 11)
    raw[1, 3] = np.iinfo(np.int32).max
    got = readback.float64_to_host(cuda.to_device(raw), on_gpu=True)
    expected = raw.astype(np.float64)
    expected[1, 3] = np.inf
    np.testing.assert_array_equal(got, expected)


def test_empty_and_into_out():
    assert readback.float64_to_host(cuda.to_device(np.zeros(0, np.int32))).shape == (0,)
    for on_gpu in (True, False):
        out = np.full(3, -1.0)
        raw = cuda.to_device(np.array([1, 2, 2**63 - 1], np.int64))
        assert readback.float64_to_host(raw, out, on_gpu=on_gpu) is out
        assert out.tolist() == [1.0, 2.0, np.inf]


def test_results_read_through_the_gpu_match_the_cpu():
    g = warpath.generators.rmat(7, 3, seed=2)  # many unreachable vertices
    gpu = warpath.sssp(g, 0, method="hbf", device="cuda")
    cpu = warpath.sssp(g, 0, method="dijkstra", device="cpu")
    assert np.isinf(cpu.distances).any()
    np.testing.assert_array_equal(gpu.distances, cpu.distances)
    np.testing.assert_array_equal(gpu.exact_distances, cpu.exact_distances)


def test_host_conversion_of_sentinels():
    raw = np.array([[0, 2**31 - 1], [5, 2**31 - 1]], np.int32)
    assert _as_float_distances(raw).tolist() == [[0.0, np.inf], [5.0, np.inf]]


def test_out_must_fit():
    raw = cuda.to_device(np.zeros((3, 2), np.int32))
    with pytest.raises(ValueError, match="C-contiguous float64"):
        readback.float64_to_host(raw, np.zeros((2, 3)).T)
