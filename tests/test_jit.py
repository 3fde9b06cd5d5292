"""warpath.jit: kernels run in the interpreter, and compilation time measured apart."""

import time

import numpy as np
from numba import njit

from warpath.jit import CompileTimer, interpreted


@njit
def _helper(x):
    return x * 3


@njit
def _kernel(values):
    total = 0
    for v in values:
        total += _helper(v)
    return total


def test_interpreted_kernel_compiles_nothing_and_agrees():
    values = np.arange(10)
    assert interpreted(_kernel)(values) == 135
    assert _kernel.signatures == [] and _helper.signatures == []   # nothing was compiled
    assert _kernel(values) == 135


def test_compile_timer_counts_nested_compilations_once():
    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    start = time.perf_counter()
    with CompileTimer() as timer:
        outer(1)
    assert 0 < timer.seconds <= time.perf_counter() - start   # inner's time is not added twice
    with CompileTimer() as again:
        outer(2)   # compiled already
    assert again.seconds == 0.0
