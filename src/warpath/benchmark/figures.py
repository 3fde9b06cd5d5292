"""The figures of a run: time per query, MTEPS, work counters, speed-up against a baseline.

* **time**: per repetition, the mean time of one query over the sources
  (the papers average over their 100 sources); the report gives the median
  over repetitions and the spread (min-max).
* **MTEPS**: millions of traversed edges per second, as H-BF defines it: the
  arcs of the reached part of the graph (arcs whose tail the query reaches),
  summed over the queries of a repetition, over that repetition's time; the
  median over repetitions.
* **relaxations, iterations** (and any other numeric counter a method puts
  in ``result.stats``, e.g. kernel ``launches``): the mean over the sources.
* **speed-up**: the baseline's median time over this run's, on the same graph.

Examples
--------
>>> f = run_figures([[0.5, 1.5], [1.0, 1.0]], [2_000_000, 2_000_000], {"relaxations": 7.0})
>>> f["time"]["median"], f["mteps"], f["relaxations"]
(1.0, 2.0, 7.0)
"""

from __future__ import annotations

import numpy as np

from .timing import summarize


def run_figures(per_repetition, reached_edges, counters) -> dict:
    """Time, MTEPS and counters of one run.

    Parameters
    ----------
    per_repetition : list of list of float
        Seconds of each query, per repetition.
    reached_edges : list of int
        Arcs reached by each query (same order as the queries).
    counters : dict
        Mean ``stats`` counters over the queries.

    Returns
    -------
    dict
        ``time`` (:func:`~warpath.benchmark.timing.summarize` of the mean query
        time per repetition), ``mteps``, ``mteps_spread`` (min, max),
        ``reached_edges`` (mean per query), ``counters`` and the common
        counters ``relaxations`` and ``iterations`` at top level.

    Examples
    --------
    >>> run_figures([[2.0]], [4_000_000], {})["mteps"]
    2.0
    """
    means = [float(np.mean(times)) for times in per_repetition if times]
    rates = []
    for times in per_repetition:
        total = float(np.sum(times))
        if total > 0:
            rates.append(float(np.sum(reached_edges[:len(times)])) / total / 1e6)
    out = {"time": summarize(means), "mteps": float(np.median(rates)) if rates else None,
           "mteps_spread": [min(rates), max(rates)] if rates else None,
           "reached_edges": float(np.mean(reached_edges)) if reached_edges else 0.0,
           "counters": dict(counters)}
    out["relaxations"] = counters.get("relaxations")
    out["iterations"] = counters.get("iterations")
    return out


def add_speedups(graph_runs, baseline):
    """Set ``speedup`` (baseline median time / run median time) on every timed run of one graph.

    Runs that did not finish OK get ``None``; so do all when the baseline
    did not run; ``speedup_baseline`` names the baseline either way.

    Examples
    --------
    >>> runs = [{"label": "a", "status": "OK", "time": {"median": 2.0}},
    ...         {"label": "b", "status": "OK", "time": {"median": 0.5}}]
    >>> add_speedups(runs, "a"); [r["speedup"] for r in runs]
    [1.0, 4.0]
    """
    base = next((r for r in graph_runs if r["label"] == baseline and r["status"] == "OK"), None)
    base_time = base["time"]["median"] if base else None
    for run in graph_runs:
        run["speedup_baseline"] = baseline
        time = (run.get("time") or {}).get("median")
        ok = run["status"] == "OK" and time and base_time
        run["speedup"] = base_time / time if ok else None


def format_seconds(seconds) -> str:
    """A time with a unit a reader takes in at once: ``850 us``, ``12.3 ms``, ``4.56 s``.

    Examples
    --------
    >>> format_seconds(0.0123), format_seconds(4.561), format_seconds(None)
    ('12.3 ms', '4.56 s', '-')
    """
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.3g} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} us"


def describe_time(record) -> str:
    """``median (min-max)`` of a run record's per-query time, or its reason.

    Examples
    --------
    >>> describe_time({"status": "OK", "time": {"median": 0.002, "min": 0.001, "max": 0.003}})
    '2 ms (1 ms - 3 ms)'
    """
    time = record.get("time")
    if not time or time.get("median") is None:
        return record.get("reason", "")
    return (f"{format_seconds(time['median'])} ({format_seconds(time['min'])} - "
            f"{format_seconds(time['max'])})")
