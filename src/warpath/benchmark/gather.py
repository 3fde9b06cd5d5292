"""Gathering the suites' reports into one page (``docs/benchmarks.md``), saying where each came from.

The suites of a results page are often run apart: on different days, some on
the GPU machine and some on a laptop, some at the papers' sizes and some at
the quick sizes, and a suite in several calls merged with ``--merge``.  The
page therefore opens with a table built from each ``SUITE.json``: the device,
the GPU, the sizes, the date and every command that produced the section, so
no figure is read as something it is not.  A hand-written ``NOTES.md`` in the
same directory, if there is one, follows that table.

``python3 -m warpath.benchmark.gather [--dir DIR] [--output PAGE] [SUITE ...]``
(``bench/run_all.sh`` calls it).

Examples
--------
>>> import json, pathlib, tempfile
>>> with tempfile.TemporaryDirectory() as directory:
...     d = pathlib.Path(directory)
...     record = {"suite": "s", "devices": ["cpu"], "quick": True, "command": "warpath bench s",
...               "environment": {"date": "2026-11-23T10:00:00+00:00"}, "experiments": []}
...     _ = (d / "s.json").write_text(json.dumps(record))
...     _ = (d / "s.md").write_text("# Benchmark: S\\n\\n![p](s-e-speedup.png)\\n")
...     page = gather_page(d, ["s"], plots_prefix="benchmarks/")
>>> print(page.split("## Benchmark: S")[1].strip())
![p](benchmarks/s-e-speedup.png)
>>> "| s | CPU only | - | quick | 2026-11-23 | `warpath bench s` |" in page
True
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from .report import markdown_table

DEFAULT_SUITES = ("hbf", "okuyama", "harish", "safari", "agarwal", "gpu-bfs")

INTRO = """\
Each section below is one paper's suite (`bench/suites/SUITE.toml`): our figures first, the
paper's own figures after them; raw data in `docs/benchmarks/SUITE.json`. How the papers' graphs
map to ours and what the figures mean: `bench/README.md`. The table says where each section
comes from: read a CPU-only or quick-size section as a check that the suite runs, not as a
result at the papers' sizes."""


def provenance_row(suite: str, results: dict) -> list:
    """The row of the provenance table for one suite's results.

    Examples
    --------
    >>> provenance_row("h", {"devices": ["cpu", "cuda"], "quick": False, "command": "c2",
    ...                      "environment": {"date": "2026-11-23T09:49:59+00:00",
    ...                                      "gpu": {"description": "NVIDIA H100 80GB HBM3"}},
    ...                      "experiments": [{"kept_from": {"command": "c1", "date": "x"}}]})
    ['h', 'GPU and CPU', 'NVIDIA H100 80GB HBM3', "the papers' (see the graphs' notes)", '2026-11-23', '`c1`; `c2`']
    """
    env = results.get("environment", {})
    devices = "GPU and CPU" if "cuda" in results.get("devices", ()) else "CPU only"
    gpu = (env.get("gpu") or {}).get("description") or "-"
    sizes = "quick" if results.get("quick") else "the papers' (see the graphs' notes)"
    if results.get("partial"):
        sizes += "; partial (stopped before the end)"
    commands = []
    for experiment in results.get("experiments", ()):
        kept = experiment.get("kept_from")
        if kept and kept["command"] not in commands:
            commands.append(kept["command"])
    if results.get("command") and results["command"] not in commands:
        commands.append(results["command"])
    date = str(env.get("date", "?"))[:10]
    return [suite, devices, gpu, sizes, date, "; ".join(f"`{c}`" for c in commands) or "-"]


def _section(report: str, plots_prefix: str) -> str:
    """A suite report one heading level down, its plot links made relative to the page."""
    demoted = re.sub(r"(?m)^#", "##", report)
    return re.sub(r"\]\(([^)/]+\.png)\)", lambda m: f"]({plots_prefix}{m.group(1)})", demoted)


def gather_page(directory, suites=DEFAULT_SUITES, *, plots_prefix="benchmarks/") -> str:
    """The Markdown page for the reports of ``suites`` found in ``directory``.

    Suites without both ``SUITE.json`` and ``SUITE.md`` are left out (and
    listed as missing under the table).

    Parameters
    ----------
    directory : path-like
        Where ``bench/run_all.sh`` (``warpath bench --output``) wrote the suites.
    suites : sequence of str
        Their order on the page.
    plots_prefix : str
        Prefix for the plot links (the page's path to ``directory``).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     print(gather_page(directory, ["hbf"]).splitlines()[-1])
    Not run yet: hbf.
    """
    directory = Path(directory)
    rows, sections, missing = [], [], []
    for suite in suites:
        json_path, report_path = directory / f"{suite}.json", directory / f"{suite}.md"
        if not (json_path.is_file() and report_path.is_file()):
            missing.append(suite)
            continue
        results = json.loads(json_path.read_text(encoding="utf-8"))
        rows.append(provenance_row(suite, results))
        sections.append(_section(report_path.read_text(encoding="utf-8"), plots_prefix))
    lines = ["# Benchmarks", "", INTRO, ""]
    if rows:
        lines += [markdown_table(["suite", "devices", "GPU", "sizes", "date", "commands"], rows),
                  ""]
    if missing:
        lines += [f"Not run yet: {', '.join(missing)}.", ""]
    notes = directory / "NOTES.md"
    if notes.is_file():
        lines += [notes.read_text(encoding="utf-8").strip(), ""]
    for section in sections:
        lines += [section.rstrip(), ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    """``python3 -m warpath.benchmark.gather``: write the page; returns the exit code.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     page = os.path.join(directory, "page.md")
    ...     main(["--dir", directory, "--output", page, "hbf"])
    ...     open(page).read().startswith("# Benchmarks")
    0
    True
    """
    parser = argparse.ArgumentParser(prog="python3 -m warpath.benchmark.gather",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("suites", nargs="*", default=list(DEFAULT_SUITES),
                        help="suites in page order (default: " + " ".join(DEFAULT_SUITES) + ")")
    parser.add_argument("--dir", default="docs/benchmarks",
                        help="directory of SUITE.json / SUITE.md (default: docs/benchmarks)")
    parser.add_argument("--output", default="docs/benchmarks.md",
                        help="the page to write (default: docs/benchmarks.md)")
    args = parser.parse_args(argv)
    output = Path(args.output)
    prefix = Path(os.path.relpath(Path(args.dir).resolve(), output.parent.resolve())).as_posix()
    output.write_text(gather_page(args.dir, args.suites, plots_prefix=prefix + "/"),
                      encoding="utf-8")
    print(f"wrote {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
