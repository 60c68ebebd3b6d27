"""The conjectures of source 000, each checked per graph in the fragment the arena solves.

The fragment: source 000's game without ko bids and without history deletion (see
:mod:`gorules.impl.rulesets.directed.arena`).  Each conjecture names the reading used where the
source can be read more than one way (the options in :data:`READINGS`), and gives per
graph a :class:`Verdict`: holds, fails (with a counterexample: the graph, the start
board, a line of play) or unknown (with why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gorules.impl.rulesets.directed import arena as arena_module
from gorules.impl.rulesets.directed.arena import Arena, arena_of, check_plan, objective, play_plans, solve, values_of
from gorules.impl.rulesets.directed.graphs import digraphs, graph_of
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
    note: str = ""  # what of the statement is left out, printed under the table


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
    witnesses: dict[str, tuple] = {}
    for board, kind in classes.items():
        witnesses.setdefault(kind, board)
    mixed = [b for k, b in witnesses.items() if k.startswith("mixed")]
    example = min(mixed or witnesses.values(), key=lambda b: (sum(c != EMPTY for c in b), b))
    counterexample = {
        "graph": graph.name,
        "start": board_text(example),
        "classes": {k: board_text(b) for k, b in witnesses.items()},
    }
    if classes[example].startswith("mixed"):
        counterexample["line"] = unsettled_line(graph, example, readings)
    return Verdict(
        "fails", "; ".join(f"{kind} from {board_text(b)}" for kind, b in sorted(witnesses.items())), counterexample
    )


def unsettled_line(graph: Graph, board: tuple, readings: dict) -> dict:
    """On a mixed start board, the side that cannot settle shown at work: the other side's plan
    that wins unless this side keeps placing stones, against this side's value plan (which
    keeps the value); the play's cycle shows the stones it must keep placing."""
    arena = arena_of(graph)
    vals = values_of(graph)
    start = arena.start(board)
    v = vals.of(start)
    n = graph.order
    black_game, white_game = stability_games(graph, v, readings)
    everywhere = frozenset(range(len(arena.positions)))
    if start in solve(arena, black_game).regions[0]:
        # White cannot settle: Black's winning plan in White's settling game, against White's value plan
        black = solve(arena, white_game).plans[0]
        white = vals.by_threshold[v + 1].plans[1] if v < n else None
    else:
        black = vals.by_threshold[v].plans[0] if v > -n else None
        white = solve(arena, black_game).plans[1]
    black = black or arena_module.Anywhere(everywhere, arena.successors, 0, arena.owner)
    white = white or arena_module.Anywhere(everywhere, arena.successors, 1, arena.owner)
    return arena_module.lasso_texts(arena, play_plans(arena, black, white, start))


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
        component = arena_module.losing_cycle(sub, colour, _not(lazy))
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
    "action exists, every strategy is reasonable, and the statement reduces to perfect-play; --full runs it in the "
    "whole game"
)
SCORES_WHY = (
    "needs ko bids: in the fragment no score changes after the komi, so every strategy is score-independent "
    "and the statement reduces to perfect-play; --full runs it in the whole game"
)
SETTLED_WHY = (
    "strategy independence (moves unchanged when settled boards are added) is not executed; the komi part is "
    "checked on the sums"
)


# ------------------------------------------------------------------ settled boards


def settled_board(graph: Graph, readings: dict) -> tuple | None:
    """The board on which the solver's settling plans (win-or-draw, eventually passing) of both
    sides come to rest from the empty board, or None if the graph is not stable from it."""
    arena = arena_of(graph)
    start = arena.start()
    v = values_of(graph).of(start)
    black_game, white_game = stability_games(graph, v, readings)
    black, white = solve(arena, black_game), solve(arena, white_game)
    if start not in black.regions[0] or start not in white.regions[1]:
        return None
    lasso = play_plans(arena, black.plans[0], white.plans[1], start)
    boards = {arena.positions[x].board for x in lasso.cycle}
    return boards.pop() if len(boards) == 1 else None


SUMS: dict = {}  # sum graph name -> [(H, S, settled board of S)]


def disjoint_sum(h: Graph, s: Graph) -> Graph:
    """H and S side by side, S's points numbered after H's."""
    k = h.order
    arcs = [(v, w) for v in h.points for w in h.neighbours[v]]
    arcs += [(k + v, k + w) for v in s.points for w in s.neighbours[v]]
    return graph_of(k + s.order, arcs)


def settled_sums(max_points: int, readings: dict) -> list[Graph]:
    """Every sum H + S with H a digraph and S a digraph stable from the empty board (its settled
    board placed on it), on at most max_points points; the decompositions are kept in SUMS."""
    found: dict = {}
    for m in range(1, max_points):
        for s in digraphs(m, m):
            board = settled_board(s, readings)
            if board is None:
                continue
            for h in digraphs(max_points - m):
                g = disjoint_sum(h, s)
                found.setdefault(g.name, g)
                SUMS.setdefault(g.name, [])
                if (h, s, board) not in SUMS[g.name]:
                    SUMS[g.name].append((h, s, board))
    return sorted(found.values(), key=lambda g: (g.order, len(g.edges()), g.name))


def settled_komi(graph: Graph, readings: dict) -> Verdict:
    """On H + S, from H empty and S's settled board: the value (the first player's only
    win-or-draw komi) is H's value plus S's stones (Black's minus White's)."""
    if graph.name not in SUMS:
        settled_sums(graph.order, readings)
    for h, s, board in SUMS.get(graph.name, []):
        start_board = tuple(EMPTY for _ in h.points) + board
        arena = arena_of(graph)
        value = values_of(graph).of(arena.start(start_board))
        alone = values_of(h).of(arena_of(h).start())
        stones = sum(c == "B" for c in board) - sum(c == "W" for c in board)
        if value != alone + stones:
            return Verdict(
                "fails",
                f"{h.name} (value {alone:+d}) plus {s.name} settled as {board_text(board)} ({stones:+d} stones): "
                f"value {value:+d}, not {alone + stones:+d}",
                {"graph": graph.name, "start": board_text(start_board), "settled": board_text(board)},
            )
    return Verdict("holds", "komi shifts by the settled boards' stones")


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
        "their choices of Komi should only differ by exactly the relative total numbers of stones on the added "
        "settled boards.",
        "komi part only: a settled board is where the solver's settling plans of a graph stable from the empty "
        "board come to rest; on every sum H + S (at most --max-points points) the value from H empty and S settled "
        "must be H's value plus S's stones; the move-independence part is not executed",
        ("passes",),
        settled_komi,
        family="sums",
        note="komi part only, on sums of at most --max-points points; strategies' move independence not executed",
    ),
]


def find(name: str) -> Conjecture:
    """The conjecture of this name; KeyError if none."""
    for c in CONJECTURES:
        if c.name == name:
            return c
    raise KeyError(name)
