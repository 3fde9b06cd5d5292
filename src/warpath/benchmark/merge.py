"""Folding a new run of some experiments into an earlier results file of the same suite.

``warpath bench SUITE --experiment ID --merge`` re-runs one experiment (at a
larger size, after a method got faster, or because a time budget cut it
short) and keeps every other experiment of the earlier ``SUITE.json`` as it
was, so one report holds the whole suite.  Each kept experiment remembers
the command and date that produced it, and the report says so.

With ``--only-device DEVICE`` as well, the re-run experiment runs only its runs on
that device, and each of its other runs keeps its earlier result: the same
experiment, graph and label, measured on the same sources (else it stays skipped,
saying why).  Such a run carries ``kept_from`` too, and every speed-up of the
experiment is computed again against its baseline, kept or new.

Examples
--------
>>> earlier = {"suite": "s", "command": "warpath bench s", "environment": {"date": "d1"},
...            "graphs": {"g": {"id": "g"}},
...            "experiments": [{"id": "a"}, {"id": "b"}],
...            "runs": [{"experiment": "a", "graph": "g"}, {"experiment": "b", "graph": "g"}]}
>>> latest = {"suite": "s", "graphs": {"g": {"id": "g", "new": True}},
...           "experiments": [{"id": "b"}], "runs": [{"experiment": "b", "graph": "g", "new": 1}]}
>>> merged = merge_results(earlier, latest)
>>> [e["id"] for e in merged["experiments"]], [r.get("new") for r in merged["runs"]]
(['a', 'b'], [None, 1])
>>> merged["experiments"][0]["kept_from"]
{'command': 'warpath bench s', 'date': 'd1'}
"""

from __future__ import annotations

from ..errors import WarpathError


class MergeError(WarpathError, ValueError):
    """The earlier results cannot be merged with these (another suite)."""


def merge_results(earlier: dict, latest: dict) -> dict:
    """``latest`` with the experiments of ``earlier`` that it did not run.

    Parameters
    ----------
    earlier : dict
        A results dict read back from ``SUITE.json`` (with ``command`` and ``environment``).
    latest : dict
        A fresh :func:`~warpath.benchmark.runner.run_suite` result of the same suite.

    Returns
    -------
    dict
        Experiments in the earlier order (new ones appended); the runs of each
        experiment from whichever run produced it; graphs from both, the
        latest winning unless it skipped one the earlier run built (a graph
        skipped by both carries the latest run's reason).  A kept
        experiment carries ``kept_from`` (the earlier command and date)
        unless it already did.

    Raises
    ------
    MergeError
        When the two are results of different suites.
    """
    if earlier.get("suite") != latest.get("suite"):
        raise MergeError(f"cannot merge results of suite {earlier.get('suite')!r} into a run of "
                         f"suite {latest.get('suite')!r}")
    fresh = {e["id"]: e for e in latest["experiments"] if not e.get("skipped")}
    provenance = {"command": earlier.get("command", ""),
                  "date": earlier.get("environment", {}).get("date", "?")}
    experiments, seen = [], set()
    for experiment in earlier["experiments"]:
        seen.add(experiment["id"])
        if experiment["id"] in fresh:
            experiments.append(fresh[experiment["id"]])
        else:
            experiments.append({**experiment,
                                "kept_from": experiment.get("kept_from", provenance)})
    experiments += [e for e in latest["experiments"] if e["id"] not in seen]
    kept_runs = [r for r in earlier["runs"] if r["experiment"] not in fresh]
    graphs = dict(earlier.get("graphs", {}))
    for graph_id, graph in latest["graphs"].items():  # a graph skipped now keeps its stats
        built_before = graphs.get(graph_id, {}).get("status", "SKIPPED") != "SKIPPED"
        if graph.get("status") != "SKIPPED" or not built_before:
            graphs[graph_id] = graph   # (skipped both times: the latest reason)
    new_runs = [r for r in latest["runs"] if r["experiment"] in fresh
                or r["experiment"] not in seen]
    return {**latest, "experiments": experiments, "graphs": graphs,
            "runs": kept_runs + _other_devices_kept(earlier, fresh, new_runs, provenance)}


def _other_devices_kept(earlier: dict, fresh: dict, runs: list, provenance: dict) -> list:
    """``runs`` (of the re-run experiments) with each run left out by ``--only-device``
    replaced by the earlier run of the same experiment, graph and label when that one
    was measured on the same sources; the speed-ups of every graph with a kept run
    computed again.  A left-out run whose earlier one was not measured either (skipped,
    pending) says why that one was not.

    Examples
    --------
    >>> skipped = {"status": "SKIPPED", "reason": "not run this time: --only-device cuda"}
    >>> earlier = {"experiments": [{"id": "e", "sources": {"g": [1, 2]}}], "runs": [
    ...     {"experiment": "e", "graph": "g", "label": "cpu", "status": "OK",
    ...      "time": {"median": 2.0}}]}
    >>> fresh = {"e": {"id": "e", "baseline": "cpu", "sources": {"g": [1, 2]}}}
    >>> runs = [{"experiment": "e", "graph": "g", "label": "cpu", **skipped},
    ...         {"experiment": "e", "graph": "g", "label": "gpu", "status": "OK",
    ...          "time": {"median": 0.5}}]
    >>> merged = _other_devices_kept(earlier, fresh, runs, {"command": "c", "date": "d"})
    >>> [(r["label"], r["status"], r["speedup"]) for r in merged]
    [('cpu', 'OK', 1.0), ('gpu', 'OK', 4.0)]
    >>> merged[0]["kept_from"]
    {'command': 'c', 'date': 'd'}
    """
    from .figures import add_speedups
    from .runs import OK, left_out_by_only_device

    before = {(r["experiment"], r["graph"], r.get("label")): r for r in earlier["runs"]}
    sources = {e["id"]: e.get("sources", {}) for e in earlier["experiments"]}
    merged, touched = [], set()
    for run in runs:
        key = (run["experiment"], run["graph"], run.get("label"))
        old = before.get(key)
        if left_out_by_only_device(run) and old is not None:
            same = (sources.get(run["experiment"], {}).get(run["graph"])
                    == fresh[run["experiment"]].get("sources", {}).get(run["graph"]))
            if old.get("status") != OK:
                run = {**run, "reason": f"{run['reason']} (nor was it measured in the earlier "
                                        f"run: {old.get('reason') or old.get('status')})"}
            elif same:
                run = {**old, "kept_from": old.get("kept_from", provenance)}
                touched.add(key[:2])
            else:
                run = {**run, "reason": run["reason"] + " (the earlier run of it used other "
                                                        "sources, so it is not kept)"}
        merged.append(run)
    for experiment_id, graph_id in touched:
        add_speedups([r for r in merged if r["experiment"] == experiment_id
                      and r["graph"] == graph_id], fresh[experiment_id].get("baseline"))
    return merged
