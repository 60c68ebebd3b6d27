"""Source 000's conjectures in the whole game, with ko bids and history deletion, per graph
and per reading of :mod:`gorules.impl.rulesets.directed.full_arena`.

Each check solves the graph's arena from the empty board at one komi of each class
(:func:`gorules.impl.rulesets.directed.full_game.komis`) and reads its verdict off the
winning regions: holds, fails with a counterexample (graph, start board, komi, detail), or
unknown with why (an arena past the position limit, or a question not executed here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from gorules.impl.rulesets.directed.arena import Plan, check_plan
from gorules.impl.rulesets.directed.conjectures import Verdict
from gorules.impl.rulesets.directed.full_arena import ArenaTooLarge, FullArena, Reading
from gorules.impl.rulesets.directed.full_game import Condition, FullSolution, cached_solution, empty_board
from gorules.spec.graph import Graph

NOT_EXECUTED = {
    "score-maximising": "not executed with ko bids: its exact test (a lazy play after an error) is written for "
    "the game without them",
    "stability": "not executed with ko bids: 'eventually passes' is solved in the game without them",
    "normal-board-is-stable": "not executed with ko bids: 'eventually passes' is solved in the game without them",
    "settled-boards-independence": "not executed with ko bids: the settled boards are found in the game without them",
}


@dataclass
class Context:
    """What a check needs: the graph, the reading and the node limit."""

    graph: Graph
    reading: Reading
    max_positions: int

    def solution(self) -> FullSolution:
        """The graph's solution from the empty board (ArenaTooLarge past the limit)."""
        return cached_solution(self.graph, self.reading, (empty_board(self.graph),), self.max_positions)


def negation(condition: Callable[[int], bool]) -> Callable[[int], bool]:
    """The set of recurring colours that ``condition`` refuses: White's goal where Black's is
    ``condition``."""
    return lambda seen: not condition(seen)


def board_text(board: tuple) -> str:
    """A board as one string."""
    return "".join(board)


def drawn(solution: FullSolution) -> list[Fraction]:
    """The first player's win-or-draw komis (one per class) from the empty board."""
    return solution.drawn_komis(empty_board(solution.graph))


def shown(komis: list[Fraction]) -> str:
    """Komis as text."""
    return ", ".join(str(k) for k in komis) or "none"


def perfect_play(context: Context) -> Verdict:
    """Some komi lets both players win or draw (the first player's divide-and-choose komi)."""
    s = context.solution()
    komis = drawn(s)
    if komis:
        return Verdict("holds", f"both sides win or draw at komi {shown(komis)}")
    return Verdict(
        "fails",
        "no komi lets both sides win or draw",
        {"graph": context.graph.name, "start": board_text(empty_board(context.graph))},
    )


def komis_fail(context: Context, why: str, komis: list[Fraction]) -> Verdict:
    """A conjecture about the win-or-draw komis of the empty board that fails: ``why``, with
    the graph, the start and the komis as its counterexample."""
    return Verdict(
        "fails",
        why,
        {"graph": context.graph.name, "start": board_text(empty_board(context.graph)), "komis": shown(komis)},
    )


def going_first_is_good(context: Context) -> Verdict:
    """Some win-or-draw komi of the first player is nonnegative."""
    komis = drawn(context.solution())
    if any(k >= 0 for k in komis):
        return Verdict("holds", f"win-or-draw komi {shown(komis)}")
    return komis_fail(context, f"every win-or-draw komi is negative: {shown(komis)}", komis)


def perfect_komi(context: Context) -> Verdict:
    """Exactly one komi is win-or-draw: one class, and a point of the grid (not a gap)."""
    s = context.solution()
    komis = drawn(s)
    on_grid = [k for k in komis if (k / (2 * (s.komis[1] - s.komis[0]))).denominator == 1]
    if len(komis) == 1 and on_grid:
        return Verdict("holds", f"the one win-or-draw komi is {komis[0]}")
    return komis_fail(
        context,
        f"the win-or-draw komis are {shown(komis)} (a point strictly between two of the grid stands for the gap)",
        komis,
    )


def reasonable(context: Context) -> Verdict:
    """At every win-or-draw komi both players have win-or-draw strategies that are never
    unsustainable unless the opponent is more so."""
    s = context.solution()
    board = empty_board(context.graph)
    komis = drawn(s)
    if not komis:
        return Verdict(
            "fails", "no komi lets both sides win or draw", {"graph": context.graph.name, "start": board_text(board)}
        )
    for k in komis:
        start = s.start(board, k)
        black = start in s.solved["black-reasonable"].regions[0]
        white = start in s.solved["white-reasonable"].regions[1]
        if not (black and white):
            side = "Black" if not black else "White"
            return Verdict(
                "fails",
                f"at komi {k} {side} has no reasonable win-or-draw strategy",
                {"graph": context.graph.name, "start": board_text(board), "komi": str(k), "side": side},
            )
    return Verdict("holds", f"both sides have reasonable win-or-draw strategies at komi {shown(komis)}")


def projection(key: tuple) -> tuple:
    """A node less its score difference: what a score-independent strategy sees."""
    kind = key[0]
    if kind in ("offer", "turn", "answer", "reset"):
        return key[:4] + key[5:]
    return key


class Uniform(Plan):
    """A positional strategy that makes the same choice (an arc label) at every node of one
    projection, whatever the scores."""

    def __init__(self, arena: FullArena, player: int, choice: dict):
        self.arena = arena
        self.player = player
        self.choice = choice

    def step(self, v, memory):
        """The chosen arc's successor at the player's own nodes."""
        if self.arena.owner[v] != self.player:
            return None, None
        label = self.choice.get(projection(self.arena.positions[v]))
        if label is None:
            return None, self.arena.successors[v][0]
        return None, target_of(self.arena, v, label)


class AsAtStart(Plan):
    """A strategy that plays `plan` as though the score difference were still `e` (that of the
    start): its choices depend on the play less the scores.  Where that node is not in the
    arena or not in the plan's region, it falls back on `fallback`."""

    def __init__(self, arena: FullArena, plan: Plan, e: Fraction, fallback: Plan):
        self.arena = arena
        self.plan = plan
        self.e = e
        self.fallback = fallback

    def shifted(self, v: int) -> int | None:
        """The node like v but with the start's score difference."""
        key = self.arena.positions[v]
        if key[0] not in ("offer", "turn", "answer", "reset"):
            return v
        return self.arena.index.get(key[:4] + (self.e,) + key[5:])

    def step(self, v, memory):
        """The plan's choice at the shifted node, carried back along the same arc label."""
        u = self.shifted(v)
        if u is not None and memory != "lost":
            try:
                inner, w = self.plan.step(u, memory)
            except KeyError:
                inner, w = "lost", None
            if w is None or inner == "lost":
                return inner, None if inner != "lost" else self.fallback.step(v, None)[1]
            if u == v:
                return inner, w
            return inner, target_of(self.arena, v, self.arena.labels[u][w])
        return "lost", self.fallback.step(v, None)[1]


def target_of(arena: FullArena, v: int, label: tuple) -> int | None:
    """The successor of node v along the arc labelled `label`, or None if v has no such arc."""
    for found, target in arena.arcs(arena.positions[v]):
        if found == label:
            return arena.index[target]
    return None


def uniform_choice(arena: FullArena, region: frozenset, player: int) -> dict | None:
    """For each projection of the player's nodes in `region`, the first arc label (arcs without
    unsustainable colours first) that stays in the region from every score; None if some
    projection has none."""
    groups: dict = {}
    for v in region:
        if arena.owner[v] == player and arena.positions[v][0] in ("offer", "turn", "answer", "reset"):
            groups.setdefault(projection(arena.positions[v]), []).append(v)
    choice = {}
    for p, nodes in groups.items():
        arcs = arena.arcs(arena.positions[nodes[0]])
        labels = sorted(range(len(arcs)), key=lambda k: (arcs[k][1][0] == "via", k))
        for k in labels:
            label = arcs[k][0]
            targets = [target_of(arena, v, label) for v in nodes]
            if all(t is not None and t in region for t in targets):
                choice[p] = label
                break
        else:
            return None
    return choice


def candidates(s: FullSolution, kind: str, side: int, start: int):
    """Score-independent strategies to try, in turn: the solver's plan played as though the
    scores were those of the start, then a positional one; each falls back on the other."""
    arena = s.arena
    region = s.solved[kind].regions[side]
    choice = uniform_choice(arena, region, side) or {}
    positional = Uniform(arena, side, choice)
    yield AsAtStart(arena, s.solved[kind].plans[side], arena.positions[start][4], positional)
    if choice:
        yield positional


def score_independent(context: Context) -> Verdict:
    """At every win-or-draw komi, each player has a reasonable win-or-draw strategy whose choice
    depends on the situation less the scores: built positionally inside the winning region and
    checked on the product with the arena (holds only when the check passes)."""
    s = context.solution()
    board = empty_board(context.graph)
    komis = drawn(s)
    if not komis:
        return Verdict(
            "fails", "no komi lets both sides win or draw", {"graph": context.graph.name, "start": board_text(board)}
        )
    arena = s.arena
    for k in komis:
        start = s.start(board, k)
        for side, kind in ((0, "black-reasonable"), (1, "white-reasonable")):
            region = s.solved[kind].regions[side]
            if start not in region:
                return Verdict(
                    "fails",
                    f"at komi {k} {'BW'[side]} has no reasonable win-or-draw strategy at all",
                    {"graph": context.graph.name, "start": board_text(board), "komi": str(k)},
                )
            condition = Condition(arena, kind)
            good: Callable[[int], bool] = condition if side == 0 else negation(condition)
            if not any(check_plan(arena, plan, side, start, good) is None for plan in candidates(s, kind, side, start)):
                return Verdict(
                    "unknown",
                    f"at komi {k} neither score-independent strategy built for {'BW'[side]} (the solver's plan "
                    "played as at the start's scores, a positional one) passes the check; another may exist",
                )
    return Verdict("holds", f"score-independent reasonable strategies checked at komi {shown(komis)}")


CHECKS: dict[str, Callable[[Context], Verdict]] = {
    "perfect-play": perfect_play,
    "ko-rules-basically-work": reasonable,
    "score-independence": score_independent,
    "going-first-is-good": going_first_is_good,
    "perfect-komi": perfect_komi,
}

READINGS_OF = {
    "perfect-play": "from the empty board: some komi (one per class of komis) at which both sides win or draw",
    "ko-rules-basically-work": "reasonable: on every play, a player's unsustainability is 0 or below the "
    "opponent's; at every win-or-draw komi both sides have such win-or-draw strategies",
    "score-independence": "'such strategies' read as the reasonable win-or-draw ones; a strategy is "
    "score-independent when its choices are a function of the play less the scores; holds when one is "
    "built (the solver's plan played as though the scores were the start's, or a positional one) and "
    "checked against every reply, unknown otherwise",
    "going-first-is-good": "some win-or-draw komi of the first player on the empty board is nonnegative",
    "perfect-komi": "exactly one win-or-draw komi (a point of the grid, no interval)",
}


def check(name: str, graph: Graph, reading: Reading, max_positions: int) -> Verdict:
    """The verdict of conjecture `name` on `graph` under `reading` in the whole game."""
    if name in NOT_EXECUTED:
        return Verdict("unknown", NOT_EXECUTED[name])
    try:
        return CHECKS[name](Context(graph, reading, max_positions))
    except ArenaTooLarge as too_large:
        return Verdict("unknown", f"the arena has {too_large}, above --max-positions {max_positions:,}")
