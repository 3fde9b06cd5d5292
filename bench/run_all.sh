#!/usr/bin/env bash
# Regenerate docs/benchmarks.md: run every paper suite, then gather the reports into one page.
#
#   bash bench/run_all.sh                  # on the GPU machine: --device cuda, paper suites
#   QUICK=1 DEVICE=cpu bash bench/run_all.sh   # quick sizes on a CPU-only machine
#
# Environment knobs (defaults in brackets): DEVICE [cuda], SUITES [hbf okuyama harish safari
# agarwal], SOURCES [10], REPEAT [3], MAX_SECONDS [60: time budget per run], MAX_EDGES
# [70000000], SUITE_SECONDS [unset: time budget per suite, e.g. to fit a lease], QUICK [unset], EXTRA [more arguments for warpath bench], GATHER_ONLY [unset: set it
# to only rebuild docs/benchmarks.md from the reports already in docs/benchmarks/]. Each suite writes
# docs/benchmarks/SUITE.{json,md} and its plots (the JSON and report after every graph too, so a
# suite killed by a time limit leaves what it measured); docs/benchmarks.md gathers the reports.
# A lease shorter than the whole run: one suite or experiment per call, then EXTRA=--merge, e.g.
#   SUITES=hbf EXTRA="--experiment table2" bash bench/run_all.sh
#   SUITES=hbf EXTRA="--experiment table3 --experiment fig9 --merge" bash bench/run_all.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DEVICE=${DEVICE:-cuda}
SUITES=${SUITES:-"hbf okuyama harish safari agarwal gpu-bfs"}
OUT=docs/benchmarks
mkdir -p "$OUT"
args=(--device "$DEVICE" --output "$OUT")
if [[ -n "${QUICK:-}" ]]; then
  args+=(--quick)
else
  args+=(--sources "${SOURCES:-10}" --repeat "${REPEAT:-3}" --max-seconds "${MAX_SECONDS:-60}"
         --max-edges "${MAX_EDGES:-70000000}")
fi
[[ -n "${SUITE_SECONDS:-}" ]] && args+=(--suite-seconds "$SUITE_SECONDS")
status=0
for suite in $SUITES; do
  [[ -n "${GATHER_ONLY:-}" ]] && break
  echo "== $suite" >&2
  PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} python3 -m warpath.benchmark "$suite" "${args[@]}" ${EXTRA:-} \
    || status=$?
done
# the page (every suite found in docs/benchmarks, not only those run now): a table of where each suite's figures come from (device, sizes, date, commands),
# docs/benchmarks/NOTES.md if there is one, then every suite's report
PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} python3 -m warpath.benchmark.gather --dir "$OUT" \
  --output docs/benchmarks.md || status=$?
exit $status
