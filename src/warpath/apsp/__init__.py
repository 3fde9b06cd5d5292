"""All-pairs and multi-source shortest-path methods; importing this package registers them all."""

from . import (floyd_warshall, gpu_johnson, gpu_repeated_sssp, johnson,  # noqa: F401
               repeated_sssp, task_parallel)
from . import gpu_floyd_warshall  # noqa: F401  (GPU: numba-cuda imported on first run)
