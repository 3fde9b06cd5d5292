"""Block prefix sums and the owner search of the balanced frontier advance."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.runtime import THREADS
from warpath.cuda.scan import block_inclusive_scan, upper_bound


@cuda.jit
def _scan(values, ends_out, totals):
    ends = cuda.shared.array(THREADS, np.int64)
    t = cuda.threadIdx.x
    totals[t] = block_inclusive_scan(ends, t, values[cuda.blockIdx.x * THREADS + t])
    ends_out[cuda.blockIdx.x * THREADS + t] = ends[t]


@cuda.jit
def _owners(ends, ks, out):
    i = cuda.grid(1)
    if i < ks.shape[0]:
        out[i] = upper_bound(ends, 0, ends.shape[0], ks[i])


@pytest.mark.parametrize("seed", [0, 1])
def test_block_scan_matches_cumsum_per_block(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 5000, size=2 * THREADS).astype(np.int64)
    values[::7] = 0  # inactive vertices count no arcs
    ends, totals = cuda.device_array(2 * THREADS, np.int64), cuda.device_array(THREADS, np.int64)
    _scan[2, THREADS](cuda.to_device(values), ends, totals)
    got = ends.copy_to_host().reshape(2, THREADS)
    want = np.cumsum(values.reshape(2, THREADS), axis=1)
    np.testing.assert_array_equal(got, want)
    assert int(totals.copy_to_host()[0]) in (want[0, -1], want[1, -1])


def test_upper_bound_finds_each_arcs_vertex():
    degrees = np.array([0, 3, 0, 0, 1, 5, 0, 2])
    ends = np.cumsum(degrees)
    ks = np.arange(ends[-1])
    out = cuda.device_array(ks.shape[0], np.int64)
    _owners[1, 32](cuda.to_device(ends), cuda.to_device(ks), out)
    want = np.repeat(np.arange(degrees.shape[0]), degrees)  # vertex of each arc, empty ones skipped
    np.testing.assert_array_equal(out.copy_to_host(), want)
