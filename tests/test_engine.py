"""The engine beyond the shared API: Game, rule options and presets, errors, the kernel."""

from __future__ import annotations

import random

import pytest

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.engine import rules as engine
from gorules.impl.engine.options import PRESETS, OptionError, Options, gnugo_flags, options_of
from gorules.impl.engine.rules import BoardError, Game, IllegalMove, kernel, random_playout
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PASS, State

KO_OPENING = [1, 2, 4, 5, 9, 7, PASS, 10, 6]  # Black takes a ko at 6 on grid:3x4
SUICIDE_AT_0 = [PASS, 1, PASS, 3]  # on cycle:4, Black 0 is then a single-stone suicide


def played(graph_name: str, moves, options="tromp-taylor") -> Game:
    """A Game on the named graph after the given moves."""
    g = Game(parse_graph(graph_name), options)
    for v in moves:
        g.play(v)
    return g


# --------------------------------------------------------------------------- Game


def test_game_tracks_board_player_and_passes():
    g = played("grid:3x3", [4])
    assert g.board == tuple("....B....")
    assert g.to_move == "W" and g.passes == 0 and not g.over
    g.pass_()
    g.play(PASS)
    assert g.over and g.passes == 2 and len(g) == 3


def test_game_states_are_the_specs_states():
    moves = KO_OPENING + [3, 0, 5, PASS, PASS]
    g = played("grid:3x4", moves)
    assert g.states() == spec_rules.game(parse_graph("grid:3x4"), moves)


def test_illegal_moves_name_their_reason():
    g = played("grid:3x4", KO_OPENING)
    with pytest.raises(IllegalMove, match="occupied"):
        g.play(6)
    with pytest.raises(IllegalMove, match="superko"):
        g.play(5)
    with pytest.raises(IllegalMove, match="unknown point"):
        g.play(12)
    g.pass_()
    g.pass_()
    with pytest.raises(IllegalMove, match="over"):
        g.play(0)
    with pytest.raises(IllegalMove, match="over"):
        g.pass_()


def test_a_refused_move_changes_nothing():
    g = played("grid:3x4", KO_OPENING)
    before = g.state()
    assert not g.try_play(5)
    assert g.state() == before and len(g) == len(KO_OPENING)


def test_undo_restores_the_state_and_the_superko_memory():
    g = played("cycle:4", [0])
    assert g.undo() == 0
    assert g.state() == spec_rules.initial_state(parse_graph("cycle:4"))
    g.play(0)  # the board "B..." is new again once the move is taken back
    assert g.board == tuple("B...")
    with pytest.raises(IllegalMove, match="nothing to undo"):
        Game(parse_graph("cycle:4")).undo()


def test_legal_moves_exclude_superko_and_occupied_points():
    g = played("grid:3x4", KO_OPENING)
    legal = g.legal_moves()
    assert 5 not in legal and 6 not in legal and PASS in legal
    # White at 0 or 8 would be a single-stone suicide, which repeats the board.
    assert legal == [3, 11, PASS]
    g.pass_()
    g.pass_()
    assert g.legal_moves() == []


def test_score_and_winner_of_a_game():
    g = played("path:3", [0, PASS, PASS])
    assert g.score() == (3, 0, 0)
    assert g.winner() == "B"


def test_a_game_can_start_from_a_given_position():
    graph = parse_graph("grid:3x3")
    g = Game(graph, board=tuple(".B./BWB/...".replace("/", "")), to_move="B")
    g.play(7)
    assert g.board == tuple(".B./B.B/.B.".replace("/", ""))


# --------------------------------------------------------------------------- rule options


def test_situational_superko_allows_what_positional_forbids():
    assert not played("cycle:4", SUICIDE_AT_0).try_play(0)
    g = played("cycle:4", SUICIDE_AT_0, "situational")
    assert g.try_play(0)
    assert g.board == tuple(".W.W") and g.to_move == "W"
    # The same board with the same player to move may not come back.
    g.pass_()
    assert not g.try_play(0)


def test_simple_ko_forbids_only_the_immediate_retake():
    simple = Options(ko="simple")
    assert not played("grid:3x4", KO_OPENING, simple).try_play(5)
    assert played("grid:3x4", KO_OPENING + [3, 0], simple).try_play(5)
    # A single-stone suicide repeats the current board, not the one before: allowed.
    assert played("cycle:4", SUICIDE_AT_0, simple).try_play(0)


def test_no_ko_rule_allows_the_immediate_retake():
    g = played("grid:3x4", KO_OPENING, Options(ko="none"))
    g.play(5)
    assert g.board == played("grid:3x4", KO_OPENING[:-1]).board


def test_forbidden_suicide():
    options = Options(suicide="forbidden")
    g = played("grid:2x3", [0, 3, PASS, 4, PASS, 2], options)
    with pytest.raises(IllegalMove, match="suicide"):
        g.play(1)
    assert played("grid:2x3", [0, 3, PASS, 4, PASS, 2]).try_play(1)
    # Filling the last liberty of a chain while capturing is no suicide.
    g = played("cycle:6", [2, 1, 4, 5], options)
    g.play(0)
    assert g.board == tuple("B.B.B.")


def test_stone_scoring_counts_only_stones():
    g = played("path:3", [0, PASS, PASS], "stone")
    assert g.score() == (1, 0, 0)
    assert played("path:3", [0, PASS, PASS]).score() == (3, 0, 0)


def test_komi_goes_to_white():
    graph = parse_graph("path:2")
    assert Game(graph, Options(komi=0.5)).winner() == "W"
    assert Game(graph, Options(komi=-1)).winner() == "B"
    g = played("path:3", [0, PASS, PASS], Options(komi=3))
    assert g.score().margin == 0 and g.winner() == "draw"


def test_game_and_winner_take_a_ruleset():
    graph = parse_graph("cycle:4")
    moves = SUICIDE_AT_0 + [0, PASS, PASS]
    assert engine.game(graph, moves) is None
    assert engine.game(graph, moves, "situational") is not None
    assert engine.winner(graph, [PASS, PASS], "openspiel") == "W"  # komi 7.5


def test_presets():
    assert options_of() == options_of("tromp-taylor") == Options()
    assert options_of("tromp-taylor").name == "tromp-taylor"
    assert options_of("openspiel") == Options("simple", "forbidden", "area", 7.5)
    assert options_of("gnugo-tromp-taylor") == options_of("tromp-taylor")
    for name, options in PRESETS.items():
        assert options.name == name
    with pytest.raises(OptionError, match="unknown preset"):
        options_of("japanese")
    with pytest.raises(OptionError, match="unknown ko rule"):
        Options(ko="triple")


def test_gnugo_flags_say_the_same_rules():
    assert gnugo_flags("tromp-taylor") == [
        "--chinese-rules",
        "--allow-all-suicide",
        "--positional-superko",
        "--komi",
        "0",
    ]
    assert "--forbid-suicide" in gnugo_flags("gnugo-chinese")
    assert "--simple-ko" in gnugo_flags("gnugo-chinese")
    with pytest.raises(OptionError, match="stone"):
        gnugo_flags("stone")


# --------------------------------------------------------------------------- bad input


def test_a_board_of_the_wrong_shape_is_refused():
    graph = parse_graph("grid:2x2")
    with pytest.raises(BoardError, match="4 colours"):
        engine.score(graph, tuple("..."), "B")
    with pytest.raises(BoardError, match="colour 'x'"):
        engine.clear(graph, tuple("..x."), "B")
    with pytest.raises(BoardError, match="player"):
        engine.move(graph, State(tuple("...."), "black", 0), 0)
    with pytest.raises(BoardError, match="unknown point"):
        engine.move(graph, State(tuple("...."), "B", 0), 4)


def test_move_refuses_a_board_that_is_not_well_formed():
    graph = parse_graph("cycle:4")
    # The black stone at 2 is enclosed and does not reach an empty point.
    s = State(tuple(".WBW"), "B", 0)
    assert spec_rules.move(graph, s, 0) is not None  # the spec reads any board
    with pytest.raises(BoardError, match="point 2 does not reach an empty point"):
        engine.move(graph, s, 0)
    with pytest.raises(BoardError, match="not well-formed"):
        Game(graph, board=tuple(".WBW"))


def test_the_total_functions_read_any_board():
    graph = parse_graph("cycle:4")
    b = tuple(".WBW")
    assert engine.clear(graph, b, "B") == spec_rules.clear(graph, b, "B") == tuple(".W.W")
    assert engine.score(graph, b, "W") == spec_rules.score(graph, b, "W")


# --------------------------------------------------------------------------- kernel


@pytest.mark.parametrize("graph_name", ["grid:1x1", "grid:1x7", "grid:5x3", "grid:9x9", "grid:19x19"])
def test_grid_shifts_match_the_neighbour_masks(graph_name):
    k = kernel(parse_graph(graph_name))
    assert k.shape is not None
    rng = random.Random(graph_name)
    for _ in range(50):
        x = rng.getrandbits(k.n)
        expected = 0
        for v in range(k.n):
            if x >> v & 1:
                expected |= k.into[v]
        assert k.dilate_in(x) == expected


def test_only_true_grids_use_shifts():
    assert kernel(parse_graph("grid:3x3")).shape == (3, 3)
    assert kernel(parse_graph("cycle:9")).shape is None
    assert not kernel(parse_graph("digraph:0>1,1>2")).symmetric


def test_random_playouts_are_reproducible_and_legal():
    graph = parse_graph("grid:5x5")
    first = random_playout(graph, random.Random(7))
    second = random_playout(graph, random.Random(7))
    assert first.moves == second.moves
    states = spec_rules.game(graph, first.moves)
    assert states is not None and states[-1].board == first.board


def test_random_playouts_respect_the_rules():
    graph = parse_graph("grid:4x4")
    for seed in range(20):
        g = random_playout(graph, random.Random(seed), Options(ko="simple", suicide="forbidden"))
        replay = Game(graph, Options(ko="simple", suicide="forbidden"))
        for v in g.moves:
            replay.play(v)
        assert replay.board == g.board


def test_the_compiled_kernel_plays_what_the_pure_engine_allows():
    """Compiled playouts, replayed on the pure Game: every move legal, the same final
    board, and (passing only when forced) a pass only when no point is legal."""
    from gorules.impl.engine.rules import compiled_random_playout

    presets = [Options(), Options(ko="situational"), Options(ko="simple", suicide="forbidden"), Options(ko="none")]
    for graph_name in ["grid:4x4", "petersen", "cycle:6", "digraph:0>1,1>2,2>0,2>3,3>1,3>4,4>0"]:
        graph = parse_graph(graph_name)
        for options in presets:
            for seed in range(8):
                playout = compiled_random_playout(graph, random.Random(seed), options, pass_last=bool(seed % 2))
                g = Game(graph, options)
                for v in playout.moves:
                    if v == PASS and seed % 2:
                        assert g.legal_moves() == [PASS]
                    g.play(v)
                assert g.board == playout.board
                assert g.over or len(g) == 4 * graph.order


def test_states_of_a_game_from_a_given_position_start_there():
    graph = parse_graph("grid:3x3")
    start = tuple(".B./BWB/...".replace("/", ""))
    g = Game(graph, board=start, to_move="W")
    g.pass_()
    g.play(7)
    assert g.states() == [
        State(start, "W", 0),
        State(start, "B", 1),
        State(tuple(".B./B.B/.B.".replace("/", "")), "W", 0),
    ]


def test_points_may_be_any_integer_type_but_not_bool_or_text():
    import numpy as np

    graph = parse_graph("path:3")
    moves = [np.int64(0), PASS, PASS]
    assert engine.game(graph, moves) == spec_rules.game(graph, moves)
    g = Game(graph)
    assert g.try_play(np.int32(1)) and g.moves == [1] and type(g.moves[0]) is int
    assert not g.try_play(3) and not g.try_play(-1) and not g.try_play("1") and not g.try_play(True)
    with pytest.raises(IllegalMove, match="unknown point"):
        g.play(-1)
    assert engine.game(graph, ["0", PASS, PASS]) is None
