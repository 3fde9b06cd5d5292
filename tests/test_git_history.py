"""tests/git_history.py: tests that need git history skip cleanly outside a git checkout."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from git_history import ROOT, missing_history

import warpath

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd,
                   check=True, capture_output=True)


def _tarball_inside_another_repository(tmp_path) -> Path:
    """The tree as an sdist unpacks it (no .git), inside an unrelated repository with commits."""
    outer = tmp_path / "outer"
    outer.mkdir()
    _git("init", "-q", cwd=outer)
    _git("commit", "-q", "--allow-empty", "-m", "unrelated", cwd=outer)
    tree = outer / "warpath-0.1.0"
    for name in ("tests/test_bench_ab_dijkstra.py", "tests/git_history.py",
                 "tests/bench_scripts.py", "bench/ab_dijkstra.py", "bench/_timer.py"):
        if (ROOT / name).exists():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, tree / name)
    return tree


def test_this_checkout_has_history_when_it_is_one():
    reason = missing_history(ROOT, "src/warpath/sssp/dijkstra.py")
    assert reason is None or "not a git checkout" in reason


def test_a_tarball_inside_another_repository_is_not_a_checkout(tmp_path):
    tree = _tarball_inside_another_repository(tmp_path)
    assert "not a git checkout" in missing_history(tree, "src/warpath/sssp/dijkstra.py")
    lone = tmp_path / "lone"
    lone.mkdir()
    assert "not a git checkout" in missing_history(lone)


def test_the_history_test_skips_in_a_tarball_instead_of_failing(tmp_path):
    """Issue 10: in an sdist the A/B test that checks out an older commit must skip."""
    tree = _tarball_inside_another_repository(tmp_path)
    src = Path(warpath.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), str(tree / "tests")]))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--import-mode=importlib", "-rs", "--rootdir", str(tree),
                           str(tree / "tests" / "test_bench_ab_dijkstra.py")],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 skipped" in done.stdout and "not a git checkout" in done.stdout, done.stdout
