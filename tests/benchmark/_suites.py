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
