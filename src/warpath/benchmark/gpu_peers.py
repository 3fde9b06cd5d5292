"""GPU peers: prebuilt programs of other GPU shortest-path codes, run as outside processes.

Where ``../shared/peers`` (or the folder ``WARPATH_PEERS`` / ``warpath bench
--peers DIR`` names) holds a peer's program, the harness runs it on the same
graph and sources as warpath's own runs, in the same call.  Nothing of the
peer is part of warpath: it is a binary beside the checkout.  For each run:

1. the graph is written once in the input format the program reads (Matrix
   Market; cached under ``WARPATH_PEER_CACHE``, default a ``warpath-peer-
   inputs`` folder in the temporary directory, keyed by the graph's content);
2. one process per repetition solves every source of the run; the first
   process gets the first source twice, and that first solve is the run's
   **first call** (excluded from the time, as for every other run);
3. the time of each query is the program's own (Gunrock: CUDA events around
   the algorithm, in its ``--export_metrics`` JSON): reading the file and
   building its graph are not in it, as warpath's upload is not in ours;
4. the answer is checked as far as the program shows it: Gunrock prints the
   distances of the first 40 vertices for the last source (six significant
   digits), which are compared with scipy's, and its own ``--validate``
   (its CPU reference on every vertex of that source, on the first process)
   must count no error.  The record's ``reason`` says how much was checked.

A peer whose program is missing, or a benchmark without a usable GPU, gives
a SKIPPED run with the reason.

Examples
--------
>>> sorted(GPU_PEERS)
['gunrock-bfs', 'gunrock-sssp']
>>> parse_head("Source : 3\\nGPU distances[:4] = 0 2.5 3.40282e+38 1.5e+06 \\n", levels=False)
array([0.0e+00, 2.5e+00,     inf, 1.5e+06])
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

PEERS_ENV = "WARPATH_PEERS"
CACHE_ENV = "WARPATH_PEER_CACHE"
# Gunrock prints distances with std::ostream's default six significant digits.
PRINTED_TOLERANCE = 1e-5
_FLOAT_UNREACHED = 1e38          # float32 max (3.40282e+38) marks an unreached vertex
_INT_UNREACHED = 2**31 - 1       # int32 max, Gunrock BFS's unreached depth
_HEAD = re.compile(r"GPU distances\[:(\d+)\] = ([^\n]*)")
_ERRORS = re.compile(r"Number of errors : (\d+)")


class PeerProgramError(Exception):
    """A peer program that failed, timed out or wrote no readable answer (the run is ERROR)."""


@dataclass(frozen=True)
class GpuPeer:
    """One peer program.

    Attributes
    ----------
    name : str
        ``project-algorithm`` (``"gunrock-sssp"``), as suites name it.
    program : str
        Its path inside the peers folder (``"gunrock/gunrock_sssp"``).
    problems : tuple of str
    levels : bool
        Whether it prints BFS depths (int32, unreached = int32 max) rather
        than float distances.
    summary : str
    negative_weights : bool
    """

    name: str
    program: str
    problems: tuple
    levels: bool
    summary: str
    negative_weights: bool = False


GPU_PEERS = {peer.name: peer for peer in [
    GpuPeer("gunrock-sssp", "gunrock/gunrock_sssp", ("sssp",), False,
            "Gunrock essentials SSSP (prebuilt; float32 weights, CUDA-event time)"),
    GpuPeer("gunrock-bfs", "gunrock/gunrock_bfs", ("bfs",), True,
            "Gunrock essentials BFS (prebuilt; CUDA-event time)"),
]}


def peers_directory(root=None) -> Path:
    """The folder holding the peer programs: ``WARPATH_PEERS``, else ``../shared/peers``.

    Examples
    --------
    >>> where = peers_directory("/work/repo")
    >>> where == Path(os.environ.get("WARPATH_PEERS", "/work/shared/peers"))
    True
    """
    override = os.environ.get(PEERS_ENV)
    if override:
        return Path(override)
    if root is None:
        from .suite import repository_root

        root = repository_root()
    return Path(root).resolve().parent / "shared" / "peers"


def skip_reason(peer: GpuPeer, graph, problem: str, devices, max_edges=None, root=None):
    """Why ``peer`` cannot run ``problem`` on ``graph`` here, or ``None`` if it can.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.generators.ring(4, seed=0)
    >>> skip_reason(GPU_PEERS["gunrock-sssp"], g, "sssp", ("cpu",))
    'a GPU peer; this benchmark runs on cpu (no usable GPU, or --device cpu)'
    """
    if problem not in peer.problems:
        return f"{peer.name} does not solve {problem} (it solves {', '.join(peer.problems)})"
    if "cuda" not in devices:
        return (f"a GPU peer; this benchmark runs on {' and '.join(devices)} "
                "(no usable GPU, or --device cpu)")
    program = peers_directory(root) / peer.program
    if not (program.is_file() and os.access(program, os.X_OK)):
        return (f"no program at {program} (set {PEERS_ENV} or --peers to the folder "
                f"holding {peer.program})")
    if graph.has_negative_weights and not peer.negative_weights:
        return f"{peer.name} does not take negative weights"
    if graph.num_edges >= 2**31 or graph.num_vertices >= 2**31:
        return f"{peer.name} numbers vertices and arcs in int32"
    if max_edges is not None and graph.num_edges > max_edges:
        return f"{graph.num_edges:,} arcs is over this peer's cap of {max_edges:,} (max_edges)"
    return None


def matrix_market_input(graph, cache=None) -> tuple[Path, float]:
    """``(path, seconds)``: ``graph`` as a ``.mtx`` file, written once per distinct graph.

    The name holds a digest of the CSR arrays, so a graph seen before (the
    same file in another experiment, another call on a warm machine) is not
    written again; ``seconds`` is what writing took (0 when cached).

    Examples
    --------
    >>> import warpath
    >>> folder = tempfile.mkdtemp()
    >>> g = warpath.Graph.from_edges([0], [1], [7], directed=False)
    >>> path, _ = matrix_market_input(g, folder)
    >>> path.read_text().splitlines()[0], matrix_market_input(g, folder)[1]
    ('%%MatrixMarket matrix coordinate integer symmetric', 0.0)
    """
    import warpath

    folder = Path(cache or os.environ.get(CACHE_ENV)
                  or Path(tempfile.gettempdir()) / "warpath-peer-inputs")
    digest = hashlib.sha256()
    for array in (graph.indptr, graph.indices, graph.weights if graph.weighted else None):
        if array is not None:
            digest.update(str(array.dtype).encode())
            digest.update(np.ascontiguousarray(array).data)
    digest.update(b"directed" if graph.directed else b"undirected")
    path = folder / f"{graph.name or 'graph'}-{digest.hexdigest()[:16]}.mtx"
    if path.is_file():
        return path, 0.0
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    warpath.write(graph, partial, format="matrix_market")
    partial.replace(path)   # atomic: a reader never sees half a file
    return path, time.perf_counter() - started


@dataclass
class ProgramRun:
    """What one process of a peer program gave back."""

    seconds: list                       # per source, the program's own time
    head: np.ndarray                    # distances of the first vertices, last source
    validation_errors: int | None       # ``--validate``'s count, when asked for
    wall_seconds: float
    depths: list = field(default_factory=list)   # per source, when the JSON has them


def parse_head(stdout: str, *, levels: bool) -> np.ndarray:
    """The distances a Gunrock example prints for its last source (``inf`` = unreached).

    Raises
    ------
    PeerProgramError
        When the output holds no ``GPU distances[:k] = ...`` line of ``k`` numbers.

    Examples
    --------
    >>> parse_head("GPU distances[:3] = 0 1 2147483647 \\n", levels=True).tolist()
    [0.0, 1.0, inf]
    """
    matches = _HEAD.findall(stdout)
    if not matches:
        raise PeerProgramError("its output has no 'GPU distances[:k] = ...' line")
    count, text = matches[-1]
    try:
        values = np.array([float(token) for token in text.split()], dtype=np.float64)
    except ValueError:
        raise PeerProgramError(f"unreadable distances line {text[:80]!r}") from None
    if values.size != int(count):
        raise PeerProgramError(f"the distances line has {values.size} values, not {count}")
    unreached = (values >= _INT_UNREACHED) | (values < 0) if levels else values >= _FLOAT_UNREACHED
    values[unreached] = np.inf
    return values


def parse_metrics(path: Path, sources) -> tuple[list, list]:
    """``(seconds, depths)`` per source from a Gunrock ``--export_metrics`` JSON file.

    Raises
    ------
    PeerProgramError
        For a missing or malformed file, or times that do not match the sources.

    Examples
    --------
    >>> path = Path(tempfile.mkdtemp()) / "m.json"
    >>> _ = path.write_text('{"srcs": [4, 4], "process_times": [2.5, 1.0]}')
    >>> parse_metrics(path, [4, 4])
    ([0.0025, 0.001], [])
    """
    try:
        metrics = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PeerProgramError(f"no readable metrics JSON at {path}: {exc}") from None
    times = metrics.get("process_times") if isinstance(metrics, dict) else None
    if not isinstance(times, list) or len(times) != len(sources) \
            or not all(isinstance(t, (int, float)) and t >= 0 for t in times):
        raise PeerProgramError(f"{path.name}: 'process_times' should hold {len(sources)} "
                               f"times in ms, not {str(times)[:80]}")
    if [int(s) for s in metrics.get("srcs", sources)] != [int(s) for s in sources]:
        raise PeerProgramError(f"{path.name}: 'srcs' {metrics.get('srcs')} are not the "
                               "sources asked for")
    depths = metrics.get("search_depths") or []
    return [float(t) / 1e3 for t in times], [int(d) for d in depths][:len(sources)]


def run_program(peer: GpuPeer, matrix: Path, sources, *, validate=False, timeout=600.0,
                root=None) -> ProgramRun:
    """Run ``peer`` once on ``matrix`` for ``sources`` (0-based); read its times and output.

    Raises
    ------
    PeerProgramError
        For a non-zero exit, a time-out or unreadable output.
    """
    program = peers_directory(root) / peer.program
    with tempfile.TemporaryDirectory(prefix="warpath-peer-") as folder:
        command = [str(program), "-m", str(matrix), "-s", ",".join(str(int(s)) for s in sources),
                   "--export_metrics", "-d", folder, "-f", "metrics.json"]
        if validate:
            command.append("--validate")
        started = time.perf_counter()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                  errors="replace")
        except subprocess.TimeoutExpired:
            raise PeerProgramError(f"{program.name} took over {timeout:g} s") from None
        wall = time.perf_counter() - started
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or [""]
            raise PeerProgramError(f"{program.name} exited with status {done.returncode}: "
                                   f"{said[0][:200]}")
        seconds, depths = parse_metrics(Path(folder) / "metrics.json", sources)
    errors = _ERRORS.findall(done.stdout)
    return ProgramRun(seconds, parse_head(done.stdout, levels=peer.levels),
                      int(errors[-1]) if errors else None, wall, depths)


def check_head(run: ProgramRun, reference, graph, problem: str):
    """``None`` when the printed distances match ``reference`` (and ``--validate`` found no
    error where it can be exact), else what is wrong.

    Examples
    --------
    >>> import warpath
    >>> g = warpath.Graph.from_edges([0], [1], [3])
    >>> run = ProgramRun([0.001], np.array([0.0, 4.0]), 0, 0.1)
    >>> check_head(run, np.array([0.0, 3.0]), g, "sssp")
    'vertex 1: distance 4.0, reference 3.0 (1 of 2 vertices differ)'
    """
    from .reference import compare_distances

    head = run.head
    message = compare_distances(head, np.asarray(reference)[:head.size], graph, problem,
                                tolerance=PRINTED_TOLERANCE)
    if message is not None:
        return message
    # Gunrock's --validate compares floats exactly: meaningful for integer weights (or BFS).
    exact = problem == "bfs" or graph.weights.dtype.kind in "iu"
    if run.validation_errors and exact:
        return (f"the program's own --validate counts {run.validation_errors} vertices that "
                "differ from its CPU reference")
    return None


def measure(peer: GpuPeer, graph, problem: str, sources, references, *, repeat: int,
            max_seconds=None, root=None) -> dict:
    """Time and check ``peer`` on ``graph``: one process per repetition over ``sources``.

    Parameters
    ----------
    peer : GpuPeer
    graph : Graph
    problem : {"sssp", "bfs"}
    sources : list of int
    references : object
        The runner's reference cache (``get(source)`` gives scipy's row).
    repeat : int
    max_seconds : float, optional
        Stop starting processes once the run has used this much time.

    Returns
    -------
    dict
        ``per_rep`` (seconds per query per repetition), ``used`` (the sources
        timed), ``first_seconds``, ``setup_seconds`` (writing the input
        file), ``problem`` (``None`` or what is wrong), ``note`` (what was
        checked, and any budget cut), ``stats`` (per query: ``iterations``
        when the program reports its search depth) and ``wall_seconds`` (each
        process, reading the file included).

    Raises
    ------
    PeerProgramError
    """
    matrix, setup = matrix_market_input(graph)
    timeout = 600.0 if max_seconds is None else max(60.0, 4.0 * max_seconds)
    started = time.perf_counter()
    first = run_program(peer, matrix, [sources[0]] + list(sources), validate=True,
                        timeout=timeout, root=root)
    per_rep, walls, runs = [first.seconds[1:]], [first.wall_seconds], [first]
    note = ""
    for rep in range(1, repeat):
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            note = f"; time budget of {max_seconds:g} s: {rep} of {repeat} repetitions"
            break
        run = run_program(peer, matrix, sources, timeout=timeout, root=root)
        per_rep.append(run.seconds)
        walls.append(run.wall_seconds)
        runs.append(run)
    problem_text = None
    last = int(sources[-1])
    for run in runs:
        problem_text = problem_text or check_head(run, references.get(last), graph, problem)
    validated = "" if first.validation_errors is None else \
        f", and its own --validate ({first.validation_errors} errors)"
    note = (f"checked: the {first.head.size} printed distances of source {last} against "
            f"scipy{validated}" + note)
    depths = first.depths[1:] if first.depths else []
    stats = [{"iterations": d} for d in depths]
    return {"per_rep": per_rep, "used": list(sources), "first_seconds": first.seconds[0],
            "setup_seconds": setup, "problem": problem_text, "note": note, "stats": stats,
            "wall_seconds": walls}
