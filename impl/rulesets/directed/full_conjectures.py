"""Source 000's conjectures in the whole game, with ko bids and history deletion, per graph
and per reading of :mod:`gorules.impl.rulesets.directed.full_arena`.

Each check solves the graph's arena from the empty board at one komi of each class
(:func:`gorules.impl.rulesets.directed.full_game.komis`) and reads its verdict off the
winning regions: holds, fails with a counterexample (graph, start board, komi, detail), or
unknown with why (an arena past the position limit, or a question not executed here).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from gorules.impl.rulesets.directed import full_stability
from gorules.impl.rulesets.directed.arena import Plan, _components, attractor, check_plan, losing_cycle, solve
from gorules.impl.rulesets.directed.conjectures import Verdict, board_text
from gorules.impl.rulesets.directed.full_arena import SINK, ArenaTooLarge, FullArena, Reading
from gorules.impl.rulesets.directed.full_game import (
    Condition,
    FullSolution,
    Guarantee,
    cached_solution,
    empty_board,
    turns_of,
)
from gorules.impl.rulesets.directed.positional import (
    Found,
    Question,
    Uniform,
    backward,
    forward,
    projection,
    region_edges,
    search,
    target_of,
)
from gorules.spec.directed import Directed
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, WHITE

NOT_EXECUTED: dict[str, str] = {}
"""The conjectures reported unknown in the whole game without being run (none)."""


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


def written(graph: Graph, turn) -> str:
    """A turn of the spec as ``gorules play`` reads it: the ruleset's own ``move_text``."""
    return Directed().move_text(graph, turn)


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


# ------------------------------------------------------------------ score-maximising


REASONABLE = ("black-reasonable", "white-reasonable")

SEARCH_CALLS = 250
"""The calls of the SAT solver after which the exhaustive search of a side and komi is stopped
and its verdict left unknown, so that a graph too large for it cannot hold the run for ever."""


def relative_tie(condition: Condition, seen: int, side: int) -> Fraction:
    """The side's final score minus the other's, when neither is unsustainable."""
    tie = condition.tie(seen)
    return tie if side == 0 else -tie


def lazy_components(arena: FullArena, edges: dict, side: int) -> dict:
    """floor c -> the nodes of the strongly connected sets of sustainable nodes (no
    unsustainable action, no sink) inside which some cycle ends the play with the side ahead
    by exactly c ≥ 0: where a win-or-draw strategy can settle for c."""
    condition = Condition(arena, "win")
    quiet = {v for v in edges if arena.positions[v][0] not in ("via", "sink")}
    quiet_edges = {v: [w for w in edges[v] if w in quiet] for v in quiet}
    colour = {v: arena.colour[v] for v in quiet}
    found: dict = {}
    for component in _components(quiet, quiet_edges):
        sub = {v: [w for w in quiet_edges[v] if w in component] for v in component}
        es = {e for e, bit in arena.e_bits.items() if any(colour[v] & bit for v in component)}
        floors = {(e if side == 0 else -e) + m for e in es for m in range(-arena.order, arena.order + 1)}
        for c in sorted(f for f in floors if f >= 0):
            if losing_cycle(sub, colour, ends_elsewhere(condition, side, c)) is not None:
                found.setdefault(c, set()).update(component)
    return found


def ends_elsewhere(condition: Condition, side: int, floor: Fraction) -> Callable[[int], bool]:
    """Whether a sustainable play with these recurring colours ends other than at exactly
    `floor` for `side` (the cycles searched are those where this is false)."""

    def elsewhere(seen: int) -> bool:
        return relative_tie(condition, seen, side) != floor

    return elsewhere


@dataclass
class Lazy:
    """A lazy play after an error: from the offer `reached` the side could guarantee more than
    `floor`, yet it can go on to `component`, where it can settle, winning or drawing, for
    exactly `floor`."""

    side: int
    komi: Fraction
    start: int
    reached: int
    floor: Fraction
    component: set
    edges: dict


def guarantee_region(s: FullSolution, side: int, floor: Fraction, cache: dict) -> frozenset:
    """The nodes from which `side` guarantees more than `floor` over a sustainable opponent."""
    if (side, floor) not in cache:
        condition = Guarantee(s.arena, floor, side)
        cache[(side, floor)] = solve(s.arena, condition, children_of=condition.children).regions[side]
    return cache[(side, floor)]


class SinkLost:
    """The arena with the side's own sink coloured as the side's most unsustainable action, so
    that a guarantee counts it as not kept (a game graph for Zielonka's algorithm)."""

    def __init__(self, arena: FullArena, side: int):
        self.positions = arena.positions
        self.owner = arena.owner
        self.successors = arena.successors
        self.predecessors = arena.predecessors
        self.colour = list(arena.colour)
        sink = arena.index.get(SINK[BLACK if side == 0 else WHITE])
        if sink is not None:
            self.colour[sink] = arena.rank_bits(BLACK if side == 0 else WHITE)[-1]


def grain(arena: FullArena) -> Fraction:
    """The least positive difference between score differences of the arena and the window's
    ends ±n: one over the common denominator of every e met and every bid amount."""
    denominators = [e.denominator for e in arena.e_bits] + [a.denominator for a in arena.amounts]
    return Fraction(1, math.lcm(1, *denominators))


def sure_region(s: FullSolution, side: int, floor: Fraction, cache: dict) -> frozenset:
    """The nodes from which `side` surely guarantees more than `floor` over a sustainable
    opponent.  A play that reaches the side's sink has left the e window [−n, n] with e past
    ±n by at least the grain, and the side keeps that e while the live margin costs at most
    n, so it keeps more than any floor below the grain; above it the sink is counted as not
    kept.  This region is inside :func:`guarantee_region`'s, which counts the sink as kept
    at every floor."""
    if floor < grain(s.arena):
        return guarantee_region(s, side, floor, cache)
    if ("sure", side, floor) not in cache:
        condition = Guarantee(s.arena, floor, side)
        game = SinkLost(s.arena, side)
        cache[("sure", side, floor)] = solve(game, condition, children_of=condition.children).regions[side]
    return cache[("sure", side, floor)]


def lazy_plays(s: FullSolution, cache: dict, every: bool = False) -> Iterator[Lazy]:
    """The lazy plays after an error, at each drawn komi from the empty board, for either side:
    an offer that the side's reasonable win-or-draw play reaches when the opponent errs, from
    which the side guarantees more than some floor c ≥ 0, and from which it can go on, still
    in its region, to sustainable nodes where a cycle ends the play at exactly c.  The first
    offer of each side, komi and floor, or with `every` all of them."""
    arena = s.arena
    board = empty_board(s.graph)
    for side, kind in enumerate(REASONABLE):
        region = s.solved[kind].regions[side]
        edges = region_edges(arena, region, side)
        lazy = lazy_components(arena, edges, side)
        for k in drawn(s):
            start = s.start(board, k)
            if start not in edges:
                continue
            reach = forward(edges, start)
            for c, component in sorted(lazy.items()):
                able = backward({v: edges[v] for v in reach if v in edges}, component & reach)
                better = guarantee_region(s, side, c, cache) if able else frozenset()
                for q in sorted(able):
                    if arena.positions[q][0] == "offer" and q in better:
                        yield Lazy(side, k, start, q, c, component & reach, edges)
                        if not every:
                            break


def refuted(s: FullSolution, lazy: Lazy, cache: dict) -> bool:
    """Whether no reasonable win-or-draw strategy positional on the situations less the scores
    can settle for the floor from the lazy offer: the opponent can force, from the start,
    against every choice of the side that stays in its winning region (as such a strategy's
    do), the play to the same situation with a score worse for the side by more than the
    floor.  From there such a strategy makes the same choices, the opponent the same replies,
    and the same cycle ends the play below 0 for the side."""
    arena = s.arena
    key = arena.positions[lazy.reached]
    bound = key[4] - lazy.floor if lazy.side == 0 else key[4] + lazy.floor
    if "offers" not in cache:
        grouped: dict = {}
        for v in arena.offers():
            grouped.setdefault(projection(arena.positions[v]), []).append(v)
        cache["offers"] = grouped
    memo = (lazy.side, projection(key), bound)
    if memo not in cache:
        worse = [
            v
            for v in cache["offers"][projection(key)]
            if (arena.positions[v][4] < bound if lazy.side == 0 else arena.positions[v][4] > bound)
        ]
        region = s.solved[REASONABLE[lazy.side]].regions[lazy.side]
        cache[memo] = attractor(arena, region, [v for v in worse if v in region], 1 - lazy.side)[0]
    return lazy.start in cache[memo]


def lazy_question(
    s: FullSolution,
    side: int,
    komi: Fraction,
    cache: dict,
    key: Callable[[tuple], tuple] = projection,
    sure: bool = False,
) -> Question:
    """The question of :func:`gorules.impl.rulesets.directed.positional.search` for `side` at
    `komi` from the empty board: its reasonable win-or-draw goal, its guarantees (counting the
    side's sink as kept, or with `sure` only where it surely is: :func:`sure_region`), and as
    floors every final score c ≥ 0 of the side over the other that a play can end with
    (± e plus a live margin between −n and n); `key` gives the classes of the strategies."""
    arena = s.arena
    kind = REASONABLE[side]
    condition = Condition(arena, kind)
    n = arena.order
    floors = sorted({(e if side == 0 else -e) + m for e in arena.e_bits for m in range(-n, n + 1)})
    return Question(
        arena,
        side,
        s.start(empty_board(s.graph), komi),
        s.solved[kind].regions[side],
        condition if side == 0 else negation(condition),
        lambda c: (sure_region if sure else guarantee_region)(s, side, c, cache),
        [c for c in floors if c >= 0],
        key,
        condition,
    )


def path(edges: dict, source: int, targets: set) -> list[int] | None:
    """A shortest path (its nodes) from `source` to a node of `targets`, or None."""
    parent: dict = {source: None}
    queue = [source]
    for v in queue:
        if v in targets:
            found = [v]
            while parent[found[-1]] is not None:
                found.append(parent[found[-1]])
            return found[::-1]
        for w in edges.get(v, []):
            if w not in parent:
                parent[w] = v
                queue.append(w)
    return None


def settling_cycle(arena: FullArena, lazy: Lazy, entry: int) -> list[int] | None:
    """A simple cycle through `entry` inside the lazy component whose play ends exactly at the
    floor, or None."""
    condition = Condition(arena, "win")
    inside = {v: [w for w in lazy.edges[v] if w in lazy.component] for v in lazy.component}
    for w in inside[entry]:
        back = path(inside, w, {entry})
        if back is None:
            continue
        cycle = [entry, *back[:-1]]
        seen = 0
        for v in cycle:
            seen |= arena.colour[v]
        if relative_tie(condition, seen, lazy.side) == lazy.floor:
            return cycle
    return None


def lazy_strategy(s: FullSolution, lazy: Lazy) -> tuple[Uniform, list[int], list[int]] | None:
    """A positional strategy on the nodes less their scores (hence score-independent) that plays
    the side's first choice staying in its region, except along a path from the start to the
    lazy offer and on to a settling cycle, where it follows them; returned with the way to the
    cycle (its nodes before the cycle's) and the cycle if it is reasonable and win-or-draw from
    the start (checked), else None."""
    arena = s.arena
    kind = REASONABLE[lazy.side]
    region = s.solved[kind].regions[lazy.side]
    choice = uniform_choice(arena, region, lazy.side)
    if choice is None:
        return None
    to_q = path(lazy.edges, lazy.start, {lazy.reached})
    to_cycle = path(lazy.edges, lazy.reached, lazy.component)
    if to_q is None or to_cycle is None:
        return None
    cycle = settling_cycle(arena, lazy, to_cycle[-1])
    if cycle is None:
        return None
    walk = [*to_q, *to_cycle[1:], *cycle[1:], cycle[0]]
    forced: dict = {}
    for v, w in pairwise(walk):
        if arena.owner[v] != lazy.side or arena.positions[v][0] not in ("offer", "turn", "answer", "reset"):
            continue
        label = arena.labels[v][w]
        if forced.setdefault(projection(arena.positions[v]), label) != label:
            return None
    strategy = Uniform(arena, lazy.side, {**choice, **forced})
    condition = Condition(arena, kind)
    good: Callable[[int], bool] = condition if lazy.side == 0 else negation(condition)
    if check_plan(arena, strategy, lazy.side, lazy.start, good) is not None:
        return None
    return strategy, [*to_q[:-1], *to_cycle[:-1]], cycle


def score_maximising(context: Context) -> Verdict:
    """Every reasonable, score-independent, win-or-draw strategy guarantees, after any error of
    the opponent, the most that the position reached allows.  Holds when no reasonable
    win-or-draw strategy at all (score-independent or not) can be lazy after an error, or
    when every lazy play found is refuted for the strategies positional on the situations
    less the scores (:func:`refuted`); fails when such a positional strategy is built and
    checked to be reasonable, win-or-draw and lazy where the side surely guarantees more
    (:func:`sure_region`); otherwise the exhaustive search decides the lazy plays left
    (:func:`exhaustive`), or leaves them unknown after :data:`SEARCH_CALLS` calls of its solver."""
    s = context.solution()
    cache: dict = {}
    first = None
    for lazy in lazy_plays(s, cache):
        first = first or lazy
        found = lazy_strategy(s, lazy)
        if found is not None and lazy.reached in sure_region(s, lazy.side, lazy.floor, cache):
            return lazy_verdict(context, s, lazy, found[1], found[2])
    if first is None:
        return Verdict("holds", f"no reasonable win-or-draw strategy is lazy after an error (komi {shown(drawn(s))})")
    left = [lazy for lazy in lazy_plays(s, cache, every=True) if not refuted(s, lazy, cache)]
    if not left:
        return Verdict(
            "holds",
            f"every lazy play after an error (komi {shown(drawn(s))}) is refuted for positional strategies: "
            "the opponent can force the same situation with a worse score",
        )
    return exhaustive(context, s, cache, left, SEARCH_CALLS)


def exhaustive(context: Context, s: FullSolution, cache: dict, left: list[Lazy], rounds: int | None) -> Verdict:
    """The verdict of the exhaustive search (:func:`gorules.impl.rulesets.directed.positional.search`)
    for each side and komi of the lazy plays `left`: fails with the first good lazy strategy
    found whose offer surely guarantees more than its floor (:func:`surely_lazy`), holds
    when each search ends without one, unknown when one is stopped unfinished after `rounds`
    calls of the solver or finds a strategy lazy only where the side's sink is counted as kept."""
    sizes = []
    for side, komi in sorted({(lazy.side, lazy.komi) for lazy in left}):
        answer = search(lazy_question(s, side, komi, cache), rounds)
        what = f"{'BW'[side]} at komi {komi}: {answer.classes} classes, {answer.choices} choices"
        if answer.found is not None:
            found = surely_lazy(s, side, komi, cache, answer.found, rounds)
            if found is None:
                return stopped(s, left[0], f"a positional one ({what}) is lazy only if the side's sink is kept")
            lazy = Lazy(
                side, komi, s.start(empty_board(s.graph), komi), found.reached, found.floor, set(found.cycle), {}
            )
            return lazy_verdict(context, s, lazy, found.way, found.cycle)
        if not answer.finished:
            return stopped(
                s,
                left[0],
                f"the exhaustive search for a positional one ({what}) was stopped after {rounds:,} calls of the solver",
            )
        sizes.append(
            f"{what}, {answer.refuted} strategies refuted by a losing play, {answer.excluded} classes named by their clauses"
        )
    return Verdict(
        "holds",
        "no strategy positional on the situations less the scores is reasonable, win-or-draw and lazy: "
        "exhaustive SAT search (" + "; ".join(sizes) + ")",
    )


def surely_lazy(
    s: FullSolution, side: int, komi: Fraction, cache: dict, found: Found, rounds: int | None
) -> Found | None:
    """A good lazy strategy whose offer surely guarantees more than its floor (:func:`sure_region`):
    `found` if its own does, else the search's answer when the guarantees count the side's
    sink as kept only where it surely is (None if it finds none)."""
    if found.reached in sure_region(s, side, found.floor, cache):
        return found
    return search(lazy_question(s, side, komi, cache, sure=True), rounds).found


def stopped(s: FullSolution, lazy: Lazy, why: str) -> Verdict:
    """The unknown verdict of a lazy play that the exhaustive search did not decide, and why."""
    q = s.arena.positions[lazy.reached]
    return Verdict(
        "unknown",
        f"at komi {lazy.komi} a reasonable win-or-draw strategy of {'BW'[lazy.side]} can, after an error leads to "
        f"{board_text(q[1])} ({q[2]} to move, score difference {q[4]}), settle for {lazy.floor}, less than it can "
        f"guarantee there; {why}",
    )


def lazy_verdict(context: Context, s: FullSolution, lazy: Lazy, walk: list[int], cycle: list[int]) -> Verdict:
    """The failing verdict of a checked lazy strategy, with its play against the cooperating
    opponent as turns: the way to the settling cycle, then the cycle."""
    arena = s.arena
    q = arena.positions[lazy.reached]
    first = next(k for k, v in enumerate(cycle) if arena.positions[v][0] == "offer")
    loop = cycle[first:] + cycle[:first]
    prefix = walk + cycle[:first]
    side = "BW"[lazy.side]
    where = (
        "at the start" if lazy.reached == lazy.start else f"after an error leads to {board_text(q[1])} ({q[2]} to move)"
    )
    return Verdict(
        "fails",
        f"at komi {lazy.komi} a reasonable, score-independent, win-or-draw strategy of {side}, {where}, settles for "
        f"{lazy.floor} though more can be guaranteed against a sustainable opponent",
        {
            "graph": context.graph.name,
            "start": board_text(empty_board(context.graph)),
            "komi": str(lazy.komi),
            "side": side,
            "reached": board_text(q[1]),
            "settles_for": str(lazy.floor),
            "line": {
                "prefix": [written(context.graph, t) for t in (turns_of(arena, prefix, loop[0]) if prefix else [])],
                "cycle": [written(context.graph, t) for t in turns_of(arena, loop, loop[0])],
            },
        },
    )


def on_graph(check: Callable[[Graph, Reading, int], Verdict]) -> Callable[[Context], Verdict]:
    """A check of :mod:`gorules.impl.rulesets.directed.full_stability` as a check of a context."""

    def on_context(context: Context) -> Verdict:
        return check(context.graph, context.reading, context.max_positions)

    return on_context


CHECKS: dict[str, Callable[[Context], Verdict]] = {
    "perfect-play": perfect_play,
    "ko-rules-basically-work": reasonable,
    "score-independence": score_independent,
    "going-first-is-good": going_first_is_good,
    "perfect-komi": perfect_komi,
    "score-maximising": score_maximising,
    "stability": on_graph(full_stability.stability),
    "normal-board-is-stable": on_graph(full_stability.normal_board_is_stable),
    "settled-boards-independence": on_graph(full_stability.settled_komi),
}


def members(name: str, graphs: list[Graph], points: int, reading: Reading, max_positions: int) -> list[Graph]:
    """The graphs conjecture `name` is checked on: the small grids for the normal board, the sums
    of a digraph and a settled board for the settled boards (both on at most `points` points),
    and `graphs` for the others."""
    if name == "normal-board-is-stable":
        return full_stability.grids_within(points)
    if name == "settled-boards-independence":
        try:
            sums = full_stability.settled_sums(points, reading, max_positions)
        except ArenaTooLarge:
            return []
        return sorted((g for g, _ in sums.values()), key=lambda g: (g.order, len(g.edges()), g.name))
    return graphs


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
    "score-maximising": "at each drawn komi from the empty board, a side's guarantee at an offer is the most it "
    "keeps its final score above the other's while the other is not unsustainable (a sink counts as kept); "
    "holds when no reasonable win-or-draw strategy, score-independent or not, can reach an offer (after an "
    "error or not) and then settle in a sustainable cycle for less than its guarantee there; fails when a "
    "positional strategy on the situations less the scores does so and is checked reasonable and win-or-draw; "
    "otherwise an exhaustive SAT search over those positional strategies decides, and the verdict is unknown "
    "when it is stopped",
    "stability": "every board a start (itself its history, the komi its score), at every komi where it draws: "
    "stable iff both sides have win-or-draw strategies that eventually pass (reading passing), unstable iff "
    "neither has; holds iff one class, stable or unstable, for every start",
    "normal-board-is-stable": "the grids within --points only (19x19 is far out of reach): stable from every "
    "start board at every komi where it draws",
    "settled-boards-independence": "komi part only: a settled board is where the solver's settling plans of a "
    "digraph stable from the empty board come to rest; on each sum H + S within --points, the drawn komis from "
    "H empty and S settled are H's drawn komis moved by S's stones; the move-independence part is not executed",
}


def check(name: str, graph: Graph, reading: Reading, max_positions: int) -> Verdict:
    """The verdict of conjecture `name` on `graph` under `reading` in the whole game."""
    if name in NOT_EXECUTED:
        return Verdict("unknown", NOT_EXECUTED[name])
    try:
        return CHECKS[name](Context(graph, reading, max_positions))
    except ArenaTooLarge as too_large:
        return Verdict("unknown", f"the arena has {too_large}, above --max-positions {max_positions:,}")
