"""``python -m warpath ...``: the same as the ``warpath`` command (see :mod:`warpath.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
