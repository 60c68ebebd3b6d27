"""The engine: the source's move on bitsets, games in progress (ko rules, undo, playouts),
Benson's unconditional life and the Tromp–Taylor options as the engine uses them.

``gorules.impl.engine`` also stands for the engine's function API (the names of
``spec.api.Rules``: ``move``, ``clear``, ``reaches``...), looked up in
:mod:`gorules.impl.engine.rules` when first asked for.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    """A submodule of this room, or else a name of :mod:`gorules.impl.engine.rules`, imported
    when first asked for."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
    return getattr(importlib.import_module("gorules.impl.engine.rules"), name)
