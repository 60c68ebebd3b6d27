"""The rulesets beyond Tromp–Taylor: hand-made positions, the sources' claims, and the
cross-check of topological Go on graphs against the Tromp–Taylor move."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from gorules.checks.ruleset_checks import (
    board_play_disagreements,
    propositions_counterexample,
    reachable_situations,
    small_topologies,
)
from gorules.spec import directed, political, topological, ultimate
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import GraphError, parse_graph

B, W, E = tt.BLACK, tt.WHITE, tt.EMPTY
PAIR = "digraph:0>1,1>0"


def all_boards(graph):
    """Every board of the graph."""
    return itertools.product((B, W, E), repeat=graph.order)


# --- directed (source 000) ---------------------------------------------------------


@pytest.mark.parametrize("name", ["digraph:0>1,1>2,2>0", "digraph:0>1,1>0,1>2,2>3", "digraph:0>1,0>2,2>1", "path:4"])
def test_directed_liberties_are_reaching_empty(name):
    """A stone has a liberty exactly when it reaches Empty in the corrected Tromp–Taylor sense."""
    g = parse_graph(name)
    for b in all_boards(g):
        for v in g.points:
            if b[v] != E:
                assert bool(directed.liberties(g, b, v)) == tt.reaches(g, b, v, E)


def test_directed_liberties_follow_arcs_only():
    g = parse_graph("digraph:0>1")
    assert directed.liberties(g, (B, E), 0) == {1}
    assert directed.liberties(g, (E, B), 1) == frozenset()
    assert directed.place(g, (E, E), 1, B) == (E, E)  # no arc leaves 1: suicide


def test_directed_capture_order_opponent_first():
    """After a placement the opponent's stones go first, so the mover's stone then has a liberty."""
    g = parse_graph(PAIR)
    assert directed.place(g, (E, W), 0, B) == (B, E)


def test_directed_komi_and_start():
    assert directed.colours(W) == {"second": W, "first": B}
    s = directed.starting_situation(parse_graph(PAIR), Fraction(5, 2))
    assert (s.player, s.black_score, s.white_score, s.history) == (B, 0, Fraction(5, 2), frozenset())


def test_directed_history_is_kept_and_can_be_deleted():
    g = parse_graph(PAIR)
    s = directed.starting_situation(g, 0)
    s1 = directed.turn(g, s, directed.Turn(0))
    assert s1.history == {(E, E)}
    s2 = directed.turn(g, s1, directed.Turn(directed.PASS, deleted_by=B))
    assert s2.history == frozenset() and s2.board == (B, E)


def test_directed_ko_bid_resets_and_pays_the_loser():
    g = parse_graph(PAIR)
    s = directed.plays(g, directed.starting_situation(g, 0), [directed.Turn(0)])[-1]
    # White captures at 1 and bids 2; Black answers that Black wins the ko and resets to B at 0.
    bid = directed.KoBid(Fraction(2), winner=B, reset_to=(B, E))
    after = directed.turn(g, s, directed.Turn(1, bid=bid))
    assert after.board == (B, E) and after.player == B
    assert after.white_score == 2 and after.black_score == 0
    assert directed.unsustainable_actions(s, directed.Turn(1, bid=bid)) == [(W, 1), (B, 2)]
    assert directed.unsustainable_actions(s, directed.Turn(1, bid=bid._replace(winner=W))) == [(W, 1)]
    assert directed.unsustainable_actions(s, directed.Turn(1, bid=directed.KoBid(0))) == [(W, 1), (B, 3)]
    assert directed.turn(g, s, directed.Turn(1, bid=bid._replace(reset_to=(W, W)))) is None
    assert directed.turn(g, s, directed.Turn(1, bid=bid._replace(amount=Fraction(-1)))) is None
    assert directed.turn(g, s, directed.Turn(directed.PASS, bid=bid)) is None


def test_directed_outcomes_of_lassos():
    g = parse_graph(PAIR)
    s = directed.starting_situation(g, 0)
    T, P = directed.Turn, directed.PASS
    assert directed.outcome(g, s, [], [T(P), T(P)]) == tt.DRAW
    assert directed.outcome(g, s, [T(0)], [T(P), T(P)]) == B  # a live stone
    # Capturing back and forth forever: no point is eventually always occupied.
    assert directed.outcome(g, s, [], [T(0), T(1)]) == tt.DRAW
    assert directed.outcome(g, directed.starting_situation(g, Fraction(1, 2)), [], [T(0), T(1)]) == W
    # Black bids every time and White ignores: White is the more unsustainable, Black wins.
    ignored = directed.KoBid(Fraction(0))
    assert directed.outcome(g, s, [], [T(0, bid=ignored), T(1)]) == B
    # The same, but White deletes the history every turn as well.
    assert directed.outcome(g, s, [], [T(0, bid=ignored), T(1, deleted_by=W)]) == B
    # Both bid and both ignore: equal unsustainability, read as a draw.
    assert directed.outcome(g, s, [], [T(0, bid=ignored), T(1, bid=ignored)]) == tt.DRAW
    # A cycle that cannot repeat (the point is occupied the second time) is not a play.
    assert directed.outcome(g, s, [], [T(0)]) is None


# --- topological (source 001) ------------------------------------------------------


def test_go_space_checks_its_definition():
    with pytest.raises(GraphError):
        topological.go_space(3, [{0, 1}, {1, 2}], [{0, 1}])  # {1} is missing: not a base
    with pytest.raises(GraphError):
        topological.go_space(2, [{0}, {1}], [set()])
    with pytest.raises(GraphError):
        topological.go_space(2, [{0}, {0, 1}], [{1}])  # {1} is not open
    space = topological.go_space(3, [{0}, {1}, {0, 1, 2}], [{0}, {0, 1}])
    assert topological.is_topology(3, space.opens)
    assert space.opens == {frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1}), frozenset({0, 1, 2})}


@pytest.mark.parametrize("name", ["path:3", "cycle:4", "star:3", "complete:4", "grid:2x3"])
def test_graph_space_connects_exactly_adjacent_vertices(name):
    """Result 1 of the source: {x_u} and {x_v} are go-connected iff u and v are adjacent."""
    g = parse_graph(name)
    space = topological.graph_go_space(g)
    assert topological.is_topology(space.size, space.opens)
    for u, v in itertools.combinations(g.points, 2):
        pair = frozenset({frozenset({u}), frozenset({v})})
        assert topological.go_connected(space, pair) == tt.adjacent(g, u, v)


@pytest.mark.parametrize(
    "name", ["path:3", "cycle:3", "star:3", "path:4", "grid:2x2", "cycle:4", "complete:4", "path:5", "star:4"]
)
def test_graph_space_board_play_is_the_tromp_taylor_move(name):
    """On every board of small graphs, placing on a vertex point and clearing is the
    Tromp–Taylor move, and the edge points stay empty."""
    assert board_play_disagreements(parse_graph(name))[0] == 0


def test_topologies_on_three_points_are_counted_right():
    """29 topologies on a 3-point set (a known count): the enumeration below misses none."""
    assert [sum(1 for _ in small_topologies(n)) for n in (1, 2, 3)] == [1, 4, 29]


def test_propositions_2_and_3_on_every_go_space_up_to_three_points():
    """Prop. 3 for every stone of every colouring; Prop. 2's inductive step for every
    colouring satisfying it, every legal placement and both players."""
    failure, counts = propositions_counterexample(3, topological.Readings(string="literal"))
    assert failure is None
    assert counts == {"spaces": 500, "steps": 5302, "strings": 12558}


def test_the_propositions_check_can_fail():
    """A colouring that breaks the invariant is reported: the check is not vacuous."""
    space = topological.go_space(2, [{0}, {1}], [{0, 1}])
    assert not topological.proposition_2(space, (B, E))
    assert topological.proposition_2(space, (B, B))


def test_defn_8_clears_a_coloured_element_in_no_stone():
    """With the quantifier restricted to stones containing x, a black element in no black
    stone is cleared (vacuously) even with empty space around it."""
    space = topological.go_space(3, [{0}, {1}, {2}], [{0, 1}, {2}])
    assert topological.clear(space, (B, E, E), B) == (E, E, E)
    assert not topological.proposition_2(space, (B, E, E))


def test_defn_8_read_with_an_unrestricted_quantifier_would_not_capture_two_stones():
    """The literal "for all stones s of colour C: x is in s and string(s) has no liberty"
    asks x to lie in every stone of colour C, so two separate stones are never cleared;
    the restricted reading clears both."""
    space = topological.graph_go_space(parse_graph("path:3"))
    colouring = (B, W, B, E, E)

    def clear_unrestricted(c):
        """Defn 8 with the quantifier over all stones of colour c."""
        stones = topological.stones(space, colouring, c)
        return tuple(
            E
            if colouring[x] == c
            and all(
                x in s and not topological.has_liberty(space, colouring, topological.string(space, colouring, s))
                for s in stones
            )
            else colouring[x]
            for x in range(space.size)
        )

    assert topological.clear(space, colouring, B) == (E, W, E, E, E)
    assert clear_unrestricted(B) == colouring


def test_multi_point_stones_and_primitive_rules():
    """A stone may cover several points; on a single point Black has no turn and loses."""
    path = topological.graph_go_space(parse_graph("path:3"))  # x0, x1, x2 = 0, 1, 2; edge points 3, 4
    space = topological.go_space(path.size, path.opens, path.placements | {frozenset({0, 1})})
    after = topological.board_play(space, (E,) * 5, frozenset({0, 1}), B)
    assert after == (B, B, E, E, E)
    assert topological.legal_placements(space, after) == {frozenset({2})}
    # White fills the last liberty: Black's two-point stone goes first, and White lives.
    assert topological.board_play(space, after, frozenset({2}), W) == (E, E, W, E, E)
    single = topological.graph_go_space(parse_graph("path:1"))
    assert topological.primitive_loser(single, []) == B


def test_stone_scoring_game_on_a_graph():
    g = parse_graph("path:3")
    space = topological.graph_go_space(g)
    x = lambda v: frozenset({v})  # noqa: E731
    assert topological.stone_winner(space, [x(1), tt.PASS, tt.PASS]) == B
    assert topological.stone_winner(space, [x(1), x(0), tt.PASS]) is None  # not over
    assert topological.stone_winner(space, [tt.PASS, tt.PASS]) == tt.DRAW
    # White's stone at 1 takes Black's at 0; Black's stone at 2 would die at once and
    # repeat White's colouring, so it is not a turn.
    assert topological.stone_winner(space, [x(0), x(1), tt.PASS, tt.PASS]) == W
    assert topological.stone_game(space, [x(0), x(1), x(2)]) is None


# --- ultimate and fundamental (source 003) -------------------------------------------


def test_ultimate_placements_capture_and_forbid_suicide_and_repetition():
    g = parse_graph("path:2")
    single = parse_graph("path:1")
    assert ultimate.moves(single, ultimate.initial_situation(single, fundamental=True)) == {}
    s = ultimate.game(g, [0, 1])[-1]
    assert s.board == (E, W) and s.white_prisoners == 1
    assert ultimate.legal_placement(g, s, 0) is None  # would recreate (B, .)
    assert set(ultimate.moves(g, s)) == {ultimate.ULTIMATE_DELAY}


def test_ultimate_delays_and_the_draw_right():
    g = parse_graph("path:2")
    U, D = ultimate.ULTIMATE_DELAY, ultimate.DELAY
    s = ultimate.game(g, [0, 1])[-1]
    assert ultimate.act(g, s, D) is None  # Black's bowl is empty
    s = ultimate.game(g, [0, 1, U, D])[-1]  # Black ultimate-delays first, White returns her prisoner
    assert s.first_ultimate == B and s.white_prisoners == 0 and s.draw_right is None
    assert ultimate.act(g, s, ultimate.DECLARE_DRAW) is None
    s = ultimate.game(g, [0, 1, U, D, U], komi=0)
    assert s is None  # Black no longer holds her ultimate prisoner
    s = ultimate.game(g, [0, 1, U, U])[-1]
    assert s.draw_right == B and s.player == B
    assert ultimate.act(g, s, ultimate.DECLARE_DRAW).result == tt.DRAW
    assert ultimate.act(g, s, ultimate.RESIGN).result == W
    assert ultimate.act(g, ultimate.act(g, s, ultimate.RESIGN), 0) is None


def test_fundamental_go_has_no_ultimate_delay():
    g = parse_graph("path:3")
    s = ultimate.initial_situation(g, fundamental=True)
    assert ultimate.ULTIMATE_DELAY not in ultimate.moves(g, s)
    assert ultimate.ULTIMATE_DELAY in ultimate.moves(g, ultimate.initial_situation(g))


@pytest.mark.parametrize("name", ["path:1", "path:2", "path:3"])
def test_stones_in_the_game_alternate(name):
    """The source's remark: with no komi, at Black's turn as many black stones as white are in
    the game (on the board or in the opponent's bowl); at White's turn Black has one more."""
    g = parse_graph(name)
    for s in reachable_situations(g, ultimate.initial_situation(g, fundamental=True)):
        black = s.board.count(B) + s.white_prisoners
        white = s.board.count(W) + s.black_prisoners
        assert black - white == (0 if s.player == B else 1)


@pytest.mark.parametrize("name", ["path:3", "cycle:3", "star:3"])
def test_no_stone_is_ever_surrounded_between_moves(name):
    """Rule 5 keeps the mover's stones unsurrounded and rule 4 removes the opponent's, so
    every board of a game is one where every stone reaches an empty point."""
    g = parse_graph(name)
    for s in reachable_situations(g, ultimate.initial_situation(g, fundamental=True)):
        assert not any(s.board[v] != E and ultimate.surrounded(g, s.board, v) for v in g.points)


@pytest.mark.parametrize("name,expected", [("path:1", -0.5), ("path:2", -0.5), ("path:3", 0.5)])
def test_fundamental_score_claims(name, expected):
    """Section IV on every reachable situation: no Black move raises the score, no White move
    lowers it; and one more prisoner for each player leaves the score unchanged."""
    g = parse_graph(name)
    start = ultimate.initial_situation(g, fundamental=True)
    assert ultimate.score(g, start) == expected
    situations = reachable_situations(g, start)
    for s in situations:
        assert ultimate.no_move_improves(g, s)
        both = ultimate.add_prisoners(ultimate.add_prisoners(s, B, 1), W, 1)
        assert ultimate.score(g, both) == ultimate.score(g, s)
    assert len(situations) == {"path:1": 1, "path:2": 5, "path:3": 498}[name]


@pytest.mark.parametrize("name,expected", [("path:4", 1.5), ("grid:2x2", 0.5)])
def test_fundamental_score_of_four_point_boards(name, expected):
    """Solved exactly: Black wins 1×4 and 2×2 from the empty board; White needs 2 and 1
    prisoners of mid-game komi to turn the result."""
    g = parse_graph(name)
    assert ultimate.score(g, ultimate.initial_situation(g, fundamental=True)) == expected


@pytest.mark.parametrize("name", ["path:2", "path:3"])
def test_closest_games_are_draws_in_ultimate_go(name):
    """Fundamental Go's score is ±½ on 1×2 and 1×3; with ultimate prisoners both are draws,
    while without them a draw is impossible."""
    g = parse_graph(name)
    assert abs(ultimate.score(g, ultimate.initial_situation(g, fundamental=True))) == 0.5
    assert ultimate.value(g, ultimate.initial_situation(g)) == 0
    assert ultimate.value(g, ultimate.initial_situation(g, fundamental=True)) != 0


def test_the_score_moves_with_the_prisoners():
    """The score is not a constant that would make the claim vacuous: prisoners given to
    White lower it."""
    g = parse_graph("path:3")
    s = ultimate.initial_situation(g, fundamental=True)
    gift = ultimate.add_prisoners(s, W, 3)
    assert ultimate.score(g, gift) < ultimate.score(g, s)


# --- political (source 004) -----------------------------------------------------------


def situation(graph, board, players="ABCD", alliances=(), head=0):
    """A political situation with the given board and alliances."""
    s = political.initial_situation(graph, list(players))
    return s._replace(board=tuple(board), alliances=frozenset(frozenset(a) for a in alliances), head=head)


def test_without_alliances_dragons_are_chains():
    g = parse_graph("grid:3x3")
    rng = random.Random(0)
    for _ in range(40):
        board = tuple(rng.choice("AB..") for _ in g.points)
        s = situation(g, board, "AB")
        expected = set()
        for v in g.points:
            if board[v] != E:
                expected.add(frozenset(_chain(g, board, v)))
        assert set(political.dragons(g, s)) == expected


def _chain(graph, board, v):
    """The points joined to v through stones of v's owner."""
    seen, frontier = {v}, [v]
    while frontier:
        for w in graph.neighbours[frontier.pop()]:
            if board[w] == board[v] and w not in seen:
                seen.add(w)
                frontier.append(w)
    return seen


def test_dragons_are_all_the_subsets_of_stones_that_are_dragons():
    """`dragons` finds exactly the sets of stones that satisfy the definition, on random
    boards with random (often non-transitive) alliances among four players."""
    rng = random.Random(4)
    pairs = [frozenset(p) for p in itertools.combinations("ABCD", 2)]
    for name in ["grid:2x3", "cycle:5", "star:4", "path:6"]:
        g = parse_graph(name)
        for _ in range(25):
            board = tuple(rng.choice("ABCD..") for _ in g.points)
            s = situation(g, board, alliances=[p for p in pairs if rng.random() < 0.5])
            occupied = [v for v in g.points if board[v] != E]
            brute = {
                frozenset(D)
                for k in range(1, len(occupied) + 1)
                for D in itertools.combinations(occupied, k)
                if political.is_dragon(g, s, frozenset(D))
            }
            assert set(political.dragons(g, s)) == brute


def test_allied_stones_share_a_dragon_and_non_transitive_alliances_overlap():
    g = parse_graph("path:3")
    assert political.dragons(g, situation(g, "AB.", alliances=["AB"])) == [frozenset({0, 1})]
    overlapping = political.dragons(g, situation(g, "ABC", alliances=["AB", "BC"]))
    assert overlapping == [frozenset({0, 1}), frozenset({1, 2})]


def test_dead_means_exactly_one_liberty():
    g = parse_graph("path:3")
    b = ("A", E, E)
    assert political.dead(g, b, frozenset({0}))
    assert not political.dead(g, ("A", "B", E), frozenset({0}))  # no liberty: literally live


def test_overlapping_dragons_are_captured_once():
    """A–B–C with A, B and B, C allied fill the board; D's pass captures both dragons; each
    stone is removed and credited once, to the owners of the other dragon's stones."""
    g = parse_graph("path:3")
    s = situation(g, "ABC", alliances=["AB", "BC"], head=3)
    after = political.play(g, s, political.Move("pass"), random.Random(0))
    assert after.board == (E, E, E)
    assert sum(after.captured) == 3
    assert after.captured[3] == 0  # D touched nothing


def test_capture_credit_single_and_shared():
    g = parse_graph("path:3")
    s = situation(g, ("A", "B", E), players="AB", head=0)
    after = political.play(g, s, political.Move("place", 2), random.Random(0))
    assert after.board == ("A", E, "A") and after.captured == (1, 0)
    assert political.share({"A": 2, "B": 1}, 3, random.Random(0)) == {"A": 2, "B": 1}
    assert political.share({"A": 3}, 5, random.Random(0)) == {"A": 5}
    draws = {tuple(political.share({"A": 1, "B": 1}, 1, random.Random(seed)).values()) for seed in range(20)}
    assert draws == {(1, 0), (0, 1)}  # a tie really is broken both ways
    same = [political.share({"A": 1, "B": 1, "C": 1}, 4, random.Random(7)) for _ in range(2)]
    assert same[0] == same[1]  # the seed reproduces the division


def test_placement_restrictions():
    g = parse_graph("path:3")
    # Restriction 2: no friendly dragon without liberties unless an enemy one is formed too.
    assert political.may_place(g, situation(g, (E, "B", "A"), "AB"), 0)  # captures B at 1
    g4 = parse_graph("path:4")
    assert not political.may_place(g4, situation(g4, (E, "B", "B", E), "AB"), 0)  # suicide
    assert political.may_place(g4, situation(g4, (E, E, "B", "B"), "AB"), 0)
    # Restriction 1: B may not refill at once the point where B's stone was just captured.
    s = situation(g, ("A", E, "A"), "AB", head=1)
    assert political.may_place(g, s, 1)  # takes both A stones: allowed by restriction 2
    s = s._replace(previous=(frozenset({0, 2}), frozenset({1})))
    assert not political.may_place(g, s, 1)
    assert political.play(g, s, political.Move("place", 1), random.Random(0)) is None
    # The same through play: A's placement at 2 captures B's stone at 1.
    s = situation(g, ("A", "B", E), "AB")
    s = political.play(
        g, s._replace(previous=(frozenset({0}), frozenset({1}))), political.Move("place", 2), random.Random(0)
    )
    assert s.board == ("A", E, "A") and s.previous[1] == {1} and not political.may_place(g, s, 1)


def test_war_leaves_a_dragon_without_liberties_on_the_board():
    g = parse_graph("path:3")
    s = situation(g, ("A", "B", E), "AB", alliances=["AB"])
    rng = random.Random(0)
    s = political.play(g, s, political.Move("war", "B"), rng)
    assert s.alliances == frozenset() and s.board == ("A", "B", E)  # A's dragon: no liberty, still there
    s = political.play(g, s, political.Move("pass"), rng)  # B's move: now A's dragon is an enemy's
    assert s.board == (E, "B", E) and s.captured == (0, 1)


def test_alliances_and_the_end_of_the_game():
    g = parse_graph("path:3")
    rng = random.Random(0)
    s = political.initial_situation(g, ["A", "B"])
    assert political.play(g, s, political.Move("war", "B"), rng) is None
    s = political.play(g, s, political.Move("ally", "B", accepted=True), rng)
    assert political.friendly(s, "A", "B")
    assert political.play(g, s, political.Move("ally", "A"), rng) is None  # already friendly
    for _ in range(5):
        s = political.play(g, s, political.Move("pass"), rng)
        assert not s.over
    s = political.play(g, s, political.Move("pass"), rng)
    assert s.over and political.play(g, s, political.Move("pass"), rng) is None


def test_the_game_ends_when_nobody_may_place():
    g = parse_graph("path:1")
    s = political.initial_situation(g, ["A", "B"])
    assert not political.legal_placement_exists(g, s)  # a lone stone would have no liberty
    assert political.play(g, s, political.Move("pass"), random.Random(0)).over


def test_final_scores_count_territory_and_captures():
    g = parse_graph("path:5")
    s = situation(g, ("A", E, "B", E, E), "AB")
    # B's stone has two liberties: live. A's stone has one: literally dead, so B captures it.
    scores = political.final_scores(g, s, [], random.Random(0))
    assert scores == {"A": 0, "B": 1 + 4}
    # Judge B's stone dead too: nobody live touches either, nobody is credited, and the empty
    # board is territory for every player (the oddity of territory read literally).
    assert political.final_scores(g, s, [frozenset({2})], random.Random(0)) == {"A": 5, "B": 5}
    assert political.winners({"A": 3, "B": 3}) == ["A", "B"]


# --- the command line -----------------------------------------------------------------


def test_play_command_steps_each_ruleset(capsys):
    from gorules.cli import main

    assert main(["play", "topological", "path:3", "--moves", "1 pass pass", "--json"]) == 0
    assert '"result": "B"' in capsys.readouterr().out
    assert main(["play", "ultimate", "path:2", "--moves", "0 1 ultimate ultimate draw", "--json"]) == 0
    assert '"result": "draw"' in capsys.readouterr().out
    assert main(["play", "directed", "digraph:0>1,1>0", "--moves", "0", "--komi", "1/2", "--json"]) == 0
    assert '"result_if_both_pass_forever": "B"' in capsys.readouterr().out
    assert main(["play", "political", "path:4", "--moves", "1 2 3", "--players", "A,B,C", "--json"]) == 0
    assert '"board": [".", "A", ".", "C"]' in capsys.readouterr().out


def test_play_command_rejects_bad_input_in_one_line(capsys):
    from gorules.cli import main

    assert main(["play", "fundamental", "path:3", "--moves", "1 delay"]) == 2
    assert main(["play", "political", "path:4", "--moves", "1 x"]) == 2
    assert main(["play", "directed", "path:2", "--komi", "x"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and "move 2 ('delay') is illegal" in errors[0] and "unknown point 'x'" in errors[1]
