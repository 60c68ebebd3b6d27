"""Best play for three players in Political Go: max-n and paranoid agree with a plain
recursion written here, a player maximising the wrong score changes the result, and the
command states its concept, refuses what it cannot finish and reports a spent budget."""

from __future__ import annotations

import json

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.rulesets.political import best_play as M
from gorules.impl.solving.budget import Budget
from gorules.spec.graph import parse_graph

RULES = rulesets.make("political")
PLAYERS = RULES.options.players


def placements_and_passes(move) -> bool:
    """The fragment searched by default: no alliance moves."""
    return move.kind in ("place", "pass")


def moves(state, graph):
    """The moves of the fragment in a state."""
    return [m for m in RULES.moves(graph, state) if placements_and_passes(m)]


def plain_max_n(graph, state, depth):
    """Max-n by plain recursion, no table: the scores of the line where each player picks
    the first move best for emself."""
    if RULES.is_over(graph, state) or depth == 0 or not moves(state, graph):
        return RULES.value(graph, state)
    mover = RULES.player(state)
    best = None
    for m in moves(state, graph):
        scores = plain_max_n(graph, RULES.apply(graph, state, m), depth - 1)
        if best is None or scores[mover] > best[mover]:
            best = scores
    return best


def plain_paranoid(graph, state, depth, root):
    """Root's score by plain minimax against the coalition of the others, no pruning."""
    if RULES.is_over(graph, state) or depth == 0 or not moves(state, graph):
        return RULES.value(graph, state)[root]
    values = [plain_paranoid(graph, RULES.apply(graph, state, m), depth - 1, root) for m in moves(state, graph)]
    return max(values) if RULES.player(state) == root else min(values)


@pytest.mark.parametrize(("name", "horizon"), [("path:3", 4), ("path:4", 3), ("cycle:4", 3), ("star:3", 3)])
def test_max_n_and_paranoid_agree_with_plain_recursion(name, horizon):
    g = parse_graph(name)
    start = RULES.initial(g)
    results, stopped = M.best_play(start, "max-n", horizon, Budget(), allowed=placements_and_passes)
    assert stopped is None and [r.horizon for r in results] == list(range(1, horizon + 1))
    assert results[-1].scores == plain_max_n(g, start.state, horizon)
    for root in PLAYERS:
        found, _ = M.best_play(start, "paranoid", horizon, Budget(), root=root, allowed=placements_and_passes)
        assert found[-1].guaranteed == plain_paranoid(g, start.state, horizon, root)
        assert found[-1].scores[root] == found[-1].guaranteed


def test_the_line_reaches_the_scores():
    g = parse_graph("path:4")
    start = RULES.initial(g)
    result = M.best_play(start, "max-n", 4, Budget(), allowed=placements_and_passes)[0][-1]
    s = start
    for mover, word in zip(result.movers, result.line):
        assert s.to_move == mover
        s = s.play(RULES.parse_move(g, word))
    assert RULES.value(g, s.state) == result.scores


def test_a_player_maximising_the_wrong_score_changes_the_result():
    """Mutant: each player maximises the next player's score. On path:4 to three moves max-n
    gives B the win; the mutant gives it to C."""
    g = parse_graph("path:4")
    start = RULES.initial(g)

    def next_players_score(values, p):
        return values[PLAYERS[(PLAYERS.index(p) + 1) % len(PLAYERS)]]

    right = M.best_play(start, "max-n", 3, Budget(), allowed=placements_and_passes)[0][-1]
    wrong = M.best_play(start, "max-n", 3, Budget(), allowed=placements_and_passes, utility=next_players_score)[0][-1]
    assert right.scores == {"A": 4, "B": 5, "C": 4}
    assert wrong.scores != right.scores


def test_an_ended_game_is_exact():
    """On one vertex nobody may place (a lone stone has no liberty): the game ends at the
    first pass, and the result is exact for the whole game."""
    g = parse_graph("path:1")
    results, _ = M.best_play(RULES.initial(g), "max-n", 3, Budget(), allowed=placements_and_passes)
    assert len(results) == 1 and results[0].exact and results[0].line == ("pass",)


def test_best_play_command(capsys):
    assert main(["best-play", "path:4", "--horizon", "3"]) == 0
    out = capsys.readouterr().out
    assert "solution concept: max-n" in out and "horizon 3: scores A 4, B 5, C 4; winner(s) B" in out
    assert "line: A 0, B 1, C 2" in out
    assert main(["best-play", "path:4", "--horizon", "2", "--concept", "paranoid", "--root", "C", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["concept"].startswith("paranoid") and report["results"][-1]["root"] == "C"
    assert main(["best-play", "path:4", "--players", "A,B,C,D", "--horizon", "2", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["results"][-1]["scores"]) == {"A", "B", "C", "D"}


def test_best_play_command_refuses_in_one_line(capsys):
    assert main(["best-play", "path:4", "--root", "Z"]) == 2
    assert main(["best-play", "grid:2x3", "--horizon", "12"]) == 2
    assert main(["best-play", "path:3", "--ruleset", "tromp-taylor"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3
    assert "--root 'Z' is not a player" in errors[0]
    assert "raise --max-nodes" in errors[1]
    assert "use gorules solve" in errors[2]


def test_a_spent_budget_reports_the_finished_horizons(capsys):
    assert main(["best-play", "path:6", "--horizon", "8", "--max-nodes", "3000", "--json"]) == 2  # estimate refused
    capsys.readouterr()
    results, stopped = M.best_play(
        RULES.initial(parse_graph("path:6")), "max-n", 8, Budget(seconds=0.1), allowed=placements_and_passes
    )
    assert stopped is not None and "time budget" in stopped and "during horizon" in stopped
    assert results and all(not r.exact for r in results)


def test_the_best_play_row_and_its_mutant(monkeypatch):
    """The verify row passes; with players maximising the next player's score it fails."""
    from gorules.checks import ruleset_checks

    row = ruleset_checks.political_best_play_check()
    assert row.run().passed
    monkeypatch.setattr(M, "own_score", lambda values, p: values[PLAYERS[(PLAYERS.index(p) + 1) % len(PLAYERS)]])
    assert not row.run().passed
