"""The object networkx loads from the ``networkx.backends`` entry point.

networkx's dispatcher asks a backend four things: whether it has a
function (an attribute of that name), whether it can run it with these
arguments (:meth:`BackendInterface.can_run`), whether it should
(:meth:`BackendInterface.should_run`), and how to convert graphs both ways
(``convert_from_nx`` / ``convert_to_nx``).  A ``False`` (or a string, the
reason) makes networkx run its own implementation when fallback is allowed,
and so does a ``NotImplementedError`` from a conversion (weights warpath
cannot reproduce exactly, see :mod:`.graph`).

Conversions are cached by networkx on the graph (``G.__networkx_cache__``,
keyed by the weight attribute), so a large graph is converted once and
reused until networkx sees it change.

Examples
--------
>>> import networkx as nx
>>> G = nx.path_graph(4)
>>> g = backend_interface.convert_from_nx(G, edge_attrs={"weight": 1})
>>> backend_interface.single_source_dijkstra_path_length(g, 0)
{0: 0, 1: 1, 2: 2, 3: 3}
>>> backend_interface.can_run("dijkstra_path", (G, 0, 3), {"weight": lambda u, v, d: 1})
'weight is a function: warpath reads weights from an edge attribute'
"""

from __future__ import annotations

import functools
import importlib
import inspect

from _warpath_nx import FUNCTIONS

from .graph import BackendGraph

#: Below this many nodes, converting costs more than networkx's own search (``should_run``).
SMALL_GRAPH_NODES = 100

#: Floyd-Warshall's dict version keeps four n x n matrices (value, finite, pred, stamp).
FLOYD_WARSHALL_BYTES_PER_PAIR = 8 + 1 + 8 + 8
FLOYD_WARSHALL_MAX_BYTES = 4 * 2 ** 30
_DICT_FLOYD_WARSHALL = ("floyd_warshall", "floyd_warshall_predecessor_and_distance")


@functools.lru_cache(maxsize=None)
def _signature(name):
    import networkx as nx

    return inspect.signature(nx.utils.backends._registered_algorithms[name].orig_func)


def _arguments(name, args, kwargs):
    """networkx's arguments of ``name`` bound by parameter name (defaults filled), or ``None``."""
    try:
        bound = _signature(name).bind(*args, **kwargs)
    except (KeyError, TypeError):
        return None
    bound.apply_defaults()
    return bound.arguments


class BackendInterface:
    """warpath as a networkx backend: the implemented functions plus the dispatcher's hooks.

    Each function networkx may dispatch (``_warpath_nx.FUNCTIONS``) is a
    static method of this class, taken from the module that implements it.

    Examples
    --------
    >>> BackendInterface.dijkstra_path is importlib.import_module(
    ...     "warpath.networkx_backend.weighted").dijkstra_path
    True
    """

    @staticmethod
    def convert_from_nx(graph, *, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        """A :class:`~.graph.BackendGraph` holding ``graph``'s arcs and the one weight asked for.

        Parameters
        ----------
        graph : networkx.Graph or BackendGraph
            A backend graph is returned as it is.
        edge_attrs : dict, optional
            ``{weight attribute: default}`` as networkx's dispatcher asks; at
            most one attribute, with networkx's default of 1.
        node_attrs, preserve_node_attrs, name, graph_name
            Accepted and unused (the shortest-path functions read no node data).
        preserve_edge_attrs : bool
            ``True`` (all edge data, which a callable ``weight`` needs) is declined.
        preserve_graph_attrs : bool
            Keep ``graph.graph`` on the backend graph.

        Returns
        -------
        BackendGraph

        Raises
        ------
        NotImplementedError
            When all edge attributes are asked for (a callable ``weight``), for
            more than one weight attribute or a default other than networkx's 1,
            and for weights warpath cannot use exactly.  networkx then runs
            its own implementation (when fallback is allowed).

        Examples
        --------
        >>> import networkx as nx
        >>> g = BackendInterface.convert_from_nx(nx.DiGraph([(0, 1, {"w": 2.5})]),
        ...                                      edge_attrs={"w": 1})
        >>> g.weights.tolist(), g.weight_name
        ([2.5], 'w')
        >>> BackendInterface.convert_from_nx(nx.DiGraph(), edge_attrs={"w": 0})
        Traceback (most recent call last):
        NotImplementedError: a default weight of 0 (warpath uses 1)
        """
        if isinstance(graph, BackendGraph):
            return graph
        import networkx as nx

        if not isinstance(graph, nx.Graph):
            raise NotImplementedError(f"warpath converts networkx graphs, not {type(graph).__name__}")
        if preserve_edge_attrs is True:
            raise NotImplementedError("warpath keeps one weight attribute, not all edge data")
        weight = None
        if edge_attrs:
            if len(edge_attrs) > 1:
                raise NotImplementedError(f"warpath reads one weight attribute, not {edge_attrs}")
            (weight, default), = edge_attrs.items()
            if default != 1:
                raise NotImplementedError(f"a default weight of {default!r} (warpath uses 1)")
        return BackendGraph.from_networkx(graph, weight, keep_graph_attrs=bool(preserve_graph_attrs))

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        """Results are already networkx's types; a backend graph becomes a networkx graph.

        Examples
        --------
        >>> import networkx as nx
        >>> g = BackendInterface.convert_from_nx(nx.path_graph(3))
        >>> list(BackendInterface.convert_to_nx(g).edges), BackendInterface.convert_to_nx({0: 1})
        ([(0, 1), (1, 2)], {0: 1})
        """
        if isinstance(obj, BackendGraph):
            return obj.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """``True``, or the reason warpath cannot give networkx's answer for these arguments.

        Declined: functions warpath does not implement, a callable ``weight``
        (networkx calls it only on the arcs its search scans, and user code
        may rely on that; warpath would have to call it on every arc first),
        a backend graph holding another weight attribute, and the dict
        Floyd-Warshall beyond ``FLOYD_WARSHALL_MAX_BYTES`` of work matrices.

        Examples
        --------
        >>> import networkx as nx
        >>> G = nx.path_graph(3)
        >>> BackendInterface.can_run("dijkstra_path", (G, 0, 2), {"weight": "cost"})
        True
        >>> BackendInterface.can_run("astar_path", (G, 0, 2), {})
        'warpath does not implement astar_path'
        """
        if name not in FUNCTIONS:
            return f"warpath does not implement {name}"
        arguments = _arguments(name, args, kwargs)
        if arguments is None:
            return True  # let the function raise networkx's own TypeError
        weight = arguments.get("weight")
        if callable(weight):
            return "weight is a function: warpath reads weights from an edge attribute"
        graph = arguments.get("G")
        if isinstance(graph, BackendGraph) and "weight" in arguments and weight is not None \
                and graph.weighted and graph.weight_name != weight:
            return (f"this warpath graph holds weights {graph.weight_name!r}, "
                    f"not {weight!r}")
        if name in _DICT_FLOYD_WARSHALL and graph is not None:
            needed = len(graph) ** 2 * FLOYD_WARSHALL_BYTES_PER_PAIR
            if needed > FLOYD_WARSHALL_MAX_BYTES:
                return f"Floyd-Warshall on {len(graph)} nodes needs {needed / 2**30:.0f} GiB"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        """Whether warpath is worth it: not on graphs so small that conversion dominates.

        Only automatic dispatch (``NETWORKX_BACKEND_PRIORITY``) asks this; an
        explicit ``backend="warpath"`` runs warpath whatever the size.

        Examples
        --------
        >>> import networkx as nx
        >>> BackendInterface.should_run("dijkstra_path", (nx.path_graph(3), 0, 2), {})
        'fewer than 100 nodes: networkx is as fast'
        >>> BackendInterface.should_run("dijkstra_path", (nx.path_graph(200), 0, 2), {})
        True
        """
        graph = args[0] if args else kwargs.get("G")
        if graph is not None and not isinstance(graph, BackendGraph) \
                and len(graph) < SMALL_GRAPH_NODES:
            return f"fewer than {SMALL_GRAPH_NODES} nodes: networkx is as fast"
        return True


def _implementations():
    for name, module in FUNCTIONS.items():
        implementation = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        setattr(BackendInterface, name, staticmethod(implementation))


_implementations()

#: The entry point's object.
backend_interface = BackendInterface()
