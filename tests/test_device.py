"""Device selection."""

import pytest

from warpath import DeviceError, MethodNotAvailable
from warpath import device as device_module
from warpath.device import resolve_device


def test_cpu_is_always_cpu():
    assert resolve_device("cpu", "sssp", "auto") == "cpu"
    assert resolve_device("cpu", "sssp", "dijkstra") == "cpu"


def test_cpu_only_method_runs_on_cpu_under_auto():
    assert resolve_device("auto", "sssp", "dijkstra") == "cpu"


def test_unknown_device_and_method():
    with pytest.raises(ValueError, match="device must be"):
        resolve_device("tpu", "sssp", "auto")
    with pytest.raises(MethodNotAvailable, match="no sssp method 'nope'"):
        resolve_device("auto", "sssp", "nope")


def test_auto_falls_back_to_cpu_and_cuda_explains_without_gpu(monkeypatch):
    monkeypatch.setattr(device_module, "gpu_status", lambda: (False, "no CUDA GPU was found"))
    assert resolve_device("auto", "sssp", "auto") == "cpu"
    with pytest.raises(DeviceError, match="no CUDA GPU was found"):
        resolve_device("cuda", "sssp", "auto")


def test_gpu_status_reports_a_reason():
    usable, reason = device_module.gpu_status()
    assert isinstance(usable, bool) and reason


def test_no_driver_is_found_without_importing_numba_cuda(monkeypatch):
    """Without an NVIDIA driver on Linux the answer comes from the file system (importing
    numba-cuda costs a third of a second of every small command)."""
    monkeypatch.setattr(device_module, "simulated", lambda: False)
    monkeypatch.setattr(device_module.sys, "platform", "linux")
    monkeypatch.setattr(device_module.os.path, "exists", lambda path: False)
    reason = device_module._no_driver_reason()
    assert reason.startswith("no NVIDIA driver was found") and "/dev/nvidiactl" in reason
    monkeypatch.setattr(device_module.os.path, "exists", lambda path: path == "/dev/nvidia0")
    assert device_module._no_driver_reason() is None


def test_the_simulator_is_always_asked(monkeypatch):
    monkeypatch.setattr(device_module, "simulated", lambda: True)
    assert device_module._no_driver_reason() is None
