"""The warpath backend registered with networkx for these tests, even without its entry point."""

import networkx as nx

from networkx_backend._compare import ensure_backend_registered

ensure_backend_registered()
# The tests call many functions on one graph: networkx's note that it reuses the cached
# conversion would repeat on every call.
nx.config.warnings_to_ignore.add("cache")
