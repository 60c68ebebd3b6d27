"""One suite over every ruleset and every implementation of the common ruleset interface.

The ``any_ruleset`` fixture (tests/conftest.py) runs each test once per registered ruleset
and implementation, with its default preset; the Node Kayles ruleset of tests/kayles.py
(the example of docs/adding-a-ruleset.md) is registered here so the suite covers a ruleset
added from outside.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gorules import rulesets
from gorules.impl.solving.search import SearchError, count_games, solve
from gorules.spec.api import IllegalMove, OptionError, Situation
from gorules.spec.graph import parse_graph
from gorules.spec.text import situation_text
from gorules.spec.tromp_taylor import PRESETS

GRAPHS = ["path:1", "path:3", "cycle:3", "grid:2x2", "star:3"]
KAYLES = str(Path(__file__).with_name("kayles.py"))


def graphs_for(ruleset) -> list:
    """The graphs a ruleset is tried on (directed Go also on a digraph)."""
    extra = ["digraph:0>1,1>2,2>0"] if ruleset.name == "directed" else []
    return [parse_graph(g) for g in GRAPHS + extra]


def random_play(situation: Situation, rng: random.Random, turns: int) -> list[Situation]:
    """The situations of a random play of at most ``turns`` moves."""
    seen = [situation]
    for _ in range(turns):
        if situation.over:
            break
        situation = situation.play(rng.choice(situation.legal_moves()))
        seen.append(situation)
    return seen


def test_every_ruleset_starts_and_steps(any_ruleset):
    """The start is a situation; every listed move can be played; the result is of the ruleset's kind."""
    for graph in graphs_for(any_ruleset):
        rng = random.Random(graph.name)
        for _ in range(5):
            for s in random_play(any_ruleset.initial(graph), rng, 40):
                assert len(s.board) == graph.order
                assert s.over == (s.to_move is None)
                if s.over:
                    assert s.legal_moves() == []
                    check_value(any_ruleset, s.result())
                else:
                    assert s.to_move in (any_ruleset.players or any_ruleset.options.players)
                    assert s.result() is None
                hash(s.key())
                assert isinstance(s.history, frozenset)
                json.dumps(s.to_json(), default=str)
                assert situation_text(s).strip()


def check_value(ruleset, value) -> None:
    """A finished game's value is of the ruleset's value kind."""
    if ruleset.value_kind == "margin":
        assert isinstance(value, (int, float))
    elif ruleset.value_kind == "outcome":
        assert value in ("B", "W", "draw")
    else:
        assert set(value) == set(ruleset.options.players)


def test_situations_are_immutable_values(any_ruleset):
    """Playing from a situation leaves it unchanged, and equal situations hash alike."""
    graph = parse_graph("path:3")
    s = any_ruleset.initial(graph)
    before = (s.board, s.to_move, s.key())
    s.play(s.legal_moves()[0])
    assert (s.board, s.to_move, s.key()) == before
    assert s == any_ruleset.initial(graph) and hash(s) == hash(any_ruleset.initial(graph))


def test_moves_round_trip_through_text(any_ruleset):
    """Every legal move is written as a word that reads back as the same move."""
    for graph in graphs_for(any_ruleset):
        s = any_ruleset.initial(graph)
        for move in s.legal_moves():
            assert any_ruleset.parse_move(graph, any_ruleset.move_text(graph, move)) == move


def test_an_unlisted_move_is_refused(any_ruleset):
    """A move on an occupied point is illegal, with a reason."""
    graph = parse_graph("path:3")
    s = any_ruleset.initial(graph)
    first = next(m for m in s.legal_moves() if any_ruleset.move_text(graph, m) == "1")
    after = s.play(first)
    if not after.over:
        with pytest.raises(IllegalMove):
            after.play(first)


@pytest.mark.parametrize("name", ["tromp-taylor", "topological", "ultimate", "fundamental", "node-kayles"])
def test_finite_rulesets_end(name):
    """A ruleset that calls itself finite ends every random play on the small graphs."""
    from tests.kayles import NodeKayles

    ruleset = NodeKayles() if name == "node-kayles" else rulesets.make(name)
    assert ruleset.finite
    rng = random.Random(0)
    for graph in graphs_for(ruleset)[:4]:
        for _ in range(5):
            assert random_play(ruleset.initial(graph), rng, 5000)[-1].over


def test_infinite_rulesets_say_so():
    """Directed and Political Go, and Tromp–Taylor under simple ko, can cycle: they are not finite."""
    assert not rulesets.make("directed").finite and not rulesets.make("political").finite
    assert not rulesets.make("tromp-taylor", "openspiel").finite
    # Directed Go on an isolated pair: capturing back and forth brings back the same board.
    graph = parse_graph("path:2")
    s = rulesets.make("directed").initial(graph)
    boards = []
    for move in [0, 1, 0, 1]:
        s = s.play(move)
        boards.append(s.board)
    assert boards[0] == boards[2] != boards[1] == boards[3]


# --------------------------------------------------------------------------- Tromp–Taylor twins


@pytest.mark.parametrize("preset", list(PRESETS))
def test_spec_and_engine_twins_agree_move_by_move(preset):
    """The spec's Tromp–Taylor ruleset and the engine's list the same moves, boards and results."""
    spec_rules = rulesets.make("tromp-taylor", preset, implementation="spec")
    engine_rules = rulesets.make("tromp-taylor", preset, implementation="engine")
    for name in ["grid:2x2", "cycle:4", "path:3", "grid:2x3", "digraph:0>1,1>2,2>0,1>0"]:
        graph = parse_graph(name)
        for seed in range(15):
            rng = random.Random(seed)
            a, b = spec_rules.initial(graph), engine_rules.initial(graph)
            for _ in range(60):
                assert a.legal_moves() == b.legal_moves()
                assert (a.board, a.to_move, a.over, a.result()) == (b.board, b.to_move, b.over, b.result())
                if a.over:
                    break
                move = rng.choice(a.legal_moves())
                a, b = a.play(move), b.play(move)


def test_engine_twin_agrees_with_the_engine_game():
    """The interface's engine twin lists the moves that the engine's Game allows."""
    from gorules.impl.engine.rules import Game

    for preset in PRESETS:
        ruleset = rulesets.make("tromp-taylor", preset)
        graph = parse_graph("grid:2x3")
        rng = random.Random(preset)
        for _ in range(10):
            game, s = Game(graph, preset), ruleset.initial(graph)
            while not s.over and len(game) < 80:
                assert sorted(game.legal_moves(), key=str) == sorted(s.legal_moves(), key=str)
                move = rng.choice(s.legal_moves())
                game.play(move)
                s = s.play(move)


@pytest.mark.parametrize("implementation", ["spec", "engine"])
def test_generic_game_count_reproduces_the_published_counts(implementation):
    """Complete games under positional superko on 1×1, 1×2, 1×3: 1, 9, 907 (Tromp & Farnebäck, Table 7)."""
    ruleset = rulesets.make("tromp-taylor", implementation=implementation)
    counts = [count_games(ruleset.initial(parse_graph(f"grid:1x{n}"))) for n in (1, 2, 3)]
    assert counts == [1, 9, 907]


@pytest.mark.parametrize("preset", ["tromp-taylor", "situational", "no-suicide", "stone"])
def test_generic_search_equals_the_engines_search(preset):
    """The interface's minimax and the engine's MTD(f) search find the same values."""
    ruleset = rulesets.make("tromp-taylor", preset)
    for name in ["path:1", "path:2", "path:3", "cycle:3", "star:2"]:
        s = ruleset.initial(parse_graph(name))
        generic = solve(s, max_nodes=2_000_000, generic=True)
        fast = solve(s)
        assert generic.value == fast.value, name
        assert "interface" in generic.method and "MTD(f)" in fast.method


# --------------------------------------------------------------------------- other rulesets through the solver


def test_fundamental_go_winners_match_the_spec():
    """Fundamental Go through the interface: 1×1 and 1×2 White wins, 1×3 Black (section IV's
    scores −½, −½, +½); its solve capability gives the score, the generic search the winner."""
    from gorules.spec import ultimate

    ruleset = rulesets.make("fundamental")
    for name, winner, score in [("path:1", "W", -0.5), ("path:2", "W", -0.5), ("path:3", "B", 0.5)]:
        graph = parse_graph(name)
        solution = solve(ruleset.initial(graph))
        assert (solution.value, solution.details["result"]) == (score, winner)
        assert solve(ruleset.initial(graph), generic=True).value == winner
        start = ultimate.initial_situation(graph, fundamental=True)
        assert ultimate.black_wins(graph, start) == (winner == "B")


def test_ultimate_go_small_paths_are_draws():
    """Ultimate Go turns the closest Fundamental games (1×2, 1×3) into draws."""
    ruleset = rulesets.make("ultimate")
    assert [solve(ruleset.initial(parse_graph(f"path:{n}"))).value for n in (2, 3)] == ["draw", "draw"]


def test_infinite_and_many_player_rulesets_are_refused_by_minimax():
    for name in ["directed", "political"]:
        with pytest.raises(SearchError):
            solve(rulesets.make(name).initial(parse_graph("path:2")), generic=True)
    with pytest.raises(SearchError, match="not a finite game"):
        solve(rulesets.make("tromp-taylor", options={"ko": "none"}).initial(parse_graph("path:2")), generic=True)


# --------------------------------------------------------------------------- the registry


def test_registry_errors_name_the_problem():
    with pytest.raises(OptionError, match="unknown ruleset 'chess'"):
        rulesets.make("chess")
    with pytest.raises(OptionError, match="no preset 'blitz'"):
        rulesets.make("ultimate", "blitz")
    with pytest.raises(OptionError, match="no option 'ko'"):
        rulesets.make("ultimate", options={"ko": "simple"})
    with pytest.raises(OptionError, match="komi cannot be 'x'"):
        rulesets.make("directed", options={"komi": "x"})
    with pytest.raises(OptionError, match="unknown ko rule"):
        rulesets.make("tromp-taylor", options={"ko": "superko"})
    assert rulesets.make("tromp-taylor", "openspiel", {"komi": "0.5"}).options.komi == 0.5


# --------------------------------------------------------------------------- a ruleset added from outside


def node_kayles_first_player_wins(order: int) -> bool:
    """Node Kayles on a path, by brute force over sets of chosen points: whether the first player wins."""
    from functools import cache

    @cache
    def wins(chosen: frozenset) -> bool:
        free = [v for v in range(order) if all(abs(v - c) > 1 for c in chosen)]
        return any(not wins(chosen | {v}) for v in free)

    return wins(frozenset())


def test_a_ruleset_from_a_file_is_solved_played_and_swept(tmp_path):
    """Node Kayles, one module registered by --ruleset-file: solve, play and sweep work unchanged."""
    names = rulesets.load_ruleset_file(KAYLES)
    assert names == ["node-kayles"]
    for n in range(1, 9):
        value = solve(rulesets.make("node-kayles").initial(parse_graph(f"path:{n}"))).value
        assert (value == "B") == node_kayles_first_player_wins(n), n

    def gorules(*args):
        done = subprocess.run(
            [sys.executable, "-m", "gorules", *args, "--ruleset-file", KAYLES],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr

    code, out, _ = gorules("solve", "path:4", "--ruleset", "node-kayles", "--json")
    assert code == 0 and json.loads(out)["value"] == "W"
    code, out, _ = gorules("play", "node-kayles", "cycle:5", "--moves", "0 2", "--json")
    assert code == 0 and json.loads(out)["result"] == "W"
    code, _, err = gorules("play", "node-kayles", "path:3", "--moves", "0 1")
    assert code == 2 and "move 2 ('1') is illegal" in err
    db = str(tmp_path / "k.sqlite")
    code, out, _ = gorules(
        "sweep", "going-first-is-good", "--ruleset", "node-kayles", "--graphs", "paths:1-6", "--db", db, "--json"
    )
    summary = json.loads(out)
    assert code == 1 and summary["counterexamples"] == ["path:4"]
    assert summary["ruleset"] == "node-kayles"


def test_the_guide_shows_the_module_it_describes():
    """docs/adding-a-ruleset.md holds tests/kayles.py verbatim, so the guide cannot drift from the code."""
    guide = (Path(__file__).parents[1] / "docs" / "adding-a-ruleset.md").read_text()
    assert Path(KAYLES).read_text().strip() in guide


@pytest.mark.parametrize("implementation", ["spec", "engine"])
def test_recorded_games_replay_through_both_twins(recorded_game, implementation):
    """Every recorded game replays move by move through the interface: the boards, players
    and passes are those the spec recorded, and a refused move is refused."""
    graph, moves, states, refused = recorded_game
    if states is None and implementation == "spec":
        moves = moves[:60]  # the literal spec on 19×19: the opening of the record is enough
    ruleset = rulesets.make("tromp-taylor", implementation=implementation)
    s = ruleset.initial(graph)
    for i, move in enumerate(moves):
        if states is not None:
            recorded = states[i]
            assert ("".join(s.board), s.to_move or recorded["player"]) == (recorded["board"], recorded["player"])
        s = s.play(move)
    if states is not None:
        assert "".join(s.board) == states[len(moves)]["board"]
    if refused is not None:
        with pytest.raises(IllegalMove):
            s.play(refused)
