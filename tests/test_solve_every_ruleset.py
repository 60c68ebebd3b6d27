"""``gorules solve`` answers for every ruleset, each through what its class declares.

Tromp–Taylor, Ultimate and Fundamental Go by their own searches, Topological Go by the
generic alpha-beta search, source 000's infinite game (the directed ruleset) by the
infinite-game solver on its finite arena, and Political Go by best play for several
players under a named solution concept.  The directed answers are compared with the
functions ``gorules conjectures 000 --graph`` reports from, and with the command itself;
the political ones with ``gorules best-play``.  A subclass that changes a rule loses the
capability and is refused, since neither game is a finite two-player game; mutants of the
two capabilities that ignore the komi and the solution concept are caught."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from gorules import rulesets
from gorules.commands.solve import json_number
from gorules.impl.rulesets.directed import conjectures as dc
from gorules.impl.rulesets.directed import ruleset as directed_twin
from gorules.impl.rulesets.directed.arena import arena_of, values_of
from gorules.impl.rulesets.directed.graphs import digraphs
from gorules.impl.rulesets.directed.graphs import parse as parse_digraph
from gorules.impl.rulesets.political import ruleset as political_twin
from gorules.impl.rulesets.political.best_play import CONCEPTS, best_play
from gorules.impl.solving.budget import Budget
from gorules.impl.solving.search import SearchError, SolveRequest, solve
from gorules.spec.graph import parse_graph

SMALL = {
    "tromp-taylor": "path:3",
    "directed": "digraph:0>1,1>0",
    "topological": "path:3",
    "ultimate": "path:2",
    "fundamental": "path:2",
    "political": "path:3",
}
"""A small graph for each ruleset."""

POLITICAL_TUNING = {"concept": "max-n", "horizon": 3}


def run_cli(*args):
    """Run ``gorules`` in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "gorules", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def as_json(value):
    """A value as it reads back from the command's JSON."""
    return json.loads(json.dumps(value, default=json_number))


def solved(name: str, graph: str, **options):
    """The solution of the ruleset's default implementation from its start on ``graph``."""
    ruleset = rulesets.make(name, options=options or None)
    tuning = POLITICAL_TUNING if name == "political" else {}
    return solve(ruleset.initial(parse_graph(graph)), SolveRequest(tuning=tuning))


# ------------------------------------------------------------------ every ruleset


@pytest.mark.parametrize("name", list(SMALL))
def test_every_ruleset_is_solved_from_python(name):
    solution = solved(name, SMALL[name])
    assert solution.ruleset == name and solution.graph == parse_graph(SMALL[name]).name
    assert solution.value is not None and solution.status == "exact"


@pytest.mark.parametrize("name", list(SMALL))
def test_every_ruleset_is_solved_by_the_command_and_its_json_names_ruleset_preset_options(name):
    tuning = ["--concept", "max-n", "--horizon", "3"] if name == "political" else []
    code, out, err = run_cli("solve", SMALL[name], "--ruleset", name, "--json", "--no-progress", *tuning)
    assert code == 0, err
    result = json.loads(out)
    ruleset = rulesets.make(name)
    assert result["ruleset"] == name
    assert result["preset"] == ruleset.preset == ruleset.default_preset
    assert result["options"] == as_json(ruleset.options.as_dict())
    assert result["value"] == as_json(solved(name, SMALL[name]).value)


@pytest.mark.parametrize("name", ["tromp-taylor", "ultimate", "fundamental", "topological", "political"])
def test_a_board_below_the_default_limit_ends_within_its_budget(name):
    """grid:5x5 is within the default limit, and a budget of one second ends every ruleset's
    solve there: with proven bounds or a note, or refused before the work in one line naming
    the flag to raise (Fundamental Go's delay races once filled a table of every line of
    placements before reading the clock: minutes past the budget)."""
    done = subprocess.run(
        [sys.executable, "-m", "gorules", "solve", "grid:5x5", "--ruleset", name, "--seconds", "1", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "at most" not in done.stderr and "Traceback" not in done.stderr
    if done.returncode == 2:
        assert len(done.stderr.strip().splitlines()) == 1 and "raise --" in done.stderr
    else:
        assert done.returncode == 0 and "ran out" in done.stdout + done.stderr


def test_the_new_twins_are_the_default_implementations_and_declare_solve():
    for name, twin in (("directed", directed_twin.Directed), ("political", political_twin.Political)):
        ruleset = rulesets.make(name)
        assert type(ruleset) is twin
        assert ruleset.capability("solve") is not None
        assert rulesets.implementations(name) == ["engine", "spec"]


# ------------------------------------------------------------------ source 000


def directed_solution(graph, komi=0, board=""):
    """The solve capability's answer from the start of the directed ruleset."""
    return solve(rulesets.make("directed", options={"komi": komi, "board": board}).initial(graph))


def test_an_isolated_pair_is_worth_nothing():
    """Source 000: on a pair of points joined only to each other "the other player can just
    capture back indefinitely", so neither point holds a live stone: value 0, perfect komi 0,
    and neither side can settle (a side that passes for ever lets the other keep a stone)."""
    solution = directed_solution(parse_graph("digraph:0>1,1>0"))
    assert solution.value == 0
    assert solution.details["perfect_komi"] == ["0"]
    assert solution.details["stability"] == "unstable"
    assert solution.details["line"]["margin"] == 0


@pytest.mark.parametrize("graph", ["digraph:0>1,1>0", *(g.name for g in digraphs(3))], ids=str)
def test_the_directed_answer_is_what_the_conjectures_report(graph):
    g = parse_digraph(graph)
    check_against_conjectures(g, tuple("." for _ in g.points))


@pytest.mark.parametrize("board", ["B..", ".B.", "W.B", "BWB", "WW."])
def test_the_directed_answer_from_a_start_board_is_what_the_conjectures_report(board):
    check_against_conjectures(parse_graph("path:3"), tuple(board))


def check_against_conjectures(graph, board):
    """Value, perfect komi and stability class equal the functions ``gorules conjectures 000
    --graph G --board B`` prints from."""
    solution = directed_solution(graph, board="".join(board))
    start = arena_of(graph).start(board)
    assert solution.value == values_of(graph).of(start)
    assert solution.details["perfect_komi"] == [str(Fraction(k)) for k in dc.first_player_komis(graph, start)]
    classes = dc.stability_classes(graph, dict(dc.default_readings(), starts="all"))
    assert solution.details["stability"] == classes[board]
    assert solution.details["line"] == dc.optimal_lasso(arena_of(graph), start)


def test_the_command_agrees_with_gorules_conjectures():
    for graph in ("digraph:0>1,1>0", "path:3"):
        code, out, err = run_cli("solve", graph, "--ruleset", "directed", "--json", "--no-progress")
        assert code == 0, err
        solved_ = json.loads(out)
        code, out, err = run_cli("conjectures", "000", "--graph", graph, "--json")
        assert code == 0, err
        reported = json.loads(out)
        assert solved_["value"] == reported["value"]
        assert solved_["details"]["perfect_komi"] == reported["perfect_komi"]
        assert solved_["details"]["stability"] == reported["stability"]
        assert solved_["details"]["line"] == reported["line"]


def test_the_text_gives_value_perfect_komi_and_stability():
    code, out, _ = run_cli("solve", "digraph:0>1,1>0", "--ruleset", "directed", "--no-progress")
    assert code == 0
    assert "value +0 for Black; perfect komi 0; stability class unstable" in out
    assert "without ko bids and without history deletion" in out
    assert "| repeat" in out


def check_komi_is_taken_off(graph):
    """The value is the live-stone margin less the komi; the outcome follows it."""
    margin = values_of(graph).of(arena_of(graph).start())
    for komi in (0, 1, Fraction(1, 2), -2):
        solution = directed_solution(graph, komi=komi)
        assert solution.value == margin - komi
        assert solution.details["outcome"] == ("B" if margin > komi else "W" if margin < komi else "draw")
        assert solution.details["live_stone_margin"] == margin


def test_the_komi_is_taken_off():
    check_komi_is_taken_off(parse_graph("path:3"))


def test_a_solver_that_ignores_the_komi_is_caught(monkeypatch):
    """The mutant solves every situation as if White's score (the komi) were 0."""
    real = directed_twin.solve

    def ignoring_komi(situation, request):
        state = situation.state._replace(white_score=Fraction(0))
        return real(situation.ruleset.situation(situation.graph, state), request)

    monkeypatch.setattr(directed_twin, "solve", ignoring_komi)
    with pytest.raises(AssertionError):
        check_komi_is_taken_off(parse_graph("path:3"))


@pytest.mark.parametrize("graph", ["path:3", "digraph:0>1,1>2,2>0", "grid:1x2"])
def test_a_situation_in_play_is_solved_by_its_moves(graph):
    """From any situation, not only a start: the player to move gets the best value of the
    situations eir moves lead to (the winning conditions look only at what recurs for ever)."""
    start = rulesets.make("directed").initial(parse_graph(graph))
    after = [solve(start.play(move)).value for move in start.legal_moves()]
    assert solve(start).value == max(after)
    for move in start.legal_moves():
        child = start.play(move)
        assert solve(child).value == min(solve(child.play(reply)).value for reply in child.legal_moves())


def test_a_graph_beyond_the_arena_limit_is_refused_naming_the_flag():
    with pytest.raises(SearchError, match="--max-points"):
        directed_solution(parse_graph("path:7"))
    ruleset = rulesets.make("directed")
    with pytest.raises(SearchError, match="--nodes"):
        solve(ruleset.initial(parse_graph("path:4")), SolveRequest(budget=Budget(nodes=10)))
    with pytest.raises(SearchError, match="--core"):
        solve(ruleset.initial(parse_graph("path:2")), SolveRequest(tuning={"core": "python"}))


# ------------------------------------------------------------------ Political Go


def check_best_play(graph, horizon):
    """Under each concept, the capability's scores and line are best-play's deepest result."""
    ruleset = rulesets.make("political")
    situation = ruleset.initial(parse_graph(graph))
    for concept in CONCEPTS:
        solution = solve(situation, SolveRequest(tuning={"concept": concept, "horizon": horizon}))
        results, stopped = best_play(
            situation,
            concept,
            horizon,
            Budget(),
            root=ruleset.options.players[0],
            allowed=political_twin.placement_or_pass,
        )
        assert stopped is None
        assert solution.value == results[-1].scores
        assert [ruleset.move_text(situation.graph, m) for m in solution.principal_variation] == list(results[-1].line)
        assert solution.details["concept"] == concept and solution.details["horizon"] == results[-1].horizon


def test_political_best_play_is_best_plays():
    check_best_play("grid:2x2", 4)


def test_the_concepts_differ_here():
    """Max-n and paranoid give different scores on grid:2x2 at horizon 4, so that a solver
    that ignored the concept would be caught."""
    situation = rulesets.make("political").initial(parse_graph("grid:2x2"))
    values = [solve(situation, SolveRequest(tuning={"concept": c, "horizon": 4})).value for c in CONCEPTS]
    assert values[0] != values[1]


def test_a_solver_that_ignores_the_concept_is_caught(monkeypatch):
    real = political_twin.solve

    def ignoring_concept(situation, request):
        tuning = {name: value for name, value in request.tuning.items() if name != "concept"}
        return real(situation, dataclasses.replace(request, tuning=tuning))

    monkeypatch.setattr(political_twin, "solve", ignoring_concept)
    with pytest.raises(AssertionError):
        check_best_play("grid:2x2", 4)


def test_the_default_concept_and_horizon_are_best_plays():
    situation = rulesets.make("political").initial(parse_graph("path:3"))
    solution = solve(situation, SolveRequest())
    assert (solution.details["concept"], solution.details["horizon_asked"]) == ("max-n", 6)


@pytest.mark.parametrize("concept", CONCEPTS)
def test_the_command_agrees_with_gorules_best_play(concept):
    args = ("grid:2x2", "--concept", concept, "--horizon", "4", "--json")
    code, out, err = run_cli("solve", *args, "--ruleset", "political", "--no-progress")
    assert code == 0, err
    solved_ = json.loads(out)
    code, out, err = run_cli("best-play", *args)
    assert code == 0, err
    deepest = json.loads(out)["results"][-1]
    assert solved_["value"] == deepest["scores"]
    assert solved_["principal_variation"] == deepest["line"]
    assert solved_["details"]["concept"] == concept and solved_["details"]["horizon"] == 4


def test_the_text_names_concept_and_horizon():
    code, out, _ = run_cli("solve", "grid:2x2", "--ruleset", "political", "--concept", "paranoid", "--horizon", "2")
    assert code == 0
    assert "best play under paranoid (horizon 2): scores A " in out


def test_a_concept_or_horizon_is_refused_by_the_other_solvers():
    for name in ("tromp-taylor", "directed", "topological", "ultimate"):
        situation = rulesets.make(name).initial(parse_graph("path:2"))
        with pytest.raises(SearchError, match="--concept"):
            solve(situation, SolveRequest(tuning={"concept": "paranoid"}))
        with pytest.raises(SearchError, match="--horizon"):
            solve(situation, SolveRequest(tuning={"horizon": 3}))


# ------------------------------------------------------------------ changed rules lose the capability


class NoPassing(directed_twin.Directed):
    """Source 000's game in which no one may pass: a changed rule."""

    name = "directed-no-pass"

    def moves(self, graph, s):
        """The empty points only."""
        return [m for m in super().moves(graph, s) if m != "pass"]


class LastPlayerScoresNothing(political_twin.Political):
    """Political Go in which the last player of the turn list scores nothing: a changed rule."""

    name = "political-changed"

    def value(self, graph, s):
        """The Political Go scores, the last player's set to 0."""
        scores = dict(super().value(graph, s))
        scores[s.players[-1]] = 0
        return scores


@pytest.mark.parametrize(
    ("variant", "twin", "refusal"),
    [
        (NoPassing, "Directed", "not a finite game"),
        (LastPlayerScoresNothing, "Political", "not a two-player game"),
    ],
)
def test_a_subclass_that_changes_a_rule_loses_the_capability_and_is_refused(variant, twin, refusal):
    ruleset = variant()
    assert ruleset.capability("solve") is None
    gap = ruleset.capability_gap("solve")
    assert isinstance(gap, str) and twin in gap and "does not describe the change" in gap
    with pytest.raises(SearchError, match=refusal) as refused:
        solve(ruleset.initial(parse_graph("path:2")))
    assert "solve capability" in str(refused.value) and twin in str(refused.value)
