"""Every Examples section in warpath's docstrings runs and gives what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import warpath


def _modules():
    # ``_warpath_nx`` (networkx's light entry point for the backend) lives beside ``warpath``.
    names = ["_warpath_nx"]
    for info in pkgutil.walk_packages(warpath.__path__, prefix="warpath."):
        if not info.name.endswith("__main__"):  # importing it would run the CLI
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, extraglobs={"np": __import__("numpy")}):
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} doctest examples failed in {name}"
