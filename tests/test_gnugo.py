"""The engine against GNU Go over GTP (a real ``gnugo --mode gtp`` process).

GNU Go is started with ``--chinese-rules --allow-all-suicide --positional-superko``:
area scoring, suicide allowed, no board may repeat, which is Tromp–Taylor's rule set.
Random games are played in both; every move must be accepted by GNU Go, the board is
compared after every move, and at each step GNU Go's ``is_legal`` is asked about every
empty point.  The one known difference (docs/known_differences.md): GNU Go does not apply
positional superko to a suicide, so it calls legal a suicide (of one stone, which leaves the
board as it was, or of more) whose board repeats an earlier one.
"""

from __future__ import annotations

import random

import pytest

from gorules.impl.engine.rules import Game
from gorules.impl.formats.gtp import GtpClient, gnugo_command, gtp_vertex
from gorules.spec.graph import grid
from gorules.spec.tromp_taylor import PASS


@pytest.fixture(scope="module")
def gnugo():
    """One GNU Go process under the Tromp–Taylor-aligned flags, for the whole module."""
    with GtpClient(gnugo_command("tromp-taylor")) as client:
        yield client


def repeating_suicide(game: Game, v: int) -> bool:
    """Whether the player to move playing v would be a suicide (its stone is removed) whose
    board repeats an earlier board of the game: the case GNU Go lets through."""
    from gorules.impl.engine.rules import move

    after = move(game.graph, game.state(), v)
    if after is None or after.board[v] != ".":
        return False
    return any(state.board == after.board for state in game.states())


def play_random_game(gnugo: GtpClient, size: int, seed: int, legality: bool) -> dict:
    """A random Tromp–Taylor game played in the engine and in GNU Go; boards compared after
    every move, and (if ``legality``) GNU Go's is_legal compared on every empty point."""
    rng = random.Random(seed)
    graph = grid(size, size)
    gnugo.new_game(graph, komi=0)
    game = Game(graph, "tromp-taylor")
    seen = {"moves": 0, "captures": 0, "repeating_suicides": 0, "refused_by_both": 0}
    while not game.over and len(game.moves) < 3 * size * size:
        if legality:
            for v in graph.points:
                if game.board[v] != ".":
                    continue
                theirs = gnugo.send(f"is_legal {game.to_move} {gtp_vertex(graph, v)}") == "1"
                ours = game.why_illegal(v) is None
                if theirs and not ours:
                    assert repeating_suicide(game, v), (seed, game.moves, v)
                    seen["repeating_suicides"] += 1
                else:
                    assert theirs == ours, (seed, game.moves, v)
                    seen["refused_by_both"] += not ours
        legal = game.legal_moves()
        points = [v for v in legal if v != PASS]
        v = rng.choice(points) if points and rng.random() > 0.03 else PASS
        player = game.to_move
        stones_before = game.board.count(".")
        game.play(v)
        assert gnugo.play(graph, player, v), (seed, game.moves)
        assert gnugo.board(graph) == game.board, (seed, game.moves)
        seen["moves"] += 1
        seen["captures"] += v != PASS and game.board.count(".") >= stones_before
    return seen


@pytest.mark.parametrize("size,seed", [(5, s) for s in range(6)] + [(7, 0), (9, 0)])
def test_random_games_agree_with_gnugo(gnugo, size, seed):
    """Random games: GNU Go accepts every move the engine plays, has the same board after
    every move, and calls the same empty points legal (but suicides that repeat a board)."""
    seen = play_random_game(gnugo, size, seed, legality=size <= 7)
    assert seen["moves"] >= size and seen["captures"] > 0
    if size <= 7:
        # illegal points were met: single-stone suicides, or moves both engines refuse
        assert seen["repeating_suicides"] + seen["refused_by_both"] > 0


def test_gnugo_accepts_a_single_stone_suicide_that_superko_forbids(gnugo):
    """The known difference, shown: White's stone at A1 between Black's A2 and B1 removes
    itself and leaves the board as it was; positional superko forbids that, GNU Go plays it."""
    graph = grid(5, 5)
    gnugo.new_game(graph)
    game = Game(graph, "tromp-taylor")
    for name, player in (("A2", "B"), ("E5", "W"), ("B1", "B")):
        from gorules.spec.graph import parse_point

        v = parse_point(graph, name)
        game.play(v)
        assert gnugo.play(graph, player, v)
    a1 = parse_point(graph, "A1")
    assert "superko" in game.why_illegal(a1)
    assert gnugo.play(graph, "W", a1)  # GNU Go accepts it ...
    assert gnugo.board(graph) == game.board  # ... and the board is unchanged


def test_gnugo_refuses_a_ko_recapture_like_the_engine(gnugo):
    """Positional superko in both: the immediate recapture of a ko is refused."""
    from gorules.spec.graph import parse_point

    graph = grid(5, 5)
    gnugo.new_game(graph)
    game = Game(graph, "tromp-taylor")
    for name in ["C4", "D4", "B3", "E3", "C2", "D2", "D3", "C3"]:
        v = parse_point(graph, name)
        player = game.to_move
        game.play(v)
        assert gnugo.play(graph, player, v)
    d3 = parse_point(graph, "D3")
    assert game.why_illegal(d3) is not None
    assert not gnugo.play(graph, "B", d3)
    assert gnugo.board(graph) == game.board


def test_gnugo_accepts_a_whole_board_suicide_back_to_the_empty_board(gnugo):
    """The same difference with four stones: on 2×2, Black's fourth stone removes all of
    Black's stones and brings back the empty board; positional superko forbids it."""
    from gorules.spec.graph import parse_point

    graph = grid(2, 2)
    gnugo.new_game(graph)
    game = Game(graph, "tromp-taylor")
    for name in ("A1", PASS, "B1", PASS, "A2", PASS):
        v = name if name == PASS else parse_point(graph, name)
        player = game.to_move
        game.play(v)
        assert gnugo.play(graph, player, v)
    b2 = parse_point(graph, "B2")
    assert "superko" in game.why_illegal(b2)
    assert gnugo.send("is_legal B B2") == "1" and gnugo.play(graph, "B", b2)
    assert gnugo.board(graph) == game.states()[0].board  # the empty board again
