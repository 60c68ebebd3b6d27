"""Counting: legal positions, games under each ko rule, the longest game, transfer matrices
for strips and cycles, and the game graphs of small boards.

``gorules.impl.counting`` also gives the names of the legal-position counter
(:mod:`gorules.impl.counting.positions`), looked up when first asked for.
"""

from gorules.impl import room_attributes

__getattr__ = room_attributes(__name__, "gorules.impl.counting.positions")
