"""Isolated pairs: the source's claims about N disjoint pairs of points.

Source 000 says: under a superko rule "the game can be completed, but it takes Ω(2^N)
moves" on N isolated pairs.  Read as a bound one side can force, that is the *forced game
length* under positional superko with the two-pass end (the ``stone`` preset's play):
one side (the prolonger) maximises the number of turns, the other minimises it, scores
ignored.  :func:`forced_length` computes it exactly by alpha-beta search over the boards
played so far (positional superko makes the set of earlier boards part of the state),
within a node budget; :func:`forced_length_plain` is plain min-max, its check; two bounds
come from fixing one side's strategy.
"""

from __future__ import annotations

import functools
import itertools

from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.search import window_step
from gorules.spec.directed import place
from gorules.spec.graph import Graph, make_graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE, Player


def pairs(count: int) -> Graph:
    """N disjoint pairs: points 2i and 2i+1 joined (both ways)."""
    return make_graph(2 * count, [(2 * i, 2 * i + 1) for i in range(count)], f"pairs:{count}")


def counter(max_nodes: int, what: str):
    """A function to call once per state (or visit) searched: BudgetSpent on the call after
    the first ``max_nodes``."""
    calls = itertools.count(1)

    def count() -> None:
        if next(calls) > max_nodes:
            raise BudgetSpent(f"more than {max_nodes:,} {what}")

    return count


def new_boards(graph: Graph, board: tuple, player: Player, seen: frozenset) -> list[tuple]:
    """The boards `player` makes by one placement on an empty point of `board`, in point
    order, leaving out those that recreate a board of `seen` (positional superko)."""
    found = []
    for v in graph.points:
        if board[v] == EMPTY:
            after = place(graph, board, v, player)
            if after not in seen:
                found.append(after)
    return found


def forced_length_plain(graph: Graph, prolonger: Player, max_nodes: int = 2_000_000) -> int:
    """The forced length by plain min-max over every state (the check of :func:`forced_length`).
    The number of turns (passes included) of the game from the empty board, Black first,
    under positional superko (a stone may not recreate any earlier board; suicide allowed;
    two passes in a row end the game), when `prolonger` maximises and the other side
    minimises it.  BudgetSpent beyond `max_nodes` distinct states."""
    count = counter(max_nodes, "states")

    @functools.lru_cache(maxsize=None)
    def length(board: tuple, player: Player, passed: bool, seen: frozenset) -> int:
        count()
        other = WHITE if player == BLACK else BLACK
        options = [1 if passed else 1 + length(board, other, True, seen)]
        options += [1 + length(after, other, False, seen | {after}) for after in new_boards(graph, board, player, seen)]
        return max(options) if player == prolonger else min(options)

    empty = tuple(EMPTY for _ in graph.points)
    try:
        return length(empty, BLACK, False, frozenset({empty}))
    finally:
        length.cache_clear()


def passing_shortener_length(graph: Graph, prolonger: Player, max_nodes: int = 200_000) -> int:
    """The number of turns when the shortener passes on every turn and the prolonger makes
    the game as long as it can (the longest walk of new boards of its own stones): an upper
    bound on the forced length, since passing throughout is one strategy of the shortener.
    BudgetSpent beyond `max_nodes` states."""
    shortener = WHITE if prolonger == BLACK else BLACK
    empty = tuple(EMPTY for _ in graph.points)
    placements = own_walk(graph, empty, prolonger, frozenset({empty}), max_nodes)
    # each placement is followed by the shortener's pass; then the prolonger's pass ends the
    # game (two passes in a row); when the shortener moves first, its opening pass adds a turn
    opening = 1 if shortener == BLACK else 0
    return opening + 2 * placements + 1


def forced_length(graph: Graph, prolonger: Player, max_nodes: int = 2_000_000) -> int:
    """The number of turns (passes included) of the game from the empty board, Black first,
    under positional superko (a stone may not recreate any earlier board; suicide allowed;
    two passes in a row end the game), when `prolonger` maximises and the other side
    minimises it: alpha-beta search over (board, player, last turn a pass, earlier boards),
    with a table of proved bounds.  BudgetSpent beyond `max_nodes` visits."""
    table: dict = {}
    count = counter(max_nodes, "visits")
    unbounded = 1 << 30

    def search(board: tuple, player: Player, passed: bool, seen: frozenset, alpha: int, beta: int) -> int:
        count()
        key = (board, player, passed, seen)
        low, high = table.get(key, (0, unbounded))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        window = (alpha, beta)
        other: Player = WHITE if player == BLACK else BLACK
        placements = new_boards(graph, board, player, seen)
        maximising = player == prolonger
        # the shortener tries passing first, the prolonger last: the likely best move first
        order: list = placements + [None] if maximising else [None, *placements]
        best = -1 if maximising else unbounded
        for child in order:
            if child is None:
                value = 1 if passed else 1 + search(board, other, True, seen, alpha - 1, beta - 1)
            else:
                value = 1 + search(child, other, False, seen | {child}, alpha - 1, beta - 1)
            best, alpha, beta = window_step(maximising, best, value, alpha, beta)
            if alpha >= beta:
                break
        if best <= window[0]:
            table[key] = (low, best)
        elif best >= window[1]:
            table[key] = (best, high)
        else:
            table[key] = (best, best)
        return best

    empty = tuple(EMPTY for _ in graph.points)
    return search(empty, BLACK, False, frozenset({empty}), -1, unbounded)


def pairs_table(max_pairs: int, max_nodes: int = 2_000_000) -> list[dict]:
    """For N = 1..max_pairs pairs and each side prolonging: 2^N, the exact forced length (None
    beyond the node budget, with why), a lower bound (one fixed prolonger strategy against
    every shortener) and an upper bound (the shortener passing throughout)."""
    rows = []
    for n in range(1, max_pairs + 1):
        graph = pairs(n)
        for prolonger in (BLACK, WHITE):
            row: dict = {"pairs": n, "prolonger": prolonger, "two_to_the_n": 2**n}
            for key, compute in (
                ("exact", forced_length),
                ("lower", greedy_prolonger_length),
                ("upper", passing_shortener_length),
            ):
                try:
                    row[key] = compute(graph, prolonger, max_nodes)
                except BudgetSpent as spent:
                    row[key] = None
                    row[f"why_{key}"] = f"search stopped: {spent}"
            rows.append(row)
    return rows


def own_walk(graph: Graph, board: tuple, player: Player, seen: frozenset, max_nodes: int = 200_000) -> int:
    """The most placements `player` can make in a row from `board` (the other side passing),
    never recreating a board of `seen`."""
    count = counter(max_nodes, "states")

    @functools.lru_cache(maxsize=None)
    def walk(b: tuple, visited: frozenset) -> int:
        count()
        best = 0
        for after in new_boards(graph, b, player, visited):
            best = max(best, 1 + walk(after, visited | {after}))
        return best

    try:
        return walk(board, seen)
    finally:
        walk.cache_clear()


def greedy_prolonger_length(graph: Graph, prolonger: Player, max_nodes: int = 2_000_000) -> int:
    """A lower bound on the forced length: the prolonger follows one fixed strategy (place the
    stone after which its own longest walk of new boards is longest; pass only when no
    placement is legal) and the shortener answers in every way (min over its moves)."""
    count = counter(max_nodes, "states")

    @functools.lru_cache(maxsize=None)
    def length(board: tuple, player: Player, passed: bool, seen: frozenset) -> int:
        count()
        other = WHITE if player == BLACK else BLACK
        placements = new_boards(graph, board, player, seen)
        if player == prolonger:
            if not placements:
                return 1 if passed else 1 + length(board, other, True, seen)
            best = max(placements, key=lambda b: (own_walk(graph, b, player, seen | {b}), b))
            return 1 + length(best, other, False, seen | {best})
        options = [1 if passed else 1 + length(board, other, True, seen)]
        options += [1 + length(b, other, False, seen | {b}) for b in placements]
        return min(options)

    empty = tuple(EMPTY for _ in graph.points)
    try:
        return length(empty, BLACK, False, frozenset({empty}))
    finally:
        length.cache_clear()
