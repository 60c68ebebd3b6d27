"""The compiled game (impl.engine.rules.CompiledGame) against the pure Game, move by move."""

from __future__ import annotations

import random

import pytest

from gorules.impl.engine.compiled import KO_CODES
from gorules.impl.engine.options import Options
from gorules.impl.engine.rules import CompiledGame, EngineError, Game, IllegalMove
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PASS

KO_OPENING = [1, 2, 4, 5, 9, 7, PASS, 10, 6]  # Black takes a ko at 6 on grid:3x4
FILL_2X2 = [0, PASS, 1, PASS, 2, PASS]  # then Black 3 kills all four of its stones

RULES = ["tromp-taylor", "openspiel", "situational", "no-suicide", Options("none", "allowed")]


def differences(pure: Game, compiled: CompiledGame) -> list[str]:
    """What the two games disagree on now (board, player, passes, legal moves, score, reasons)."""
    found = []
    for name in ("board", "to_move", "passes", "over"):
        if getattr(pure, name) != getattr(compiled, name):
            found.append(name)
    if pure.legal_moves() != compiled.legal_moves():
        found.append("legal moves")
    if pure.score() != compiled.score():
        found.append("score")
    if not pure.over:
        for v in range(pure.graph.order):
            if pure.why_illegal(v) != compiled.why_illegal(v):
                found.append(f"reason at {v}")
    return found


def replay_differences(graph, moves, options, compiled=None) -> list[str]:
    """Play the moves on both games, comparing after every move; the first disagreements."""
    pure = Game(graph, options)
    compiled = CompiledGame(graph, options) if compiled is None else compiled
    for v in moves:
        found = differences(pure, compiled)
        if found:
            return found
        pure.play(v)
        compiled.play(v)
    return differences(pure, compiled)


def random_game_differences(graph, options, rng, cap, compiled=None) -> list[str]:
    """A uniformly random game (pass among the choices) checked move by move; the first
    disagreements, or [] if there were none."""
    pure = Game(graph, options)
    compiled = CompiledGame(graph, options) if compiled is None else compiled
    while not pure.over and len(pure) < cap:
        found = differences(pure, compiled)
        if found:
            return found
        v = rng.choice(pure.legal_moves())
        pure.play(v)
        compiled.play(v)
    return differences(pure, compiled)


GRAPHS = [f"grid:{k}x{k}" for k in range(2, 8)] + [
    "grid:2x5",
    "grid:3x4",
    "cycle:3",
    "cycle:6",
    "petersen",
    "complete:4",
    "star:5",
    "path:7",
]


@pytest.mark.parametrize("options", RULES, ids=str)
def test_random_games_agree_move_by_move(options):
    rng = random.Random(7)
    for name in GRAPHS:
        graph = parse_graph(name)
        for _ in range(6):
            assert random_game_differences(graph, options, rng, 6 * graph.order) == [], name


def test_large_grids_agree_move_by_move():
    rng = random.Random(3)
    for size, cap in ((9, 250), (13, 200), (19, 300)):
        graph = parse_graph(f"grid:{size}x{size}")
        pure, compiled = Game(graph), CompiledGame(graph)
        while not pure.over and len(pure) < cap:
            assert pure.legal_moves() == compiled.legal_moves()
            assert pure.board == compiled.board
            v = rng.choice(pure.legal_moves())
            pure.play(v)
            compiled.play(v)
        assert pure.score() == compiled.score() and pure.winner() == compiled.winner()


def test_superko_forbids_retaking_the_ko():
    graph = parse_graph("grid:3x4")
    assert replay_differences(graph, KO_OPENING, "tromp-taylor") == []
    g = CompiledGame(graph)
    for v in KO_OPENING:
        g.play(v)
    assert 5 not in g.legal_moves()
    with pytest.raises(IllegalMove, match="positional superko"):
        g.play(5)
    with pytest.raises(IllegalMove, match="occupied"):
        g.play(6)


def test_a_four_stone_suicide_that_empties_the_board():
    graph = parse_graph("grid:2x2")
    for options, legal in (("tromp-taylor", False), ("no-suicide", False), (Options("none", "allowed"), True)):
        assert replay_differences(graph, FILL_2X2, options) == []
        g = CompiledGame(graph, options)
        for v in FILL_2X2:
            g.play(v)
        assert (3 in g.legal_moves()) == legal
        if legal:
            g.play(3)
            assert g.board == tuple("....")
    g = CompiledGame(graph, "no-suicide")
    for v in FILL_2X2:
        g.play(v)
    with pytest.raises(IllegalMove, match="suicide"):
        g.play(3)


def test_a_two_stone_suicide_that_does_not_repeat_is_played():
    # grid:3x3, Black 0 beside White 2 3 4: Black 1 joins 0 and the two stones die.
    graph = parse_graph("grid:3x3")
    moves = [0, 2, PASS, 3, PASS, 4, 1]
    for options in ("tromp-taylor", "situational", "openspiel"):
        assert replay_differences(graph, moves[:-1], options) == []
    g = CompiledGame(graph)
    for v in moves:
        g.play(v)
    assert g.board == tuple("..WWW....")
    g = CompiledGame(graph, "no-suicide")
    for v in moves[:-1]:
        g.play(v)
    assert 1 not in g.legal_moves()
    with pytest.raises(IllegalMove, match="suicide"):
        g.play(1)


def test_every_hash_colliding_still_decides_exactly():
    # With all Zobrist keys zero every position has hash 0: each move is a hash hit, and
    # only the exact comparison of boards may forbid it.
    rng = random.Random(11)
    for name in ("grid:3x3", "grid:4x4", "petersen"):
        graph = parse_graph(name)
        for _ in range(5):
            compiled = CompiledGame(graph)
            arrays = compiled._arrays
            arrays.zob[:] = 0
            arrays.pts[7, :] = 0
            arrays.hist[0, 0] = 0
            compiled._allocate(compiled._capacity)  # the hash table again
            assert random_game_differences(graph, "tromp-taylor", rng, 6 * graph.order, compiled) == []


def test_a_compiled_game_without_superko_is_caught():
    graph = parse_graph("grid:3x4")
    mutant = CompiledGame(graph)
    mutant._arrays.scal[1] = KO_CODES["none"]
    assert replay_differences(graph, KO_OPENING, "tromp-taylor", mutant) != []
    rng = random.Random(5)
    caught = 0
    for _ in range(30):
        mutant = CompiledGame(graph)
        mutant._arrays.scal[1] = KO_CODES["none"]
        caught += random_game_differences(graph, "tromp-taylor", rng, 200, mutant) != []
    assert caught > 0
    caught = 0
    for _ in range(30):
        mutant = CompiledGame(graph)
        mutant._arrays.scal[1] = KO_CODES["none"]
        caught += random_action_game_differences(graph, "tromp-taylor", rng, 200, mutant) != []
    assert caught > 0


def test_undo_returns_to_every_earlier_state():
    rng = random.Random(2)
    for name in ("grid:4x4", "cycle:5", "petersen"):
        graph = parse_graph(name)
        for options in ("tromp-taylor", "openspiel"):
            pure, compiled = Game(graph, options), CompiledGame(graph, options)
            while not pure.over and len(pure) < 5 * graph.order:
                v = rng.choice(pure.legal_moves())
                pure.play(v)
                compiled.play(v)
            assert compiled.states() == pure.states()
            while len(pure):
                assert compiled.undo() == pure.undo()
                assert differences(pure, compiled) == []
            with pytest.raises(IllegalMove, match="nothing to undo"):
                compiled.undo()


def test_long_games_grow_the_history():
    # Without a ko rule random games run long: past the first allocation of 64 positions.
    graph = parse_graph("grid:3x3")
    options = Options("none", "allowed")
    rng = random.Random(9)
    longest = 0
    for _ in range(5):
        pure, compiled = Game(graph, options), CompiledGame(graph, options)
        while not pure.over and len(pure) < 400:
            v = rng.choice(pure.legal_moves()[:-1] or [PASS])
            pure.play(v)
            compiled.play(v)
            if rng.random() < 0.1:
                assert compiled.undo() == pure.undo()
        assert differences(pure, compiled) == []
        assert compiled.states() == pure.states()
        longest = max(longest, len(pure))
    assert longest > 64


def test_a_given_starting_board():
    graph = parse_graph("grid:3x3")
    board = tuple("BW..BW...")
    pure, compiled = Game(graph, board=board, to_move="W"), CompiledGame(graph, board=board, to_move="W")
    assert differences(pure, compiled) == []
    rng = random.Random(4)
    while not pure.over:
        v = rng.choice(pure.legal_moves())
        pure.play(v)
        compiled.play(v)
        assert differences(pure, compiled) == []


def test_directed_graphs_and_unknown_points_are_refused():
    with pytest.raises(EngineError, match="undirected"):
        CompiledGame(parse_graph("digraph:0>1,1>2,2>0"))
    g = CompiledGame(parse_graph("grid:2x2"))
    with pytest.raises(IllegalMove, match="unknown point"):
        g.play(4)
    assert not g.try_play(-1) and not g.try_play("a")
    g.pass_()
    g.pass_()
    assert g.over and g.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        g.play(0)


def actions_of(pure: Game) -> list[int]:
    """The pure game's legal moves as OpenSpiel numbers actions (pass is n); [] once over."""
    n = pure.graph.order
    return [n if v == PASS else v for v in pure.legal_moves()]


def random_action_game_differences(graph, options, rng, cap, compiled=None) -> list[str]:
    """A uniformly random game driven through the step API (``is_terminal``,
    ``legal_actions``, ``apply_action``) against the pure game; the first disagreements."""
    pure = Game(graph, options)
    compiled = CompiledGame(graph, options) if compiled is None else compiled
    while not compiled.is_terminal() and len(compiled) < cap:
        actions = compiled.legal_actions()
        if list(actions) != actions_of(pure):
            return ["legal actions"]
        action = rng.choice(actions)
        pure.play(PASS if action == graph.order else action)
        compiled.apply_action(action)
        found = differences(pure, compiled)
        if found:
            return found
    return [] if compiled.is_terminal() == pure.over else ["terminal"]


@pytest.mark.parametrize("options", RULES, ids=str)
def test_the_step_api_agrees_move_by_move(options):
    rng = random.Random(17)
    for name in GRAPHS:
        graph = parse_graph(name)
        for _ in range(4):
            assert random_action_game_differences(graph, options, rng, 6 * graph.order) == [], name


def test_the_step_api_on_a_large_grid():
    rng = random.Random(23)
    graph = parse_graph("grid:19x19")
    pure, compiled = Game(graph), CompiledGame(graph)
    while not compiled.is_terminal() and len(compiled) < 400:
        actions = compiled.legal_actions()
        assert list(actions) == actions_of(pure)
        action = rng.choice(actions)
        pure.play(PASS if action == graph.order else action)
        compiled.apply_action(action)
    assert pure.board == compiled.board and pure.score() == compiled.score()


def test_legal_actions_handed_out_never_change():
    # Views of the log kept across a whole game, undo and a different continuation, and
    # the history growing past its first allocation: each still reads as when handed out.
    graph = parse_graph("grid:3x3")
    rng = random.Random(31)
    compiled = CompiledGame(graph, Options("none", "allowed"))
    kept = []
    while len(compiled) < 300:
        actions = compiled.legal_actions()
        kept.append((actions, list(actions)))
        points = [a for a in actions if a != graph.order]
        compiled.apply_action(rng.choice(points or [graph.order]))
        if rng.random() < 0.1:
            compiled.undo()
    assert compiled._capacity > 64
    assert all(list(view) == seen for view, seen in kept)
    with pytest.raises(TypeError):
        kept[0][0][0] = 5  # read-only


def test_apply_action_numbers_pass_n_and_refuses_like_play():
    graph = parse_graph("grid:3x4")
    g = CompiledGame(graph)
    for v in KO_OPENING:
        g.apply_action(graph.order if v == PASS else v)
    assert g.moves == KO_OPENING
    assert 5 not in g.legal_actions() and g.legal_actions()[-1] == graph.order
    with pytest.raises(IllegalMove, match="positional superko"):
        g.apply_action(5)
    with pytest.raises(IllegalMove, match="occupied"):
        g.apply_action(6)
    for unknown in (graph.order + 1, -1, -graph.order):
        with pytest.raises(IllegalMove, match="unknown point"):
            g.apply_action(unknown)
    g.apply_action(graph.order)
    g.apply_action(graph.order)
    assert g.is_terminal() and len(g.legal_actions()) == 0
    with pytest.raises(IllegalMove, match="over"):
        g.apply_action(graph.order)
