"""``gorules best-play GRAPH``: best play for several players (Political Go) on a small graph.

Under a named solution concept, max-n (each player maximises eir own final score) or
paranoid (the highest score one player can make sure of against all the others together),
searched to a move horizon through the common ruleset interface
(``gorules.impl.rulesets.political.best_play``).  The search deepens one move at a time and reports every
horizon it finished, so that a spent budget still leaves what was proved.
"""

from __future__ import annotations

import sys
import time

from gorules import flags, rulesets
from gorules.commands.play import play_moves, tokens
from gorules.errors import UsageError
from gorules.impl.rulesets.political.best_play import CONCEPTS, best_play
from gorules.impl.solving.budget import Budget, TooExpensive
from gorules.point_names import COORDINATES, coordinate_system, warn_about_names
from gorules.spec.graph import parse_graph

CONCEPT_MEANING = {
    "max-n": "max-n: each player, in turn, chooses the move best for eir own final score "
    "(between equals, the first in move order)",
    "paranoid": "paranoid: the highest score {root} can make sure of when all other players play to minimise it",
}


def register(subparsers) -> None:
    """Add the ``best-play`` subcommand."""
    parser = subparsers.add_parser(
        "best-play",
        epilog=COORDINATES,
        help="best play for several players on a small graph (max-n or paranoid, to a horizon)",
    )
    flags.add_graph(parser, help='a graph, e.g. "path:5", "grid:2x3"')
    parser.add_argument("--players", default=None, help="the players in turn order (default A,B,C)")
    parser.add_argument("--concept", default="max-n", choices=CONCEPTS, help="the solution concept (default max-n)")
    parser.add_argument(
        "--root", default=None, help="paranoid: the player whose guaranteed score is sought (default the first)"
    )
    parser.add_argument("--horizon", type=int, default=6, help="moves searched ahead (default 6)")
    parser.add_argument(
        "--alliances", action="store_true", help="also consider offers of alliance and declarations of war"
    )
    parser.add_argument("--moves", default="", help="moves played first, from the start (as for gorules play)")
    flags.add_seconds(parser, 120.0)
    flags.add_nodes(
        parser,
        2_000_000,
        reason="lower than solve's 50,000,000: the search deepens one move at a time and a spent budget "
        "still reports every horizon it finished",
    )
    flags.add_output(parser, "the results")
    flags.add_ruleset_flags(parser, default="political")
    parser.set_defaults(func=run)


def fragment(alliances: bool) -> str:
    """The moves the search considers, in words."""
    return "every move" if alliances else "placements and passes (no alliance offered, no war declared)"


def ruleset_of(args):
    """The ruleset the arguments choose; UsageError unless its games are worth scores."""
    options = rulesets.parse_options(args.options)
    if args.players is not None:
        rulesets.set_option(options, "players", args.players, "--players")
    if args.ruleset_file:
        rulesets.load_ruleset_file(args.ruleset_file)
    ruleset = rulesets.make(args.ruleset, args.preset, options, args.implementation)
    if ruleset.value_kind != "scores":
        raise UsageError(f"best-play is for games of several players' scores; use gorules solve for {ruleset.name}")
    return ruleset


def run(args) -> int:
    """Search, print each finished horizon's result (the deepest last), and why it stopped."""
    if args.horizon < 1:
        raise UsageError(f"--horizon must be at least 1, got {args.horizon}")
    flags.nodes_at_least_one(args)
    graph = parse_graph(args.graph)
    ruleset = ruleset_of(args)
    warn_about_names(ruleset, graph, tokens(args.moves), "best-play")
    situation = play_moves(ruleset.initial(graph), tokens(args.moves))
    players = list(situation.ruleset.options.players)
    root = args.root if args.root is not None else players[0]
    if root not in players:
        raise UsageError(f"--root {root!r} is not a player of this game: the players are {', '.join(players)}")
    if situation.over:
        raise UsageError("the game is already over after --moves")
    allowed = None if args.alliances else (lambda move: getattr(move, "kind", "place") in ("place", "pass"))
    started = time.perf_counter()
    try:
        results, stopped = best_play(
            situation,
            args.concept,
            args.horizon,
            Budget(seconds=args.seconds, nodes=args.nodes),
            root=root,
            allowed=allowed,
            progress=not args.json and sys.stderr.isatty(),
        )
    except TooExpensive as error:
        raise UsageError(str(error)) from None
    report = {
        "ruleset": ruleset.name,
        "options": ruleset.options.as_dict(),
        "graph": graph.name,
        "coordinates": coordinate_system(ruleset),
        "concept": CONCEPT_MEANING[args.concept].format(root=root),
        "fragment": fragment(args.alliances),
        "leaves": "a situation reached at the horizon, not over, is scored as if the game ended there",
        "results": [r.as_dict() for r in results],
        "stopped": stopped,
        "seconds": round(time.perf_counter() - started, 2),
    }
    flags.emit(args, report, report_text(report, results), default=list)
    return 0 if results else 1


def report_text(report: dict, results: list) -> str:
    """The report in lines: what was searched, then the deepest result, then why it stopped."""
    lines = [
        f"{report['ruleset']} on {report['graph']}; moves considered: {report['fragment']}",
        f"solution concept: {report['concept']}",
        f"horizon: {report['leaves']}",
    ]
    for r in results:
        scores = ", ".join(f"{p} {v}" for p, v in r.scores.items())
        top = max(r.scores.values())
        winners = ", ".join(p for p, v in r.scores.items() if v == top)
        status = (
            "exact for the whole game"
            if r.exact
            else f"exact for the game cut after {r.horizon} move{'s' if r.horizon > 1 else ''}"
        )
        guaranteed = f"; {r.root} can make sure of {r.guaranteed}" if r.guaranteed is not None else ""
        lines.append(
            f"horizon {r.horizon}: scores {scores}; winner(s) {winners}{guaranteed} ({status}, {r.nodes:,} situations)"
        )
        if r is results[-1]:
            lines.append(f"line: {', '.join(f'{p} {m}' for p, m in zip(r.movers, r.line)) or '(none)'}")
    if report["stopped"]:
        lines.append(f"stopped: {report['stopped']}; the horizons above were finished")
    lines.append(f"seconds: {report['seconds']}")
    return "\n".join(lines)
