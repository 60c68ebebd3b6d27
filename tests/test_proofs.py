"""The theorems: proved where they hold, refuted where they do not, and every mutant refuted.

Every counterexample the solver returns is replayed with the executable spec, so a
refutation is checked by code that shares nothing with the encoding.
"""

from __future__ import annotations

import json

import pytest

import gorules.spec.tromp_taylor as tt
from gorules.cli import main
from gorules.proofs import registry, well_formedness
from gorules.proofs.encoding import MUTANTS
from gorules.proofs.graphs import SymbolicGraph
from gorules.spec.errata import reaches_as_written
from gorules.spec.graph import graph_from_json, parse_graph

SMALL = ["grid:2x3", "cycle:5", "digraph:0>1,1>2,2>0,2>3,3>1"]
WELL_FORMEDNESS = registry.theorem("well-formedness")
MOVE_DEFINEDNESS = registry.theorem("move-definedness")
CLEAR_CHARACTERIZATION = registry.theorem("clear-characterization")


def well_formed(graph, board) -> bool:
    """The spec's well-formedness: every point reaches Empty."""
    return all(tt.reaches(graph, tuple(board), v, tt.EMPTY) for v in graph.points)


def graph_of(counterexample):
    """The concrete graph a counterexample names."""
    return graph_from_json(counterexample["graph"])


@pytest.mark.parametrize("name", registry.SEED_THEOREMS)
@pytest.mark.parametrize("graph", SMALL)
def test_corrected_theorems_hold(name, graph):
    result = registry.theorem(name).prove(graph)
    assert result.status == "proved", result.counterexample
    assert result.seconds > 0


@pytest.mark.parametrize("theorem", [WELL_FORMEDNESS, CLEAR_CHARACTERIZATION], ids=lambda t: t.name)
@pytest.mark.parametrize("directed", [False, True])
def test_theorems_hold_on_every_graph_of_four_vertices(theorem, directed):
    result = theorem.prove(SymbolicGraph(4, directed=directed))
    assert result.status == "proved"
    assert result.graph == f"all-{'digraphs' if directed else 'graphs'}:4"


def test_both_encodings_prove_and_refute_alike():
    for encoding in ("ranked", "layered"):
        assert well_formedness.prove_step("grid:2x2", encoding=encoding).proved
        assert well_formedness.prove_step("grid:2x2", encoding=encoding, mutant="no-second-clear").refuted
        assert CLEAR_CHARACTERIZATION.prove("grid:2x2", encoding=encoding).proved


def test_naive_encoding_invents_a_counterexample():
    # With "R(v) ⇔ base ∨ step" the solver may pick a larger fixed point under negation.
    result = well_formedness.prove_step("grid:2x2", encoding="naive")
    assert result.refuted
    before, _after = (item["board"] for item in result.counterexample["boards"])
    graph = parse_graph("grid:2x2")
    spec_after = tt.move(
        graph, tt.State(tuple(before), result.counterexample["player"], 0), result.counterexample["point"]
    )
    assert not well_formed(graph, before) or well_formed(graph, spec_after.board)


def test_well_formedness_as_written_holds_degenerately():
    # With the source's reaches a stone never reaches Empty: only the empty board qualifies,
    # and every stone move empties the board.
    graph = parse_graph("grid:2x2")
    assert WELL_FORMEDNESS.prove(graph, as_written=True).proved
    stone = ("B", ".", ".", ".")
    assert not reaches_as_written(graph, stone, 0, tt.EMPTY)


@pytest.mark.parametrize("graph", ["grid:2x2", "grid:3x3", "path:2"])
def test_move_definedness_as_written_is_refuted_by_a_real_game(graph):
    result = MOVE_DEFINEDNESS.prove(graph, as_written=True)
    assert result.refuted
    cx = result.counterexample
    g = parse_graph(graph)
    *prefix, last = cx["moves"]
    prefix = [tt.PASS if m == "pass" else m for m in prefix]
    states = [tt.initial_state(g)]
    for v in prefix:  # the prefix is a game prefix by the spec's own definition
        assert states[-1].passes < 2
        nxt = tt.move(g, states[-1], v)
        assert nxt is not None
        assert v == tt.PASS or all(nxt.board != s.board for s in states)
        states.append(nxt)
    after = tt.move(g, states[-1], last)
    assert after is not None and states[-1].passes < 2
    assert all(after != s for s in states)  # the written test passes: a new state ...
    assert any(after.board == s.board for s in states)  # ... but the game forbids the board


def test_clear_characterization_as_written_is_refuted():
    result = CLEAR_CHARACTERIZATION.prove("grid:3x3", as_written=True)
    assert result.refuted
    cx = result.counterexample
    g = parse_graph("grid:3x3")
    board = tuple(cx["boards"][0]["board"])
    v = cx["point"]
    after = tt.move(g, tt.State(board, cx["player"], 0), v)
    # The written statement says the played point keeps its colour (Empty): it does not.
    assert board[v] == tt.EMPTY and after.board[v] != tt.EMPTY


def expected_mutants():
    """(theorem, mutant) pairs every theorem declares it must refute."""
    return [(name, m) for name in registry.SEED_THEOREMS for m in registry.theorem(name).mutants]


def test_every_mutant_breaks_some_theorem():
    assert {m for _, m in expected_mutants()} == set(MUTANTS)


@pytest.mark.parametrize("name,mutant", expected_mutants())
def test_mutants_are_refuted(name, mutant):
    graph = "grid:2x3" if mutant != "gfp-reaches" else "grid:2x2"
    result = registry.theorem(name).prove(graph, mutant=mutant)
    assert result.refuted
    cx = result.counterexample
    g = graph_of(cx)
    if name == "well-formedness" and cx["part"] == "step":
        before, after = (item["board"] for item in cx["boards"])
        assert well_formed(g, before) and not well_formed(g, after)
        spec_after = tt.move(g, tt.State(tuple(before), cx["player"], 0), cx["point"])
        assert "".join(spec_after.board) != after  # the spec would have played it otherwise
    if name == "clear-characterization":
        before, after, described = (item["board"] for item in cx["boards"])
        spec_after = tt.move(g, tt.State(tuple(before), cx["player"], 0), cx["point"])
        assert "".join(spec_after.board) == described != after


def test_well_formedness_mutant_lemma_counterexample_is_well_formed():
    result = WELL_FORMEDNESS.prove("grid:2x2", mutant="reaches-as-written")
    assert result.refuted and result.counterexample["part"] == "lemma"
    board = result.counterexample["boards"][0]["board"]
    assert well_formed(parse_graph("grid:2x2"), board) and set(board) != {"."}


def test_all_graphs_counterexample_names_a_graph():
    result = WELL_FORMEDNESS.prove(SymbolicGraph(4), mutant="no-second-clear")
    assert result.refuted
    cx = result.counterexample
    g = graph_of(cx)
    before, after = (item["board"] for item in cx["boards"])
    assert well_formed(g, before) and not well_formed(g, after)


# --- the command ---------------------------------------------------------------------


def test_prove_command_proves(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["prove", "clear-characterization", "--graph", "grid:2x2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "proved" and data["theorem"] == "clear-characterization"
    assert set(data) >= {"theorem", "graph", "status", "seconds", "counterexample"}
    assert list(tmp_path.iterdir()) == []


def test_prove_command_draws_a_counterexample(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["prove", "move-definedness", "--graph", "grid:2x2", "--as-written", "--pictures", "out"]) == 1
    out = capsys.readouterr().out
    assert "refuted" in out
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    pictures = sorted(p.name for p in (tmp_path / "out").glob("*.svg"))
    assert pictures and pictures[0].startswith("move_definedness-grid_2x2")
    assert "<svg" in (tmp_path / "out" / pictures[0]).read_text()
    sgf = (tmp_path / "out" / "move_definedness-grid_2x2.sgf").read_text()
    assert sgf.startswith("(;") and ";B[" in sgf


def test_prove_command_runs_every_theorem_as_a_list(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code = main(
        ["prove", "--all-graphs", "3", "--mutant", "own-first", "--json", "--picture", str(tmp_path / "cx.svg")]
    )
    data = json.loads(capsys.readouterr().out)
    ran = [d["theorem"] for d in data]
    assert set(registry.SEED_THEOREMS) <= set(ran) <= set(registry.names())
    assert code == 1
    assert {d["theorem"]: d["status"] for d in data}["clear-characterization"] == "refuted"
    assert (tmp_path / "cx-clear_characterization.svg").exists()


def test_each_theorem_is_tried_up_to_its_own_size_unless_the_flag_allows_more(capsys):
    """T1's step through CNF proves 9×9 and every graph on 16 vertices within the default
    budget; a theorem through Z3 is refused beyond 16 points before any encoding, and the
    step beyond 225, each naming the flag that allows more."""
    assert main(["prove", "well-formedness-step-cnf", "--graph", "grid:9x9"]) == 0
    assert main(["prove", "well-formedness-step-cnf", "--all-graphs", "16"]) == 0
    assert "on all-graphs:16: proved" in capsys.readouterr().out
    for argv in (
        ["prove", "well-formedness", "--all-graphs", "17"],
        ["prove", "well-formedness", "--graph", "grid:3x6"],
        ["prove", "--graph", "grid:3x6"],
        ["prove", "well-formedness-step-cnf", "--graph", "grid:16x16"],
    ):
        assert main(argv) == 2
        assert "--max-points" in capsys.readouterr().err
    assert main(["prove", "well-formedness-step-cnf", "--all-graphs", "17", "--max-points", "17"]) == 0


@pytest.mark.parametrize(
    "argv,message",
    [
        (["prove", "nonsense", "--graph", "grid:2x2"], "unknown theorem"),
        (["prove", "--graph", "grid:0x2"], "bad graph"),
        (["prove", "--graph", "grid:2x2", "--mutant", "nope"], "unknown mutant"),
        (["prove", "well-formedness", "--graph", "grid:2x2", "--mutant", "nope"], "unknown mutant"),
        (["prove", "clear-characterization", "--graph", "grid:2x2", "--encoding", "nope"], "unknown encoding"),
        (["prove", "--graph", "grid:2x2", "--directed"], "--directed"),
        (["prove", "--all-graphs", "0"], "--all-graphs"),
        (["prove", "--graph", "grid:2x2", "--picture", "x.txt"], "--picture"),
    ],
)
def test_prove_command_rejects_bad_input(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_proof_checks_rows_are_named_and_pass_where_cheap():
    from gorules.checks.proof_checks import checks

    rows = checks()
    names = [(c.name, c.graph) for c in rows]
    assert len(names) == len(set(names))
    cheap = [c for c in rows if c.graph == "cycle:5"]
    assert cheap and all(c.run().passed for c in cheap)


def test_every_well_formed_board_occurs_in_a_game():
    # The (⇐) construction, run on the spec: every well-formed board of 2×3 occurs in the game
    # built for it, and every board of that game is well-formed.
    import itertools

    graph = parse_graph("grid:2x3")
    seen = 0
    for board in itertools.product("BW.", repeat=graph.order):
        if not well_formed(graph, board):
            continue
        states = tt.game(graph, well_formedness.game_through(graph, board))
        assert states is not None
        assert any(s.board == board for s in states)
        assert all(well_formed(graph, s.board) for s in states)
        seen += 1
    assert seen == 489  # 2×3 legal positions (OEIS A266278)


def test_prove_command_text_report_for_every_theorem(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["prove", "--graph", "path:3"]) == 0
    out = capsys.readouterr().out
    for name in registry.names():
        assert f"{name} (corrected) on path:3: proved" in out
