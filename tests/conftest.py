"""Test-wide set-up: the CUDA simulator when there is no GPU, and the ``gpu`` marker.

Without an NVIDIA driver, GPU kernels run under numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``), which must be chosen before numba.cuda is first
imported, hence here.  Tests marked ``gpu`` need a real device and are
skipped under the simulator.
"""

import gc
import os
import shutil
import sys

import pytest

if shutil.which("nvidia-smi") is None:
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"

if SIMULATED:
    # The simulator runs a block's threads as Python threads that take one lock around
    # every device-function call.  With CPython's default switch interval (5 ms) a thread
    # waiting for that lock may wait for the GIL that long at each handoff: a BFS test on
    # a SNAP graph ran 34 s, 12 s with 0.2 ms (the CI box, 2 cores), and a run of the
    # whole suite once sat over 35 minutes in one such test.  (The finer interleaving also
    # exposed a race in the simulator's shared arrays, which warpath.cuda.runtime fixes.)
    sys.setswitchinterval(2e-4)

# networkx finds the warpath backend through its entry point, which only an installed checkout
# has; register it here too so that backend="warpath" works in any test (the README's included).
from networkx_backend._compare import ensure_backend_registered  # noqa: E402

ensure_backend_registered()
DATASETS = os.environ.get("WARPATH_DATASETS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "datasets")


def pytest_collection_modifyitems(config, items):
    if not SIMULATED:
        return
    skip = pytest.mark.skip(reason="needs a real CUDA GPU (runs under the simulator here)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _long_lived_objects_out_of_the_collector():
    """Each test starts with what earlier tests left alive (modules, compiled kernels, cached
    device graphs) frozen out of the cyclic collector's reach.  The simulator makes 32
    threads and their frames for every block it runs, which triggers collections, and
    each full collection walked that whole heap: the ego-Facebook ``queue`` BFS took
    102 s after the rest of its test file and 30 s alone, and ~1,000 s late in a CI run;
    with this fixture, under 6 s.  Refcounting still frees what tests drop."""
    gc.collect()
    gc.freeze()
    yield


@pytest.fixture(scope="session")
def datasets_dir():
    """The shared real graphs (../shared/datasets), or skip when this checkout has none."""
    path = os.path.abspath(DATASETS)
    if not os.path.isdir(path):
        pytest.skip(f"the shared datasets are not at {path}")
    return path
