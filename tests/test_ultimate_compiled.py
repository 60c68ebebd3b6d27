"""The compiled core of Ultimate Go's yes/no searches (``impl/rulesets/ultimate/compiled.py``)
answers as the Python search does; each of its safeguards has a mutant refuted."""

from __future__ import annotations

import numpy as np
import pytest

from gorules.cli import main
from gorules.commands import fundamental_score, ultimate_table
from gorules.commands.ultimate_table import connected_graphs
from gorules.impl.kernels import ultimate as kernel
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.compiled import CompiledQuestions
from gorules.impl.rulesets.ultimate.search import AUTO_NODES, Engine, deep
from gorules.spec import ultimate
from gorules.spec.graph import parse_graph


def score_and_result(name: str, compiled: bool) -> tuple[float, int]:
    """Section IV's score and the Ultimate result from the empty board, by one engine."""
    graph = parse_graph(name)
    engine = Engine(graph, compiled=compiled)
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    return score, deep(engine.result, engine.from_situation(ultimate.initial_situation(graph)))


@pytest.mark.slow
def test_every_graph_of_five_points_gets_the_python_answers():
    """Score and Ultimate result from the empty board agree with the Python search on every
    connected graph of at most 5 points (31 graphs)."""
    names = [g.name for g in connected_graphs(5)]
    assert len(names) == 31
    for name in names:
        assert score_and_result(name, True) == score_and_result(name, False), name


@pytest.mark.parametrize("name", ["path:3", "grid:2x2", "path:6", "atlas:52"])
def test_named_graphs_get_the_python_answers(name):
    """The same on a sample: scores ±½ and 1½ among them, a draw, a win (and a 6-point path)."""
    assert score_and_result(name, True) == score_and_result(name, False)


def compiled_engine(
    graph, switched_off: tuple[int, ...] = (), orders: tuple[int, ...] = (0, 1), stabiliser: bool = False
) -> Engine:
    """An engine whose questions go to a compiled core with the given parts switched off,
    racing the given move orders (0 fixed, 1 hinted), with or without the stabiliser fold."""
    engine = Engine(graph, compiled=True)
    engine.core = CompiledQuestions(engine, switched_off, orders, stabiliser)
    return engine


def situations_reachable(name: str, limit: int) -> list:
    """The first ``limit`` situations reachable from the empty board of Ultimate Go."""
    graph = parse_graph(name)
    plain = Engine(graph)
    start = plain.from_situation(ultimate.initial_situation(graph))
    return [plain.to_situation(p) for p in ultimate_claims.reachable(plain, start, limit)]


def shared_results(
    name: str,
    switched_off: tuple[int, ...] = (),
    orders: tuple[int, ...] = (0, 1),
    limit: int = 400,
    stabiliser: bool = False,
) -> list[int]:
    """The Ultimate result at each reachable situation, all asked of one compiled core (its
    table's proofs reused across histories)."""
    engine = compiled_engine(parse_graph(name), switched_off, orders, stabiliser)
    return [deep(engine.result, engine.from_situation(s)) for s in situations_reachable(name, limit)]


def fresh_results(name: str, limit: int = 400) -> list[int]:
    """The same situations, each solved by a fresh Python engine without symmetry."""
    graph = parse_graph(name)
    found = []
    for s in situations_reachable(name, limit):
        fresh = Engine(graph, symmetric=False, frames=False, hinted=False)
        found.append(deep(fresh.result, fresh.from_situation(s)))
    return found


@pytest.mark.parametrize("name", ["path:3", "path:4", "grid:2x2"])
def test_one_shared_core_agrees_at_reachable_situations(name):
    """One compiled core asked at 400 reachable situations in turn (histories, bowls, ultimate
    prisoners used, draw rights) gives the results of fresh Python searches."""
    truth = fresh_results(name)
    assert len(truth) == 400 and len(set(truth)) == 3
    assert shared_results(name) == truth


@pytest.mark.parametrize(
    "flag, name",
    [
        (kernel.F_HISTORY_TEST, "path:3"),
        (kernel.F_BARRED, "path:3"),
        (kernel.F_MOVE_HISTORY, "grid:2x2"),
    ],
)
def test_a_core_without_a_safeguard_is_refuted(flag, name):
    """Each safeguard matters: the table's history condition, the barred placements a loss
    keeps, the history moved with the board to its representative; without one, a shared
    core gives a wrong result somewhere."""
    assert shared_results(name, (flag,)) != fresh_results(name)


@pytest.mark.parametrize("name", ["path:4", "grid:2x2"])
def test_the_hinted_order_alone_keeps_the_answers(name):
    """Every question in the hinted order (the move that last reached the goal at a key
    tried first there) gives the results of fresh Python searches, hints having been used."""
    assert shared_results(name, orders=(1,)) == fresh_results(name)
    engine = compiled_engine(parse_graph(name), orders=(1,))
    deep(engine.score, engine.from_situation(ultimate.initial_situation(parse_graph(name), True)))
    assert (engine.core.tables[7] >= 0).any()


def test_a_hint_that_drops_the_other_moves_is_refuted():
    """Trying only the hinted move where one is known gives wrong results."""
    assert shared_results("grid:2x2", (kernel.F_AFTER_HINT,), orders=(1,)) != fresh_results("grid:2x2")


def test_a_handicap_is_left_to_the_python_search(capsys):
    """Owed delays (a handicap) are not the core's: the question falls back to Python, with
    the Python answer (path:4 with handicap 2, against a Python-only engine)."""
    graph = parse_graph("path:4")
    s = ultimate.initial_situation(graph, True, handicap=2)
    compiled, python = Engine(graph, compiled=True), Engine(graph)
    assert deep(compiled.score, compiled.from_situation(s)) == deep(python.score, python.from_situation(s))
    assert compiled.core is None or compiled.nodes > 0


def test_the_core_counts_its_nodes_against_the_budget(capsys):
    """A node budget stops the compiled search too, with bounds reported (exit 0)."""
    assert main(["fundamental-score", "atlas:208", "--max-nodes", "30000", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"status": "budget spent"' in out and "30,000 nodes" in out


def test_a_table_grown_from_one_key_keeps_the_answers(monkeypatch):
    """A core whose table starts with room for one key's proofs, doubled whenever a key
    finds none free, gives the results of fresh Python searches and did grow."""
    monkeypatch.setattr(kernel, "CHUNKS", 1)
    engine = compiled_engine(parse_graph("grid:2x2"))
    results = [deep(engine.result, engine.from_situation(s)) for s in situations_reachable("grid:2x2", 400)]
    assert results == fresh_results("grid:2x2")
    assert engine.core.tables[1].shape[0] > 1


def first_question_nodes(name: str, stabiliser: bool) -> int:
    """The nodes the core takes, in the fixed order, to prove that Black wins Fundamental
    Go with no komi on the graph (asserted)."""
    graph = parse_graph(name)
    engine = compiled_engine(graph, orders=(0,), stabiliser=stabiliser)
    p = engine.fundamental(engine.from_situation(ultimate.initial_situation(graph, True)))
    assert deep(engine.can_win, p) is True
    return engine.nodes


@pytest.mark.slow
def test_histories_folded_under_the_board_stabiliser_take_other_nodes():
    """The fold under the automorphisms fixing a board does something (the results it keeps
    are those of the shared-core tests above, where it is on): atlas:189's first question
    takes 161,431 nodes with it and 191,898 without (4,096 proofs per key).  The counts also
    hold the proofs' D folded into four words to account: that fold only skips proofs that
    cannot apply, and one that skipped a proof that applies would change them."""
    assert first_question_nodes("atlas:189", True) == 161_431
    assert first_question_nodes("atlas:189", False) == 191_898


@pytest.mark.parametrize("name", ["path:4", "grid:2x2"])
def test_histories_folded_under_the_board_stabiliser_keep_the_answers(name):
    """With the stabiliser fold on (it is off by default), a shared core gives the results
    of fresh Python searches."""
    assert shared_results(name, stabiliser=True) == fresh_results(name)


def test_a_history_moved_by_automorphisms_not_fixing_its_board_is_refuted(monkeypatch):
    """Folding a history by any automorphism of the graph, not only those that fix the
    position's board, gives wrong results somewhere (the fold must keep the game)."""

    def every_automorphism(perm, canon):
        """Every automorphism other than the identity, for every board (the mutant)."""
        fixing = np.full((perm.shape[1], perm.shape[0]), -1, dtype=np.int64)
        moving = [s for s in range(perm.shape[0]) if not np.array_equal(perm[s], np.arange(perm.shape[1]))]
        fixing[:, : len(moving)] = moving
        return fixing

    monkeypatch.setattr(CompiledQuestions, "stabilisers", staticmethod(every_automorphism))
    assert shared_results("grid:2x2", stabiliser=True) != fresh_results("grid:2x2")


@pytest.mark.parametrize("hand_over, loads", [(AUTO_NODES, False), (10, True)])
def test_the_python_search_hands_over_to_the_compiled_core(hand_over, loads):
    """With ``hand_over`` the Python search answers the questions while the engine has spent
    fewer nodes (path:5: all of them within 50,000, the core never loaded), then the compiled
    core (after 10 nodes: the core loaded); the score and result are the Python search's."""
    graph = parse_graph("path:5")
    engine = Engine(graph, compiled=True, hand_over=hand_over)
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    result = deep(engine.result, engine.from_situation(ultimate.initial_situation(graph)))
    assert (score, result) == score_and_result("path:5", False)
    assert (engine.core is not None) == loads


def test_the_score_commands_hand_over_by_default(monkeypatch, capsys):
    """``fundamental-score`` and ``ultimate-table`` start in Python and hand over to the
    compiled core after ``AUTO_NODES`` nodes unless ``--core`` says otherwise."""
    made = []
    original = fundamental_score.Engine

    def recording(*args, **kwargs):
        """The engine, its flags noted."""
        made.append((kwargs["compiled"], kwargs["hand_over"]))
        return original(*args, **kwargs)

    monkeypatch.setattr(fundamental_score, "Engine", recording)
    monkeypatch.setattr(ultimate_table, "Engine", recording)
    for command in (["fundamental-score", "path:3"], ["ultimate-table", "--points", "2", "--area-nodes", "200"]):
        for flags, engine in (
            ([], (True, AUTO_NODES)),
            (["--core", "compiled"], (True, 0)),
            (["--core", "python"], (False, 0)),
        ):
            made.clear()
            assert main([*command, *flags, "--json"]) == 0
            assert made and set(made) == {engine}, (command, flags)
    capsys.readouterr()
