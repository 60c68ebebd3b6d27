"""The conjectures of source 000, each checked per graph in the fragment the arena solves.

The fragment: source 000's game without ko bids and without history deletion (see
:mod:`gorules.impl.directed_arena`).  Each conjecture names the reading used where the
source can be read more than one way (the options in :data:`READINGS`), and gives per
graph a :class:`Verdict`: holds, fails (with a counterexample: the graph, the start
board, a line of play) or unknown (with why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gorules.impl import directed_arena as arena_module
from gorules.impl.directed_arena import Arena, arena_of, check_plan, objective, play_plans, solve, values_of
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY

FRAGMENT = "no ko bids, no history deletion (history and scores after the komi then play no part)"

READINGS: dict[str, tuple[tuple[str, ...], str, str]] = {
    # name: (choices, default, why the default)
    "passes": (
        ("forever", "infinitely-often"),
        "forever",
        "'always eventually passes' read as: in every play, from some turn on, the player only passes "
        "(a strategy that passes now and then but keeps placing stones forever never settles the board)",
    ),
    "starts": (
        ("all", "reachable", "empty"),
        "all",
        "'with all starting states' / 'independent of what stones start out in it': every board of the "
        "graph, Black to move, including boards with stones that have no liberties ('reachable': only "
        "boards that occur in some play from the empty board; 'empty': the empty board alone)",
    ),
}


def default_readings() -> dict[str, str]:
    """The default value of every reading."""
    return {name: default for name, (_, default, _) in READINGS.items()}


@dataclass
class Verdict:
    """holds / fails / unknown on one graph, with a one-line detail and, on failure, a counterexample."""

    status: str
    detail: str
    counterexample: dict | None = None


@dataclass(frozen=True)
class Conjecture:
    """A conjecture of source 000: its name, its words, the reading and the per-graph check."""

    name: str
    statement: str
    reading: str
    readings_used: tuple[str, ...]
    check: Callable[[Graph, dict], Verdict]
    family: str = "digraphs"
    notes: list = field(default_factory=list)


def start_boards(graph: Graph, readings: dict) -> list[tuple]:
    """The start boards the reading asks for: every board, or the empty one."""
    if readings["starts"] == "empty":
        return [tuple(EMPTY for _ in graph.points)]
    if readings["starts"] == "reachable":
        return reachable_boards(graph)
    return arena_module.boards(graph.order)


def reachable_boards(graph: Graph) -> list[tuple]:
    """The boards that occur in some play from the empty board, in board order."""
    arena = arena_of(graph)
    seen = {arena.start()}
    queue = list(seen)
    while queue:
        v = queue.pop()
        for w in arena.successors[v]:
            if w not in seen:
                seen.add(w)
                queue.append(w)
    found = {arena.positions[v].board for v in seen}
    return [b for b in arena_module.boards(graph.order) if b in found]


def board_text(board: tuple) -> str:
    """A board as one string, point 0 first: ``B.W``."""
    return "".join(board)


def optimal_lasso(arena: Arena, start: int) -> dict:
    """The play of the value plans of both sides from `start` (Black keeps the margin ≥ v,
    White keeps it ≤ v), as text."""
    vals = values_of(arena.graph)
    v = vals.of(start)
    black = vals.by_threshold[v].plans[0] if v in vals.by_threshold else None
    white = vals.by_threshold[v + 1].plans[1] if v + 1 in vals.by_threshold else None
    black = black or arena_module.Anywhere(frozenset(range(len(arena.positions))), arena.successors, 0, arena.owner)
    white = white or arena_module.Anywhere(frozenset(range(len(arena.positions))), arena.successors, 1, arena.owner)
    return arena_module.lasso_texts(arena, play_plans(arena, black, white, start))


# ------------------------------------------------------------------ perfect play


def value_plans(graph: Graph, start: int):
    """Black's plan keeping the margin ≥ v and White's keeping it ≤ v from `start` (v its value),
    with the conditions each must meet; a side whose condition holds on every play gets None."""
    arena = arena_of(graph)
    vals = values_of(graph)
    v = vals.of(start)
    n = graph.order
    black = vals.by_threshold[v].plans[0] if v in vals.by_threshold else None
    white = vals.by_threshold[v + 1].plans[1] if v + 1 in vals.by_threshold else None
    black_good = objective(n, v)
    white_ok = objective(n, v + 1)

    def white_good(seen: int) -> bool:
        return not white_ok(seen)

    return arena, v, (black, black_good), (white, white_good)


def perfect_play(graph: Graph, readings: dict) -> Verdict:
    """For every start board, with komi set to its value v: Black's computed plan keeps the
    margin ≥ v and White's keeps it ≤ v against every play of the other, checked on the
    product of plan and arena (an Emerson–Lei emptiness check separate from the solver).
    Start boards of equal value share their plans and are checked together."""
    arena = arena_of(graph)
    by_value: dict = {}
    for board in start_boards(graph, readings):
        start = arena.start(board)
        by_value.setdefault(values_of(graph).of(start), []).append(start)
    for v, starts in sorted(by_value.items()):
        _, _, (black, black_good), (white, white_good) = value_plans(graph, starts[0])
        for side, (plan, good) in enumerate(((black, black_good), (white, white_good))):
            if plan is None or check_plan(arena, plan, side, starts, good) is None:
                continue
            bad = next(s for s in starts if check_plan(arena, plan, side, s, good) is not None)
            board = arena.positions[bad].board
            return Verdict(
                "fails",
                f"the computed plan of {'BW'[side]} does not hold the margin at {v} from {board_text(board)}",
                {"graph": graph.name, "start": board_text(board), "komi": v},
            )
    count = sum(len(s) for s in by_value.values())
    return Verdict("holds", f"{count} start boards: both sides draw at komi = value, plans checked")


# ------------------------------------------------------------------ komi


def going_first_is_good(graph: Graph, readings: dict) -> Verdict:
    """On the empty board the komi of every win-or-draw strategy of the first player is the
    value v; the conjecture holds iff v ≥ 0."""
    arena = arena_of(graph)
    start = arena.start()
    v = values_of(graph).of(start)
    if v >= 0:
        return Verdict("holds", f"value {v:+d}: the first player's komi {v} is nonnegative")
    line = optimal_lasso(arena, start)
    return Verdict(
        "fails",
        f"value {v:+d}: White's side is better, the first player must choose komi {v}",
        {"graph": graph.name, "start": board_text(arena.positions[start].board), "komi": v, "line": line},
    )


def first_player_komis(graph: Graph, start: int) -> list:
    """The komi K (as integers and half-integers around the value) at which the first player
    has a win-or-draw strategy whichever colour the second player takes: Black must keep the
    margin ≥ K and White ≤ K.  Margins are integers, so every rational K behaves as one of
    the listed ones (an integer, or the half-integer of its open unit interval)."""
    vals = values_of(graph)
    n = graph.order
    found = []
    for twice in range(-2 * n - 2, 2 * n + 3):
        k = twice / 2
        black_keeps = _black_keeps_at_least(vals, start, -(-twice // 2), n)
        white_keeps = _white_keeps_at_most(vals, start, twice // 2, n)
        if black_keeps and white_keeps:
            found.append(k)
    return found


def _black_keeps_at_least(vals, start: int, t: int, n: int) -> bool:
    """Black can keep the margin ≥ t (always true below -n, never above n)."""
    if t <= -n:
        return True
    if t > n:
        return False
    return start in vals.by_threshold[t].regions[0]


def _white_keeps_at_most(vals, start: int, t: int, n: int) -> bool:
    """White can keep the margin ≤ t, i.e. Black cannot keep it ≥ t + 1."""
    return not _black_keeps_at_least(vals, start, t + 1, n)


def perfect_komi(graph: Graph, readings: dict) -> Verdict:
    """For every start board: exactly one komi lets the first player draw whichever colour is taken."""
    arena = arena_of(graph)
    for board in start_boards(graph, readings):
        start = arena.start(board)
        komis = first_player_komis(graph, start)
        if len(komis) != 1:
            return Verdict(
                "fails",
                f"from {board_text(board)} the first player's win-or-draw komi are {komis or 'none'}",
                {"graph": graph.name, "start": board_text(board), "komis": komis},
            )
    return Verdict("holds", "one win-or-draw komi (the value) from every start board")


# ------------------------------------------------------------------ stability


def stability_games(graph: Graph, v: int, readings: dict):
    """The two games that decide stability at komi v: Black keeps margin ≥ v and eventually
    passes; White keeps margin ≤ v and eventually passes (``passes`` reading).  Returned as
    Black's winning conditions (the second is the complement of White's)."""
    n = graph.order
    colours = arena_of(graph).colours
    if readings["passes"] == "forever":
        black = objective(n, v, False, colours.black_stone, "and-not")
        white = objective(n, v, True, colours.white_stone, "or")
    else:
        black = objective(n, v, False, colours.black_pass, "and")
        white = objective(n, v, True, colours.white_pass, "or-not")
    return black, white


def stability_classes(graph: Graph, readings: dict) -> dict:
    """Each start board's class: ``stable`` (both sides have a win-or-draw strategy that
    eventually passes), ``unstable`` (neither has; then, by determinacy, each side wins
    whenever the other eventually passes), or ``mixed`` (only one side has)."""
    arena = arena_of(graph)
    vals = values_of(graph)
    solved: dict = {}
    classes = {}
    for board in start_boards(graph, readings):
        start = arena.start(board)
        v = vals.of(start)
        if v not in solved:
            black, white = stability_games(graph, v, readings)
            solved[v] = (solve(arena, black), solve(arena, white))
        black_solution, white_solution = solved[v]
        black_has = start in black_solution.regions[0]
        white_has = start in white_solution.regions[1]
        if black_has and white_has:
            classes[board] = "stable"
        elif not black_has and not white_has:
            classes[board] = "unstable"
        else:
            classes[board] = "mixed (only " + ("Black" if black_has else "White") + " can settle)"
    return classes


def stability(graph: Graph, readings: dict) -> Verdict:
    """One class for all start boards, stable or unstable."""
    classes = stability_classes(graph, readings)
    kinds = sorted(set(classes.values()))
    if len(kinds) == 1 and kinds[0] in ("stable", "unstable"):
        return Verdict("holds", f"{kinds[0]} from all {len(classes)} start boards")
    witnesses = {}
    for board, kind in classes.items():
        witnesses.setdefault(kind, board)
    example = min(witnesses.values(), key=lambda b: (sum(c != EMPTY for c in b), b))
    return Verdict(
        "fails",
        "; ".join(f"{kind} from {board_text(b)}" for kind, b in sorted(witnesses.items())),
        {
            "graph": graph.name,
            "start": board_text(example),
            "classes": {k: board_text(b) for k, b in witnesses.items()},
        },
    )


def normal_board_is_stable(graph: Graph, readings: dict) -> Verdict:
    """On a grid: stable from every start board (the source asks it of 19×19; only small grids are reachable)."""
    classes = stability_classes(graph, readings)
    unstable = [b for b, kind in classes.items() if kind != "stable"]
    if not unstable:
        return Verdict("holds", f"stable from all {len(classes)} start boards")
    b = min(unstable, key=lambda b: (sum(c != EMPTY for c in b), b))
    return Verdict(
        "fails",
        f"{classes[b]} from {board_text(b)}",
        {"graph": graph.name, "start": board_text(b), "class": classes[b]},
    )


# ------------------------------------------------------------------ score-maximising


def score_maximising(graph: Graph, readings: dict) -> Verdict:
    """In the fragment the scores never change after the komi, so every strategy is
    score-independent and (no unsustainable action exists) reasonable.  The claim then says:
    every win-or-draw strategy (komi = the start's value v), after any error of the
    opponent, guarantees the value of the position reached.  Exactly: it fails for Black iff,
    in the arena cut down to Black's region for "margin ≥ v", some position q of value u > v
    is reachable from the start and from q a strongly connected set of margin in [v, u) is
    reachable (Black can follow that play while White does and keep its guarantee against
    any deviation); likewise for White."""
    arena = arena_of(graph)
    for board in start_boards(graph, readings):
        start = arena.start(board)
        for side in (0, 1):
            found = lazy_play(graph, start, side)
            if found is not None:
                q, u, v, component = found
                position = arena.positions[q]
                cycle_boards = sorted({board_text(arena.positions[s].board) for s in component})
                return Verdict(
                    "fails",
                    f"from {board_text(board)} (value {v:+d}) a win-or-draw strategy of {'BW'[side]} can, after an "
                    f"error leads to {board_text(position.board)} ({position.player} to move, value {u:+d}), "
                    f"settle for a margin of {arena.colours.margin(_union(arena, component)):+d}",
                    {
                        "graph": graph.name,
                        "start": board_text(board),
                        "reached": board_text(position.board),
                        "to_move": position.player,
                        "value_reached": u,
                        "value_start": v,
                        "recurring_boards": cycle_boards,
                    },
                )
    return Verdict("holds", "every win-or-draw strategy keeps the value of each position an error leads to")


def _union(arena: Arena, positions) -> int:
    """The colours of a set of positions."""
    seen = 0
    for v in positions:
        seen |= arena.colour[v]
    return seen


def lazy_play(graph: Graph, start: int, side: int):
    """(q, value of q, value of start, recurring positions) of a lazy win-or-draw play of `side`
    after an error, or None (see :func:`score_maximising`)."""
    arena = arena_of(graph)
    vals = values_of(graph)
    n = graph.order
    v = vals.of(start)
    if side == 0:
        keep = vals.by_threshold[v].regions[0] if v > -n else frozenset(range(len(arena.positions)))
    else:
        keep = vals.by_threshold[v + 1].regions[1] if v < n else frozenset(range(len(arena.positions)))
    edges = {x: [w for w in arena.successors[x] if w in keep] for x in keep}
    reach = _reachable(edges, start)
    colour = {x: arena.colour[x] for x in edges}
    for u in error_values(side, v, n):
        sources = [q for q in reach if (vals.of(q) >= u if side == 0 else vals.of(q) <= u)]
        if not sources:
            continue
        region: set = set()
        for q in sources:
            if q not in region:
                region |= _reachable(edges, q)
        sub = {x: edges[x] for x in region}
        if side == 0:
            lazy = _between(arena, v, u - 1)
        else:
            lazy = _between(arena, u + 1, v)
        component = arena_module.losing_cycle(sub, colour, lambda seen, lazy=lazy: not lazy(seen))
        if component is not None:
            q = next(q for q in sources if component & _reachable(edges, q))
            return q, vals.of(q), v, component
    return None


def error_values(side: int, v: int, n: int) -> range:
    """The values a position can have after the opponent's error, for `side` holding value v:
    above v for Black (margins are Black's), below v for White."""
    return range(v + 1, n + 1) if side == 0 else range(v - 1, -n - 1, -1)


def _between(arena: Arena, low: int, high: int) -> Callable[[int], bool]:
    """Whether the margin of a colour set lies in [low, high]."""
    return lambda seen: low <= arena.colours.margin(seen) <= high


def _not(predicate: Callable[[int], bool]) -> Callable[[int], bool]:
    """The complement of a predicate."""
    return lambda seen: not predicate(seen)


def _reachable(edges: dict, state) -> set:
    """The states reachable from `state`."""
    seen = {state}
    queue = [state]
    while queue:
        s = queue.pop()
        for t in edges[s]:
            if t not in seen:
                seen.add(t)
                queue.append(t)
    return seen


# ------------------------------------------------------------------ not decided here


def unknown(why: str) -> Callable[[Graph, dict], Verdict]:
    """A check that reports unknown, with why."""

    def check(graph: Graph, readings: dict) -> Verdict:
        return Verdict("unknown", why)

    return check


KO_BIDS_WHY = (
    "needs ko bids and history deletion, outside the solved fragment; in the fragment no unsustainable "
    "action exists, every strategy is reasonable, and the statement reduces to perfect-play"
)
SCORES_WHY = (
    "needs ko bids: in the fragment no score changes after the komi, so every strategy is score-independent "
    "and the statement reduces to perfect-play"
)
SETTLED_WHY = (
    "needs the settled boards of each stable graph added as components and strategies compared move by "
    "move across the sums; not implemented"
)

CONJECTURES = [
    Conjecture(
        "perfect-play",
        "For all graphs, with all starting states, there is a win-or-draw strategy for both players.",
        "komi chosen by divide-and-choose; both colours' value plans are checked against every reply",
        ("starts",),
        perfect_play,
    ),
    Conjecture(
        "ko-rules-basically-work",
        "We may also require that those win-or-draw strategies are reasonable.",
        "reasonable: never unsustainable unless the opponent is more unsustainable",
        (),
        unknown(KO_BIDS_WHY),
    ),
    Conjecture(
        "score-independence",
        "We may also require that such strategies' choices of move are independent of the current scores.",
        "the move depends on the history of boards, not on the scores",
        (),
        unknown(SCORES_WHY),
    ),
    Conjecture(
        "going-first-is-good",
        "All graphs that start with an empty board have a win-or-draw strategy that chooses a nonnegative Komi.",
        "the first player's win-or-draw komi is the value v of the empty board (Black's margin); holds iff v >= 0",
        (),
        going_first_is_good,
    ),
    Conjecture(
        "perfect-komi",
        "On any graph, all win-or-draw strategies choose the same Komi.",
        "exactly one rational komi lets the first player win or draw whichever colour the second takes",
        ("starts",),
        perfect_komi,
    ),
    Conjecture(
        "score-maximising",
        "Any reasonable, score-independent, win-or-draw strategy is also a score-maximizing strategy "
        "(after any incorrect play by the opponent).",
        "in the fragment every strategy is reasonable and score-independent; with komi = value of the start, "
        "fails iff some win-or-draw strategy, after an opponent's error, can settle for less than the value "
        "of the position reached (decided exactly on the arena)",
        ("starts",),
        score_maximising,
    ),
    Conjecture(
        "stability",
        "Each graph is stable or unstable, independent of what stones start out in it.",
        "at komi = value of the start board: stable iff both sides have a win-or-draw strategy that "
        "eventually passes (reading 'passes'); unstable iff neither has (then each wins whenever the "
        "other eventually passes, by determinacy); holds iff all start boards have one class",
        ("passes", "starts"),
        stability,
    ),
    Conjecture(
        "normal-board-is-stable",
        "The 19x19 grid is a stable graph.",
        "checked on the small grids within --max-points only (19x19 is far out of reach): stable from every start board",
        ("passes", "starts"),
        normal_board_is_stable,
        family="grids",
    ),
    Conjecture(
        "settled-boards-independence",
        "Strategies may be independent of settled boards added as disconnected components; "
        "komi differs by their relative stones.",
        "not executed",
        (),
        unknown(SETTLED_WHY),
    ),
]


def find(name: str) -> Conjecture:
    """The conjecture of this name; KeyError if none."""
    for c in CONJECTURES:
        if c.name == name:
            return c
    raise KeyError(name)
