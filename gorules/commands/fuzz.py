"""``gorules fuzz``: play random games on the spec and the engine and compare every step.

Each example is a random graph (undirected or directed up to 12 points, grids up to
19×19, a few named graphs), a random board on which ``clear``, ``reaches`` and ``score``
are compared, and a random move sequence played on both sides with the whole state
compared after every move.  Exit 0 when nothing differs; on a disagreement exit 1 and
write the shrunk case as a test vector (and as SGF on a grid) into ``--out``.

With ``--engine COMMAND`` (a GTP engine) or ``--implementation module:Class`` (a ruleset
class), that engine is fuzzed against the spec under ``--preset`` instead
(``gorules.fuzz_engines``; docs/fuzzing.md).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tqdm import tqdm

from gorules import flags, fuzz_engines
from gorules.errors import UsageError
from gorules.impl.differential.fuzzing import fuzz, write_disagreements


def disagreements_folder(text: str) -> Path:
    """``--out DIR``: a directory that is there or can be made, checked at once (a Path,
    not a string: this ``--out`` names no result file for :func:`gorules.flags.emit`)."""
    return Path(flags.output_directory(text))


def register(subparsers) -> None:
    """Add the ``fuzz`` subcommand."""
    parser = subparsers.add_parser(
        "fuzz",
        help="differential fuzzing: the engine against the executable spec",
        description=__doc__,
    )
    parser.add_argument("--examples", type=int, default=1000, metavar="N", help="random examples (default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    flags.add_points(
        parser,
        12,
        "random graphs of 1..N points",
        aliases=("--max-order",),
        reason="random graphs are cheap to play; the exhaustive sweeps (conjectures, readings, "
        "topological-sweep) stop at 3 or 4",
    )
    parser.add_argument(
        "--max-side",
        type=int,
        default=19,
        metavar="N",
        help="largest grid side (default 19; 7 with --engine or --implementation)",
    )
    parser.add_argument(
        "--out",
        type=disagreements_folder,
        default=None,
        metavar="DIR",
        help="write each disagreement, shrunk, as a test vector (and SGF) into this directory (without it "
        "nothing is written; here --out names a directory, not a file for the result)",
    )
    flags.add_output(parser, "{examples, moves, disagreements}", out=False)
    fuzz_engines.add_flags(parser)
    parser.set_defaults(func=run)


def check_arguments(args) -> None:
    """UsageError for counts and sizes out of range."""
    if args.examples < 1:
        raise UsageError(f"--examples must be at least 1, got {args.examples}")
    if not 1 <= flags.largest(args) <= 64:
        raise UsageError(f"--points must be between 1 and 64, got {flags.largest(args)}")
    if not 1 <= args.max_side <= 25:
        raise UsageError(f"--max-side must be between 1 and 25, got {args.max_side}")
    problem = flags.output_problem(str(args.out), directory=True) if args.out is not None else None
    if problem:
        raise UsageError(f"--out {str(args.out)!r} cannot be written: {problem}")


def run(args) -> int:
    """Fuzz; print the totals; write and report disagreements."""
    if fuzz_engines.wanted(args):
        return fuzz_engines.run(args)
    args.max_side = 19 if args.max_side is None else args.max_side
    check_arguments(args)
    bar = tqdm(total=args.examples, desc="fuzz", unit="example", file=sys.stderr, disable=None)
    moves = 0

    def progress(examples: int, compared: int) -> None:
        nonlocal moves
        moves += compared
        bar.update(examples)
        if bar.n % 200 == 0:
            bar.set_postfix(moves=moves)

    start = time.perf_counter()
    report = fuzz(args.examples, args.seed, progress, max_order=flags.largest(args), max_side=args.max_side)
    elapsed = time.perf_counter() - start
    bar.close()
    written = write_disagreements(report, args.out) if report.disagreements and args.out is not None else []
    lines = [
        f"{report.examples} examples, {report.moves} moves compared, "
        f"{len(report.disagreements)} disagreements ({elapsed:.1f} s)"
    ]
    lines += [f"  {d.graph.name}: {d.what} after moves {d.moves}" for d in report.disagreements]
    lines += [f"  wrote {path}" for path in written]
    if report.disagreements and args.out is None:
        lines.append("  (give --out DIR to write each one as a test vector)")
    flags.emit(args, report.as_json() if args.json else None, "\n".join(lines))
    return 1 if report.disagreements else 0
