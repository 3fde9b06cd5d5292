"""Single-source shortest-path methods; importing this package registers them all.

One module per method family: ``dijkstra`` and ``bellman_ford`` run on the
CPU (numba); the GPU methods live beside them and import numba-cuda only when
they run.
"""

from . import bellman_ford, dijkstra  # noqa: F401
from . import edge_bf, harish, hbf, locality  # noqa: F401  (GPU: numba-cuda imported on first run)
