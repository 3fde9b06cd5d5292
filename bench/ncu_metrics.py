"""Metrics of each profiled launch from Nsight Compute's raw page, a line each.

    ncu --import run.ncu-rep --page raw --csv --print-units base > raw.csv
    python bench/ncu_metrics.py raw.csv                      # every metric
    python bench/ncu_metrics.py raw.csv dram__bytes_read.sum gpu__time_duration.sum

The raw page is a header row of metric names, a row of units, then a row per launch
(its ``ID`` a number).  ``bench/profile_multi_source.py`` says how the thirty-first
session's profile of the many-source rounds was taken.
"""

from __future__ import annotations

import csv
import io
import sys


def launches(text: str) -> list:
    """``[(id, kernel name, {metric: value})]`` for the launches of a raw-page CSV.

    Examples
    --------
    >>> text = '"ID","Kernel Name","a"\\n"","","byte"\\n"0","k","1,024"\\n'
    >>> launches(text)
    [('0', 'k', {'a': '1,024'})]
    """
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return []
    header = rows[0]
    found = []
    for row in rows[1:]:
        record = dict(zip(header, row))
        if record.get("ID", "").strip().isdigit():
            metrics = {k: v for k, v in record.items() if k not in ("ID", "Kernel Name")}
            found.append((record["ID"], record.get("Kernel Name", ""), metrics))
    return found


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    with open(argv[0]) as handle:
        found = launches(handle.read())
    for launch_id, kernel, metrics in found:
        print(f"launch {launch_id} {kernel[:100]}")
        for name in argv[1:] or metrics:
            if name in metrics:
                print(f"   {name}: {metrics[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
