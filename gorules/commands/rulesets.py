"""``gorules play`` and ``gorules fundamental-score``: the rulesets beyond Tromp–Taylor, run.

``gorules play RULESET GRAPH --moves "..."`` steps a game of any registered ruleset from its
start, through the common ruleset interface, and prints the situation and the result.
``gorules fundamental-score GRAPH`` computes section IV's mid-game-komi score of the empty
board in Fundamental Go by exact search and, with ``--check``, checks the source's claim
that no move by Black raises it (nor a White move lowers it) at every reachable situation.
"""

from __future__ import annotations

import json
import sys
import time

from tqdm import tqdm

from gorules import rulesets
from gorules.checks.ruleset_checks import reachable_situations
from gorules.errors import UsageError
from gorules.impl.political_record import game_steps, write_record
from gorules.spec import ultimate
from gorules.spec.api import IllegalMove, Situation
from gorules.spec.graph import parse_graph
from gorules.spec.text import board_text


def register(subparsers) -> None:
    """Add the ``play`` and ``fundamental-score`` subcommands."""
    play = subparsers.add_parser("play", help="step a game of any ruleset from its start and print the situation")
    play.add_argument("ruleset", help=f"the ruleset: {', '.join(rulesets.names())}")
    play.add_argument("graph", help='a graph, e.g. "grid:3x3", "path:4", "digraph:0>1,1>0"')
    play.add_argument(
        "--moves",
        default="",
        help='moves separated by spaces or commas: points, "pass"; ultimate: "delay", '
        '"ultimate", "draw", "resign"; political: "ally:NAME", "ally:NAME!" (accepted), "war:NAME"',
    )
    play.add_argument("--players", default=None, help="political: the players, in turn order (default A,B,C)")
    play.add_argument("--seed", type=int, default=None, help="political: the seed of the random tie-breaks")
    play.add_argument("--json", action="store_true", help="print the situation as JSON")
    play.add_argument(
        "--record", metavar="FILE", default=None, help="write the game to FILE as an SGF-like record (any ruleset)"
    )
    rulesets.add_arguments(play, default=None)
    play.set_defaults(func=run_play)
    score = subparsers.add_parser(
        "fundamental-score", help="section IV's score of the empty board in Fundamental Go, by exact search"
    )
    score.add_argument("graph")
    score.add_argument(
        "--check",
        action="store_true",
        help="check the claim that no move improves the score at every reachable situation",
    )
    score.add_argument(
        "--depth", type=int, help="with --check: only the situations reachable in at most this many moves"
    )
    score.add_argument(
        "--ultimate", action="store_true", help="also solve Ultimate Go (with ultimate prisoners) from the empty board"
    )
    score.add_argument("--json", action="store_true")
    score.set_defaults(func=run_score)


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


def run_play(args) -> int:
    """Play the moves from the ruleset's start and print the situation (its result once over)."""
    graph = parse_graph(args.graph)
    options = rulesets.parse_options(args.options)
    if args.players is not None:
        options["players"] = args.players
    if args.seed is not None:
        options["seed"] = str(args.seed)
    if args.komi is not None:
        options["komi"] = args.komi
    if args.ruleset_file:
        rulesets.load_ruleset_file(args.ruleset_file)
    ruleset = rulesets.make(args.ruleset, args.preset, options, args.implementation)
    start = ruleset.initial(graph)
    situation = play_moves(start, tokens(args.moves))
    # The moves are legal now; replay them to keep who made each and what it did beyond the board.
    steps = game_steps(start, tokens(args.moves))[1]
    if args.record:
        try:
            write_record(args.record, start, steps, situation)
        except OSError as error:
            raise UsageError(f"cannot write the record to {args.record}: {error.strerror or error}") from None
    events = [f"move {s.number} ({s.player} {s.move}): {'; '.join(s.events)}" for s in steps if s.events]
    if args.json:
        data = situation.to_json()
        if events:
            data["events"] = events
        print(json.dumps(data, default=str))
    else:
        print("\n".join([*events, situation.text()]))
    return 0


def run_score(args) -> int:
    """The Fundamental Go score of the empty board, and optionally the check of the claim."""
    graph = parse_graph(args.graph)
    started = time.perf_counter()
    start = ultimate.initial_situation(graph, fundamental=True)
    report = {"graph": graph.name, "score": ultimate.score(graph, start)}
    if args.check:
        seen = reachable_situations(graph, start, args.depth)
        failures = [
            s
            for s in tqdm(seen, desc="claim", unit="situation", file=sys.stderr, disable=args.json or None)
            if not ultimate.no_move_improves(graph, s)
        ]
        report.update(
            depth="all" if args.depth is None else args.depth, situations=len(seen), counterexamples=len(failures)
        )
        if failures:
            report["first_counterexample"] = board_text(graph, failures[0].board)
    if args.ultimate:
        outcome = {1: "B", 0: "draw", -1: "W"}[ultimate.value(graph, ultimate.initial_situation(graph))]
        report["ultimate_go_result"] = outcome
    report["seconds"] = round(time.perf_counter() - started, 2)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0 if not report.get("counterexamples") else 1
