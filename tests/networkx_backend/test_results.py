"""networkx-shaped results: large dicts built in chunks keep every entry and the order."""

import networkx as nx
import numpy as np

from warpath.networkx_backend.graph import BackendGraph
from warpath.networkx_backend.results import DICT_CHUNK, lengths_in_order


def test_lengths_dict_spanning_several_chunks_keeps_order_and_values():
    n = 2 * DICT_CHUNK + 5
    rng = np.random.default_rng(0)
    order = rng.permutation(n)
    values = rng.integers(0, 10 ** 9, n)
    for nodes in (list(range(n)), [f"v{i}" for i in range(n)]):
        G = nx.Graph()
        G.add_nodes_from(nodes)
        got = lengths_in_order(BackendGraph.from_networkx(G), order, values)
        assert list(got.items()) == [(nodes[i], v) for i, v in zip(order.tolist(),
                                                                    values.tolist())]


def test_large_single_source_lengths_match_networkx_in_order():
    G = nx.grid_2d_graph(100, 100)  # 10,000 nodes: three chunks, many equal lengths
    G = nx.convert_node_labels_to_integers(G)
    expected = nx.single_source_dijkstra_path_length(G, 4321)
    got = nx.single_source_dijkstra_path_length(G, 4321, backend="warpath")
    assert list(got.items()) == list(expected.items())
