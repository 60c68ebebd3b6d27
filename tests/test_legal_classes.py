"""The classes of points that CompiledGame keeps incrementally, against a listing from scratch.

After every move the compiled game refreshes the class of a few points only (the point
played, the stones removed, their empty neighbours, the only liberties of the chains next to
them) and lists the legal actions from those classes.  Here, at every move of random games
under several rulesets, the kept classes must equal the classes computed from the board
alone (below, in plain Python), and the legal actions must equal the pure engine's legal
moves, which it finds from scratch.  A mutant that forgets the points around captured
stones must be caught.
"""

from __future__ import annotations

import random

import pytest

from gorules.impl.engine.options import Options
from gorules.impl.engine.rules import CompiledGame, Game
from gorules.impl.kernels import game as kernel
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PASS

RULES = [
    "tromp-taylor",
    "openspiel",
    "situational",
    "no-suicide",
    Options("simple", "allowed"),
    Options("none", "forbidden"),
    Options("situational", "forbidden"),
]
GRAPHS = ["grid:3x3", "grid:4x4", "grid:5x5", "grid:2x6", "cycle:7", "petersen", "star:5", "complete:4"]

OCCUPIED, PLACEMENT, CAPTURE, LONE_SUICIDE, SUICIDE = range(5)  # the classes of _set_classes


def chains_and_liberties(graph, board) -> tuple[dict, dict]:
    """(the chain of each stone as a frozenset, the liberties of each chain) of a board."""
    chain_of: dict = {}
    liberties: dict = {}
    for start in graph.points:
        if board[start] == "." or start in chain_of:
            continue
        chain, frontier, free = {start}, [start], set()
        while frontier:
            u = frontier.pop()
            for w in graph.neighbours[u]:
                if board[w] == ".":
                    free.add(w)
                elif board[w] == board[start] and w not in chain:
                    chain.add(w)
                    frontier.append(w)
        key = frozenset(chain)
        liberties[key] = free
        for u in chain:
            chain_of[u] = key
    return chain_of, liberties


def class_from_scratch(graph, board, v, colour, chain_of, liberties) -> int:
    """What a stone of ``colour`` placed at v does, read off the board."""
    if board[v] != ".":
        return OCCUPIED
    neighbours = graph.neighbours[v]
    if any(board[w] not in (".", colour) and liberties[chain_of[w]] == {v} for w in neighbours):
        return CAPTURE
    if any(board[w] == "." or (board[w] == colour and liberties[chain_of[w]] != {v}) for w in neighbours):
        return PLACEMENT
    return SUICIDE if any(board[w] == colour for w in neighbours) else LONE_SUICIDE


def classes_from_scratch(graph, board) -> list[list[int]]:
    """The class of every point for Black and for White (rows as the kernel keeps them)."""
    chain_of, liberties = chains_and_liberties(graph, board)
    return [[class_from_scratch(graph, board, v, colour, chain_of, liberties) for v in graph.points] for colour in "BW"]


def kept_classes(game: CompiledGame) -> list[list[int]]:
    """The classes the compiled game keeps, for Black and for White."""
    rows = game._arrays.pts[kernel.CLASS : kernel.CLASS_WHITE + 1, : game.graph.order]
    return rows.tolist()


def first_difference(graph, options, rng, cap, game=None, classes=True) -> str | None:
    """Play a uniformly random game through the step API; at every move compare the kept
    classes (unless ``classes`` is false) with the classes from scratch and the legal
    actions with the pure game's legal moves.  The first difference seen, or None."""
    pure = Game(graph, options)
    game = CompiledGame(graph, options) if game is None else game
    n = graph.order
    while not pure.over and len(pure) < cap:
        if classes and kept_classes(game) != classes_from_scratch(graph, pure.board):
            return f"classes after {pure.moves}"
        actions = list(game.legal_actions())
        if actions != [n if v == PASS else v for v in pure.legal_moves()]:
            return f"legal actions after {pure.moves}"
        action = rng.choice(actions)
        pure.play(PASS if action == n else action)
        game.apply_action(action)
    return None


@pytest.mark.parametrize("options", RULES, ids=str)
def test_kept_classes_and_legal_actions_equal_a_listing_from_scratch(options):
    rng = random.Random(41)
    for name in GRAPHS:
        graph = parse_graph(name)
        for _ in range(5):
            assert first_difference(graph, options, rng, 8 * graph.order) is None, name


@pytest.mark.parametrize("options", ["tromp-taylor", "openspiel"])
def test_the_same_on_9x9(options):
    rng = random.Random(43)
    graph = parse_graph("grid:9x9")
    for _ in range(3):
        assert first_difference(graph, options, rng, 2 * graph.order) is None


def test_undo_and_a_given_board_keep_the_classes():
    graph = parse_graph("grid:4x4")
    board = tuple("BW..B...W.B.....")
    game = CompiledGame(graph, board=board, to_move="W")
    assert kept_classes(game) == classes_from_scratch(graph, board)
    rng = random.Random(47)
    for _ in range(40):
        game.play(rng.choice(game.legal_moves()))
        if rng.random() < 0.3:
            game.undo()
        assert kept_classes(game) == classes_from_scratch(graph, game.board)


class ForgetsAroundCaptures(CompiledGame):
    """A mutant: after a move it keeps the old class of every point that only the stones
    it removed would have marked (the stones themselves, their empty neighbours, the only
    liberties of the chains next to them), as if removing a chain marked nothing."""

    def apply_action(self, action: int) -> None:
        """Play the action, then put back the classes the removal of stones refreshed."""
        n = self._n
        self._listing = 0  # list the next position after the classes are put back
        before = self._arrays.pts[kernel.CLASS : kernel.CLASS_WHITE + 1].copy()
        old_board = self.board
        super().apply_action(action)
        if action == n:
            return
        board = self.board
        removed = [u for u in self.graph.points if old_board[u] != "." and board[u] == "."]
        if not removed:
            return
        refreshed = {action} | {w for w in self.graph.neighbours[action] if old_board[w] == "."}
        chain_of, liberties = chains_and_liberties(self.graph, board)
        for w in self.graph.neighbours[action]:
            if board[w] != "." and len(liberties[chain_of[w]]) == 1:
                refreshed |= liberties[chain_of[w]]
        rows = self._arrays.pts[kernel.CLASS : kernel.CLASS_WHITE + 1]
        for u in self.graph.points:
            if u not in refreshed:
                rows[:, u] = before[:, u]


@pytest.mark.parametrize("classes", [True, False], ids=["classes", "legal actions alone"])
def test_a_game_that_forgets_the_points_around_captures_is_caught(classes):
    # Caught by its classes, and by the legal actions it lists even without looking at them.
    rng = random.Random(53)
    caught = 0
    for name in ("grid:3x3", "grid:4x4", "grid:5x5"):
        graph = parse_graph(name)
        for options in ("tromp-taylor", "openspiel"):
            for _ in range(4):
                mutant = ForgetsAroundCaptures(graph, options)
                caught += first_difference(graph, options, rng, 8 * graph.order, mutant, classes) is not None
    assert caught >= (12 if classes else 4)
