"""``gorules fuzz --engine COMMAND`` and ``--implementation module:Class``: any engine against the spec.

The flags and the printing of a campaign (``impl.differential.campaign``) against a GTP
engine or a ruleset class, under a preset of the Tromp–Taylor ruleset.  The text names the
engine with what it was told (its flags and komi) and the preset with its options, the
totals (games, moves tried, checks: moves, boards, final scores; what was not compared and
why), each class of disagreement with its shrunk case and the files written for it, and
each engine fault with the command that showed it.  Exit 0 when nothing differed and the
engine never failed, 1 otherwise.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tqdm import tqdm

from gorules import flags
from gorules.errors import UsageError, json_text
from gorules.impl.differential.conventions import described
from gorules.impl.differential.findings import write_finding
from gorules.impl.differential.targets import engine_campaign, implementation_campaign

DEFAULT_GAMES = 50
ENGINE_SIDE = 7


def add_flags(parser) -> None:
    """``--engine``, ``--implementation``, ``--preset``, ``--games``, ``--seconds``, ``--answer-seconds``."""
    parser.add_argument(
        "--engine",
        metavar="COMMAND",
        help='a GTP engine\'s command line, e.g. "gnugo --mode gtp": fuzz it against the spec under --preset',
    )
    parser.add_argument(
        "--implementation",
        metavar="MODULE:CLASS",
        help="a class implementing the ruleset interface (gorules.spec.api.Ruleset): fuzz it against the spec",
    )
    flags.add_preset(parser, "tromp-taylor", help="with --engine or --implementation, the preset compared against")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
        help=f"with --engine or --implementation: games to play (default {DEFAULT_GAMES}, unless --seconds is given)",
    )
    flags.add_seconds(parser, None, help="with --engine or --implementation: stop after this many seconds")
    parser.add_argument(
        "--answer-seconds",
        type=float,
        default=10.0,
        metavar="S",
        help="with --engine: an engine silent for longer after a command is reported as hung (default 10)",
    )
    parser.set_defaults(max_side=None)


def wanted(args) -> bool:
    """Whether the command fuzzes an engine or a class rather than the project's own engine."""
    return bool(args.engine or args.implementation)


def campaign_of(args):
    """The campaign the arguments ask for; UsageError for bad ones."""
    if args.engine and args.implementation:
        raise UsageError("give --engine or --implementation, not both")
    if args.games is not None and args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    if not 0 < args.answer_seconds <= 3600:
        raise UsageError(f"--answer-seconds must be between 0 and 3600, got {args.answer_seconds}")
    problem = flags.output_problem(str(args.out), directory=True) if args.out is not None else None
    if problem:
        raise UsageError(f"--out {str(args.out)!r} cannot be written: {problem}")
    if not 1 <= flags.largest(args) <= 64:
        raise UsageError(f"--points must be between 1 and 64, got {flags.largest(args)}")
    side = ENGINE_SIDE if args.max_side is None else args.max_side
    if not 1 <= side <= 25:
        raise UsageError(f"--max-side must be between 1 and 25, got {side}")
    try:
        if args.engine:
            return engine_campaign(args.engine, args.preset, side, args.answer_seconds)
        return implementation_campaign(args.implementation, args.preset, flags.largest(args), side)
    except ValueError as error:
        raise UsageError(str(error)) from None


def run(args) -> int:
    """Run the campaign; print what was compared and found; write the shrunk cases."""
    campaign = campaign_of(args)
    games = args.games if args.games is not None or args.seconds is not None else DEFAULT_GAMES
    bar = tqdm(total=games, desc="fuzz", unit="game", file=sys.stderr, disable=None)

    def progress(tally) -> None:
        bar.update(1)
        bar.set_postfix(moves=tally.moves, checks=tally.checks, classes=len(campaign.findings))

    start = time.monotonic()
    try:
        campaign.run(games, args.seconds, args.seed, progress)
    finally:
        campaign.close()
        bar.close()
    elapsed = time.monotonic() - start
    summary = campaign.as_json()
    summary["seconds"] = round(elapsed, 1)
    summary["files"] = written = write_all(campaign, Path(args.out)) if args.out is not None else []
    print(json_text(summary, indent=1) if args.json else text(summary, campaign, written))
    return 1 if campaign.findings or campaign.faults else 0


def write_all(campaign, directory: Path) -> list[str]:
    """Write every class's shrunk case under ``directory``; the paths written."""
    told = campaign.contender.describe()
    paths = []
    for i, finding in enumerate(campaign.findings.values()):
        written = write_finding(finding.case, directory, i, told, campaign.preset, campaign.options.komi)
        paths += [str(p) for p in written]
    return paths


def text(summary: dict, campaign, written: list[str]) -> str:
    """The report as lines of text."""
    lines = [
        f"engine: {summary['engine']}",
        f"preset: {summary['preset']} ({summary['options']})",
        f"{summary['games']} games, {summary['moves']} moves tried, {summary['checks']} checks "
        f"({summary['boards_compared']} boards, {summary['scores_compared']} final scores) in {summary['seconds']} s"
        + (f" on boards of size {', '.join(map(str, summary['board_sizes']))}" if summary["board_sizes"] else ""),
    ]
    lines += [f"not compared: {reason}" for reason in summary["not_compared"]]
    agreed = summary["agreed"]
    if agreed:
        lines.append("agreed on: " + ", ".join(f"{count} {what}" for what, count in agreed.items()))
    lines.append(f"{len(campaign.findings)} classes of disagreement")
    for i, finding in enumerate(campaign.findings.values()):
        d = finding.case
        lines.append(f"  [{d.kind}, {d.convention}] met {finding.count} times: {described(d.convention)}")
        lines.append(f"    shrunk: {d.line()}")
        lines += [f"    wrote {path}" for path in written if Path(path).name.startswith(f"engine_{i}_")]
    if campaign.findings and not written:
        lines.append("  (give --out DIR to write each shrunk case as SGF and a test vector)")
    lines.append(f"{len(campaign.faults)} engine faults (each followed by a restart)")
    lines += [f"  {fault.line()}" for fault in campaign.faults]
    return "\n".join(lines)
