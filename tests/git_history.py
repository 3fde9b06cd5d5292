"""For tests that need this checkout's git history: skip cleanly where there is none.

An sdist or a tarball has no ``.git``; unpacked inside another repository, ``git`` would
even answer for that one.  So a test that reads earlier revisions asks here whether the
tests' own tree is the top of a git checkout whose HEAD holds the files it needs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def missing_history(root: Path, *paths: str) -> str | None:
    """Why ``root`` cannot serve git revisions of ``paths``, or ``None`` when it can."""
    if shutil.which("git") is None:
        return "git is not installed"
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True,
                         text=True)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != Path(root).resolve():
        return f"{root} is not a git checkout (an sdist or a tarball?)"
    for path in paths:
        if subprocess.run(["git", "cat-file", "-e", f"HEAD:{path}"], cwd=root,
                          capture_output=True).returncode != 0:
            return f"the checkout's HEAD has no {path}"
    return None


def needs_git_history(*paths: str, root: Path = ROOT):
    """A ``skipif`` mark for tests that read ``paths`` from git revisions of ``root``."""
    reason = missing_history(root, *paths)
    return pytest.mark.skipif(reason is not None, reason=reason or "")
