"""networkx-shaped results: large dicts built in chunks, or from shared objects, keep every entry
and the order."""

import networkx as nx
import numpy as np

from warpath.networkx_backend.graph import BackendGraph
from warpath.networkx_backend.results import DICT_CHUNK, SharedObjects, lengths_in_order


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


def test_shared_objects_give_the_same_numbers_and_share_only_small_ints():
    G = nx.path_graph(["a", "b", "c"])
    shared = SharedObjects(BackendGraph.from_networkx(G), limit=100)
    assert shared.keys(np.array([2, 0])) == ["c", "a"]
    assert shared.keys(np.array([1]))[0] is list(G)[1]   # the graph's own node objects
    for values in (np.array([5, 100, 7], dtype=np.int32), np.array([3, 101]),
                   np.array([-2, 4]), np.array([0.5, 2.0]), np.array([], dtype=np.int64)):
        got = shared.values(values)
        assert got == values.tolist() and [type(v) for v in got] == [type(v) for v in
                                                                    values.tolist()]
    # ints above 256 (CPython caches the small ones): one object per value in [0, limit]
    shared = SharedObjects(BackendGraph.from_networkx(G), limit=10_000)
    first, again = shared.values(np.array([500, 9_999])), shared.values(np.array([9_999, 500]))
    assert first[0] is again[1] and first[1] is again[0]
    assert shared.values(np.array([10_001]))[0] is not shared.values(np.array([10_001]))[0]


def test_the_shared_table_stays_small_beside_large_lengths():
    g = BackendGraph.from_networkx(nx.path_graph(3))
    shared = SharedObjects(g)
    assert shared.limit == 1 << 16
    assert shared.values(np.array([0, 10**6])) == [0, 10**6]
    assert len(shared._ints) == 0   # a row beyond the limit makes no table
    shared.values(np.array([300]))
    shared.values(np.array([301]))
    assert len(shared._ints) == 602   # grown by doubling, not one value at a time


def test_lengths_from_shared_objects_equal_the_plain_dicts_in_order():
    rng = np.random.default_rng(1)
    for nodes in (list(range(300)), [(i, "x") for i in range(300)]):
        G = nx.Graph()
        G.add_nodes_from(nodes)
        g = BackendGraph.from_networkx(G)
        shared = SharedObjects(g, limit=1000)
        for values in (rng.integers(0, 2000, 300), rng.random(300)):
            order = rng.permutation(300)[:200]
            values[order[0]] = 0
            plain = lengths_in_order(g, order, values[order], (order[0],))
            got = lengths_in_order(g, order, values[order], (order[0],), shared)
            assert list(got.items()) == list(plain.items())
            assert type(got[nodes[order[0]]]) is int   # the source's 0, also among floats
