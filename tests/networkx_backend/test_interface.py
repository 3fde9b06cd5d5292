"""The dispatcher hooks: conversion with networkx's weight rules and cache, can_run refusals
that make networkx run instead, should_run."""

import networkx as nx
import pytest

from warpath.networkx_backend.graph import BackendGraph
from warpath.networkx_backend.interface import backend_interface


def _weighted_digraph():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 4), (0, 2, 1), (2, 1, 1), (1, 3, 1)])
    return G


def test_conversion_is_cached_on_the_graph_and_dropped_when_it_changes():
    G = _weighted_digraph()
    assert nx.single_source_dijkstra_path_length(G, 0, backend="warpath") == {0: 0, 2: 1, 1: 2,
                                                                               3: 3}
    cached = G.__networkx_cache__["backends"]["warpath"]
    (converted,) = cached.values()
    assert isinstance(converted, BackendGraph) and converted.weight_name == "weight"
    nx.dijkstra_path(G, 0, 3, backend="warpath")
    assert list(G.__networkx_cache__["backends"]["warpath"].values()) == [converted]
    G.add_edge(0, 3, weight=1)  # networkx clears its cache on a change
    assert nx.single_source_dijkstra_path_length(G, 0, backend="warpath")[3] == 1


def test_callable_weight_is_declined_and_networkx_runs_it():
    G = _weighted_digraph()
    reason = backend_interface.can_run("dijkstra_path", (G, 0, 3),
                                       {"weight": lambda u, v, d: 1})
    assert isinstance(reason, str) and "function" in reason
    with pytest.raises(NotImplementedError):
        nx.dijkstra_path(G, 0, 3, weight=lambda u, v, d: 1, backend="warpath")
    with nx.config(backend_priority=["warpath"], fallback_to_nx=True):
        assert nx.dijkstra_path(G, 0, 3, weight=lambda u, v, d: 1) == [0, 1, 3]


@pytest.mark.parametrize("bad", [None, "heavy", float("nan"), 2 ** 70, 1 + 2j])
def test_weights_warpath_cannot_reproduce_fall_back_to_networkx(bad):
    G = _weighted_digraph()
    G.add_edge(3, 4, weight=bad)
    with pytest.raises(NotImplementedError):
        backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
    with nx.config(backend_priority=["warpath"], fallback_to_nx=True):
        try:
            expected = nx.single_source_dijkstra_path_length(G, 0, backend="networkx")
        except TypeError as exc:  # networkx itself cannot add such weights
            expected = type(exc)
        try:
            got = nx.single_source_dijkstra_path_length(G, 0)
        except TypeError as exc:
            got = type(exc)
        assert repr(got) == repr(expected)  # repr: NaN lengths compare unequal


def test_multigraph_takes_the_lightest_parallel_edge_as_networkx():
    G = nx.MultiDiGraph()
    G.add_edge("a", "b", weight=5)
    G.add_edge("a", "b", weight=2)
    G.add_edge("b", "c")
    assert nx.single_source_dijkstra(G, "a", backend="warpath") == nx.single_source_dijkstra(G, "a")


def test_graph_built_for_another_weight_is_refused():
    G = nx.DiGraph([(0, 1, {"w": 3, "weight": 1})])
    converted = backend_interface.convert_from_nx(G, edge_attrs={"w": 1})
    assert isinstance(backend_interface.can_run("dijkstra_path", (converted, 0, 1), {}), str)
    assert backend_interface.can_run("dijkstra_path", (converted, 0, 1), {"weight": "w"}) is True
    assert nx.dijkstra_path_length(converted, 0, 1, weight="w") == 3


def test_large_dict_floyd_warshall_is_declined():
    G = nx.empty_graph(20_000)
    assert isinstance(backend_interface.can_run("floyd_warshall", (G,), {}), str)
    assert backend_interface.can_run("floyd_warshall_numpy", (G,), {}) is True


def test_should_run_leaves_tiny_graphs_to_networkx():
    assert isinstance(backend_interface.should_run("dijkstra_path", (nx.path_graph(5), 0, 4), {}),
                      str)
    assert backend_interface.should_run("dijkstra_path", (nx.path_graph(500), 0, 4), {}) is True


def test_every_listed_function_exists_in_networkx_and_here():
    from _warpath_nx import FUNCTIONS

    registered = nx.utils.backends._registered_algorithms
    for name in FUNCTIONS:
        assert name in registered and callable(getattr(backend_interface, name))


def test_convert_to_nx_round_trips_a_backend_graph():
    G = _weighted_digraph()
    converted = backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
    back = backend_interface.convert_to_nx(converted)
    assert sorted(back.edges(data="weight")) == sorted(G.edges(data="weight"))
    assert backend_interface.convert_to_nx({"a": 1}) == {"a": 1}
