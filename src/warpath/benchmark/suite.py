"""Benchmark suites: what to run, read from a TOML file and checked before anything runs.

A suite is one paper's experiments: its graphs (files or generator calls at
the paper's sizes), and a list of experiments, each naming a problem, the
graphs, the warpath methods and peer libraries to run, the baseline of the
speed-ups, and the paper's own figures to print beside ours.  The format is
described in ``bench/README.md``; :func:`load_suite` reads and validates it,
raising :class:`SuiteError` (with the file and the offending key) for any
mistake, so a typo fails in a second rather than after an hour of runs.

Examples
--------
>>> suite = parse_suite('''
... name = "tiny"
... [graphs.ring]
... generator = "ring"
... params = {n = 8}
... [[experiments]]
... id = "demo"
... problem = "sssp"
... graphs = ["ring"]
... methods = ["dijkstra@cpu"]
... ''')
>>> suite.experiments[0].methods[0].label
'dijkstra@cpu'
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ArgumentError
from ..methods import DEVICES, PROBLEMS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

GENERATORS = ("random", "rmat", "power_law", "ring", "complete", "grid")
PLOTS = ("speedup", "scaling", "relaxations", "none")


class SuiteError(ArgumentError):
    """A suite file that cannot be run as written: names the file and the key.

    Examples
    --------
    >>> str(SuiteError("unknown key 'grpahs'", path="s.toml"))
    "s.toml: unknown key 'grpahs'"
    """

    def __init__(self, message: str, *, path=None):
        self.path = None if path is None else str(path)
        super().__init__(f"{self.path or '<suite>'}: {message}")


@dataclass(frozen=True)
class GraphSpec:
    """One graph of a suite: a file or a generator call, plus the paper's name for it.

    Attributes
    ----------
    id : str
        The key in the suite (``[graphs.ID]``).
    paper_name : str
        What the paper calls the graph it stands for (``"USA-road-d.CAL"``).
    file : str or None
        A graph file, relative to the repository root (or absolute).
    generator : str or None
        A :mod:`warpath.generators` function name.
    params : dict
        Keyword arguments of the generator (at the paper's size).
    quick_params : dict
        Overrides of ``params`` under ``--quick``.
    seed : int
        Seed of the generator and of ``reweight`` / ``negative``.
    negative : bool
        Pass the graph through ``generators.with_negative_weights``.
    reweight : tuple of int or None
        ``(low, high)``: replace the weights by seeded integers in ``[low, high]``.
    note : str
        How this graph maps to the paper's (printed in the report).
    """

    id: str
    paper_name: str = ""
    file: str | None = None
    generator: str | None = None
    params: dict = field(default_factory=dict)
    quick_params: dict = field(default_factory=dict)
    seed: int = 1
    negative: bool = False
    reweight: tuple | None = None
    note: str = ""

    def describe(self, quick: bool = False) -> str:
        """A one-line recipe of this graph, e.g. ``grid(rows=3, cols=4, seed=1)``.

        Examples
        --------
        >>> GraphSpec("g", generator="grid", params={"rows": 3, "cols": 4}).describe()
        'grid(rows=3, cols=4, seed=1)'
        """
        if self.file is not None:
            text = f"file {self.file}"
        else:
            params = {**self.params, **(self.quick_params if quick else {})}
            args = ", ".join(f"{k}={v!r}" for k, v in params.items())
            text = f"{self.generator}({args}{', ' if args else ''}seed={self.seed})"
        if self.reweight:
            text += (f", weights: seeded uniform integers in [{self.reweight[0]}, "
                     f"{self.reweight[1]}] (seed {self.seed})")
        if self.negative:
            text += ", with_negative_weights"
        return text


@dataclass(frozen=True)
class MethodSpec:
    """A warpath method to run: registry name, device (None: every enabled one), options.

    Examples
    --------
    >>> MethodSpec("locality", "cuda", {"k": 4}).label
    'locality@cuda k=4'
    """

    name: str
    device: str | None = None
    options: dict = field(default_factory=dict)
    given_label: str | None = None

    @property
    def label(self) -> str:
        """The name the report uses: ``name@device`` plus options, unless the suite gave one."""
        if self.given_label:
            return self.given_label
        text = self.name if self.device is None else f"{self.name}@{self.device}"
        if self.options:
            text += " " + " ".join(f"{k}={v}" for k, v in self.options.items())
        return text

    def on(self, device: str) -> "MethodSpec":
        """This spec pinned to one device (labels of unpinned specs gain ``@device``).

        Examples
        --------
        >>> MethodSpec("dijkstra").on("cpu").label
        'dijkstra@cpu'
        """
        label = self.given_label
        if label is not None and self.device is None:
            label = f"{label}@{device}"
        return MethodSpec(self.name, device, dict(self.options), label)


@dataclass(frozen=True)
class PeerSpec:
    """A peer library's solver (see :mod:`warpath.benchmark.peers`) with a size cap."""

    name: str
    max_edges: int | None = None

    @property
    def label(self) -> str:
        """The peer's name, as in the report."""
        return self.name


@dataclass(frozen=True)
class Experiment:
    """One table or figure of a paper: problem, graphs, methods, peers, sources, baseline."""

    id: str
    title: str
    problem: str
    graphs: tuple
    methods: tuple
    peers: tuple
    baseline: str | None
    repeat: int
    sources: object  # int (how many, by the source policy) or tuple of vertex indices
    quick_sources: object
    quick_repeat: int
    min_reached: int
    min_reached_fraction: float
    seed: int
    predecessors: bool
    max_seconds: float | None
    plot: str
    x: str
    quick: bool
    paper_table: dict | None
    notes: str


@dataclass(frozen=True)
class Suite:
    """A parsed, validated suite file."""

    name: str
    title: str
    paper: str
    description: str
    graphs: dict
    experiments: tuple
    path: str | None = None
    root: str | None = None

    def experiment(self, experiment_id: str) -> Experiment:
        """The experiment with this id.

        Raises
        ------
        SuiteError
            Naming the ids that exist.

        Examples
        --------
        >>> load_suite("quick").experiment("bfs").problem
        'bfs'
        """
        for experiment in self.experiments:
            if experiment.id == experiment_id:
                return experiment
        raise SuiteError(f"no experiment {experiment_id!r}; it has "
                         f"{', '.join(e.id for e in self.experiments)}", path=self.path)


# --------------------------------------------------------------------------- finding suites

def repository_root() -> Path:
    """The source checkout this package lives in (``src/warpath/benchmark`` -> root).

    Examples
    --------
    >>> (repository_root() / "src").is_dir()
    True
    """
    return Path(__file__).resolve().parents[3]


def suite_directories() -> list[Path]:
    """Where suite names are looked up: ``bench/suites`` of the checkout, then of the cwd.

    Examples
    --------
    >>> suite_directories()[0].name
    'suites'
    """
    found = []
    for base in (repository_root(), Path.cwd()):
        candidate = base / "bench" / "suites"
        if candidate not in found:
            found.append(candidate)
    return found


def available_suites() -> list[str]:
    """The names of the suites found in :func:`suite_directories`.

    Examples
    --------
    >>> "quick" in available_suites()
    True
    """
    names = set()
    for directory in suite_directories():
        if directory.is_dir():
            names.update(p.stem for p in directory.glob("*.toml"))
    return sorted(names)


def find_suite(name_or_path) -> Path:
    """The file of a suite given by name (``"hbf"``) or by path (``"my.toml"``).

    Raises
    ------
    SuiteError
        When neither a file nor a known suite name matches; lists the known names.

    Examples
    --------
    >>> find_suite("quick").name
    'quick.toml'
    """
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or os.sep in text or "/" in text:
        if path.is_file():
            return path
        raise SuiteError(f"suite file {text!r} does not exist")
    for directory in suite_directories():
        candidate = directory / f"{text}.toml"
        if candidate.is_file():
            return candidate
    raise SuiteError(f"unknown suite {text!r}; known suites: "
                     f"{', '.join(available_suites()) or 'none'} (or give a path to a .toml file)")


def load_suite(name_or_path) -> Suite:
    """Read and validate a suite by name or path.

    Raises
    ------
    SuiteError
        For a missing file, bad TOML, or any invalid key or value.

    Examples
    --------
    >>> load_suite("quick").name
    'quick'
    """
    path = find_suite(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SuiteError(f"cannot read the suite: {exc}", path=path) from None
    root = path.resolve().parent.parent.parent if path.resolve().parent.name == "suites" \
        and path.resolve().parent.parent.name == "bench" else path.resolve().parent
    return parse_suite(text, path=path, root=root)


# --------------------------------------------------------------------------- parsing

_TOP_KEYS = {"name", "title", "paper", "description", "defaults", "quick", "graphs", "experiments"}
_DEFAULT_KEYS = {"repeat", "sources", "min_reached", "min_reached_fraction", "seed",
                 "predecessors", "baseline", "max_seconds", "peers"}
_QUICK_KEYS = {"repeat", "sources"}
_GRAPH_KEYS = {"paper_name", "file", "generator", "params", "quick", "seed", "negative",
               "reweight", "note"}
_EXPERIMENT_KEYS = {"id", "title", "problem", "graphs", "methods", "peers", "baseline", "repeat",
                    "sources", "min_reached", "min_reached_fraction", "seed", "predecessors",
                    "max_seconds", "plot", "x", "quick", "quick_sources", "quick_repeat",
                    "paper_table", "notes"}
_METHOD_KEYS = {"name", "device", "options", "label"}
_PEER_KEYS = {"name", "max_edges"}


def parse_suite(text: str, *, path=None, root=None) -> Suite:
    """Validate suite TOML text and build a :class:`Suite`.

    Parameters
    ----------
    text : str
        The TOML document.
    path : path-like, optional
        Its file, for error messages.
    root : path-like, optional
        The directory relative ``file`` paths are resolved from.

    Raises
    ------
    SuiteError
        For bad TOML, unknown or missing keys, and wrong types or values.

    Examples
    --------
    >>> parse_suite('name = "x"\\nexperiments = []')
    Traceback (most recent call last):
    ...
    warpath.benchmark.suite.SuiteError: <suite>: 'experiments' is empty: a suite needs at least one
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"invalid TOML: {exc}", path=path) from None
    check = _Checker(path)
    check.keys(data, _TOP_KEYS, "the suite")
    name = check.string(data, "name", "the suite", required=True)
    defaults = check.table(data, "defaults", "the suite")
    check.keys(defaults, _DEFAULT_KEYS, "[defaults]")
    quick = check.table(data, "quick", "the suite")
    check.keys(quick, _QUICK_KEYS, "[quick]")

    graphs_table = check.table(data, "graphs", "the suite")
    graphs = {graph_id: _parse_graph(check, graph_id, spec)
              for graph_id, spec in graphs_table.items()}
    raw_experiments = data.get("experiments")
    if not isinstance(raw_experiments, list) or not raw_experiments:
        raise SuiteError("'experiments' is empty: a suite needs at least one", path=path) \
            if isinstance(raw_experiments, list) else \
            SuiteError("a suite needs [[experiments]] entries", path=path)
    experiments = []
    for index, raw in enumerate(raw_experiments):
        experiments.append(_parse_experiment(check, raw, index, defaults, quick, graphs))
    ids = [e.id for e in experiments]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SuiteError(f"experiment id(s) used twice: {', '.join(duplicates)}", path=path)
    return Suite(name=name, title=check.string(data, "title", "the suite") or name,
                 paper=check.string(data, "paper", "the suite") or "",
                 description=check.string(data, "description", "the suite") or "",
                 graphs=graphs, experiments=tuple(experiments),
                 path=None if path is None else str(path),
                 root=None if root is None else str(root))


class _Checker:
    """Type checks that raise :class:`SuiteError` naming the file, the place and the key."""

    def __init__(self, path):
        self.path = path

    def fail(self, message):
        raise SuiteError(message, path=self.path)

    def keys(self, table, allowed, where):
        unknown = sorted(set(table) - set(allowed))
        if unknown:
            self.fail(f"unknown key(s) {', '.join(map(repr, unknown))} in {where}; "
                      f"allowed: {', '.join(sorted(allowed))}")

    def table(self, data, key, where):
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.fail(f"{key!r} in {where} must be a table, not {type(value).__name__}")
        return value

    def string(self, data, key, where, required=False):
        value = data.get(key)
        if value is None:
            if required:
                self.fail(f"{where} needs a {key!r} string")
            return None
        if not isinstance(value, str):
            self.fail(f"{key!r} in {where} must be a string, not {value!r}")
        return value

    def integer(self, value, key, where, minimum=None):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{key!r} in {where} must be an integer, not {value!r}")
        if minimum is not None and value < minimum:
            self.fail(f"{key!r} in {where} must be at least {minimum}, not {value}")
        return value

    def number(self, value, key, where, minimum=0):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
            self.fail(f"{key!r} in {where} must be a number >= {minimum}, not {value!r}")
        return value

    def boolean(self, value, key, where):
        if not isinstance(value, bool):
            self.fail(f"{key!r} in {where} must be true or false, not {value!r}")
        return value


def _parse_graph(check: _Checker, graph_id: str, spec) -> GraphSpec:
    where = f"[graphs.{graph_id}]"
    if not isinstance(spec, dict):
        check.fail(f"{where} must be a table")
    check.keys(spec, _GRAPH_KEYS, where)
    file = check.string(spec, "file", where)
    generator = check.string(spec, "generator", where)
    if (file is None) == (generator is None):
        check.fail(f"{where} needs exactly one of 'file' or 'generator'")
    if generator is not None and generator not in GENERATORS:
        check.fail(f"{where}: unknown generator {generator!r}; known: {', '.join(GENERATORS)}")
    params = check.table(spec, "params", where)
    quick_params = check.table(spec, "quick", where)
    if file is not None and (params or quick_params):
        check.fail(f"{where}: 'params' and 'quick' apply to generators, not files")
    unknown = sorted(set(quick_params) - set(params))
    if unknown:
        check.fail(f"{where}: 'quick' overrides {unknown} which 'params' does not set")
    reweight = spec.get("reweight")
    if reweight is not None:
        if (not isinstance(reweight, list) or len(reweight) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in reweight)
                or reweight[0] > reweight[1]):
            check.fail(f"{where}: 'reweight' must be [low, high] integers with low <= high, "
                       f"not {reweight!r}")
        reweight = tuple(reweight)
    return GraphSpec(id=graph_id, paper_name=check.string(spec, "paper_name", where) or graph_id,
                     file=file, generator=generator, params=dict(params),
                     quick_params=dict(quick_params),
                     seed=check.integer(spec.get("seed", 1), "seed", where, minimum=0),
                     negative=check.boolean(spec.get("negative", False), "negative", where),
                     reweight=reweight, note=check.string(spec, "note", where) or "")


def _parse_method(check: _Checker, raw, where) -> MethodSpec:
    if isinstance(raw, str):
        name, _, device = raw.partition("@")
        raw = {"name": name, **({"device": device} if device else {})}
    if not isinstance(raw, dict):
        check.fail(f"a method in {where} must be 'name', 'name@device' or a table, not {raw!r}")
    check.keys(raw, _METHOD_KEYS, f"a method of {where}")
    name = check.string(raw, "name", f"a method of {where}", required=True)
    device = check.string(raw, "device", f"method {name!r} of {where}")
    if device is not None and device not in DEVICES:
        check.fail(f"method {name!r} of {where}: device must be one of {DEVICES}, not {device!r}")
    options = check.table(raw, "options", f"method {name!r} of {where}")
    return MethodSpec(name, device, dict(options), check.string(raw, "label", where))


def _parse_peer(check: _Checker, raw, where) -> PeerSpec:
    from .gpu_peers import GPU_PEERS
    from .peers import PEERS

    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, dict):
        check.fail(f"a peer in {where} must be a name or a table, not {raw!r}")
    check.keys(raw, _PEER_KEYS, f"a peer of {where}")
    name = check.string(raw, "name", f"a peer of {where}", required=True)
    if name not in PEERS and name not in GPU_PEERS:
        check.fail(f"unknown peer {name!r} in {where}; known: "
                   f"{', '.join(sorted([*PEERS, *GPU_PEERS]))}")
    max_edges = raw.get("max_edges")
    if max_edges is not None:
        check.integer(max_edges, "max_edges", f"peer {name!r} of {where}", minimum=0)
    return PeerSpec(name, max_edges)


def _parse_sources(check: _Checker, value, key, where):
    if isinstance(value, list):
        for v in value:
            check.integer(v, key, where, minimum=0)
        if not value:
            check.fail(f"{key!r} in {where} must not be empty")
        return tuple(value)
    if value == "all":
        return "all"
    return check.integer(value, key, where, minimum=1)


def _parse_experiment(check, raw, index, defaults, quick, graphs) -> Experiment:
    where = f"experiment #{index + 1}"
    if not isinstance(raw, dict):
        check.fail(f"{where} must be a table")
    check.keys(raw, _EXPERIMENT_KEYS, where)
    experiment_id = check.string(raw, "id", where, required=True)
    where = f"experiment {experiment_id!r}"
    problem = check.string(raw, "problem", where, required=True)
    if problem not in PROBLEMS:
        check.fail(f"{where}: problem must be one of {PROBLEMS}, not {problem!r}")
    graph_ids = raw.get("graphs")
    if not isinstance(graph_ids, list) or not graph_ids:
        check.fail(f"{where} needs a non-empty 'graphs' list")
    for graph_id in graph_ids:
        if graph_id not in graphs:
            check.fail(f"{where} names graph {graph_id!r}, which [graphs] does not define; "
                       f"defined: {', '.join(sorted(graphs)) or 'none'}")
    merged = {**defaults, **raw}
    methods = tuple(_parse_method(check, m, where) for m in raw.get("methods", []))
    peers = tuple(_parse_peer(check, p, where) for p in merged.get("peers", []))
    if not methods and not peers:
        check.fail(f"{where} runs nothing: give 'methods' and/or 'peers'")
    labels = [m.label for m in methods] + [p.label for p in peers]
    if len(set(labels)) != len(labels):
        check.fail(f"{where}: two runs share a label; give the methods distinct 'label's")
    repeat = check.integer(merged.get("repeat", 3), "repeat", where, minimum=1)
    sources = _parse_sources(check, merged.get("sources", 10), "sources", where)
    plot = merged.get("plot", "speedup")
    if plot not in PLOTS:
        check.fail(f"{where}: plot must be one of {PLOTS}, not {plot!r}")
    paper_table = raw.get("paper_table")
    if paper_table is not None:
        _check_paper_table(check, paper_table, where)
    max_seconds = merged.get("max_seconds")
    if max_seconds is not None:
        check.number(max_seconds, "max_seconds", where)
    return Experiment(
        id=experiment_id, title=check.string(raw, "title", where) or experiment_id,
        problem=problem, graphs=tuple(graph_ids), methods=methods, peers=peers,
        baseline=check.string(merged, "baseline", where),
        repeat=repeat, sources=sources,
        quick_sources=_parse_sources(check, raw.get("quick_sources", quick.get("sources", 3)),
                                     "quick_sources", where),
        quick_repeat=check.integer(raw.get("quick_repeat", quick.get("repeat", 1)),
                                   "quick_repeat", where, minimum=1),
        min_reached=check.integer(merged.get("min_reached", 100_000), "min_reached", where,
                                  minimum=1),
        min_reached_fraction=check.number(merged.get("min_reached_fraction", 0.10),
                                          "min_reached_fraction", where),
        seed=check.integer(merged.get("seed", 2024), "seed", where, minimum=0),
        predecessors=check.boolean(merged.get("predecessors", False), "predecessors", where),
        max_seconds=max_seconds, plot=plot, x=check.string(raw, "x", where) or "vertices",
        quick=check.boolean(raw.get("quick", True), "quick", where),
        paper_table=paper_table, notes=check.string(raw, "notes", where) or "")


def _check_paper_table(check, table, where):
    if not isinstance(table, dict):
        check.fail(f"'paper_table' of {where} must be a table")
    check.keys(table, {"caption", "columns", "rows", "source"}, f"the paper_table of {where}")
    columns = table.get("columns")
    rows = table.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        check.fail(f"the paper_table of {where} needs 'columns' and 'rows' lists")
    for row in rows:
        if not isinstance(row, list) or len(row) != len(columns):
            check.fail(f"a row of the paper_table of {where} has {len(row)} cells for "
                       f"{len(columns)} columns: {row!r}")
