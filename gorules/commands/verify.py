"""``gorules verify``: run every registered check and print one table."""

from __future__ import annotations

import sys

from tqdm import tqdm

from gorules import flags, rulesets
from gorules.errors import UsageError
from gorules.verify import concerned, registered_checks, run_check


def register(subparsers) -> None:
    """Add the ``verify`` subcommand."""
    parser = subparsers.add_parser(
        "verify",
        help="run every check (proofs, errata, fuzzing, counts, solves) and print a table",
    )
    flags.add_output(parser, "the rows")
    parser.add_argument("--only", metavar="TEXT", help="run only checks whose name contains TEXT")
    flags.add_ruleset_flags(parser, default=None)
    parser.add_argument(
        "--ruleset",
        default=None,
        help="run only the checks that concern this ruleset (each check runs on its own presets and graphs; "
        "default: every check)",
    )
    parser.set_defaults(func=run)


def table(reports) -> str:
    """The verification table: check, graph, result, time."""
    rows = [("check", "graph", "result", "time")]
    for r in reports:
        mark = "ok  " if r.passed else "skip" if r.not_run else "FAIL"
        rows.append((r.check, r.graph, f"{mark} {r.result}", f"{r.seconds:.2f}s"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def refuse_unmatched(text: str, candidates) -> None:
    """List the names of the checks that could have run, one a line on stdout, and refuse
    ``--only TEXT`` that selects none of them (UsageError: exit 2)."""
    names = sorted({c.name for c in candidates})
    print("\n".join(names))
    raise UsageError(f"no check's name contains {text!r}: the {len(names)} names are listed on stdout")


def run(args) -> int:
    """Run the checks; exit 0 only if every check that could run passed (a check whose real
    component is missing, such as GNU Go, is shown as not run and does not count as passed)."""
    chosen = rulesets.from_arguments(args) if getattr(args, "ruleset", None) else None
    checks = registered_checks()
    everyone = len(checks)
    if chosen is not None:
        checks = [c for c in checks if chosen.name in concerned(c, rulesets.names())]
    if args.only:
        candidates = checks
        checks = [c for c in checks if args.only in c.name]
        if not checks:
            refuse_unmatched(args.only, candidates)
    containing = f" and contain {args.only!r}" if args.only else ""
    if chosen is not None and not checks:
        raise UsageError(f"none of the checks that concern the {chosen.name} ruleset contain {args.only!r}")
    heading = (
        f"the {len(checks)} of {everyone} checks that concern the {chosen.name} ruleset{containing} "
        "(each on its own presets and graphs)"
        if chosen is not None
        else ""
    )
    reports = []
    progress = tqdm(checks, desc="verify", unit="check", disable=args.json or None, file=sys.stderr)
    for check in progress:
        progress.set_postfix_str(check.name[:40])
        reports.append(run_check(check))
    passed = sum(r.passed for r in reports)
    skipped = [r for r in reports if r.not_run]
    tally = f"{passed} of {len(reports)} checks passed" + (
        f"; {len(skipped)} not run (install what they name to run them)" if skipped else ""
    )
    text = f"{table(reports)}\n\n{tally}"
    flags.emit(args, [r.__dict__ for r in reports], f"{heading}\n\n{text}" if heading else text, indent=2)
    return 0 if passed + len(skipped) == len(reports) and passed else 1
