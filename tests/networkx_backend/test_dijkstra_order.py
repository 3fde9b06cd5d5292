"""The networkx-order Dijkstra settles nodes in networkx's order, on int32 and int64 arrays,
with and without recording parents."""

import networkx as nx
import numpy as np
import pytest

from warpath import generators
from warpath.networkx_backend.dijkstra_order import dijkstra_scan
from warpath.networkx_backend.graph import BackendGraph

from ._compare import to_networkx


def _cases():
    for seed in range(4):
        for weights in ("int", "float"):
            # max_weight 2: many equal distances, so the order among ties is exercised
            g = generators.random(60, 240, seed=seed, weights=weights, max_weight=2,
                                  directed=seed % 2 == 0)
            yield f"{weights}-{seed}", to_networkx(g, seed=seed)


@pytest.mark.parametrize("name, G", list(_cases()))
def test_settle_order_and_lengths_are_networkx_dict(name, G):
    g = BackendGraph.from_networkx(G, "weight")
    for source in list(G)[:5]:
        expected = nx.single_source_dijkstra_path_length(G, source)
        s = g.index[source]
        for arrays in ((g.indptr, g.indices, g.weights), g.compact_csr()):
            for record in (True, False):
                run = dijkstra_scan(*arrays, [s], record=record)
                got = list(zip(g.nodes_at(run.order), run.order_dist.tolist()))
                assert got == list(expected.items())
                assert run.dist[run.order].tolist() == run.order_dist.tolist()
                assert (run.parent.size > 0) == record


def test_zero_weights_and_cutoff_follow_networkx_order():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 3, 0), (0, 1, 1), (3, 2, 1), (1, 2, 0), (2, 4, 5)])
    g = BackendGraph.from_networkx(G, "weight")
    for cutoff in (None, 1, 5):
        expected = nx.single_source_dijkstra_path_length(G, 0, cutoff=cutoff)
        run = dijkstra_scan(*g.compact_csr(), [0], cutoff=cutoff, record=False)
        assert list(zip(g.nodes_at(run.order), run.order_dist.tolist())) == \
            list(expected.items())
