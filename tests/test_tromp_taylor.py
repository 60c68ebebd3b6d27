"""Hand-made positions on the executable spec, and counts of well-formed boards against the
published figures (Tromp's tables of legal positions; Tromp & Farnebäck's game counts).

Boards are written row by row with "/" between rows; on other graphs as one row of points.
"""

from __future__ import annotations

import itertools

import pytest

from gorules.impl.differential.oracle import legal_reason
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph, parse_point


def board(text: str) -> tuple:
    """A board written as rows of B, W and '.' separated by '/'."""
    return tuple(text.replace("/", "").replace(" ", ""))


def play(graph_name: str, position: str, player: str, where) -> tuple:
    """The board after ``player`` plays ``where`` (a point name) on the position."""
    graph = parse_graph(graph_name)
    v = where if where == tt.PASS else parse_point(graph, str(where))
    s = tt.move(graph, tt.State(board(position), player, 0), v)
    assert s is not None
    assert s.player == tt.opponent(player)
    return s.board


# --------------------------------------------------------------------------- the small definitions


def test_opponent_swaps_the_players():
    assert tt.opponent(tt.BLACK) == tt.WHITE
    assert tt.opponent(tt.WHITE) == tt.BLACK


def test_update_changes_one_point():
    b = board("...")
    assert tt.update(b, 1, "B") == board(".B.")
    assert b == board("...")


def test_the_initial_state_is_empty_with_black_to_move():
    g = parse_graph("petersen")
    assert tt.initial_state(g) == tt.State(tuple("." * 10), "B", 0)


# --------------------------------------------------------------------------- captures


def test_a_corner_stone_is_captured_by_its_second_neighbour():
    assert play("grid:3x3", "W B . / . . . / . . .", "B", "A2") == board(". B . / B . . / . . .")


def test_a_side_chain_of_three_is_captured_whole():
    before = "W W W . / B B B . / . . . . / . . . ."
    assert play("grid:4x4", before, "B", "D4") == board(". . . B / B B B . / . . . . / . . . .")


def test_a_stone_with_a_liberty_left_is_not_captured():
    before = "W . . / B . . / . . ."
    assert play("grid:3x3", before, "B", "C2") == board("W . . / B . B / . . .")


def test_one_move_removes_two_opponent_chains_at_once():
    # White A3 and C3 each have B3 as last liberty; Black B3 takes both.
    before = "W . W / B . B / . . ."
    assert play("grid:3x3", before, "B", "B3") == board(". B . / B . B / . . .")


def test_capturing_first_saves_a_stone_that_would_be_suicide():
    # Black A3 has no liberty once played, but it first captures White B3 and White A2.
    before = ". W B / W B . / B . ."
    after = play("grid:3x3", before, "B", "A3")
    assert after == board("B . B / . B . / B . .")


def test_multi_stone_suicide_removes_the_whole_chain():
    before = "B . W / W W W / . . ."
    # Black B3 joins A3; the chain A3-B3 then has no liberty and captures nothing.
    assert play("grid:3x3", before, "B", "B3") == board(". . W / W W W / . . .")


def test_suicide_on_a_path_empties_the_movers_stones_only():
    # On path:7, Black 0-1 plays 2: its chain meets only White 3, which keeps liberty 6.
    g = parse_graph("path:7")
    after = tt.move(g, tt.State(board("B B . W W W ."), "B", 0), 2).board
    assert after == board(". . . W W W .")


def test_on_a_cycle_the_same_move_captures_instead():
    # On cycle:6 the White chain 3-4-5 also touches Black 0, so it loses its last liberty first.
    g = parse_graph("cycle:6")
    after = tt.move(g, tt.State(board("B B . W W W"), "B", 0), 2).board
    assert after == board("B B B . . .")


def test_capture_on_the_petersen_graph():
    g = parse_graph("petersen")
    # point 0 touches 1, 4, 5; White holds 1 and 4, Black plays 5 last.
    s = tt.State(board("B W . . W . . . . ."), "W", 0)
    after = tt.move(g, s, 5).board
    assert after == board(". W . . W W . . . .")


# --------------------------------------------------------------------------- directed graphs


def test_liberties_follow_out_arcs():
    g = parse_graph("digraph:0>1,1>2,2>1")
    # Black at 0 has one out-neighbour, 1; White filling 1 takes its only liberty.
    s = tt.State(board("B . ."), "W", 0)
    assert tt.move(g, s, 1).board == board(". W .")


def test_an_in_arc_is_not_a_liberty():
    g = parse_graph("digraph:1>0,1>2")
    # Point 0 has no out-arc: a stone there never has a liberty, whatever is around it.
    assert not tt.reaches(g, board("B . ."), 0, tt.EMPTY)
    assert tt.reaches(g, board(". B ."), 1, tt.EMPTY)
    assert tt.move(g, tt.initial_state(g), 0).board == board("...")


def test_reaches_runs_along_arcs_through_the_own_colour():
    g = parse_graph("digraph:0>1,1>2,2>3")
    b = board("B B B .")
    assert all(tt.reaches(g, b, v, tt.EMPTY) for v in (0, 1, 2))
    b = board(". B B B")
    assert not any(tt.reaches(g, b, v, tt.EMPTY) for v in (1, 2, 3))


# --------------------------------------------------------------------------- reaches and score


def test_reaches_is_the_least_solution_of_its_equation():
    # Two stones that only see each other must not reach Empty by circular reasoning.
    g = parse_graph("path:2")
    assert not tt.reaches(g, board("B B"), 0, tt.EMPTY)
    assert tt.reaching(g, board("B B"), tt.EMPTY) == frozenset()


def test_empty_points_reach_the_stones_around_their_region():
    g = parse_graph("grid:3x3")
    b = board(". . B / . . B / B B B")
    assert all(tt.reaches(g, b, v, "B") for v in (0, 1, 3, 4))
    assert not any(tt.reaches(g, b, v, "W") for v in g.points)


def test_score_is_stones_plus_territory_seen_only_by_one_colour():
    g = parse_graph("grid:3x3")
    b = board(". B W / B B W / . B W")
    assert tt.score(g, b, "B") == 4 + 2
    assert tt.score(g, b, "W") == 3
    b = board(". B . / B . W / . W .")
    # A3 sees only Black; C1 sees only White; the centre and the rest see both.
    assert tt.score(g, b, "B") == 2 + 1
    assert tt.score(g, b, "W") == 2 + 1


# --------------------------------------------------------------------------- games and superko


def moves_on(graph_name: str, text: str) -> list:
    """A list of moves written "A1 B1 pass ..." as points of the graph."""
    g = parse_graph(graph_name)
    return [tt.PASS if w == "pass" else parse_point(g, w) for w in text.split()]


KO = ". B W . / B . B W / . B W ."  # White to take the ko at B2, capturing C2


def test_taking_a_ko_captures_one_stone_and_keeps_a_liberty():
    assert play("grid:3x4", KO, "W", "B2") == board(". B W . / B W . W / . B W .")


def test_retaking_a_ko_at_once_repeats_a_board_and_is_no_game():
    from gorules.errata.cases import witness_game

    g = parse_graph("grid:3x4")
    prefix = list(witness_game(g, board(KO)))
    if len(prefix) % 2 == 0:
        prefix.append(tt.PASS)  # White to move
    take, retake = parse_point(g, "B2"), parse_point(g, "C2")
    states = tt.game(g, prefix + [take, tt.PASS, tt.PASS])
    assert states is not None and states[len(prefix)].board == board(KO)
    # The retake would bring back the board before the take: positional superko forbids it.
    assert tt.move(g, states[len(prefix) + 1], retake).board == board(KO)
    assert tt.game(g, prefix + [take, retake, tt.PASS, tt.PASS]) is None
    # Elsewhere first (a ko threat), and the retake is still a repeat: the board is the same.
    assert tt.game(g, prefix + [take, parse_point(g, "A1"), parse_point(g, "D1"), retake, tt.PASS, tt.PASS]) is not None


def test_positional_superko_forbids_a_board_seen_before_whoever_is_to_move():
    g = parse_graph("grid:1x2")
    # Black A1, White B1 captures it, Black A1 captures back: the board "B." of move 1 again.
    assert tt.game(g, moves_on("grid:1x2", "A1 B1 pass pass")) is not None
    assert tt.game(g, moves_on("grid:1x2", "A1 B1 A1 pass pass")) is None
    # After a pass the same board is fine: passes never break superko.
    assert tt.game(g, moves_on("grid:1x2", "A1 pass pass")) is not None


def test_superko_compares_boards_not_states():
    g = parse_graph("path:1")
    # The single-point board: Black's stone has no liberty, the board stays empty = s0's board.
    assert tt.move(g, tt.initial_state(g), 0) == tt.State(board("."), "W", 0)
    assert tt.game(g, [0, tt.PASS, tt.PASS]) is None
    assert tt.winner(g, [tt.PASS, tt.PASS]) == tt.DRAW


def test_a_game_ends_with_exactly_two_passes():
    g = parse_graph("grid:2x2")
    assert tt.game(g, [0, tt.PASS]) is None
    assert tt.game(g, [0, tt.PASS, tt.PASS, 3]) is None
    assert len(tt.game(g, [0, tt.PASS, 3, tt.PASS, tt.PASS])) == 6


def test_winner_by_area_on_a_small_grid():
    g = parse_graph("grid:2x2")
    assert tt.winner(g, [0, tt.PASS, tt.PASS]) == tt.BLACK
    assert tt.winner(g, [tt.PASS, 0, tt.PASS, tt.PASS]) == tt.WHITE
    assert tt.winner(g, [0, 3, tt.PASS, tt.PASS]) == tt.DRAW
    assert tt.winner(g, [0, 0]) is None


# --------------------------------------------------------------------------- counting well-formed boards


def well_formed_count(graph_name: str) -> int:
    """How many boards of the graph are well-formed: every point reaches Empty (spec's reaches)."""
    g = parse_graph(graph_name)
    return sum(all(tt.reaches(g, b, v, tt.EMPTY) for v in g.points) for b in itertools.product("BW.", repeat=g.order))


# Tromp's tables of legal positions (equal to OEIS A094777 on the diagonal, A102620 for 1×n,
# A266278 for 2×n); the counts below are computed by enumeration with the spec's reaches.
@pytest.mark.parametrize(
    "graph_name, published",
    [("grid:1x1", 1), ("grid:2x2", 57), ("grid:3x3", 12675), ("grid:2x3", 489), ("grid:2x4", 4125)],
)
def test_well_formed_boards_match_the_published_counts(graph_name, published):
    assert well_formed_count(graph_name) == published


def test_legal_positions_of_one_row_match_tromps_table_and_recurrence():
    counts = [well_formed_count(f"grid:1x{n}") for n in range(1, 9)]
    assert counts == [1, 5, 15, 41, 113, 313, 867, 2401]
    for n in range(len(counts) - 3):
        assert counts[n + 3] == 3 * counts[n + 2] - counts[n + 1] + counts[n]


def count_games(graph_name: str) -> int:
    """How many games the spec allows on a graph: every move sequence ending in two passes
    with no stone move repeating an earlier board (depth-first over prefixes)."""
    g = parse_graph(graph_name)

    def extend(states) -> int:
        """The number of games that begin with these states."""
        s = states[-1]
        if s.passes == 2:
            return 1
        total = 0
        for v in [tt.PASS, *g.points]:
            s_next, _ = legal_reason(tt, g, states, v)  # the game's rules 3.1-3.3 on the spec's move
            if s_next is not None:
                total += extend(states + [s_next])
        return total

    return extend([tt.initial_state(g)])


@pytest.mark.parametrize("graph_name, published", [("grid:1x1", 1), ("grid:1x2", 9), ("grid:1x3", 907)])
def test_game_counts_match_tromp_and_farneback(graph_name, published):
    assert count_games(graph_name) == published
