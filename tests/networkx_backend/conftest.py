"""Quiet networkx's cache note (tests/conftest.py registers the backend)."""

import networkx as nx
import pytest

# The tests call many functions on one graph: networkx's note that it reuses the cached
# conversion would repeat on every call.
nx.config.warnings_to_ignore.add("cache")


@pytest.fixture(autouse=True)
def networkx_order_on_the_cpu():
    """These tests check networkx's own order among equal lengths, which the CPU kernels
    reproduce and the GPU path does not (device_lengths' notes): pin the backend to the CPU
    on a GPU machine too.  test_device_lengths asks for the GPU path by name."""
    backend = getattr(nx.config.backends, "warpath", None)
    if backend is None:
        yield
        return
    before = backend.device
    backend.device = "cpu"
    yield
    backend.device = before
