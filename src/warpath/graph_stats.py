"""Graph characteristics, the columns of Table 1 of the H-BF paper.

Examples
--------
>>> import warpath
>>> s = warpath.generators.ring(10, seed=1).stats()
>>> s.vertices, s.max_out_degree, s.approx_diameter
(10, 1, 9)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class GraphStats:
    """Degree statistics and an approximate diameter of one graph."""

    directed: bool
    vertices: int
    edges: int
    avg_out_degree: float
    std_out_degree: float
    max_out_degree: int
    in_degree_one: int
    out_degree_zero: int
    self_loops: int
    approx_diameter: int

    @property
    def undirected_edges(self) -> int:
        """Undirected edges of an undirected graph: both arcs of an edge count once, as a
        self-loop (stored once) does.

        Examples
        --------
        >>> import warpath
        >>> warpath.Graph.from_edges([0, 1], [1, 1], directed=False).stats().undirected_edges
        2
        """
        return (self.edges + self.self_loops) // 2

    def as_dict(self) -> dict:
        """The statistics as a plain dict (for JSON and tables)."""
        return asdict(self)

    def table(self) -> str:
        """A two-column, human-readable table of the statistics."""
        rows = [
            ("directed", "yes" if self.directed else "no"),
            ("vertices", f"{self.vertices:,}"),
            ("edges (arcs)", f"{self.edges:,}" if self.directed else
             f"{self.undirected_edges:,} undirected ({self.edges:,} arcs)"),
            ("avg out-degree", f"{self.avg_out_degree:.2f}"),
            ("std out-degree", f"{self.std_out_degree:.2f}"),
            ("max out-degree", f"{self.max_out_degree:,}"),
            ("in-degree 1", f"{self.in_degree_one:,}"),
            ("out-degree 0", f"{self.out_degree_zero:,}"),
            ("self-loops", f"{self.self_loops:,}"),
            ("approx. diameter", f">= {self.approx_diameter:,}"),
        ]
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def approximate_diameter(graph, sweeps: int = 4, seed: int = 0) -> int:
    """A lower bound on the (hop) diameter from a few double BFS sweeps.

    Each sweep starts a BFS at a vertex with out-arcs (the first such vertex,
    then random ones), then another at the farthest
    vertex reached; the largest level seen is the bound (exact on trees and
    rings, close on road networks).

    Examples
    --------
    >>> import warpath
    >>> approximate_diameter(warpath.generators.grid(4, 5, seed=0))
    7
    """
    from .traversal import bfs_levels

    if graph.num_vertices == 0:
        return 0
    rng = np.random.default_rng(seed)
    # Sweeps from vertices with out-arcs (vertex 0 first: generators and files
    # tend to put a well-connected vertex there); a sink reaches nothing.
    candidates = np.flatnonzero(graph.out_degrees() > 0)
    if candidates.size == 0:
        return 0
    starts = np.concatenate([candidates[:1], rng.choice(candidates, size=sweeps - 1)])
    best = 0
    for start in starts:
        levels = bfs_levels(graph.indptr, graph.indices, int(start))
        far = int(np.argmax(levels))
        best = max(best, int(levels[far]))
        levels = bfs_levels(graph.indptr, graph.indices, far)
        best = max(best, int(levels.max()))
    return best


def compute_stats(graph) -> GraphStats:
    """Compute :class:`GraphStats` for ``graph`` (use ``graph.stats()``, which caches it)."""
    out_degrees = graph.out_degrees()
    in_degrees = graph.in_degrees()
    n = graph.num_vertices
    self_loops = int(np.count_nonzero(graph.tails() == graph.indices))
    return GraphStats(
        directed=graph.directed,
        vertices=n,
        edges=graph.num_edges,
        avg_out_degree=float(out_degrees.mean()) if n else 0.0,
        std_out_degree=float(out_degrees.std()) if n else 0.0,
        max_out_degree=int(out_degrees.max()) if n else 0,
        in_degree_one=int(np.count_nonzero(in_degrees == 1)),
        out_degree_zero=int(np.count_nonzero(out_degrees == 0)),
        self_loops=self_loops,
        approx_diameter=approximate_diameter(graph),
    )


#: A low diameter, for ``method="auto"``: at most this many times log2(n), plus SLACK.
DIAMETER_PER_LOG2, SLACK = 2, 8
#: Wide, even degrees, for ``method="auto"``: an average out-degree of at least this.
WIDE_DEGREE = 16
#: Out-degrees count as skewed when their standard deviation is at least this times their
#: mean (:func:`skewed_degrees`).
SKEW = 1.0


def low_diameter(graph) -> bool:
    """Whether ``graph`` looks small-world: an approximate hop diameter (``graph.stats()``,
    a few CPU BFS sweeps, computed once per graph) of at most 2 log2(n) + 8.

    ``method="auto"`` on the GPU asks it.  BFS takes ``direction-optimizing`` on
    such graphs (most vertices sit in a few dense levels, where pulling pays)
    and ``queue`` on the others (road networks, meshes: thousands of thin
    levels, where a round's cost is its overhead).  SSSP takes ``edge-bf`` on
    them (few rounds, each a streaming pass over the arcs; unless their degrees
    are wide and even, :func:`wide_even_degrees`) and ``hbf`` on the others.  A device graph without a host copy has no statistics: not low.

    Examples
    --------
    >>> import warpath
    >>> gen = warpath.generators
    >>> low_diameter(gen.rmat(8, 8, seed=0)), low_diameter(gen.ring(100, seed=0))
    (True, False)
    """
    if getattr(graph, "is_device_graph", False):
        diameter = graph.approx_diameter()
    else:
        diameter = graph.stats().approx_diameter
    if diameter is None:
        return False
    n = max(graph.num_vertices, 2)
    return bool(diameter <= DIAMETER_PER_LOG2 * np.log2(n) + SLACK)


def wide_even_degrees(graph) -> bool:
    """Whether ``graph``'s vertices all have about the same, large, number of out-arcs: an
    average out-degree of at least :data:`WIDE_DEGREE` and a standard deviation below it.

    ``method="auto"`` on the GPU asks it of small-world graphs: on such a graph hbf's
    near-far rounds beat edge-bf's sweeps (H200, 2026-11-28: random(1M, 16M) 2.82 against
    3.04 ms, random(2M, 32M) 5.51 against 7.14 ms), while edge-bf stays ahead on sparser
    ones (random(1M, 6M), average degree 6: 1.66 against 2.06 ms) and on skewed ones (R-MAT,
    power-law: standard deviations 2-12 times the mean, more on larger graphs), whose hubs
    reach most vertices in a few rounds.  Between degrees 6 and 16 the crossing is not measured.  A device graph
    without a host copy has no statistics: not wide.

    Examples
    --------
    >>> import warpath
    >>> gen = warpath.generators
    >>> wide_even_degrees(gen.random(1000, 16000, seed=0))
    True
    >>> wide_even_degrees(gen.random(1000, 6000, seed=0)), wide_even_degrees(gen.rmat(10, 16, seed=0))
    (False, False)
    """
    if getattr(graph, "is_device_graph", False):
        graph = graph.host
        if graph is None:
            return False
    stats = graph.stats()
    return stats.avg_out_degree >= WIDE_DEGREE and not skewed_degrees(stats.avg_out_degree,
                                                                      stats.std_out_degree)


def skewed_degrees(mean: float, std: float) -> bool:
    """Whether out-degrees of this ``mean`` and standard deviation ``std`` vary more than
    their mean (a coefficient of variation of at least :data:`SKEW`): R-MAT(21, 10) 10.8, a
    power-law graph of 820K vertices 11.8, against 0.25 for a uniform random graph and 0.03
    for a grid.  The one rule for hbf's default rounds and for ``method="auto"``.

    Examples
    --------
    >>> skewed_degrees(12.0, 130.0), skewed_degrees(16.0, 4.0), skewed_degrees(0.0, 0.0)
    (True, False, False)
    """
    return bool(mean > 0 and std >= SKEW * mean)
