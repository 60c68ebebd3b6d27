"""The finder of `gorules readings 004`: where the readings of Political Go disagree, the
author's paradox, and the random tie-break; each shown to notice a broken reading."""

from __future__ import annotations

import pytest

from gorules import readings_political as R
from gorules.readings_common import Disagreement
from gorules.spec import political as P
from gorules.spec.graph import parse_graph


@pytest.fixture(scope="module")
def up_to_two():
    """The search over every settled board on graphs of at most two vertices."""
    return R.search(2, None, False)


def by_clause(found):
    """The disagreements by (option or topic, readings, size)."""
    return {(d.clause.split(":")[0], d.readings, d.points): d for d in found}


def test_start_situations_are_settled_and_a_moves():
    g = parse_graph("path:2")
    starts = list(R.start_situations(g))
    assert all(P.to_move(s) == "A" for s in starts)
    assert all(P.liberties(g, s.board, D) for s in starts for D in P.dragons(g, s))
    # 8 alliance structures times the empty board and the 6 boards of one stone; every
    # board of two stones leaves some dragon without a liberty.
    assert len(starts) == 8 * (1 + 6)
    assert len({(s.board, s.alliances) for s in starts}) == len(starts)


def test_smallest_disagreements_up_to_two_vertices(up_to_two):
    assert up_to_two.complete_sizes == [1, 2] and up_to_two.stopped is None
    found = by_clause(up_to_two.disagreements)
    assert all(isinstance(d, Disagreement) and d.source == "004" and d.count > 0 for d in found.values())
    # One vertex: an empty board is territory for every player or for none.
    assert ("territory", ("open", "bordered"), 1) in found
    # Two vertices: whose enemies fall, whether a lone stone in atari is dead, restriction 1.
    assert ("enemy", ("mover", "next"), 2) in found
    assert ("dead", ("one-liberty", "no-liberties"), 2) in found
    assert ("previous_turn", ("own", "last"), 2) in found
    # On a settled board every dragon has a liberty, so "one" and "at most one" agree.
    assert not any(key[0] == "dead" and key[1] == ("one-liberty", "at-most-one") for key in found)
    enemy = found[("enemy", ("mover", "next"), 2)]
    assert enemy.line == ("0",) and "board 0:. 1:B" in enemy.situation
    assert enemy.picture.startswith("<svg") and "</svg>" in enemy.picture
    assert all(d.as_dict()["clause"] == d.clause for d in found.values())


def test_the_paradox_occurs_on_a_triangle_without_alliances():
    """B and C stones on a triangle; A fills the last vertex: B and C both fall, and as
    written each shares in the capture of the other. Not under credit=survivors."""
    g = parse_graph("cycle:3")
    start = next(s for s in R.start_situations(g) if s.board == (".", "B", "C") and not s.alliances)
    found: dict = {}
    R.look_for_paradox(g, start, (0, 0), found)
    assert found[(R.PARADOX, ("adjacent", "survivors"))].count == 1
    assert found[(R.PARADOX, ("survivors", "adjacent"))].count == 0
    assert found[(R.TIES, ("seed=0", "seed=1"))].count == 1  # who gets the shared stone is drawn


def test_a_reading_that_changes_nothing_is_noticed(monkeypatch, up_to_two):
    """Mutant: `dead` ignores its reading. The finder then reports no disagreement on it."""
    monkeypatch.setattr(P, "dead", lambda graph, b, D, reading="one-liberty": len(P.liberties(graph, b, D)) == 1)
    mutant = by_clause(R.search(2, None, False).disagreements)
    assert not any(key[0] == "dead" for key in mutant)
    assert any(key[0] == "dead" for key in by_clause(up_to_two.disagreements))


def test_a_broken_credit_reading_is_noticed(monkeypatch):
    """Mutant: the survivors reading still counts falling stones: the credit disagreement
    on the triangle (A's stone takes both stones, or shares them) vanishes."""
    g = parse_graph("cycle:3")
    start = next(s for s in R.start_situations(g) if s.board == (".", "C", "B") and not s.alliances)
    found: dict = {}
    R.compare_readings(g, start, (0, 0), found)
    assert found[(R.clause_name("credit"), ("adjacent", "survivors"))].count > 0
    original = P.capturers
    monkeypatch.setattr(
        P,
        "capturers",
        lambda graph, s, D, falling: original(graph, s._replace(readings=P.DEFAULT_READINGS), D, falling),
    )
    broken: dict = {}
    R.forget()  # plays remembered before the mutant was made
    R.compare_readings(g, start, (0, 0), broken)
    assert broken[(R.clause_name("credit"), ("adjacent", "survivors"))].count == 0


def test_the_time_budget_stops_the_search_and_says_where(capsys, monkeypatch):
    done = R.search(3, 0.0, False)
    assert done.complete_sizes == [] and "size 1 stopped after 0 of" in done.stopped
    monkeypatch.setattr(R, "SECONDS_PER_START", 0.0)  # an estimate that lets it start
    assert R.disagreements(1, 0.0, False) == []
    assert "time budget" in capsys.readouterr().err


def test_a_search_estimated_beyond_the_budget_is_refused_naming_the_flag(capsys):
    from gorules.cli import main
    from gorules.errors import UsageError

    assert R.estimate(3) < 60 < R.estimate(4) < 600 < R.estimate(5)
    with pytest.raises(UsageError, match="raise --seconds"):
        R.find(5, 600, False)
    assert main(["readings", "004", "--max-points", "5", "--quiet"]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "over --seconds 600" in error[0]


def test_the_paradox_row_and_its_mutant(monkeypatch):
    """The row passes; with `captured_and_capturing` blind to the credit reading it fails
    (the paradox then shows under survivors too)."""
    from gorules.checks import ruleset_checks

    paradox = ruleset_checks.political_paradox_check()
    assert paradox.run().passed
    original = P.captured_and_capturing
    monkeypatch.setattr(
        P,
        "captured_and_capturing",
        lambda graph, s, mover: original(graph, s._replace(readings=P.DEFAULT_READINGS), mover),
    )
    assert not paradox.run().passed


@pytest.mark.slow
def test_the_readings_row_and_its_mutant(monkeypatch):
    """The row passes; with `dead` blind to its reading it fails, naming the reading."""
    from gorules.checks import ruleset_checks

    readings = ruleset_checks.political_readings_check()
    assert readings.run().passed
    monkeypatch.setattr(P, "dead", lambda graph, b, D, reading="one-liberty": len(P.liberties(graph, b, D)) == 1)
    outcome = readings.run()
    assert not outcome.passed and "none for ['dead']" in outcome.result


def test_the_readings_command_for_source_004(tmp_path, capsys):
    from gorules.cli import main

    report = tmp_path / "readings.json"
    assert main(["readings", "004", "--max-points", "2", "--quiet", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert 'enemy: "the stones of enemy dragons with no liberties are captured": mover vs next' in out
    assert "complete up to 2 points" in out
    data = __import__("json").loads(report.read_text())
    assert data["source"] == "004" and data["complete_up_to"] == 2
    clauses = {entry["clause"].split(":")[0] for entry in data["smallest"]}
    assert set(ruleset_readings_differing_by_two()) <= clauses


def ruleset_readings_differing_by_two():
    """The readings the verify row expects to differ on two vertices."""
    from gorules.checks.ruleset_checks import POLITICAL_DIFFER_BY_TWO

    return POLITICAL_DIFFER_BY_TWO
