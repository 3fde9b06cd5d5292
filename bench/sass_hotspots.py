"""Where a kernel's instructions go, from ncu's source page: opcodes and hottest blocks.

    ncu --kernel-name-base demangled -k regex:enactor --launch-count 1 \\
        --section SourceCounters --section InstructionStats -o run python script.py
    ncu --import run.ncu-rep --page source --print-source sass --csv > sass.csv
    python bench/sass_hotspots.py sass.csv                # the kernel with most instructions
    python bench/sass_hotspots.py sass.csv --blocks 25 --show 484

The CSV holds one section per function of the profiled launch (the kernel and the
device runtime's helpers such as ``cudaCGSynchronize``), each a header row and one row
per SASS instruction with its executed count and its warp-stall samples.  This script
takes the section with the most executed instructions and prints:

- each opcode's share of the executed warp instructions and of the stall samples
  (``IMAD.WIDE.U32`` counts as ``IMAD``; predicates are dropped);
- the hottest straight-line runs (consecutive instructions executed equally often: a
  basic block, or a run of them) by instructions, with their stall share;
- with ``--show LINE``, the run that starts at that row, instruction by instruction.

It found that whole items' round (issue 13) spent half its instructions on the block
that loads four arcs and their distances, mostly 64-bit index arithmetic and numba's
negative-index wraparound (``docs/performance.md``, twenty-seventh session).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections import Counter

EXECUTED = "Instructions Executed"
SAMPLES = "Warp Stall Sampling (All Samples)"


def sections(text: str) -> list:
    """``[(function name, rows as dicts)]``, one per ``"Kernel Name"`` section of ncu's
    source CSV.

    Examples
    --------
    >>> text = '"Kernel Name","k",\\n"Address","Source","Instructions Executed"\\n"0x0","IADD3 R1, R1, 1","5"\\n'
    >>> [(name, [row["Source"] for row in rows]) for name, rows in sections(text)]
    [('k', ['IADD3 R1, R1, 1'])]
    """
    found, name, lines = [], None, []

    def close():
        if name is not None and lines:
            found.append((name, list(csv.DictReader(io.StringIO("\n".join(lines))))))

    for line in text.splitlines():
        if line.startswith('"Kernel Name"'):
            close()
            name, lines = next(csv.reader([line]))[1], []
        elif name is not None and line.strip():
            lines.append(line)
    close()
    return found


def opcode(source: str) -> str:
    """The instruction's base opcode, without predicate and modifiers.

    Examples
    --------
    >>> opcode("@!P1  IMAD.WIDE.U32 R10, R23, UR4, R4"), opcode("LDG.E R9, desc[UR4][R6.64]")
    ('IMAD', 'LDG')
    """
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def _count(row, key) -> int:
    value = (row.get(key) or "0").replace(",", "")
    return int(value) if value.isdigit() else 0


def opcode_shares(rows) -> list:
    """``[(opcode, executed, share of executed, share of stall samples)]``, most executed
    first.

    Examples
    --------
    >>> rows = [{"Source": "IMAD R1", EXECUTED: "30", SAMPLES: "1"},
    ...         {"Source": "LDG.E R2", EXECUTED: "10", SAMPLES: "3"}]
    >>> opcode_shares(rows)
    [('IMAD', 30, 0.75, 0.25), ('LDG', 10, 0.25, 0.75)]
    """
    executed, sampled = Counter(), Counter()
    for row in rows:
        executed[opcode(row["Source"])] += _count(row, EXECUTED)
        sampled[opcode(row["Source"])] += _count(row, SAMPLES)
    total, samples = max(sum(executed.values()), 1), max(sum(sampled.values()), 1)
    return [(op, n, n / total, sampled[op] / samples) for op, n in executed.most_common()]


def runs(rows) -> list:
    """``[(first row, last row, times executed, instructions, stall samples)]``: the
    straight-line runs of rows executed equally often, hottest (most instructions) first.

    Examples
    --------
    >>> rows = [{EXECUTED: "2", SAMPLES: "1"}, {EXECUTED: "2", SAMPLES: "0"},
    ...         {EXECUTED: "9", SAMPLES: "4"}]
    >>> runs(rows)
    [(2, 2, 9, 9, 4), (0, 1, 2, 4, 1)]
    """
    found, start = [], 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i][EXECUTED] != rows[start][EXECUTED]:
            times = _count(rows[start], EXECUTED)
            samples = sum(_count(rows[k], SAMPLES) for k in range(start, i))
            found.append((start, i - 1, times, times * (i - start), samples))
            start = i
    return sorted(found, key=lambda run: -run[3])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", help="ncu --page source --print-source sass --csv output")
    parser.add_argument("--opcodes", type=int, default=20, help="opcodes to print")
    parser.add_argument("--blocks", type=int, default=15, help="hottest runs to print")
    parser.add_argument("--show", type=int, action="append", default=[],
                        help="print the run starting at this row")
    args = parser.parse_args(argv)
    with open(args.csv) as handle:
        found = sections(handle.read())
    if not found:
        print(f"{args.csv}: no 'Kernel Name' section (is it ncu's source page as CSV?)",
              file=sys.stderr)
        return 1
    name, rows = max(found, key=lambda item: sum(_count(r, EXECUTED) for r in item[1]))
    total = sum(_count(r, EXECUTED) for r in rows)
    samples = max(sum(_count(r, SAMPLES) for r in rows), 1)
    print(f"{name[:100]}: {len(rows):,} instructions, {total:,} warp instructions executed, "
          f"{samples:,} stall samples")
    for op, n, share, stall in opcode_shares(rows)[:args.opcodes]:
        print(f"  {op:10s} {n:>15,} {100 * share:5.1f}%   stalls {100 * stall:5.1f}%")
    print("hottest runs (rows, times executed, share of instructions, of stalls, first):")
    for first, last, times, count, stall in runs(rows)[:args.blocks]:
        print(f"  {first:5d}-{last:5d} x{times:>13,}  {100 * count / max(total, 1):5.1f}%  "
              f"{100 * stall / samples:5.1f}%  {rows[first]['Source'].strip()[:60]}")
    for start in args.show:
        times = rows[start][EXECUTED]
        end = start
        while end < len(rows) and rows[end][EXECUTED] == times:
            print(f"  {end:5d} {_count(rows[end], SAMPLES):>7,}  {rows[end]['Source'].strip()}")
            end += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
