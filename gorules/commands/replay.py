"""``gorules replay``: play a list of moves on a graph under a ruleset and print each board.

A ruleset with the ``replay`` capability is stepped its own way (Tromp–Taylor: the spec,
with the source's reason for every refusal, the scores and the winner); any other ruleset
through the interface: each move read by the ruleset's ``parse_move`` and played by
``Situation.play``, whose refusal is the reason, then the situation and its result."""

from __future__ import annotations

import re

from gorules import flags, rulesets
from gorules.errors import BudgetRefused, UsageError
from gorules.point_names import COORDINATES, coordinate_system, warn_about_names
from gorules.spec.api import IllegalMove, Ruleset, Situation
from gorules.spec.graph import Graph, GraphError, parse_graph

PLAYER_WORDS = {"b": "B", "black": "B", "w": "W", "white": "W"}
"""The words for Black and White in a move list; another player is named as the ruleset names it."""

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
        epilog=COORDINATES,
        help="play moves like 'B C3, W D4, B pass' on a graph and print each board, the scores and the winner",
    )
    flags.add_graph(parser, metavar="GRAPH", help="grid:3x3, petersen, digraph:0>1,1>0, ...")
    parser.add_argument(
        "--moves",
        default="",
        metavar="MOVES",
        help="moves separated by commas: an optional colour and a point, or pass; a point is a number, "
        "a GTP name (C3: columns without I, rows from 1 at the bottom) or an SGF name (cc); another "
        "ruleset reads its points as gorules play --help says (political: its own names)",
    )
    flags.add_ruleset_flags(parser)
    flags.add_seconds(
        parser,
        DEFAULT_SECONDS,
        reason="a game of a few hundred moves on 19x19 fits in it",
        help="time budget: refuse a replay estimated to take longer",
    )
    flags.add_output(parser, "only the final board, scores, winner, moves")
    flags.add_output_path(parser, "--picture", "save the final board as FILE (.svg or .png)")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Replay the moves; a refused move is an error naming the move and why (exit 2)."""
    from gorules.replay import parse_moves, replay, report, summary

    graph = parse_graph(args.graph)
    chosen = rulesets.from_arguments(args)
    stepped = chosen.capability("replay")
    if stepped is None:
        return run_generic(graph, chosen, args)
    ruleset = stepped(chosen)
    moves = parse_moves(graph, args.moves)
    refuse_if_too_long(graph, len(moves), args.seconds)
    game = replay(graph, moves, ruleset)
    if args.picture:
        from gorules.pictures import save_picture

        last = f", after move {len(game.moves)}" if game.moves else ""
        save_picture(graph, game.final.board, args.picture, title=f"{graph.name}{last}")
    flags.emit(args, summary(game) if args.json else None, report(game))
    return 0


def generic_moves(ruleset: Ruleset, graph: Graph, text: str) -> list[tuple[int, str | None, str]]:
    """The moves of a list written ``"B C3, W D4, B pass"`` (commas, semicolons or new
    lines): each its number, the player named (None if none) and the move's word."""
    items = [item.split() for item in re.split(r"[,;\n]", text) if item.strip()]
    moves = []
    for number, words in enumerate(items, start=1):
        if len(words) > 2:
            raise UsageError(f"move {number}: {' '.join(words)!r} is not a move like 'B C3' or 'W pass'")
        player = PLAYER_WORDS.get(words[0].lower(), words[0]) if len(words) == 2 else None
        moves.append((number, player, words[-1]))
    return moves


def generic_replay(start: Situation, moves: list[tuple[int, str | None, str]]) -> list[tuple[str, Situation]]:
    """Each move's label and the situation after it; UsageError naming the first move the
    ruleset refuses, and why."""
    ruleset, graph = start.ruleset, start.graph
    steps: list[tuple[str, Situation]] = []
    situation = start
    for number, player, word in moves:
        if situation.over:
            raise UsageError(f"move {number} ({word}): the game is over")
        if player is not None and player != situation.to_move:
            raise UsageError(f"move {number} ({player} {word}): {situation.to_move} is to play, not {player}")
        try:
            situation = situation.play(ruleset.parse_move(graph, word))
        except (IllegalMove, GraphError) as error:
            raise UsageError(f"move {number} ({word}): {error}") from None
        steps.append((f"move {number}: {steps[-1][1].to_move if steps else start.to_move} {word}", situation))
    return steps


def run_generic(graph: Graph, ruleset: Ruleset, args) -> int:
    """Replay through the interface, for a ruleset without the ``replay`` capability: each
    situation in turn, then the result (or who is to play)."""
    from gorules.spec.text import situation_text

    moves = generic_moves(ruleset, graph, args.moves)
    refuse_if_too_long(graph, len(moves), args.seconds)
    warn_about_names(ruleset, graph, [word for _, _, word in moves], "replay")
    start = ruleset.initial(graph)
    steps = generic_replay(start, moves)
    final = steps[-1][1] if steps else start
    parts = [
        f"start: {ruleset.describe()}, through the ruleset interface (no replay capability)",
        situation_text(start),
    ]
    for label, situation in steps:
        parts += ["", label, situation_text(situation)]
    if not final.over:
        parts += ["", f"result: none yet, the game is not over ({final.to_move} to play)"]
    if args.picture:
        from gorules.pictures import save_picture

        save_picture(graph, final.board, args.picture, title=f"{graph.name}, after move {len(steps)}")
    data = (
        {"moves": len(steps), "coordinates": coordinate_system(ruleset), "situation": final.to_json()}
        if args.json
        else None
    )
    flags.emit(args, data, "\n".join(parts), default=str)
    return 0
