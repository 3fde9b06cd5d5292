"""The backend_info entry point: plain data, importable without warpath or numba."""

import subprocess
import sys

import networkx as nx

from _warpath_nx import FUNCTIONS, get_info


def test_info_names_every_function_and_the_device_setting():
    info = get_info()
    assert info["backend_name"] == "warpath" and info["default_config"] == {"device": "auto"}
    assert set(info["functions"]) == set(FUNCTIONS)
    assert all(name in nx.utils.backends._registered_algorithms for name in FUNCTIONS)


def test_importing_it_loads_neither_warpath_nor_numba():
    code = ("import sys, _warpath_nx; _warpath_nx.get_info(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('warpath', 'numba')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": ":".join(sys.path)})
    assert out.stdout.strip() == "[]"
