"""The ``warpath`` command: shortest paths on graph files from the shell.

A thin layer over the public API: it parses the arguments, reads the graph
with :func:`warpath.read`, calls :func:`warpath.sssp`, :func:`warpath.bfs` or
:func:`warpath.apsp`, prints a short summary and writes the results.

The command speaks the file's own vertex ids: ``--source 1`` on a DIMACS file
is the file's vertex 1 (internal index 0).  Result files are indexed by
internal vertex, and CSV output carries the file's label beside each index.

Every error a user can cause prints one line, ``warpath: error: ...``, never
a traceback, and the exit status follows one rule: 2 when the command line
itself is wrong (an unknown command, flag, method, option or suite, or a
value out of its domain such as ``-O heap_arity=0``), 1 when the command line
is fine but the data or the machine says no (a missing or malformed file, a
vertex not in the graph, a negative cycle, no GPU, not enough memory, or a
bug, which says "internal error").  Warnings are one line too,
``warpath: warning: ...``.  Closing the output early (``warpath methods |
head -1``) is not an error.  Set ``WARPATH_DEBUG=1`` to get the traceback of
an unexpected failure.

Examples
--------
>>> import os, tempfile, warpath
>>> path = os.path.join(tempfile.mkdtemp(), "ring.gr")
>>> warpath.write(warpath.generators.ring(4, seed=0), path)
>>> main(["sssp", path, "--source", "1", "--method", "dijkstra"])  # doctest: +ELLIPSIS
graph ...
reached       4 of 4 vertices (100.0%)
...
0
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import warpath

from . import methods, output, progress
from .api import warm_up
from .device import gpu_status
from .errors import (ArgumentError, DirectionWarning, NegativeCycleError, SourceError,
                     WarpathError, WarpathWarning)
from .formats import check_folder, output_format
from .graph import Graph
from .jit import CompileTimer

PROG = "warpath"
RESULT_SUFFIXES = (".npy", ".csv")
GENERATOR_KINDS = ("random", "rmat", "power_law", "ring", "complete", "grid")
# Above this many bytes a file read shows a progress indicator (on a terminal only).
BIG_FILE_BYTES = 32 * 2**20
# From this many vertices apsp reports its progress on stderr (a bar on a terminal, else lines).
APSP_PROGRESS_MIN_VERTICES = 2048


class UsageError(ArgumentError):
    """A command line that does not parse or whose arguments do not go together (exit status 2)."""


class CommandError(WarpathError):
    """A failure the user can fix that is not one of warpath's typed errors (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message):
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ---------------------------------------------------------------------------- the parser


def build_parser(bench_command=None) -> argparse.ArgumentParser:
    """The argument parser of the ``warpath`` command.

    Parameters
    ----------
    bench_command : module, optional
        :mod:`warpath.benchmark.command`, which configures and runs
        ``warpath bench``; ``main`` imports it only when that subcommand is
        asked for, so the other commands start without it.

    Returns
    -------
    argparse.ArgumentParser

    Examples
    --------
    >>> args = build_parser().parse_args(["sssp", "g.gr", "--source", "1"])
    >>> args.command, args.source, args.method, args.device
    ('sssp', '1', 'auto', 'auto')
    """
    parser = _Parser(prog=PROG, description="Shortest paths on GPUs (and CPUs).")
    parser.add_argument("--version", action="version", version=f"{PROG} {warpath.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    p = commands.add_parser("sssp", help="single-source shortest paths from one vertex",
                            description="Single-source shortest paths from one vertex of FILE.")
    _add_query_arguments(p, "sssp")
    p.add_argument("--limit", type=_non_negative_number, metavar="L",
                   help="stop at distance L: farther vertices count as unreachable")
    p.set_defaults(handler=run_sssp)

    p = commands.add_parser("bfs", help="breadth-first search (hop levels) from one vertex",
                            description="Breadth-first search from one vertex of FILE.")
    _add_query_arguments(p, "bfs")
    p.add_argument("--limit", type=_non_negative_int, metavar="L",
                   help="stop after L levels")
    p.set_defaults(handler=run_bfs)

    p = commands.add_parser("apsp", help="all-pairs shortest paths",
                            description="All-pairs shortest paths of FILE: an n x n matrix.")
    _add_graph_arguments(p)
    _add_method_arguments(p, "apsp")
    p.add_argument("--output", "-o", metavar="OUT",
                   help="write the matrix: OUT.npy (n x n float64, inf = unreachable, written "
                        "block by block during the run) or OUT.csv (one row per reachable "
                        "pair: source,source_label,target,target_label,distance,predecessor)")
    p.add_argument("--dtype", choices=("float64", "float32", "int64", "int32"),
                   help="the matrix's type (default: 8 bytes; float64 in OUT.npy); float32 and "
                        "int32 halve it, int32 keeps 2147483647 for unreachable in OUT.npy")
    cluster = p.add_mutually_exclusive_group()
    cluster.add_argument("--scheduler", metavar="ADDRESS",
                         help="run on the Dask cluster at ADDRESS (warpath[distributed])")
    cluster.add_argument("--workers", type=_positive_int, metavar="N",
                         help="run on a local Dask cluster of N workers, one per GPU when "
                              "there are GPUs (warpath[distributed])")
    p.set_defaults(handler=run_apsp)

    p = commands.add_parser("info", help="the graph's statistics (H-BF Table 1 columns)",
                            description="Print the statistics of FILE.")
    _add_graph_arguments(p)
    p.set_defaults(handler=run_info)

    p = commands.add_parser("generate", help="write a seeded synthetic graph",
                            description="Generate a synthetic graph and write it to a file "
                                        "(format from the suffix of --output).")
    _add_generate_arguments(p)
    p.set_defaults(handler=run_generate)

    p = commands.add_parser("convert", help="convert a graph file to another format",
                            description="Read IN and write it to OUT; formats from the suffixes "
                                        "(.gr, .graph, .txt/.csv/.edges, .mtx, .npz; "
                                        "plus .gz/.bz2/.xz).")
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--format", dest="format", metavar="F",
                   help="format of IN when its suffix does not say (dimacs, pace, metis, snap, "
                        "matrix_market, npz)")
    p.add_argument("--to", dest="to_format", metavar="F",
                   help="format of OUT when its suffix does not say")
    p.add_argument("--undirected", action="store_true",
                   help="read every arc of IN as an undirected edge")
    _add_weight_arguments(p)
    p.set_defaults(handler=run_convert)

    p = commands.add_parser("methods", help="list the registered methods per problem and device",
                            description="List the registered methods and whether a GPU is usable.")
    p.add_argument("problem", nargs="?", choices=methods.PROBLEMS,
                   help="only the methods of this problem")
    p.set_defaults(handler=run_methods)

    _add_bench_parser(commands, bench_command)
    return parser


def _add_graph_arguments(p):
    p.add_argument("file", metavar="FILE", help="the graph file (.gr, .graph, .txt, .mtx, .npz, "
                                                "optionally .gz/.bz2/.xz)")
    p.add_argument("--format", dest="format", metavar="F",
                   help="file format when the suffix does not say (dimacs, pace, metis, snap, "
                        "matrix_market, npz)")
    p.add_argument("--undirected", action="store_true",
                   help="treat every arc of FILE as an undirected edge")
    _add_weight_arguments(p)


def _add_weight_arguments(p):
    p.add_argument("--random-weights", type=_weight_range, metavar="LOW:HIGH",
                   help="replace the weights by seeded integers drawn uniformly from "
                        "[LOW, HIGH], one per undirected edge (e.g. 1:1000 for an unweighted "
                        "road topology)")
    p.add_argument("--seed", type=_non_negative_int, metavar="S",
                   help="seed of --random-weights (default 0)")


def _add_method_arguments(p, problem):
    p.add_argument("--method", "-m", default="auto", metavar="M",
                   help=f"method name (default: auto); 'warpath methods {problem}' lists them")
    p.add_argument("--device", "-d", default="auto", choices=("auto", "cpu", "cuda"),
                   help="auto (default) uses the GPU when one is usable")
    p.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                   help="a method-specific option, e.g. -O k=4 (repeatable)")
    p.add_argument("--no-predecessors", dest="predecessors", action="store_false",
                   help="skip the predecessors (paths) to save time and memory")


def _add_query_arguments(p, problem):
    _add_graph_arguments(p)
    p.add_argument("--source", "-s", required=True, metavar="S",
                   help="the source vertex, as the file numbers it (DIMACS: from 1)")
    _add_method_arguments(p, problem)
    p.add_argument("--output", "-o", metavar="OUT",
                   help="write the result: OUT.npy (array indexed by internal vertex) or OUT.csv "
                        "(vertex,label,distance,predecessor)")
    p.add_argument("--path-to", "-t", metavar="T",
                   help="print a shortest path from S to vertex T (file ids) and its length")


def _add_generate_arguments(p):
    p.add_argument("kind", metavar="KIND", type=lambda text: text.replace("-", "_"),
                   choices=GENERATOR_KINDS, help=", ".join(GENERATOR_KINDS))
    p.add_argument("--output", "-o", required=True, metavar="FILE",
                   help="where to write it; the suffix picks the format")
    size = p.add_argument_group("size (which ones depends on KIND)")
    size.add_argument("--vertices", "-n", type=_positive_int, metavar="N",
                      help="random, power_law, ring, complete")
    size.add_argument("--edges", "-e", type=_non_negative_int, metavar="M", help="random")
    size.add_argument("--scale", type=_positive_int, metavar="S", help="rmat: 2**S vertices")
    size.add_argument("--edge-factor", type=_positive_int, metavar="F",
                      help="rmat: F * 2**S edges (default 16)")
    size.add_argument("--avg-degree", type=_positive_number, metavar="D",
                      help="power_law (default 6)")
    size.add_argument("--max-degree", type=_positive_int, metavar="D",
                      help="power_law (default 1000, at most N - 1)")
    size.add_argument("--rows", type=_positive_int, metavar="R", help="grid")
    size.add_argument("--cols", type=_positive_int, metavar="C", help="grid")
    weights = p.add_argument_group("weights and shape")
    weights.add_argument("--max-weight", type=_positive_int, default=100, metavar="W",
                         help="weights drawn from [1, W] (default 100)")
    kind = weights.add_mutually_exclusive_group()
    kind.add_argument("--float-weights", action="store_true", help="float weights in [1, W)")
    kind.add_argument("--unweighted", action="store_true", help="no weights (all 1)")
    weights.add_argument("--undirected", action="store_true", help="an undirected graph")
    negative = weights.add_mutually_exclusive_group()
    negative.add_argument("--negative-weights", action="store_true",
                          help="make some weights negative, without a negative cycle")
    negative.add_argument("--negative-cycle", action="store_true",
                          help="plant a negative cycle reachable from vertex 0")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def _add_bench_parser(commands, bench_command):
    description = "Run a benchmark suite (the harness of warpath.benchmark)."
    if bench_command is not None:
        p = commands.add_parser("bench", help="run a benchmark suite", description=description)
        bench_command.configure(p)
        p.set_defaults(handler=bench_command.run)
        return
    # Not asked for: list it in 'warpath --help' without importing the harness.
    p = commands.add_parser("bench", help="run a benchmark suite", description=description,
                            add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)


# ---------------------------------------------------------------------------- argument types


def _number(text: str):
    """An int when the text is one, else a float (so integer limits stay exact)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not np.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _non_negative_number(text):
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative")
    return value


def _positive_number(text):
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not positive")
    return value


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative")
    return value


def _positive_int(text):
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is not positive")
    return value


def _weight_range(text):
    """``"1:1000"`` -> ``(1, 1000)``."""
    low, sep, high = text.partition(":")
    try:
        bounds = int(low), int(high)
    except ValueError:
        bounds = None
    if not sep or bounds is None:
        raise argparse.ArgumentTypeError(f"{text!r}: write it as LOW:HIGH, two integers")
    if bounds[0] > bounds[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: LOW is above HIGH")
    return bounds


def _options(pairs) -> dict:
    """``["k=4", "fast=true"]`` -> ``{"k": 4, "fast": True}``."""
    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option {pair!r}: write it as NAME=VALUE")
        lowered = text.lower()
        if lowered in ("true", "false"):
            value = lowered == "true"
        else:
            try:
                value = _number(text)
            except argparse.ArgumentTypeError:
                value = text
        options[name.replace("-", "_")] = value
    return options


# ---------------------------------------------------------------------------- helpers


def _stderr_is_terminal() -> bool:
    return hasattr(sys.stderr, "isatty") and sys.stderr.isatty()


def _read_graph(args) -> tuple[Graph, str]:
    """Read ``args.file`` (with a progress indicator for big files on a terminal).

    Returns the graph and how long the reading took, as ``"read in 12.3 ms"``,
    with the parser's compilation (first use of a large file's parser after
    install) said apart: ``"read in 1.2 s (and 9.8 s compiling the parser, once)"``.
    """
    path = args.file
    if not os.path.exists(path):
        raise CommandError(f"{path}: no such file")
    if os.path.isdir(path):
        raise CommandError(f"{path}: is a directory, not a graph file")
    size = os.path.getsize(path)
    bar = None
    if size >= BIG_FILE_BYTES and _stderr_is_terminal():
        from tqdm import tqdm

        bar = tqdm(total=size, unit="B", unit_scale=True, desc=f"reading {os.path.basename(path)}",
                   file=sys.stderr, leave=False)
    start = time.perf_counter()
    try:
        with CompileTimer() as compiling, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            graph = warpath.read(path, format=args.format,
                                 directed=False if args.undirected else None)
    finally:
        if bar is not None:
            bar.update(size)
            bar.close()
    text = f"read in {_fmt_seconds(time.perf_counter() - start - compiling.seconds)}"
    if compiling.seconds:
        text += f" (and {_fmt_seconds(compiling.seconds)} compiling the parser, once)"
    for warning in caught:
        warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
    args.direction = _direction_text(graph, args, caught)
    if args.random_weights is not None:
        graph = graph.with_random_weights(*args.random_weights, seed=args.seed or 0)
    elif args.seed is not None:
        raise UsageError("--seed goes with --random-weights")
    return graph, text


def _direction_text(graph, args, caught) -> str:
    """How the graph's direction was decided, for ``info``."""
    if args.undirected:
        return "undirected (--undirected: every line or arc of the file is an edge)"
    if any(issubclass(w.category, DirectionWarning) for w in caught):
        return ("directed, assumed: the edge list does not say (no 'Directed graph' or "
                "'Undirected graph' comment); --undirected reads each line as one edge")
    return f"{'directed' if graph.directed else 'undirected'} (as the file says)"


def _vertex_index(graph: Graph, text: str, option: str, path: str) -> int:
    """The internal index of the vertex the file calls ``text``."""
    labels = graph.labels
    try:
        if labels.dtype.kind in "iu":
            label = int(text)
        elif labels.dtype.kind == "f":
            label = float(text)
        else:
            label = text
    except ValueError:
        kind = "integers" if labels.dtype.kind in "iu" else "numbers"
        raise SourceError(f"{option} {text!r}: the vertex ids of {path} are {kind}") from None
    try:
        return graph.index_of(label)
    except SourceError:
        raise SourceError(f"{option} {text}: {path} has no vertex {text} "
                          f"(its vertex ids: {_describe_labels(graph)})") from None


def _describe_labels(graph: Graph) -> str:
    """``"1..1437"`` for consecutive ids, else their count and range."""
    labels = graph.labels
    n = graph.num_vertices
    if labels.dtype.kind in "iuf" and n:
        low, high = labels.min().item(), labels.max().item()
        if high - low + 1 == n:
            return f"{low}..{high}"
        return f"{n:,} ids between {low} and {high}"
    return f"{n:,} vertices"


def _check_output(path, suffixes=RESULT_SUFFIXES):
    """Fail before any work when the output cannot be written."""
    if path is None:
        return None
    suffix = Path(path).suffix.lower()
    if suffix not in suffixes:
        raise UsageError(f"--output {path}: the name must end in {' or '.join(suffixes)}")
    check_folder(path)
    return suffix


def _resolve(problem, graph, args, options):
    """The method and device that will run: the library's own rule (:func:`methods.resolve`)."""
    limit = getattr(args, "limit", None) is not None
    return methods.resolve(problem, graph, args.method, args.device, limit=limit,
                           options=options)


def _fmt_seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s"


def _fmt_number(value) -> str:
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    value = float(value)
    if value.is_integer() and abs(value) < 2**53:
        return f"{int(value):,}"
    return f"{value:,.6g}"


def _print_rows(rows):
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


def _graph_line(graph: Graph, path, read_text) -> str:
    kind = "directed" if graph.directed else "undirected"
    weights = f"{graph.weights.dtype} weights" if graph.weighted else "unweighted"
    return (f"{os.path.basename(str(path))}: {graph.num_vertices:,} vertices, "
            f"{graph.num_edges:,} arcs ({kind}, {weights}), {read_text}")


def _run_rows(stats, reached_arcs, warm_up_seconds, interpreted=False):
    """The method, time, MTEPS and counter rows of a summary."""
    seconds = float(stats.get("seconds", 0.0))
    rows = [("method", f"{stats.get('method')} ({stats.get('device')})")]
    timing = _fmt_seconds(seconds)
    if warm_up_seconds is not None:
        timing += f" (compilation and warm-up before it: {_fmt_seconds(warm_up_seconds)})"
    elif interpreted:
        timing += " (run in the interpreter: no compilation for a graph this small)"
    rows.append(("time", timing))
    mteps = reached_arcs / seconds / 1e6 if seconds > 0 else float("inf")
    rows.append(("MTEPS", f"{mteps:,.1f} ({reached_arcs:,} arcs leave reached vertices)"))
    counters = [f"{name} {_fmt_number(value)}" for name, value in stats.items()
                if name not in ("method", "device", "seconds")
                and isinstance(value, (int, float, np.integer, np.floating))
                and not isinstance(value, bool)]
    if counters:
        rows.append(("counters", ", ".join(counters)))
    return rows


def _labels_text(graph: Graph, vertices) -> list[str]:
    labels = graph.labels
    return [str(labels[v].item() if hasattr(labels[v], "item") else labels[v]) for v in vertices]


def _path_rows(graph, result, target_index, target_text, distance_text):
    path = result.path(target_index)
    if path.size == 0:
        return [("path", f"vertex {target_text} is not reachable from the source")]
    shown = " -> ".join(_labels_text(graph, path))
    return [("path", f"{shown}"),
            ("path length", f"{distance_text} ({path.size:,} vertices, {path.size - 1:,} arcs)")]


def _distance_texts(result) -> np.ndarray:
    """Distances as strings: exact integers for integer weights, ``inf`` when unreachable."""
    exact = result.exact_distances
    if exact is not None:
        text = exact.astype(str)
        text[exact == np.iinfo(np.int64).max] = "inf"
        return text
    return result.distances.astype(str)


def _write_vertex_csv(path, graph, value_name, values, predecessors):
    """One row per vertex: index, file label, value, predecessor's label (empty when none)."""
    labels = graph.labels.astype(str)
    n = graph.num_vertices
    if predecessors is None:
        pred_labels = np.full(n, "", dtype=object)
    else:
        pred_labels = np.where(predecessors >= 0, labels[np.maximum(predecessors, 0)], "")
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["vertex", "label", value_name, "predecessor"])
        writer.writerows(zip(range(n), labels, values, pred_labels))


# ---------------------------------------------------------------------------- subcommands


def run_sssp(args) -> int:
    """``warpath sssp``: single-source shortest paths, a summary, optional output.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "g.gr")
    >>> warpath.write(warpath.Graph.from_edges([0, 1], [1, 2], [2, 3]), path)
    >>> main(["sssp", path, "--source", "1", "--path-to", "3"])  # doctest: +ELLIPSIS
    graph ...
    path           1 -> 2 -> 3
    path length    5 (3 vertices, 2 arcs)
    0
    """
    return _run_single_source("sssp", args)


def run_bfs(args) -> int:
    """``warpath bfs``: breadth-first levels and parents, a summary, optional output.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "ring.gr")
    >>> warpath.write(warpath.generators.ring(5, seed=0), path)
    >>> main(["bfs", path, "--source", "1"])  # doctest: +ELLIPSIS
    graph ...
    max level     4 (vertex 5)
    ...
    0
    """
    return _run_single_source("bfs", args)


def _run_single_source(problem, args) -> int:
    options = _options(args.option)
    suffix = _check_output(args.output)
    if args.path_to is not None and not args.predecessors:
        raise UsageError("--path-to needs the predecessors: drop --no-predecessors")
    graph, read_text = _read_graph(args)
    source = _vertex_index(graph, args.source, "--source", args.file)
    target = None if args.path_to is None else _vertex_index(graph, args.path_to, "--path-to",
                                                             args.file)
    kwargs = dict(options, predecessors=args.predecessors)
    if args.limit is not None:
        kwargs["limit"] = args.limit
    chosen = _resolve(problem, graph, args, options)
    warm_up_seconds = warm_up(chosen, graph, **kwargs)
    if chosen.runs_interpreted(graph):
        warm_up_seconds = None   # nothing to compile: the method runs this graph interpreted
    entry = warpath.sssp if problem == "sssp" else warpath.bfs
    try:
        result = entry(graph, source, method=chosen.name, device=chosen.device, **kwargs)
    except NegativeCycleError as err:
        raise NegativeCycleError(err.cycle, _negative_cycle_message(
            graph, err.cycle, f"reachable from source {args.source}")) from None

    reached = np.isfinite(result.distances)
    reached_arcs = int(graph.out_degrees()[reached].sum())
    rows = [("graph", _graph_line(graph, args.file, read_text)),
            ("source", f"{args.source} (index {source})")]
    if problem == "sssp":
        texts = _distance_texts(result)
        far = _farthest(result.distances)
        rows.append(("reached", _reached_text(int(reached.sum()), graph.num_vertices)))
        rows.append(("max distance", f"{_fmt_number(result.distances[far])} "
                                     f"(vertex {_labels_text(graph, [far])[0]})"))
    else:
        texts = result.levels.astype(str)
        far = int(np.argmax(result.levels))
        rows.append(("reached", _reached_text(int(reached.sum()), graph.num_vertices)))
        rows.append(("max level", f"{int(result.levels[far]):,} "
                                  f"(vertex {_labels_text(graph, [far])[0]})"))
    rows += _run_rows(result.stats, reached_arcs, warm_up_seconds,
                      interpreted=chosen.runs_interpreted(graph))
    if target is not None:
        distance = (_fmt_number(result.distances[target]) if problem == "sssp"
                    else f"{int(result.levels[target])} hops")
        rows += _path_rows(graph, result, target, args.path_to, distance)
    if args.output:
        if suffix == ".npy":
            np.save(args.output, result.distances if problem == "sssp" else result.levels)
        else:
            _write_vertex_csv(args.output, graph, "distance" if problem == "sssp" else "level",
                              texts, result.predecessors)
        rows.append(("output", args.output))
    _print_rows(rows)
    return 0


def _farthest(distances) -> int:
    """The vertex with the largest finite distance (the source when nothing else is reached)."""
    finite = np.where(np.isfinite(distances), distances, -np.inf)
    return int(np.argmax(finite))


def _reached_text(reached: int, n: int) -> str:
    return f"{reached:,} of {n:,} vertices ({100.0 * reached / n:.1f}%)"


def _negative_cycle_message(graph, cycle, where=None) -> str:
    message = "the graph has a negative-weight cycle" + (f" {where}" if where else "")
    if cycle:
        shown = _labels_text(graph, cycle[:20])
        more = " -> ..." if len(cycle) > 20 else ""
        message += f": {' -> '.join(shown)}{more} -> {shown[0]} (file ids)"
    return message


def run_apsp(args) -> int:
    """``warpath apsp``: all-pairs shortest paths, a summary, optional matrix output.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "ring.gr")
    >>> warpath.write(warpath.generators.ring(4, seed=0), path)
    >>> main(["apsp", path])  # doctest: +ELLIPSIS
    graph ...
    reachable pairs  16 of 16 (100.0%)
    ...
    0
    """
    options = _options(args.option)
    suffix = _check_output(args.output)
    graph, read_text = _read_graph(args)
    n = graph.num_vertices
    chosen = _resolve("apsp", graph, args, options)
    if suffix == ".csv":
        warning = output.csv_warning(args.output, graph, n)
        if warning:
            warnings.warn(warning, WarpathWarning, stacklevel=1)
    report = progress.reporter(f"apsp ({chosen.name}, {chosen.device})") \
        if n >= APSP_PROGRESS_MIN_VERTICES else None
    # An .npy result is written during the run, block by block (warpath.apsp's out=): the
    # matrix never needs host memory, and warpath.apsp.memory's rule counts disk instead.
    out = args.output if suffix == ".npy" else None
    try:
        if args.scheduler or args.workers:
            result = _distributed_apsp(graph, args, options, out)
        else:
            result = warpath.apsp(graph, method=chosen.name, device=chosen.device,
                                  predecessors=args.predecessors, progress=report,
                                  dtype=args.dtype, out=out, **options)
    except NegativeCycleError as err:
        raise NegativeCycleError(err.cycle, _negative_cycle_message(graph, err.cycle)) from None
    finally:
        if report is not None:
            report.close()
    pairs, largest, reached_arcs = _matrix_summary(result, graph.out_degrees().astype(np.int64))
    rows = [("graph", _graph_line(graph, args.file, read_text)),
            ("reachable pairs", f"{pairs:,} of {n * n:,} ({100.0 * pairs / (n * n):.1f}%)"),
            ("max distance", _fmt_number(largest))]
    rows += _run_rows(result.stats, reached_arcs, None)
    if args.output:
        if suffix == ".csv":
            output.write_pairs_csv(args.output, graph, result)
        rows.append(("output", args.output))
    _print_rows(rows)
    return 0


def _matrix_summary(result, out_degrees):
    """Reachable pairs, the largest finite distance and the arcs the searches traversed
    (each source's search traverses the arcs leaving the vertices it reaches), by row blocks."""
    pairs = reached_arcs = 0
    largest = -np.inf
    for _, block in result.distance_blocks():
        finite = np.isfinite(block)
        pairs += int(finite.sum())
        reached_arcs += int((finite @ out_degrees).sum())
        if finite.any():
            largest = max(largest, float(block[finite].max()))
    return pairs, largest if pairs else 0.0, reached_arcs


def _distributed_apsp(graph, args, options, out):
    """``apsp --scheduler/--workers``: :func:`warpath.distributed.apsp_on_cluster`."""
    try:
        from . import distributed
    except ImportError as exc:
        raise CommandError(str(exc)) from None
    if args.dtype is not None:
        raise UsageError("--dtype is not available with --scheduler/--workers")
    # The cluster's out= holds the distances; predecessors would need a file of their own.
    predecessors = args.predecessors and out is None
    return distributed.apsp_on_cluster(graph, scheduler=args.scheduler, workers=args.workers,
                                       method=args.method, device=args.device,
                                       predecessors=predecessors, out=out, **options)


def run_info(args) -> int:
    """``warpath info``: the statistics table of a graph file.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "ring.gr")
    >>> warpath.write(warpath.generators.ring(4, seed=0), path)
    >>> main(["info", path])  # doctest: +ELLIPSIS
    file              ...ring.gr
    ...
    vertices          4
    ...
    0
    """
    graph, read_text = _read_graph(args)
    if graph.weighted and graph.num_edges:
        weights = (f"{graph.weights.dtype}, {_fmt_number(graph.min_weight)} .. "
                   f"{_fmt_number(graph.weights.max().item())}")
    else:
        weights = "none (every arc weighs 1)"
    rows = [("file", f"{args.file} ({read_text})"),
            ("direction", args.direction),
            ("vertex ids", _describe_labels(graph)
             + (" (the file's own)" if graph.has_labels else " (0-based)")),
            ("weights", weights)]
    stats_rows = [line.split("  ", 1) for line in graph.stats().table().splitlines()]
    rows += [(name.strip(), value.strip()) for name, value in stats_rows]
    _print_rows(rows)
    return 0


def run_generate(args) -> int:
    """``warpath generate``: write a seeded synthetic graph.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "grid.gr")
    >>> main(["generate", "grid", "--rows", "3", "--cols", "4", "--output", path])
    wrote ...grid.gr: grid, 12 vertices, 34 arcs (directed, int32 weights)
    0
    """
    need = {"random": ("vertices", "edges"), "rmat": ("scale",),
            "power_law": ("vertices",), "ring": ("vertices",), "complete": ("vertices",),
            "grid": ("rows", "cols")}[args.kind]
    missing = [name for name in need if getattr(args, name) is None]
    if missing:
        flags = " ".join(f"--{name.replace('_', '-')} ..." for name in missing)
        raise UsageError(f"generate {args.kind} needs {flags}")
    output_format(args.output)
    check_folder(args.output)
    try:
        graph = _generate(args)
    except ArgumentError as err:  # the generators' own checks of sizes and weights
        raise UsageError(f"generate {args.kind}: {err}") from None
    warpath.write(graph, args.output)
    print(f"wrote {args.output}: {args.kind}, {_shape(graph)}")
    return 0


def _generate(args) -> Graph:
    generators = warpath.generators
    weights = None if args.unweighted else "float" if args.float_weights else "int"
    common = dict(seed=args.seed, weights=weights, max_weight=args.max_weight,
                  directed=not args.undirected)
    if args.kind == "random":
        graph = generators.random(args.vertices, args.edges, **common)
    elif args.kind == "rmat":
        graph = generators.rmat(args.scale, args.edge_factor or 16, **common)
    elif args.kind == "power_law":
        # Harish & Narayanan's scale-free graphs: average degree 6, hubs up to 1000.
        high = args.max_degree or max(1, min(args.vertices - 1, 1000))
        graph = generators.power_law(args.vertices, args.avg_degree or 6, high, **common)
    elif args.kind == "ring":
        graph = generators.ring(args.vertices, **common)
    elif args.kind == "complete":
        graph = generators.complete(args.vertices, **common)
    else:
        graph = generators.grid(args.rows, args.cols, **common)
    if args.negative_weights:
        graph = generators.with_negative_weights(graph, seed=args.seed)
    elif args.negative_cycle:
        graph = generators.with_negative_cycle(graph, seed=args.seed)
    return graph


def _shape(graph: Graph) -> str:
    kind = "directed" if graph.directed else "undirected"
    weights = f"{graph.weights.dtype} weights" if graph.weighted else "unweighted"
    return f"{graph.num_vertices:,} vertices, {graph.num_edges:,} arcs ({kind}, {weights})"


def run_convert(args) -> int:
    """``warpath convert``: read one graph file and write it in another format.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> folder = tempfile.mkdtemp()
    >>> warpath.write(warpath.generators.ring(3, seed=0), os.path.join(folder, "ring.gr"))
    >>> main(["convert", os.path.join(folder, "ring.gr"), os.path.join(folder, "ring.mtx")])
    wrote ...ring.mtx: 3 vertices, 3 arcs (directed, int32 weights)
    0
    """
    output_format(args.output, args.to_format)
    check_folder(args.output)
    args.file = args.input
    graph, _ = _read_graph(args)
    warpath.write(graph, args.output, format=args.to_format)
    print(f"wrote {args.output}: {_shape(graph)}")
    return 0


def run_methods(args) -> int:
    """``warpath methods``: the registered methods, and whether a GPU is usable.

    Examples
    --------
    >>> main(["methods", "sssp"])  # doctest: +ELLIPSIS
    problem  name          device  negative weights  limit  summary
    ...
    sssp     dijkstra      cpu     no                yes    ...
    ...
    0
    """
    listed = methods.available(args.problem)
    header = ("problem", "name", "device", "negative weights", "limit", "summary")
    rows = [header] + [(m.problem, m.name, m.device, _negative_weights_text(m),
                        "yes" if m.limit else "no", m.summary + (
                            f" (options: {', '.join(m.options)})" if m.options else ""))
                       for m in listed]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
    for row in rows:
        print("  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)) + "  " + row[-1])
    usable, reason = gpu_status()
    print(f"\nGPU: {'usable' if usable else 'not usable'} ({reason}); "
          f"--device auto runs on the {'GPU' if usable else 'CPU'}")
    return 0


def _negative_weights_text(method) -> str:
    if method.problem in methods.WEIGHTLESS_PROBLEMS:
        return "ignored"
    return "yes" if method.negative_weights else "no"


# ---------------------------------------------------------------------------- entry point


def main(argv=None) -> int:
    """Run the ``warpath`` command; return its exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (``sys.argv[1:]`` when ``None``).

    Returns
    -------
    int
        0 on success (also when the reader of the output stops early), 2 when
        the command line is wrong (an unknown flag, method, option or suite, a
        value out of its domain), 1 when the data or the machine says no (a
        missing or malformed file, a vertex not in the graph, a negative
        cycle, no GPU, not enough memory; a bug too), 130 when interrupted.
        Errors and warnings print one line on stderr.

    Examples
    --------
    >>> import os, tempfile, warpath
    >>> path = os.path.join(tempfile.mkdtemp(), "ring.gr")
    >>> warpath.write(warpath.generators.ring(4, seed=0), path)
    >>> main(["info", path])  # doctest: +ELLIPSIS
    file ...
    vertices          4
    ...
    0
    >>> main(["sssp", path, "--source", "99"])  # the error goes to stderr
    1
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = os.environ.get("WARPATH_DEBUG", "") not in ("", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = _show_warning
        try:
            bench_command = None
            if argv and argv[0] == "bench":
                try:
                    from .benchmark import command as bench_command
                except ImportError as exc:
                    raise CommandError(f"the benchmark harness cannot be loaded: {exc}") from None
            args = build_parser(bench_command).parse_args(argv)
            status = int(args.handler(args) or 0)
            sys.stdout.flush()   # a closed pipe shows here, inside the handler below
            return status
        except SystemExit as exit_:  # --help and --version
            return exit_.code if isinstance(exit_.code, int) else 0
        except ArgumentError as err:   # the command line is wrong (UsageError included)
            return _report(err, 2)
        except WarpathError as err:    # the data or the machine says no
            return _report(err, 1)
        except KeyboardInterrupt:
            return _report("interrupted", 130)
        except BrokenPipeError:  # e.g. 'warpath methods | head -1': the reader had enough
            _silence_stdout()
            return 0
        except FileNotFoundError as err:
            return _report(f"{err.filename}: no such file or directory", 1)
        except MemoryError:
            return _report("out of memory (try a smaller graph or --no-predecessors)", 1)
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            return _report(f"{where}{err.strerror or err}", 1)
        except Exception as err:  # a bug, not a user error: still one line unless debugging
            if debug:
                raise
            return _report(f"internal error: {type(err).__name__}: {err} "
                           f"(set WARPATH_DEBUG=1 for the traceback, and please report it)", 1)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line on stderr, without Python's source path and line."""
    print(f"{PROG}: warning: {' '.join(str(message).split())}", file=sys.stderr)


def _silence_stdout():
    """Point stdout at /dev/null so the interpreter's final flush meets no closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass   # not a real file descriptor (a test's captured stdout): nothing to flush there


def _report(error, status: int) -> int:
    message = " ".join(str(error).split()) or type(error).__name__
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return status
