"""The worked example of docs/architecture.md ("How a method plugs in") runs and is right."""

import re
from pathlib import Path

import numpy as np
import scipy.sparse.csgraph as csgraph

import warpath

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def _example_code() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### How a method plugs in"):]
    return re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)


def test_worked_example_matches_scipy():
    namespace = {}
    exec(compile(_example_code(), str(DOC), "exec"), namespace)
    solve = namespace["frontier_bellman_ford"]
    for graph in (warpath.generators.grid(6, 6, seed=1),
                  warpath.generators.with_negative_weights(warpath.generators.random(30, 90,
                                                                                     seed=2),
                                                           seed=3)):
        for loop in ("fast", "paper"):
            result = solve(graph, 0, loop=loop)
            expected = csgraph.bellman_ford(graph.to_scipy(), indices=0)
            np.testing.assert_allclose(result.distances, expected)
            assert result.path(int(np.flatnonzero(np.isfinite(expected))[-1]))[0] == 0
