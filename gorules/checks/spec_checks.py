"""Checks of the executable spec itself: its markdown and code agree."""

from __future__ import annotations

from gorules.spec.literate import compare
from gorules.verify import Check, Outcome

LITERATE_RULESETS = ("tromp_taylor", "directed", "topological", "ultimate", "political")


def literate_check(ruleset: str) -> Check:
    """spec/<ruleset>.md and spec/<ruleset>.py define the same things in the same order."""

    def run() -> Outcome:
        problems = compare(ruleset)
        if problems:
            return Outcome(False, problems[0], {"problems": problems})
        return Outcome(True, "markdown = code")

    return Check(f"spec {ruleset}.md mirrors .py", "-", run, "spec")


def checks() -> list[Check]:
    """The literate agreement of every ruleset written so far."""
    return [literate_check(r) for r in LITERATE_RULESETS]
