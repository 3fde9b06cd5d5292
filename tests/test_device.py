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
