"""Where a benchmark ran: machine, CPU, GPU, library versions, date and source commit.

Examples
--------
>>> info = describe_environment()
>>> sorted(info)[:3]
['cpu', 'date', 'git_commit']
"""

from __future__ import annotations

import datetime
import importlib
import os
import platform
import subprocess
from pathlib import Path

LIBRARIES = ("warpath", "numpy", "scipy", "numba", "numba_cuda", "networkx", "igraph",
             "rustworkx", "networkit", "matplotlib")


def cpu_model() -> str:
    """The CPU's model name (from ``/proc/cpuinfo`` on Linux) and its logical core count.

    Examples
    --------
    >>> "logical cores" in cpu_model()
    True
    """
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{name}, {os.cpu_count()} logical cores"


def memory_total() -> str | None:
    """Total RAM as ``/proc/meminfo`` says, or ``None``.

    Examples
    --------
    >>> memory_total() is None or memory_total().endswith("GiB")
    True
    """
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                kib = int(line.split()[1])
                return f"{kib / 2**20:.1f} GiB"
    except (OSError, ValueError):
        pass
    return None


def gpu_description() -> dict:
    """The GPU warpath would use: name, compute capability, memory, driver; or why none.

    Examples
    --------
    >>> "usable" in gpu_description()
    True
    """
    from ..device import gpu_status
    from .timing import cuda_simulated

    usable, reason = gpu_status()
    info = {"usable": usable, "description": reason, "simulated": cuda_simulated()}
    if not usable or cuda_simulated():
        return info
    try:
        from numba import cuda

        device = cuda.get_current_device()
        info["compute_capability"] = ".".join(map(str, device.compute_capability))
        free, total = cuda.current_context().get_memory_info()
        info["memory_bytes"] = int(total)
        info["driver"] = ".".join(map(str, cuda.cudadrv.driver.driver.get_version()))
    except Exception as exc:  # a partial description beats none
        info["error"] = f"{type(exc).__name__}: {exc}"
    return info


def library_versions() -> dict:
    """Versions of warpath, its dependencies and the peers (``None`` when not installed).

    Examples
    --------
    >>> library_versions()["numpy"] is not None
    True
    """
    versions = {}
    for name in LIBRARIES:
        try:
            module = importlib.import_module(name)
            versions[name] = str(getattr(module, "__version__", "?"))
        except ImportError:
            versions[name] = None
        except Exception as exc:  # a broken optional install must not stop the benchmark
            versions[name] = f"unusable: {type(exc).__name__}"
    return versions


def git_commit() -> str | None:
    """The commit of the source checkout (with ``+dirty`` for local changes), or ``None``.

    Examples
    --------
    >>> git_commit() is None or len(git_commit()) >= 40
    True
    """
    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10)
        if commit.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True, timeout=10)
        return commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def describe_environment() -> dict:
    """Everything above, plus host name, OS, Python and the UTC date, as one JSON-ready dict.

    Examples
    --------
    >>> describe_environment()["python"].count(".") == 2
    True
    """
    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(), "os": platform.platform(),
            "python": platform.python_version(), "cpu": cpu_model(), "memory": memory_total(),
            "gpu": gpu_description(), "versions": library_versions(), "git_commit": git_commit()}
