"""``gorules replay``: play a list of moves on a graph under the Tromp–Taylor spec (the source's
rules, or a preset and options of the Tromp–Taylor ruleset)."""

from __future__ import annotations

from gorules import flags, rulesets
from gorules.errors import BudgetRefused, UsageError
from gorules.impl.formats.files import unwritable
from gorules.spec.graph import parse_graph

DEFAULT_SECONDS = 60.0
SECONDS_PER_SQUARED_POINT = 1e-6  # the spec's move floods the board from every point: time ~ points² a move


def refuse_if_too_long(graph, moves: int, seconds: float) -> None:
    """BudgetRefused, before any move is played, when the spec's replay would take too long."""
    estimate = SECONDS_PER_SQUARED_POINT * graph.order**2 * (moves + 1)
    if estimate > seconds:
        raise BudgetRefused(
            f"replaying {moves} moves on {graph.name} is refused: the spec needs about {estimate:,.3g} s "
            f"({graph.order:,} points), beyond the time budget of {seconds:g} s (raise it with --seconds)"
        )


def register(subparsers) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="play moves like 'B C3, W D4, B pass' on a graph and print each board, the scores and the winner",
    )
    flags.add_graph(parser, metavar="GRAPH", help="grid:3x3, petersen, digraph:0>1,1>0, ...")
    parser.add_argument(
        "--moves",
        default="",
        metavar="MOVES",
        help="moves separated by commas: an optional colour and a point name or number, or pass",
    )
    flags.add_preset(parser, help="a Tromp–Taylor preset", shown="tromp-taylor, the source's rules")
    flags.add_options(parser, help="a Tromp–Taylor option, e.g. ko=simple (repeatable)")
    flags.add_seconds(
        parser,
        DEFAULT_SECONDS,
        reason="a game of a few hundred moves on 19x19 fits in it",
        help="time budget: refuse a replay estimated to take longer",
    )
    flags.add_output(parser, "only the final board, scores, winner, moves")
    parser.add_argument("--picture", metavar="FILE", help="save the final board as FILE (.svg or .png)")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Replay the moves; a refused move is an error naming the move and why (exit 2)."""
    from gorules.replay import parse_moves, replay, report, summary

    if args.picture:
        problem = unwritable(args.picture)
        if problem:
            raise UsageError(f"--picture {args.picture!r} cannot be written: {problem}")
    graph = parse_graph(args.graph)
    ruleset = rulesets.make("tromp-taylor", args.preset, rulesets.parse_options(args.options), implementation="spec")
    moves = parse_moves(graph, args.moves)
    refuse_if_too_long(graph, len(moves), args.seconds)
    game = replay(graph, moves, ruleset)
    if args.picture:
        from gorules.pictures import save_picture

        last = f", after move {len(game.moves)}" if game.moves else ""
        save_picture(graph, game.final.board, args.picture, title=f"{graph.name}{last}")
    flags.emit(args, summary(game) if args.json else None, report(game))
    return 0
