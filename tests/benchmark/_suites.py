"""Helpers for the benchmark tests: tiny suite texts."""

TINY = '''
name = "tiny"
title = "Tiny"
[graphs.grid]
generator = "grid"
params = {{ rows = 6, cols = 7 }}
[graphs.ring]
generator = "ring"
params = {{ n = 30 }}
[[experiments]]
id = "sssp"
problem = "sssp"
graphs = ["grid", "ring"]
methods = {methods}
peers = {peers}
baseline = "dijkstra@cpu"
sources = 3
repeat = 2
{extra}
'''


def tiny_suite(methods='["dijkstra@cpu"]', peers='["scipy-dijkstra"]', extra=""):
    """The text of a two-graph SSSP suite with these methods and peers."""
    return TINY.format(methods=methods, peers=peers, extra=extra)


def tiny_gpu_suite_text():
    """The tiny suite with a CPU baseline and one GPU method (harish), at sizes the CUDA
    simulator runs in seconds: one source, one repetition."""
    return (tiny_suite(methods='["dijkstra@cpu", "harish@cuda"]', peers="[]")
            .replace("rows = 6, cols = 7", "rows = 3, cols = 3")
            .replace("n = 30", "n = 6").replace("sources = 3", "sources = 1")
            .replace("repeat = 2", "repeat = 1"))
