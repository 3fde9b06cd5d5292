"""Lengths through warpath's GPU methods (the CUDA simulator here): networkx's numbers, listed
by distance, and the CPU kernels wherever the GPU cannot give networkx's answer."""

import networkx as nx
import pytest

from networkx_backend._compare import to_networkx, warpath_graph
from warpath.device import gpu_available
from warpath.networkx_backend import device_lengths
from warpath.networkx_backend.graph import BackendGraph

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no GPU and no CUDA simulator")


@pytest.mark.parametrize("weights", ["int", "float"])
def test_gpu_lengths_equal_networkx_and_come_by_distance(weights):
    G = to_networkx(warpath_graph("grid", 0, weights, True, size=12), seed=0)
    g = BackendGraph.from_networkx(G, "weight")
    source = list(G)[0]
    got = device_lengths.lengths_from(g, [g.index[source]], None, device="cuda")
    expected = nx.single_source_dijkstra_path_length(G, source)
    assert got == expected
    assert list(got.values()) == sorted(got.values()) and next(iter(got)) == source
    rows = dict(device_lengths.all_pairs_lengths(g, None, device="cuda"))
    assert rows == dict(nx.all_pairs_dijkstra_path_length(G))


def test_the_cpu_kernels_run_where_the_gpu_would_differ():
    G = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 2})])
    g = BackendGraph.from_networkx(G, "weight")
    assert device_lengths.lengths_from(g, [0], None, device="cuda") is None  # negative weights
    g = BackendGraph.from_networkx(nx.path_graph(4), "weight")
    assert device_lengths.lengths_from(g, [0], 2, device="cuda") is None  # cutoff
    assert device_lengths.lengths_from(g, [0, 1], None, device="cuda") is None  # two sources
    assert device_lengths.lengths_from(g, [0], None, device="cpu") is None


@pytest.mark.parametrize("weights", ["int", "float"])
def test_all_pairs_rows_in_chunks_list_source_first_then_by_distance(weights, monkeypatch):
    # several multi_source calls and several sorting parts per call, as on a large graph
    monkeypatch.setattr(device_lengths, "ROWS_BYTES", 8 * 30 * 7)
    monkeypatch.setattr(device_lengths, "SORT_ROWS", 3)
    G = to_networkx(warpath_graph("random", 1, weights, True, size=30), seed=1)
    first = next(iter(G.edges))
    G.edges[first]["weight"] = 0   # a zero-weight arc: a tie with the source at 0
    g = BackendGraph.from_networkx(G, "weight")
    rows = list(device_lengths.all_pairs_lengths(g, None, device="cuda"))
    assert [node for node, _ in rows] == list(G)
    assert dict(rows) == dict(nx.all_pairs_dijkstra_path_length(G))
    position = {node: i for i, node in enumerate(G)}
    for source, lengths in rows:
        nodes = list(lengths)
        assert nodes[0] == source and type(lengths[source]) is int
        keys = [(lengths[v], position[v]) for v in nodes[1:]]
        assert keys == sorted(keys)   # by distance, ties in graph order
