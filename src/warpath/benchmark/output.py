"""Writing a benchmark's results: raw JSON, the Markdown report and the plots, in one directory.

Files written in ``DIR``: ``SUITE.json`` (everything: environment, command,
graphs with their statistics, the chosen sources, every run with its
per-query times), ``SUITE.md`` (the report) and ``SUITE-EXPERIMENT-PLOT.png``.

Examples
--------
>>> import json, tempfile, os
>>> results = {"suite": "x", "title": "x", "devices": ["cpu"], "graphs": {},
...            "experiments": [], "runs": []}
>>> with tempfile.TemporaryDirectory() as directory:
...     paths = write_results(results, directory, command="warpath bench x")
...     sorted(os.path.basename(p) for p in paths)
['x.json', 'x.md']
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from .environment import describe_environment
from .plots import write_plots
from .report import render_report


def _jsonable(value):
    """Numbers and arrays as plain JSON values (non-finite floats as strings)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    return value


def write_results(results, directory, *, command="", environment=None, plots=True) -> list:
    """Write JSON, Markdown and plots for ``results`` into ``directory``.

    Parameters
    ----------
    results : dict
        From :func:`~warpath.benchmark.runner.run_suite`.
    directory : path-like
        Created if missing.
    command : str
        The command line that produced the results (recorded in both files).
    environment : dict, optional
        Defaults to :func:`~warpath.benchmark.environment.describe_environment`.
    plots : bool
        Draw the plots (skipped with a note when matplotlib is missing).

    Returns
    -------
    list of str
        The paths written.

    Examples
    --------
    >>> import tempfile
    >>> results = {"suite": "s", "title": "s", "devices": ["cpu"], "graphs": {},
    ...            "experiments": [], "runs": []}
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     len(write_results(results, directory))
    2
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    results = dict(results)
    results["command"] = command
    results["environment"] = environment or describe_environment()
    written, note = write_plots(results, directory) if plots else ({}, None)
    if note:
        results["plot_note"] = note
    name = results.get("suite", "suite")
    json_path = directory / f"{name}.json"
    json_path.write_text(json.dumps(_jsonable(results), indent=1) + "\n", encoding="utf-8")
    report_path = directory / f"{name}.md"
    report_path.write_text(render_report(results, written), encoding="utf-8")
    paths = [str(json_path), str(report_path)]
    paths += [str(directory / f) for files in written.values() for f in files]
    return paths
