"""``gorules errata``: which statements of the source hold as written, which only as corrected."""

from __future__ import annotations

import sys
from pathlib import Path

from gorules import flags
from gorules.impl.formats.files import staged_directory


def register(subparsers) -> None:
    """Add the ``errata`` subcommand."""
    parser = subparsers.add_parser(
        "errata",
        help="check every definition and theorem of the Tromp–Taylor formalization, as written "
        "and as corrected, on every board of small graphs",
    )
    flags.add_output(parser, "the rows")
    flags.add_output_path(
        parser,
        "--pictures",
        "save each counterexample board as DIR/<statement>.svg and .png (all of them, or none)",
        directory=True,
    )
    parser.add_argument(
        "--thorough",
        action="store_true",
        help="also every board of grid:3x3, and theorems on graphs of 5 points and grid:2x4 (slower)",
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    """Check every row and print the table (or JSON); exit 0 when every corrected statement holds."""
    from tqdm import tqdm

    from gorules.errata.graphs import QUICK, THOROUGH
    from gorules.errata.report import save_pictures, table
    from gorules.errata.rows import errata_table

    with tqdm(desc="errata", unit=" cases", file=sys.stderr, disable=None) as progress:
        findings = errata_table(THOROUGH if args.thorough else QUICK, progress.update)
    rows = [f.to_json() for f in findings] if args.json else None
    flags.emit(args, rows, table(findings), indent=2, ensure_ascii=False)
    if args.pictures is not None:
        with staged_directory(Path(args.pictures)) as staging:  # all the pictures, or none
            saved = save_pictures(findings, staging)
        print(f"saved {len(saved)} pictures to {args.pictures}", file=sys.stderr)
    return 0 if all(f.corrected.holds for f in findings) else 1
