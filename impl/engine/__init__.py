"""The engine: the source's move on bitsets, games in progress (ko rules, undo, playouts),
Benson's unconditional life and the Tromp–Taylor options as the engine uses them.

``gorules.impl.engine`` also stands for the engine's function API (the names of
``spec.rules.Rules``: ``move``, ``clear``, ``reaches``...), looked up in
:mod:`gorules.impl.engine.rules` when first asked for.
"""

from gorules.impl import room_attributes

__getattr__ = room_attributes(__name__, "gorules.impl.engine.rules")
