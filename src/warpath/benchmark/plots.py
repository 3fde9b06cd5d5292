"""Plots (matplotlib, optional): speed-up bars per graph (H-BF Fig. 8), time against size
(Okuyama Fig. 10), relax operations per run (H-BF Fig. 9).

Each experiment says which plot it wants (``plot = "speedup" | "scaling" |
"relaxations" | "none"``; ``x`` names the size axis of a scaling plot:
``"vertices"``, ``"edges"`` or a generator parameter such as ``"max_weight"``).
Without matplotlib no plot is drawn and :func:`write_plots` says why.

Examples
--------
>>> matplotlib_missing() is None or "matplotlib" in matplotlib_missing()
True
"""

from __future__ import annotations

from pathlib import Path


def matplotlib_missing():
    """``None`` when matplotlib imports, else why plots are skipped.

    Examples
    --------
    >>> matplotlib_missing() in (None, matplotlib_missing())
    True
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
    except ImportError as exc:
        return f"plots skipped: matplotlib is not installed ({exc}); pip install warpath[plot]"
    return None


def _ok_runs(results, experiment_id):
    return [r for r in results["runs"] if r["experiment"] == experiment_id and r["status"] == "OK"]


def _labels(runs):
    seen = []
    for run in runs:
        if run["label"] not in seen:
            seen.append(run["label"])
    return seen


def _grouped_bars(axes, graphs, labels, value_of):
    import numpy as np

    width = 0.8 / max(1, len(labels))
    positions = np.arange(len(graphs))
    for i, label in enumerate(labels):
        values = [value_of(graph, label) for graph in graphs]
        heights = [v if v is not None else 0.0 for v in values]
        axes.bar(positions + i * width - 0.4 + width / 2, heights, width, label=label)
    axes.set_xticks(positions)
    axes.set_xticklabels(graphs, rotation=30, ha="right")


def speedup_plot(results, experiment, path):
    """Bars of the speed-up of every run on every graph (H-BF Fig. 8); ``False`` if nothing to draw.

    Examples
    --------
    >>> empty = {"runs": [], "graphs": {}}
    >>> speedup_plot(empty, {"id": "e", "graphs": [], "title": "t"}, "unused.png")
    False
    """
    import matplotlib.pyplot as plt

    runs = [r for r in _ok_runs(results, experiment["id"]) if r.get("speedup")]
    if not runs:
        return False
    graphs = [g for g in experiment["graphs"] if any(r["graph"] == g for r in runs)]
    labels = _labels(runs)
    lookup = {(r["graph"], r["label"]): r["speedup"] for r in runs}
    figure, axes = plt.subplots(figsize=(max(6, 1.2 * len(graphs) + 3), 4))
    _grouped_bars(axes, graphs, labels, lambda g, label: lookup.get((g, label)))
    axes.set_yscale("log")
    axes.axhline(1.0, color="black", linewidth=0.8)
    axes.set_ylabel(f"speed-up over {experiment.get('baseline')}")
    axes.set_title(experiment["title"], fontsize=10)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


def _x_value(results, graph_id, x):
    graph = results["graphs"][graph_id]
    stats = graph.get("stats") or {}
    if x in stats:
        return stats[x]
    if x == "max_weight":
        return stats.get("max_weight")
    return graph.get("params", {}).get(x)


def scaling_plot(results, experiment, path):
    """Median time against graph size (or another ``x``), one line per run (Okuyama Fig. 10).

    Examples
    --------
    >>> empty = {"runs": [], "graphs": {}}
    >>> scaling_plot(empty, {"id": "e", "graphs": [], "title": "t"}, "unused.png")
    False
    """
    import matplotlib.pyplot as plt

    runs = _ok_runs(results, experiment["id"])
    if not runs:
        return False
    x = experiment.get("x") or "vertices"
    figure, axes = plt.subplots(figsize=(6.5, 4))
    for label in _labels(runs):
        points = sorted((_x_value(results, r["graph"], x), r["time"]["median"])
                        for r in runs if r["label"] == label
                        and _x_value(results, r["graph"], x) is not None)
        if points:
            axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel(x)
    axes.set_ylabel("time per query (s)")
    axes.set_title(experiment["title"], fontsize=10)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


def relaxations_plot(results, experiment, path):
    """Relax operations of every run on every graph (H-BF Fig. 9), log scale.

    Examples
    --------
    >>> empty = {"runs": [], "graphs": {}}
    >>> relaxations_plot(empty, {"id": "e", "graphs": [], "title": "t"}, "unused.png")
    False
    """
    import matplotlib.pyplot as plt

    runs = [r for r in _ok_runs(results, experiment["id"]) if r.get("relaxations")]
    if not runs:
        return False
    graphs = [g for g in experiment["graphs"] if any(r["graph"] == g for r in runs)]
    lookup = {(r["graph"], r["label"]): r["relaxations"] for r in runs}
    figure, axes = plt.subplots(figsize=(max(6, 1.2 * len(graphs) + 3), 4))
    _grouped_bars(axes, graphs, _labels(runs), lambda g, label: lookup.get((g, label)))
    axes.set_yscale("log")
    axes.set_ylabel("relax operations per query")
    axes.set_title(experiment["title"], fontsize=10)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


PLOTTERS = {"speedup": speedup_plot, "scaling": scaling_plot, "relaxations": relaxations_plot}


def write_plots(results, directory):
    """Draw every experiment's plot into ``directory``.

    Returns
    -------
    plots : dict
        Experiment id -> list of file names written (relative to ``directory``).
    note : str or None
        Why no plots were drawn (matplotlib missing), else ``None``.

    Examples
    --------
    >>> write_plots({"experiments": [], "runs": [], "graphs": {}}, ".")[0]
    {}
    """
    missing = matplotlib_missing()
    if missing:
        return {}, missing
    directory = Path(directory)
    written = {}
    for experiment in results["experiments"]:
        plotter = PLOTTERS.get(experiment.get("plot"))
        if experiment.get("skipped") or plotter is None:
            continue
        name = f"{results.get('suite', 'suite')}-{experiment['id']}-{experiment['plot']}.png"
        directory.mkdir(parents=True, exist_ok=True)
        if plotter(results, experiment, directory / name):
            written[experiment["id"]] = [name]
    return written, None
