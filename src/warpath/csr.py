"""Arc lists to CSR arrays, fast: a numba counting sort by tail, then a small sort per row;
and :func:`reverse_csr`, a graph's arcs turned around by a counting sort by head.

Arcs ordered by tail then head, duplicate arcs keep the smallest weight.
O(m + sum of d log d) instead of a global sort: on 15M random arcs a
global ``np.lexsort`` took 10.5 s on the 2-core development machine against
about 1 s for this path, and every file reader and generator goes through here.

Examples
--------
>>> import numpy as np
>>> indptr, heads, weights = build_csr(np.array([1, 0, 0]), np.array([0, 1, 1]),
...                                    np.array([4, 7, 3]), 2)
>>> indptr.tolist(), heads.tolist(), weights.tolist()
([0, 1, 2], [1, 0], [3, 4])
"""

from __future__ import annotations

import numpy as np
from numba import njit

_SMALL_ROW = 24  # insertion sort below this row length, a library sort above
# Up to this many arcs numpy's sort builds the CSR: it needs no compilation, which costs
# about 1 s on the first run of a fresh install; 256K arcs take about 40 ms.
SMALL_ARCS = 1 << 18


@njit(cache=True)
def _sort_row(heads, weights, start, stop, has_weights):
    """Sort heads[start:stop] (weights alongside) by head, in place."""
    length = stop - start
    if length <= _SMALL_ROW:
        for i in range(start + 1, stop):
            h = heads[i]
            w = weights[i] if has_weights else weights[0]
            j = i - 1
            while j >= start and heads[j] > h:
                heads[j + 1] = heads[j]
                if has_weights:
                    weights[j + 1] = weights[j]
                j -= 1
            heads[j + 1] = h
            if has_weights:
                weights[j + 1] = w
        return
    order = np.argsort(heads[start:stop])
    sorted_heads = heads[start:stop][order]
    heads[start:stop] = sorted_heads
    if has_weights:
        sorted_weights = weights[start:stop][order]
        weights[start:stop] = sorted_weights


@njit(cache=True)
def _offsets(keys, num_vertices):
    """The row offsets of a counting sort by ``keys`` (each in ``0..num_vertices-1``)."""
    indptr = np.zeros(num_vertices + 1, dtype=np.int64)
    for i in range(keys.size):
        indptr[keys[i] + 1] += 1
    for u in range(num_vertices):
        indptr[u + 1] += indptr[u]
    return indptr


@njit(cache=True)
def _build_csr(src, dst, weights, num_vertices, has_weights):
    m = src.size
    indptr = _offsets(src, num_vertices)
    fill = indptr[:-1].copy()
    heads = np.empty(m, dtype=np.int64)
    row_weights = np.empty(m if has_weights else 1, dtype=weights.dtype)
    if not has_weights:
        row_weights[0] = 0
    for i in range(m):
        p = fill[src[i]]
        heads[p] = dst[i]
        if has_weights:
            row_weights[p] = weights[i]
        fill[src[i]] = p + 1
    # Sort each row by head and keep the lightest of duplicate arcs.
    out = 0
    start = 0
    for u in range(num_vertices):
        stop = indptr[u + 1]
        sorted_already = True
        for i in range(start + 1, stop):
            if heads[i] <= heads[i - 1]:
                sorted_already = False
                break
        if not sorted_already:
            _sort_row(heads, row_weights, start, stop, has_weights)
        for i in range(start, stop):
            if i > start and heads[i] == heads[out - 1]:
                if has_weights and row_weights[i] < row_weights[out - 1]:
                    row_weights[out - 1] = row_weights[i]
                continue
            heads[out] = heads[i]
            if has_weights:
                row_weights[out] = row_weights[i]
            out += 1
        start = stop
        indptr[u + 1] = out
    return indptr, heads[:out], row_weights[:out] if has_weights else row_weights[:0]


def build_csr(src, dst, weights, num_vertices):
    """CSR arrays ``(indptr, heads, weights)`` from arc arrays in any order.

    Parameters
    ----------
    src, dst : ndarray of int
        Tails and heads, already checked to lie in ``0..num_vertices-1``.
    weights : ndarray or None
        One weight per arc, or ``None`` (then the returned weights are ``None``).
    num_vertices : int

    Examples
    --------
    >>> import numpy as np
    >>> build_csr(np.array([0, 0]), np.array([1, 1]), None, 2)[1].tolist()
    [1]
    """
    has_weights = weights is not None
    if np.asarray(src).size <= SMALL_ARCS:
        return _build_csr_small(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                                weights, int(num_vertices))
    indptr, heads, kept = _build_csr(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                                     weights if has_weights else np.zeros(1, np.int32),
                                     int(num_vertices), has_weights)
    return indptr, heads, kept if has_weights else None


def _build_csr_small(src, dst, weights, num_vertices):
    """:func:`build_csr` by numpy's sort (same arrays, no compilation): order by tail, head
    and weight, then keep the first arc of each (tail, head)."""
    keys = (dst, src) if weights is None else (weights, dst, src)
    order = np.lexsort(keys)
    tails, heads = src[order], dst[order]
    first = np.ones(tails.size, dtype=bool)
    first[1:] = (tails[1:] != tails[:-1]) | (heads[1:] != heads[:-1])
    indptr = np.zeros(num_vertices + 1, dtype=np.int64)
    np.cumsum(np.bincount(tails[first], minlength=num_vertices), out=indptr[1:])
    kept = None if weights is None else weights[order][first]
    return indptr, heads[first], kept


def reverse_csr(indptr, heads, weights, num_vertices):
    """The CSR arrays ``(indptr, heads, weights)`` of the graph with every arc turned
    around: row v lists the tails of v's incoming arcs, in increasing order (arcs of one
    tail keep their order).  A counting sort by head, O(m); numpy's stable argsort took
    24 s on rmat(23, 19)'s 155M arcs on the 2-core development machine, this 7.2 s.
    Up to :data:`SMALL_ARCS` arcs numpy's sort, which needs no compilation.  ``weights``
    may be None.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, tails, weights = reverse_csr(np.array([0, 2, 3, 3]), np.array([1, 2, 2]),
    ...                                      np.array([5, 6, 7]), 3)
    >>> indptr.tolist(), tails.tolist(), weights.tolist()
    ([0, 0, 1, 3], [0, 0, 1], [5, 6, 7])
    """
    heads = np.asarray(heads)
    if heads.size <= SMALL_ARCS:   # numpy's sort: no compilation
        order = np.argsort(heads, kind="stable")
        out_indptr = np.zeros(num_vertices + 1, dtype=np.int64)
        np.cumsum(np.bincount(heads, minlength=num_vertices), out=out_indptr[1:])
        tails = np.repeat(np.arange(num_vertices, dtype=heads.dtype), np.diff(indptr))
        return out_indptr, tails[order], None if weights is None else weights[order]
    has_weights = weights is not None
    out_indptr, tails, kept = _reverse_csr(np.asarray(indptr, dtype=np.int64), heads,
                                           weights if has_weights else np.zeros(1, np.int32),
                                           int(num_vertices), has_weights)
    return out_indptr, tails, kept if has_weights else None


@njit(cache=True)
def _reverse_csr(indptr, heads, weights, num_vertices, has_weights):
    m = heads.size
    out_indptr = _offsets(heads, num_vertices)
    fill = out_indptr[:-1].copy()
    tails = np.empty(m, dtype=heads.dtype)
    kept = np.empty(m if has_weights else 1, dtype=weights.dtype)
    for u in range(num_vertices):
        for i in range(indptr[u], indptr[u + 1]):
            p = fill[heads[i]]
            tails[p] = u
            if has_weights:
                kept[p] = weights[i]
            fill[heads[i]] = p + 1
    return out_indptr, tails, kept
