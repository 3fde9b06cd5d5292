"""Array positions in unsigned arithmetic: the same places as signed ones, past 2**32 too."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.indices import at


@cuda.jit
def _positions(rows, widths, columns, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = at(rows[i], widths[i], columns[i])


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_positions_match_row_major_arithmetic(dtype):
    rng = np.random.default_rng(3)
    rows = rng.integers(0, 2**20, 64).astype(dtype)
    widths = rng.integers(1, 2**12, 64).astype(dtype)
    columns = rng.integers(0, 2**11, 64).astype(dtype)
    out = cuda.to_device(np.zeros(64, np.uint64))
    _positions[1, 64](rows, widths, columns, out)
    expected = rows.astype(np.uint64) * widths.astype(np.uint64) + columns.astype(np.uint64)
    np.testing.assert_array_equal(out.copy_to_host(), expected)


def test_positions_beyond_32_bits_do_not_wrap():
    rows = np.array([2**31 - 1, 3_000_000_000], np.int64)
    widths = np.array([1024, 7], np.int64)
    columns = np.array([1023, 6], np.int64)
    out = cuda.to_device(np.zeros(2, np.uint64))
    _positions[1, 2](rows, widths, columns, out)
    assert out.copy_to_host().tolist() == [(2**31 - 1) * 1024 + 1023, 21_000_000_006]


@cuda.jit
def _read(a, out):
    out[0] = a[at(1, 3, 2)]
    out[1] = a[at(0, 3, 0)]


def test_an_unsigned_position_indexes_like_a_signed_one():
    out = cuda.to_device(np.zeros(2, np.int64))
    _read[1, 1](cuda.to_device(np.arange(10, 16)), out)
    assert out.copy_to_host().tolist() == [15, 10]
