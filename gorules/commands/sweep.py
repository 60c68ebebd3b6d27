"""``gorules sweep CONJECTURE --graphs FAMILY``: test a conjecture on a family of graphs."""

from __future__ import annotations

from dataclasses import replace

from gorules import flags, rulesets
from gorules.conjectures import BUILT_IN, FIGURES, check_figures, find_conjecture
from gorules.errors import UsageError
from gorules.spec.api import OptionError
from gorules.store import Store
from gorules.sweep import FAMILY_HELP, family_graphs, run_sweep, summary_table


def register(subparsers) -> None:
    """Add the ``sweep`` subcommand."""
    parser = subparsers.add_parser(
        "sweep",
        help="test a conjecture on every graph of a family (resumable; local pool or Dask)",
    )
    parser.add_argument("conjecture", nargs="?", help="a built-in conjecture, or one from --conjecture-file")
    parser.add_argument("--graphs", metavar="FAMILY", help=FAMILY_HELP)
    parser.add_argument("--db", default="gorules-sweep.sqlite", help="the SQLite results file (resumes)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask cluster at ADDRESS")
    parser.add_argument("--workers", type=int, default=None, help="local worker processes (0: in this process)")
    parser.add_argument("--conjecture-file", metavar="FILE", help="a Python file defining conjectures")
    flags.add_ruleset(
        parser, None, help="compute the figures under this ruleset instead of the conjecture's own (default: its own)"
    )
    flags.add_preset(parser, help="with --ruleset: a preset of it")
    flags.add_options(parser, help="with --ruleset: an option (repeatable)")
    flags.add_ruleset_file(parser)
    parser.add_argument("--list", action="store_true", help="list the conjectures and figures")
    flags.add_output(parser, "the summary (with --list: the conjectures and figures)")
    parser.set_defaults(func=run)


def listed(conjecture_file=None) -> list:
    """The conjectures of the file (if any), then the built-in ones."""
    from gorules.conjectures import load_conjecture_file

    return (load_conjecture_file(conjecture_file) if conjecture_file else []) + BUILT_IN


def listing(conjectures: list) -> str:
    """The conjectures with their rulesets, and the figures."""
    lines = ["conjectures:"]
    for c in conjectures:
        families = f" (e.g. --graphs {c.families[0]})" if c.families else ""
        lines.append(f"  {c.name} [{c.label}]{families}: {c.description}")
    lines.append("figures: " + ", ".join(sorted(FIGURES)))
    return "\n".join(lines)


def listing_data(conjectures: list) -> dict:
    """The conjectures and the figures, as JSON-able data."""
    return {
        "conjectures": [
            {"name": c.name, "ruleset": c.label, "families": list(c.families), "description": c.description}
            for c in conjectures
        ],
        "figures": sorted(FIGURES),
    }


def run(args) -> int:
    """Run the sweep, print the summary table (or JSON); exit 1 if a counterexample was found
    or a graph stayed unknown."""
    if args.list:
        conjectures = listed(args.conjecture_file)
        flags.emit(args, listing_data(conjectures), listing(conjectures))
        return 0
    if not args.conjecture and not args.conjecture_file:
        raise UsageError("name a conjecture (gorules sweep --list shows them)")
    if args.ruleset_file:
        rulesets.load_ruleset_file(args.ruleset_file)
    conjecture = find_conjecture(args.conjecture, args.conjecture_file)
    if args.ruleset or args.preset or args.options:
        conjecture = replace(
            conjecture,
            ruleset=args.ruleset or conjecture.ruleset,
            preset=args.preset,
            options=rulesets.parse_options(args.options),
        )
        conjecture.make_ruleset()
    family = args.graphs or (conjecture.families[0] if conjecture.families else None)
    if not family:
        raise UsageError("give --graphs FAMILY")
    if args.workers is not None and args.workers < 0:
        raise UsageError("--workers must be 0 or more")
    problem = "it names standard output" if args.db == flags.STDOUT else flags.output_problem(args.db)
    if problem:
        raise UsageError(f"--db {args.db!r} cannot hold the results: {problem}")
    family_graphs(family)  # a bad family, or a figure the ruleset lacks, is refused before the results file is made
    ruleset = conjecture.make_ruleset()
    check_figures(conjecture.figures, ruleset)
    conjecture.refuse_value_kind(ruleset)
    try:
        with Store(args.db) as store:
            summary = run_sweep(conjecture, family, store, args.scheduler, args.workers, progress=not args.json)
    except OptionError as error:
        raise UsageError(str(error)) from error
    flags.emit(args, summary.as_json() if args.json else None, summary_table(summary))
    return 0 if not summary.counterexamples and not summary.unknown else 1
