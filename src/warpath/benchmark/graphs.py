"""Building a suite's graphs: read a file or call a generator at the paper's size.

Relative file paths are resolved from the repository root (so
``../shared/datasets/x.gr.gz`` finds the shared datasets beside the
checkout); the ``WARPATH_DATASETS`` environment variable, when set, replaces
that ``../shared/datasets`` directory (for machines that keep the datasets
elsewhere).

Examples
--------
>>> from warpath.benchmark.suite import GraphSpec
>>> build_graph(GraphSpec("r", generator="ring", params={"n": 5})).num_edges
5
"""

from __future__ import annotations

import os
from pathlib import Path

from .suite import GraphSpec, SuiteError

_SHARED_PREFIX = ("..", "shared", "datasets")


class GraphUnavailable(Exception):
    """The graph of a spec cannot be had here (its file is missing); the runs on it are skipped."""


def resolve_file(file: str, root=None) -> Path:
    """The path a suite's ``file`` entry points to.

    Examples
    --------
    >>> resolve_file("data/g.gr", root="/repo").as_posix()
    '/repo/data/g.gr'
    """
    path = Path(file)
    if path.is_absolute():
        return path
    override = os.environ.get("WARPATH_DATASETS")
    if override and path.parts[:3] == _SHARED_PREFIX:
        return Path(override).joinpath(*path.parts[3:])
    return Path(root or Path.cwd()) / path


def build_graph(spec: GraphSpec, *, root=None, quick: bool = False):
    """The :class:`~warpath.Graph` a spec describes, named after the spec's id.

    Parameters
    ----------
    spec : GraphSpec
    root : path-like, optional
        The directory relative file paths start from (the repository root).
    quick : bool
        Use the spec's ``quick`` parameter overrides.

    Raises
    ------
    GraphUnavailable
        When the file does not exist here.
    SuiteError
        When the generator rejects the parameters.

    Examples
    --------
    >>> from warpath.benchmark.suite import GraphSpec
    >>> spec = GraphSpec("g", generator="grid", params={"rows": 30, "cols": 30},
    ...                  quick_params={"rows": 3})
    >>> build_graph(spec, quick=True).num_vertices
    90
    """
    import warpath

    if spec.file is not None:
        path = resolve_file(spec.file, root)
        if not path.is_file():
            raise GraphUnavailable(f"file {path} is not here")
        graph = warpath.read(path)
    else:
        params = {**spec.params, **(spec.quick_params if quick else {})}
        function = getattr(warpath.generators, spec.generator)
        try:
            graph = function(**params, seed=spec.seed)
        except TypeError as exc:
            raise SuiteError(f"[graphs.{spec.id}]: generator {spec.generator} rejects "
                             f"{params}: {exc}") from None
    if spec.reweight is not None:
        graph = graph.with_random_weights(*spec.reweight, seed=spec.seed)
    if spec.negative:
        graph = warpath.generators.with_negative_weights(graph, seed=spec.seed)
    return graph


def estimated_arcs(spec: GraphSpec, *, quick: bool = False):
    """The number of arcs a generator spec will build, or None for a file.

    Exact for grid, ring, complete and random; an upper bound for rmat and
    power_law, which drop repeated arcs (a few percent). Lets ``--max-edges``
    skip a graph without spending the time to build it.

    Examples
    --------
    >>> from warpath.benchmark.suite import GraphSpec
    >>> estimated_arcs(GraphSpec("g", generator="grid", params={"rows": 3, "cols": 4}))
    34
    >>> estimated_arcs(GraphSpec("r", generator="random", params={"n": 9, "m": 20}))
    20
    >>> estimated_arcs(GraphSpec("f", file="data/helsinki-osm-drive.gr.gz")) is None
    True
    """
    if spec.generator is None:
        return None
    p = {**spec.params, **(spec.quick_params if quick else {})}
    both_ways = 1 if p.get("directed", True) else 2
    counts = {
        "random": lambda: both_ways * p["m"],
        "rmat": lambda: both_ways * p["edge_factor"] * 2 ** p["scale"],
        "power_law": lambda: both_ways * p["n"] * p["avg_degree"],
        "ring": lambda: both_ways * p["n"],
        "complete": lambda: p["n"] * (p["n"] - 1),
        "grid": lambda: 2 * (p["rows"] * (p["cols"] - 1) + p["cols"] * (p["rows"] - 1)),
    }
    try:
        return int(counts[spec.generator]())
    except KeyError:
        return None
