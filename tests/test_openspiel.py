"""The engine against OpenSpiel's ``go`` game: random games, the board compared after every move.

OpenSpiel's rules, read from its source (``go_board.cc``, ``go.cc``) and checked here by
experiment: suicide is forbidden; a simple ko rule forbids, for one move, the point of a
single stone just captured by a stone played into an eye; a board that repeats ends the
game as a draw instead of being forbidden; the game also ends after 2·n² moves; the score
is Tromp–Taylor's area score with komi.  The engine's ``openspiel`` preset (simple ko,
suicide forbidden, area scoring, komi 7.5) must allow exactly the same moves.  (OpenSpiel's
ko point and the engine's simple ko by repeated board forbid the same moves: a recapture
at the ko point can only take the one stone that captured, because every other chain next
to the ko point kept a liberty of its own; docs/known_differences.md gives the argument.)
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from gorules.impl.engine.options import options_of
from gorules.impl.engine.rules import CompiledGame, Game
from gorules.impl.formats.spiel import openspiel_action, openspiel_board, openspiel_point
from gorules.spec.graph import grid, parse_point
from gorules.spec.tromp_taylor import PASS


def random_game(size: int, seed: int, komi: float = 7.5, length: int = 8):
    """Play a random game in OpenSpiel and in the engine (under the ``openspiel`` preset and
    under Tromp–Taylor), moves drawn among those legal in all three; compare the legal
    moves and the boards after every move.  Returns counts of what was seen."""
    rng = random.Random(seed)
    graph = grid(size, size)
    limit = length * size * size
    parameters = {"board_size": size, "komi": komi, "max_game_length": limit}
    state = pyspiel.load_game("go", parameters).new_initial_state()
    aligned = Game(graph, options_of("openspiel").with_komi(komi))
    tromp_taylor = Game(graph, "tromp-taylor")
    seen = {"moves": 0, "refused_on_empty": 0}
    while not state.is_terminal():
        ours = set(aligned.legal_moves())
        theirs = {openspiel_point(size, a) for a in state.legal_actions()}
        assert theirs == ours, (seed, seen["moves"], theirs ^ ours)
        seen["refused_on_empty"] += aligned.board.count(".") - (len(theirs) - 1)
        both = sorted(ours & theirs & set(tromp_taylor.legal_moves()), key=str)
        points = [v for v in both if v != PASS]
        v = rng.choice(points) if points and rng.random() > 0.02 else PASS
        state.apply_action(openspiel_action(size, v))
        aligned.play(v)
        tromp_taylor.play(v)
        seen["moves"] += 1
        assert openspiel_board(size, state) == aligned.board == tromp_taylor.board, (seed, seen["moves"])
    return state, aligned, seen


@pytest.mark.parametrize("size,seed", [(5, s) for s in range(12)] + [(7, s) for s in range(4)] + [(9, 0), (9, 1)])
def test_random_games_agree_with_openspiel(size, seed):
    """Random games on 5×5, 7×7 and 9×9: the same legal moves and the same board after
    every move, and the same winner at the end.  (Moves are drawn
    among those Tromp–Taylor allows too, so no board repeats and OpenSpiel's
    repetition-ends-the-game rule never applies.)"""
    state, aligned, seen = random_game(size, seed, komi=0.5 if seed % 2 else 7.5)
    assert seen["moves"] > size  # a real game was played
    assert seen["refused_on_empty"] > 0  # suicides or ko were met and refused by both
    returns = state.returns()
    expected = {"B": [1.0, -1.0], "W": [-1.0, 1.0], "draw": [0.0, 0.0]}[aligned.winner()]
    assert returns == expected


def test_openspiel_forbids_suicide_and_simple_ko_like_the_preset():
    """On 5×5: White's suicide at A1 and Black's immediate ko recapture at D3 are refused
    by OpenSpiel and by the engine's ``openspiel`` preset alike; all else is the same."""
    size = 5
    graph = grid(size, size)
    state = pyspiel.load_game("go", {"board_size": size, "komi": 0.5}).new_initial_state()
    game = Game(graph, options_of("openspiel").with_komi(0.5))

    def legal_in_both(name: str) -> tuple[bool, bool]:
        v = parse_point(graph, name)
        return openspiel_action(size, v) in state.legal_actions(), v in game.legal_moves()

    def play(names: str) -> None:
        for name in names.split():
            v = parse_point(graph, name)
            state.apply_action(openspiel_action(size, v))
            game.play(v)

    play("A2 E5 B1")
    assert legal_in_both("A1") == (False, False)  # White's stone would have no liberty
    play("D4 C4 E3 B3 D2 C2 E1 D3 C3")  # White C3 takes the black stone at D3
    assert game.board[parse_point(graph, "D3")] == "."
    assert legal_in_both("D3") == (False, False)  # the ko: Black may not retake at once
    assert openspiel_board(size, state) == game.board
    assert {openspiel_point(size, a) for a in state.legal_actions()} == set(game.legal_moves())


@pytest.mark.parametrize("size,seed", [(5, 0), (5, 1), (7, 2), (9, 3)])
def test_the_compiled_step_api_lists_openspiels_legal_actions(size, seed):
    """OpenSpiel's loop on both sides (``legal_actions``, a uniform choice, ``apply_action``)
    with the compiled game under the ``openspiel`` preset: after every move the same legal
    actions (a point, or n for pass, mapped to OpenSpiel's numbers) and the same board, until
    OpenSpiel's game ends (two passes, its move cap, or a repeated board)."""
    rng = random.Random(seed)
    graph = grid(size, size)
    n = graph.order
    state = pyspiel.load_game("go", {"board_size": size, "komi": 7.5}).new_initial_state()
    game = CompiledGame(graph, "openspiel")
    moves = 0
    while not state.is_terminal():
        ours = sorted(openspiel_action(size, PASS if a == n else a) for a in game.legal_actions())
        assert ours == state.legal_actions(), (seed, moves)
        action = rng.choice(game.legal_actions())
        state.apply_action(openspiel_action(size, PASS if action == n else action))
        game.apply_action(action)
        moves += 1
        assert openspiel_board(size, state) == game.board, (seed, moves)
    assert moves > size * size  # a real game was played
