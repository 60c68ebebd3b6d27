"""``gorules topological-sweep``: Propositions 2 and 3 of source 001 on every go-space.

Every go-space (X, T, S) with |X| <= ``--points`` (4 at most: 4,847 go-spaces of four
points up to isomorphism), every colouring, under each reading of Defn 7 (``string``) with
each of Defns 4 (``placement``) and 8 (``clearing``), or the ones named; verdicts per
proposition and reading: holds, holds only vacuously, fails (with the first
counterexample), or unknown beyond the size the time allowed.  Exit 1 when a proposition fails or a size was left unswept.
"""

from __future__ import annotations

from gorules import flags
from gorules.propositions_topological import all_readings, reading_name, summary, sweep
from gorules.spec import topological as spec


def register(subparsers) -> None:
    """Add the ``topological-sweep`` subcommand."""
    parser = subparsers.add_parser(
        "topological-sweep", help="Propositions 2 and 3 of source 001 on every go-space up to 4 points"
    )
    flags.add_points(
        parser,
        4,
        "go-spaces of 1..N points",
        aliases=("--max-points",),
        reason="4,847 go-spaces of four points up to isomorphism; readings and conjectures compare more per "
        "situation and stop at 3",
    )
    parser.add_argument("--string", choices=spec.STRING_READINGS, help="only this reading of Defn 7 (default: each)")
    parser.add_argument(
        "--placement", choices=spec.PLACEMENT_READINGS, help="only this reading of Defn 4 (default: each)"
    )
    parser.add_argument(
        "--clearing", choices=spec.CLEARING_READINGS, help="only this reading of Defn 8 (default: each)"
    )
    flags.add_seconds(
        parser,
        1800.0,
        reason="enough for every go-space of four points",
        help="the time allowed: longer estimates are refused",
    )
    flags.add_output(parser, "the verdicts", json_file=True)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Sweep, print the verdicts, write them if asked; exit 1 on a failure or an unswept size."""

    readings = [
        r
        for r in all_readings()
        if (args.string is None or r.string == args.string)
        and (args.placement is None or r.placement == args.placement)
        and (args.clearing is None or r.clearing == args.clearing)
    ]
    max_points = flags.largest(args)
    result = sweep(max_points, readings, args.seconds, not args.quiet)
    data = None
    if args.json:
        data = {
            "max_points": max_points,
            "complete_up_to": result.complete_up_to,
            "note": result.note,
            "go_spaces_per_size": {str(n): k for n, k in result.spaces_per_size.items()},
            "method": "every colouring of every go-space up to isomorphism; strings by every subset of stones, "
            "board plays by the bitset twin",
            "verdicts": {reading_name(r): result.verdicts[reading_name(r)].as_dict() for r in readings},
        }
    flags.emit(args, data, summary(result), indent=2)
    failed = any(v.proposition_2_fails or v.proposition_3_fails for v in result.verdicts.values())
    return 1 if failed or result.complete_up_to < max_points else 0
