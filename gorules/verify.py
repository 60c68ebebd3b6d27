"""The registry behind ``gorules verify``: every check, run on its embedded default.

A check says what should hold (a theorem proved, a mutant refuted, a count equal to a
published figure, spec and engine agreeing) and reports whether it did.  ``verify``
passes only if every check passes.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import gorules.checks


@dataclass
class Outcome:
    """What a check found: whether it passed, and a short human-readable result."""

    passed: bool
    result: str
    detail: dict = field(default_factory=dict)
    not_run: bool = False  # a real component the check needs is not installed: shown, not passed


def not_run(reason: str) -> Outcome:
    """The outcome of a check that could not run here (e.g. GNU Go is not installed)."""
    return Outcome(False, f"not run: {reason}", not_run=True)


@dataclass
class Check:
    """A named check on a graph; ``run`` does the work and returns an Outcome."""

    name: str
    graph: str
    run: Callable[[], Outcome]
    group: str = ""


@dataclass
class Report:
    """One row of the verification table."""

    check: str
    graph: str
    passed: bool
    result: str
    seconds: float
    group: str = ""
    detail: dict = field(default_factory=dict)
    not_run: bool = False


def registered_checks() -> list[Check]:
    """All checks of all modules in ``gorules.checks``, in module order."""
    found = []
    for module in sorted(pkgutil.iter_modules(gorules.checks.__path__), key=lambda m: m.name):
        found.extend(importlib.import_module(f"gorules.checks.{module.name}").checks())
    return found


GROUP_RULESETS: dict[str, tuple[str, ...]] = {
    "count": ("tromp-taylor",),
    "engine": ("tromp-taylor",),
    "engines": ("tromp-taylor",),
    "errata": ("tromp-taylor",),
    "proofs": ("tromp-taylor",),
    "replay": ("tromp-taylor",),
    "solve": ("tromp-taylor",),
    "directed": ("directed",),
}
"""The groups of checks about one ruleset's source: Tromp–Taylor's formalisation (its proofs,
errata, counts, engine and replay, on directed graphs too) and source 000's game.  The checks
of the other groups (interface, rulesets, spec) name the rulesets they concern."""

SOURCE_RULESETS = {"source 003": ("ultimate", "fundamental"), "ultimate.md": ("ultimate", "fundamental")}
"""Names that stand in a check's name for the rulesets of a source."""


def concerned(check: Check, known: list[str]) -> set[str]:
    """The rulesets (of ``known``) a check concerns: its group's, or those its name names
    (a spec module's name with ``_`` read as ``-``); Tromp–Taylor when it names none."""
    if check.group in GROUP_RULESETS:
        return set(GROUP_RULESETS[check.group])
    text = check.name.lower().replace("_", "-")
    named = {name for name in known if name in text}
    named |= {name for phrase, names in SOURCE_RULESETS.items() if phrase in text for name in names}
    return named or {"tromp-taylor"}


def run_check(check: Check) -> Report:
    """Run one check, timing it; an exception is a failed check, never a crash of verify."""
    start = time.perf_counter()
    try:
        outcome = check.run()
    except Exception as error:  # a broken check must show up as a failing row
        outcome = Outcome(False, f"error: {type(error).__name__}: {error}")
    seconds = time.perf_counter() - start
    return Report(
        check.name, check.graph, outcome.passed, outcome.result, seconds, check.group, outcome.detail, outcome.not_run
    )
