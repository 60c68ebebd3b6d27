"""Differential tests: the engine against the executable spec.

- a Hypothesis state machine plays the same game on both and compares the whole state
  after every step (and takes moves back on the engine);
- property tests compare the module functions on random graphs and boards;
- the vectors in tests/vectors/ are replayed against both;
- a seeded fuzzing run compares at least 10^5 moves on small graphs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.differential.fuzzing import compare_game, fuzz
from gorules.impl.differential.oracle import legal_reason, legal_under, scores_under
from gorules.impl.differential.vectors import load_vector, replay, replay_engine_game, vector_files
from gorules.impl.engine import rules as engine
from gorules.impl.engine.options import Options
from gorules.spec.tromp_taylor import PASS
from tests.strategies import boards, graphs, grids, move_sequences, moves, undirected_graphs, well_formed_boards

VECTORS = Path(__file__).parent / "vectors"


class GameAgainstSpec(RuleBasedStateMachine):
    """A game on the engine (``self.game``) beside the spec's states (``self.history``),
    once ``start`` has chosen a graph; the moves may be taken back."""

    def __init__(self):
        super().__init__()
        self.graph = None

    @precondition(lambda self: self.graph is not None and len(self.history) > 1)
    @rule()
    def undo(self):
        """Taking a move back on the engine returns to the spec's previous state."""
        self.game.undo()
        self.history.pop()


def outcome(margin) -> str:
    """The winner by Black's margin: "B", "W" or "draw"."""
    return "B" if margin > 0 else "W" if margin < 0 else "draw"


class SpecAndEngine(GameAgainstSpec):
    """The same game on the spec (a list of states) and on the engine (a Game)."""

    @initialize(graph=graphs(max_order=10, max_side=6))
    def start(self, graph):
        """Begin on a random graph."""
        note(f"graph {graph.name} arcs {graph.edges()}")
        self.graph = graph
        self.history = [spec_rules.initial_state(graph)]
        self.game = engine.Game(graph)

    @rule(data=st.data())
    def play(self, data):
        """Both sides try the same move; they must agree whether it is allowed and on its result."""
        v = data.draw(moves(self.graph), label="move")
        s = self.history[-1]
        assert engine.move(self.graph, s, v) == spec_rules.move(self.graph, s, v)
        s_next, reason = legal_reason(spec_rules, self.graph, self.history, v)
        allowed = self.game.try_play(v)
        assert allowed == (s_next is not None), reason
        if allowed:
            self.history.append(s_next)

    @invariant()
    def same_state(self):
        """Board, player to move, passes and scores agree."""
        if self.graph is None:
            return
        s = self.history[-1]
        assert self.game.state() == s
        assert self.game.score()[:2] == tuple(spec_rules.score(self.graph, s.board, p) for p in "BW")
        assert self.game.over == (s.passes >= 2)

    @invariant()
    def same_legal_moves(self):
        """The engine's legal moves are exactly the moves the spec allows."""
        if self.graph is None:
            return
        expected = [
            v
            for v in list(self.graph.points) + [PASS]
            if legal_reason(spec_rules, self.graph, self.history, v)[0] is not None
        ]
        assert self.game.legal_moves() == expected


TestSpecAndEngine = SpecAndEngine.TestCase


@given(st.data())
def test_clear_reaches_and_score_agree_on_any_board(data):
    graph = data.draw(graphs(max_order=12, max_side=8))
    b = data.draw(boards(graph))
    for p in "BW":
        assert engine.clear(graph, b, p) == spec_rules.clear(graph, b, p)
        assert engine.score(graph, b, p) == spec_rules.score(graph, b, p)
    v = data.draw(st.integers(0, graph.order - 1))
    for c in "BW.":
        assert engine.reaches(graph, b, v, c) == spec_rules.reaches(graph, b, v, c)


@given(st.data())
def test_move_agrees_on_well_formed_boards(data):
    graph = data.draw(graphs(max_order=12, max_side=8))
    b = data.draw(well_formed_boards(graph))
    player = data.draw(st.sampled_from("BW"))
    passes = data.draw(st.integers(0, 2))
    v = data.draw(moves(graph))
    s = spec_rules.State(b, player, passes)
    assert engine.move(graph, s, v) == spec_rules.move(graph, s, v)


@settings(max_examples=15)
@given(st.data())
def test_move_agrees_on_large_grids(data):
    graph = data.draw(grids(max_side=19))
    b = data.draw(well_formed_boards(graph))
    v = data.draw(moves(graph))
    s = spec_rules.State(b, data.draw(st.sampled_from("BW")), 0)
    assert engine.move(graph, s, v) == spec_rules.move(graph, s, v)
    for p in "BW":
        assert engine.score(graph, b, p) == spec_rules.score(graph, b, p)


@given(st.data())
def test_game_and_winner_agree_on_move_sequences(data):
    graph = data.draw(graphs(max_order=8, max_side=4))
    sequence = data.draw(move_sequences(graph, max_size=30))
    if data.draw(st.booleans()):
        sequence = sequence + [PASS, PASS]
    assert engine.game(graph, sequence) == spec_rules.game(graph, sequence)
    assert engine.winner(graph, sequence) == spec_rules.winner(graph, sequence)
    _compared, difference = compare_game(graph, sequence)
    assert difference is None


@given(undirected_graphs(max_order=12), st.integers(0, 2**32))
def test_random_playouts_end_in_well_formed_positions(graph, seed):
    g = engine.random_playout(graph, random.Random(seed))
    final = g.board
    for p in "BW":
        assert spec_rules.clear(graph, final, p) == final
    assert g.over or len(g) == 4 * graph.order


# --------------------------------------------------------------------------- vectors

VECTOR_PATHS = vector_files(VECTORS)


def test_the_corpus_has_valid_and_invalid_vectors():
    names = [p.stem for p in VECTOR_PATHS]
    assert sum(n.startswith("invalid_") for n in names) >= 10
    assert sum(not n.startswith("invalid_") for n in names) >= 30
    assert all(load_vector(p)["name"] == p.stem for p in VECTOR_PATHS)


@pytest.mark.parametrize("path", VECTOR_PATHS, ids=[p.stem for p in VECTOR_PATHS])
def test_vector_replays(rules, path):
    vector = load_vector(path)
    assert replay(vector, rules) == []
    assert ("invalid" in vector) == path.stem.startswith("invalid_")


@pytest.mark.parametrize("path", VECTOR_PATHS, ids=[p.stem for p in VECTOR_PATHS])
def test_vector_replays_on_the_engine_game(path):
    assert replay_engine_game(load_vector(path)) == []


def test_a_changed_vector_is_caught():
    vector = load_vector(VECTORS / "ko_taken_grid3x4.json")
    vector["states"][-3]["board"] = vector["states"][-3]["board"].replace("B", "W", 1)
    assert replay(vector, engine) != []
    vector = load_vector(VECTORS / "invalid_superko_ko_retake.json")
    vector["invalid"]["move"] = 11
    assert replay(vector, engine) == ["the invalid move 11 was allowed"]


# --------------------------------------------------------------------------- volume


@pytest.mark.slow
def test_fuzzing_compares_a_hundred_thousand_moves_without_a_disagreement():
    report = fuzz(None, seed=20240, max_order=8, max_side=4, min_moves=100_000)
    assert report.moves >= 100_000
    assert [d.what for d in report.disagreements] == []


def test_fuzzing_finds_a_broken_engine():
    """A mutant engine that forgets suicide must be caught and shrunk to a short case."""

    from gorules.impl.differential.mutants import NoSuicideMutant

    report = fuzz(300, seed=1, engine=NoSuicideMutant(), max_order=6, max_side=3)
    assert report.disagreements
    assert min(len(d.moves) for d in report.disagreements) <= 6


def test_a_disagreement_is_written_as_a_vector_and_sgf(tmp_path):
    from sgfmill import sgf

    from gorules.impl.differential.fuzzing import Disagreement, FuzzReport, write_disagreements
    from gorules.spec.graph import parse_graph

    graph = parse_graph("grid:4x4")
    report = FuzzReport(1, 10, [Disagreement(graph, [5, 6, 9, PASS, 9], "invented")])
    paths = write_disagreements(report, tmp_path)
    # The last move is refused by the spec (occupied), so the case is an invalid_* vector.
    assert sorted(p.name for p in paths) == ["invalid_fuzz_disagreement_0.json", "invalid_fuzz_disagreement_0.sgf"]
    vector = load_vector(paths[0])
    assert vector["disagreement"] == "invented"
    assert vector["invalid"] == {"move": 9, "reason": "the point is occupied"}
    assert replay(vector, spec_rules) == []
    record = sgf.Sgf_game.from_bytes(paths[1].read_bytes())
    assert record.get_size() == 4
    sequence = [node.get_move() for node in record.get_main_sequence()[1:]]
    # sgfmill counts rows from the bottom: point 5 (row 1, column 1 from the top) is (2, 1).
    assert sequence == [("b", (2, 1)), ("w", (2, 2)), ("b", (1, 1)), ("w", None), ("b", (1, 1))]
    assert not list(tmp_path.glob(".*.tmp"))


def test_the_fuzz_command_reports_json(capsys, tmp_path):
    import json

    from gorules.cli import main

    assert main(["fuzz", "--examples", "30", "--seed", "5", "--json", "--out", str(tmp_path / "out")]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["examples"] == 30 and summary["disagreements"] == 0
    assert summary["moves"] > 30
    assert not (tmp_path / "out").exists()


def test_the_fuzz_command_refuses_bad_arguments(capsys):
    from gorules.cli import main

    assert main(["fuzz", "--examples", "0"]) == 2
    assert "--examples must be at least 1" in capsys.readouterr().err
    assert main(["fuzz", "--max-side", "40"]) == 2


# --------------------------------------------------------------------------- rule options

RULE_OPTIONS = st.builds(
    Options,
    ko=st.sampled_from(["positional", "situational", "simple", "none"]),
    suicide=st.sampled_from(["allowed", "forbidden"]),
    scoring=st.sampled_from(["area", "stone"]),
    komi=st.sampled_from([0, 0.5, 7.5, -2]),
)


class RuleOptionsAgainstOracle(GameAgainstSpec):
    """The engine's Game under any Options against an oracle built on the spec's move."""

    @initialize(graph=graphs(max_order=9, max_side=4), options=RULE_OPTIONS)
    def start(self, graph, options):
        """Begin on a random graph under random rule options."""
        note(f"graph {graph.name} arcs {graph.edges()} rules {options.describe()}")
        self.graph = graph
        self.options = options
        self.history = [spec_rules.initial_state(graph)]
        self.game = engine.Game(graph, options)

    @rule(data=st.data())
    def play(self, data):
        """The engine allows a move exactly when the oracle does, with the same result."""
        v = data.draw(moves(self.graph), label="move")
        s_next, reason = legal_under(self.options, self.graph, self.history, v)
        assert self.game.try_play(v) == (s_next is not None), reason
        if s_next is not None:
            self.history.append(s_next)

    @invariant()
    def same_state_and_result(self):
        """State, scores and winner agree with the oracle."""
        if self.graph is None:
            return
        s = self.history[-1]
        assert self.game.state() == s
        black, white = scores_under(self.options, self.graph, s.board)
        assert self.game.score() == (black, white, self.options.komi)
        assert self.game.winner() == outcome(black - white - self.options.komi)


TestRuleOptionsAgainstOracle = RuleOptionsAgainstOracle.TestCase


@given(st.data())
def test_game_and_winner_under_rule_options(data):
    graph = data.draw(graphs(max_order=7, max_side=3))
    options = data.draw(RULE_OPTIONS)
    sequence = data.draw(move_sequences(graph, max_size=25)) + [PASS, PASS]
    history = [spec_rules.initial_state(graph)]
    complete = True
    for v in sequence:
        s_next, _ = legal_under(options, graph, history, v)
        if s_next is None:
            complete = False
            break
        history.append(s_next)
    complete = complete and history[-1].passes == 2
    states = engine.game(graph, sequence, options)
    assert states == (history if complete else None)
    result = engine.winner(graph, sequence, options)
    if complete:
        black, white = scores_under(options, graph, history[-1].board)
        assert result == outcome(black - white - options.komi)
    else:
        assert result is None
