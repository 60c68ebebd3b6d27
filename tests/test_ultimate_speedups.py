"""The speed-ups of the Ultimate/Fundamental searches keep their answers: the Ultimate result
read off the score, the probed komi questions of the score search, the delay races; each
against the plain search, with a mutant (an unsound version) that the same check refutes."""

from __future__ import annotations

import json

import pytest

from gorules.cli import main
from gorules.commands.ultimate_table import connected_graphs
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.search import Engine, deep
from gorules.spec import ultimate
from gorules.spec.graph import parse_graph

SMALL = [g.name for g in connected_graphs(4)]
"""Every connected graph of at most 4 points (10 graphs)."""


def untouched_positions(name: str, engine_class: type[Engine] = Engine, limit: int = 300) -> tuple[Engine, list]:
    """An engine and the positions reachable from the empty board of Ultimate Go on the graph
    (at most ``limit``) where both ultimate prisoners are still held (positions belong to
    the engine that made them: their histories are over its board numbers)."""
    graph = parse_graph(name)
    engine = engine_class(graph)
    start = engine.from_situation(ultimate.initial_situation(graph))
    return engine, [p for p in ultimate_claims.reachable(engine, start, limit) if engine.untouched(p)]


# --- the Ultimate result read off the score ------------------------------------------------


def results_read_off(engine_class: type[Engine], name: str) -> list[tuple[int, int]]:
    """(read off the score, by both searches) at every untouched reachable position (a
    mutant of the reading changes only the first)."""
    engine, positions = untouched_positions(name, engine_class)
    pairs = []
    for p in positions:
        score = deep(engine.score, p)
        pairs.append((deep(engine.result_given_score, p, score), deep(engine.result, p)))
    return pairs


@pytest.mark.parametrize("name", ["path:3", "path:4", "grid:2x2"])
def test_the_result_read_off_the_score_is_the_searched_one(name):
    """At every reachable position with both ultimate prisoners held, the Ultimate result
    found from the score (decided by it at |score| ≥ 1½, one search at ½) is the one both
    searches find, for either player to move."""
    pairs = results_read_off(Engine, name)
    assert len(pairs) > 10
    assert all(read == searched for read, searched in pairs)
    assert len({searched for _, searched in pairs}) >= 2


def test_the_score_alone_decides_far_from_zero():
    """The ranges the score allows: a win or a loss at ≥ 1½ either way, win-or-draw at +½,
    draw-or-loss at −½ (for the player to move; White's are Black's negated)."""
    assert Engine.result_range(1.5, 0) == (1, 1) and Engine.result_range(-2.5, 0) == (-1, -1)
    assert Engine.result_range(0.5, 0) == (0, 1) and Engine.result_range(-0.5, 0) == (-1, 0)
    assert Engine.result_range(0.5, 1) == (-1, 0) and Engine.result_range(3.5, 1) == (-1, -1)
    assert Engine.results_between(3.5, 4.5, 0) == (1, 1)
    assert Engine.results_between(0.5, 4.5, 0) == (0, 1)
    assert Engine.results_between(-0.5, 0.5, 0) == (-1, 1)


class HalfIsADraw(Engine):
    """Mutant: a score of ±½ read as a draw without a search."""

    @staticmethod
    def result_range(score, player):
        mine = score if player == 0 else -score
        return (1, 1) if mine >= 1.5 else (-1, -1) if mine <= -1.5 else (0, 0)


class HalfIsAWin(Engine):
    """Mutant: a positive score read as a win (dame parity ignored)."""

    @staticmethod
    def result_range(score, player):
        mine = score if player == 0 else -score
        return (1, 1) if mine > 0 else (-1, -1)


def test_mutants_of_the_reading_are_refuted():
    """Reading +½ as a win is wrong on path:3 (a draw); reading ±½ as a draw is wrong on
    atlas:119 (score +½, yet Black wins Ultimate Go: section VII's second kind)."""
    assert any(read != searched for read, searched in results_read_off(HalfIsAWin, "path:3"))
    graph = parse_graph("atlas:119")
    engine = Engine(graph)
    start = engine.from_situation(ultimate.initial_situation(graph))
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    assert score == 0.5
    assert deep(engine.result_given_score, start, score) == 1
    assert deep(HalfIsADraw(graph).result_given_score, start, score) == 0


# --- the probed komi questions ---------------------------------------------------------------


def scores(engine_class: type[Engine], probe: int | None) -> list[float]:
    """The score of the empty board of every small graph, with the given probe."""
    found = []
    for name in [*SMALL, "path:5", "atlas:30", "atlas:36", "atlas:37"]:
        graph = parse_graph(name)
        engine = engine_class(graph)
        found.append(deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)), probe))
    return found


def test_probes_keep_the_score():
    """With probes so small that many questions are put aside (5 nodes), the scores equal
    those of asking K = 1, 2, … in full; and the bounds end at the score."""
    assert scores(Engine, 5) == scores(Engine, None)
    graph = parse_graph("atlas:37")
    engine = Engine(graph)
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)), 5)
    assert engine.bounds == (score, score) == (2.5, 2.5)


class AbandonedMeansTurned(Engine):
    """Mutant: a question put aside read as answered 'the result turns'."""

    def probed(self, question, k, probe):
        answer = super().probed(question, k, probe)
        return True if answer is None else answer


def test_a_probe_read_as_an_answer_is_refuted():
    """Reading a question put aside as answered gives wrong scores."""
    assert scores(AbandonedMeansTurned, 5) != scores(Engine, None)


def test_bounds_on_a_spent_budget_hold_the_score():
    """A budget spent during the score search leaves bounds that contain the score."""
    from gorules.impl.solving.budget import Budget, BudgetSpent

    graph = parse_graph("atlas:37")
    proved = set()
    for nodes in (5, 100, 300, 1000):
        engine = Engine(graph, meter=Budget(nodes=nodes).meter())
        with pytest.raises(BudgetSpent):
            deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)), 100)
        low, high = engine.bounds
        assert low <= 2.5 <= high
        proved.add((low, high))
    assert len(proved) >= 2  # more budget, more proved


# --- delay races -------------------------------------------------------------------------------


def fundamental_answers(engine_class: type[Engine], name: str, races: bool) -> list[tuple]:
    """(score, can_win) at the Fundamental positions reachable on the graph, with every
    third one given two more prisoners for one side (so that races happen)."""
    graph = parse_graph(name)
    engine = engine_class(graph, races=races)
    start = engine.from_situation(ultimate.initial_situation(graph, True))
    found = []
    for i, p in enumerate(ultimate_claims.reachable(engine, start, 200)):
        if i % 3 == 0:
            p = engine.with_komi(p, i % 2, 2)
        found.append((deep(engine.score, p), deep(engine.can_win, p)))
    return found


@pytest.mark.parametrize("name", ["path:3", "path:4", "grid:2x2"])
def test_delay_races_keep_the_answers(name):
    """Scores and win/loss answers with races equal those without."""
    assert fundamental_answers(Engine, name, True) == fundamental_answers(Engine, name, False)


def test_a_race_is_settled_by_the_bowls():
    """path:3 with Black on the middle point, White to move: White has no placement that
    keeps a liberty and takes nothing except on an end; Black alone can make 1 more move
    (filling one end). With 2 more prisoners than Black, White wins by delaying; with 1
    more, the race does not settle it."""
    graph = parse_graph("path:3")
    engine = Engine(graph)
    p = engine.fundamental(engine.from_situation(ultimate.initial_situation(graph, True)))
    after = (0b010, 0, 1, *p[3:])  # Black on the middle point, White to move
    assert engine.solo(0b010, 0, 0) == 1
    assert engine.race(engine.with_komi(after, 1, 2)) is True
    assert engine.race(engine.with_komi(after, 1, 1)) is None


class OneMoveShort(Engine):
    """Mutant: the race bound one move too generous to the player who delays."""

    def race(self, p):
        black, white, player, bb, wb = p[:5]
        own, other = (bb, wb) if player == 0 else (wb, bb)
        if other - own >= self.solo(black, white, player) - 1:
            return False
        if own - other >= self.solo(black, white, 1 - player):
            return True
        return None


def test_a_race_bound_one_move_short_is_refuted():
    """Counting the other side one move short gives wrong answers on path:3."""
    assert fundamental_answers(OneMoveShort, "path:3", True) != fundamental_answers(Engine, "path:3", False)


# --- the table command ---------------------------------------------------------------------------


def test_table_shows_bounds_where_the_budget_runs_out(tmp_path, capsys):
    """With tiny budgets the table gives bounds, never a guess: every row has each column
    either known or bounded, and the bounds contain the values of a full run."""
    out = tmp_path / "table.json"
    assert (
        main(
            ["ultimate-table", "--points", "4", "--max-nodes", "30", "--area-nodes", "200", "--json", "--out", str(out)]
        )
        == 0
    )
    small = json.loads(out.read_text())
    capsys.readouterr()
    assert main(["ultimate-table", "--points", "4", "--json"]) == 0
    full = {r["graph"]: r for r in json.loads(capsys.readouterr().out)}
    assert any("fundamental_score_bounds" in r for r in small)
    order = ["W", "draw", "B"]
    for row in small:
        known = full[row["graph"]]
        if "fundamental_score_bounds" in row:
            low, high = (x if x is not None else s for x, s in zip(row["fundamental_score_bounds"], (-99, 99)))
            assert low <= known["fundamental_score"] <= high
        else:
            assert row["fundamental_score"] == known["fundamental_score"]
        if "ultimate_result_bounds" in row:
            least, most = map(order.index, row["ultimate_result_bounds"])
            assert least <= order.index(known["ultimate_result"]) <= most
        else:
            assert row["ultimate_result"] == known["ultimate_result"]
        if "area_bounds" in row:
            assert row["area_bounds"][0] <= known["area_value"] <= row["area_bounds"][1]
    assert main(["ultimate-table", "--points", "4", "--max-nodes", "30", "--area-nodes", "200"]) == 0
    text = capsys.readouterr().out
    assert " or " in text or "[" in text
    assert main(["ultimate-table", "--points", "3", "--area-nodes", "0"]) == 2
    assert "--area-nodes" in capsys.readouterr().err


def test_table_estimates_its_worst_case_and_refuses_above_the_limit(capsys):
    """Before any work the table prints its worst case (graphs × each graph's Tromp–Taylor,
    score and Ultimate budgets) and refuses above --max-minutes in one line naming the flag.
    4 graphs of at most 3 points × (10 s + 1 s + 1 s) = 0.8 min: refused under 0.5 (an
    estimate that forgot the Tromp–Taylor budget, 0.13 min, would let it start), run under 1."""
    flags = ["ultimate-table", "--points", "3", "--seconds", "1", "--area-seconds", "10"]
    assert main([*flags, "--max-minutes", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "4 graphs, at most 0.8 min" in err
    refusal = [line for line in err.splitlines() if "error" in line]
    assert len(refusal) == 1 and "--max-minutes" in refusal[0]
    assert main([*flags, "--max-minutes", "1"]) == 0
    captured = capsys.readouterr()
    assert "4 graphs, at most 0.8 min" in captured.err and "| atlas:7 |" in captured.out
    for bad in (["--area-seconds", "0"], ["--max-minutes", "-1"], ["--seconds", "nan"]):
        assert main(["ultimate-table", "--points", "3", *bad]) == 2
        assert bad[0].strip("-").split("-")[-1] in capsys.readouterr().err


def test_the_tables_area_solves_split_over_area_jobs(monkeypatch, capsys):
    """``--area-jobs`` reaches the Tromp–Taylor solves: with tests split after 1,000 nodes,
    atlas:188's area solve forks a pool of two workers and finds the value +1 that one
    process finds alone (and the same territory); 0 and 65 jobs are refused in one line
    naming the flag, before any work."""
    from gorules.commands.ultimate_table import area_fields
    from gorules.impl.solving import accounting

    pools: list[int] = []

    class CountedPool(accounting.Pool):
        def __init__(self, solver, jobs):
            pools.append(jobs)
            super().__init__(solver, jobs)

    graph = next(g for g in connected_graphs(6) if g.name == "atlas:188")
    alone = area_fields(graph, 200_000, jobs=1)
    monkeypatch.setattr(accounting, "SPLIT_AFTER", 1_000)
    monkeypatch.setattr(accounting, "Pool", CountedPool)
    assert area_fields(graph, 200_000, jobs=1) == alone and pools == []
    assert area_fields(graph, 200_000, jobs=2) == alone == {"area_value": 1, "territory": alone["territory"]}
    assert pools == [2]
    for jobs in ("0", "65"):
        assert main(["ultimate-table", "--points", "3", "--area-jobs", jobs]) == 2
        err = capsys.readouterr().err
        assert "--area-jobs" in err and len(err.strip().splitlines()) == 1 and "graphs" not in err


# --- symmetry early in the game -------------------------------------------------------------------

SYMMETRIC = [*SMALL, "atlas:29", "atlas:34", "atlas:46", "cycle:5"]
"""Graphs with many automorphisms (stars, cycles, complete graphs) among them."""


def answers_from_the_start(engine_class: type[Engine], symmetric: bool) -> list[tuple]:
    """(score, Ultimate result) from the empty board of each graph, and the score and result
    at every untouched position reachable on path:4 (up to 120)."""
    found = []
    for name in SYMMETRIC:
        graph = parse_graph(name)
        engine = engine_class(graph, symmetric=symmetric)
        score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
        start = engine.from_situation(ultimate.initial_situation(graph))
        found.append((name, score, deep(engine.result_given_score, start, score)))
    graph = parse_graph("path:4")
    engine = engine_class(graph, symmetric=symmetric)
    for p in ultimate_claims.reachable(engine, engine.from_situation(ultimate.initial_situation(graph)), 120):
        found.append((deep(engine.score, p), deep(engine.result, p)))
    return found


def test_symmetry_keeps_the_answers():
    """Scores and Ultimate results with the symmetry equal those without it."""
    assert answers_from_the_start(Engine, True) == answers_from_the_start(Engine, False)


class BoardSymmetryOnly(Engine):
    """Mutant: orbits of the automorphisms that fix the board, the history ignored."""

    def representatives(self, p):
        code = self.code(p[0], p[1])
        fixing = [sigma for sigma in self.automorphisms() if self.image(sigma, code) == code]
        empty = self.full & ~(p[0] | p[1])
        kept, covered = [], 0
        for v in range(self.n):
            if empty >> v & 1 and not covered >> v & 1:
                kept.append(v)
                for sigma in fixing:
                    covered |= 1 << sigma[v]
        return kept


def test_symmetry_blind_to_the_history_is_refuted():
    """Ignoring that the history must be fixed too gives wrong answers."""
    assert answers_from_the_start(BoardSymmetryOnly, True) != answers_from_the_start(Engine, False)


# --- the history condition of a loss ------------------------------------------------------------


class AskedEverything(Engine):
    """The plain condition: a loss needs every placement it asked about as it found it."""

    @staticmethod
    def loss_query(asked, history):
        """Every board asked about, legal or barred."""
        return asked


class ForgetsBarred(Engine):
    """Mutant: a loss that records nothing of the placements the history barred."""

    @staticmethod
    def loss_query(asked, history):
        """Nothing at all."""
        return 0


def results_sharing_a_table(engine_class: type[Engine], name: str, limit: int = 400) -> list[int]:
    """The Ultimate result at each of the first ``limit`` situations reachable on the graph,
    every one asked of a single engine (so that its table's proofs are reused across
    histories), against the same asked of a fresh plain engine each time."""
    graph = parse_graph(name)
    plain = AskedEverything(graph)
    start = plain.from_situation(ultimate.initial_situation(graph))
    situations = [plain.to_situation(p) for p in ultimate_claims.reachable(plain, start, limit)]
    engine = engine_class(graph)
    return [deep(engine.result, engine.from_situation(s)) for s in situations]


def fresh_results(name: str, limit: int = 400) -> list[int]:
    """The same situations as ``results_sharing_a_table``, each solved by a fresh plain engine."""
    graph = parse_graph(name)
    plain = AskedEverything(graph)
    start = plain.from_situation(ultimate.initial_situation(graph))
    found = []
    for p in ultimate_claims.reachable(plain, start, limit):
        fresh = AskedEverything(graph, frames=False)
        found.append(deep(fresh.result, fresh.from_situation(plain.to_situation(p))))
    return found


@pytest.mark.parametrize("name", ["path:3", "path:4", "grid:2x2"])
def test_a_loss_needs_only_its_barred_placements(name):
    """A loss recorded with only the placements the history barred (not those it allowed)
    gives, with one table shared by 400 situations, the results fresh plain searches give."""
    truth = fresh_results(name)
    assert len(truth) == 400 and len(set(truth)) == 3
    assert results_sharing_a_table(Engine, name) == truth


def test_a_loss_that_forgets_its_barred_placements_is_refuted():
    """Dropping the barred placements too makes a shared table give wrong results on path:3."""
    assert results_sharing_a_table(ForgetsBarred, "path:3") != fresh_results("path:3")


# --- symmetric positions share the table ----------------------------------------------------------


class BoardOnlyFrame(Engine):
    """Mutant: the board moved to its representative, the history left where it was."""

    def moved(self, bits, sigma):
        """The bits unmoved."""
        return bits


@pytest.mark.parametrize("name", ["path:4", "grid:2x2", pytest.param("atlas:18", marks=pytest.mark.slow), "atlas:29"])
def test_symmetric_positions_share_the_table(name):
    """Searching each position as the image whose board represents its class gives, with one
    table shared by 400 situations, the results of fresh plain searches (no symmetry folded
    after the early game, every placement asked kept in a loss's condition)."""
    assert results_sharing_a_table(Engine, name) == fresh_results(name)
    graph = parse_graph(name)
    engine = Engine(graph)
    deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    assert any(sigma >= 0 for _, sigma in engine.frames_of.values())  # positions were moved


def test_a_frame_that_leaves_the_history_behind_is_refuted():
    """Moving the board but not the history boards gives wrong results."""
    assert results_sharing_a_table(BoardOnlyFrame, "grid:2x2") != fresh_results("grid:2x2")


# --- moved history sets are remembered ------------------------------------------------------


class MovedSetsForgetTheAutomorphism(Engine):
    """Mutant: a moved set of history bits remembered under its bits alone, whichever
    automorphism moved it."""

    def moved(self, bits, sigma):
        """The first automorphism's image of these bits, for every automorphism."""
        return super().moved(bits, 0 if (bits, 0) in self.moved_sets else sigma)


def moved_by_hand(engine: Engine, bits: int, sigma: int) -> int:
    """The history bits with every board moved by automorphism number ``sigma``, board by board."""
    found = 0
    for number in range(bits.bit_length()):
        if bits >> number & 1:
            found |= engine.bit(engine.image(engine.symmetries[sigma], engine.codes[number]))  # type: ignore[index]
    return found


def remembered_sets_agree(engine_class: type[Engine], name: str) -> bool:
    """After a score search, every set the engine moved, moved again by every automorphism
    (each answer now from the memory or worked out afresh), is its image board by board."""
    graph = parse_graph(name)
    engine = engine_class(graph)
    deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    sets = {bits for bits, _ in engine.moved_sets}
    assert len({sigma for _, sigma in engine.moved_sets}) > 1  # several automorphisms moved sets
    return all(
        engine.moved(bits, sigma) == moved_by_hand(engine, bits, sigma)
        for bits in sorted(sets)
        for sigma in range(len(engine.automorphisms()))
    )


def test_remembered_moved_sets_are_the_images():
    """The memory of moved history sets holds, for each set and automorphism, its image."""
    assert remembered_sets_agree(Engine, "grid:2x2")


def test_moved_sets_remembered_without_their_automorphism_are_refuted():
    """Remembering a moved set under its bits alone stores wrong images."""
    assert not remembered_sets_agree(MovedSetsForgetTheAutomorphism, "grid:2x2")


# --- the hinted move order races the fixed one ----------------------------------------------------


class HintsAlways(Engine):
    """The hinted order alone, without the race (every question in that order)."""

    def decide(self, goal, p):
        """``prove``'s answer in the hinted order."""
        self.use_hints = True
        return self.prove(goal, p)[0]


class HintOnly(HintsAlways):
    """Mutant: where a hint is known, only the hinted move is tried (the others dropped)."""

    @staticmethod
    def hint_first(moves, hint):
        """The hinted move alone, if it is among the moves."""
        return [m for m in moves if m[0] == hint] or moves


@pytest.mark.parametrize("name", ["path:4", "grid:2x2"])
def test_hinted_orders_keep_the_answers(name):
    """The race of the two orders, and the hinted order alone, give with one table shared by
    400 situations the results of fresh plain searches; hints were used."""
    truth = fresh_results(name)
    assert results_sharing_a_table(Engine, name) == truth
    assert results_sharing_a_table(HintsAlways, name) == truth
    graph = parse_graph(name)
    engine = HintsAlways(graph)
    deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    assert engine.hints


def test_a_hint_that_drops_the_other_moves_is_refuted():
    """Trying only the hinted move where one is known gives wrong results."""
    assert results_sharing_a_table(HintOnly, "grid:2x2") != fresh_results("grid:2x2")
