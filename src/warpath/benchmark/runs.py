"""Which runs an experiment asks for: warpath methods per device, and peers, each with a status.

A run is one solver (a registered warpath method on one device with its
options, or a peer) on one graph.  Before anything is timed it is
classified: runnable, ``PENDING`` (the method, the device or an option is
not implemented in warpath yet: the suite is ahead of the code), or
``SKIPPED`` with a reason (a GPU run on a CPU-only benchmark, a peer whose
library is missing, a method that cannot take negative weights, a graph
over a size cap).

Examples
--------
>>> from warpath.benchmark.suite import MethodSpec
>>> plan = plan_method(MethodSpec("no-such-method", "cuda"), "sssp", ("cpu",), None)
>>> plan[0].status, plan[0].label
('PENDING', 'no-such-method@cuda')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import methods as registry

PENDING = "PENDING"
SKIPPED = "SKIPPED"
#: The reason of a run left out by ``--only-device`` (``{device}``: the device kept):
#: ``--merge`` then keeps that run's earlier result (:mod:`~warpath.benchmark.merge`).
ONLY_DEVICE = "not run this time: --only-device {device}"
OK = "OK"
FAILED = "FAILED"
ERROR = "ERROR"


@dataclass
class PlannedRun:
    """One solver to run (or not, with the reason) on the graphs of an experiment.

    Attributes
    ----------
    label : str
    kind : {"method", "peer"}
    name : str
        The registry name or the peer name.
    device : str
        ``"cpu"`` or ``"cuda"`` (peers: ``"cpu"``).
    options : dict
        Method options passed through the public entry point.
    status : str or None
        ``None`` when runnable, else ``PENDING`` or ``SKIPPED``.
    reason : str
    max_edges : int or None
        Peer size cap from the suite.
    """

    label: str
    kind: str
    name: str
    device: str
    options: dict = field(default_factory=dict)
    status: str | None = None
    reason: str = ""
    max_edges: int | None = None
    method: object = None


def plan_method(spec, problem: str, devices, graph) -> list[PlannedRun]:
    """The runs of one suite method entry, given the devices this benchmark uses.

    An entry without a device expands to every device the method is
    registered on; a device outside ``devices`` gives a ``SKIPPED`` run; a
    name, device or option warpath does not have yet gives a ``PENDING`` one.

    Parameters
    ----------
    spec : MethodSpec
    problem : str
    devices : tuple of str
        The devices enabled for this benchmark (``("cpu",)`` or ``("cpu", "cuda")``).
    graph : Graph or None
        When given, methods that cannot take its negative weights are skipped.

    Examples
    --------
    >>> from warpath.benchmark.suite import MethodSpec
    >>> [(p.label, p.status) for p in plan_method(MethodSpec("dijkstra"), "sssp", ("cpu",), None)]
    [('dijkstra@cpu', None)]
    """
    if spec.device is not None:
        wanted = [spec.device]
    else:
        wanted = registry.devices_of(problem, spec.name)
        if not wanted:
            return [PlannedRun(spec.label, "method", spec.name, "any", dict(spec.options),
                               PENDING, f"warpath has no {problem} method {spec.name!r} yet")]
    plans = []
    for device in wanted:
        pinned = spec.on(device)
        plan = PlannedRun(pinned.label, "method", spec.name, device, dict(spec.options))
        plans.append(plan)
        try:
            method = registry.find(problem, spec.name, device)
        except registry.MethodNotAvailable:
            plan.status, plan.reason = PENDING, \
                f"warpath has no {problem} method {spec.name!r} on {device} yet"
            continue
        plan.method = method
        unknown = sorted(set(spec.options) - set(method.options))
        if unknown:
            plan.status, plan.reason = PENDING, \
                f"{spec.name}@{device} does not take option(s) {', '.join(unknown)} yet " \
                f"(it takes {', '.join(method.options) or 'none'})"
        elif device not in devices:
            plan.status, plan.reason = SKIPPED, \
                f"a {device} run; this benchmark runs on {' and '.join(devices)}"
        elif graph is not None and graph.has_negative_weights and not method.negative_weights:
            plan.status, plan.reason = SKIPPED, f"{spec.name} needs non-negative weights"
    return plans


def plan_peer(spec, problem: str, graph, devices=("cpu",)) -> PlannedRun:
    """The run of one peer entry (skipped with the reason when it cannot run here).

    A library peer runs on the CPU; a GPU peer program (:mod:`~warpath.benchmark.gpu_peers`)
    runs only when ``devices`` holds ``"cuda"`` and its program is here.

    Examples
    --------
    >>> import warpath
    >>> from warpath.benchmark.suite import PeerSpec
    >>> g = warpath.generators.ring(5, seed=0)
    >>> plan_peer(PeerSpec("scipy-bfs"), "sssp", g).reason
    'scipy-bfs does not solve sssp (it solves bfs)'
    """
    from . import gpu_peers
    from .peers import PEERS, skip_reason

    program = gpu_peers.GPU_PEERS.get(spec.name)
    plan = PlannedRun(spec.label, "peer", spec.name, "cpu" if program is None else "cuda",
                      max_edges=spec.max_edges)
    if graph is None:  # the graph is unavailable: the runner skips the run with its reason
        return plan
    if program is None:
        reason = skip_reason(PEERS[spec.name], graph, problem, spec.max_edges)
    else:
        reason = gpu_peers.skip_reason(program, graph, problem, devices, spec.max_edges)
    if reason:
        plan.status, plan.reason = SKIPPED, reason
    return plan


def plan_experiment(experiment, devices, graph) -> list[PlannedRun]:
    """Every run of an experiment on one graph, methods first, then peers.

    Examples
    --------
    >>> from warpath.benchmark.suite import load_suite
    >>> import warpath
    >>> quick = load_suite("quick").experiments[0]
    >>> g = warpath.generators.grid(4, 4, seed=0)
    >>> len(plan_experiment(quick, ("cpu",), g)) > 0
    True
    """
    plans = []
    for spec in experiment.methods:
        plans.extend(plan_method(spec, experiment.problem, devices, graph))
    plans.extend(plan_peer(spec, experiment.problem, graph, devices) for spec in experiment.peers)
    return plans


def only_on(plans: list, device) -> list:
    """``plans`` with every runnable run on another device than ``device`` SKIPPED
    (``--only-device``; ``None`` keeps them all).  A library peer runs on the CPU, a GPU
    peer program on ``cuda``.

    Examples
    --------
    >>> plans = [PlannedRun("a@cpu", "method", "a", "cpu"),
    ...          PlannedRun("a@cuda", "method", "a", "cuda")]
    >>> [(p.label, p.status) for p in only_on(plans, "cuda")]
    [('a@cpu', 'SKIPPED'), ('a@cuda', None)]
    >>> plans[0].reason
    'not run this time: --only-device cuda'
    """
    if device is None:
        return plans
    for plan in plans:
        if plan.status is None and plan.device != device:
            plan.status, plan.reason = SKIPPED, ONLY_DEVICE.format(device=device)
    return plans


def left_out_by_only_device(run: dict) -> bool:
    """Whether a run record was skipped by ``--only-device`` (:func:`only_on`).

    Examples
    --------
    >>> left_out_by_only_device({"status": SKIPPED, "reason": ONLY_DEVICE.format(device="cuda")})
    True
    >>> left_out_by_only_device({"status": SKIPPED, "reason": "over --max-edges 10"})
    False
    """
    prefix = ONLY_DEVICE.split("{")[0]
    return run.get("status") == SKIPPED and (run.get("reason") or "").startswith(prefix)
