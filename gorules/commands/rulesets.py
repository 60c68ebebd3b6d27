"""``gorules play`` and ``gorules fundamental-score``: the rulesets beyond Tromp–Taylor, run.

``gorules play RULESET GRAPH --moves "..."`` steps a game in the directed, topological,
ultimate, fundamental or political ruleset and prints the position and the result.
``gorules fundamental-score GRAPH`` computes section IV's mid-game-komi score of the empty
board in Fundamental Go by exact search and, with ``--check``, checks the source's claim
that no move by Black raises it (nor a White move lowers it) at every reachable situation.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from tqdm import tqdm

from gorules.checks.ruleset_checks import reachable_situations
from gorules.errors import UsageError
from gorules.spec import directed, political, topological, ultimate
from gorules.spec.graph import Graph, parse_graph, parse_point, point_name
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE

RULESETS = ("directed", "topological", "ultimate", "fundamental", "political")


def register(subparsers) -> None:
    """Add the ``play`` and ``fundamental-score`` subcommands."""
    play = subparsers.add_parser(
        "play", help="step a game in another ruleset (directed, topological, ultimate, fundamental, political)"
    )
    play.add_argument("ruleset", choices=RULESETS)
    play.add_argument("graph", help='a graph, e.g. "grid:3x3", "path:4", "digraph:0>1,1>0"')
    play.add_argument(
        "--moves",
        default="",
        help='moves separated by spaces or commas: points, "pass"; ultimate: "delay", '
        '"ultimate", "draw", "resign"; political: "ally:NAME", "ally:NAME!" (accepted), "war:NAME"',
    )
    play.add_argument("--players", default="A,B,C", help="political: the players, in turn order (default A,B,C)")
    play.add_argument("--seed", type=int, default=0, help="political: the seed of the random tie-breaks")
    play.add_argument(
        "--komi", default="0", help="directed: White's komi (a rational); ultimate: stones in White's bowl"
    )
    play.add_argument("--json", action="store_true", help="print the result as JSON")
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


def board_text(graph: Graph, board) -> str:
    """A board as rows of characters on a grid, else as point:colour pairs."""
    if graph.is_grid:
        rows, columns = graph.shape
        return "\n".join("".join(board[r * columns + c] for c in range(columns)) for r in range(rows))
    return " ".join(f"{point_name(graph, v)}:{board[v]}" for v in graph.points)


def illegal(i: int, token: str, why: str) -> UsageError:
    """The error for the i-th move."""
    return UsageError(f"move {i + 1} ({token!r}) is illegal: {why}")


def play_directed(graph: Graph, moves: list, komi: Fraction) -> dict:
    """Directed Go: the moves as turns, then the result if both players pass forever."""
    s = directed.starting_situation(graph, komi)
    for i, token in enumerate(moves):
        v = PASS if token == "pass" else parse_point(graph, token)
        after = directed.turn(graph, s, directed.Turn(v))
        if after is None:
            raise illegal(i, token, "the point is occupied")
        s = after
    forever = directed.outcome(graph, s, [], [directed.Turn(PASS), directed.Turn(PASS)])
    return {
        "board": s.board,
        "to_move": s.player,
        "scores": {"B": str(s.black_score), "W": str(s.white_score)},
        "result_if_both_pass_forever": forever,
    }


def play_topological(graph: Graph, moves: list) -> dict:
    """Topological Go on the graph's go-space, stone scoring; the result once two passes end it."""
    space = topological.graph_go_space(graph)
    states, played = [topological.initial_state(space)], []
    for i, token in enumerate(moves):
        s = states[-1]
        if s.passes >= 2:
            raise illegal(i, token, "the game is over")
        if token == "pass":
            states.append(s._replace(player=WHITE if s.player == BLACK else BLACK, passes=s.passes + 1))
        else:
            e = frozenset({parse_point(graph, token)})
            turns = topological.primitive_turns(space, [t.board for t in states], s)
            if e not in turns:
                raise illegal(i, token, "not a board play onto an empty point that repeats no earlier colouring")
            states.append(topological.State(turns[e], WHITE if s.player == BLACK else BLACK, 0))
        played.append(PASS if token == "pass" else e)
    final = states[-1]
    return {
        "board": final.board[: graph.order],
        "to_move": final.player,
        "scores": {p: topological.cardinality_score(final.board, p) for p in (BLACK, WHITE)},
        "result": topological.stone_winner(space, played) if final.passes == 2 else None,
    }


def play_ultimate(graph: Graph, moves: list, fundamental: bool, komi: int) -> dict:
    """Ultimate (or Fundamental) Go: placements, delays, draw declarations, resignation."""
    words = {
        "delay": ultimate.DELAY,
        "ultimate": ultimate.ULTIMATE_DELAY,
        "draw": ultimate.DECLARE_DRAW,
        "resign": ultimate.RESIGN,
    }
    s = ultimate.initial_situation(graph, fundamental, komi)
    for i, token in enumerate(moves):
        a = words[token] if token in words else parse_point(graph, token)
        after = ultimate.act(graph, s, a)
        if after is None:
            raise illegal(
                i,
                token,
                "not open to the player to move (occupied, surrounded, repeated, no prisoner, no right, or game over)",
            )
        s = after
    return {
        "board": s.board,
        "to_move": s.player,
        "prisoners": {"B": s.black_prisoners, "W": s.white_prisoners},
        "ultimate_prisoners": sorted(s.ultimate),
        "draw_right": s.draw_right,
        "result": s.result,
    }


def play_political(graph: Graph, moves: list, players: list, seed: int) -> dict:
    """Political Go with the named players; the random tie-breaks come from the seed."""
    import random

    rng = random.Random(seed)
    s = political.initial_situation(graph, players)
    for i, token in enumerate(moves):
        kind, _, target = token.partition(":")
        if kind == "pass":
            m = political.Move("pass")
        elif kind in ("ally", "war"):
            m = political.Move(kind, target.rstrip("!"), accepted=target.endswith("!"))
        else:
            m = political.Move("place", parse_point(graph, token))
        after = political.play(graph, s, m, rng)
        if after is None:
            raise illegal(i, token, "not open to the player to move")
        s = after
    return {
        "board": s.board,
        "to_move": political.to_move(s),
        "captured": dict(zip(s.players, s.captured)),
        "alliances": sorted("+".join(sorted(a)) for a in s.alliances),
        "over": s.over,
    }


def run_play(args) -> int:
    """Play the moves and print the position and the result."""
    graph = parse_graph(args.graph)
    moves = tokens(args.moves)
    try:
        komi = Fraction(args.komi)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"bad komi {args.komi!r}: expected a rational such as 7/2") from None
    if args.ruleset == "directed":
        result = play_directed(graph, moves, komi)
    elif args.ruleset == "topological":
        result = play_topological(graph, moves)
    elif args.ruleset in ("ultimate", "fundamental"):
        if komi.denominator != 1 or komi < 0:
            raise UsageError(f"bad komi {args.komi!r}: a number of stones")
        result = play_ultimate(graph, moves, args.ruleset == "fundamental", int(komi))
    else:
        players = [p for p in args.players.split(",") if p]
        if len(set(players)) != len(players) or any(p == EMPTY or ":" in p for p in players) or len(players) < 2:
            raise UsageError(f"bad players {args.players!r}: at least two distinct names, none '.'")
        result = play_political(graph, moves, players, args.seed)
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "graph": graph.name, **result}, default=str))
        return 0
    print(board_text(graph, result.pop("board")))
    for key, value in result.items():
        print(f"{key}: {value}")
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
