"""Array positions computed without numba's negative-index wraparound.

numba treats a signed index as Python does: ``a[-1]`` is the last element, so every
access with a signed integer index carries a test and an add (four instructions in
64-bit arithmetic on the GPU).  The kernels' positions are never negative, and a
profile of the whole items' round (``docs/performance.md``, twenty-seventh session)
found that arithmetic a large share of the instructions a relaxation issues.
:func:`at` computes ``row * width + column`` in unsigned 64-bit arithmetic, whose
indices numba uses as they are when it loads or stores.  ``cuda.atomic.*`` turn every
index back into a signed one and keep the wraparound, so a position handed to an
atomic gains nothing.

Examples
--------
>>> import numpy as np
>>> from numba import cuda
>>> @cuda.jit
... def second_row(a, out):
...     out[0] = a[at(1, 3, 2)]
>>> out = cuda.to_device(np.zeros(1, np.int64))
>>> second_row[1, 1](cuda.to_device(np.arange(6)), out)
>>> out.copy_to_host().tolist()
[5]
"""

from __future__ import annotations

import numpy as np
from numba import cuda


@cuda.jit(device=True)
def at(row, width, column):
    """``row * width + column`` as an unsigned 64-bit array position (all three must be
    non-negative).  See the module's Examples."""
    return np.uint64(row) * np.uint64(width) + np.uint64(column)
