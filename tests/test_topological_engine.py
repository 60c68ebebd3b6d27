"""The bitset twin of Topological Go (impl/rulesets/topological.py) against the literal spec: every
board play on every colouring of every go-space of up to three points, random games move
by move through the ruleset interface on every go-space of four points, the enumeration
of go-spaces up to isomorphism, and a move on the 19×19 grid's go-space."""

import itertools
import random
import time

import pytest

from gorules import rulesets
from gorules.checks.ruleset_checks import twin_check
from gorules.impl.rulesets import topological as engine
from gorules.spec import topological as spec
from gorules.spec.graph import parse_graph

READINGS = [
    spec.Readings(string, closure, placement, clearing)
    for string in spec.STRING_READINGS
    for closure in spec.CLOSURE_READINGS
    for placement in spec.PLACEMENT_READINGS
    for clearing in spec.CLEARING_READINGS
]


def test_go_spaces_are_counted_up_to_isomorphism():
    """1, 9, 113 and 4,847 go-spaces with a non-empty S on 1 to 4 points (one more per
    topology when S may be empty: 2, 12, 122, 4,880, counted independently by brute force
    over every permutation)."""
    assert [sum(1 for _ in engine.go_space_classes(n)) for n in (1, 2, 3, 4)] == [1, 9, 113, 4847]
    assert [sum(1 for _ in engine.preorder_neighbourhoods(n)) for n in (1, 2, 3, 4)] == [1, 4, 29, 355]


def test_space_text_reads_back():
    for n in (1, 2, 3):
        for space in engine.go_space_classes(n):
            back = spec.parse_go_space(engine.space_text(space))
            assert (back.minimal, back.placements) == (space.minimal, space.placements)


def board_plays_disagree(space_n: spec.Neighbourhoods, readings: spec.Readings) -> list:
    """The (colouring, placement, player) where the twin's board play differs from the spec's."""
    literal = spec.go_space(space_n.size, space_n.minimal, space_n.placements)
    fast = engine.space_from(space_n)
    bad = []
    for board in itertools.product("BW.", repeat=space_n.size):
        colouring = engine.colouring_of(board)
        for i, e in enumerate(fast.sets):
            for p in "BW":
                expected = spec.board_play(literal, board, e, p, readings)
                got = engine.board_play(fast, colouring, i, p, readings)
                if expected != (None if got is None else engine.board_of_colouring(fast, got)):
                    bad.append((board, e, p))
    return bad


@pytest.mark.parametrize(
    "readings",
    [spec.INTENDED, spec.Readings(string="literal"), spec.Readings(clearing="unrestricted")],
    ids=["intended", "literal", "unrestricted"],
)
def test_every_board_play_on_every_go_space_up_to_three_points(readings):
    for space in itertools.chain(*(engine.go_space_classes(n) for n in (1, 2, 3))):
        assert board_plays_disagree(space, readings) == [], engine.space_text(space)


@pytest.mark.slow
@pytest.mark.parametrize("readings", READINGS, ids=lambda r: "-".join(r))
def test_every_board_play_up_to_three_points_under_every_reading(readings):
    for space in itertools.chain(*(engine.go_space_classes(n) for n in (1, 2, 3))):
        assert board_plays_disagree(space, readings) == [], engine.space_text(space)


def test_a_broken_twin_is_caught(monkeypatch):
    """The mutant: liberties looked for only among placements whose closure holds the
    string's first point.  The comparison above finds it."""
    original = engine.has_liberty

    def short_sighted(space, colouring, union, c, readings):
        first = union & -union
        return original(space, colouring, first, c, readings) if union else original(space, colouring, 0, c, readings)

    monkeypatch.setattr(engine, "has_liberty", short_sighted)
    path = parse_graph("path:3")
    assert board_plays_disagree(spec.neighbourhoods_of(path), spec.INTENDED)


def test_the_twin_check_catches_a_twin_deaf_to_the_literal_reading(monkeypatch):
    """The mutant clears as if Defn 7 were always read as intended; the row of
    ``gorules verify`` must fail on it."""
    original = engine.clear
    monkeypatch.setattr(
        engine, "clear", lambda space, colouring, c, readings: original(space, colouring, c, spec.INTENDED)
    )
    assert not twin_check().run().passed


def play_both(text: str, options: dict, rng: random.Random, moves: int) -> None:
    """A random game on the go-space `text`, the twin and the spec compared at every move:
    the same legal moves, the same situation after each."""
    graph = parse_graph("space:" + text)
    fast = rulesets.make("topological", options=options, implementation="engine").initial(graph)
    slow = rulesets.make("topological", options=options, implementation="spec").initial(graph)
    for _ in range(moves):
        assert fast.over == slow.over, text
        if slow.over:
            break
        legal = slow.legal_moves()
        assert fast.legal_moves() == legal, (text, slow.state)
        move = rng.choice(legal)
        fast, slow = fast.play(move), slow.play(move)
        assert fast.state == slow.state, (text, move)
        assert fast.result() == slow.result()


def test_random_games_on_a_sample_of_four_point_go_spaces():
    rng = random.Random(4)
    spaces = list(engine.go_space_classes(4))
    for space in rng.sample(spaces, 30):
        for options in (
            {},
            {"string": "literal"},
            {"rules": "primitive", "placement": "overlap"},
            {"clearing": "unrestricted"},
        ):
            play_both(engine.space_text(space), options, rng, 6)


@pytest.mark.slow
def test_random_games_on_every_go_space_of_four_points():
    """Every one of the 4,847 go-spaces of four points (about four minutes on one core), one
    random game of up to 6 moves under each reading of Defn 7, under the overlap reading of
    Defn 4 and under the unrestricted reading of Defn 8."""
    rng = random.Random(44)
    for space in engine.go_space_classes(4):
        for options in (
            {},
            {"string": "literal"},
            {"placement": "overlap", "rules": "primitive"},
            {"clearing": "unrestricted"},
        ):
            play_both(engine.space_text(space), options, rng, 6)


def test_the_twin_is_the_default_and_agrees_on_graphs():
    assert rulesets.implementations("topological") == ["engine", "spec"]
    rng = random.Random(1)
    for name in ("path:3", "cycle:4", "grid:2x3"):
        graph = parse_graph(name)
        fast = rulesets.make("topological").initial(graph)
        slow = rulesets.make("topological", implementation="spec").initial(graph)
        for _ in range(12):
            if slow.over:
                break
            assert fast.legal_moves() == slow.legal_moves()
            move = rng.choice(slow.legal_moves())
            fast, slow = fast.play(move), slow.play(move)
            assert fast.state == slow.state


def test_a_move_on_the_19x19_grid(record_property):
    """The go-space of the 19×19 grid has 1,045 points (361 vertices, 684 edges); a move
    with a capture through the interface is timed and the time reported, not asserted."""
    graph = parse_graph("grid:19x19")
    ruleset = rulesets.make("topological")
    situation = ruleset.initial(graph)
    assert len(situation.state[-1].board) == 361 + 684
    for word in ("B1", "A1", "C1", "D4"):
        situation = situation.play(ruleset.parse_move(graph, word))
    assert situation.board[342] == "W"  # A1
    started = time.perf_counter()
    situation = situation.play(ruleset.parse_move(graph, "A2"))  # Black takes White's A1
    record_property("seconds_per_move", time.perf_counter() - started)
    assert situation.board[342] == "." and situation.details()["scores"] == {"B": 3, "W": 1}
