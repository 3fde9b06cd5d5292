"""Index and distance type rules."""

import warnings

import numpy as np
import pytest

from warpath import Graph
from warpath.dtypes import (index_dtype, integer_distance_dtype, path_length_bound, warn_inexact,
                            weight_dtype)


def test_index_dtype_switches_at_int32_max():
    assert index_dtype(2**31 - 1) == np.int32
    assert index_dtype(2**31) == np.int64
    assert index_dtype(5 * 2**31) == np.int64


def test_weight_dtype_rejects_non_numbers():
    with pytest.raises(TypeError):
        weight_dtype(np.dtype("U3"))
    assert weight_dtype(np.bool_) == np.int32
    assert weight_dtype(np.uint8) == np.int32


def test_integer_distance_dtype_widens_before_overflow():
    small = Graph.from_edges([0, 1], [1, 2], [1000, 1000])
    assert integer_distance_dtype(small) == np.int32
    # 2 * 2**29 * (3 + 1) > int32 max
    wide = Graph.from_edges([0, 1], [1, 2], [2**29, 1])
    assert integer_distance_dtype(wide) == np.int64
    assert integer_distance_dtype(wide, (np.int32,)) is None
    huge = Graph.from_edges([0, 1], [1, 2], np.array([2**62, 1], dtype=np.int64))
    assert integer_distance_dtype(huge) is None
    assert integer_distance_dtype(Graph.from_edges([0], [1], [1.5])) is None


def test_path_length_bound_and_warning():
    g = Graph.from_edges([0, 1, 2], [1, 2, 0], [3, -9, 2])
    assert path_length_bound(g) == 18.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_inexact(g)
    assert "2**53" in str(caught[0].message)
