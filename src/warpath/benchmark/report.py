"""The Markdown report: our figures per experiment and graph, with the paper's table beside them.

Examples
--------
>>> text = markdown_table(["a", "b"], [[1, "x|y"]])
>>> print(text)
| a | b |
| --- | --- |
| 1 | x\\|y |
"""

from __future__ import annotations

from .figures import format_seconds

LEGEND = """\
How to read the tables: **time** is the time of one query (one source; for
multi-source and APSP, the whole query), averaged over the sources of a
repetition, as the median over repetitions with the min - max range; **first
call** is the first query on the graph, which includes JIT compilation and the
upload of the graph to the GPU and is excluded from **time**. **MTEPS** =
arcs of the reached part of the graph / time, in millions per second.
**relax.** and **iter.** are the mean relax operations and iterations the
method reports in `result.stats`. **speed-up** is the baseline's time over the
run's. **GPU mem** is the largest increase of device memory in use seen after
each query (total - free, all processes). Every answer is checked against
scipy: FAILED means a wrong answer; PENDING means the method (or option) is not
in warpath yet; SKIPPED gives the reason."""


def markdown_table(header, rows) -> str:
    """A GitHub-flavoured Markdown table (``|`` in cells escaped).

    Examples
    --------
    >>> print(markdown_table(["x"], [[1]]))
    | x |
    | --- |
    | 1 |
    """
    def cell(value):
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _number(value, digits=3):
    if value is None:
        return "-"
    if abs(value) >= 1e6:
        return f"{value:.3g}"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


def _bytes(value):
    if value is None:
        return "-"
    return f"{value / 2**20:.1f} MiB"


def run_row(run) -> list:
    """One table row for a run record.

    Examples
    --------
    >>> run_row({"label": "x", "status": "PENDING", "reason": "not yet"})[:2]
    ['x', 'PENDING: not yet']
    >>> run_row({"label": "x", "status": "OK", "kept_from": {"date": "2026-11-23"}})[:2]
    ['x', 'OK (kept from the run of 2026-11-23)']
    """
    status = run["status"]
    if run.get("reason"):
        reason = run["reason"] if len(run["reason"]) <= 160 else run["reason"][:157] + "..."
        status = f"{status}: {reason}"
    if run.get("kept_from"):   # --only-device with --merge: an earlier run's result
        status = f"{status} (kept from the run of {run['kept_from'].get('date', '?')})"
    time = run.get("time") or {}
    spread = "-"
    if time.get("median") is not None:
        spread = (f"{format_seconds(time['median'])} ({format_seconds(time['min'])} - "
                  f"{format_seconds(time['max'])})")
    speedup = run.get("speedup")
    return [run["label"], status, spread, format_seconds(run.get("first_call_seconds")),
            _number(run.get("mteps")), _number(run.get("relaxations")),
            _number(run.get("iterations")),
            "-" if speedup is None else f"{speedup:.2f}x", _bytes(run.get("gpu_memory_bytes"))]


RUN_HEADER = ["run", "status", "time (median, min - max)", "first call", "MTEPS", "relax.",
              "iter.", "speed-up", "GPU mem"]


def _graph_heading(graph) -> str:
    stats = graph.get("stats")
    size = ""
    if stats:
        size = (f" {stats['vertices']:,} vertices, {stats['edges']:,} arcs, "
                f"avg out-degree {stats['avg_out_degree']:.1f}, max {stats['max_out_degree']:,}, "
                f"diameter >= {stats['approx_diameter']:,}, weights {stats['weights']} "
                f"[{stats['min_weight']}, {stats['max_weight']}].")
    paper = f" (paper: {graph['paper_name']})" if graph.get("paper_name") != graph["id"] else ""
    note = f" {graph['note']}" if graph.get("note") else ""
    skipped = f" **Skipped: {graph['reason']}.**" if graph.get("status") == "SKIPPED" else ""
    return f"**{graph['id']}**{paper}: `{graph['recipe']}`.{size}{note}{skipped}"


def _sources_line(choice) -> str:
    if not choice:
        return ""
    if choice["policy"] == "all":
        return "Sources: all vertices."
    text = f"Sources: {len(choice['sources'])} ({choice['policy']}"
    if choice["policy"] == "random":
        text += f", seed {choice['seed']}, each reaching >= {choice['threshold']:,} vertices"
    text += "; listed in the JSON)."
    if choice.get("note"):
        text += f" Note: {choice['note']}."
    return text


def experiment_section(experiment, graphs, runs, plots=()) -> str:
    """The Markdown section of one experiment.

    Examples
    --------
    >>> print(experiment_section({"title": "T", "skipped": "not part of --quick"}, {}, []))
    ## T
    <BLANKLINE>
    Not run: not part of --quick.
    <BLANKLINE>
    """
    lines = [f"## {experiment['title']}", ""]
    if experiment.get("skipped"):
        return "\n".join(lines + [f"Not run: {experiment['skipped']}.", ""])
    lines.append(f"Experiment `{experiment['id']}`: {experiment['problem']}, "
                 f"{experiment['repeat']} repetition(s); speed-up against "
                 f"`{experiment.get('baseline') or 'none'}`"
                 f"{'; predecessors computed and checked' if experiment['predecessors'] else ''}.")
    if experiment.get("kept_from"):
        kept = experiment["kept_from"]
        lines += ["", f"From an earlier run, kept by `--merge`: `{kept['command']}` "
                      f"on {kept['date']}."]
    if experiment.get("notes"):
        lines += ["", experiment["notes"]]
    lines.append("")
    for graph_id in experiment["graphs"]:
        graph = graphs.get(graph_id)
        if graph is None:  # a partial report, written before the run got there
            lines += [f"**{graph_id}**: not reached yet.", ""]
            continue
        lines += [_graph_heading(graph), ""]
        source_line = _sources_line(experiment["sources"].get(graph_id))
        if source_line:
            lines += [source_line, ""]
        graph_runs = [r for r in runs if r["experiment"] == experiment["id"]
                      and r["graph"] == graph_id]
        if not graph_runs:  # a partial report again
            lines += ["No runs yet: not reached.", ""]
            continue
        lines += [markdown_table(RUN_HEADER, [run_row(r) for r in graph_runs]), ""]
    for plot in plots:
        lines += [f"![{experiment['id']}]({plot})", ""]
    table = experiment.get("paper_table")
    if table:
        lines += ["### The paper's figures", ""]
        if table.get("caption"):
            lines += [table["caption"], ""]
        lines += [markdown_table(table["columns"], table["rows"]), ""]
        if table.get("source"):
            lines += [f"Source: {table['source']}", ""]
    return "\n".join(lines)


def render_report(results, plots=None) -> str:
    """The whole Markdown report of a results dict (see :func:`~warpath.benchmark.runner.run_suite`).

    Parameters
    ----------
    results : dict
        The JSON body, with ``environment`` and ``command``.
    plots : dict, optional
        Experiment id -> list of plot paths relative to the report.

    Examples
    --------
    >>> text = render_report({"title": "T", "devices": ["cpu"], "runs": [], "graphs": {},
    ...                       "experiments": []})
    >>> text.splitlines()[0]
    '# Benchmark: T'
    """
    plots = plots or {}
    env = results.get("environment", {})
    gpu = env.get("gpu", {})
    runs = results["runs"]
    counts = {}
    for run in runs:
        counts[run["status"]] = counts.get(run["status"], 0) + 1
    versions = ", ".join(f"{k} {v}" for k, v in env.get("versions", {}).items() if v)
    lines = [f"# Benchmark: {results['title']}", ""]
    if results.get("description"):
        lines += [results["description"], ""]
    lines += [f"- Command: `{results.get('command', '')}`",
              f"- Date: {env.get('date', '?')}; devices: {', '.join(results['devices'])}"
              f"{' (quick sizes)' if results.get('quick') else ''}",
              f"- Machine: {env.get('host', '?')}, {env.get('cpu', '?')}, "
              f"{env.get('memory', '?')} RAM; GPU: {gpu.get('description', 'none')}",
              f"- Versions: {versions}; commit {env.get('git_commit') or 'unknown'}",
              f"- Runs: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())), ""]
    if results.get("partial"):
        lines += ["**Partial results**: written while the benchmark was running; it was "
                  "stopped (or is still going) before the end. Runs not listed were not reached.",
                  ""]
    failed = [r for r in runs if r["status"] in ("FAILED", "ERROR")]
    if failed:
        lines += ["**Wrong answers or errors:**", ""]
        lines += [f"- {r['experiment']} / {r['graph']} / {r['label']}: {r['status']} "
                  f"{r['reason']}" for r in failed]
        lines.append("")
    pending = sorted({(r["label"], r["reason"]) for r in runs if r["status"] == "PENDING"})
    if pending:
        lines += ["**Pending (in the suite, not in warpath yet):** "
                  + "; ".join(f"`{label}` ({reason})" for label, reason in pending), ""]
    lines += [LEGEND, ""]
    if results.get("plot_note"):
        lines += [results["plot_note"], ""]
    for experiment in results["experiments"]:
        lines.append(experiment_section(experiment, results["graphs"], runs,
                                        plots.get(experiment["id"], ())))
    return "\n".join(lines).rstrip() + "\n"
