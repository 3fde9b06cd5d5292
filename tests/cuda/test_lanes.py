"""The spread advance's lane arithmetic: the n-th active row and the pairs a lane walks."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.lanes import (first_pair, held, next_pair, nth_set_bit, pair_steps, pick,
                                vote)
from warpath.cuda.runtime import SIMULATOR


@cuda.jit
def _nth_bits(masks, out):
    i = cuda.grid(1)
    if i < out.shape[0] * out.shape[1]:
        m, n = i // out.shape[1], i % out.shape[1]
        out[m, n] = nth_set_bit(masks[m], n)


def test_the_nth_set_bit_of_every_kind_of_mask():
    rng = np.random.default_rng(1)
    masks = np.array([1, 1 << 31, 0xFFFFFFFF, 0x80000001, 0b1010_0100, 0xFFFF0000]
                     + rng.integers(1, 2**32, size=26).tolist(), dtype=np.uint32)
    out = cuda.to_device(np.zeros((masks.size, 32), np.int64))
    # a vote returns a signed int32 in numba-cuda: lane 31's bit makes it negative
    _nth_bits[masks.size, 32](cuda.to_device(masks.view(np.int32)), out)
    out = out.copy_to_host()
    for m, mask in enumerate(masks.tolist()):
        bits = [b for b in range(32) if mask >> b & 1]
        assert out[m, :len(bits)].tolist() == bits, hex(mask)
        assert ((out[m, len(bits):] >= 0) & (out[m, len(bits):] < 32)).all()


@cuda.jit
def _walk(k, arcs, taken):
    """Every lane walks its pairs of an item of k rows and arcs.shape[0] arcs; each pair
    counts who took it."""
    lane = cuda.grid(1)
    total = k * arcs.shape[0]
    arc, rank = first_pair(lane, k)
    steps = pair_steps(k)
    for base in range(0, total, 32):
        p = base + lane
        if p < total:
            arcs[arc, rank] = p
            cuda.atomic.add(taken, (arc, rank), 1)
        arc, rank = next_pair(arc, rank, k, steps)


@pytest.mark.parametrize("k", [1, 2, 3, 5, 7, 16, 31, 32])
@pytest.mark.parametrize("degree", [1, 6, 33, 70])
def test_the_lanes_take_every_pair_once_in_order(k, degree):
    arcs = cuda.to_device(np.full((degree, k), -1, np.int64))
    taken = cuda.to_device(np.zeros((degree, k), np.int64))
    _walk[1, 32](np.int64(k), arcs, taken)
    np.testing.assert_array_equal(taken.copy_to_host(), 1)
    np.testing.assert_array_equal(arcs.copy_to_host(), np.arange(degree * k).reshape(degree, k))


@pytest.mark.skipif(not SIMULATOR, reason="the simulator's stand-ins only")
def test_votes_and_picks_are_refused_by_the_simulator():
    @cuda.jit
    def use(out):
        out[0] = vote(True)
        out[1] = pick(3, 0)

    with pytest.raises(NotImplementedError, match="simulator"):
        use[1, 1](cuda.to_device(np.zeros(2, np.int64)))


@pytest.mark.gpu
def test_votes_and_picks_on_the_gpu():
    @cuda.jit
    def use(out):
        lane = cuda.grid(1)
        mask = vote(lane % 3 == 0 or lane == 31)   # lane 31's bit: a negative int32
        out[0, lane] = pick(lane * 10, nth_set_bit(mask, 2))
        out[1, lane] = pick(lane * 10, nth_set_bit(mask, cuda.popc(mask) - 1))

    out = cuda.to_device(np.zeros((2, 32), np.int64))
    use[1, 32](out)
    np.testing.assert_array_equal(out.copy_to_host(), [[60] * 32, [310] * 32])


@pytest.mark.parametrize("dtype, values", [
    (np.int32, [5, -7, 2**31 - 1, 0]), (np.int64, [5, -7 * 2**40, 2**63 - 1, 0]),
    (np.float32, [0.5, -7.25, np.inf, 0.0]), (np.float64, [0.1, -7e300, np.inf, -0.0])])
def test_a_held_value_is_the_value_in_every_lane_and_every_trip(dtype, values):
    # held() hands a lane's value to itself (a shuffle on a GPU, two for a 64-bit value;
    # the value itself under the simulator): carried round a loop, each of a row's
    # distance types must come back unchanged each trip, inf included
    @cuda.jit
    def carry(values, trips, out):
        lane = cuda.grid(1)
        value = values[lane]
        for trip in range(trips):
            out[trip, lane] = value
            value = held(value)

    values = np.array(values * 8, dtype)
    out = cuda.to_device(np.zeros((3, 32), dtype))
    carry[1, 32](cuda.to_device(values), 3, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.tile(values, (3, 1)))
