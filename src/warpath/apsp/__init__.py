"""All-pairs and multi-source shortest-path methods; importing this package registers them all."""

from . import floyd_warshall, johnson, repeated_sssp  # noqa: F401
from . import gpu_floyd_warshall  # noqa: F401  (GPU: numba-cuda imported on first run)
