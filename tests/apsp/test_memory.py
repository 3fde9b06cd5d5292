"""warpath.apsp.memory: the estimate against the measured peak, the guard, the chunks."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import warpath
from warpath.apsp import memory

SRC = Path(warpath.__file__).resolve().parents[1]

# Runs in a fresh interpreter: the peak resident memory of one query, over what the process
# held just before (Linux: writing 5 to clear_refs resets VmHWM to the current size).
PEAK_SCRIPT = textwrap.dedent("""
    import gc, json, sys
    sys.path.insert(0, sys.argv[1])
    import warpath
    from warpath.apsp import memory

    def status(field):
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) * 1024 for l in f if l.startswith(field))

    n, method, predecessors, weights, negative = json.loads(sys.argv[2])
    def graph(n, m):
        g = warpath.generators.random(n, m, seed=1, weights=weights)
        return warpath.generators.with_negative_weights(g, seed=1) if negative else g
    g = graph(n, 4 * n)
    warpath.apsp(graph(40, 160), method=method, device="cpu", predecessors=predecessors).distances  # compile
    estimate = memory.estimate(g, method=method, device="cpu", predecessors=predecessors)
    flags = [] if predecessors else ["--no-predecessors"]
    if len(sys.argv) > 3:   # compile the command line's writers too (a fresh checkout has no cache)
        from warpath.cli import main
        small = sys.argv[3] + "/small.gr"
        warpath.write(graph(40, 160), small)
        main(["apsp", small, "-m", method, "--device", "cpu", "-o", sys.argv[3] + "/small" + sys.argv[4]] + flags)
    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    before = status("VmRSS:")
    if len(sys.argv) > 3:   # the command line, writing the matrix: reads it in row blocks
        path = sys.argv[3] + "/g.gr"
        warpath.write(g, path)
        before = status("VmRSS:")
        main(["apsp", path, "-m", method, "--device", "cpu", "-o", sys.argv[3] + "/m" + sys.argv[4]] + flags)
        out = sys.argv[3] + "/m.npy" if sys.argv[4] == ".npy" else None   # written as it runs
        estimate = memory.estimate(g, method=method, device="cpu", predecessors=predecessors,
                                   float_distances=False, out=out)
    else:
        result = warpath.apsp(g, method=method, device="cpu", predecessors=predecessors)
        result.distances
    # The pages of an out= memory map count in the resident size while they are touched,
    # though the kernel may write them back and drop them: the estimate puts them on disk.
    print(json.dumps([status("VmHWM:") - before, estimate.host_bytes + estimate.disk_bytes]))
""")


def measured_peak(n, method, predecessors, weights="int", negative=False, cli=()):
    done = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(SRC),
                           json.dumps([n, method, predecessors, weights, negative]), *cli],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def can_reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


@pytest.mark.skipif(not can_reset_peak(), reason="needs Linux's /proc/self/clear_refs")
@pytest.mark.parametrize("n, method, predecessors, weights, negative", [
    (1200, "johnson", True, "int", False),
    (2400, "johnson", True, "int", True),
    (2400, "repeated-sssp", False, "int", False),
    (2400, "repeated-sssp", True, "float", False),
    (1200, "floyd-warshall", False, "int", False),
    (1500, "floyd-warshall", True, "float", False),
])
def test_estimate_is_within_20_percent_of_the_measured_peak(n, method, predecessors, weights,
                                                            negative):
    peak, estimate = measured_peak(n, method, predecessors, weights, negative)
    assert abs(estimate - peak) <= 0.2 * peak, f"peak {peak:,} B, estimate {estimate:,} B"


@pytest.mark.skipif(not can_reset_peak(), reason="needs Linux's /proc/self/clear_refs")
@pytest.mark.parametrize("suffix", [".npy", ".csv"])
def test_the_command_line_holds_its_peak_to_the_estimate(tmp_path, suffix):
    """``warpath apsp -o`` (summary and file read by row blocks) within 20% of its estimate;
    before, the summary alone added 17 bytes per pair."""
    peak, estimate = measured_peak(2400, "johnson", True, cli=(str(tmp_path), suffix))
    assert abs(estimate - peak) <= 0.2 * peak, f"peak {peak:,} B, estimate {estimate:,} B"


def test_bytes_per_pair_by_method_and_options():
    ints = warpath.generators.grid(20, 20, seed=0)
    floats = warpath.generators.grid(20, 20, seed=0, weights="float")
    pair = 400 * 400

    def per_pair(graph, **kwargs):
        e = memory.estimate(graph, device="cpu", **kwargs)
        return round((e.host_bytes - memory.workspace_bytes(graph)) / pair)

    assert per_pair(ints, method="johnson") == 24           # int64, predecessors, float64 copy
    assert per_pair(ints, method="johnson", float_distances=False) == 16
    assert per_pair(floats, method="johnson") == 16          # the float64 result is read as is
    assert per_pair(floats, method="johnson", predecessors=False) == 8
    assert per_pair(floats, method="floyd-warshall", predecessors=False) == 16


def test_guard_message_names_needs_and_what_helps(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 2**30)
    g = warpath.generators.ring(20_000, seed=0)
    estimate = memory.estimate(g, method="johnson", device="cpu")
    assert not estimate.fits
    with pytest.raises(warpath.MemoryLimitError) as caught:
        estimate.check()
    message = str(caught.value)
    assert message.startswith("apsp by johnson (cpu) on 20,000 vertices needs about 8.9 GiB")
    assert "1.0 GiB is available" in message and "predecessors=False" in message
    assert isinstance(caught.value, MemoryError) and isinstance(caught.value, warpath.WarpathError)
    with pytest.raises(warpath.MemoryLimitError):   # the API checks before any work
        warpath.apsp(g, method="johnson", device="cpu")


def test_a_gpu_method_plugs_in_through_the_registry(monkeypatch):
    """A method's memory= hook adds its own host and GPU bytes to the one rule."""
    calls = []

    def hook(graph, rows, predecessors):
        calls.append((rows, predecessors))
        return memory.matrix_bytes(rows, graph.num_vertices, predecessors), 12345

    warpath.methods.register("multi_source", "doc-gpu-like", "cpu", memory=hook)(lambda *a: None)
    try:
        g = warpath.generators.ring(50, seed=0)
        e = memory.estimate(g, 7, method="doc-gpu-like", device="cpu", problem="multi_source",
                            predecessors=False)
        assert calls == [(7, False)] and e.gpu_bytes == 12345 and e.rows == 7
    finally:
        warpath.methods.unregister("multi_source", "doc-gpu-like", "cpu")


def test_progress_hears_every_chunk_and_the_matrix_is_unchanged():
    g = warpath.generators.random(300, 1200, seed=5)
    for method in ("johnson", "repeated-sssp", "floyd-warshall"):
        heard = []
        matrix = warpath.apsp(g, method=method, device="cpu", progress=lambda done, total: heard.append(
            (done, total)))
        assert heard[-1] == (300, 300) and heard == sorted(heard)
        assert (matrix.distances == warpath.apsp(g, method=method, device="cpu").distances).all()
    assert len(heard) == 2   # floyd-warshall cannot report: the start and the end


def test_chunks():
    assert memory.chunk_rows(1000, 1000) == 10
    assert memory.chunk_rows(10, 10**9) == 1
    seen = []
    memory.in_chunks(7, 7, lambda a, b: seen.append((a, b)))
    assert seen == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]
