"""``python -m warpath.benchmark SUITE ...``: the same as ``warpath bench SUITE ...``."""

import argparse
import sys

from .command import configure, run


def main(argv=None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``) and run the benchmark; returns the exit code.

    Examples
    --------
    >>> main(["--list"])  # doctest: +ELLIPSIS
    agarwal...
    0
    """
    parser = argparse.ArgumentParser(prog="python -m warpath.benchmark")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
