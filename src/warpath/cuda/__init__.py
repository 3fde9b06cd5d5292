"""Shared GPU machinery for warpath's CUDA methods (numba-cuda).

Each module does one job, so that the SSSP, BFS and APSP methods reuse it
rather than copy it:

- :mod:`~warpath.cuda.runtime`: is this the CUDA simulator, launch shapes,
  cooperative grid sizes.
- :mod:`~warpath.cuda.device_graph`: :class:`DeviceGraph`, the CSR arrays
  uploaded once per :class:`~warpath.Graph` (or taken from CuPy / PyTorch
  arrays already on the GPU) and reused by every query.
- :mod:`~warpath.cuda.distances`: the distance type rules on the device
  (int32/int64/float32/float64), infinity, initialisation, the negative-cycle floor.
- :mod:`~warpath.cuda.atomics`: the relax step (``atomicMin`` that reports
  whether it lowered the distance).
- :mod:`~warpath.cuda.flags`: convergence flags that a persistent loop can
  reset without a race, and vertex flag arrays.
- :mod:`~warpath.cuda.counters`: device counters (iterations, relaxations)
  gathered per block, and the host-side launch / host-sync tally.
- :mod:`~warpath.cuda.frontier`: frontier queues with warp-aggregated enqueue.
- :mod:`~warpath.cuda.loops`: the host drivers (one launch per step with a
  flag read back, or checked every k launches) and the persistent-loop helpers.
- :mod:`~warpath.cuda.predecessors`: the predecessor recording pass.
- :mod:`~warpath.cuda.negative_cycle`: recovering a negative cycle once the
  GPU has detected one.
- :mod:`~warpath.cuda.sssp_run`: the per-query state of a GPU SSSP method and
  how it ends (result, predecessors, or NegativeCycleError).

Nothing here is imported by ``import warpath``: the methods import these
modules when they run, so warpath works without numba-cuda installed.
"""
