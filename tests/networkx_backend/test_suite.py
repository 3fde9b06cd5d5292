"""The tally of networkx's dispatch log: calls run by warpath and calls networkx ran instead."""

import logging

from warpath.networkx_backend.suite import DispatchTally, shortest_path_names


def _log(tally, message, *args):
    tally.handle(logging.LogRecord("networkx.utils.backends", logging.DEBUG, __file__, 1, message,
                                   args, None))


def test_tally_counts_runs_and_each_kind_of_fallback():
    tally = DispatchTally()
    _log(tally, "Using backend '%s' for call to '%s' with arguments: %s", "warpath", "johnson", "()")
    _log(tally, "Using backend '%s' for call to '%s' with arguments: %s", "warpath", "johnson", "()")
    _log(tally, "Falling back to use 'networkx' instead of '%s' backend for call to '%s' with "
                "arguments: %s", "warpath", "astar_path", "()")
    _log(tally, "Graph conversion failed; falling back to use 'networkx' instead of '%s' backend "
                "for call to '%s'", "warpath", "johnson")
    _log(tally, "Using backend '%s' for call to '%s' with arguments: %s", "warpath", "has_path", "()")
    _log(tally, "Backend '%s' raised when calling '%s': %s; falling back to use 'networkx' "
                "instead.", "warpath", "has_path", "boom")
    assert tally.ran == {"johnson": 2, "has_path": 0}
    assert tally.fell_back == {"astar_path": 1, "johnson": 1, "has_path": 1}
    report = tally.report({"johnson", "astar_path", "has_path"})
    assert "warpath ran 2 calls, networkx ran 3 (fell back)" in report
    assert "  has_path: 1 x raised NotImplementedError: boom" in report


def test_tally_keeps_can_run_reasons():
    tally = DispatchTally()
    _log(tally, "Backend '%s' can't run `%s` with arguments: %s%s", "warpath", "dijkstra_path",
         "()", ", because: weight is a function")
    _log(tally, "Falling back to use 'networkx' instead of '%s' backend for call to '%s' with "
                "arguments: %s", "warpath", "dijkstra_path", "()")
    _log(tally, "Backend '%s' can't run `%s` with arguments: %s%s", "other", "dijkstra_path",
         "()", ", because: not ours")
    assert tally.reasons == {("dijkstra_path", "weight is a function"): 1}
    assert tally.report({"dijkstra_path"}).splitlines()[-1] == \
        "  dijkstra_path: 1 x weight is a function"


def test_real_dispatch_is_counted():
    import networkx as nx

    tally = DispatchTally()
    logger = logging.getLogger("networkx.utils.backends")
    logger.addHandler(tally)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        nx.single_source_dijkstra(nx.path_graph(3), 0, backend="warpath")
    finally:
        logger.removeHandler(tally)
        logger.setLevel(level)
    assert tally.ran["single_source_dijkstra"] == 1
    assert "single_source_dijkstra" in shortest_path_names()
