"""The source policy of the H-BF paper (Sec. 6.2): random sources with a large reachable set.

Busato & Bombieri average every figure over 100 random sources "where, for
each source, the connected component has at least 10^5 vertices".  On graphs
with fewer vertices than that we require 10% of the vertices instead.  The
draw is seeded, so the same suite picks the same sources on every machine,
and the chosen sources go into the JSON output.

Examples
--------
>>> import warpath
>>> g = warpath.generators.ring(50, seed=0)
>>> picked = choose_sources(g, 3, seed=1)
>>> len(picked.sources), picked.threshold
(3, 5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass
class SourceChoice:
    """The chosen sources and how they were chosen (goes into the JSON as is).

    Attributes
    ----------
    sources : list of int
    reached : list of int
        The size of each source's reachable set (the source included).
    threshold : int
        The reachable-set size every source had to reach.
    tried : int
        How many random candidates were examined.
    note : str
        Set when fewer qualifying sources than asked for were found.
    """

    sources: list
    reached: list
    threshold: int
    tried: int
    policy: str = "random"
    seed: int | None = None
    note: str = ""
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """A JSON-ready dict.

        Examples
        --------
        >>> SourceChoice([3], [10], 5, 1).as_dict()["sources"]
        [3]
        """
        return {"policy": self.policy, "seed": self.seed, "threshold": self.threshold,
                "tried": self.tried, "sources": [int(s) for s in self.sources],
                "reached": [int(r) for r in self.reached], "note": self.note}


def reach_threshold(num_vertices: int, min_reached: int = 100_000,
                    min_fraction: float = 0.10) -> int:
    """The reachable-set size a source needs: ``min_reached``, capped at ``min_fraction`` of V.

    Examples
    --------
    >>> reach_threshold(12_000_000), reach_threshold(5_000)
    (100000, 500)
    """
    return max(1, min(int(min_reached), math.ceil(min_fraction * num_vertices)))


def reachable_counts(graph, vertices) -> np.ndarray:
    """How many vertices each of ``vertices`` reaches (itself included), by BFS.

    For an undirected graph one connected-components pass answers all.

    Examples
    --------
    >>> import warpath
    >>> reachable_counts(warpath.Graph.from_edges([0, 1], [1, 2]), [0, 2]).tolist()
    [3, 1]
    """
    from scipy.sparse import csgraph

    matrix = graph.to_scipy()
    vertices = np.asarray(vertices, dtype=np.int64)
    if not graph.directed:
        _, labels = csgraph.connected_components(matrix, directed=False)
        sizes = np.bincount(labels)
        return sizes[labels[vertices]]
    return np.array([csgraph.breadth_first_order(matrix, int(v), directed=True,
                                                 return_predecessors=False).size
                     for v in vertices], dtype=np.int64)


def choose_sources(graph, count: int, *, seed: int = 2024, min_reached: int = 100_000,
                   min_fraction: float = 0.10, max_tries: int | None = None) -> SourceChoice:
    """``count`` seeded random sources, each reaching at least :func:`reach_threshold` vertices.

    Candidates are drawn without replacement from a seeded permutation of the
    vertices; the first ``count`` that qualify are kept.  If fewer qualify
    within ``max_tries`` candidates (default ``max(20 * count, 200)``), the
    best candidates seen fill the list and ``note`` says so.

    Parameters
    ----------
    graph : Graph
    count : int
        How many sources (capped at the number of vertices).
    seed : int
    min_reached : int
        The H-BF threshold (10^5).
    min_fraction : float
        The threshold on small graphs, as a fraction of the vertices.
    max_tries : int, optional

    Returns
    -------
    SourceChoice

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0, 1, 2], [1, 2, 3], num_vertices=40)
    >>> c = choose_sources(g, 2, seed=0)
    >>> sorted(c.sources), c.threshold
    ([0, 1], 4)
    """
    n = graph.num_vertices
    count = min(int(count), n)
    threshold = reach_threshold(n, min_reached, min_fraction)
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    limit = n if max_tries is None else min(n, int(max_tries))
    if max_tries is None:
        limit = min(n, max(20 * count, 200))
    chosen, reached, seen = [], [], []
    batch = max(count, 16)
    tried = 0
    if not graph.directed:
        limit = n  # components answer every candidate at once
        batch = n
    while len(chosen) < count and tried < limit:
        candidates = order[tried:min(limit, tried + batch)]
        counts = reachable_counts(graph, candidates)
        for vertex, size in zip(candidates.tolist(), counts.tolist()):
            tried += 1
            seen.append((size, vertex))
            if size >= threshold:
                chosen.append(vertex)
                reached.append(size)
                if len(chosen) == count:
                    break
    note = ""
    if len(chosen) < count:
        missing = count - len(chosen)
        taken = set(chosen)
        fillers = [item for item in sorted(seen, reverse=True) if item[1] not in taken][:missing]
        chosen += [v for _, v in fillers]
        reached += [s for s, _ in fillers]
        note = (f"only {count - missing} of {count} random candidates out of {tried} reach "
                f"{threshold} vertices; the {len(fillers)} best others were used")
    return SourceChoice(chosen, reached, threshold, tried, seed=seed, note=note)


def explicit_sources(graph, sources) -> SourceChoice:
    """A :class:`SourceChoice` for sources the suite lists itself (``"all"``: every vertex).

    Examples
    --------
    >>> import warpath
    >>> explicit_sources(warpath.generators.ring(4, seed=0), "all").sources
    [0, 1, 2, 3]
    """
    if sources == "all":
        vertices = list(range(graph.num_vertices))
        return SourceChoice(vertices, [], 0, 0, policy="all")
    bad = [s for s in sources if not 0 <= int(s) < graph.num_vertices]
    if bad:
        from ..errors import SourceError

        raise SourceError(f"suite sources {bad} are not vertices of a graph with "
                          f"{graph.num_vertices} vertices")
    vertices = [int(s) for s in sources]
    return SourceChoice(vertices, reachable_counts(graph, vertices).tolist(), 0, 0,
                        policy="listed")
