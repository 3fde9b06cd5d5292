"""Running a suite: build each graph, pick the sources, time every run, check every answer.

For each experiment and graph the runner

1. builds the graph (cached across experiments) and records its Table-1 statistics;
2. picks the sources (H-BF policy, :mod:`~warpath.benchmark.sources`);
3. for each planned run (:mod:`~warpath.benchmark.runs`) makes one *first
   call* (JIT compilation, the upload of the graph: reported on its own,
   excluded from the per-query figures), then ``repeat`` repetitions over all
   sources, timed with :class:`~warpath.benchmark.timing.Clock`;
4. compares every answer of the first repetition (and the first call) with
   scipy (:mod:`~warpath.benchmark.reference`): a mismatch marks the run FAILED;
5. computes the figures (:mod:`~warpath.benchmark.figures`).

Examples
--------
>>> from warpath.benchmark.suite import parse_suite
>>> suite = parse_suite('''
... name = "doc"
... [graphs.g]
... generator = "grid"
... params = {rows = 4, cols = 4}
... [[experiments]]
... id = "e"
... problem = "sssp"
... graphs = ["g"]
... methods = ["dijkstra@cpu"]
... sources = 2
... repeat = 1
... ''')
>>> result = run_suite(suite, log=None)
>>> [(r["label"], r["status"]) for r in result["runs"]]
[('dijkstra@cpu', 'OK')]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..jit import compiled_only
from . import figures
from .gpu_peers import GPU_PEERS
from .graphs import GraphUnavailable, build_graph, estimated_arcs
from .reference import (ArcIndex, certify_distances, check_predecessors, compare_distances,
                        reachable, reference_distances, uses_certificate)
from .runs import ERROR, FAILED, OK, SKIPPED, only_on, plan_experiment
from .sources import choose_sources, explicit_sources
from .timing import Clock, MemoryWatch

REFERENCE_CACHE_BYTES = 1 << 30
# A first call longer than this and than the run's budget is the run's only sample: compiling
# (a few seconds at most) is then a small part of it.  A shorter one may be mostly JIT and is
# always followed by at least one timed query.
SINGLE_SAMPLE_SECONDS = 20.0


def _print(message):
    print(message, file=sys.stderr, flush=True)


class _References:
    """scipy reference rows per source, cached up to a memory budget, and reached-edge counts.

    On graphs where scipy's Johnson would take too long (``uses_certificate``),
    there are no reference rows: answers are proved right by
    ``certify_distances`` and the reached part comes from a breadth-first search.
    """

    def __init__(self, graph, problem):
        self.graph, self.problem = graph, problem
        self.certify = uses_certificate(graph, problem)
        self._rows = {}
        self._bytes = 0
        self._edges = {}
        self._reach = {}
        self.arcs = None
        self.out_degrees = graph.out_degrees().astype(np.int64)

    def get(self, sources):
        key = sources if np.ndim(sources) == 0 else tuple(np.asarray(sources).tolist())
        if key in self._rows:
            return self._rows[key]
        reference = reference_distances(self.graph, self.problem, sources)
        if self._bytes + reference.nbytes <= REFERENCE_CACHE_BYTES:
            self._rows[key] = reference
            self._bytes += reference.nbytes
        return reference

    def prefetch(self, sources):
        """Compute the rows of many single sources in one scipy call (Johnson runs its
        Bellman-Ford pass once for all of them) and cache what fits."""
        if self.certify:
            return
        row_bytes = 8 * max(1, self.graph.num_vertices)
        room = (REFERENCE_CACHE_BYTES - self._bytes) // row_bytes
        wanted = [int(s) for s in sources if int(s) not in self._rows][:room]
        if not wanted:
            return  # what does not fit is computed source by source when checked
        rows = reference_distances(self.graph, self.problem, np.asarray(wanted, dtype=np.int64))
        for source, row in zip(wanted, np.atleast_2d(rows)):
            self._rows[source] = row
            self._bytes += row.nbytes

    def reached_edges(self, sources) -> int:
        """Arcs whose tail the query reaches: the numerator of MTEPS (summed over rows)."""
        key = sources if np.ndim(sources) == 0 else tuple(np.asarray(sources).tolist())
        if key not in self._edges:
            finite = self.reach(sources) if self.certify else np.isfinite(self.get(sources))
            self._edges[key] = int((finite @ self.out_degrees).sum()) if finite.ndim == 2 \
                else int(self.out_degrees[finite].sum())
        return self._edges[key]

    def reach(self, source) -> np.ndarray:
        """The vertices ``source`` reaches (certificate graphs: MTEPS and every check use it)."""
        source = int(source)
        if source not in self._reach:
            self._reach[source] = reachable(self.graph, source)
        return self._reach[source]

    def arc_index(self):
        if self.arcs is None:
            self.arcs = ArcIndex(self.graph)
        return self.arcs


def _query_units(experiment, graph, choice):
    """The queries of one repetition: one per source (sssp, bfs) or one of all sources."""
    if experiment.problem in ("sssp", "bfs"):
        return [int(s) for s in choice.sources]
    return [np.asarray(choice.sources, dtype=np.int64)]


def _method_call(plan, experiment, graph):
    import warpath

    entry = {"sssp": warpath.sssp, "bfs": warpath.bfs,
             "multi_source": warpath.multi_source}.get(experiment.problem)
    options = dict(plan.options)

    if experiment.problem == "apsp":
        def call(_sources):
            return warpath.apsp(graph, method=plan.name, device=plan.device,
                                predecessors=experiment.predecessors, **options)
    else:
        def call(sources):
            return entry(graph, sources, method=plan.name, device=plan.device,
                         predecessors=experiment.predecessors, **options)

    def distances(result, _sources):
        return result.distances

    return None, call, distances


def _peer_call(plan, experiment, graph):
    from .peers import PEERS

    peer = PEERS[plan.name]
    start = time.perf_counter()
    handle = peer.prepare(graph)
    setup = time.perf_counter() - start

    def call(sources):
        return peer.solve(handle, graph, sources, experiment.problem)

    def distances(raw, sources):
        return peer.to_distances(raw, graph, sources)

    return setup, call, distances


def _check(result, distances_of, sources, references, experiment, graph):
    """``None`` if the answer matches scipy (or is proved right), else what is wrong."""
    distances = distances_of(result, sources)
    problem = experiment.problem
    if references.certify:
        message = certify_distances(distances, graph, int(sources), problem,
                                    reach=references.reach(sources))
    else:
        message = compare_distances(distances, references.get(sources), graph, problem)
    if message is not None or not experiment.predecessors:
        return message
    predecessors = getattr(result, "predecessors", None)
    if predecessors is None:
        return None
    rows = [(int(sources), distances, predecessors)] if np.ndim(sources) == 0 else \
        [(int(s), distances[i], predecessors[i]) for i, s in enumerate(sources[:16])]
    for source, row, pred in rows:
        message = check_predecessors(pred, row, graph, source, problem, references.arc_index())
        if message is not None:
            return f"predecessors from {source}: {message}"
    return None


def _numeric_stats(results_stats):
    """Mean of every numeric counter in the results' ``stats`` (iterations, relaxations, ...)."""
    keys = {k for stats in results_stats for k, v in stats.items()
            if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            and k != "seconds"}
    return {k: float(np.mean([float(s[k]) for s in results_stats if k in s])) for k in sorted(keys)}


def execute_run(plan, experiment, graph, choice, references, *, repeat, max_seconds=None):
    """Time and check one runnable plan on one graph; returns its JSON record.

    Parameters
    ----------
    plan : PlannedRun
    experiment : Experiment
    graph : Graph
    choice : SourceChoice
    references : object
        The per-graph reference cache of :func:`run_suite`.
    repeat : int
    max_seconds : float, optional
        Stop repeating (or, within the first repetition, stop taking more
        sources) once the run has used this much time; the record says so.

    Returns
    -------
    dict

    Examples
    --------
    >>> import warpath
    >>> from warpath.benchmark.suite import load_suite
    >>> from warpath.benchmark.runs import plan_method
    >>> from warpath.benchmark.sources import choose_sources
    >>> experiment = load_suite("quick").experiment("sssp-road")
    >>> graph = warpath.generators.grid(5, 5, seed=0)
    >>> plan = plan_method(experiment.methods[0], "sssp", ("cpu",), graph)[0]
    >>> record = execute_run(plan, experiment, graph, choose_sources(graph, 2),
    ...                      _References(graph, "sssp"), repeat=1)
    >>> record["status"], record["queries"]
    ('OK', 2)
    """
    record = {"label": plan.label, "kind": plan.kind, "name": plan.name, "device": plan.device,
              "options": plan.options, "status": OK, "reason": ""}
    if plan.kind == "peer" and plan.name in GPU_PEERS:
        return _execute_program_run(record, plan, experiment, graph, choice, references,
                                    repeat=repeat, max_seconds=max_seconds)
    clock = Clock(plan.device)
    memory = MemoryWatch(plan.device)
    record["clock"] = clock.name
    try:
        if plan.kind == "method":
            setup, call, distances_of = _method_call(plan, experiment, graph)
        else:
            setup, call, distances_of = _peer_call(plan, experiment, graph)
        units = _query_units(experiment, graph, choice)
        started = time.perf_counter()
        first_seconds, result = clock.measure(lambda: call(units[0]))
        memory.sample()
        problem = _check(result, distances_of, units[0], references, experiment, graph)
        per_rep, stats = [], []
        used = units
        if max_seconds is not None and first_seconds > max(max_seconds, SINGLE_SAMPLE_SECONDS):
            # one query longer than the whole budget (a big APSP, a sequential Bellman-Ford on
            # a large road graph): its first call is the figure, JIT being a small part of it
            per_rep, stats = [[first_seconds]], [dict(getattr(result, "stats", {}) or {})]
            used = units[:1]
            record["reason"] = (f"the first call took over the {max_seconds:g} s budget: "
                                f"it is the only sample (JIT included)")
            repeat = 0
        for rep in range(repeat):
            times = []
            for index, sources in enumerate(used):
                seconds, result = clock.measure(lambda: call(sources))
                memory.sample()
                times.append(seconds)
                if rep == 0:
                    stats.append(dict(getattr(result, "stats", {}) or {}))
                    problem = problem or _check(result, distances_of, sources, references,
                                                experiment, graph)
                    if max_seconds is not None and time.perf_counter() - started > max_seconds \
                            and index + 1 < len(used):
                        used = used[:index + 1]
                        record["reason"] = (f"time budget of {max_seconds:g} s: "
                                            f"{len(used)} of {len(units)} queries run")
                        break
            per_rep.append(times)
            if max_seconds is not None and time.perf_counter() - started > max_seconds \
                    and rep + 1 < repeat:
                record["reason"] = (record["reason"] + "; " if record["reason"] else "") + \
                    f"time budget of {max_seconds:g} s: {rep + 1} of {repeat} repetitions"
                break
    except Exception as exc:  # a crash of one solver must not end the benchmark
        record.update(status=ERROR, reason=f"{type(exc).__name__}: {exc}")
        return record
    return _with_figures(record, problem, per_rep, used, stats, references,
                         first_call_seconds=first_seconds, setup_seconds=setup,
                         gpu_memory_bytes=memory.peak_bytes)


def _with_figures(record, problem, per_rep, used, stats, references, **extra):
    """``record`` with its status (FAILED for a wrong answer), times, MTEPS and counters."""
    if problem is not None:
        record.update(status=FAILED, reason=f"wrong answer: {problem}")
    edges = [references.reached_edges(s) for s in used]
    record.update(figures.run_figures(per_rep, edges, _numeric_stats(stats)))
    record.update(queries=len(used), sources_per_query=1 if np.ndim(used[0]) == 0
                  else int(np.size(used[0])), seconds_per_query=per_rep, **extra)
    return record


def _execute_program_run(record, plan, experiment, graph, choice, references, *, repeat,
                         max_seconds):
    """A GPU peer program's run: its own clock, one process per repetition (see
    :func:`warpath.benchmark.gpu_peers.measure`)."""
    from .gpu_peers import PeerProgramError, measure

    record["clock"] = "the peer program's own"
    try:
        measured = measure(GPU_PEERS[plan.name], graph, experiment.problem,
                           _query_units(experiment, graph, choice), references, repeat=repeat,
                           max_seconds=max_seconds)
    except (PeerProgramError, OSError) as exc:
        record.update(status=ERROR, reason=f"{type(exc).__name__}: {exc}")
        return record
    record["reason"] = measured["note"]
    return _with_figures(record, measured["problem"], measured["per_rep"], measured["used"],
                         measured["stats"], references,
                         first_call_seconds=measured["first_seconds"],
                         setup_seconds=measured["setup_seconds"], gpu_memory_bytes=None,
                         program_wall_seconds=measured["wall_seconds"])


def _graph_record(spec, graph, quick):
    stats = graph.stats().as_dict()
    stats["weights"] = str(graph.weights.dtype) if graph.weighted else "unweighted"
    stats["min_weight"] = graph.min_weight
    stats["max_weight"] = graph.weights.max().item() if graph.num_edges else 0
    params = {**spec.params, **(spec.quick_params if quick else {})}
    return {"id": spec.id, "paper_name": spec.paper_name, "recipe": spec.describe(quick),
            "params": params, "note": spec.note, "status": OK, "reason": "", "stats": stats}


@compiled_only()   # a benchmark times the kernels, small graphs too, never the interpreter
def run_suite(suite, *, devices=("cpu",), quick=False, repeat=None, sources=None,
              max_seconds=None, max_edges=None, experiments=None, suite_seconds=None,
              checkpoint=None, only_device=None, log=_print) -> dict:
    """Run every experiment of ``suite`` and return the raw results (the JSON body).

    Parameters
    ----------
    suite : Suite
    devices : tuple of str
        ``("cpu",)`` or ``("cpu", "cuda")``: GPU methods run only with ``"cuda"``.
    quick : bool
        Use the quick graph sizes, sources and repetitions; skip experiments
        marked ``quick = false``.
    repeat, sources : int, optional
        Override the suite's repetitions and number of sources.
    max_seconds : float, optional
        Time budget per run (overrides the suite's ``max_seconds``).
    max_edges : int, optional
        Skip graphs with more arcs than this.
    experiments : list of str, optional
        Run only these experiment ids.
    suite_seconds : float, optional
        Time budget for the whole suite: once spent, the remaining graphs are
        not built and the remaining runs are SKIPPED with that reason, so a
        run that must fit a time limit still reports what it measured.
    checkpoint : callable, optional
        Called after each graph of each experiment with the results so far
        (marked ``"partial": True``), e.g. to write them, so that a run killed
        from outside (a time limit, a lost machine) leaves what it measured.
    only_device : {"cpu", "cuda"}, optional
        Run only the runs on this device; the others are SKIPPED with
        :data:`~warpath.benchmark.runs.ONLY_DEVICE` as the reason, for ``--merge`` to
        fill in from an earlier run (e.g. a GPU machine's short lease re-runs the GPU
        methods of an experiment whose CPU baselines took an hour elsewhere).
    log : callable or None
        Progress lines (default: stderr).

    Returns
    -------
    dict
        ``{"graphs": {...}, "experiments": [...], "runs": [...]}``; environment
        and command are added by :mod:`~warpath.benchmark.output`.

    Examples
    --------
    >>> from warpath.benchmark.suite import load_suite
    >>> results = run_suite(load_suite("quick"), quick=True, experiments=["apsp"], log=None)
    >>> statuses = {r["status"] for r in results["runs"]}   # GPU methods: SKIPPED without one
    >>> "OK" in statuses and statuses <= {"OK", "PENDING", "SKIPPED"}
    True
    """
    log = log or (lambda message: None)
    wanted = experiments
    if wanted:
        for experiment_id in wanted:
            suite.experiment(experiment_id)  # raises SuiteError for an unknown id
    graphs, built, runs, experiment_records = {}, {}, [], []
    started = time.perf_counter()

    def results() -> dict:
        return {"suite": suite.name, "title": suite.title, "paper": suite.paper,
                "description": suite.description, "quick": quick, "devices": list(devices),
                "graphs": graphs, "experiments": experiment_records, "runs": runs}

    def out_of_time() -> bool:
        return suite_seconds is not None and time.perf_counter() - started > suite_seconds

    spent = f"the suite's time budget (--suite-seconds {suite_seconds}) was spent"
    for experiment in suite.experiments:
        if wanted and experiment.id not in wanted:
            continue
        if quick and not experiment.quick:
            experiment_records.append({"id": experiment.id, "title": experiment.title,
                                       "skipped": "not part of --quick"})
            continue
        exp_repeat = repeat or (experiment.quick_repeat if quick else experiment.repeat)
        exp_sources = sources or (experiment.quick_sources if quick else experiment.sources)
        budget = max_seconds if max_seconds is not None else experiment.max_seconds
        record = {"id": experiment.id, "title": experiment.title, "problem": experiment.problem,
                  "baseline": experiment.baseline, "plot": experiment.plot, "x": experiment.x,
                  "repeat": exp_repeat, "predecessors": experiment.predecessors,
                  "paper_table": experiment.paper_table, "notes": experiment.notes,
                  "graphs": list(experiment.graphs), "sources": {}}
        experiment_records.append(record)
        for graph_id in experiment.graphs:
            spec = suite.graphs[graph_id]
            expected = estimated_arcs(spec, quick=quick)
            if out_of_time() and graph_id not in built:
                graphs.setdefault(graph_id, _skipped_graph_record(spec, quick, spent))
                graph = None
            elif max_edges is not None and expected is not None and expected > max_edges:
                graphs.setdefault(graph_id, _skipped_graph_record(
                    spec, quick, f"about {expected:,} arcs, over --max-edges {max_edges:,}"))
                graph = None
            else:
                graph = _get_graph(spec, suite, quick, built, graphs, log)
            if graph is not None and max_edges is not None and graph.num_edges > max_edges:
                graph = None
                graphs[graph_id] = {**graphs[graph_id], "status": SKIPPED,
                                    "reason": f"over --max-edges {max_edges:,}"}
            plans = only_on(plan_experiment(experiment, devices, graph), only_device)
            choice = None
            if graph is not None:
                choice = _choose(experiment, graph, exp_sources)
                record["sources"][graph_id] = choice.as_dict()
                references = _References(graph, experiment.problem)
                if experiment.problem in ("sssp", "bfs"):
                    references.prefetch(choice.sources)
            graph_runs = []
            for plan in plans:
                base = {"experiment": experiment.id, "graph": graph_id}
                if graph is None and plan.status is None:
                    plan.status, plan.reason = SKIPPED, graphs[graph_id]["reason"]
                if plan.status is None and out_of_time():
                    plan.status, plan.reason = SKIPPED, spent
                if plan.status is not None:
                    graph_runs.append({**base, "label": plan.label, "kind": plan.kind,
                                       "name": plan.name, "device": plan.device,
                                       "options": plan.options, "status": plan.status,
                                       "reason": plan.reason})
                    continue
                log(f"[{experiment.id}] {graph_id}: {plan.label} ...")
                result = execute_run(plan, experiment, graph, choice, references,
                                     repeat=exp_repeat, max_seconds=budget)
                graph_runs.append({**base, **result})
                log(f"[{experiment.id}] {graph_id}: {plan.label} {result['status']} "
                    + figures.describe_time(result))
            figures.add_speedups(graph_runs, experiment.baseline)
            runs.extend(graph_runs)
            if checkpoint is not None:
                checkpoint({**results(), "partial": True})
    return results()


def _get_graph(spec, suite, quick, built, graphs, log):
    if spec.id in built:
        return built[spec.id]
    try:
        started = time.perf_counter()
        graph = build_graph(spec, root=suite.root, quick=quick)
        graphs[spec.id] = _graph_record(spec, graph, quick)
        graphs[spec.id]["build_seconds"] = time.perf_counter() - started
        log(f"graph {spec.id}: {graph.num_vertices:,} vertices, {graph.num_edges:,} arcs "
            f"({spec.describe(quick)})")
    except GraphUnavailable as exc:
        graph = None
        graphs[spec.id] = _skipped_graph_record(spec, quick, str(exc))
        log(f"graph {spec.id}: skipped, {exc}")
    built[spec.id] = graph
    return graph


def _skipped_graph_record(spec, quick, reason):
    return {"id": spec.id, "paper_name": spec.paper_name, "recipe": spec.describe(quick),
            "note": spec.note, "status": SKIPPED, "reason": reason, "stats": None}


def _choose(experiment, graph, count):
    if experiment.problem == "apsp":
        return explicit_sources(graph, "all")
    if isinstance(count, (tuple, str)):
        return explicit_sources(graph, count)
    return choose_sources(graph, count, seed=experiment.seed, min_reached=experiment.min_reached,
                          min_fraction=experiment.min_reached_fraction)


__all__ = ["run_suite", "execute_run", "SKIPPED", "FAILED", "OK", "ERROR"]
