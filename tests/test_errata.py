"""The errata: the literal readings of spec/errata.py, the independent reference, the exhaustive
checker (it must find each failure and must be able to fail), and ``gorules errata``."""

from __future__ import annotations

import itertools
import json

import pytest

from gorules import errata
from gorules.checks.errata_checks import EXPECTED  # the verdicts errata.md states
from gorules.cli import main
from gorules.replay import parse_moves, replay
from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph

SMALL = [parse_graph(name) for name in ("path:1", "path:3", "cycle:4", "grid:2x3", "digraph:0>1,1>2,2>0,2>1")]


def boards(graph):
    """Every board of a graph."""
    return itertools.product("BW.", repeat=graph.order)


# --------------------------------------------------------------------------- the literal readings


def test_reaches_as_written_holds_exactly_when_the_point_has_the_colour():
    for graph in SMALL:
        for b in boards(graph):
            for v in graph.points:
                for c in "BW.":
                    assert literal.reaches_as_written(graph, b, v, c) == (b[v] == c)


def test_clear_as_written_removes_every_stone_of_the_player():
    for graph in SMALL:
        for b in boards(graph):
            assert literal.clear_as_written(graph, b, "B") == tuple("." if c == "B" else c for c in b)


def test_score_as_written_counts_stones_only():
    for graph in SMALL:
        for b in boards(graph):
            for p in "BW":
                assert literal.score_as_written(graph, b, p) == b.count(p)


# --------------------------------------------------------------------------- the reference


def test_the_reference_agrees_with_hand_made_positions():
    g = parse_graph("grid:2x3")
    b = tuple("BB.WB.")
    assert errata.reference_reaches(g, b, 0, ".")
    assert not errata.reference_reaches(g, b, 3, ".")
    assert errata.reference_clear(g, b, "W") == tuple("BB..B.")
    assert errata.reference_score(g, tuple("B....."), "B") == 6
    assert errata.reference_score(g, tuple("B.W..."), "B") == 1
    d = parse_graph("digraph:0>1")
    assert not errata.reference_reaches(d, tuple(".B"), 1, ".")
    assert errata.reference_reaches(d, tuple("B."), 0, ".")


def test_the_reference_step_agrees_with_the_spec_on_a_small_grid():
    g = parse_graph("grid:2x3")
    for b in boards(g):
        for p in "BW":
            s = tt.State(b, p, 0)
            for v in errata.moves_of(g):
                assert errata.reference_move(g, s, v) == tt.move(g, s, v)


# --------------------------------------------------------------------------- the checker


def test_definitions_fail_as_written_and_hold_as_corrected_with_the_smallest_counterexample():
    graphs = errata.by_size(SMALL + [parse_graph("path:2")])
    verdict = errata.reaches_against_reference(literal.reaches_as_written, graphs)
    assert not verdict.holds
    assert verdict.counterexample.graph.name == "path:2"
    assert verdict.counterexample.board == ("B", ".")
    assert verdict.counterexample.moves == (0,)
    assert errata.reaches_against_reference(tt.reaches, graphs).holds
    assert not errata.clear_against_reference(literal.clear_as_written, graphs).holds
    assert errata.clear_against_reference(tt.clear, graphs).holds
    assert not errata.move_against_reference(literal.move_as_written, graphs).holds
    assert errata.move_against_reference(tt.move, graphs).holds
    assert not errata.score_against_reference(literal.score_as_written, graphs).holds
    assert errata.score_against_reference(tt.score, graphs).holds


def test_the_checker_refutes_a_mutant_that_ignores_arc_directions():
    def undirected_reaches(graph, b, v, c):
        """reaches that follows arcs both ways: wrong on digraphs, right elsewhere."""
        both = tuple(
            tuple(sorted(set(graph.neighbours[u]) | {w for w in graph.points if u in graph.neighbours[w]}))
            for u in graph.points
        )
        return errata.reference_reaches(type(graph)(both, graph.name), b, v, c)

    undirected = [g for g in SMALL if not g.directed]
    assert errata.reaches_against_reference(undirected_reaches, undirected).holds
    verdict = errata.reaches_against_reference(undirected_reaches, SMALL)
    assert not verdict.holds and verdict.counterexample.graph.directed


def test_the_checker_refutes_a_mutant_without_suicide():
    def no_suicide_move(graph, s, v):
        """move that forgets to clear the mover's own stones."""
        b, p, n = s
        if v == tt.PASS:
            return tt.State(b, tt.opponent(p), n + 1)
        if b[v] != tt.EMPTY:
            return None
        return tt.State(tt.clear(graph, tt.update(b, v, p), tt.opponent(p)), tt.opponent(p), 0)

    verdict = errata.move_against_reference(no_suicide_move, errata.by_size(SMALL))
    assert not verdict.holds
    assert verdict.counterexample.graph.name == "path:1"


def test_one_step_theorem_as_written_fails_and_corrected_holds():
    graphs = errata.by_size([parse_graph(n) for n in ("path:2", "path:3", "cycle:4", "grid:2x3")])
    written = errata.one_step(errata.step_claim_as_written, graphs)
    assert not written.holds and written.counterexample.graph.name == "path:2"
    assert not errata.one_step(errata.step_claim_separated, graphs).holds
    assert errata.one_step(errata.step_claim_corrected, graphs).holds


def test_capture_and_suicide_in_one_move_happen_on_a_digraph():
    g = parse_graph("digraph:1>0")
    verdict = errata.one_step(errata.step_claim_no_capture_condition, [g])
    assert not verdict.holds
    assert errata.one_step(errata.step_claim_corrected, [g]).holds
    # White plays 0 next to Black 1: Black loses its only liberty, White has none of its own.
    assert tt.move(g, tt.State(tuple(".B"), "W", 0), 0).board == (".", ".")


def test_definedness_as_written_fails_on_one_point():
    g = parse_graph("path:1")
    assert not errata.definedness(errata.CORRECTED, True, [g]).holds
    assert errata.definedness(errata.CORRECTED, False, [g, parse_graph("path:3")]).holds


def test_every_well_formed_board_has_a_witness_game_and_no_other_board_occurs():
    g = parse_graph("grid:2x2")
    well_formed = [b for b in boards(g) if errata.well_formed(g, b, tt.reaches)]
    assert len(well_formed) == 57
    for b in well_formed:
        moves = errata.witness_game(g, b)
        states = tt.game(g, list(moves) + [tt.PASS, tt.PASS])
        assert states is not None and states[len(moves)].board == b
    reachable = {s.board for s in errata.reachable_states(g, errata.CORRECTED)}
    assert reachable == set(well_formed)


def test_as_written_games_see_only_the_empty_board():
    g = parse_graph("path:3")
    seen = {states[-1].board for _, states in errata.game_prefixes(g, errata.AS_WRITTEN)}
    assert seen == {(".", ".", ".")}
    games = sum(1 for _, states in errata.game_prefixes(g, errata.CORRECTED) if states[-1].passes == 2)
    assert games == 907  # Tromp & Farnebäck, Table 7: 1×3


def test_the_fixed_point_equation_has_two_solutions_on_two_stones():
    g = parse_graph("path:2")
    b = ("B", "B")
    least, greatest = errata.fixed_points(g, b, ".", as_written=False)
    assert least == frozenset() and greatest == frozenset({0, 1})
    assert errata.indexed_equation_is_least_solution([g, parse_graph("cycle:3")]).holds


# --------------------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def table_json():
    """The rows of ``gorules errata --json``, run once through gorules.cli.main."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["errata", "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.mark.slow
def test_errata_json_says_which_statements_hold_as_written(table_json):
    assert {row["key"]: (row["as_written"], row["corrected"]) for row in table_json} == EXPECTED
    for row in table_json:
        assert set(row) >= {"statement", "as_written", "corrected", "counterexample", "checked"}
        assert row["checked"]
        assert (row["counterexample"] is None) == (row["as_written"] == "holds")


@pytest.mark.slow
def test_each_counterexample_is_replayable(table_json):
    for row in table_json:
        example = row["counterexample"]
        if example is None or example["moves"] is None:
            continue
        g = parse_graph(example["graph"])
        game = replay(g, parse_moves(g, ", ".join(example["moves"])))  # raises if a move is refused
        assert "".join(game.final.board) == example["board"], row["key"]


def test_errata_table_and_pictures(tmp_path, capsys):
    assert main(["errata", "--pictures", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header == ["statement", "as", "written", "corrected"]
    assert "smallest counterexample on path:2" in out
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "reaches.svg" in names and "reaches.png" in names
    assert len(names) == 2 * sum(1 for w, _ in EXPECTED.values() if w == "fails")


def test_errata_pictures_into_a_file_is_refused(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["errata", "--pictures", str(blocker)]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_games_as_written_are_only_passes():
    g = parse_graph("grid:2x2")
    assert literal.game_as_written(g, [tt.PASS, tt.PASS]) is not None
    # Black's stone vanishes at once, so the board repeats the empty start: no game.
    assert literal.game_as_written(g, [0, tt.PASS, tt.PASS]) is None
    assert tt.game(g, [0, tt.PASS, tt.PASS]) is not None
    as_written_games = [
        moves
        for moves, states in errata.game_prefixes(parse_graph("path:3"), errata.AS_WRITTEN)
        if states[-1].passes == 2
    ]
    assert as_written_games == [(tt.PASS, tt.PASS)]
    assert all(literal.game_as_written(parse_graph("path:3"), m) is not None for m in as_written_games)


def test_mixing_readings_breaks_the_well_formed_theorem():
    # Well-formed as written (only the empty board) against games as corrected.
    g = parse_graph("path:2")
    b = tt.game(g, [0, tt.PASS, tt.PASS])[1].board
    assert b == ("B", ".")
    assert not errata.well_formed(g, b, literal.reaches_as_written)
    assert errata.well_formed(g, b, tt.reaches)


@pytest.mark.slow
def test_errata_md_shows_the_counterexamples_the_checker_finds(table_json):
    from pathlib import Path

    from gorules import spec

    text = (Path(spec.__file__).parent / "errata.md").read_text(encoding="utf-8")
    for row in table_json:
        example = row["counterexample"]
        if example is None:
            continue
        assert f"`{example['graph']}`" in text, row["key"]
        if set(example["board"]) == {"."}:
            assert "empty board" in text
        else:
            assert f"board `{example['board']}`" in text, row["key"]
        if example["moves"]:
            assert ", ".join(example["moves"]) in text, row["key"]
    checked = {row["key"]: row["checked"] for row in table_json}
    assert "every board (10317)" in checked["reaches"] and "10,317 boards" in text
    assert "(27933)" in checked["move-definedness"] and "27,933 prefixes" in text
