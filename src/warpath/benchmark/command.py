"""The ``warpath bench`` command: its arguments and what it does.

``warpath bench SUITE [--device auto|cpu|cuda] [--output DIR] [--quick] [--repeat N]
[--sources N] [--experiment ID] [--max-seconds S] [--max-edges N] [--suite-seconds S]
[--merge] [--only-device cpu|cuda] [--datasets DIR] [--peers DIR] [--no-plots]``

SUITE is a name in ``bench/suites/`` (``hbf``, ``okuyama``, ``harish``,
``safari``, ``agarwal``, ``quick``) or a path to a TOML file.  ``--quick``
alone runs the ``quick`` suite; with a SUITE it runs that suite at its quick
sizes (a smoke test of a paper's suite).  The exit code is 0 when every run
that ran gave the right answer, 1 when one was wrong (FAILED) or crashed
(ERROR); a bad suite or command line raises an
:class:`~warpath.ArgumentError`, which the ``warpath`` command prints as one
line and answers with 2 (its one exit-code rule).

The CLI's ``bench`` subcommand calls :func:`configure` and :func:`run`;
``python -m warpath.benchmark`` is the same command.

Examples
--------
>>> import argparse
>>> parser = argparse.ArgumentParser(prog="warpath bench")
>>> configure(parser)
>>> args = parser.parse_args(["--quick", "--repeat", "2"])
>>> args.suite, args.quick, args.repeat, args.device
(None, True, 2, 'auto')
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from ..errors import ArgumentError


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``warpath bench`` to ``parser`` (a parser or a subparser).

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> configure(parser)
    >>> parser.parse_args(["hbf", "--device", "cpu", "--sources", "5"]).sources
    5
    """
    parser.description = parser.description or __doc__.split("\n\n")[0]
    parser.add_argument("suite", nargs="?", default=None,
                        help="suite name in bench/suites (hbf, okuyama, harish, safari, agarwal, "
                             "quick) or a path to a suite .toml; --quick alone means 'quick'")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                        help="cpu: CPU methods and peers only; cuda: GPU methods too (the CPU "
                             "ones still run as baselines); auto: cuda when a real GPU is usable")
    parser.add_argument("--output", "-o", metavar="DIR", default="bench-results",
                        help="directory for SUITE.json, SUITE.md and the plots "
                             "(default: ./bench-results)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes, few sources, one repetition (CI); alone: the quick suite")
    parser.add_argument("--repeat", type=_positive_int, metavar="N",
                        help="repetitions per run (default: the suite's)")
    parser.add_argument("--sources", type=_positive_int, metavar="N",
                        help="random sources per graph, H-BF policy (default: the suite's)")
    parser.add_argument("--experiment", action="append", metavar="ID",
                        help="run only this experiment (repeatable)")
    parser.add_argument("--max-seconds", type=float, metavar="S",
                        help="time budget per run: stop taking sources / repetitions after S s")
    parser.add_argument("--suite-seconds", type=float, metavar="S",
                        help="time budget for the whole suite: runs not reached by then are "
                             "SKIPPED (the report is still written)")
    parser.add_argument("--max-edges", type=_positive_int, metavar="N",
                        help="skip graphs with more than N arcs")
    parser.add_argument("--merge", action="store_true",
                        help="keep the experiments of an earlier DIR/SUITE.json that this run "
                             "does not repeat (with --experiment: re-run one, keep the rest)")
    parser.add_argument("--only-device", choices=("cpu", "cuda"),
                        help="run only the runs on this device (cuda: warpath's GPU methods and "
                             "the GPU peer programs); with --merge the others keep their "
                             "results from the earlier DIR/SUITE.json where they were measured "
                             "on the same sources, and the speed-ups are computed again")
    parser.add_argument("--datasets", metavar="DIR",
                        help="the folder of the shared real graphs, when not at "
                             "../shared/datasets (sets WARPATH_DATASETS)")
    parser.add_argument("--peers", metavar="DIR",
                        help="the folder of the GPU peer programs (gunrock/...), when not at "
                             "../shared/peers (sets WARPATH_PEERS)")
    parser.add_argument("--no-plots", action="store_true", help="do not draw plots")
    parser.add_argument("--list", action="store_true", help="list the known suites and exit")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {value}")
    return value


def benchmark_devices(device: str) -> tuple:
    """The devices a benchmark uses for ``--device``.

    ``auto`` takes the GPU only when a real one is usable: the CUDA simulator
    is for correctness tests, far too slow to time anything.

    Raises
    ------
    DeviceError
        For ``cuda`` without a usable GPU.

    Examples
    --------
    >>> benchmark_devices("cpu")
    ('cpu',)
    """
    from ..device import gpu_status
    from ..errors import DeviceError
    from .timing import cuda_simulated

    if device == "cpu":
        return ("cpu",)
    usable, reason = gpu_status()
    if device == "cuda":
        if not usable:
            raise DeviceError(f"--device cuda is not usable here: {reason}")
        return ("cpu", "cuda")
    return ("cpu", "cuda") if usable and not cuda_simulated() else ("cpu",)


def run(args) -> int:
    """Run the benchmark the parsed ``args`` describe; returns the exit code.

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> configure(parser)
    >>> run(parser.parse_args(["--list"]))  # doctest: +ELLIPSIS
    agarwal...
    0
    """
    from .merge import merge_results
    from .output import write_results
    from .runner import run_suite
    from .suite import available_suites, load_suite

    if args.list:
        print("\n".join(available_suites()))
        return 0
    name = args.suite or ("quick" if args.quick else None)
    if name is None:
        raise ArgumentError("bench: give a SUITE (" + ", ".join(available_suites())
                            + ") or --quick")
    command = "warpath bench " + " ".join(shlex.quote(a) for a in _argv_of(args))
    for folder, variable in ((args.datasets, "WARPATH_DATASETS"), (args.peers, "WARPATH_PEERS")):
        if folder is not None:   # read where graphs and peer programs are looked up
            os.environ[variable] = os.path.abspath(folder)
    suite = load_suite(name)
    devices = benchmark_devices(args.device)
    if args.only_device is not None and args.only_device not in devices:
        raise ArgumentError(f"bench: --only-device {args.only_device}, but this benchmark runs "
                            f"on {' and '.join(devices)} (--device {args.device})")
    earlier = _earlier_results(suite.name, args.output) if args.merge else None

    def merged(results):
        return results if earlier is None else merge_results(earlier, results)

    def checkpoint(partial):
        write_results(merged(partial), args.output, command=command, plots=False)

    results = merged(run_suite(suite, devices=devices, quick=args.quick, repeat=args.repeat,
                               sources=args.sources, max_seconds=args.max_seconds,
                               max_edges=args.max_edges, experiments=args.experiment,
                               suite_seconds=args.suite_seconds, checkpoint=checkpoint,
                               only_device=args.only_device))
    paths = write_results(results, args.output, command=command, plots=not args.no_plots)
    bad = [r for r in results["runs"] if r["status"] in ("FAILED", "ERROR")]
    print(f"wrote {', '.join(paths)}")
    if bad:
        for r in bad:
            print(f"{r['status']}: {r['experiment']} / {r['graph']} / {r['label']}: {r['reason']}",
                  file=sys.stderr)
        return 1
    return 0


def _earlier_results(suite_name, directory):
    """The results in ``DIR/SUITE.json`` for ``--merge`` (``None`` when there are none), read
    before the run starts: its checkpoints overwrite that file."""
    import json
    from pathlib import Path

    from .merge import MergeError

    path = Path(directory) / f"{suite_name}.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MergeError(f"--merge: cannot read {path}: {exc}") from None


def _argv_of(args) -> list:
    """The command-line words that give ``args`` back (for the record in the report)."""
    words = [args.suite] if args.suite else []
    if args.device != "auto":
        words += ["--device", args.device]
    if args.quick:
        words.append("--quick")
    for flag in ("repeat", "sources", "max_seconds", "max_edges", "suite_seconds"):
        value = getattr(args, flag)
        if value is not None:
            words += [f"--{flag.replace('_', '-')}", str(value)]
    for experiment in args.experiment or ():
        words += ["--experiment", experiment]
    words += ["--output", str(args.output)]
    if args.merge:
        words.append("--merge")
    for flag in ("only_device", "datasets", "peers"):
        if getattr(args, flag) is not None:
            words += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    if args.no_plots:
        words.append("--no-plots")
    return words
