"""Suite files: the bundled ones load, and every kind of mistake is a SuiteError naming it."""

import pytest

from benchmark._suites import tiny_suite
from warpath.benchmark.suite import (SuiteError, available_suites, find_suite, load_suite,
                                     parse_suite)


@pytest.mark.parametrize("name", ["hbf", "okuyama", "harish", "safari", "agarwal", "quick"])
def test_bundled_suites_load(name):
    suite = load_suite(name)
    assert suite.name == name
    assert suite.experiments
    for experiment in suite.experiments:
        assert set(experiment.graphs) <= set(suite.graphs)


def test_bundled_suites_are_listed():
    assert {"hbf", "okuyama", "harish", "safari", "agarwal", "quick"} <= set(available_suites())


def test_suite_by_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(tiny_suite())
    suite = load_suite(str(path))
    assert suite.name == "tiny" and suite.root == str(tmp_path.resolve())


def test_unknown_suite_name_lists_the_known_ones():
    with pytest.raises(SuiteError, match="unknown suite 'nope'.*quick"):
        find_suite("nope")


def test_missing_suite_file():
    with pytest.raises(SuiteError, match="does not exist"):
        find_suite("/no/such/suite.toml")


@pytest.mark.parametrize("text, message", [
    ("name = ", "invalid TOML"),
    (tiny_suite().replace('title = "Tiny"', 'titel = "Tiny"'), "unknown key.*'titel'"),
    (tiny_suite().replace('graphs = ["grid", "ring"]', 'graphs = ["grid", "road"]'),
     "graph 'road', which \\[graphs\\] does not define"),
    (tiny_suite().replace('problem = "sssp"', 'problem = "tsp"'), "problem must be one of"),
    (tiny_suite().replace('generator = "ring"', 'generator = "ring"\nfile = "x.gr"'),
     "exactly one of 'file' or 'generator'"),
    (tiny_suite().replace('generator = "ring"', 'generator = "torus"'),
     "unknown generator 'torus'"),
    (tiny_suite(peers='["boost-dijkstra"]'), "unknown peer 'boost-dijkstra'"),
    (tiny_suite(methods='["dijkstra@tpu"]'), "device must be one of"),
    (tiny_suite(methods='[]', peers='[]'), "runs nothing"),
    (tiny_suite(methods='["dijkstra@cpu", "dijkstra@cpu"]'), "share a label"),
    (tiny_suite().replace("repeat = 2", "repeat = 0"), "'repeat' .* at least 1"),
    (tiny_suite().replace("sources = 3", "sources = 2.5"), "'sources' .* integer"),
    (tiny_suite(extra='plot = "pie"'), "plot must be one of"),
    (tiny_suite().replace("params = { n = 30 }", "params = { n = 30 }\nquick = { m = 3 }"),
     "'quick' overrides \\['m'\\]"),
    (tiny_suite(extra='[experiments.paper_table]\ncolumns = ["a", "b"]\nrows = [["1"]]'),
     "1 cells for 2 columns"),
    ('name = "x"', "needs \\[\\[experiments\\]\\]"),
])
def test_mistakes_are_named(text, message):
    with pytest.raises(SuiteError, match=message):
        parse_suite(text, path="bad.toml")


def test_error_names_the_file():
    with pytest.raises(SuiteError, match="^bad.toml: "):
        parse_suite("name = ", path="bad.toml")


def test_method_specs():
    suite = parse_suite(tiny_suite(
        methods='["dijkstra", "edge-bf@cuda", {name = "locality", device = "cuda", '
                'options = {k = 3}}, {name = "hbf", device = "cuda", label = "H-BF"}]'))
    labels = [m.label for m in suite.experiments[0].methods]
    assert labels == ["dijkstra", "edge-bf@cuda", "locality@cuda k=3", "H-BF"]
    assert suite.experiments[0].methods[2].options == {"k": 3}


def test_defaults_and_quick_tables_apply():
    text = tiny_suite().replace("sources = 3\nrepeat = 2\n", "").replace(
        'title = "Tiny"', 'title = "Tiny"\n[defaults]\nrepeat = 5\nsources = 7\n'
        '[quick]\nrepeat = 1\nsources = 2')
    experiment = parse_suite(text).experiments[0]
    assert (experiment.repeat, experiment.sources) == (5, 7)
    assert (experiment.quick_repeat, experiment.quick_sources) == (1, 2)
