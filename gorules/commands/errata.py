"""``gorules errata``: which statements of the source hold as written, which only as corrected."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from gorules.errors import UsageError


def register(subparsers) -> None:
    """Add the ``errata`` subcommand."""
    parser = subparsers.add_parser(
        "errata",
        help="check every definition and theorem of the Tromp–Taylor formalization, as written "
        "and as corrected, on every board of small graphs",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--pictures", metavar="DIR", help="save each counterexample board as DIR/<statement>.svg and .png"
    )
    parser.add_argument(
        "--thorough",
        action="store_true",
        help="also every board of grid:3x3, and theorems on graphs of 5 points and grid:2x4 (slower)",
    )
    parser.set_defaults(func=run)


def table(findings) -> str:
    """The errata table for people: statement, as written, corrected, then each counterexample."""
    rows = [("statement", "as written", "corrected")]
    rows += [(f.key, f.as_written.word, f.corrected.word) for f in findings]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for f in findings:
        lines += ["", f"## {f.key}: {f.statement}"]
        lines.append(f"   as written: {f.as_written.word}; corrected: {f.corrected.word}")
        lines += textwrap.wrap("checked: " + f.checked, 100, initial_indent="   ", subsequent_indent="     ")
        if f.note:
            lines += textwrap.wrap("note: " + f.note, 100, initial_indent="   ", subsequent_indent="     ")
        example = f.as_written.counterexample or f.corrected.counterexample
        if example is not None:
            lines.append("   smallest counterexample " + example.text().replace("\n", "\n   "))
    return "\n".join(lines)


def save_pictures(findings, directory: Path) -> list[Path]:
    """Save every counterexample board as SVG and PNG, named after its statement."""
    from gorules.pictures import save_picture

    saved = []
    for f in findings:
        example = f.as_written.counterexample or f.corrected.counterexample
        if example is None:
            continue
        title = f"{f.key} on {example.graph.name}"
        for suffix in (".svg", ".png"):
            saved.append(
                save_picture(example.graph, example.board, directory / f"{f.key}{suffix}", title, example.marks)
            )
    return saved


def run(args) -> int:
    """Check every row and print the table (or JSON); exit 0 when every corrected statement holds."""
    from gorules.errata import QUICK, THOROUGH, errata_table

    if args.pictures is not None:
        directory = Path(args.pictures)
        if directory.exists() and not directory.is_dir():
            raise UsageError(f"--pictures {args.pictures!r} exists and is not a directory")
    from tqdm import tqdm

    from gorules import errata

    with tqdm(desc="errata", unit=" cases", file=sys.stderr, disable=None) as progress:
        errata.PROGRESS.append(progress.update)
        try:
            findings = errata_table(THOROUGH if args.thorough else QUICK)
        finally:
            errata.PROGRESS.remove(progress.update)
    if args.json:
        print(json.dumps([f.to_json() for f in findings], indent=2, ensure_ascii=False))
    else:
        print(table(findings))
    if args.pictures is not None:
        saved = save_pictures(findings, Path(args.pictures))
        print(f"saved {len(saved)} pictures to {args.pictures}", file=sys.stderr)
    return 0 if all(f.corrected.holds for f in findings) else 1
