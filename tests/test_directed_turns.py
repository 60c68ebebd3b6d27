"""Full turns of source 000 through the common interface: a start board, history deletion,
ko bids and their answers, and the one-line refusals of bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.spec.directed import KoBid, Turn
from gorules.spec.graph import parse_graph


def situation_after(board: str, words: list[str]):
    """The situation on path:3 from `board` after the turns the words name."""
    ruleset = rulesets.make("directed", None, {"board": board})
    graph = parse_graph("path:3")
    situation = ruleset.initial(graph)
    for word in words:
        situation = situation.play(ruleset.parse_move(graph, word))
    return situation


def test_a_bid_answered_with_a_reset():
    """Black's stone on 0 beside its stone on 1; White, ko winner, resets to the history's .B.,
    Black (the loser) gains the bid, and it is White's turn."""
    s = situation_after(".B.", ["0:bid=1/2:winner=W:reset=.B."])
    assert s.state.board == (".", "B", ".") and s.state.player == "W"
    assert s.state.black_score == Fraction(1, 2) and s.state.white_score == 0


def test_deletion_empties_the_history_and_an_ignored_bid_changes_nothing():
    s = situation_after("...", ["1", "0:delete=W:bid=0"])
    assert s.state.history == frozenset()
    assert s.details()["scores"] == {"B": "0", "W": "0"}


def test_turn_words_read_back():
    ruleset = rulesets.make("directed", None, {})
    graph = parse_graph("path:3")
    turn = Turn(2, "B", KoBid(Fraction(3, 4), "W", (".", "B", ".")))
    assert ruleset.parse_move(graph, ruleset.move_text(graph, turn)) == turn


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "directed", "path:3", "--moves", "0:bid=-1"], "nonnegative rational"),
        (["play", "directed", "path:3", "--moves", "0:bid=x"], "nonnegative rational"),
        (["play", "directed", "path:3", "--moves", "0:bid=1/0"], "nonnegative rational"),
        (["play", "directed", "path:3", "--option", "board=.B"], "not a board of path:3"),
        (["play", "directed", "path:3", "--option", "board=.X."], "one of B, W"),
        (["play", "directed", "path:3", "--moves", "0:winner=B"], "answer a ko bid"),
        (["play", "directed", "path:3", "--moves", "0:bid=1:winner=B:reset=BBB"], "not in the history"),
        (["play", "directed", "path:3", "--moves", "pass:bid=1"], "a bid follows a pass"),
        (["play", "directed", "path:3", "--moves", "0:colour=B"], "a turn's parts"),
    ],
)
def test_bad_turns_are_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err, err
