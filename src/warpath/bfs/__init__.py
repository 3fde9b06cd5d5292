"""Breadth-first search methods; importing this package registers them all."""

from . import queue  # noqa: F401
