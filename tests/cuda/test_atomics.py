"""The relax step: atomicMin that reports whether it lowered, and the negative-cycle floor;
the warp's OR into one word."""

import numpy as np
import pytest
from numba import cuda

from warpath.cuda.atomics import claim, relax_min, warp_or_into


@cuda.jit
def _propose(d, values, floor, conv, lowered):
    i = cuda.grid(1)
    if i < values.shape[0]:
        lowered[i] = relax_min(d, 0, values[i], floor, conv)


def test_many_proposals_keep_the_minimum():
    values = np.array([50, 7, 30, 7, 90, 12, 7, 40] * 8, dtype=np.int64)
    d = cuda.to_device(np.array([60], np.int64))
    conv = cuda.to_device(np.zeros(4, np.int32))
    lowered = cuda.to_device(np.zeros(values.size, np.bool_))
    _propose[2, 32](d, cuda.to_device(values), np.int64(-100), conv, lowered)
    assert d.copy_to_host()[0] == 7
    lowered = lowered.copy_to_host()
    assert lowered.any() and not lowered[values >= 60].any()
    assert conv.copy_to_host()[3] == 0


def test_a_value_below_the_floor_is_refused_and_flagged():
    d = cuda.to_device(np.array([60.0]))
    conv = cuda.to_device(np.zeros(4, np.int32))
    lowered = cuda.to_device(np.zeros(1, np.bool_))
    _propose[1, 1](d, cuda.to_device(np.array([-500.0])), np.float64(-100), conv, lowered)
    assert d.copy_to_host()[0] == 60.0 and not lowered.copy_to_host()[0]
    assert conv.copy_to_host()[3] == 1


@cuda.jit
def _claim_all(owner, won):
    i = cuda.grid(1)
    won[i] = claim(owner, i % 3, i, -1)


def test_claim_has_one_winner_per_slot():
    owner = cuda.to_device(np.full(3, -1, np.int64))
    won = cuda.to_device(np.zeros(64, np.bool_))
    _claim_all[2, 32](owner, won)
    won, owner = won.copy_to_host(), owner.copy_to_host()
    assert won.sum() == 3 and sorted(np.flatnonzero(won) % 3) == [0, 1, 2]
    assert all(owner[i % 3] == i for i in np.flatnonzero(won))


@cuda.jit
def _union(words, bits):
    warp_or_into(words, 1, bits[cuda.grid(1)])


@pytest.mark.parametrize("threads", [32, 96])
def test_warp_or_into_gives_the_or_of_every_lane(threads):
    bits = np.random.default_rng(threads).integers(0, 1 << 62, threads).astype(np.uint64)
    bits[5] |= np.uint64(1 << 63)
    words = cuda.to_device(np.array([0, 1 << 40, 0], np.uint64))
    _union[threads // 32, 32](words, cuda.to_device(bits))
    want = int(np.bitwise_or.reduce(bits)) | 1 << 40
    assert words.copy_to_host().tolist() == [0, want, 0]
