"""Source 000's game on a digraph, without ko bids and without history deletion, as a finite arena.

In this fragment the history is never consulted (only a ko bid's reset reads it) and the
scores never change after the komi (only an answered ko bid moves them), so what decides
the next turns is the board and the player to move.  A *position* is

    (board, player to move, whether the last turn was a pass)

the third field only so that "a player eventually always passes" can be read off the
positions that recur.  There are 3^n · 2 · 2 positions on n points: a finite arena.

An infinite play's result depends on the set of positions it visits infinitely often:
a point is a live stone of p iff it holds p on every such position (eventually always),
so Black's final margin, live Black stones minus live White stones, is a function of that
set, and Black wins against komi K iff the margin exceeds K.  Each position carries a set
of *colours* (bit masks): ``not black at i``, ``not white at i`` for each point i, and
which kind of turn led to it (Black or White, a stone or a pass).  The margin of a play is
a function of the colours seen infinitely often, so each question "can Black keep the
margin at least t" is an Emerson–Lei game, solved here exactly by Zielonka's recursive
algorithm over the colour sets (:func:`solve`).  Winning strategies need memory in such
games; they come out as :class:`Plan` objects (a finite-memory controller: position and
memory in, move and new memory out) that a user can print and play against.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Protocol

from gorules.spec.directed import place
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Player

PLAYERS = (BLACK, WHITE)


@dataclass(frozen=True)
class Position:
    """A board, the player to move, and whether the turn that led here was a pass."""

    board: tuple
    player: Player
    passed: bool = False


def boards(order: int) -> list[tuple]:
    """Every board on `order` points (each point empty, Black or White)."""
    return [tuple(b) for b in product((EMPTY, BLACK, WHITE), repeat=order)]


class Colours:
    """The colour bits of an arena on n points: ``not_black(i)``, ``not_white(i)`` and four turn kinds."""

    def __init__(self, order: int):
        self.order = order
        self.black_stone = 1 << (2 * order)
        self.white_stone = 1 << (2 * order + 1)
        self.black_pass = 1 << (2 * order + 2)
        self.white_pass = 1 << (2 * order + 3)
        self.all = (1 << (2 * order + 4)) - 1

    def not_black(self, i: int) -> int:
        """The colour of a position whose point i is not Black."""
        return 1 << i

    def not_white(self, i: int) -> int:
        """The colour of a position whose point i is not White."""
        return 1 << (self.order + i)

    def of(self, position: Position) -> int:
        """The colours of a position: its board's points, and the turn that led to it."""
        mask = 0
        for i, c in enumerate(position.board):
            if c != BLACK:
                mask |= self.not_black(i)
            if c != WHITE:
                mask |= self.not_white(i)
        mover_was_black = position.player == WHITE
        if position.passed:
            mask |= self.black_pass if mover_was_black else self.white_pass
        else:
            mask |= self.black_stone if mover_was_black else self.white_stone
        return mask

    def margin(self, seen: int) -> int:
        """Live Black stones minus live White stones of a play whose colours seen infinitely
        often are `seen`: a point is live for p iff no recurring position has it other than p."""
        black = sum(1 for i in range(self.order) if not seen & self.not_black(i))
        white = sum(1 for i in range(self.order) if not seen & self.not_white(i))
        return black - white


class GameGraph(Protocol):
    """What Zielonka's algorithm and the plans' checks read of an arena: who owns each node,
    its successors and predecessors, its colour and the node itself (the fragment's
    ``Arena`` and the whole game's ``full_arena.FullArena`` both are one)."""

    positions: list
    owner: list[int]
    successors: list
    predecessors: list
    colour: list[int]


class Arena:
    """Every position of the fragment on a digraph, with its moves and colours."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.colours = Colours(graph.order)
        self.positions = [Position(b, p, f) for b in boards(graph.order) for p in PLAYERS for f in (False, True)]
        self.index = {q: k for k, q in enumerate(self.positions)}
        self.owner = [0 if q.player == BLACK else 1 for q in self.positions]
        self.colour = [self.colours.of(q) for q in self.positions]
        self.moves: list[dict[int, object]] = [self._moves(q) for q in self.positions]
        self.successors = [tuple(sorted(m)) for m in self.moves]
        predecessors: list[list[int]] = [[] for _ in self.positions]
        for v, succ in enumerate(self.successors):
            for w in succ:
                predecessors[w].append(v)
        self.predecessors = [tuple(p) for p in predecessors]

    def _moves(self, q: Position) -> dict[int, object]:
        """Successor index → the first move (a point, or pass) that leads there."""
        other = WHITE if q.player == BLACK else BLACK
        found: dict[int, object] = {}
        for v in self.graph.points:
            if q.board[v] == EMPTY:
                after = Position(place(self.graph, q.board, v, q.player), other, False)
                found.setdefault(self.index_of(after), v)
        found.setdefault(self.index_of(Position(q.board, other, True)), PASS)
        return found

    def index_of(self, q: Position) -> int:
        """The index of a position (positions are listed board by board)."""
        b = 0
        for c in q.board:
            b = 3 * b + (EMPTY, BLACK, WHITE).index(c)
        return 4 * b + 2 * (q.player == WHITE) + q.passed

    def start(self, board: Iterable | None = None) -> int:
        """The index of the start: the given board (empty if None), Black to move."""
        b = tuple(board) if board is not None else tuple(EMPTY for _ in self.graph.points)
        return self.index_of(Position(b, BLACK, False))

    def move_between(self, v: int, w: int):
        """The move (a point or pass) from position v to its successor w."""
        return self.moves[v][w]


# ------------------------------------------------------------------ strategies


def required(w: int | None) -> int:
    """The move a plan makes at its own position (a plan always makes one there)."""
    if w is None:
        raise RuntimeError("a plan made no move at a position of its own")
    return w


class Plan:
    """A finite-memory strategy for one player on part of the arena: ``step(v, m)`` is called
    at every position the play enters (memory None at first) and returns the new memory
    and, at the player's own positions, the successor to move to."""

    def step(self, v: int, memory) -> tuple[object, int | None]:
        """(new memory, successor or None)."""
        raise NotImplementedError


@dataclass
class Anywhere(Plan):
    """Any move that stays in `region` (the least successor there): every play in it is won."""

    region: frozenset
    successors: Sequence
    player: int
    owner: list

    def step(self, v, memory):
        """Stay in the region."""
        if self.owner[v] != self.player:
            return None, None
        return None, min(w for w in self.successors[v] if w in self.region)


@dataclass
class Attract(Plan):
    """Force the play into `target` (attractor moves), then follow `then` there."""

    moves: dict
    target: frozenset
    then: Plan

    def step(self, v, memory):
        """Attractor move outside the target; the inner plan inside it (memory kept while inside)."""
        if v in self.target:
            return self.then.step(v, memory)
        return None, self.moves.get(v)


@dataclass
class Pieces(Plan):
    """A winning region made of pieces removed one after another: follow the piece the play is in."""

    pieces: list = field(default_factory=list)

    def step(self, v, memory):
        """Find v's piece; a new piece starts with fresh memory."""
        for k, (region, plan) in enumerate(self.pieces):
            if v in region:
                inner = memory[1] if memory is not None and memory[0] == k else None
                m, w = plan.step(v, inner)
                return (k, m), w
        raise KeyError(f"position {v} is outside this plan's region")


@dataclass
class Cycle(Plan):
    """Zielonka's winning strategy where the node's player wins everywhere: in turn, for each
    child colour set D, either stay where D's subgame is won or force a colour outside D."""

    children: list  # (attractor moves, target, subregion, subplan) per child
    region: frozenset
    successors: Sequence
    player: int
    owner: list

    def step(self, v, memory):
        """Memory (child, inside its subregion, the subplan's memory)."""
        i, inside, inner = memory if memory is not None else (0, False, None)
        moves, target, sub, plan = self.children[i]
        if v in target:
            i, inside = (i + 1) % len(self.children), False
            moves, target, sub, plan = self.children[i]
        if v in sub:
            m, w = plan.step(v, inner if inside else None)
            return (i, True, m), w
        if self.owner[v] != self.player:
            return (i, False, None), None
        w = moves.get(v)
        if w is None:
            w = min(x for x in self.successors[v] if x in self.region)
        return (i, False, None), w


# ------------------------------------------------------------------ solving


def attractor(arena: GameGraph, region: frozenset, target: Iterable[int], player: int) -> tuple[frozenset, dict]:
    """The positions of `region` from which `player` can force a visit to `target`, and the
    forcing moves at the player's own positions outside the target."""
    inside = set(target)
    moves: dict[int, int] = {}
    left = {}
    queue = list(inside)
    while queue:
        w = queue.pop()
        for u in arena.predecessors[w]:
            if u not in region or u in inside:
                continue
            if arena.owner[u] == player:
                inside.add(u)
                moves[u] = w
                queue.append(u)
            else:
                if u not in left:
                    left[u] = sum(1 for x in arena.successors[u] if x in region)
                left[u] -= 1
                if left[u] == 0:
                    inside.add(u)
                    queue.append(u)
    return frozenset(inside), moves


@functools.lru_cache(maxsize=1 << 16)
def _losing_children(colours: int, wins: Callable[[int], bool]) -> tuple[int, ...]:
    """The maximal colour sets inside `colours` whose winner is not the winner of `colours`
    (the children of a Zielonka tree node)."""
    top = wins(colours)
    candidates = []
    sub = (colours - 1) & colours
    while True:
        if wins(sub) != top:
            candidates.append(sub)
        if sub == 0:
            break
        sub = (sub - 1) & colours
    candidates.sort(key=lambda d: -bin(d).count("1"))
    maximal: list[int] = []
    for d in candidates:
        if not any(d & m == d for m in maximal):
            maximal.append(d)
    return tuple(maximal)


@dataclass
class WinningRegions:
    """The winning regions of both players (0 = Black, 1 = White) and a winning plan for each."""

    regions: tuple
    plans: tuple


def solve(
    arena: GameGraph,
    wins: Callable[[int], bool],
    region: frozenset | None = None,
    children_of: Callable[[int], tuple[int, ...]] | None = None,
) -> WinningRegions:
    """Solve the Emerson–Lei game on `region` (every position has a successor in it) in which
    Black wins a play iff ``wins(colours seen infinitely often)``: Zielonka's recursion.
    `children_of` gives the maximal colour sets below a set whose winner differs (by default
    every subset is tried; a condition with structure can list them faster)."""
    if region is None:
        region = frozenset(range(len(arena.positions)))
    if not region:
        return WinningRegions((frozenset(), frozenset()), (Pieces([]), Pieces([])))
    seen = 0
    for v in region:
        seen |= arena.colour[v]
    sigma = 0 if wins(seen) else 1
    children = children_of(seen) if children_of is not None else _losing_children(seen, wins)
    game = region
    opponent_pieces: list = []
    while True:
        parts = []
        removed = None
        for d in children:
            target = frozenset(v for v in game if arena.colour[v] & ~d)
            attracted, moves = attractor(arena, game, target, sigma)
            sub = game - attracted
            inner = solve(arena, wins, sub, children_of)
            lost = inner.regions[1 - sigma]
            if lost:
                removed, removal_moves = attractor(arena, game, lost, 1 - sigma)
                opponent_pieces.append((removed, Attract(removal_moves, lost, inner.plans[1 - sigma])))
                break
            parts.append((moves, target, sub, inner.plans[sigma]))
        if removed is None:
            break
        game = game - removed
    if not game:
        mine: Plan = Pieces([])
    elif not children:
        mine = Anywhere(game, arena.successors, sigma, arena.owner)
    else:
        mine = Pieces([(game, Cycle(parts, game, arena.successors, sigma, arena.owner))])
    theirs = Pieces(opponent_pieces)
    won = (game, region - game) if sigma == 0 else (region - game, game)
    plans = (mine, theirs) if sigma == 0 else (theirs, mine)
    return WinningRegions(won, plans)


# ------------------------------------------------------------------ objectives


MARGIN_AND_COLOURS = ("and-not", "or", "and", "or-not")


@functools.lru_cache(maxsize=None)
def objective(order: int, t: int, strict: bool = False, mask: int = 0, mode: str = "or") -> Callable[[int], bool]:
    """Black's winning condition, a predicate on the colours seen infinitely often: the
    margin is at least t (more than t if `strict`), combined with whether a colour of
    `mask` recurs: ``and-not`` (and none recurs), ``or`` (or one does), ``and`` (and one
    does), ``or-not`` (or none does).  With mask 0 and mode ``or`` it is the margin alone.
    Cached, so that equal conditions are the same function and share the Zielonka
    children cache."""
    if mode not in MARGIN_AND_COLOURS:
        raise ValueError(f"unknown mode {mode!r}")
    colours = Colours(order)

    def wins(seen: int) -> bool:
        m = colours.margin(seen)
        good = m > t if strict else m >= t
        recurs = bool(seen & mask)
        if mode == "and-not":
            return good and not recurs
        if mode == "or":
            return good or recurs
        if mode == "and":
            return good and recurs
        return good or not recurs

    return wins


@dataclass
class Values:
    """The value of every position: the largest t such that Black can keep the margin ≥ t
    (White can then keep it ≤ t), and the solutions of each threshold game."""

    arena: Arena
    value: list
    by_threshold: dict

    def of(self, v: int) -> int:
        """The value of position v."""
        return self.value[v]


def values(arena: Arena) -> Values:
    """Solve every threshold game -n..n+1 and read off the value of each position."""
    n = arena.graph.order
    by_threshold = {}
    value = [-n] * len(arena.positions)
    for t in range(-n + 1, n + 1):
        solution = solve(arena, objective(n, t))
        by_threshold[t] = solution
        for v in solution.regions[0]:
            value[v] = max(value[v], t)
    return Values(arena, value, by_threshold)


@functools.lru_cache(maxsize=64)
def arena_of(graph: Graph) -> Arena:
    """The arena of a graph, built once."""
    return Arena(graph)


@functools.lru_cache(maxsize=64)
def values_of(graph: Graph) -> Values:
    """The values of a graph's arena, computed once."""
    return values(arena_of(graph))


# ------------------------------------------------------------------ checking a plan


def plays_against(arena: GameGraph, plan: Plan, player: int, starts: int | Iterable[int]) -> tuple[dict, dict]:
    """The graph of (position, memory, chosen move) states reachable when `player` follows
    `plan` from the start position(s) and the opponent moves freely: state → successors,
    and state → colours."""
    if isinstance(starts, int):
        starts = [starts]
    edges: dict = {}
    queue = []
    for start in starts:
        memory, chosen = plan.step(start, None)
        queue.append((start, memory, chosen))
    seen = set(queue)
    while queue:
        state = queue.pop()
        v, memory, chosen = state
        nexts = [required(chosen)] if arena.owner[v] == player else list(arena.successors[v])
        out = []
        for w in nexts:
            m, c = plan.step(w, memory)
            nxt = (w, m, c)
            out.append(nxt)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
        edges[state] = out
    return edges, {s: arena.colour[s[0]] for s in edges}


def _components(nodes: set, edges: dict) -> list[set]:
    """The strongly connected components of the subgraph on `nodes` that contain a cycle (Tarjan, iterative)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    found: list[set] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter([w for w in edges[root] if w in nodes]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter([x for x in edges[w] if x in nodes])))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.add(w)
                    if w == v:
                        break
                if len(component) > 1 or any(x == v for x in edges[v]):
                    found.append(component)
    return found


def losing_cycle(edges: dict, colour: dict, good: Callable[[int], bool]) -> set | None:
    """A set of states that a play can visit infinitely often (strongly connected) whose
    colours are not `good`, or None: Emerson–Lei emptiness by removing one colour at a time."""

    def search(nodes: set) -> set | None:
        for component in _components(nodes, edges):
            seen = 0
            for s in component:
                seen |= colour[s]
            if not good(seen):
                return component
            bit = 1
            while bit <= seen:
                if seen & bit:
                    found = search({s for s in component if not colour[s] & bit})
                    if found is not None:
                        return found
                bit <<= 1
        return None

    return search(set(edges))


def check_plan(
    arena: GameGraph, plan: Plan, player: int, starts: int | Iterable[int], good_for_player: Callable[[int], bool]
) -> set | None:
    """None if every play from the start(s) in which `player` follows `plan` has recurring
    colours that are `good_for_player`; otherwise the recurring states of a play that is not."""
    edges, colour = plays_against(arena, plan, player, starts)
    return losing_cycle(edges, colour, good_for_player)


# ------------------------------------------------------------------ plays


@dataclass
class Lasso:
    """An eventually periodic play: the positions of a prefix, then of a cycle repeated forever."""

    prefix: list
    cycle: list


def play_plans(arena: GameGraph, black: Plan, white: Plan, start: int, limit: int = 100_000) -> Lasso:
    """The play in which Black follows `black` and White `white` from `start`: both plans
    have finite memory, so the play is a lasso, found when a (position, memories) state recurs."""
    plans = (black, white)
    memories: list[object] = [None, None]
    v = start
    seen: dict = {}
    order: list[int] = []
    for _ in range(limit):
        chosen = None
        for p in (0, 1):
            memories[p], w = plans[p].step(v, memories[p])
            if arena.owner[v] == p:
                chosen = w
        state = (v, memories[0], memories[1])
        if state in seen:
            k = seen[state]
            return Lasso(order[:k], order[k:])
        seen[state] = len(order)
        order.append(v)
        v = required(chosen)
    raise RuntimeError(f"no repetition within {limit} turns: a plan with unbounded memory")


def turn_texts(arena: Arena, positions: list, then: int | None = None) -> list[str]:
    """The turns between consecutive positions (and into `then`), as ``B 0`` / ``W pass``."""
    texts = []
    following = positions[1:] + ([then] if then is not None else [])
    for v, w in zip(positions, following):
        move = arena.move_between(v, w)
        texts.append(f"{arena.positions[v].player} {move}")
    return texts


def lasso_texts(arena: Arena, lasso: Lasso) -> dict:
    """A lasso as text: the turns of the prefix, the turns of the cycle, and the boards of the cycle."""
    cycle_start = lasso.cycle[0]
    prefix_turns = turn_texts(arena, lasso.prefix, cycle_start) if lasso.prefix else []
    cycle_turns = turn_texts(arena, lasso.cycle, cycle_start)
    return {
        "prefix": prefix_turns,
        "cycle": cycle_turns,
        "cycle_boards": ["".join(arena.positions[v].board) for v in lasso.cycle],
        "margin": arena.colours.margin(_colours_of(arena, lasso.cycle)),
    }


def _colours_of(arena: Arena, positions: Iterable[int]) -> int:
    """The union of the colours of some positions."""
    seen = 0
    for v in positions:
        seen |= arena.colour[v]
    return seen


def margin_of(arena: Arena, lasso: Lasso) -> int:
    """Live Black stones minus live White stones of the play."""
    return arena.colours.margin(_colours_of(arena, lasso.cycle))


# ------------------------------------------------------------------ inspecting and replaying a plan


def plan_table(arena: Arena, plan: Plan, player: int, start: int) -> list[dict]:
    """The plan as a table: every (position, memory) it can meet from `start`, whatever the
    opponent does, with the move it makes there (memories numbered in order of discovery)."""
    edges, _ = plays_against(arena, plan, player, start)
    numbers: dict = {}
    rows = []
    for v, memory, chosen in sorted(edges, key=lambda s: (s[0], repr(s[1]))):
        if arena.owner[v] != player:
            continue
        q = arena.positions[v]
        rows.append(
            {
                "board": "".join(q.board),
                "to_move": q.player,
                "last_was_pass": q.passed,
                "memory": numbers.setdefault(repr(memory), len(numbers)),
                "move": arena.move_between(v, chosen),
            }
        )
    return rows


def replay_against(arena: Arena, plan: Plan, player: int, start: int, moves: list) -> list[str]:
    """The turns of a play from `start` in which `player` follows `plan` and the opponent plays
    `moves` (points or "pass") in order; stops when the opponent's moves run out.  ValueError
    on a move that is not legal (an occupied or unknown point)."""
    v, memory = start, None
    turns: list[str] = []
    pending = list(moves)
    while True:
        memory, chosen = plan.step(v, memory)
        if arena.owner[v] == player:
            w = required(chosen)
        else:
            if not pending:
                return turns
            move = pending.pop(0)
            found = next((x for x, m in arena.moves[v].items() if m == move), None)
            if found is None:
                raise ValueError(
                    f"{move} is not a legal move for {arena.positions[v].player} on {''.join(arena.positions[v].board)}"
                )
            w = found
        turns.append(f"{arena.positions[v].player} {arena.move_between(v, w)} -> {''.join(arena.positions[w].board)}")
        v = w
