"""Ultimate and Fundamental Go (source 003): situations, the yes/no searches, the analysis of
sections IV–VI and the claims, each against the spec or with a mutant it must catch."""

from __future__ import annotations

import json

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.analysis import analyse
from gorules.impl.rulesets.ultimate.search import Engine, deep
from gorules.spec import ultimate
from gorules.spec.api import IllegalMove
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import BLACK, WHITE, clear, update

# The hand-given 2×3 situation of the docs: Black to move, counting phase.
COUNTING = "graph: grid:2x3; board: B.W/.B.; to move: B"


def engine_and_position(graph_name: str, text: str | None = None, fundamental: bool = False):
    """An engine on the graph and the position of a situation (the start if no text)."""
    graph = parse_graph(graph_name)
    ruleset = rulesets.make("fundamental" if fundamental else "ultimate")
    state = ruleset.start(graph) if text is None else ruleset.state_from_text(graph, text)
    engine = Engine(graph)
    return engine, engine.from_situation(state)


# --- the searches against the spec --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "score"), [("path:1", -0.5), ("path:2", -0.5), ("path:3", 0.5), ("path:4", 1.5), ("grid:2x2", 0.5)]
)
def test_source_scores_of_the_empty_board(name, score):
    """Section IV's values on the tiniest boards, by the yes/no searches."""
    engine, p = engine_and_position(name, fundamental=True)
    assert deep(engine.score, p) == score


@pytest.mark.parametrize("name", ["path:2", "path:3"])
def test_searches_agree_with_the_spec_everywhere(name):
    """At every Fundamental and Ultimate situation reachable on the graph, the engine's score
    and Ultimate result equal the spec's exhaustive ones (exact bowls and histories)."""
    graph = parse_graph(name)
    from gorules.checks.ruleset_checks import reachable_situations

    for fundamental in (True, False):
        start = ultimate.initial_situation(graph, fundamental=fundamental)
        situations = reachable_situations(graph, start, 6)
        engine = Engine(graph)
        for s in situations:
            p = engine.from_situation(s)
            if fundamental:
                assert deep(engine.score, p) == ultimate.score(graph, s)
            else:
                assert deep(engine.result, p) == ultimate.value(graph, s)


def test_one_more_prisoner_each_changes_nothing_with_exact_bowls():
    """The claim the table's bounds rest on, searched with exact bowls (no canonical form)."""
    graph = parse_graph("path:3")
    exact = Engine(graph, canonical=False)
    for p in ultimate_claims.reachable(exact, exact.from_situation(ultimate.initial_situation(graph, True)), 150):
        more = (*p[:3], p[3] + 1, p[4] + 1, *p[5:])
        assert deep(exact.score, more) == deep(exact.score, p)


def test_a_table_blind_to_history_would_be_wrong():
    """The history condition of the table matters: with it dropped (every stored proof reused
    whatever the history) some reachable situation of path:3 gets a wrong result."""

    class Blind(Engine):
        def lookup(self, goal, p, key=None):
            for answer, at, asked, _ in self.tables[goal].get(self.node_key(p), ()):
                if d_fits(answer, self.difference(p), at):
                    return answer, asked
            return None

    def d_fits(answer, d, at):
        return d >= at if answer else d <= at

    graph = parse_graph("path:3")
    from gorules.checks.ruleset_checks import reachable_situations

    situations = sorted(reachable_situations(graph, ultimate.initial_situation(graph), 7), key=len_history)
    blind = Blind(graph)
    wrong = [s for s in situations if deep(blind.result, blind.from_situation(s)) != ultimate.value(graph, s)]
    assert wrong


def len_history(s) -> tuple:
    """Situations ordered by how much has happened."""
    return (len(s.history), s.black_prisoners + s.white_prisoners, str(s))


# --- suicide of several stones --------------------------------------------------------------

# Black on B2 (top middle) joins A2 and A1 into a string without liberties and takes nothing.
SUICIDE = "graph: grid:2x3; board: B.W/BW.; to move: B"


def test_suicide_of_several_stones_is_refused_everywhere():
    """Rule 5: the spec, the interface and the engine all refuse the three-stone suicide."""
    graph = parse_graph("grid:2x3")
    ruleset = rulesets.make("ultimate")
    s = ruleset.state_from_text(graph, SUICIDE)
    assert ultimate.legal_placement(graph, s, 1) is None
    with pytest.raises(IllegalMove):
        ruleset.apply(graph, s, 1)
    engine = Engine(graph)
    moves, _ = engine.children(engine.from_situation(s))
    assert 1 not in [m for m, _, _ in moves]


def test_a_lone_stone_liberty_test_would_accept_it():
    """Mutant: judging only the placed stone's own neighbours (not its string) lets the
    suicide through, so the test above can fail."""
    graph = parse_graph("grid:2x3")
    s = rulesets.make("ultimate").state_from_text(graph, SUICIDE)
    placed = clear(graph, update(s.board, 1, BLACK), WHITE)
    lone_has_liberty = any(placed[w] == "." for w in graph.neighbours[1]) or any(
        placed[w] == BLACK for w in graph.neighbours[1]
    )
    assert lone_has_liberty and ultimate.surrounded(graph, placed, 1)


# --- situations -----------------------------------------------------------------------------


def test_situation_text_and_json_round_trip():
    """A situation written as text or JSON reads back as itself."""
    graph = parse_graph("grid:2x3")
    ruleset = rulesets.make("ultimate")
    s = ultimate.game(graph, [0, 4, ultimate.ULTIMATE_DELAY, 2])[-1]
    assert ruleset.state_from_text(graph, ultimate.situation_text(graph, s)) == s
    data = json.loads(json.dumps(ruleset.situation(graph, s).to_json()))
    assert ruleset.state_from_json(graph, data) == s


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("board: B.W/.B; to move: B", "not a board of grid:2x3"),
        ("board: B.X/.B.; to move: B", "not a board of grid:2x3"),
        ("board: BW./W..; to move: B", "surrounded stone"),
        ("board: B.W/.B.; to move: Q", "to move must be B or W"),
        ("board: B.W/.B.", "needs its to move"),
        ("board: B.W/.B.; to move: B; prisoners: B=-1", "number of stones"),
        ("board: B.W/.B.; to move: B; ultimate prisoners: B; first ultimate delay: B", "no longer holds"),
        ("board: B.W/.B.; to move: B; ultimate prisoners: none; first ultimate delay: W; draw right: B", "draw right"),
        ("board: B.W/.B.; to move: B; owed delays: 2; prisoners: W=1", "owes 2 delays"),
        ("board: B.W/.B.; to move: B; colour: red", "bad situation line"),
        ("board: B.W/.B.; to move: B; history: B.W/.BX", "not a board"),
        ("graph: path:6; board: B.W/.B.; to move: B", "not of grid:2x3"),
    ],
)
def test_what_is_not_a_situation_is_refused_in_one_line(text, words, capsys):
    """Each inconsistency is named; the CLI exits 2 with one line and no traceback."""
    graph = parse_graph("grid:2x3")
    with pytest.raises(ultimate.SituationError, match=words):
        ultimate.parse_situation(graph, text)
    assert main(["analyse", text, "--graph", "grid:2x3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]


def test_komi_for_either_colour_and_handicap():
    """Komi goes to the named bowl; handicap 3 is komi 2 for White, who must delay twice."""
    graph = parse_graph("path:4")
    to_black = rulesets.make("ultimate", options={"komi": "2", "komi_to": "B"}).start(graph)
    assert (to_black.black_prisoners, to_black.white_prisoners) == (2, 0)
    s = rulesets.make("ultimate", options={"handicap": "3"}).start(graph)
    assert (s.white_prisoners, s.owed_delays) == (2, 2)
    s = ultimate.act(graph, s, 0)
    assert set(ultimate.moves(graph, s)) == {ultimate.DELAY}
    s = ultimate.act(graph, ultimate.act(graph, ultimate.act(graph, s, ultimate.DELAY), 3), ultimate.DELAY)
    assert s.owed_delays == 0 and s.white_prisoners == 0 and 1 in ultimate.moves(graph, ultimate.act(graph, s, 2) or s)


# --- solve and analyse -----------------------------------------------------------------------


def test_solve_two_by_two_ultimate_in_seconds(capsys):
    """`gorules solve grid:2x2 --ruleset ultimate` answers (a draw) with a line that keeps it."""
    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["value"] == "draw" and found["status"] == "exact" and found["seconds"] < 5
    assert found["principal_variation"][-1] == "draw"


@pytest.mark.parametrize(
    "name, score", [("path:1", -0.5), ("path:2", -0.5), ("path:3", 0.5), ("path:4", 1.5), ("grid:2x2", 0.5)]
)
def test_solve_under_fundamental_go_gives_section_iv_score(name, score, capsys):
    """`gorules solve G --ruleset fundamental` gives section IV's score (the source's values on
    the tiniest boards), not only who wins at komi 0; the winner is its sign."""
    assert main(["solve", name, "--ruleset", "fundamental", "--json", "--no-progress"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["value"] == found["lower"] == found["upper"] == score and found["status"] == "exact"
    assert main(["solve", name, "--ruleset", "ultimate", "--json", "--no-progress"]) == 0  # the same process


@pytest.mark.parametrize("core", ["compiled", "python"])
def test_both_cores_of_the_yes_no_searches_answer_solve(core, capsys):
    """`solve --ruleset ultimate --core C`: the compiled core and the Python one give the same
    result on 2×2 and 1×4, and the JSON names the core that ran."""
    for name, result in (("grid:2x2", "draw"), ("path:4", "B")):
        assert main(["solve", name, "--ruleset", "ultimate", "--core", core, "--json", "--no-progress"]) == 0
        found = json.loads(capsys.readouterr().out)
        assert found["value"] == result and found["core"] == core


def test_a_spent_budget_under_ultimate_go_prints_its_bounds(capsys):
    """The text output of a spent budget writes the outcomes still possible as words (it
    crashed formatting them as numbers)."""
    assert (
        main(["solve", "atlas:197", "--ruleset", "ultimate", "--core", "python", "--nodes", "2000", "--no-progress"])
        == 0
    )
    out = capsys.readouterr().out
    assert "status bounds, value in [W, B] for Black" in out


def test_solve_from_a_situation(capsys):
    """--situation starts the solver elsewhere: path:4 with White's stone on an end."""
    text = "board: W...; to move: B; ultimate prisoners: B W"
    assert main(["solve", "path:4", "--ruleset", "ultimate", "--situation", text, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    engine, p = engine_and_position("path:4", text)
    assert found["value"] == {1: "B", 0: "draw", -1: "W"}[deep(engine.result, p)]


@pytest.mark.slow
def test_analyse_the_hand_given_two_by_three_situation(capsys):
    """The counting-phase example: score +2.5, sente level 0, B2, C1 and the ultimate delay
    optimal, A1 costs 5; the table draws the board with the costs."""
    assert main(["analyse", COUNTING, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["score"] == 2.5 and found["sente_level"] == 0 and found["phase"] == "counting"
    assert found["optimal_moves"] == ["B2", "C1", "ultimate delay"]
    assert {m["move"]: m["cost"] for m in found["moves"]}["A1"] == 5
    assert main(["analyse", COUNTING]) == 0
    table = capsys.readouterr().out
    assert "phase: counting" in table and "X 0 O" in table


def test_normal_play_and_the_resignation_case():
    """A positive sente level is normal play; on path:3, White to move next to a lone Black
    stone has no legal placement and no prisoner: no optimal move, she should resign (Black
    wins by ½, no safe move left)."""
    engine, p = engine_and_position("path:4", fundamental=True)
    a = analyse(engine, p)
    assert a.sente_level == 4 and a.phase == "normal play" and a.optimal == [1, 2] and a.score == 1.5
    engine, p = engine_and_position("path:3", "board: .B.; to move: W", fundamental=True)
    a = analyse(engine, p)
    assert a.resign and a.phase == "you should resign now" and a.score == 0.5 and a.safe_moves == 0


def test_costs_are_score_differences():
    """The cost of each move is the score before less the score after (for Black)."""
    engine, p = engine_and_position("path:4", "board: ..B.; to move: W")
    a = analyse(engine, p)
    assert len(a.costs) >= 3
    for move, child, _ in engine.children(p)[0]:
        assert a.costs[move] == deep(engine.score, child) - a.score


# --- the claims of sections IV–VI -------------------------------------------------------------


def test_claims_hold_on_path_3_and_their_mutants_are_refuted():
    """Every claim holds at every reachable situation of path:3; each claim's mutant fails it
    already on path:2."""
    graph = parse_graph("path:3")
    engine = Engine(graph)
    report = ultimate_claims.check_claims(engine, engine.from_situation(ultimate.initial_situation(graph)))
    assert report.situations > 400
    assert all(c.status == "holds" for c in report.claims)
    small = parse_graph("path:2")
    for claim, mutant in ultimate_claims.REFUTING.items():
        bad = ultimate_claims.MUTANTS[mutant](small)
        found = ultimate_claims.check_claims(bad, bad.from_situation(ultimate.initial_situation(small)))
        assert next(c for c in found.claims if c.claim == claim).status == "fails", (claim, mutant)


def test_spec_claim_check_can_fail():
    """The spec's no_move_improves is not true of any input: fed a static count for the
    score it finds a move that raises it."""
    graph = parse_graph("path:3")
    s = ultimate.initial_situation(graph, fundamental=True)
    original = ultimate.score
    try:
        ultimate.score = lambda g, t: sum(1 for c in t.board if c == BLACK) - sum(1 for c in t.board if c == WHITE)
        assert not ultimate.no_move_improves(graph, s)
    finally:
        ultimate.score = original
    assert ultimate.no_move_improves(graph, s)


# --- budgets -------------------------------------------------------------------------------------


def test_fundamental_score_budget_and_refusal(capsys):
    """A spent node budget reports bounds (no traceback); too large a graph is refused in one
    line naming --max-points."""
    assert main(["fundamental-score", "path:6", "--max-nodes", "200", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["status"] == "budget spent" and "score_bounds" in found
    assert main(["fundamental-score", "grid:3x3"]) == 2
    assert "--max-points" in capsys.readouterr().err
    assert main(["fundamental-score", "path:3", "--check", "--ultimate", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["score"] == 0.5 and found["ultimate_go_result"] == "draw"
    assert set(found["claims"].values()) == {"holds"}


def test_analyse_command_on_path_4(capsys):
    """The analyse table and JSON on a small situation: score, costs, sente level, phase."""
    text = "graph: path:4; board: ..B.; to move: W"
    assert main(["analyse", text, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found) >= {"score", "sente_level", "phase", "optimal_moves", "moves", "ultimate_result"}
    assert all(m["cost"] >= 0 for m in found["moves"])
    assert main(["analyse", text]) == 0
    out = capsys.readouterr().out
    assert "sente level" in out and "cost of each placement" in out


def test_comparison_table_command(tmp_path, capsys):
    """The table over connected graphs up to 3 points: path:3 is where area and Ultimate part."""
    out = tmp_path / "table.json"
    assert main(["ultimate-table", "--points", "3", "--json", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [r["points"] for r in rows] == [1, 2, 3, 3]
    path3 = next(r for r in rows if r["points"] == 3 and r["edges"] == 2)
    assert path3["area_value"] == 3 and path3["fundamental_score"] == 0.5 and path3["ultimate_result"] == "draw"
    assert path3["area_and_ultimate_differ"] and not rows[0]["area_and_ultimate_differ"]
    assert main(["ultimate-table", "--points", "9"]) == 2


def test_claims_command_reports_a_status_per_graph(capsys):
    """ultimate-claims: one status per claim and graph, unknown when the limit cuts it short."""
    assert main(["ultimate-claims", "path:3", "path:4", "--max-situations", "500", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["claims"]["no move raises the score"]["status"] == "holds" and rows[0]["complete"]
    assert rows[1]["claims"]["no move raises the score"]["status"] == "unknown"


def test_solve_asks_the_compiled_core_once_the_python_search_has_not_answered(monkeypatch, capsys):
    """By default `solve --ruleset ultimate` gives the Python search ``AUTO_NODES`` nodes,
    then asks the compiled core: 2×2 is answered in Python; with the allowance cut to 100
    nodes the compiled core answers it, the same draw, its nodes counted with Python's."""
    from gorules.impl.rulesets.ultimate import search as ultimate_search

    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--json", "--no-progress"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["value"] == "draw" and found["core"] == "python"
    monkeypatch.setattr(ultimate_search, "AUTO_NODES", 100)
    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--json", "--no-progress"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["value"] == "draw" and found["core"] == "compiled" and found["nodes"] > 100
    assert "Python search left it open" in found["method"]


def test_analyse_asks_the_compiled_search_it_is_given(capsys):
    """`analyse --core compiled --search dfpn` (the flag now reaches the engine) gives the
    Python search's score on path:3, and its JSON names the core and the search that ran
    (no search for the Python core); a Tromp–Taylor flag under Ultimate Go is refused by
    `solve` in one line, exit 2."""
    text = "graph: path:3; board: ...; to move: B"
    found = []
    for flags in (["--core", "python"], ["--core", "compiled", "--search", "dfpn"], ["--core", "auto"]):
        assert main(["analyse", text, *flags, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        found.append((data["score"], data["core"], data["search"]))
    assert found == [(0.5, "python", None), (0.5, "compiled", "dfpn"), (0.5, "auto", "all")]
    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--search", "dfpn"]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("--search is not a setting of this game's solver (the Ultimate and Fundamental yes/no searches)")
    )
