"""Checks of the errata: each literal reading that fails is caught failing, each corrected
statement holds, on the small graphs of ``gorules errata`` (a few seconds each)."""

from __future__ import annotations

from gorules.verify import Check, Outcome

# The expected verdicts: (as written, corrected) for each statement of the source.
EXPECTED = {
    "reaches": ("fails", "holds"),
    "reaches-fixed-point": ("fails", "holds"),
    "clear": ("fails", "holds"),
    "move": ("fails", "holds"),
    "score": ("fails", "holds"),
    "well-formed-iff-occurs": ("holds", "holds"),
    "move-definedness": ("fails", "holds"),
    "one-step-clearing": ("fails", "holds"),
    "one-step-no-capture-condition": ("holds", "holds"),
    "states-unique": ("holds", "holds"),
    "winner-of-g": ("fails", "holds"),
}


def finding(key: str):
    """One row of the errata table on its default bounds (computed once per run)."""
    from gorules.errata.graphs import QUICK
    from gorules.errata.rows import errata_row

    return errata_row(key, QUICK)


def as_written_check(key: str, expected: str) -> Check:
    """The statement as written fails (with a counterexample) or holds, as expected."""

    def run() -> Outcome:
        """Do the check."""
        verdict = finding(key).as_written
        if verdict.word != expected:
            return Outcome(False, f"as written {verdict.word}, expected {expected}")
        if verdict.counterexample is not None:
            example = verdict.counterexample
            return Outcome(
                True,
                f"fails on {example.graph.name} board {''.join(example.board)!r}",
                example.to_json(),
            )
        return Outcome(True, f"holds on {verdict.checked} cases")

    verb = "fails" if expected == "fails" else "holds"
    return Check(f"errata {key} as written {verb}", "small graphs", run, "errata")


def corrected_check(key: str) -> Check:
    """The corrected statement holds on everything checked."""

    def run() -> Outcome:
        """Do the check."""
        verdict = finding(key).corrected
        if not verdict.holds:
            example = verdict.counterexample
            return Outcome(False, f"fails on {example.graph.name} board {''.join(example.board)!r}", example.to_json())
        return Outcome(True, f"holds on {verdict.checked} cases")

    return Check(f"errata {key} corrected holds", "small graphs", run, "errata")


def checks() -> list[Check]:
    """For each statement: the as-written verdict, then the corrected one."""
    found = []
    for key, (written, _) in EXPECTED.items():
        found.append(as_written_check(key, written))
        found.append(corrected_check(key))
    return found
