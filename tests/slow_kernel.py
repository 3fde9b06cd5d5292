"""A kernel that runs for a while before it writes: for tests of what waits for what."""

from numba import cuda


@cuda.jit
def slow_fill(values, value, milliseconds):
    """One block: sleep about ``milliseconds``, then write ``value`` into every entry."""
    for _ in range(milliseconds):
        cuda.nanosleep(1_000_000)
    i = cuda.threadIdx.x
    while i < values.size:
        values[i] = value
        i += cuda.blockDim.x
