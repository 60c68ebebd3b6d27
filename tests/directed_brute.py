"""A second solver for source 000's game without ko bids or history deletion, written apart
from ``gorules.impl.rulesets.directed.arena``: its own reading of the capture rule, its own arena
of (board, mover, last turn) positions, McNaughton's colour-at-a-time recursion in place
of Zielonka's tree, regions only (no strategies), and the lazy-play search done by
guessing the live stones.  Used by the tests on the 2- and 3-point digraphs.
"""

from __future__ import annotations

import functools
from itertools import permutations, product

import networkx as nx


def digraph_classes(n: int) -> list[tuple]:
    """One arc set per isomorphism class of loopless digraphs on n points (least sorted arc tuple)."""
    arcs = [(a, b) for a in range(n) for b in range(n) if a != b]
    seen = set()
    found = []
    for bits in product((0, 1), repeat=len(arcs)):
        chosen = [a for a, bit in zip(arcs, bits) if bit]
        forms = [tuple(sorted((p[a], p[b]) for a, b in chosen)) for p in permutations(range(n))]
        least = min(forms)
        if least not in seen:
            seen.add(least)
            found.append(least)
    return found


def has_liberty(out: dict, board: str, v: int) -> bool:
    """The stone at v reaches an empty point along arcs through stones of its own colour."""
    stack, seen = [v], {v}
    while stack:
        u = stack.pop()
        for w in out[u]:
            if board[w] == ".":
                return True
            if board[w] == board[v] and w not in seen:
                seen.add(w)
                stack.append(w)
    return False


def put(out: dict, board: str, v: int, colour: str) -> str:
    """The seed's CAPTURING paragraph: the stone, then opposite stones without liberties go
    (all at once), then own stones without liberties go (all at once)."""
    b = board[:v] + colour + board[v + 1 :]
    other = "W" if colour == "B" else "B"
    for who in (other, colour):
        dead = [u for u in range(len(b)) if b[u] == who and not has_liberty(out, b, u)]
        b = "".join("." if u in dead else c for u, c in enumerate(b))
    return b


class Game:
    """The arena: positions (board, player to move, how the last turn was played)."""

    def __init__(self, n: int, arcs):
        self.n = n
        out = {v: [w for a, w in arcs if a == v] for v in range(n)}
        self.positions = [
            ("".join(b), p, last) for b in product(".BW", repeat=n) for p in "BW" for last in ("stone", "pass")
        ]
        self.next = {}
        for pos in self.positions:
            board, p, _ = pos
            q = "W" if p == "B" else "B"
            succ = {(board, q, "pass")}
            for v in range(n):
                if board[v] == ".":
                    succ.add((put(out, board, v, p), q, "stone"))
            self.next[pos] = frozenset(succ)

    def tokens(self, pos) -> frozenset:
        """The colours of a position: which points are not Black, not White, and the last turn."""
        board, p, last = pos
        mover = "W" if p == "B" else "B"
        found = {("turn", mover, last)}
        for i, c in enumerate(board):
            if c != "B":
                found.add(("notB", i))
            if c != "W":
                found.add(("notW", i))
        return frozenset(found)

    def margin(self, seen: frozenset) -> int:
        """Live Black minus live White stones when `seen` recurs."""
        return sum((("notB", i) not in seen) - (("notW", i) not in seen) for i in range(self.n))


def attract(game: Game, region: frozenset, target: set, who: str) -> frozenset:
    """Positions of `region` from which `who` forces a visit to `target` (plain fixpoint)."""
    won = set(target)
    changed = True
    while changed:
        changed = False
        for pos in region:
            if pos in won:
                continue
            succ = [s for s in game.next[pos] if s in region]
            if (pos[1] == who and any(s in won for s in succ)) or (pos[1] != who and all(s in won for s in succ)):
                won.add(pos)
                changed = True
    return frozenset(won)


def black_region(game: Game, black_wins) -> frozenset:
    """The positions from which Black wins: McNaughton's recursion, one colour at a time."""

    @functools.lru_cache(maxsize=None)
    def solve(region: frozenset) -> frozenset:
        if not region:
            return frozenset()
        colours = frozenset().union(*(game.tokens(p) for p in region))
        me = "B" if black_wins(colours) else "W"
        them = "W" if me == "B" else "B"
        theirs: frozenset = frozenset()
        rest = region
        while rest:
            for c in sorted(colours, key=repr):
                a = attract(game, rest, {p for p in rest if c in game.tokens(p)}, me)
                sub = rest - a
                black_sub = solve(sub)
                their_sub = (sub - black_sub) if me == "B" else black_sub
                if their_sub:
                    gone = attract(game, rest, set(their_sub), them)
                    theirs |= gone
                    rest = rest - gone
                    break
            else:
                break
        return (region - theirs) if me == "B" else theirs

    return solve(frozenset(game.positions))


@functools.lru_cache(maxsize=None)
def solved(n: int, arcs: tuple):
    """The game, and Black's region for "margin ≥ t" for each t."""
    game = Game(n, arcs)
    regions = {t: black_region(game, lambda seen, t=t: game.margin(seen) >= t) for t in range(-n + 1, n + 1)}
    return game, regions


def value(n: int, arcs: tuple, pos) -> int:
    """The largest t with Black keeping the margin ≥ t from pos."""
    _, regions = solved(n, arcs)
    return max([-n] + [t for t, r in regions.items() if pos in r])


def start_of(board: str):
    """The start position: Black to move."""
    return (board, "B", "stone")


def komis(n: int, arcs: tuple, board: str) -> list:
    """The komi (integers and half-integers) at which the first player draws against either choice."""
    v = value(n, arcs, start_of(board))
    found = []
    for twice in range(-2 * n - 2, 2 * n + 3):
        k = twice / 2
        if v >= k and v <= k:
            found.append(k)
    return found


def stability_class(n: int, arcs: tuple, board: str) -> str:
    """stable / unstable / mixed at komi = value, "eventually always passes" reading."""
    game, _ = solved(n, arcs)
    start = start_of(board)
    v = value(n, arcs, start)
    black_stone, white_stone = ("turn", "B", "stone"), ("turn", "W", "stone")
    black_settles = start in black_region(game, lambda s: game.margin(s) >= v and black_stone not in s)
    white_settles = start not in black_region(game, lambda s: game.margin(s) > v or white_stone in s)
    if black_settles and white_settles:
        return "stable"
    if not black_settles and not white_settles:
        return "unstable"
    return "mixed"


def lazy_after_error(n: int, arcs: tuple, board: str) -> bool:
    """Some win-or-draw strategy (komi = value) can settle, after an opponent's error, for less
    than the value of the position reached: found by guessing the live stones of the play."""
    game, regions = solved(n, arcs)
    start = start_of(board)
    v = value(n, arcs, start)
    everything = frozenset(game.positions)
    for side in "BW":
        if side == "B":
            keep = regions[v] if v > -n else everything
        else:
            keep = (everything - regions[v + 1]) if v < n else everything
        g = nx.DiGraph()
        g.add_nodes_from(keep)
        g.add_edges_from((p, s) for p in keep for s in game.next[p] if s in keep)
        reach = nx.descendants(g, start) | {start}
        for q in reach:
            u = value(n, arcs, q)
            if (side == "B" and u <= v) or (side == "W" and u >= v):
                continue
            low, high = (v, u - 1) if side == "B" else (u + 1, v)
            after = nx.descendants(g, q) | {q}
            if _settles(game, g.subgraph(after), low, high):
                return True
    return False


def _settles(game: Game, g, low: int, high: int) -> bool:
    """A play in g can recur on positions whose live stones give a margin in [low, high]:
    guess the live Black set LB and live White set LW, keep the positions that agree, and
    look for a cycle-carrying strongly connected component that shows every other point
    not Black and not White somewhere (so that the live sets are exactly LB and LW)."""
    n = game.n
    for assignment in product("BW-", repeat=n):
        lb = [i for i in range(n) if assignment[i] == "B"]
        lw = [i for i in range(n) if assignment[i] == "W"]
        if not low <= len(lb) - len(lw) <= high:
            continue
        nodes = [p for p in g if all(p[0][i] == "B" for i in lb) and all(p[0][i] == "W" for i in lw)]
        h = g.subgraph(nodes)
        for component in nx.strongly_connected_components(h):
            if len(component) == 1:
                (p,) = component
                if not h.has_edge(p, p):
                    continue
            tokens = frozenset().union(*(game.tokens(p) for p in component))
            if all(("notB", i) in tokens for i in range(n) if i not in lb) and all(
                ("notW", i) in tokens for i in range(n) if i not in lw
            ):
                return True
    return False
