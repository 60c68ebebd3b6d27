"""``gorules play``: the rulesets beyond Tromp–Taylor, run.

``gorules play RULESET GRAPH --moves "..."`` steps a game of any registered ruleset from its
start, through the common ruleset interface, and prints the situation and the result.
(Section IV's score of source 003 is ``gorules fundamental-score``, in its own module.)
"""

from __future__ import annotations

from gorules import flags, rulesets
from gorules.errors import UsageError
from gorules.impl.formats.graph_files import graph_argument
from gorules.impl.rulesets.political.record import game_steps, write_record
from gorules.point_names import COORDINATES, coordinate_system, warn_about_names
from gorules.spec.api import IllegalMove, Situation
from gorules.spec.text import situation_text


def register(subparsers) -> None:
    """Add the ``play`` subcommand."""
    play = subparsers.add_parser(
        "play", help="step a game of any ruleset from its start and print the situation", epilog=COORDINATES
    )
    play.add_argument("ruleset", nargs="?", help=f"the ruleset (or --ruleset NAME): {', '.join(rulesets.names())}")
    flags.add_graph(play, nargs="?", help='a graph, e.g. "grid:3x3", "path:4", "digraph:0>1,1>0"')
    play.add_argument(
        "--ruleset", dest="ruleset_flag", metavar="NAME", help="the ruleset, as the first argument names it"
    )
    play.add_argument(
        "--moves",
        default="",
        help='moves separated by spaces or commas: points, "pass"; ultimate: "delay", '
        '"ultimate", "draw", "resign"; political: "ally:NAME", "ally:NAME!" (accepted), "war:NAME"',
    )
    play.add_argument("--players", default=None, help="political: the players, in turn order (default A,B,C)")
    play.add_argument("--seed", type=int, default=None, help="political: the seed of the random tie-breaks")
    flags.add_output(play, "the situation")
    flags.add_output_path(
        play, "--record", "write the game to FILE as an SGF-like record (any ruleset); - for stdout", default=None
    )
    flags.add_ruleset_flags(play, default=None)
    play.set_defaults(func=run_play)


def tokens(text: str) -> list:
    """The moves of a --moves string."""
    return [t for t in text.replace(",", " ").split() if t]


def play_moves(situation: Situation, words: list) -> Situation:
    """The situation after the moves the words name; UsageError naming the first bad one."""
    ruleset, graph = situation.ruleset, situation.graph
    for i, word in enumerate(words):
        if situation.over:
            raise UsageError(f"move {i + 1} ({word!r}) is illegal: the game is over")
        move = ruleset.parse_move(graph, word)
        try:
            situation = situation.play(move)
        except IllegalMove as error:
            raise UsageError(f"move {i + 1} ({word!r}) is illegal: {error}") from None
    return situation


def ruleset_and_graph(args) -> None:
    """Read ``play RULESET GRAPH`` and ``play --ruleset RULESET GRAPH`` alike into
    ``args.ruleset`` and ``args.graph``; UsageError when one is missing or the ruleset is named twice."""
    if args.ruleset_flag is not None:
        if args.graph is not None:
            raise UsageError(
                f"the ruleset is named twice ({args.ruleset} and --ruleset {args.ruleset_flag}): name it once"
            )
        args.ruleset, args.graph = args.ruleset_flag, args.ruleset
    if args.ruleset is None or args.graph is None:
        raise UsageError(
            "name a ruleset and a graph: gorules play RULESET GRAPH, or gorules play --ruleset RULESET GRAPH"
        )


def run_play(args) -> int:
    """Play the moves from the ruleset's start and print the situation (its result once over)."""
    ruleset_and_graph(args)
    graph = graph_argument(args.graph)  # play --ruleset NAME FILE: the file comes as the second word
    options = rulesets.parse_options(args.options)
    if args.players is not None:
        rulesets.set_option(options, "players", args.players, "--players")
    if args.seed is not None:
        rulesets.set_option(options, "seed", str(args.seed), "--seed")
    if args.komi is not None:
        rulesets.set_option(options, "komi", str(args.komi), "--komi")
    if args.ruleset_file:
        rulesets.load_ruleset_file(args.ruleset_file)
    ruleset = rulesets.make(args.ruleset, args.preset, options, args.implementation)
    start = ruleset.initial(graph)
    warn_about_names(ruleset, graph, tokens(args.moves), "play")
    situation = play_moves(start, tokens(args.moves))
    # The moves are legal now; replay them to keep who made each and what it did beyond the board.
    steps = game_steps(start, tokens(args.moves))[1]
    if args.record:
        try:
            write_record(args.record, start, steps, situation)
        except OSError as error:
            raise UsageError(f"cannot write the record to {args.record}: {error.strerror or error}") from None
    events = [f"move {s.number} ({s.player} {s.move}): {'; '.join(s.events)}" for s in steps if s.events]
    data = {**situation.to_json(), "coordinates": coordinate_system(ruleset)} if args.json else {}
    if events:
        data["events"] = events
    flags.emit(args, data, "\n".join([*events, situation_text(situation)]), default=str)
    return 0
