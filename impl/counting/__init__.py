"""Counting: legal positions, games under each ko rule, the longest game, transfer matrices
for strips and cycles, and the game graphs of small boards.

``gorules.impl.counting`` also gives the names of the legal-position counter
(:mod:`gorules.impl.counting.positions`), looked up when first asked for.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    """A submodule of this room, or else a name of :mod:`gorules.impl.counting.positions`, imported
    when first asked for."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
    return getattr(importlib.import_module("gorules.impl.counting.positions"), name)
