"""The H-BF source policy: seeded, every source reaches the threshold, recorded."""

import numpy as np
from scipy.sparse import csgraph

import warpath
from warpath.benchmark.sources import choose_sources, explicit_sources, reach_threshold


def _reach(graph, source):
    return csgraph.breadth_first_order(graph.to_scipy(), source, directed=True,
                                       return_predecessors=False).size


def test_threshold_is_hbf_or_ten_percent():
    assert reach_threshold(12_000_000) == 100_000
    assert reach_threshold(1_000_000) == 100_000
    assert reach_threshold(4677) == 468


def test_every_source_reaches_the_threshold():
    # a directed graph where only a third of the vertices reach many others
    tail = warpath.generators.ring(60, seed=0)
    src = np.concatenate([tail.tails(), np.arange(60, 180)])
    dst = np.concatenate([tail.indices, np.full(120, 179)])
    graph = warpath.Graph.from_edges(src, dst, num_vertices=180)
    choice = choose_sources(graph, 10, seed=3, min_fraction=0.2)
    assert choice.threshold == 36
    assert len(set(choice.sources)) == 10 and not choice.note
    for source, reached in zip(choice.sources, choice.reached):
        assert reached == _reach(graph, source) >= 36
        assert source < 60


def test_seeded_and_recorded():
    graph = warpath.generators.random(500, 3000, seed=1)
    first = choose_sources(graph, 5, seed=11)
    again = choose_sources(graph, 5, seed=11)
    other = choose_sources(graph, 5, seed=12)
    assert first.sources == again.sources != other.sources
    assert first.as_dict()["sources"] == first.sources


def test_undirected_uses_components():
    graph = warpath.Graph.from_edges([0, 1, 3], [1, 2, 4], num_vertices=10, directed=False)
    choice = choose_sources(graph, 3, seed=0, min_fraction=0.3)
    assert sorted(choice.sources) == [0, 1, 2]


def test_too_few_qualifying_sources_are_filled_and_noted():
    graph = warpath.Graph.from_edges([0, 1], [1, 2], num_vertices=50)
    choice = choose_sources(graph, 3, seed=0, min_fraction=0.5)
    assert len(choice.sources) == 3
    assert "only 0 of 3" in choice.note
    assert choice.sources[0] == 0  # the best reach first


def test_explicit_and_all():
    graph = warpath.generators.ring(5, seed=0)
    assert explicit_sources(graph, (4, 1)).sources == [4, 1]
    assert explicit_sources(graph, "all").sources == [0, 1, 2, 3, 4]
