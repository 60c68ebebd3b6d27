"""The theorems ``gorules prove`` knows, by name: each name maps to a module.

A theorem module provides ``NAME``, ``STATEMENT``, ``STATEMENT_AS_WRITTEN``, ``MUTANTS``
(the mutants it must refute) and ``prove(graph, as_written=False, encoding="ranked",
mutant=None, timeout=None, **options) -> ProofResult``, where ``graph`` is a Graph, a
graph string, or a :class:`proofs.graphs.SymbolicGraph` (every graph on N vertices).
Add a theorem by adding a line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

THEOREMS: dict[str, str] = {
    "well-formedness": "gorules.proofs.well_formedness",
    "move-definedness": "gorules.proofs.move_definedness",
    "clear-characterization": "gorules.proofs.clear_characterization",
    "capture-locality": "gorules.proofs.capture_locality",
    "capture-exclusive": "gorules.proofs.capture_exclusive",
    "colour-symmetry": "gorules.proofs.colour_symmetry",
    "automorphism": "gorules.proofs.automorphism",
    "score-bound": "gorules.proofs.score_bound",
    "well-formedness-step-cnf": "gorules.proofs.well_formedness_cnf",
}

SEED_THEOREMS = ("well-formedness", "move-definedness", "clear-characterization")


def theorem(name: str) -> ModuleType:
    """The module that states and proves the named theorem."""
    if name not in THEOREMS:
        raise KeyError(f"unknown theorem {name!r}; known: {', '.join(THEOREMS)}")
    return importlib.import_module(THEOREMS[name])


def names() -> list[str]:
    """Every theorem's name, seed theorems first."""
    return list(THEOREMS)
