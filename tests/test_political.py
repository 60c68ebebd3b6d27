"""Political Go (source 004): each reading of an ambiguous clause changes play or scores on a
small case; coordinates as the source letters them; bad players and alliances refused."""

from __future__ import annotations

import random

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.spec import api, political
from gorules.spec.graph import GraphError, parse_graph

E = "."


def situation(graph, board, players="ABC", alliances=(), head=0, **readings):
    """A political situation with the given board, alliances and readings."""
    s = political.initial_situation(graph, list(players), political.Readings(**readings))
    return s._replace(board=tuple(board), alliances=frozenset(frozenset(a) for a in alliances), head=head)


def line(graph, words, players="ABC", **options):
    """The situation after the moves the words name, from the start, under the given options;
    None if one of them is illegal."""
    ruleset = rulesets.make("political", options={"players": ",".join(players), **options})
    s = ruleset.initial(graph)
    for word in words:
        try:
            s = s.play(ruleset.parse_move(graph, word))
        except api.IllegalMove:
            return None
    return s


def test_every_reading_is_an_option_naming_its_clause():
    fields = {f.name: f for f in api.reading_fields(political.Options)}
    assert set(fields) == set(political.READINGS)
    for name, f in fields.items():
        assert f.metadata["choices"] == political.READINGS[name]
        assert f.default == political.READINGS[name][0] == getattr(political.DEFAULT_READINGS, name)
        assert f.metadata["reading_of"].startswith('"')
    assert rulesets.make("political", options={"dead": "no-liberties"}).options.readings.dead == "no-liberties"
    with pytest.raises(api.OptionError, match="dead cannot be 'none'"):
        rulesets.make("political", options={"dead": "none"})


def test_dead_readings_change_the_final_scores():
    g = parse_graph("path:3")
    rng = random.Random(0)
    in_atari = {r: political.final_scores(g, situation(g, "A..", dead=r), [], rng) for r in political.READINGS["dead"]}
    # One liberty: dead under the text, taken off; the empty board is everybody's territory.
    assert in_atari["one-liberty"] == in_atari["at-most-one"] == {"A": 3, "B": 3, "C": 3}
    assert in_atari["no-liberties"] == {"A": 2, "B": 0, "C": 0}
    # No liberty (left by a war): live under the text, dead under the two others.
    g2 = parse_graph("path:2")
    none = {r: political.final_scores(g2, situation(g2, "AB", dead=r), [], rng) for r in political.READINGS["dead"]}
    assert none["one-liberty"] == {"A": 0, "B": 0, "C": 0}
    assert none["no-liberties"] == none["at-most-one"] == {"A": 2, "B": 2, "C": 2}


def test_a_dragon_both_captured_and_capturing_needs_no_alliance():
    """On a triangle, A and B touch and share their last liberty; C fills it: both fall, and
    as written each shares in the capture of the other (the author's paradox)."""
    g = parse_graph("cycle:3")
    adjacent = line(g, ["0", "1"])
    pairs = political.captured_and_capturing(g, adjacent.state._replace(board=("A", "B", "C"), head=2), "C")
    assert pairs == [(frozenset({0}), frozenset({1})), (frozenset({1}), frozenset({0}))]
    survivors = adjacent.state._replace(board=("A", "B", "C"), head=2, readings=political.Readings(credit="survivors"))
    assert political.captured_and_capturing(g, survivors, "C") == []
    as_written = line(g, ["0", "1", "2"])
    only_survivors = line(g, ["0", "1", "2"], credit="survivors")
    assert as_written.board == only_survivors.board == (E, E, "C")
    assert only_survivors.details()["captured"] == {"A": 0, "B": 0, "C": 2}
    assert as_written.details()["captured"]["C"] < 2  # A and B took a share of each other


def test_overlapping_dragons_credited_once_or_per_dragon():
    g = parse_graph("path:3")
    rng = random.Random(0)
    once = situation(g, "ABC", "ABCD", alliances=["AB", "BC"], head=3)
    twice = situation(g, "ABC", "ABCD", alliances=["AB", "BC"], head=3, overlap="per-dragon")
    assert sum(political.play(g, once, political.Move("pass"), rng).captured) == 3
    assert sum(political.play(g, twice, political.Move("pass"), rng).captured) == 4


def test_previous_turn_own_or_last():
    """A's stone is captured by B; C passes; A refills: forbidden under "own" (A had the stone
    during eir own previous turn), open under "last" (A had none during C's turn)."""
    g = parse_graph("path:2")
    assert line(g, ["0", "1", "pass", "0"]) is None
    refilled = line(g, ["0", "1", "pass", "0"], previous_turn="last")
    assert refilled is not None and refilled.board == ("A", E)
    # With two players the readings agree: B's capture of A at once forbids A's refill.
    assert line(g, ["0", "1", "0"], players="AB") is None
    assert line(g, ["0", "1", "0"], players="AB", previous_turn="last") is None


def test_territory_readings():
    g = parse_graph("path:4")
    walled = {
        r: political.territory(g, situation(g, "A.AB", territory=r), "A") for r in political.READINGS["territory"]
    }
    assert walled == {"open": {1}, "bordered": {1}, "any-path": frozenset(), "sole": {1}}
    g1 = parse_graph("path:2")
    empty = {r: political.territory(g1, situation(g1, "..", territory=r), "B") for r in political.READINGS["territory"]}
    assert empty == {"open": {0, 1}, "bordered": frozenset(), "any-path": {0, 1}, "sole": frozenset()}
    g3 = parse_graph("path:3")
    allies = {
        r: political.territory(g3, situation(g3, "A.B", alliances=["AB"], territory=r), "B") for r in ("open", "sole")
    }
    assert allies == {"open": {1}, "sole": frozenset()}  # walled by two allies: both players', or neither's


def test_friendship_pairwise_or_transitive():
    g = parse_graph("path:3")
    pairwise = situation(g, "ABC", alliances=["AB", "BC"])
    transitive = situation(g, "ABC", alliances=["AB", "BC"], friendship="transitive")
    assert political.dragons(g, pairwise) == [frozenset({0, 1}), frozenset({1, 2})]
    assert political.dragons(g, transitive) == [frozenset({0, 1, 2})]
    ruleset = political.Political()
    assert political.Move("ally", "C", True) in ruleset.moves(g, pairwise)
    assert political.Move("ally", "C", True) not in ruleset.moves(g, transitive)  # already friendly


def test_enemy_of_whom():
    """A declares war on B while A's stone has no liberty of its own: kept (the mover's own
    dragon), or captured at once (an enemy of the next player, or of anyone)."""
    g = parse_graph("path:3")
    rng = random.Random(0)
    boards = {}
    for r in political.READINGS["enemy"]:
        s = situation(g, ("A", "B", E), "AB", alliances=["AB"], enemy=r)
        boards[r] = political.play(g, s, political.Move("war", "B"), rng).board
    assert boards == {"mover": ("A", "B", E), "next": (E, "B", E), "anyone": (E, "B", E)}


def test_coordinates_as_the_source_letters_them():
    g = parse_graph("grid:19x19")
    text, gtp = political.Political(), rulesets.make("political", options={"coordinates": "gtp"})
    assert text.parse_move(g, "s19") == political.Move("place", 18)  # the nineteenth file
    assert text.parse_move(g, "i1") == political.Move("place", 18 * 19 + 8)
    assert text.parse_move(g, "A1") == political.Move("place", 18 * 19)
    assert gtp.parse_move(g, "s19") == political.Move("place", 17)
    with pytest.raises(GraphError, match="'i1'"):
        gtp.parse_move(g, "i1")
    assert [text.move_text(g, political.Move("place", v)) for v in (18, 18 * 19 + 8)] == ["s19", "i1"]
    assert gtp.move_text(g, political.Move("place", 18 * 19 + 8)) == "j1"


def test_bad_players_and_alliances_are_one_line_errors(capsys):
    assert main(["play", "political", "path:4", "--moves", "1 ally:Z!"]) == 2
    assert main(["play", "political", "path:4", "--moves", "war:B"]) == 2
    assert main(["play", "political", "path:4", "--moves", "ally:B! ally:A!"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3
    assert "'ally:Z!' names no player of this game: the players are A, B, C" in errors[0]
    assert "A and B are not allies" in errors[1]
    assert "move 2 ('ally:A!') is illegal: A's stones are already friendly to B" in errors[2]


def test_a_game_of_four_from_the_command_line_prints_alliances_scores_and_winners(capsys, tmp_path):
    record = tmp_path / "game.sgf"
    moves = "0 ally:A! 2 1 war:B" + " pass" * 12
    assert main(["play", "political", "path:5", "--players", "A,B,C,D", "--moves", moves, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "move 2 (B ally:A!): A and B are allied" in out
    assert "move 4 (D 1): D captures 1" in out
    assert "move 5 (A war:B): A and B are no longer allied" in out
    assert "result: {'A': 5, 'B': 5, 'C': 5, 'D': 6}" in out and "winners: ['D']" in out
    text = record.read_text()
    assert text.startswith("(;GM[political]") and "PL[A,B,C,D]" in text
    assert ";P[B]M[ally:A!]C[A and B are allied]" in text
    assert text.count(";P[") == 17 and text.rstrip().endswith(";RE[A=5 B=5 C=5 D=6; winners: D])")


def test_five_players_on_the_nineteen_line_board_by_the_source_letters(capsys):
    moves = "s19 a1 i1 t19 pass"
    assert main(["play", "political", "grid:19x19", "--preset", "five", "--moves", "s19 a1 i1", "--json"]) == 0
    data = __import__("json").loads(capsys.readouterr().out)
    assert data["board"][18] == "A" and data["board"][18 * 19] == "B" and data["board"][18 * 19 + 8] == "C"
    assert data["to_move"] == "D"
    assert main(["play", "political", "grid:19x19", "--preset", "five", "--moves", moves]) == 2
    assert "unknown point 't19'" in capsys.readouterr().err


def test_a_record_that_cannot_be_written_is_a_one_line_error(tmp_path, capsys):
    assert main(["play", "political", "path:3", "--moves", "1", "--record", str(tmp_path)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 1 and "--record" in errors[0] and "is a directory" in errors[0]
    assert [p.name for p in tmp_path.iterdir()] == []  # nothing half-written left behind


def test_overlapping_dragons_fall_together_with_four_players():
    """B, C, D around an empty vertex, B+C and C+D allied (not B+D): A fills the vertex and
    both overlapping dragons fall. Credited once, 3 stones; per dragon, 4. As written, D's
    falling stone shares in the capture of {B, C}: the paradox, here made by alliances."""
    g = parse_graph("edges:0-1,0-2,0-3,1-2,2-3")
    credited = {}
    for overlap in political.READINGS["overlap"]:
        s = situation(g, ".BCD", "ABCD", alliances=["BC", "CD"], overlap=overlap)
        assert political.dragons(g, s) == [frozenset({1, 2}), frozenset({2, 3})]
        assert all(political.liberties(g, s.board, D) == {0} for D in political.dragons(g, s))  # settled
        after = political.play(g, s, political.Move("place", 0), random.Random(0))
        assert after.board == ("A", E, E, E)
        credited[overlap] = sum(after.captured)
        made = political.move_made(g, s, political.Move("place", 0))
        assert (frozenset({2, 3}), frozenset({1, 2})) in political.captured_and_capturing(g, made, "A")
    assert credited == {"once": 3, "per-dragon": 4}


def test_territory_readings_meet_the_dead_reading():
    """On the path . A B . the two stones are in atari: dead as the text reads it, so no
    territory reading matters; read as dead with no liberties, they stay, and a path through
    A's stone reaches B (any-path) where no empty path does (open)."""
    g = parse_graph("path:4")
    scores = {
        (dead, reading): political.final_scores(
            g, situation(g, ".AB.", dead=dead, territory=reading), [], random.Random(0)
        )
        for dead in ("one-liberty", "no-liberties")
        for reading in ("open", "any-path")
    }
    assert scores[("one-liberty", "open")] == scores[("one-liberty", "any-path")] == {"A": 4, "B": 4, "C": 4}
    assert scores[("no-liberties", "open")] == {"A": 1, "B": 1, "C": 0}
    assert scores[("no-liberties", "any-path")] == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_invariants_of_each_reading(seed):
    """Random games of four players (alliances made and broken) under random readings: after
    each move no dragon that the reading of `enemy` captures is left without liberties; with
    overlap=once the stones credited never exceed the stones removed; with credit=survivors
    no dragon is both captured and capturing."""
    rng = random.Random(seed)
    g = parse_graph(rng.choice(["grid:2x3", "cycle:5", "path:5", "star:4"]))
    readings = political.Readings(**{name: rng.choice(choices) for name, choices in political.READINGS.items()})
    s = political.initial_situation(g, ["A", "B", "C", "D"], readings)
    ruleset = political.Political(political.Options(("A", "B", "C", "D")))
    for _ in range(60):
        if s.over:
            break
        move = rng.choice(ruleset.moves(g, s))
        made = political.move_made(g, s, move)
        mover = political.to_move(s)
        if readings.credit == "survivors":
            assert political.captured_and_capturing(g, made, mover) == []
        after = political.play(g, s, move, political.tie_breaks(0, s))
        removed = sum(1 for v in g.points if made.board[v] != E and after.board[v] == E)
        gained = sum(after.captured) - sum(s.captured)
        if readings.overlap == "once":
            assert gained <= removed
        assert not political.fallen(g, after._replace(head=s.head), mover)
        s = after


def test_overlap_readings_part_at_the_end_with_three_players():
    """On a 6-cycle, A+B and B+C allied: the dragons {A3, B4} and {B4, C5} overlap, and each
    has one liberty, so both are dead as the text reads it. A's live stone at 1 is unfriendly
    to the second and touches its liberty: it takes C5 alone (once: B4 went with the first
    dragon, which nobody captures) or B4 and C5 (per dragon)."""
    g = parse_graph("cycle:6")
    scores = {
        overlap: political.final_scores(
            g, situation(g, ".A.ABC", alliances=["AB", "BC"], overlap=overlap), [], random.Random(0)
        )
        for overlap in political.READINGS["overlap"]
    }
    assert scores == {"once": {"A": 6, "B": 5, "C": 0}, "per-dragon": {"A": 7, "B": 5, "C": 0}}


def test_the_shortcut_of_legal_placement_exists_agrees_with_may_place():
    """On random situations (random boards, alliances, remembered vertices and readings),
    whether some player may place equals the plain search of may_place."""
    rng = random.Random(11)
    pairs = [frozenset(p) for p in ("AB", "AC", "AD", "BC", "BD", "CD")]
    seen = set()
    for name in ["path:4", "cycle:5", "grid:2x3", "star:4"]:
        g = parse_graph(name)
        for _ in range(150):
            board = tuple(rng.choice("ABCD...") for _ in g.points)
            s = situation(
                g,
                board,
                "ABCD",
                alliances=[p for p in pairs if rng.random() < 0.4],
                friendship=rng.choice(political.READINGS["friendship"]),
            )
            s = s._replace(previous=tuple(frozenset(v for v in g.points if rng.random() < 0.3) for _ in "ABCD"))
            plain = any(political.may_place(g, s._replace(head=i), v) for i in range(4) for v in g.points)
            assert political.legal_placement_exists(g, s) == plain
            seen.add(plain)
    assert seen == {True, False}
