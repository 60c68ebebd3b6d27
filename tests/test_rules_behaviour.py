"""The behavioural suite: every test runs over each implementation of the Tromp–Taylor API.

The ``rules`` fixture (tests/conftest.py) is first the executable spec, then the engine.
Positions are hand-made on grids, cycles, the Petersen graph and directed graphs.  A
board is written row by row with "/" between rows (or as one row on other graphs).
"""

from __future__ import annotations

import pytest

from gorules.spec.graph import parse_graph
from gorules.spec.rules import Rules, satisfies
from gorules.spec.tromp_taylor import PASS, State


def board(text: str) -> tuple:
    """The board written as rows of B, W and . separated by "/" (row-major points)."""
    return tuple(text.replace("/", "").replace(" ", ""))


def after(rules, graph_name: str, position: str, player: str, v) -> tuple:
    """The board after ``player`` plays v on the given position."""
    graph = parse_graph(graph_name)
    s = rules.move(graph, State(board(position), player, 0), v)
    assert s is not None
    return s.board


def test_the_module_satisfies_the_protocol(rules):
    assert satisfies(rules)
    assert isinstance(rules, Rules)


# --------------------------------------------------------------------------- move


def test_a_move_places_a_stone_and_hands_over(rules):
    graph = parse_graph("grid:3x3")
    s = rules.move(graph, rules.initial_state(graph), 4)
    assert s == State(board(".../.B./..."), "W", 0)


def test_a_move_on_an_occupied_point_is_undefined(rules):
    graph = parse_graph("grid:3x3")
    s = State(board(".../.B./..."), "W", 0)
    assert rules.move(graph, s, 4) is None


def test_a_pass_counts_and_keeps_the_board(rules):
    graph = parse_graph("cycle:5")
    s = State(board("B.W.."), "W", 1)
    assert rules.move(graph, s, PASS) == State(board("B.W.."), "B", 2)


def test_a_single_stone_is_captured(rules):
    assert after(rules, "grid:3x3", ".B./BWB/...", "B", 7) == board(".B./B.B/.B.")


def test_a_chain_is_captured_whole(rules):
    # White's chain of two on the edge has its last liberty filled.
    assert after(rules, "grid:3x3", "WW./BB./...", "B", 2) == board("..B/BB./...")


def test_several_chains_are_removed_at_once(rules):
    # Black at the left edge takes the corner stone and the centre stone together.
    assert after(rules, "grid:3x3", "WB./.WB/.B.", "B", 3) == board(".B./B.B/.B.")


def test_capture_comes_before_suicide(rules):
    # On a 6-cycle Black plays between two white stones without a liberty of its own:
    # both white stones are captured and Black lives.
    assert after(rules, "cycle:6", ".WB.BW", "B", 0) == board("B.B.B.")


def test_multi_stone_suicide_removes_the_movers_chain(rules):
    # Black joins the corner stone and the pair has no liberty left: both go.
    assert after(rules, "grid:2x3", "B.W/WW.", "B", 1) == board("..W/WW.")


def test_single_stone_suicide_leaves_the_board_unchanged(rules):
    graph = parse_graph("cycle:4")
    s = rules.move(graph, State(board(".W.W"), "B", 0), 2)
    assert s is not None and s.board == board(".W.W")


def test_capture_on_the_petersen_graph(rules):
    # Point 0 is adjacent to 1, 4 and 5; the third surrounding stone captures.
    assert after(rules, "petersen", "WB..B.....", "B", 5) == board(".B..BB....")
    # With one liberty left (point 5 empty, the stone at 5 played elsewhere) nothing is taken.
    assert after(rules, "petersen", "WB..B.....", "B", 7) == board("WB..B..B..")


def test_liberties_follow_out_arcs_on_a_digraph(rules):
    # On the directed 3-cycle 0→1→2→0 the white stone at 1 only looks at 2.
    assert after(rules, "digraph:0>1,1>2,2>0", ".W.", "B", 2) == board("..B")
    # On the undirected 3-cycle it also looks at 0, and lives.
    assert after(rules, "cycle:3", ".W.", "B", 2) == board(".WB")


def test_a_stone_on_a_sink_never_survives(rules):
    # Point 2 has no out-arc: a stone there reaches nothing and is removed at once.
    assert after(rules, "digraph:0>1,1>2", "...", "B", 2) == board("...")


def test_reaches_is_directed_on_a_digraph(rules):
    graph = parse_graph("digraph:0>1,1>2,2>3")
    b = board("BB..")
    assert rules.reaches(graph, b, 0, ".")
    assert rules.reaches(graph, b, 1, ".")
    assert not rules.reaches(graph, b, 2, "B")  # 2 only leads on to 3
    assert rules.reaches(graph, b, 3, ".")
    assert not rules.reaches(graph, b, 3, "B")


def test_reaches_through_the_own_colour_on_a_grid(rules):
    graph = parse_graph("grid:3x3")
    b = board("BBW/WBW/.WW")
    assert not rules.reaches(graph, b, 0, ".")  # the black chain 0,1,4 is enclosed
    assert rules.reaches(graph, b, 3, ".")
    assert rules.reaches(graph, b, 8, ".")  # through the white chain to point 6
    assert rules.reaches(graph, b, 6, "B") is False
    assert rules.reaches(graph, b, 6, "W")


def test_clear_removes_only_stones_that_do_not_reach_empty(rules):
    graph = parse_graph("grid:3x3")
    b = board("BBW/WBW/.WW")
    assert rules.clear(graph, b, "B") == board("..W/W.W/.WW")
    assert rules.clear(graph, b, "W") == b


# --------------------------------------------------------------------------- score


def test_score_counts_stones_and_territory(rules):
    graph = parse_graph("grid:3x3")
    b = board(".B./.BW/.B.")
    assert rules.score(graph, b, "B") == 6
    assert rules.score(graph, b, "W") == 1


def test_score_on_the_petersen_graph(rules):
    graph = parse_graph("petersen")
    b = board(".B..BB.W..")
    assert rules.score(graph, b, "B") == 4  # three stones and point 0
    assert rules.score(graph, b, "W") == 1  # the rest touches both colours
    assert rules.score(graph, board(".B..BB...."), "B") == 10


def test_score_follows_out_arcs_on_a_digraph(rules):
    graph = parse_graph("digraph:0>1,1>2,3>2")
    b = board("..B.")
    # 0 and 1 lead to the black stone; 3 leads to it as well; nothing leads to White.
    assert rules.score(graph, b, "B") == 4
    b = board("..BW")
    # 3 is now White's stone, and 0, 1 still reach only Black.
    assert rules.score(graph, b, "B") == 3
    assert rules.score(graph, b, "W") == 1


def test_an_empty_board_scores_nothing(rules):
    graph = parse_graph("cycle:6")
    assert rules.score(graph, rules.initial_state(graph).board, "B") == 0
    assert rules.score(graph, rules.initial_state(graph).board, "W") == 0


# --------------------------------------------------------------------------- games


def test_two_passes_make_a_game(rules):
    graph = parse_graph("grid:2x2")
    states = rules.game(graph, [PASS, PASS])
    assert states is not None and len(states) == 3
    assert states[-1] == State(board("...."), "B", 2)


def test_a_game_must_end_with_two_passes(rules):
    graph = parse_graph("grid:2x2")
    assert rules.game(graph, [0, PASS]) is None
    assert rules.game(graph, [PASS, 0, PASS]) is None
    assert rules.game(graph, []) is None


def test_nothing_follows_two_passes(rules):
    graph = parse_graph("grid:2x2")
    assert rules.game(graph, [PASS, PASS, PASS]) is None
    assert rules.game(graph, [PASS, PASS, 0, PASS, PASS]) is None


def test_a_game_may_not_play_on_a_stone(rules):
    graph = parse_graph("path:3")
    assert rules.game(graph, [1, 1, PASS, PASS]) is None


def test_a_game_may_not_name_an_unknown_point(rules):
    graph = parse_graph("path:3")
    assert rules.game(graph, [3, PASS, PASS]) is None


KO_OPENING = [1, 2, 4, 5, 9, 7, PASS, 10]  # Black 1 4 9, White 2 5 7 10 on grid:3x4


def test_taking_a_ko_is_a_game(rules):
    graph = parse_graph("grid:3x4")
    states = rules.game(graph, KO_OPENING + [6, PASS, PASS])
    assert states is not None
    assert states[-1].board == board(".BW./B.BW/.BW.")


def test_positional_superko_forbids_retaking_the_ko(rules):
    graph = parse_graph("grid:3x4")
    assert rules.game(graph, KO_OPENING + [6, 5, PASS, PASS]) is None
    # After an exchange elsewhere the retake makes a new board, so it is allowed.
    assert rules.game(graph, KO_OPENING + [6, 3, 0, 5, PASS, PASS]) is not None


def test_a_single_stone_suicide_is_never_part_of_a_game(rules):
    graph = parse_graph("cycle:4")
    assert rules.game(graph, [PASS, 1, PASS, 3, 0, PASS, PASS]) is None
    assert rules.game(graph, [PASS, 1, PASS, 3, PASS, PASS]) is not None


def test_a_multi_stone_suicide_may_be_part_of_a_game(rules):
    graph = parse_graph("grid:2x3")
    # Black 0, White 3 4 2, then Black 1 kills its own pair: the board is new.
    states = rules.game(graph, [0, 3, PASS, 4, PASS, 2, 1, PASS, PASS])
    assert states is not None
    assert states[-1].board == board("..W/WW.")


def test_winner_by_area(rules):
    graph = parse_graph("path:2")
    assert rules.winner(graph, [0, PASS, PASS]) == "B"
    assert rules.winner(graph, [PASS, 0, PASS, PASS]) == "W"
    assert rules.winner(graph, [PASS, PASS]) == "draw"


def test_winner_of_a_non_game_is_undefined(rules):
    graph = parse_graph("path:2")
    assert rules.winner(graph, [0, PASS]) is None
    assert rules.winner(graph, [0, 0, PASS, PASS]) is None


def test_winner_on_the_petersen_graph(rules):
    graph = parse_graph("petersen")
    # Black 1 4 5 against White 7: Black 4 to White 1 with the rest neutral.
    assert rules.winner(graph, [1, 7, 4, PASS, 5, PASS, PASS]) == "B"


def test_winner_on_a_digraph(rules):
    # Black 0 and White 3; the empty points 1 and 2 lead to White only, never back to 0.
    graph = parse_graph("digraph:0>1,1>2,2>1,2>3,3>2")
    assert rules.winner(graph, [0, 3, PASS, PASS]) == "W"
    # On the undirected path the same points touch both colours: a draw.
    assert rules.winner(parse_graph("edges:0-1,1-2,2-3"), [0, 3, PASS, PASS]) == "draw"


@pytest.mark.parametrize("graph_name", ["grid:1x1", "grid:2x2", "cycle:5", "petersen"])
def test_the_empty_game_is_a_draw(rules, graph_name):
    assert rules.winner(parse_graph(graph_name), [PASS, PASS]) == "draw"
