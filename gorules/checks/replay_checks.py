"""Checks of ``gorules replay``: its games agree with the engine and with area scoring by flood
fill, and it refuses exactly the moves the rules refuse, for the right reason."""

from __future__ import annotations

from gorules.errors import UsageError
from gorules.verify import Check, Outcome

# Embedded games: a capture and a full count on 3×3, a ko fight on 2×3 (a retake refused),
# a game on the Petersen graph, a directed graph with a capture along an arc.
GAMES = {
    "grid:3x3": "B B2, W A1, B A2, W B1, B C1, W pass, B B1, W pass, B pass",
    "petersen": "B 0, W 1, B 2, W 5, B 6, W 3, B 4, W pass, B pass",
    "digraph:0>1,1>2,2>0,2>3,3>2": "B 0, W 2, B 3, W pass, B pass",
}

# Refusals the rules must give: (graph, moves, words the message must contain).
REFUSALS = [
    ("grid:1x2", "B A1, W B1, B A1", "move 3 (B A1): A1 repeats the board after move 1"),
    ("grid:2x2", "B A1, B B1", "white is to play"),
    ("grid:2x2", "B A1, W A1", "occupied"),
    ("grid:2x2", "B A1, W pass, B pass, W B2", "ended"),
    ("grid:2x2", "B A1, W E5", "unknown point"),
    ("grid:1x1", "B A1", "repeats the empty starting board"),
]


def agreement_check(graph_name: str, moves: str) -> Check:
    """The replayed game ends as the engine's Game does, and its scores are the flood-fill areas."""

    def run() -> Outcome:
        """Do the check."""
        from gorules.errata.reference import reference_score
        from gorules.impl.engine.rules import Game
        from gorules.replay import parse_moves, replay
        from gorules.spec.graph import parse_graph

        graph = parse_graph(graph_name)
        game = replay(graph, parse_moves(graph, moves))
        engine = Game(graph)
        for written in game.moves:
            engine.play(written.point)
        board = game.final.board
        if tuple(engine.board) != tuple(board):
            return Outcome(False, f"engine board {''.join(engine.board)} != replay {''.join(board)}")
        scores = game.scores()
        flood = {"black": reference_score(graph, board, "B"), "white": reference_score(graph, board, "W")}
        if scores != flood:
            return Outcome(False, f"scores {scores} != flood fill {flood}")
        engine_winner = {"B": "black", "W": "white", "draw": "draw"}.get(engine.winner(), engine.winner())
        if game.winner() != engine_winner:
            return Outcome(False, f"winner {game.winner()} != engine {engine_winner}")
        return Outcome(True, f"{''.join(board)}: black {scores['black']}, white {scores['white']}, {game.winner()}")

    return Check("replay agrees with engine and flood fill", graph_name, run, "replay")


def refusal_check() -> Check:
    """Every embedded illegal move list is refused with a message naming the move and reason."""

    def run() -> Outcome:
        """Do the check."""
        from gorules.replay import parse_moves, replay
        from gorules.spec.graph import parse_graph

        for graph_name, moves, words in REFUSALS:
            graph = parse_graph(graph_name)
            try:
                replay(graph, parse_moves(graph, moves))
            except UsageError as error:
                if words not in str(error):
                    return Outcome(False, f"{graph_name} {moves!r}: {error} (expected {words!r})")
                continue
            return Outcome(False, f"{graph_name} {moves!r} was accepted")
        return Outcome(True, f"{len(REFUSALS)} illegal move lists refused with their reasons")

    return Check("replay refuses illegal moves with reasons", "grid:1x1, 1x2, 2x2", run, "replay")


def checks() -> list[Check]:
    """Agreement on each embedded game, and the refusals."""
    return [agreement_check(g, m) for g, m in GAMES.items()] + [refusal_check()]
