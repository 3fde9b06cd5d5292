"""warpath: shortest paths on GPUs (and CPUs).

Single-source shortest paths (negative weights too), breadth-first search,
multi-source and all-pairs shortest paths, with methods from five GPU papers
selectable by name and a numba CPU path for machines without a GPU.

Examples
--------
>>> import warpath
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 2, 2], [1, 1, 5])
>>> warpath.sssp(g, 0).distances.tolist()
[0.0, 1.0, 2.0]
"""

from . import generators, methods
from . import apsp as _apsp_methods  # noqa: F401  (registers the APSP methods)
from . import bfs as _bfs_methods  # noqa: F401  (registers the BFS methods)
from . import sssp as _sssp_methods  # noqa: F401  (registers the SSSP methods)
from .api import apsp, bfs, multi_source, sssp
from .device import gpu_available
from .errors import (ArgumentError, DeviceError, DirectionWarning, DistanceOverflowError,
                     EmptyGraphError, GraphError, GraphFileNotFoundError, GraphFormatError,
                     MemoryLimitError, MethodNotAvailable, MissingPredecessorsError,
                     NegativeCycleError, NegativeWeightError, OptionError, PathNotFoundError,
                     SourceError, UnknownFormatError, WarpathError, WarpathWarning)
from .formats import read, write
from .graph import Graph
from .result import BFSMatrix, BFSResult, DistanceMatrix, SSSPResult

__version__ = "0.1.0"


def __getattr__(name):
    # warpath.distributed imports dask (an optional extra, slow to import): only on first use.
    if name == "distributed":
        import importlib

        return importlib.import_module(".distributed", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Graph", "read", "write", "generators", "methods",
    "sssp", "bfs", "multi_source", "apsp", "gpu_available",
    "SSSPResult", "BFSResult", "BFSMatrix", "DistanceMatrix",
    "WarpathError", "GraphError", "GraphFormatError", "NegativeCycleError", "NegativeWeightError",
    "SourceError", "EmptyGraphError", "MethodNotAvailable", "DeviceError", "ArgumentError",
    "OptionError", "PathNotFoundError", "GraphFileNotFoundError", "MissingPredecessorsError",
    "MemoryLimitError", "DistanceOverflowError", "UnknownFormatError", "WarpathWarning",
    "DirectionWarning",
]
