"""A small run of every GPU SSSP and BFS method and loop, for compute-sanitizer (memcheck, racecheck).

    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py
    compute-sanitizer --tool racecheck python bench/gpu_sanitize_small.py
    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py bfs   # BFS methods only
    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py apsp  # many-source only
    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py fill  # full-GPU grids
    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py handover  # Dask rows
    compute-sanitizer --tool racecheck python bench/gpu_sanitize_small.py near-far  # H-BF near-far
    compute-sanitizer --tool memcheck python bench/gpu_sanitize_small.py predecessors  # 0 / < 0

Checks the answers against scipy too, so a silent corruption also fails.
"""

import sys

import numpy as np
import scipy.sparse.csgraph as csgraph

import warpath
from warpath import generators as gen


#: Every method, both loops; hbf with all its optimizations and with each one off.
RUNS = ([(m, {"loop": loop}) for m in ("edge-bf", "edge-bf-flags", "harish", "locality")
         for loop in ("paper", "fast")]
        + [("hbf", o) for o in ({}, {"dedup": False}, {"classify": False},
                                {"coalesced_enqueue": False}, {"virtual_warps": False},
                                {"virtual_warps": True},
                                {"high_degree": 8}, {"trace": True}, {"dense": True},
                                {"dense": 0.001, "dedup": False, "high_degree": 8})])

#: H-BF's near-far buckets (non-negative weights only): default width, a narrow one, a limit.
NEAR_FAR_RUNS = [("hbf", o) for o in ({"near_far": True}, {"near_far": True, "delta": 3},
                                      {"near_far": False}, {"near_far": True, "limit": 40})]

#: Every GPU BFS method and loop; direction-optimizing pushing only, switching, pulling mostly.
BFS_RUNS = ([(m, {"loop": loop}) for m in ("harish", "queue", "direction-optimizing")
             for loop in ("paper", "fast")]
            + [("queue", {"high_degree": 8}), ("queue", {"virtual_warps": "block"}),
               ("direction-optimizing", {"alpha": 0, "virtual_warps": "block"}),
               ("direction-optimizing", {"alpha": 0}),
               ("direction-optimizing", {"alpha": 1e12, "beta": 1e12, "high_degree": 8})])


#: multi-source BFS: the default; pushing only; pulling every round with in-arc segments of
#: one arc, or of 2 arcs with the heavy push queue.
MULTI_SOURCE_RUNS = ({}, {"alpha": 0}, {"alpha": 1e12, "pull_wide": 0},
                     {"alpha": 1e12, "pull_wide": 2, "high_degree": 8})


def check_bfs(graphs):
    """Every GPU BFS method against scipy's unweighted shortest paths; the failures."""
    import scipy.sparse as sp

    failures = 0
    for g in graphs:
        n = g.num_vertices
        unit = sp.csr_array((np.ones(g.num_edges), g.indices, g.indptr), shape=(n, n))
        sources = [0, g.num_vertices // 2, g.num_vertices - 1] * 25  # 75: two batches of 64
        ref = csgraph.shortest_path(unit, unweighted=True, indices=sources)
        ref = np.where(np.isinf(ref), -1, ref)
        for method, options in BFS_RUNS:
            r = warpath.bfs(g, 0, method=method, device="cuda", **options)
            ok = np.array_equal(r.levels, ref[0]) and all(
                len(r.path(t)) == ref[0][t] + 1 for t in np.flatnonzero(ref[0] >= 0))
            failures += not ok
            print(g.num_vertices, "bfs", method, options, "ok" if ok else "WRONG", flush=True)
        for options in MULTI_SOURCE_RUNS:
            m = warpath.bfs(g, sources=sources, method="multi-source", device="cuda", **options)
            ok = np.array_equal(m.levels, ref) and len(m.path(sources[1], 0)) == ref[1][0] + 1
            failures += not ok
            print(g.num_vertices, "bfs multi-source", options, "ok" if ok else "WRONG",
                  flush=True)
    return failures


#: Every GPU many-source / all-pairs method and its main options.
APSP_RUNS = ([("task-parallel", o) for o in ({}, {"group": 4}, {"group": 4, "launch_groups": 1},
                                            {"loop": "paper"}, {"deliver": "host"},
                                            {"near_far": True, "group": 4},
                                            {"near_far": True, "loop": "paper"},
                                            {"item_rows": 8}, {"item_rows": 16, "group": 4},
                                            {"item_rows": 8, "near_far": True},
                                            {"frontier": False}, {"frontier": False,
                                                                  "near_far": True},
                                            {"whole_items": True},
                                            {"whole_items": True, "group": 4,
                                             "loop": "paper"},
                                            {"whole_items": True, "near_far": True,
                                             "delta": 3},
                                            {"whole_items": True, "near_far": True,
                                             "group": 4, "loop": "paper"})]
             + [("repeated-sssp", {}), ("johnson", {}), ("johnson", {"near_far": True}),
                ("johnson", {"item_rows": 8}), ("johnson", {"whole_items": True})]
             + [("floyd-warshall", o) for o in ({}, {"variant": "harish"}, {"dpx": False},
                                                {"tile": 16})])


def check_whole_item_walks(g, ref):
    """multi_source on ``g`` (scipy's rows ``ref``) with the queue of items, and with whole
    items walked one and two at a time (40 rows in one launch: two items a vertex, so
    pairs form), the last also padded with 24 idle rows to 64 (``PAD_SHARE`` 1); the
    failures."""
    from warpath.apsp import gpu_rows, task_parallel

    failures = 0
    kept = task_parallel.WHOLE_ITEM_PAIRS, gpu_rows.PAD_SHARE
    sources = np.arange(40) % g.num_vertices
    for whole, paired, share in ((False, False, kept[1]), (True, False, kept[1]),
                                 (True, True, kept[1]), (True, True, 1)):
        task_parallel.WHOLE_ITEM_PAIRS, gpu_rows.PAD_SHARE = paired, share
        try:
            m = warpath.multi_source(g, sources, method="task-parallel", device="cuda",
                                     group=20, launch_groups=2, predecessors=False,
                                     whole_items=whole)
        finally:
            task_parallel.WHOLE_ITEM_PAIRS, gpu_rows.PAD_SHARE = kept
        ok = np.allclose(m.distances, ref[sources], rtol=1e-6)
        failures += not ok
        print(g.num_vertices, "multi_source task-parallel, whole items", whole, "paired",
              paired, "idle rows", m.stats["idle_rows"], "ok" if ok else "WRONG", flush=True)
    return failures


def check_apsp(graphs):
    """Every GPU APSP method against scipy, paths included; the failures."""
    failures = 0
    for g in graphs:
        ref = csgraph.johnson(g.to_scipy())
        for method, options in APSP_RUNS:
            if method == "task-parallel" and options.get("near_far") and g.min_weight < 0:
                continue  # near-far needs non-negative weights (johnson reweights first)
            r = warpath.apsp(g, method=method, device="cuda", **options)
            ok = np.allclose(r.distances, ref, rtol=1e-6)
            reachable = np.argwhere(np.isfinite(ref))[:50]
            ok = ok and all(len(r.path(int(s), int(t))) > 0 for s, t in reachable)
            failures += not ok
            print(g.num_vertices, "apsp", method, options, "ok" if ok else "WRONG", flush=True)
        failures += check_whole_item_walks(g, ref)
    wide = gen.complete(40, seed=9)   # 39 arcs a vertex: whole items walk two windows
    failures += check_whole_item_walks(wide, csgraph.johnson(wide.to_scipy()))
    cyclic = gen.with_negative_cycle(gen.grid(4, 4, seed=5), seed=6)
    for method, options in (("task-parallel", {}), ("task-parallel", {"whole_items": True}),
                            ("johnson", {}), ("floyd-warshall", {}), ("repeated-sssp", {})):
        try:
            warpath.apsp(cyclic, method=method, device="cuda", **options)
            failures += 1
            print("apsp", method, options, "missed the negative cycle", flush=True)
        except warpath.NegativeCycleError as err:
            print("apsp", method, options, "negative cycle", err.cycle, flush=True)
    return failures


def check_fill():
    """Every SSSP and BFS method and task-parallel on a grid that fills the GPU.

    Persistent grids stay at a few blocks per SM unless a pass is large
    (``runtime.FILL_ITEMS_PER_THREAD``); set to 0, every launch of more items
    than that small grid's threads takes every block that fits, so a
    100K-vertex graph (small enough for the sanitizers) runs the large-graph
    launch shape.  The failures."""
    from warpath.cuda import runtime

    runtime.FILL_ITEMS_PER_THREAD = 0
    g = gen.random(100_000, 400_000, seed=11)
    failures = 0
    ref = csgraph.dijkstra(g.to_scipy(), indices=0)
    for method, options in RUNS:
        if options.get("loop") == "paper":
            continue   # one launch per round: no persistent grid
        r = warpath.sssp(g, 0, method=method, device="cuda", **options)
        ok = np.allclose(r.distances, ref, rtol=1e-6)
        failures += not ok
        print(g.num_vertices, "fill", method, options, "ok" if ok else "WRONG", flush=True)
    sources = [0, 7, 99_999]
    expected = csgraph.dijkstra(g.to_scipy(), indices=sources)
    for whole in (None, False):   # the rule's choice (whole items here), the queue of items
        m = warpath.multi_source(g, sources, method="task-parallel", device="cuda",
                                 whole_items=whole)
        ok = np.allclose(m.distances, expected, rtol=1e-6)
        failures += not ok
        print(g.num_vertices, "fill multi_source task-parallel, whole items",
              m.stats["whole_items"], "ok" if ok else "WRONG", flush=True)
    return failures + check_bfs([g])


def check_handover():
    """warpath.distributed on an in-process GPU worker of two threads: batches solved in turn,
    each one's rows copied on its thread's own stream into the shared files in blocks of
    three rows, while the other thread solves; then rows sent back (transfer="send"), read
    the same way.  The failures."""
    from distributed import Client

    import warpath.distributed as wd

    wd.STAGING_BYTES = 36_000  # blocks of three int32 rows: many copies, the ring reused
    g = gen.random(3000, 18000, seed=14)
    sources = np.arange(0, 3000, 7)
    single = warpath.multi_source(g, sources, device="cuda", predecessors=False)
    with Client(processes=False, n_workers=1, threads_per_worker=2,
                dashboard_address=":0") as client:
        m = wd.multi_source(g, sources, client=client, device="cuda", predecessors=False,
                            batch_size=40, transfer="shared", progress=False)
        sent = wd.multi_source(g, sources, client=client, device="cuda", predecessors=False,
                               batch_size=40, transfer="send", progress=False)
    ok = (np.array_equal(m.distances, single.distances) and m.stats["transfer"] == "shared"
          and np.array_equal(sent.distances, single.distances))
    print(g.num_vertices, "distributed hand-over", m.stats["batches"], "batches",
          "ok" if ok else "WRONG", flush=True)
    return int(not ok)


def check_near_far() -> int:
    """H-BF's near-far runs (a refill or an advance a round) on a grid, a power-law graph
    and a wide random graph (read before the atomic, parks of many lanes of a warp),
    against scipy.  The failures."""
    failures = 0
    for g in (gen.grid(15, 15, seed=9), gen.power_law(300, 3, 30, seed=10),
              gen.random(3000, 30000, seed=11)):
        for method, options in NEAR_FAR_RUNS:
            bound = options.get("limit", np.inf)
            ref = csgraph.dijkstra(g.to_scipy(), indices=0, limit=bound)
            r = warpath.sssp(g, 0, method=method, device="cuda", **options)
            ok = np.allclose(r.distances, ref, rtol=1e-6)
            failures += not ok
            print(g.num_vertices, method, options, "ok" if ok else "WRONG", flush=True)
    return failures


def check_tight_search() -> int:
    """The predecessors of a graph with zero weights and a zero cycle through its hub (the
    search over tight arcs) whose hub has more arcs than the search's heavy threshold
    (expanded by the whole grid), and whose leaves all offer themselves to one sink; then
    the same without the cycle (the offers' pointer jumping).  The failures."""
    from warpath.cuda.predecessors import HEAVY_DEGREE

    leaves = HEAVY_DEGREE + 100
    leaf = np.arange(2, leaves + 2)
    tails = np.concatenate([[0], np.ones(leaves, np.int64), leaf, [leaves + 2]])
    heads = np.concatenate([[1], leaf, np.full(leaves, leaves + 2), [1]])
    failures = 0
    for arcs in (tails.size, tails.size - 1):   # with the cycle, then without
        g = warpath.Graph.from_edges(tails[:arcs], heads[:arcs], np.zeros(arcs, np.int32))
        for method in ("hbf", "edge-bf"):
            r = warpath.sssp(g, 0, method=method, device="cuda")
            ok = (r.distances == 0).all() and all(r.path(t)[0] == 0
                                                  for t in (1, 2, leaves + 2))
            failures += not ok
            print(g.num_vertices, method, "predecessors over a hub", arcs, "arcs",
                  "ok" if ok else "WRONG", flush=True)
    negative = gen.with_negative_weights(gen.rmat(10, 8, seed=15), seed=16)
    ref = csgraph.bellman_ford(negative.to_scipy(), indices=0)
    for method in ("hbf", "edge-bf"):
        r = warpath.sssp(negative, 0, method=method, device="cuda")
        ok = np.array_equal(r.distances, ref) and all(
            r.path(t)[0] == 0 for t in np.flatnonzero(np.isfinite(ref)))
        failures += not ok
        print(negative.num_vertices, method, "predecessors, negative weights",
              "ok" if ok else "WRONG", flush=True)
    return failures


def main(argv):
    graphs = [gen.with_negative_weights(gen.grid(12, 12, seed=1), seed=2),
              gen.rmat(8, 4, seed=3), gen.power_law(400, 4, 40, seed=4, weights="float")]
    bfs_graphs = graphs + [gen.rmat(9, 8, seed=7, directed=False),
                           gen.grid(20, 20, seed=8, directed=False),
                           gen.rmat(11, 16, seed=13, directed=False)]
    if argv[1:] == ["apsp"]:
        failures = check_apsp([gen.with_negative_weights(gen.grid(6, 6, seed=1), seed=2),
                               gen.rmat(6, 4, seed=3),
                               gen.random(50, 400, seed=4, weights="float")])
        print("failures:", failures)
        return 1 if failures else 0
    if argv[1:] == ["fill"]:
        failures = check_fill()
        print("failures:", failures)
        return 1 if failures else 0
    if argv[1:] == ["handover"]:
        failures = check_handover()
        print("failures:", failures)
        return 1 if failures else 0
    if argv[1:] == ["near-far"]:
        failures = check_near_far()
        print("failures:", failures)
        return 1 if failures else 0
    if argv[1:] == ["predecessors"]:
        failures = check_tight_search()
        print("failures:", failures)
        return 1 if failures else 0
    if argv[1:] == ["bfs"]:
        failures = check_bfs(bfs_graphs)
        print("failures:", failures)
        return 1 if failures else 0
    # Small graphs give small frontiers, which the balanced advance hands to virtual warps
    # (operators.BALANCE_FROM); here every frontier is block-balanced, and the runs with
    # virtual_warps=True cover the warps.  (The "fill" mode runs the mix of a larger graph.)
    from warpath.cuda import operators
    operators.BALANCE_FROM = 1 << 30
    failures = 0
    for g in graphs:
        ref = csgraph.bellman_ford(g.to_scipy(), indices=0)
        for method, options in RUNS:
            r = warpath.sssp(g, 0, method=method, device="cuda", **options)
            ok = np.allclose(r.distances, ref, rtol=1e-6) and all(
                len(r.path(t)) > 0 for t in np.flatnonzero(np.isfinite(ref)))
            failures += not ok
            print(g.num_vertices, method, options, "ok" if ok else "WRONG", flush=True)
    failures += check_near_far()
    # A wider graph, for rounds of many chunks (every frontier is block-balanced here: see main).
    wide = gen.rmat(11, 16, seed=12)
    ref = csgraph.dijkstra(wide.to_scipy(), indices=0)
    for options in ({}, {"high_degree": 64}, {"virtual_warps": True}, {"dense": True}):
        r = warpath.sssp(wide, 0, method="hbf", device="cuda", **options)
        ok = np.allclose(r.distances, ref, rtol=1e-6)
        failures += not ok
        print(wide.num_vertices, "wide hbf", options, "ok" if ok else "WRONG", flush=True)
    failures += check_tight_search()
    cyclic = gen.with_negative_cycle(gen.grid(5, 5, seed=5), seed=6)
    for method in ("edge-bf", "edge-bf-flags", "harish", "locality", "hbf"):
        try:
            warpath.sssp(cyclic, 0, method=method, device="cuda")
            failures += 1
        except warpath.NegativeCycleError as err:
            print(method, "negative cycle", err.cycle, flush=True)
    failures += check_bfs(bfs_graphs)
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
