"""Distance types on the device, infinity, the negative-cycle floor, initialisation."""

import numpy as np
import pytest

import warpath
from warpath.cuda.distances import device_full, floor_value, infinity
from warpath.cuda.problem import DEVICE_INTEGER_TYPES, Problem
from warpath.dtypes import distance_dtype as _distance_dtype


def distance_dtype(graph):
    """The GPU's distance type rule (the one of warpath.dtypes, narrow variant)."""
    return _distance_dtype(graph, DEVICE_INTEGER_TYPES, keep_float32=True)


def _graph(weights):
    return warpath.Graph.from_edges([0, 1], [1, 2], np.asarray(weights))


@pytest.mark.parametrize("weights,expected", [
    (np.array([1, 2], np.int32), np.int32),
    (np.array([2**40, 1], np.int64), np.int64),
    (np.array([1.5, 2.0], np.float32), np.float32),
    (np.array([1.5, 2.0], np.float64), np.float64),
])
def test_distance_type_follows_the_weights(weights, expected):
    assert distance_dtype(_graph(weights)) == np.dtype(expected)


def test_int32_weights_that_could_overflow_int32_get_int64():
    g = warpath.Graph.from_edges(np.arange(3), np.arange(1, 4), np.full(3, 2**30, np.int32))
    assert distance_dtype(g) == np.dtype(np.int64)


def test_huge_integers_fall_back_to_float64_with_a_warning():
    g = _graph(np.array([2**62, 2**62], np.int64))
    with pytest.warns(RuntimeWarning, match="float64"):
        assert distance_dtype(g) == np.dtype(np.float64)


def test_infinity_and_floor():
    assert infinity(np.int64) == np.iinfo(np.int64).max
    assert np.isinf(infinity(np.float32))
    g = _graph(np.array([3, -4], np.int32))
    floor = floor_value(g, np.dtype(np.int32))
    assert floor == -(2 * 4 * 2 + 1) and floor.dtype == np.int32
    # the floor plus any weight cannot overflow the distance type
    assert int(floor) - 4 > np.iinfo(np.int32).min


def test_new_distances_and_fill():
    g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 3], np.ones(3, np.float32))
    d = Problem(g, [2, 0]).distances.copy_to_host()
    assert d.dtype == np.float32
    assert d.tolist() == [[np.inf, np.inf, 0.0, np.inf], [0.0, np.inf, np.inf, np.inf]]
    assert device_full(3, 7, np.int64).copy_to_host().tolist() == [7, 7, 7]
    assert device_full(0, 7, np.int64).shape == (0,)
