"""A second solver for source 000's whole game, written apart from
``gorules.impl.rulesets.directed.full_arena`` and ``full_game``: its arena is made by asking
the spec's ``turn`` for the result of every whole turn (the players' decisions grouped
as the spec's Turn and KoBid fields are filled in: the opponent's deletion, the mover's
deletion, move and amount, the answer, the bidder's reset), every unsustainable action of
a turn is put on the one arc into the next situation, and the winning condition is read
from tokens with every subset of the recurring tokens tried in Zielonka's recursion
(no structure used).  Small arenas only.  Bids are the multiples of a step up to 2n + step
(step None: bids of 0 only, the reading ``bids=zero``), the menu stated apart here.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from gorules.spec import directed
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE


def amounts(n: int, step: Fraction | None) -> list[Fraction]:
    """0, step, 2·step, … up to 2n + step: past the score window [−n, n] a larger bid leads to
    the same decided plays."""
    if step is None:
        return [Fraction(0)]
    found = [Fraction(0)]
    while found[-1] < 2 * n + step:
        found.append(found[-1] + step)
    return found


def other(p: str) -> str:
    """The other colour."""
    return WHITE if p == BLACK else BLACK


class Game:
    """Nodes: ("S", board, player, history, e) before a turn; ("D", S, deleter) after the
    opponent's deletion choice; ("A", S, deleter, move, amount) waiting for the answer;
    ("R", S, deleter, move, amount) waiting for the bidder's reset; ("C", tokens, node) an arc
    carrying a turn's actions; ("X", winner) a decided play."""

    def __init__(
        self,
        graph,
        older: bool = False,
        forbid_delete: bool = False,
        swap: bool = False,
        loop_only: bool = False,
        step: Fraction | None = None,
    ):
        self.graph = graph
        self.n = graph.order
        self.amounts = amounts(graph.order, step)
        self.older = older
        self.forbid_delete = forbid_delete
        self.swap = swap
        self.loop_only = loop_only
        self.succ: dict = {}
        self.owner: dict = {}

    def state(self, node) -> directed.State:
        """The spec situation of a node before a turn (White's score 0, Black's e)."""
        _, board, player, history, e = node
        return directed.State(board, player, e, Fraction(0), history)

    def after(self, node, turn: directed.Turn):
        """The node the spec's turn leads to, through an arc carrying the turn's actions."""
        s = self.state(node)
        t = directed.turn(self.graph, s, turn)
        if t is None:
            return None
        tokens = set()
        for who, rank in directed.unsustainable_actions(s, turn):
            tokens.add((who, self.rank(rank)))
        if self.older and turn.move != PASS:
            tokens.add((s.player, 1))
        e = t.black_score - t.white_score
        if e > self.n:
            nxt = ("X", BLACK)
        elif e < -self.n:
            nxt = ("X", WHITE)
        else:
            nxt = ("S", t.board, t.player, t.history | {t.board}, e)
        return ("C", frozenset(tokens), nxt) if tokens else nxt

    def rank(self, rank: int) -> int:
        """A spec rank under this game's order (shifted up by the older reading's placement,
        reversed by the swapped mutant)."""
        if self.swap:
            rank = 5 - rank
        return rank + 1 if self.older else rank

    def resets(self, node, deleter, move) -> list:
        """The boards a ko winner may name (None keeps the board)."""
        history = frozenset() if deleter else node[3]
        if self.loop_only:
            return [None] + ([node[1]] if node[1] in history else [])
        return [None, *sorted(history)]

    def expand(self, node) -> list:
        """The successors of a node."""
        kind = node[0]
        if kind == "S":
            options = [("D", node, None)]
            if not self.forbid_delete:
                options.append(("D", node, other(node[2])))
            return options
        if kind == "D":
            s, deleter = node[1], node[2]
            deleters = [deleter] if deleter or self.forbid_delete else [None, s[2]]
            found = []
            for d in deleters:
                for move in [PASS, *(v for v in self.graph.points if s[1][v] == EMPTY)]:
                    found.append(self.after(s, directed.Turn(move, d)))
                    if move != PASS:
                        found.extend(("A", s, d, move, a) for a in self.amounts)
            return found
        if kind == "A":
            _, s, d, move, amount = node
            bidder = s[2]
            found = [self.after(s, directed.Turn(move, d, directed.KoBid(amount)))]
            for r in self.resets(s, d, move):
                found.append(self.after(s, directed.Turn(move, d, directed.KoBid(amount, other(bidder), r))))
            found.append(("R",) + node[1:])
            return found
        if kind == "R":
            _, s, d, move, amount = node
            return [
                self.after(s, directed.Turn(move, d, directed.KoBid(amount, s[2], r))) for r in self.resets(s, d, move)
            ]
        if kind == "C":
            return [node[2]]
        return [node]

    def who(self, node) -> str:
        """Who chooses at a node."""
        kind = node[0]
        if kind == "S":
            return other(node[2])
        if kind == "D":
            return node[1][2]
        if kind == "A":
            return other(node[1][2])
        if kind == "R":
            return node[1][2]
        return BLACK

    def build(self, starts: list) -> None:
        """Every node reachable from the starts."""
        todo = list(starts)
        while todo:
            node = todo.pop()
            if node in self.succ:
                continue
            nexts = [x for x in self.expand(node) if x is not None]
            self.succ[node] = frozenset(nexts)
            self.owner[node] = self.who(node)
            todo.extend(nexts)

    def tokens(self, node) -> frozenset:
        """Situations show which points are not Black and not White, and e; arcs their actions;
        a decided play the loser's worst action."""
        kind = node[0]
        if kind == "S":
            found = {("e", node[4])}
            for i, c in enumerate(node[1]):
                if c != BLACK:
                    found.add(("notB", i))
                if c != WHITE:
                    found.add(("notW", i))
            return frozenset(found)
        if kind == "C":
            return node[1]
        if kind == "X":
            return frozenset({(other(node[1]), 9)})
        return frozenset()


def result(tokens: frozenset, n: int) -> tuple:
    """(Black's unsustainability, White's, e + live margin) of a recurring token set."""
    black = max((r for t, r in tokens if t == BLACK), default=0)
    white = max((r for t, r in tokens if t == WHITE), default=0)
    es = [v for t, v in tokens if t == "e"]
    margin = sum((("notB", i) not in tokens) - (("notW", i) not in tokens) for i in range(n))
    return black, white, (max(es) if es else 0) + margin


def black_wins(kind: str, n: int):
    """Black's condition: 'win' or 'win-or-draw'."""

    def wins(tokens: frozenset) -> bool:
        black, white, tie = result(tokens, n)
        if black or white:
            return black < white if kind == "win" else black <= white
        return tie > 0 if kind == "win" else tie >= 0

    return wins


def attract(game: Game, region: set, target: set, player: str) -> set:
    """The nodes of `region` from which `player` forces a visit to `target`."""
    won = set(target)
    count = {v: sum(1 for w in game.succ[v] if w in region) for v in region}
    preds: dict = {}
    for v in region:
        for w in game.succ[v]:
            if w in region:
                preds.setdefault(w, []).append(v)
    queue = list(won)
    while queue:
        w = queue.pop()
        for v in preds.get(w, []):
            if v in won:
                continue
            count[v] -= 1
            if game.owner[v] == player or count[v] == 0:
                won.add(v)
                queue.append(v)
    return won


def black_region(game: Game, wins) -> set:
    """Black's winning nodes: Zielonka's recursion, children found among all token subsets
    (each token set's children found once)."""
    known: dict = {}

    def solve(region: set) -> set:
        if not region:
            return set()
        seen = frozenset().union(*(game.tokens(v) for v in region))
        me = BLACK if wins(seen) else WHITE
        them = other(me)
        lost: set = set()
        rest = set(region)
        changed = True
        while changed and rest:
            changed = False
            if seen not in known:
                known[seen] = children(seen, wins)
            for d in known[seen]:
                outside = {v for v in rest if not game.tokens(v) <= d}
                sub = rest - attract(game, rest, outside, me)
                black = solve(sub)
                theirs = (sub - black) if me == BLACK else black
                if theirs:
                    gone = attract(game, rest, theirs, them)
                    lost |= gone
                    rest -= gone
                    changed = True
                    break
        return rest if me == BLACK else lost

    return solve(set(game.succ))


def children(seen: frozenset, wins) -> list:
    """The largest token sets inside `seen` with the other winner (every subset tried)."""
    top = wins(seen)
    items = sorted(seen, key=repr)
    found: list = []
    for size in range(len(items) - 1, -1, -1):
        for combo in combinations(items, size):
            d = frozenset(combo)
            if wins(d) != top and not any(d <= f for f in found):
                found.append(d)
    return found


def outcomes(graph, komis: list, **mutation) -> dict:
    """B / draw / W from the empty board at each komi (one arena per komi, so that few e recur)."""
    empty = tuple(EMPTY for _ in graph.points)
    found = {}
    for k in komis:
        e = -Fraction(k)
        if abs(e) > graph.order:
            found[k] = BLACK if e > 0 else WHITE
            continue
        game = Game(graph, **mutation)
        start = ("S", empty, BLACK, frozenset({empty}), e)
        game.build([start])
        if start in black_region(game, black_wins("win", graph.order)):
            found[k] = BLACK
        else:
            found[k] = "draw" if start in black_region(game, black_wins("win-or-draw", graph.order)) else WHITE
    return found
