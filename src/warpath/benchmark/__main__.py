"""``python -m warpath.benchmark SUITE ...``: the same as ``warpath bench SUITE ...``."""

import sys

from ..cli import main as warpath_main


def main(argv=None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``) and run the benchmark; returns the exit code.

    Examples
    --------
    >>> main(["--list"])  # doctest: +ELLIPSIS
    agarwal...
    0
    """
    return warpath_main(["bench", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
