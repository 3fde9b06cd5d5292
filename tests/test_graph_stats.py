"""Graph statistics (H-BF Table 1 columns)."""

import numpy as np

import warpath
from warpath import Graph
from warpath.graph_stats import approximate_diameter


def test_stats_of_a_small_graph():
    # 0 -> 1 -> 2 -> 3, a self-loop on 3, vertex 4 isolated
    g = Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 3], num_vertices=5)
    s = g.stats()
    assert s is g.stats()
    assert (s.vertices, s.edges, s.max_out_degree, s.self_loops) == (5, 4, 1, 1)
    assert s.out_degree_zero == 1  # vertex 4
    assert s.in_degree_one == 2  # vertices 1 and 2 (3 has two arcs in: from 2 and itself)
    assert np.isclose(s.avg_out_degree, 0.8) and np.isclose(s.std_out_degree, 0.4)
    assert s.approx_diameter == 3
    assert "vertices" in s.table() and s.as_dict()["edges"] == 4


def test_approximate_diameter_of_a_path_is_exact():
    n = 50
    g = Graph.from_edges(np.arange(n - 1), np.arange(1, n), directed=False)
    assert approximate_diameter(g) == n - 1
    assert approximate_diameter(Graph([0], [])) == 0


def test_wide_even_degrees_asks_for_a_large_and_even_out_degree():
    from warpath.graph_stats import WIDE_DEGREE, wide_even_degrees

    gen = warpath.generators
    assert wide_even_degrees(gen.random(2000, 2000 * WIDE_DEGREE, seed=1))
    assert not wide_even_degrees(gen.random(2000, 2000 * (WIDE_DEGREE - 4), seed=1))
    assert not wide_even_degrees(gen.rmat(11, 2 * WIDE_DEGREE, seed=1))   # skewed degrees
    assert not wide_even_degrees(gen.grid(40, 40, seed=1))
