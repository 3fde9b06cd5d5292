"""The scripts of ``bench/`` loaded as modules for their tests (they are not a package)."""

import importlib.util
from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]


def load_bench_script(name: str):
    """``bench/<name>.py`` as a fresh module named ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
