"""The theorems ``gorules prove``, ``gorules verify``, the benchmark and the notebooks know,
in order: the source's three, then those proved through CNF.

Each is a :class:`proofs.theorem.Theorem` built in its own module; registering one is a line
in :data:`THEOREMS` (and the import of its module).  ``proofs/README.md`` says how to add one.
"""

from __future__ import annotations

from gorules.proofs import (
    automorphism,
    capture_exclusive,
    capture_locality,
    clear_characterization,
    colour_symmetry,
    move_definedness,
    score_bound,
    well_formedness,
    well_formedness_cnf,
)
from gorules.proofs.extras import CnfProof
from gorules.proofs.theorem import Theorem

THEOREMS: tuple[Theorem, ...] = (
    well_formedness.THEOREM,
    move_definedness.THEOREM,
    clear_characterization.THEOREM,
    well_formedness_cnf.THEOREM,
    capture_locality.THEOREM,
    capture_exclusive.THEOREM,
    colour_symmetry.THEOREM,
    automorphism.THEOREM,
    score_bound.THEOREM,
)

BY_NAME: dict[str, Theorem] = {t.name: t for t in THEOREMS}
SEED_THEOREMS: tuple[str, ...] = tuple(t.name for t in THEOREMS if t.from_source)


def theorem(name: str) -> Theorem:
    """The named theorem; a KeyError naming the known ones if there is none."""
    if name not in BY_NAME:
        raise KeyError(f"unknown theorem {name!r}; known: {', '.join(BY_NAME)}")
    return BY_NAME[name]


def names() -> list[str]:
    """Every theorem's name, in order (the source's first)."""
    return list(BY_NAME)


def seed_theorems() -> tuple[Theorem, ...]:
    """The theorems the source states (``002_8835c2492dce8849.txt``, "Theorems and thoughts")."""
    return tuple(t for t in THEOREMS if t.from_source)


def cnf_theorems() -> tuple[Theorem, ...]:
    """The theorems proved through CNF (``proofs/extras.py``)."""
    return tuple(t for t in THEOREMS if isinstance(t.method, CnfProof))
