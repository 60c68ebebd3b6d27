"""The readings of Topological Go (source 001) as options: each reading changes play where
the source says it should, the propositions are told apart per reading, and go-spaces are
read from text with one-line errors."""

import pytest

from gorules import rulesets
from gorules.checks.ruleset_checks import propositions_check
from gorules.spec import topological
from gorules.spec.graph import GraphError, parse_graph
from gorules.spec.tromp_taylor import BLACK as B
from gorules.spec.tromp_taylor import EMPTY as E
from gorules.spec.tromp_taylor import WHITE as W

LITERAL = topological.Readings(string="literal")
INTENDED = topological.Readings(string="intended")

# Three discrete points; a two-point stone {0,1} whose closure is not connected, and a
# placement {2} far away.
FAR = topological.go_space(3, [{0}, {1}, {2}], [{0, 1}, {2}])


def test_defn_7_literal_string_of_an_unconnected_stone_is_empty_and_lives_through_a_far_placement():
    colouring = (B, B, E)
    stone = frozenset({0, 1})
    assert topological.string(FAR, colouring, stone, LITERAL) == frozenset()
    assert topological.has_liberty(FAR, colouring, frozenset(), B, LITERAL)
    assert topological.board_play(FAR, (E, E, E), stone, B, LITERAL) == (B, B, E)


def test_defn_7_intended_string_holds_the_stone_which_dies_as_d8_says():
    colouring = (B, B, E)
    stone = frozenset({0, 1})
    assert topological.string(FAR, colouring, stone, INTENDED) == frozenset({stone})
    assert not topological.has_liberty(FAR, colouring, frozenset({stone}), B, INTENDED)
    assert topological.board_play(FAR, (E, E, E), stone, B, INTENDED) == (E, E, E)


def test_intended_unconnected_stone_lives_when_a_placement_touches_all_its_parts():
    """D8: "unless there happens to be a liberty placement which touches all parts"."""
    # 3 lies in the closures of 0 and of 2, 4 in those of 1 and of 2: the closure of {2}
    # meets the closures of both parts of the stone {0,1}, which do not meet each other.
    space = topological.space_of(parse_graph("space:5;preorder=3<0,3<2,4<1,4<2;S=0+1,2"))
    stone = frozenset({0, 1})
    assert not topological.go_connected(space, frozenset({stone}))
    assert topological.board_play(space, (E,) * 5, stone, B, INTENDED) == (B, B, E, E, E)
    assert topological.board_play(FAR, (E, E, E), stone, B, INTENDED) == (E, E, E)


def test_proposition_3_verdicts_tell_vacuous_from_failing():
    colouring, stone = (B, B, E), frozenset({0, 1})
    assert topological.proposition_3_verdict(FAR, colouring, stone, LITERAL) == "vacuous"
    assert topological.proposition_3_verdict(FAR, colouring, stone, INTENDED) == "fails"
    assert topological.proposition_3_verdict(FAR, (B, B, W), frozenset({2}), INTENDED) == "holds"


def test_defn_5_readings_agree_on_finite_spaces():
    """The closure of a finite union is the union of the closures."""
    space = topological.go_space(4, [{0}, {1}, {0, 1, 2}, {1, 3}], [{0}, {1}, {0, 1, 2}, {1, 3}])
    other = topological.Readings(closure="union-of-closures")
    for G in ({frozenset({0}), frozenset({1})}, {frozenset({0}), frozenset({1, 3})}, {frozenset({1, 3})}):
        G = frozenset(G)
        assert topological.go_connected(space, G) == topological.go_connected(space, G, other)


def test_defn_4_overlap_lets_a_placement_cover_own_points():
    space = topological.go_space(2, [{0}, {0, 1}], [{0}, {0, 1}])
    overlap = topological.Readings(placement="overlap")
    assert topological.legal_placements(space, (B, E), B) == frozenset()
    assert topological.legal_placements(space, (B, E), B, overlap) == {frozenset({0, 1})}
    assert topological.legal_placements(space, (B, E), W, overlap) == frozenset()


def test_readings_are_options_with_reading_of():
    from gorules.spec.api import reading_fields

    clauses = {f.name: f.metadata["reading_of"] for f in reading_fields(topological.Options)}
    assert clauses["string"].startswith("Defn 7") and clauses["closure"].startswith("Defn 5")
    assert rulesets.make("topological", options={"string": "literal"}).options.readings == LITERAL


@pytest.mark.parametrize("reading", ["intended", "literal"])
def test_propositions_check_passes_under_each_reading(reading):
    outcome = propositions_check(reading).run()
    assert outcome.passed, outcome.result
    assert (outcome.detail["vacuous"] > 0) == (reading == "literal")
    assert (outcome.detail["fails"] > 0) == (reading == "intended")


def test_propositions_check_refutes_a_mutant(monkeypatch):
    """A string that ignores s (always ∅) makes the intended reading's verdicts vacuous:
    the check must fail."""
    topological.string.cache_clear()
    monkeypatch.setattr(topological, "string", lambda space, colouring, s, readings=INTENDED: frozenset())
    assert not propositions_check("intended").run().passed


def test_go_space_from_text():
    g = parse_graph("space:3;preorder=2<0,2<1;S=0,1")
    space = topological.space_of(g)
    assert space.opens == {frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1}), frozenset({0, 1, 2})}
    assert space.placements == {frozenset({0}), frozenset({1})}
    assert g.neighbours == ((2,), (2,), (0, 1))
    by_basis = topological.parse_go_space("3;basis=0,1,0+1+2;S=0,1")
    by_opens = topological.parse_go_space("3;opens=0,1,0+1;S=0,1")
    assert by_basis.minimal == by_opens.minimal == topological.parse_go_space("3;preorder=2<0,2<1;S=0,1").minimal


@pytest.mark.parametrize(
    "text, problem",
    [
        ("space:3;opens=0,1;S=0", "the union of {0} and {1} is not open"),
        ("space:3;opens=0+1,1+2;S=0+1", "the intersection of {0,1} and {1,2} is not open"),
        ("space:3;basis=0+1,1+2;S=0+1", "not a basis"),
        ("space:2;S=0,{}", "S contains the empty set"),
        ("space:2;preorder=1<0;S=1", "{1} of S is not an open set"),
        ("space:2;preorder=1<0", "S, the family of placements, is missing"),
        ("space:2;S=0,5", "not a point 0..1"),
        ("space:x;S=0", "number of points"),
        ("space:123456789;S=0", "at most 10000 points"),
    ],
)
def test_bad_go_spaces_are_named(text, problem):
    with pytest.raises(GraphError, match=None) as error:
        parse_graph(text)
    assert problem in str(error.value) and "\n" not in str(error.value)


def test_play_on_a_go_space_from_the_command_line(capsys):
    from gorules.cli import main

    assert main(["play", "topological", "space:3;S=0+1,2", "--moves", "0+1", "--option", "string=literal"]) == 0
    assert "0:B 1:B 2:." in capsys.readouterr().out
    # Intended: the stone dies at once, which repeats the empty colouring: not a turn.
    assert main(["play", "topological", "space:3;S=0+1,2", "--moves", "0+1"]) == 2
    assert "move 1 ('0+1') is illegal" in capsys.readouterr().err
    assert main(["play", "topological", "space:3;opens=0,1;S=0", "--moves", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a topology" in err


def test_defn_8_unrestricted_captures_nothing_beside_a_living_stone_and_breaks_proposition_2():
    """Unrestricted: x is cleared only if every stone of its colour holds it and is dead.
    Two separate dead black stones survive; a dead stone {0,1} beside a dead stone {0}
    loses only 0, and 1 stays black in no stone (Proposition 2's step fails)."""
    unrestricted = topological.Readings(clearing="unrestricted")
    path = topological.graph_go_space(parse_graph("path:3"))
    colouring = (B, W, B, E, E)
    assert topological.clear(path, colouring, B) == (E, W, E, E, E)
    assert topological.clear(path, colouring, B, unrestricted) == colouring
    two = topological.go_space(2, [{0}, {1}], [{0}, {0, 1}])
    after = topological.board_play(two, (E, E), frozenset({0, 1}), B, unrestricted)
    assert after == (E, B) and not topological.proposition_2(two, after)
    assert topological.board_play(two, (E, E), frozenset({0, 1}), B) == (E, E)
