"""The worked examples of section VII of source 003: the positions have the stated
properties, the computed lines carry the text's move numbers, and each check fails on a
mutant of the game that breaks what it is about."""

from __future__ import annotations

import json

import pytest

from gorules.cli import main
from gorules.impl.rulesets.ultimate import examples as ux
from gorules.spec.tromp_taylor import BLACK, WHITE

FIRST, SECOND = ux.EXAMPLES
FIRST_SHAPE = ux.Shape(2, 2, 3, BLACK)
SECOND_SHAPE = ux.Shape(3, 2, 3, WHITE)


def computed(engine_type: type, shape: ux.Shape, example: ux.Example) -> tuple[ux.Properties, list[ux.Computed]]:
    """The properties and variations of a shape under an engine (real or mutant)."""
    engine = engine_type(ux.example_graph(shape))
    return ux.properties(engine, shape), ux.compute(engine, shape, example)


@pytest.fixture(scope="module")
def first() -> tuple[ux.Properties, list[ux.Computed]]:
    """The first example on its 13-point position."""
    return computed(ux.Sensible, FIRST_SHAPE, FIRST)


@pytest.fixture(scope="module")
def second() -> tuple[ux.Properties, list[ux.Computed]]:
    """The second example on its 14-point position."""
    return computed(ux.Sensible, SECOND_SHAPE, SECOND)


def test_the_graph_is_two_stones_their_eyes_and_the_dame():
    """Point 0 Black, 1 White, dame next to both, each side's territory + 2 eyes next to its stone alone."""
    graph = ux.example_graph(FIRST_SHAPE)
    regions = FIRST_SHAPE.regions()
    assert graph.order == 13 == FIRST_SHAPE.order
    assert regions == {"dame": [2, 3, 4], BLACK: [5, 6, 7, 8], WHITE: [9, 10, 11, 12]}
    assert all(set(graph.neighbours[d]) == {0, 1} for d in regions["dame"])
    assert all(graph.neighbours[v] == (0,) for v in regions[BLACK])
    assert ux.example_situation(FIRST_SHAPE).board[:3] == (BLACK, WHITE, ".")


def test_first_example_has_the_stated_properties(first):
    """Black to play: Fundamental score +½, Ultimate Go a draw, each side fills 2 eye points."""
    properties, variations = first
    assert (properties.score, properties.result, properties.margin) == (0.5, "draw", 0)
    assert ux.stated(FIRST, properties)
    assert ux.territory_fills(FIRST_SHAPE, variations[0].steps) == {BLACK: 2, WHITE: 2}


def test_first_example_lines_carry_the_texts_move_numbers(first):
    """W4 and B9 ultimate delays, W10 declares the draw; W2 delaying keeps the draw; B1
    delaying loses (B9 resigns)."""
    _, (main_line, earlier, denial) = first
    assert main_line.events == ["W4 ultimate delay", "B9 ultimate delay", "W10 declare draw"]
    assert all(step.cost == 0 for step in main_line.steps[:-1])
    assert earlier.events[0] == "W2 ultimate delay" and earlier.result == "draw"
    assert denial.events == ["B1 ultimate delay", "B9 resign"] and denial.result == WHITE
    assert denial.steps[0].cost == 2
    assert not any(c.differences for c in first[1])


def test_second_example_has_the_stated_properties(second):
    """White to play: score +½, Black wins by 1 (one extra prisoner lets White draw)."""
    properties, variations = second
    assert (properties.score, properties.result, properties.margin) == (0.5, BLACK, 1)
    assert ux.territory_fills(SECOND_SHAPE, variations[0].steps) == {BLACK: 3, WHITE: 2}


def test_second_example_lines_carry_the_texts_move_numbers(second):
    """B4 and W9 ultimate delays, W11 resigns; White delaying first resigns at W9, a 2-point win."""
    _, (main_line, attempt) = second
    assert main_line.events == ["B4 ultimate delay", "W9 ultimate delay", "W11 resign"]
    assert attempt.events == ["W1 ultimate delay", "W9 resign"]
    assert (attempt.result, attempt.margin) == (BLACK, 2)
    assert not main_line.differences and not attempt.differences


def test_the_smallest_shapes_with_the_properties_are_found():
    """The search finds the stated properties first at 1 dame (11 points), and on odd numbers of dame only."""
    found = ux.find(FIRST, 13)
    assert [p.shape.dame for p in found if ux.stated(FIRST, p)] == [1, 3]
    assert [p.score for p in found] == [-0.5, 0.5, -0.5, 0.5]


def test_without_the_draw_option_the_first_example_is_no_draw():
    """Mutant: no draw right after the second ultimate delay; Black then wins."""
    properties, variations = computed(ux.NoDrawOption, FIRST_SHAPE, FIRST)
    assert properties.result == BLACK and not ux.stated(FIRST, properties)
    assert variations[0].differences


def test_without_the_group_tax_the_territories_are_not_two():
    """Mutant: the last eye cannot be taken, so each side fills 3 eye points and the move numbers shift."""
    _, variations = computed(ux.NoGroupTax, FIRST_SHAPE, FIRST)
    assert ux.territory_fills(FIRST_SHAPE, variations[0].steps) == {BLACK: 3, WHITE: 3}
    assert "B11 ultimate delay" in variations[0].events and variations[0].differences


def test_sensible_play_refuses_self_atari_and_only_that():
    """Filling the third of four eyes (dame gone) puts the group in atari: refused by sensible
    play, legal in the full game, and legal in the mutant where the last eye cannot be taken."""
    shape = ux.Shape(2, 2, 0, BLACK)
    graph = ux.example_graph(shape)
    own, other = 1 | 1 << 2 | 1 << 3, 1 << 1
    assert ux.Engine(graph).place(own, other, 4) is not None
    assert ux.Sensible(graph).place(own, other, 4) is None
    assert ux.NoGroupTax(graph).place(own, other, 4) is not None
    assert ux.Sensible(graph).place(own, other, 5) is None and ux.Sensible(graph).place(1, other, 2) is not None


def test_sensible_play_agrees_with_the_full_search_on_small_shapes():
    """Score, result and margin are the same with and without self-atari, up to 8 points."""
    shapes = ux.agreement_shapes(8)
    assert len(shapes) == 6
    for shape in shapes:
        full, sensible = ux.agreement(shape)
        assert full.as_dict() == sensible.as_dict(), shape


class NoEyeFilling(ux.Sensible):
    """Mutant of sensible play: it also refuses filling one's own eye points."""

    def place(self, own, other, v):
        """Refused when every neighbour of v is the mover's."""
        if self.neighbours[v] & ~own == 0:
            return None
        return super().place(own, other, v)


def test_the_agreement_check_catches_a_too_narrow_sensible_play():
    """A sensible play that drops eye filling disagrees with the full search on 8 points."""
    shape = ux.Shape(1, 0, 1, BLACK)
    full = ux.properties(ux.Engine(ux.example_graph(shape)), shape)
    narrow = ux.properties(NoEyeFilling(ux.example_graph(shape)), shape)
    assert full.as_dict() != narrow.as_dict()


@pytest.mark.slow
def test_command_prints_both_examples_as_json(capsys):
    """The command: both examples at the text's numbering, no difference, exit 0."""
    assert main(["ultimate-examples", "--exact-points", "7", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    first_example, second_example = report["examples"]
    assert first_example["position"]["shape"] == FIRST_SHAPE.describe()
    assert second_example["position"]["shape"] == SECOND_SHAPE.describe()
    assert all(not v["differences"] for e in report["examples"] for v in e["variations"])
    assert [r["agree"] for r in report["agreement"]] == [True, True]


@pytest.mark.parametrize(
    "argv",
    [["--max-points", "5"], ["--max-points", "40"], ["--exact-points", "12"], ["--max-nodes", "0"]],
)
def test_command_refuses_bad_limits_in_one_line(argv, capsys):
    """Limits out of range: one line, exit 2."""
    assert main(["ultimate-examples", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1


def test_command_reports_a_spent_budget_in_one_line(capsys):
    """A node budget too small for the first example: one line naming what was settled, exit 2."""
    assert main(["ultimate-examples", "--max-nodes", "500", "--json"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and len(err) == 1 and "settled no example" in err[0]


@pytest.mark.slow
def test_command_fails_when_an_example_loses_its_stated_property(monkeypatch, capsys):
    """With the no-draw mutant in place of sensible play, no shape of the first example is a
    draw: the command says so and exits 1."""
    monkeypatch.setattr(ux, "Sensible", ux.NoDrawOption)
    assert main(["ultimate-examples", "--max-points", "13", "--exact-points", "0"]) == 1
    out = capsys.readouterr().out
    assert "FAILED: no shape up to 13 points has the stated properties" in out
