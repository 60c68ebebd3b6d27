"""Checks against real engines and records: sgfmill, GNU Go over GTP, OpenSpiel.

Each runs on an embedded default in about a second: one random 7×7 game written as SGF and
replayed in sgfmill; one random 5×5 game played in GNU Go (Tromp–Taylor flags) and in
OpenSpiel, the board compared after every move.
"""

from __future__ import annotations

import random

from gorules.impl.engine.rules import Game, random_playout
from gorules.impl.formats.sgf import parse_sgf, record_sgf
from gorules.impl.formats.sgf_replay import engine_positions, sgfmill_agreement
from gorules.impl.formats.spiel import openspiel_action, openspiel_board, openspiel_point
from gorules.spec.graph import grid
from gorules.spec.tromp_taylor import PASS, Move
from gorules.verify import Check, Outcome, not_run

SEED = 2024


def sgfmill_check() -> Check:
    """A random game, written as SGF and read back: sgfmill's board equals the engine's
    after every move."""

    def run() -> Outcome:
        graph = grid(7, 7)
        game = random_playout(graph, random.Random(SEED), max_moves=150)
        record = parse_sgf(record_sgf(graph, list(game.moves)), "random.sgf")
        positions = engine_positions(record)
        compared, problem = sgfmill_agreement(record, positions.boards)
        if problem:
            return Outcome(False, problem)
        return Outcome(True, f"{compared} positions agree")

    return Check("sgfmill board = engine (SGF round trip)", "grid:7x7", run, "engines")


def gnugo_check() -> Check:
    """A random Tromp–Taylor game: GNU Go (over GTP) accepts every move and has the
    engine's board after every move."""

    def run() -> Outcome:
        from gorules.impl.formats.gtp import GtpClient, gnugo_command, gnugo_path

        if gnugo_path() is None:
            return not_run("GNU Go is not installed (apt-get install gnugo; bash .ci/run does it)")
        graph = grid(5, 5)
        rng = random.Random(SEED)
        game = Game(graph, "tromp-taylor")
        with GtpClient(gnugo_command("tromp-taylor")) as gnugo:
            gnugo.new_game(graph)
            while not game.over and len(game.moves) < 60:
                points = [v for v in game.legal_moves() if v != PASS]
                v: Move = rng.choice(points) if points else PASS
                player = game.to_move
                game.play(v)
                if not gnugo.play(graph, player, v):
                    return Outcome(False, f"GNU Go refused move {len(game.moves)}")
                if gnugo.board(graph) != game.board:
                    return Outcome(False, f"boards differ after move {len(game.moves)}")
        return Outcome(True, f"{len(game.moves)} moves, boards agree")

    return Check("GNU Go board = engine (random game)", "grid:5x5", run, "engines")


def openspiel_check() -> Check:
    """A random game drawn among moves legal in OpenSpiel and under Tromp–Taylor: the same
    board after every move."""

    def run() -> Outcome:
        import pyspiel

        size = 5
        graph = grid(size, size)
        rng = random.Random(SEED)
        state = pyspiel.load_game("go", {"board_size": size, "komi": 0.5}).new_initial_state()
        game = Game(graph, "tromp-taylor")
        while not state.is_terminal() and len(game.moves) < 60:
            theirs = {openspiel_point(size, a) for a in state.legal_actions()}
            both = sorted((theirs & set(game.legal_moves())) - {PASS})
            v: Move = rng.choice(both) if both else PASS
            state.apply_action(openspiel_action(size, v))
            game.play(v)
            if openspiel_board(size, state) != game.board:
                return Outcome(False, f"boards differ after move {len(game.moves)}")
        return Outcome(True, f"{len(game.moves)} moves, boards agree")

    return Check("OpenSpiel board = engine (random game)", "grid:5x5", run, "engines")


def checks() -> list[Check]:
    """The checks against sgfmill, GNU Go and OpenSpiel."""
    return [sgfmill_check(), gnugo_check(), openspiel_check()]
