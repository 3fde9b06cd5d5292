"""Quiet networkx's cache note (tests/conftest.py registers the backend)."""

import networkx as nx

# The tests call many functions on one graph: networkx's note that it reuses the cached
# conversion would repeat on every call.
nx.config.warnings_to_ignore.add("cache")
