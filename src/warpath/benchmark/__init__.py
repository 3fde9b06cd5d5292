"""warpath's benchmark harness: the papers' experiments, peers side by side, checked answers.

One module per job: :mod:`~warpath.benchmark.suite` (suite files),
:mod:`~warpath.benchmark.graphs` (building the graphs),
:mod:`~warpath.benchmark.sources` (the H-BF source policy),
:mod:`~warpath.benchmark.runs` (which runs, and which are pending),
:mod:`~warpath.benchmark.timing` (CUDA events / perf_counter, memory),
:mod:`~warpath.benchmark.peers` (scipy, networkx, igraph, rustworkx, networkit),
:mod:`~warpath.benchmark.reference` (checking against scipy),
:mod:`~warpath.benchmark.figures` (time, MTEPS, speed-up),
:mod:`~warpath.benchmark.runner` (running a suite),
:mod:`~warpath.benchmark.report`, :mod:`~warpath.benchmark.plots`,
:mod:`~warpath.benchmark.output` and :mod:`~warpath.benchmark.environment`
(what gets written), :mod:`~warpath.benchmark.command` (``warpath bench``).

Examples
--------
>>> from warpath.benchmark import load_suite
>>> [e.problem for e in load_suite("quick").experiments][:2]
['sssp', 'sssp']
"""

from .command import configure, run
from .output import write_results
from .runner import run_suite
from .suite import Suite, SuiteError, available_suites, load_suite

__all__ = ["configure", "run", "run_suite", "write_results", "load_suite", "available_suites",
           "Suite", "SuiteError"]
