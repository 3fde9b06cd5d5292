"""The predecessor recording pass, run once after the distances have converged.

Okuyama et al. (section 5.3) record, for every vertex v, an in-neighbour u
with ``d[u] + w(u, v) == d[v]`` (a *tight* arc) in one extra kernel.  We run
that kernel edge-parallel over the forward arcs (each tight arc offers its
tail to its head, the largest tail wins, deterministically), which needs no
reverse graph on the device.

Any tight in-arc is a correct choice only while distances strictly increase
along arcs, i.e. for positive integer weights.  With zero or negative weights
two tight arcs can form a cycle (u -> v and v -> u of weight 0), and
:meth:`SSSPResult.path` would never reach the source; float rounding can
absorb a tiny weight the same way.  Then the pass is a breadth-first search
from the source over tight arcs instead (one persistent cooperative kernel,
frontier queues with warp-aggregated enqueue): every vertex is claimed once,
by a vertex of the previous level, so the predecessors form a tree.

Examples
--------
>>> import numpy as np, warpath
>>> from warpath.cuda.device_graph import device_graph
>>> g = warpath.Graph.from_edges([0, 1, 0], [1, 0, 2], [0, 0, 3])
>>> d = cuda.to_device(np.array([0, 0, 3], dtype=np.int32))
>>> record_predecessors(device_graph(g), d, 0, RunTally()).copy_to_host().tolist()
[-1, 0, 0]
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from .atomics import claim
from .counters import RunTally
from .distances import device_full, infinity
from .frontier import FrontierQueue, begin_level, enqueue
from .runtime import THREADS, blocks_for, cooperative_blocks


@cuda.jit
def _record_tight_arcs(tails, indices, weights, d, inf, pred, source):
    """Okuyama 5.3 recording kernel, edge-parallel: pred[v] = max tail of a tight arc into v."""
    e = cuda.grid(1)
    if e < indices.shape[0]:
        u = tails[e]
        v = indices[e]
        du = d[u]
        if du != inf and v != source and du + weights[e] == d[v]:
            cuda.atomic.max(pred, v, u)


@cuda.jit
def _tight_bfs(indptr, indices, weights, d, inf, pred, queues, counts, source, none):
    """Breadth-first search over tight arcs from the source (persistent: a level per grid.sync)."""
    thread = cuda.grid(1)
    stride = cuda.gridsize(1)
    grid = cuda.cg.this_grid()
    r = 0
    while True:
        begin_level(counts, r, thread)
        size = counts[r % 3]
        for start in range(0, size, stride):
            i = start + thread
            if i < size:
                u = queues[r % 2, i]
                du = d[u]
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    keep = du + weights[e] == d[v] and claim(pred, v, u, none)
                    enqueue(queues[(r + 1) % 2], counts, (r + 1) % 3, v, keep)
        grid.sync()
        if counts[(r + 1) % 3] == 0:
            break
        r += 1
    if thread == 0:
        pred[source] = none


def _strictly_increasing(dgraph, dtype) -> bool:
    """Whether every arc strictly increases a distance: positive integer weights, or
    positive float weights too large for rounding to absorb at the largest distance."""
    if dgraph.min_weight <= 0:
        return False
    if np.dtype(dtype).kind != "f":
        return True
    largest = float(dgraph.max_abs_weight) * max(dgraph.num_vertices - 1, 1)
    return float(dgraph.min_weight) > 4 * np.finfo(dtype).eps * largest


def record_predecessors(dgraph, d, source: int, tally: RunTally):
    """Predecessors (device array, -1 for the source and unreachable vertices) from converged ``d``.

    Parameters
    ----------
    dgraph : DeviceGraph
    d : device array
        Converged distances.
    source : int
    tally : RunTally
        Counts the launches.

    Returns
    -------
    device array of the index dtype

    Examples
    --------
    >>> import numpy as np, warpath
    >>> from warpath.cuda.device_graph import device_graph
    >>> g = warpath.Graph.from_edges([0, 1], [1, 2], [2, 3])
    >>> d = cuda.to_device(np.array([0, 2, 5], dtype=np.int32))
    >>> record_predecessors(device_graph(g), d, 0, RunTally()).copy_to_host().tolist()
    [-1, 0, 1]
    """
    n = dgraph.num_vertices
    index = np.dtype(dgraph.indices.dtype)
    inf = infinity(d.dtype)
    source = index.type(source)
    if _strictly_increasing(dgraph, d.dtype):
        pred = device_full(n, -1, index)
        tally.launch()
        if dgraph.num_edges:
            _record_tight_arcs[blocks_for(dgraph.num_edges), THREADS](
                dgraph.tails, dgraph.indices, dgraph.weights, d, inf, pred, source)
            tally.launch()
        return pred
    pred = device_full(n, -1, index)
    pred[int(source):int(source) + 1] = np.array([source], dtype=index)
    frontier = FrontierQueue(n, index, first=int(source))
    args = (dgraph.indptr, dgraph.indices, dgraph.weights, d, inf, pred, frontier.queues,
            frontier.counts, source, index.type(-1))
    blocks = cooperative_blocks(_tight_bfs, args, n)
    _tight_bfs[blocks, THREADS](*args)
    tally.launch(2)
    return pred
