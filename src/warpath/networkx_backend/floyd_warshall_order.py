"""Floyd-Warshall as networkx's two versions compute it, in numba.

``floyd_warshall_predecessor_and_distance`` loops ``for w: for u: for v:``
over the nodes in graph order and replaces ``dist[u][v]`` only by a strictly
shorter ``dist[u][w] + dist[w][v]``, taking ``pred[u][v] = pred[w][v]``;
:func:`floyd_warshall_dicts_kernel` runs the same loop on dense matrices, so
the float sums, the predecessors chosen among equal paths and the values left
by a negative cycle are networkx's.  It also stamps when each ``pred[u][v]``
was first set, because networkx's inner dicts keep that order.

``floyd_warshall_numpy`` relaxes through one node at a time with whole-array
operations (each step reads the matrix as it was before the step);
:func:`floyd_warshall_numpy_kernel` copies the pivot row and column first,
which is the same thing in place.

Examples
--------
>>> import numpy as np
>>> a = np.array([[0, 1, np.inf], [np.inf, 0, 2], [np.inf, np.inf, 0]])
>>> floyd_warshall_numpy_kernel(a)[0].tolist()
[0.0, 1.0, 3.0]
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _set_edge(value, finite, pred, stamp, a, b, w, clock):
    """networkx's ``dist[a][b] = min(weight, dist[a][b]); pred[a][b] = a``; returns the clock."""
    if not finite[a, b] or w <= value[a, b]:
        value[a, b] = w
        finite[a, b] = True
    pred[a, b] = a
    if stamp[a, b] < 0:
        stamp[a, b] = clock
        clock += 1
    return clock


@njit(cache=True)
def floyd_warshall_dicts_kernel(n, edge_tails, edge_heads, edge_weights, undirected):
    """networkx's dict-based Floyd-Warshall on node indices.

    Parameters
    ----------
    n : int
    edge_tails, edge_heads, edge_weights : arrays
        The edges in ``G.edges(data=True)`` order (each undirected edge once,
        each parallel edge of a multigraph separately).
    undirected : bool

    Returns
    -------
    value, finite : (n, n) arrays
        ``dist[u][v]`` is ``value[u, v]`` where ``finite``, else ``inf``.
    pred : (n, n) int64
        ``pred[u][v]`` as a node index, -1 where networkx has no entry.
    stamp : (n, n) int64
        When ``pred[u][v]`` was first set (its key's place in networkx's inner dict).
    edge_clock : int
        The stamps below this were set while reading the edges.

    Examples
    --------
    >>> import numpy as np
    >>> value, finite, pred, stamp, clock = floyd_warshall_dicts_kernel(
    ...     3, np.array([0, 1]), np.array([1, 2]), np.array([2, 3]), False)
    >>> int(value[0, 2]), int(pred[0, 2]), bool(finite[2, 0])  # directed: 2 cannot reach 0
    (5, 1, False)
    """
    value = np.zeros((n, n), edge_weights.dtype)
    finite = np.zeros((n, n), np.bool_)
    pred = np.full((n, n), -1, np.int64)
    stamp = np.full((n, n), -1, np.int64)
    for u in range(n):
        finite[u, u] = True
    clock = 0
    for k in range(edge_tails.shape[0]):
        u = edge_tails[k]
        v = edge_heads[k]
        clock = _set_edge(value, finite, pred, stamp, u, v, edge_weights[k], clock)
        if undirected:
            clock = _set_edge(value, finite, pred, stamp, v, u, edge_weights[k], clock)
    edge_clock = clock
    for w in range(n):
        for u in range(n):
            if not finite[u, w]:
                continue  # inf + anything is inf, and no entry exceeds inf
            for v in range(n):
                if not finite[w, v]:
                    continue
                # read dist[u][w] each time, as networkx does: with a negative cycle through w
                # it falls at v == w, and later v see the new value
                d = value[u, w] + value[w, v]
                if (value[u, v] > d) if finite[u, v] else (d < np.inf):
                    value[u, v] = d
                    finite[u, v] = True
                    pred[u, v] = pred[w, v]
                    if stamp[u, v] < 0:
                        stamp[u, v] = clock
                        clock += 1
    return value, finite, pred, stamp, edge_clock


@njit(cache=True)
def floyd_warshall_numpy_kernel(a):
    """networkx's ``floyd_warshall_numpy`` loop on the float64 matrix ``a`` (changed in place).

    Examples
    --------
    >>> import numpy as np
    >>> floyd_warshall_numpy_kernel(np.array([[0.0, 1.0, 9.0], [np.inf, 0.0, 2.0],
    ...                                       [np.inf, np.inf, 0.0]]))[0].tolist()
    [0.0, 1.0, 3.0]
    """
    n = a.shape[0]
    row = np.empty(n, np.float64)
    col = np.empty(n, np.float64)
    for i in range(n):
        row[:] = a[i, :]
        col[:] = a[:, i]
        for r in range(n):
            c_r = col[r]
            for c in range(n):
                d = row[c] + c_r
                if d < a[r, c]:
                    a[r, c] = d
    return a
