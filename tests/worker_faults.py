"""A Dask worker plugin that kills its worker process after it finishes its first batch.

In its own module (importable by name from ``tests/``) so that the worker processes,
which get the test run's ``sys.path``, can unpickle it.
"""

import os
import signal

from distributed import WorkerPlugin


class KillAfterFirstBatch(WorkerPlugin):
    """SIGKILL the first worker that holds a finished ``warpath-batch`` result.

    ``flag`` is a file created atomically by the worker that dies, so only one dies
    (the nanny restarts it, and the plugin is set up again on the new process).
    The batch it held is lost with it and must be recomputed.
    """

    name = "kill-after-first-batch"

    def __init__(self, flag):
        self.flag = flag

    def transition(self, key, start, finish, **kwargs):
        if finish != "memory" or not str(key).startswith("warpath-batch"):
            return
        try:
            os.close(os.open(self.flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os.kill(os.getpid(), signal.SIGKILL)
