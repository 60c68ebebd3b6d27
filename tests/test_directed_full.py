"""Source 000's whole game (ko bids, history deletion, unsustainability) on its finite arena:
the arena against the spec's turn function, the solver against a second one written apart
(tests/directed_full_brute.py), and mutants of the rules that change a verdict."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.rulesets.directed import full_arena as fa
from gorules.impl.rulesets.directed import full_conjectures as fc
from gorules.impl.rulesets.directed import full_game as fg
from gorules.impl.rulesets.directed import full_stability
from gorules.impl.rulesets.directed.arena import check_plan
from gorules.impl.rulesets.directed.arena import solve as solve_zielonka
from gorules.impl.rulesets.directed.graphs import digraphs, parse
from gorules.impl.solving.search import solve
from gorules.spec import directed
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, opponent
from tests import directed_full_brute as brute

NONE5 = (None,) * 5


def merge(labels: list[tuple]) -> tuple:
    """The parts of one turn that the arcs of a path decide, put together."""
    merged = list(NONE5)
    for label in labels:
        for k, part in enumerate(label):
            if part is not None:
                merged[k] = part
    return tuple(merged)


def arena_turns(arena: fa.FullArena, v: int) -> set:
    """(spec Turn, next node, colours) of every path from the offer v to the next offer or sink."""
    found = set()
    stack = [(v, [], 0)]
    while stack:
        u, labels, mask = stack.pop()
        for w in arena.successors[u]:
            key = arena.positions[w]
            step_labels = [*labels, arena.labels[u][w]]
            step_mask = mask | arena.colour[w] if key[0] == "via" else mask
            if key[0] in ("offer", "sink"):
                found.add((as_turn(merge(step_labels)), key, step_mask))
            else:
                stack.append((w, step_labels, step_mask))
    return found


def as_turn(label: tuple) -> directed.Turn:
    """A label (deleted_by, move, amount, winner, reset board) as a spec Turn."""
    deleted_by, move, amount, winner, reset = label
    if amount is None:
        return directed.Turn(move, deleted_by)
    return directed.Turn(move, deleted_by, directed.KoBid(amount, winner, reset))


def spec_turns(graph, arena: fa.FullArena, key: tuple) -> set:
    """(Turn, next node, colours) of every turn the spec allows from the offer `key`, with the
    arena's bid menu; resets written as the board they leave (the current one when kept)."""
    _, board, player, history, e = key
    state = directed.State(board, player, e, Fraction(0), history)
    found = set()
    moves = [PASS, *(v for v in graph.points if board[v] == EMPTY)]
    for deleted_by in (None, BLACK, WHITE):
        kept = frozenset() if deleted_by else history
        for move in moves:
            bids = [None]
            if move != PASS:
                for a in arena.amounts:
                    bids.append(directed.KoBid(a, None))
                    for winner in (BLACK, WHITE):
                        bids += [directed.KoBid(a, winner, r) for r in [None, *sorted(kept)]]
            for bid in bids:
                t = directed.Turn(move, deleted_by, bid)
                s = directed.turn(graph, state, t)
                assert s is not None, t
                mask = 0
                for who, rank in directed.unsustainable_actions(state, t):
                    mask |= arena.unsustainable_bit(who, fa.SOURCE_ACTIONS[rank - 1])
                target = arena.bounded(s.board, s.player, s.history, s.black_score - s.white_score)
                written = t
                if bid is not None and bid.winner is not None:
                    written = t._replace(bid=bid._replace(reset_to=s.board))
                found.add((written, target, mask))
    return found


def offers_of(graph, bids: str, limit: int = 400) -> tuple:
    """An arena from the empty board at komi 0, and up to `limit` of its offers."""
    reading = fa.Reading(bids)
    arena = fa.FullArena(
        graph, reading, [fa.offer_key(tuple(EMPTY for _ in graph.points), BLACK, frozenset(), Fraction(0))]
    )
    return arena, arena.offers()[:limit]


def spec_result(graph, arena: fa.FullArena, key: tuple, t: directed.Turn) -> tuple:
    """The next node and the colours of turn t from the offer `key`, by the spec; a reset to
    the board the stone made is read as keeping it."""
    _, board, player, history, e = key
    state = directed.State(board, player, e, Fraction(0), history)
    if t.bid is not None and t.bid.reset_to is not None:
        kept = frozenset() if t.deleted_by else history
        if t.bid.reset_to not in kept:
            t = t._replace(bid=t.bid._replace(reset_to=None))
    s = directed.turn(graph, state, t)
    assert s is not None, (key, t)
    mask = 0
    for who, rank in directed.unsustainable_actions(state, t):
        mask |= arena.unsustainable_bit(who, fa.SOURCE_ACTIONS[rank - 1])
    return arena.bounded(s.board, s.player, s.history, s.black_score - s.white_score), mask


@pytest.mark.parametrize("name", ["digraph:1:", "digraph:2:", "digraph:2:0>1", "digraph:0>1,1>0"])
def test_every_arc_of_the_arena_is_a_turn_of_the_spec_and_back(name):
    """From each offer: the arena's paths to the next offer lead, as spec turns, where the spec
    says with the spec's unsustainable actions; and the spec's turns lead to exactly the
    arena's (next node, colours) pairs."""
    graph = parse(name)
    arena, offers = offers_of(graph, "units")
    assert offers
    for v in offers:
        key = arena.positions[v]
        ours = arena_turns(arena, v)
        for t, target, mask in ours:
            if target[0] == "offer":
                assert spec_result(graph, arena, key, t) == (target, mask), (name, key, t)
        theirs = spec_turns(graph, arena, key)
        assert {(n, m) for _, n, m in ours} == {(n, m) for _, n, m in theirs}, (name, key)


def test_the_arena_reaches_resets_deletions_and_every_bid():
    graph = parse("digraph:0>1,1>0")
    arena, _ = offers_of(graph, "halves", 10**6)
    kinds = {key[0] for key in arena.positions}
    assert kinds == {"offer", "turn", "answer", "reset", "via", "sink"}
    amounts = {key[5] for key in arena.positions if key[0] == "answer"}
    assert amounts == set(fa.menu(2, Fraction(1, 2))) and max(amounts) == Fraction(9, 2)
    histories = {len(key[3]) for key in arena.positions if key[0] == "offer"}
    assert min(histories) == 1 and max(histories) == 5


def test_the_older_reading_marks_each_stone_and_shifts_the_ranks():
    graph = parse("digraph:2:")
    older = fa.FullArena(graph, fa.Reading("zero", "older"), [])
    source = fa.FullArena(graph, fa.Reading("zero", "source"), [])
    assert older.unsustainable_bit(BLACK, "place") == older.rank_bits(BLACK)[0]
    assert older.unsustainable_bit(WHITE, "delete") == older.rank_bits(WHITE)[4]
    assert source.unsustainable_bit(WHITE, "delete") == source.rank_bits(WHITE)[3]
    with pytest.raises(ValueError):
        source.unsustainable_bit(BLACK, "place")
    assert opponent(BLACK) == WHITE


def test_every_small_digraph_builds():
    for graph in digraphs(2):
        arena, offers = offers_of(graph, "zero")
        assert all(arena.successors[v] for v in range(len(arena.positions)))
        assert offers


# ---------------------------------------------------------------- the solver against a second one


def ours(graph, older: bool) -> dict:
    """B / draw / W from the empty board at each komi class, by the toolkit's solver (bids of 0)."""
    reading = fa.Reading("zero", "older" if older else "source")
    s = fg.full_solution(graph, reading, [fg.empty_board(graph)], kinds=("win", "win-or-draw"))
    return {k: s.outcome(fg.empty_board(graph), k) for k in s.komis}


@pytest.mark.parametrize(
    "name",
    [
        "digraph:1:",
        pytest.param("digraph:2:", marks=pytest.mark.slow),
        pytest.param("digraph:2:0>1", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("older", [False, True])
def test_the_second_solver_agrees_on_two_points(name, older):
    graph = parse(name)
    mine = ours(graph, older)
    assert mine == brute.outcomes(graph, list(mine), older=older)


@pytest.mark.slow
@pytest.mark.parametrize("older", [False, True])
def test_the_second_solver_agrees_on_one_pair(older):
    graph = parse("digraph:0>1,1>0")
    mine = ours(graph, older)
    assert mine == brute.outcomes(graph, list(mine), older=older)
    drawn = [k for k, o in mine.items() if o == "draw"]
    assert drawn == ([-1, Fraction(-1, 2), 0, Fraction(1, 2), 1] if older else [0])


def test_a_pair_is_worth_nothing_and_the_older_reading_gives_it_a_point_of_leeway():
    """The source: isolated pairs are worth 0; with placing unsustainable, a lead of one point
    (a pair's stone) or less is a draw."""
    graph = parse("digraph:0>1,1>0")
    assert [k for k, o in ours(graph, False).items() if o == "draw"] == [0]
    assert [k for k, o in ours(graph, True).items() if o == "draw"] == [-1, Fraction(-1, 2), 0, Fraction(1, 2), 1]


# ---------------------------------------------------------------- mutants of the rules


class NoDeletion(fa.FullArena):
    """The mutant without history deletion."""

    def may_delete(self) -> bool:
        return False


def verdicts(graph, arena_type=fa.FullArena) -> tuple:
    """Perfect komi and reasonable-strategy verdicts from the empty board (bids of 0)."""
    s = fg.full_solution(graph, fa.Reading("zero"), [fg.empty_board(graph)], arena_type=arena_type)
    board = fg.empty_board(graph)
    drawn = s.drawn_komis(board)
    reasonable = all(
        s.start(board, k) in s.solved["black-reasonable"].regions[0]
        and s.start(board, k) in s.solved["white-reasonable"].regions[1]
        for k in drawn
    )
    return drawn, reasonable


def test_forbidding_deletion_changes_the_verdicts_on_a_stone_with_two_dead_ends():
    """On 0>1, 0>2 a Black stone on 0 always lives, worth one point; without deletion the empty
    board stays in the history for ever, White's ko wins keep resetting to it, and no komi is
    the only one: the history deletion rule is what lets Black keep the point."""
    graph = parse("digraph:3:0>1,0>2")
    assert verdicts(graph) == ([1], True)
    drawn, reasonable = verdicts(graph, NoDeletion)
    assert drawn == [-1, Fraction(-1, 2), 0, Fraction(1, 2), 1] and not reasonable


# ---------------------------------------------------------------- the command and the solve capability


def test_the_full_table_names_each_reading(capsys):
    assert main(["conjectures", "000", "--full", "--points", "1"]) == 0
    out = capsys.readouterr().out
    assert "whole game, bids=halves unsustainable=source" in out
    assert "whole game, bids=halves unsustainable=older" in out
    assert "perfect-play                      1      1      0        0" in out


def test_an_arena_past_the_limit_is_unknown_naming_the_flag(capsys):
    assert (
        main(["conjectures", "000", "--full", "--points", "2", "--max-positions", "100", "--only", "perfect-play"]) == 0
    )
    assert "above --max-positions 100" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--option", "bids=thirds"], "unknown value"),
        (["--option", "passes=forever"], "unknown reading"),
        (["--points", "4"], "must be 1..3"),
        (["--graph", "path:3"], "--full goes with"),
        (["--pairs", "5"], "must be 0..3"),
        (["--max-positions", "-5"], "at least 1"),
        (["--max-positions", "0"], "at least 1"),
    ],
)
def test_bad_full_input_is_one_line_and_exit_2(argv, words, capsys):
    assert main(["conjectures", "000", "--full", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err, err


def test_the_solve_capability_names_the_whole_games_reading():
    solution = solve(rulesets.make("directed").initial(parse("digraph:2:")))
    assert solution.value == 0
    assert solution.details["whole_game"]["readings"] == {"bids": "halves", "unsustainable": "source"}
    assert "bids=halves unsustainable=source" in solution.method
    assert "whole game" in solution.note


# ---------------------------------------------------------------- plans played and scored by the spec


@pytest.mark.parametrize(
    "name, bids",
    [
        ("digraph:3:0>1,0>2", "zero"),
        ("digraph:2:0>1", "zero"),
        pytest.param("digraph:0>1,1>0", "units", marks=pytest.mark.slow),
    ],
)
def test_the_value_plans_play_is_a_draw_under_the_specs_outcome(name, bids):
    """Black's win-or-draw plan against White's, at each drawn komi, makes a lasso of spec
    turns that the spec's own outcome scores as a draw."""
    graph = parse(name)
    s = fg.full_solution(graph, fa.Reading(bids), [fg.empty_board(graph)])
    board = fg.empty_board(graph)
    assert s.drawn_komis(board)
    for k in s.drawn_komis(board):
        prefix, cycle = fg.value_play(s, board, k)
        assert directed.outcome(graph, directed.starting_situation(graph, k), prefix, cycle) == "draw"


def test_black_deletes_the_history_once_to_keep_its_point():
    """On 0>1, 0>2 the value play shows the deletion rule at work: Black's stone on 0, then a
    deletion by Black, then passes for ever."""
    graph = parse("digraph:3:0>1,0>2")
    s = fg.full_solution(graph, fa.Reading("zero"), [fg.empty_board(graph)])
    prefix, cycle = fg.value_play(s, fg.empty_board(graph), 1)
    assert prefix[0] == directed.Turn(0) and prefix[1].deleted_by == BLACK
    assert all(t == directed.Turn(PASS) for t in cycle)


def test_a_komi_inside_a_gap_is_not_the_one_perfect_komi(monkeypatch):
    """A single drawn komi strictly between two points of the score grid stands for an open
    interval of komis: perfect-komi fails there."""
    graph = parse("digraph:1:")
    monkeypatch.setattr(fc, "drawn", lambda solution: [Fraction(1, 4)])
    context = fc.Context(graph, fa.Reading("halves"), 10**5)
    assert fc.perfect_komi(context).status == "fails"
    monkeypatch.setattr(fc, "drawn", lambda solution: [Fraction(1, 2)])
    assert fc.perfect_komi(context).status == "holds"


# ---------------------------------------------------------------- positive bids, the other mutants, stability


@pytest.mark.parametrize(
    "bids, older",
    [
        ("units", False),
        pytest.param("units", True, marks=pytest.mark.slow),
        pytest.param("halves", False, marks=pytest.mark.slow),
    ],
)
def test_the_second_solver_agrees_with_positive_bids_on_one_point(bids, older):
    graph = parse("digraph:1:")
    reading = fa.Reading(bids, "older" if older else "source")
    s = fg.full_solution(graph, reading, [fg.empty_board(graph)], kinds=("win", "win-or-draw"))
    mine = {k: s.outcome(fg.empty_board(graph), k) for k in s.komis}
    assert len(s.arena.amounts) > 1
    assert mine == brute.outcomes(graph, list(mine), older=older, step=reading.step)
    assert [k for k, o in mine.items() if o == "draw"] == [0]


class SwappedOrder(fa.FullArena):
    """The mutant whose unsustainability order is reversed (deleting the history least)."""

    def unsustainable_bit(self, player, action):
        return self.rank_bits(player)[self.rank_count - 1 - self.reading.actions.index(action)]


class LoopResets(fa.FullArena):
    """The mutant whose ko winner may only keep the board or take back the bidder's stone (a
    board of the history from which that stone makes the current one)."""

    def resets(self, board, history, bidder):
        back = [
            b
            for b in sorted(history)
            if b != board
            and any(b[v] == EMPTY and directed.place(self.graph, b, v, bidder) == board for v in range(len(b)))
        ]
        return [board, *back]


def offer_outcomes(graph, arena_type) -> dict:
    """B / draw / W at every offer reached from every board at every komi class (bids of 0)."""
    boards = [tuple(b) for b in product(".BW", repeat=graph.order)]
    s = fg.full_solution(graph, fa.Reading("zero"), boards, kinds=("win", "win-or-draw"), arena_type=arena_type)
    found = {}
    for v in s.arena.offers():
        won = v in s.solved["win"].regions[0]
        found[s.arena.positions[v]] = BLACK if won else ("draw" if v in s.solved["win-or-draw"].regions[0] else WHITE)
    return found


def test_the_swapped_order_is_in_force_and_puts_deletion_lowest():
    arena = SwappedOrder(parse("digraph:2:"), fa.Reading("zero"), [])
    assert arena.unsustainable_bit(BLACK, "delete") == arena.rank_bits(BLACK)[0]
    assert arena.unsustainable_bit(WHITE, "bid") == arena.rank_bits(WHITE)[3]


def test_loop_resets_take_back_only_the_bidders_stone():
    """On the pair White's stone on 1 makes .W from .. and from B. (capturing), not from W."""
    graph = parse("digraph:0>1,1>0")
    history = frozenset({("B", "."), (".", "."), ("W", ".")})
    assert LoopResets(graph, fa.Reading("zero"), []).resets((".", "W"), history, WHITE) == [
        (".", "W"),
        (".", "."),
        ("B", "."),
    ]
    assert ("W", ".") in fa.FullArena(graph, fa.Reading("zero"), []).resets((".", "W"), history, WHITE)


@pytest.mark.parametrize("name", ["digraph:2:0>1", "digraph:0>1,1>0"])
def test_the_order_and_the_resets_change_no_value_on_two_points(name):
    """On two points the swapped order and the restricted resets leave the outcome of every
    offer reached from every board as it is (docs/directed.md says why)."""
    graph = parse(name)
    base = offer_outcomes(graph, fa.FullArena)
    assert set(base.values()) == {BLACK, "draw", WHITE}
    assert offer_outcomes(graph, SwappedOrder) == base
    assert offer_outcomes(graph, LoopResets) == base


class NoDeletionMarked(fa.MarkedArena):
    """The mutant without history deletion, with stones coloured for stability."""

    def may_delete(self) -> bool:
        return False


def classes_on(graph, arena_type) -> dict:
    """The stability class at every start board and drawn komi (bids of 0)."""
    boards = [tuple(b) for b in product(".BW", repeat=graph.order)]
    kinds = ("win", "win-or-draw", *fg.SETTLING)
    s = fg.full_solution(graph, fa.Reading("zero"), boards, kinds, arena_type=arena_type)
    return {(b, k): full_stability.class_at(s, b, k) for b in boards for k in s.drawn_komis(b)}


def test_forbidding_deletion_changes_stability_on_two_isolated_points():
    """Two isolated points, a Black stone on one (it has no liberty, and nothing removes it):
    with deletion both sides can settle; without it only Black can."""
    graph = parse("digraph:2:")
    assert set(classes_on(graph, fa.MarkedArena).values()) == {"stable"}
    mutant = classes_on(graph, NoDeletionMarked)
    assert mutant[(("B", "."), 0)] == "mixed (only Black can settle)"


# ---------------------------------------------------------------- the last four conjectures, bids of 0


def full_verdict(name: str, graph: str, order: str = "source"):
    """One conjecture's verdict in the whole game with bids of 0."""
    return fc.check(name, parse(graph), fa.Reading("zero", order), 10**6)


def test_stability_holds_on_isolated_points_and_fails_where_a_full_board_settles():
    assert full_verdict("stability", "digraph:2:").status == "holds"
    verdict = full_verdict("stability", "digraph:2:0>1")
    assert verdict.status == "fails"
    assert "unstable from .. at komi 0" in verdict.detail and "stable from BB at komi 2" in verdict.detail


def test_the_older_order_splits_the_empty_board_of_a_stone_and_a_dead_end():
    """Under the older order the drawn komis of 0>1 run from −1 to 1; at the ends only the side
    the komi favours can settle."""
    verdict = full_verdict("stability", "digraph:2:0>1", "older")
    assert "mixed (only Black can settle) from .. at komi -1" in verdict.detail
    assert "mixed (only White can settle) from .. at komi 1" in verdict.detail


def test_the_one_by_two_grid_is_the_unstable_pair():
    graph = full_stability.grids_within(2)[1]
    verdict = fc.check("normal-board-is-stable", graph, fa.Reading("zero"), 10**6)
    assert verdict.status == "fails" and verdict.detail == "unstable from .. at komi 0"


def test_the_one_sum_on_two_points_is_a_point_beside_a_point_settled_empty():
    sums = full_stability.settled_sums(2, fa.Reading("zero"), 10**6)
    assert list(sums) == ["digraph:2:"]
    assert [(h.name, s.name, board) for h, s, board in sums["digraph:2:"][1]] == [("digraph:1:", "digraph:1:", (".",))]
    assert full_verdict("settled-boards-independence", "digraph:2:").status == "holds"


def test_score_maximising_holds_under_the_source_and_fails_with_the_older_leeway():
    assert full_verdict("score-maximising", "digraph:2:0>1").status == "holds"
    verdict = full_verdict("score-maximising", "digraph:2:0>1", "older")
    assert verdict.status == "fails"
    assert verdict.counterexample["komi"] == "-1" and verdict.counterexample["settles_for"] == "0"
    assert verdict.counterexample["line"] == {"prefix": ["pass", "0"], "cycle": ["pass", "pass"]}


def test_the_lazy_line_is_a_draw_under_the_specs_outcome():
    """The printed lazy play, scored by the spec: White's stone on 0 lives and the komi of −1
    pays it back, a draw."""
    graph = parse("digraph:2:0>1")
    line = full_verdict("score-maximising", "digraph:2:0>1", "older").counterexample["line"]
    prefix = [directed.Turn(PASS if w == "pass" else int(w)) for w in line["prefix"]]
    cycle = [directed.Turn(PASS) for _ in line["cycle"]]
    assert directed.outcome(graph, directed.starting_situation(graph, Fraction(-1)), prefix, cycle) == "draw"


@pytest.mark.parametrize("board, komi, stable", [("BB", 2, True), ("..", 0, False)])
def test_the_settling_plans_are_checked_against_every_reply(board, komi, stable):
    """On 0>1 with bids of 0: from BB both settling plans win their games; from the empty board
    both sides' plans against settling win theirs (each plan checked on the product with the
    arena, apart from the solver)."""
    graph = parse("digraph:2:0>1")
    s = fg.full_solution(
        graph, fa.Reading("zero"), [tuple(board)], ("win", "win-or-draw", *fg.SETTLING), 10**6, fa.MarkedArena
    )
    start = s.start(tuple(board), Fraction(komi))
    for kind in fg.SETTLING:
        condition = fg.Condition(s.arena, kind)
        side = (0 if kind == "black-settles" else 1) if stable else (1 if kind == "black-settles" else 0)
        good = condition if side == 0 else fc.negation(condition)
        assert start in s.solved[kind].regions[side]
        assert check_plan(s.arena, s.solved[kind].plans[side], side, start, good) is None


def test_with_bids_the_lazy_plays_on_one_point_are_refuted_for_positional_strategies():
    """On one point, after White's bid gives Black a point, Black could give it back by a bid
    of its own; a strategy positional on the situation less the scores cannot, since White can
    bring about the same situation without the gift, where giving back loses."""
    context = fc.Context(parse("digraph:1:"), fa.Reading("units"), 10**6)
    s = context.solution()
    cache: dict = {}
    lazies = list(fc.lazy_plays(s, cache, every=True))
    assert lazies and all(fc.refuted(s, lazy, cache) for lazy in lazies)
    assert fc.score_maximising(context).status == "holds"


class Sustainably(fg.Condition):
    """Black's condition that `side` meets its goal while never unsustainable for ever: for
    Black, winning (`kind` "win") or winning or drawing; for White, the complement of Black's
    `kind`, that is winning or drawing when Black's kind is "win", winning otherwise."""

    def __init__(self, arena, kind: str, side: int):
        super().__init__(arena, kind)
        self.side = side

    def _meets(self, seen: int) -> bool:
        black, white = self.ranks(seen)
        tie = self.tie(seen)
        if self.side == 0:
            return black == 0 and (white > 0 or (tie > 0 if self.kind == "win" else tie >= 0))
        return not (white == 0 and (black > 0 or (tie <= 0 if self.kind == "win" else tie < 0)))


@pytest.mark.parametrize("name", ["digraph:2:0>1", "digraph:0>1,1>0"])
def test_under_the_source_order_every_result_is_reached_sustainably(name):
    """Why the swapped order changes no value: at every offer from every board, each side's
    winning (and win-or-draw) region is that of the same goal met without being unsustainable
    for ever; such a strategy meets its goal under any order of the unsustainable actions."""
    graph = parse(name)
    boards = [tuple(b) for b in product(".BW", repeat=graph.order)]
    s = fg.full_solution(graph, fa.Reading("zero"), boards, kinds=("win", "win-or-draw"))
    for kind in ("win", "win-or-draw"):
        for side in (0, 1):
            condition = Sustainably(s.arena, kind, side)
            sustainable = solve_zielonka(s.arena, condition, children_of=condition.children).regions[side]
            assert sustainable == s.solved[kind].regions[side], (kind, side)
