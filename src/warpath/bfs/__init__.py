"""Breadth-first search methods; importing this package registers them all.

``queue`` runs on the CPU (numba); the GPU methods (``gpu_*`` modules:
``harish``, ``queue``, ``direction-optimizing``, ``multi-source``) import
numba-cuda only when they run.
"""

from . import queue  # noqa: F401
from . import gpu_direction_optimizing, gpu_harish, gpu_multi_source, gpu_queue  # noqa: F401,E501
