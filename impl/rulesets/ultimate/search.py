"""Ultimate and Fundamental Go (source ``003_ba4357ff6ddc9904.txt``) solved by yes/no searches.

The spec (:mod:`gorules.spec.ultimate`) states the rules on tuples; this module plays the
same game on bitsets and decides it by two boolean searches, AND–OR searches that call
each other:

- ``can_win(p)``: the player to move has a strategy that ends in her win: some move after
  which the opponent cannot even draw;
- ``can_draw(p)``: she has one that ends at least in a draw: she holds the right to declare
  one, or some move after which the opponent cannot win.

The Ultimate Go result is a win if ``can_win``, else a draw if ``can_draw``, else a loss.
Fundamental Go has no draws, so ``can_win`` alone decides it, and section IV's score is
found by asking ``can_win`` with more and more mid-game komi.

**Why the table is sound under positional superko.**  Whether a placement is legal depends
on the history (rule 5).  Each answer the search proves records the boards whose presence
in the history its proof asked about (Q) and those it found there (D = H ∩ Q, H the
history at the node); boards that the line below the node itself created are not asked of
H.  The same proof holds at the same position with any history H' for which H' ∩ Q = D,
and only then is the answer reused (the graph–history interaction handled exactly, as the
Tromp–Taylor solver does).  Boards are numbered on first sight and Q, D, H are bitsets
over those numbers.

**Why the bowls are stored less their common part.**  Section IV: one more prisoner in
each bowl changes nothing (whoever wins keeps her extra stone and delays with it right
after the opponent delays with his); the same argument keeps a draw.  And one more
prisoner of one's own never hurts (she need not use it).  So an answer is stored against
the prisoner difference d of the player to move (her bowl less the opponent's) as a bound:
a win at d is a win at every d' ≥ d, a loss at d a loss at every d' ≤ d.  ``canonical=False``
stores exact bowls instead; the check of the claim itself searches that way.
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from gorules.impl.solving.budget import Meter
from gorules.spec import ultimate as spec
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

Position = tuple
"""(black, white, player, black bowl, white bowl, ultimate, first, draw, history, forced):
black/white bitsets of stones; player 0 Black, 1 White; ultimate a 2-bit set of the players
still holding an ultimate prisoner (bit 0 Black, bit 1 White); first/draw the player who
played the first ultimate delay / may declare a draw, or −1; history a bitset over board
numbers; forced the delays White still owes (handicap)."""

DELAY = spec.DELAY
ULTIMATE_DELAY = spec.ULTIMATE_DELAY
COLOURS = (BLACK, WHITE)
INF = 1 << 40
"""A prisoner difference beyond any game's (−INF: below any)."""
KEEP = 256
"""How many proofs (each with its own history condition) a table entry keeps."""
PROBE = 20_000
"""The node cap of a probe: a komi question of the score search that costs more is put
aside (unanswered) while other komi are tried."""
SHALLOW = 6
"""Positions with at most this many boards in their history are searched up to the graph's
symmetry (one placement per orbit of the automorphisms that fix the board and the history)
and kept out of the table."""
MAX_AUTOMORPHISMS = 120
"""The most automorphisms the early-game symmetry uses (every one of a graph of 5 points)."""
MOVED_SETS = 1 << 18
"""How many moved history sets are kept (a history seen again under the same automorphism
is moved once); the memory is emptied when it holds this many."""
JUMPS = 3
"""How many probes above a question put aside (K + 1, K + 2, K + 4) before it is asked in full."""
RACE = 5_000
"""The nodes each move order first gets when the two race (``decide``); four times as many
at each round after."""
MAX_COMPILED = 7
"""The largest graphs whose questions the compiled core answers (every board numbered)."""


class Abandoned(Exception):
    """A probe reached its node cap; nothing it had not proved was stored."""


class Engine:
    """Ultimate/Fundamental Go on one graph as bitsets, with the two yes/no searches."""

    def __init__(
        self,
        graph: Graph,
        canonical: bool = True,
        meter: Meter | None = None,
        progress=None,
        races: bool = True,
        symmetric: bool = True,
        frames: bool = True,
        hinted: bool = True,
        compiled: bool = False,
        search: str = "all",
        lemmas: bool = True,
        hand_over: int = 0,
    ):
        """Prepare the graph's neighbour sets.  ``meter`` (a budget's) counts every node of
        every search and raises BudgetSpent when the budget is used up; ``progress`` is
        called with the node count every thousand nodes.  With ``races`` a position that
        a delay race settles (see ``race``) is answered without a search; with ``symmetric``
        positions early in the game are searched up to the graph's symmetry (``SHALLOW``),
        and with ``frames`` later ones as the image whose board represents its class
        (``prove``); with ``hinted`` the fixed move order races one where the move that last
        reached a goal at a table key is tried there first (``decide``); with ``compiled``
        each question is asked of the compiled core (``ultimate_compiled``) on graphs it
        takes (at most 7 points), the Python search left for the owed delays of a handicap
        and for lines longer than the core's stack; ``search`` is the core's: "all" (the fixed and
        the hinted depth-first orders and proof-number search racing), "race" (the two
        depth-first orders alone) or "dfpn" (proof-number search alone); with ``lemmas``
        the score and the Ultimate result of a start that swapping the colours leaves alone
        skip the questions two lemmas answer (``symmetric_start``); with ``compiled`` and
        ``hand_over`` > 0 each question is asked of the Python search first while the engine
        has spent fewer than ``hand_over`` nodes in all, then of the compiled core (as
        ``solve(core="auto")``: the easy graphs answered before the core would have loaded)."""
        self.graph = graph
        self.n = graph.order
        self.neighbours = [sum(1 << w for w in graph.neighbours[v]) for v in graph.points]
        self.full = (1 << self.n) - 1
        self.canonical = canonical
        self.races = races
        self.meter = meter
        self.progress = progress
        self.nodes = 0
        self.cap: int | None = None  # a probe's last node (Abandoned past it), or None
        self.numbers: dict[int, int] = {}
        self.codes: list[int] = []  # the board of each history bit
        self.symmetric = symmetric
        self.symmetries: list[tuple[int, ...]] | None = None  # the graph's automorphisms, when first needed
        self.orbits: dict[tuple[int, int], list[int]] = {}
        self.early: dict[
            tuple, list[tuple[bool, int]]
        ] = {}  # shallow answers, by exact history  # (board, history) -> the placements searched there
        self.moves: dict[tuple[int, int], tuple[list, int]] = {}  # the placements, per board and player
        self.solos: dict[tuple[int, int], int] = {}  # solo(), per board and player
        self.greedy: dict[tuple[int, int], list] = {}  # the same, those that take the most stones first
        self.tables: tuple[dict, dict] = ({}, {})  # can_win, can_draw
        self.frames = frames
        self.frames_of: dict[int, tuple[int, int]] = {}  # frame(), per board
        self.inverses: list[int] = []  # the index of each automorphism's inverse, when first needed
        self.moves_of: defaultdict[int, dict[int, int]] = defaultdict(dict)  # history bit -> bit, per automorphism
        self.moved_sets: dict[tuple[int, int], int] = {}  # moved(), per set of bits and automorphism
        self.bounds: tuple[float, float] = (-INF, INF)  # the score, as far as proved
        self.hinted = hinted
        self.racing = False  # within decide(): the two orders are racing
        self.use_hints = hinted  # whether the hints order the moves now
        self.hints: dict[tuple, object] = {}  # (goal, table key) -> the move that last reached the goal there
        self.core: Any = None  # the compiled core (``ultimate_compiled``), when first needed
        self.compiled = compiled and canonical and self.n <= MAX_COMPILED
        self.search = search
        self.lemmas = lemmas
        self.hand_over = hand_over

    # ---- boards

    def code(self, black: int, white: int) -> int:
        """One integer for a board: Black's stones, then White's shifted past them."""
        return black | (white << self.n)

    def bit(self, code: int) -> int:
        """The history bit of a board (boards numbered on first sight)."""
        number = self.numbers.get(code)
        if number is None:
            number = self.numbers[code] = len(self.numbers)
            self.codes.append(code)
        return 1 << number

    def group(self, stones: int, v: int) -> int:
        """The points of the string through v among ``stones``."""
        found = frontier = 1 << v
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= self.neighbours[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & stones & ~found
            found |= frontier
        return found

    def breathes(self, string: int, empty: int) -> bool:
        """Whether some point next to the string is empty."""
        while string:
            low = string & -string
            if self.neighbours[low.bit_length() - 1] & empty:
                return True
            string ^= low
        return False

    def place(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The mover's stone on empty point v, the opponent's surrounded strings taken off:
        (own, other, stones taken), or None if the placed stone is then surrounded."""
        own |= 1 << v
        empty = self.full & ~(own | other)
        taken = 0
        rest = self.neighbours[v] & other
        while rest:
            low = rest & -rest
            string = self.group(other, low.bit_length() - 1)
            rest &= ~string
            if not self.breathes(string, empty):
                taken |= string
        if taken:
            return own, other & ~taken, taken.bit_count()
        if not self.breathes(self.group(own, v), empty):
            return None
        return own, other, 0

    # ---- positions

    def from_situation(self, s: spec.State) -> Position:
        """The position of a spec situation (one not yet over)."""
        black, white = board_bits(s.board)
        history = 0
        for board in s.history:
            history |= self.bit(self.code(*board_bits(board)))
        ultimate = (BLACK in s.ultimate) | (WHITE in s.ultimate) << 1
        return (
            black,
            white,
            COLOURS.index(s.player),
            s.black_prisoners,
            s.white_prisoners,
            ultimate,
            -1 if s.first_ultimate is None else COLOURS.index(s.first_ultimate),
            -1 if s.draw_right is None else COLOURS.index(s.draw_right),
            history,
            getattr(s, "forced_delays", 0),
        )

    def to_situation(self, p: Position) -> spec.State:
        """The spec situation of a position (its bowls as they are)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        codes = {1 << number: code for code, number in self.numbers.items()}
        boards = frozenset(
            board_tuple(self.n, code & self.full, code >> self.n) for bit, code in codes.items() if history & bit
        )
        held = frozenset(c for i, c in enumerate(COLOURS) if ult >> i & 1)
        named = {-1: None, 0: BLACK, 1: WHITE}
        board = board_tuple(self.n, black, white)
        return spec.State(
            board, COLOURS[player], bb, wb, held, named[first], named[draw], boards | {board}, None, forced
        )

    def children(self, p: Position) -> tuple[list[tuple[object, Position, int]], int]:
        """The moves of the player to move as (move, position, the bit of the board it
        made or 0), placements by point then the delay and the ultimate delay; and the bits
        of every board asked of the history (the placements it refused among them)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        own_bowl = bb if player == 0 else wb
        delayed = (black, white, 1 - player, bb - (player == 0), wb - (player == 1), ult, first, draw, history)
        if forced and player == 1:
            return ([(DELAY, (*delayed, forced - 1), 0)] if own_bowl else []), 0
        found: list[tuple[object, Position, int]] = []
        placements, asked = self.placements(black, white, player)
        for v, nb, nw, taken, bit in placements:
            if history & bit:
                continue
            bowls = (bb + taken, wb) if player == 0 else (bb, wb + taken)
            found.append((v, (nb, nw, 1 - player, *bowls, ult, first, draw, history | bit, forced), bit))
        if own_bowl:
            found.append((DELAY, (*delayed, forced), 0))
        if ult >> player & 1:
            rest = ult & ~(1 << player)
            after = (player, draw) if first < 0 else (first, 1 - player)
            found.append((ULTIMATE_DELAY, (black, white, 1 - player, bb, wb, rest, *after, history, forced), 0))
        return found, asked

    def placed(self, black: int, white: int, player: int) -> list[tuple[int, int, int, int]]:
        """The placements of ``player`` on a board that leave her stone a liberty, as (point,
        black, white, stones taken), by point."""
        found = []
        own, other = (black, white) if player == 0 else (white, black)
        empty = self.full & ~(black | white)
        for v in range(self.n):
            if not empty >> v & 1:
                continue
            placed = self.place(own, other, v)
            if placed is None:
                continue
            a, b, taken = placed
            found.append((v, a, b, taken) if player == 0 else (v, b, a, taken))
        return found

    def placements(self, black: int, white: int, player: int) -> tuple[list[tuple[int, int, int, int, int]], int]:
        """The placements of ``player`` on a board that leave her stone a liberty, as (point,
        black, white, stones taken, the history bit of the board made), and the bits of all
        those boards.  They depend on the board alone (the history only bars some), so they
        are worked out once per board and player."""
        key = (self.code(black, white), player)
        known = self.moves.get(key)
        if known is not None:
            return known
        found = []
        asked = 0
        for v, nb, nw, taken in self.placed(black, white, player):
            bit = self.bit(self.code(nb, nw))
            asked |= bit
            found.append((v, nb, nw, taken, bit))
        self.moves[key] = found, asked
        self.greedy[key] = sorted(found, key=lambda m: -m[3])
        return found, asked

    def count(self) -> None:
        """One more node: the meter ticked (BudgetSpent past the budget), progress told every thousand."""
        self.nodes += 1
        if self.cap is not None and self.nodes > self.cap:
            raise Abandoned
        if self.meter is not None:
            self.meter.tick()
        if self.progress is not None and not self.nodes % 1000:
            self.progress(self.nodes)

    # ---- the table

    def node_key(self, p: Position) -> tuple:
        """The table key of a position: all of it but its bowls and history."""
        black, white, player, bb, wb, ult, first, draw, _, forced = p
        key = (self.code(black, white), player, ult, first, draw, forced)
        return key if self.canonical else (*key, bb, wb)

    def difference(self, p: Position) -> int:
        """The prisoner difference of the player to move: her bowl less the opponent's."""
        return p[3] - p[4] if p[2] == 0 else p[4] - p[3]

    def normal(self, p: Position) -> Position:
        """p with its bowls less their common part (which changes nothing, section IV)."""
        common = min(p[3], p[4])
        return p if not common else (*p[:3], p[3] - common, p[4] - common, *p[5:])

    def lookup(self, goal: int, p: Position, key: tuple | None = None) -> tuple[bool, int] | None:
        """A stored proof that applies at p (whose table key is ``key``, if given): (answer,
        its query bits), or None."""
        entries = self.tables[goal].get(self.node_key(p) if key is None else key)
        if not entries:
            return None
        d, history = self.difference(p), p[8]
        i = 0
        for answer, at, asked, found in entries:
            # the history test first: it is the one that fails (and the loop is the hot spot)
            if history & asked == found and (d >= at if answer else d <= at):
                if i:
                    entries.insert(0, entries.pop(i))  # the most recently used first
                return answer, asked
            i += 1
        return None

    def remember(self, goal: int, p: Position, answer: bool, asked: int, key: tuple | None = None) -> None:
        """Store a proof at p (whose table key is ``key``, if given) with the history
        condition it needs."""
        entries = self.tables[goal].setdefault(self.node_key(p) if key is None else key, [])
        entries.insert(0, (answer, self.difference(p), asked, p[8] & asked))
        del entries[KEEP:]

    # ---- the two yes/no searches

    def can_win(self, p: Position) -> bool:
        """Whether the player to move has a strategy that ends in her win."""
        return self.decide(0, p)

    def can_draw(self, p: Position) -> bool:
        """Whether the player to move has a strategy that ends at least in a draw."""
        return self.decide(1, p)

    def decide(self, goal: int, p: Position) -> bool:
        """``prove(goal, p)``'s answer.  With ``hinted`` the two move orders race: the fixed
        order and the hinted one (``hint_first``) each get ``RACE`` nodes, then four times
        as many, and so on, until one answers; a search cut off keeps in the table only what
        it proved (as a probe does), so each attempt starts from every proof found before.
        Neither order is better everywhere (on one dense 6-point graph the hints cut the
        nodes fivefold, on another they multiply them by more than four)."""
        if self.compiled and not self.racing and not p[9]:
            answer = self.decide_python_first(goal, p) if self.nodes < self.hand_over else None
            if answer is None:
                answer = self.decide_compiled(goal, p)
            if answer is not None:
                return answer
        if not self.hinted or self.racing:
            return self.prove(goal, p)[0]
        outer = self.cap  # a probe's cap, which cuts every attempt
        budget = RACE
        self.racing = True
        try:
            while True:
                for hints in (False, True):
                    cap = self.nodes + budget
                    self.cap = cap if outer is None else min(cap, outer)
                    self.use_hints = hints
                    try:
                        return self.prove(goal, p)[0]
                    except Abandoned:
                        if outer is not None and self.nodes > outer:
                            raise
                budget *= 4
        finally:
            self.cap, self.racing, self.use_hints = outer, False, True

    def decide_python_first(self, goal: int, p: Position) -> bool | None:
        """``decide(goal, p)`` by the Python search until the engine has spent ``hand_over``
        nodes in all: its answer, or None if it had none by then (a probe's cap reached
        first still ends the question, as it would in the compiled core)."""
        outer = self.cap
        self.cap = self.hand_over if outer is None else min(self.hand_over, outer)
        self.compiled = False
        try:
            return self.decide(goal, p)
        except Abandoned:
            if outer is not None and self.nodes > outer:
                raise
            return None
        finally:
            self.cap, self.compiled = outer, True

    def decide_compiled(self, goal: int, p: Position) -> bool | None:
        """``prove(goal, p)``'s answer from the compiled core, its nodes counted here (the
        meter ticked, progress told every thousand, Abandoned past a probe's cap); None if
        a line outgrew the core's stack."""
        from gorules.impl.rulesets.ultimate.compiled import DFPN, SLICE, CompiledQuestions, Overflowed

        if self.core is None:
            orders = {"race": (0, 1), "dfpn": (DFPN,), "all": (0, 1, DFPN)}[self.search]
            self.core = CompiledQuestions(self, orders=orders)

        def room() -> int:
            """The nodes of the next slice: up to just past a probe's cap or the node budget."""
            ends = [SLICE]
            if self.cap is not None:
                ends.append(self.cap + 1 - self.nodes)
            if self.meter is not None and self.meter.budget.nodes is not None:
                ends.append(self.meter.budget.nodes + 1 - self.meter.nodes)
            return max(1, min(ends))

        def on_nodes(k: int) -> None:
            """Count k nodes of the core as this engine's."""
            before = self.nodes
            self.nodes += k
            if self.progress is not None:
                for thousand in range(before // 1000 + 1, self.nodes // 1000 + 1):
                    self.progress(thousand * 1000)
            if self.meter is not None and k:
                self.meter.tick(k)
            if self.cap is not None and self.nodes > self.cap:
                raise Abandoned

        try:
            return self.core.decide(goal, p, on_nodes, room)
        except Overflowed:
            return None

    def prove(self, goal: int, p: Position) -> tuple[bool, int]:
        """Whether the player to move reaches her goal (0 a win, 1 at least a draw), with the
        bits of the boards whose presence in the history the proof asked about.  Past the
        early game (``SHALLOW``), with ``frames``, the position is searched as its image
        under the automorphism that takes its board to its representative (``frame``): the
        image of a position (board and every history board moved alike) is the same game,
        so symmetric positions share the table; the bits asked are moved back."""
        if self.frames and p[8].bit_count() > SHALLOW:
            code, sigma = self.frame(self.code(p[0], p[1]))
            if sigma >= 0:
                image = (code & self.full, code >> self.n, *p[2:8], self.moved(p[8], sigma), p[9])
                answer, used = self.prove_here(goal, image)
                return answer, self.moved(used, self.inverses[sigma])
        return self.prove_here(goal, p)

    def prove_here(self, goal: int, p: Position) -> tuple[bool, int]:
        """``prove`` at p itself (its children are asked of ``prove``)."""
        if goal == 1:
            if p[7] == p[2]:
                return True, 0  # she may declare a draw
            if not p[5] and p[7] < 0:
                goal = 0  # no draw can happen any more
        if self.races and not p[5] and p[7] < 0 and not p[9]:
            raced = self.race(p)
            if raced is not None:
                return raced, 0  # the history plays no part in it
        key = self.node_key(p)
        known = self.lookup(goal, p, key)
        if known is not None:
            return known
        shallow = self.symmetric and p[8].bit_count() <= SHALLOW
        if shallow:
            found = self.early_answer(goal, p, key)
            if found is not None:
                return found, p[8]
        self.count()
        moves, asked = self.ordered_children(p)
        if shallow:
            kept = self.representatives(p)
            moves = [m for m in moves if not isinstance(m[0], int) or m[0] in kept]
        hint = self.hints.get((goal, key)) if self.use_hints else None
        if hint is not None:
            moves = self.hint_first(moves, hint)
        answer, used = False, self.loss_query(asked, p[8])
        for move, child, bit in moves:
            refuted, below = self.prove(1 - goal, child)
            below &= ~bit  # the board this move made is the line's own, not the history's
            if not refuted:
                answer, used = True, below | bit
                if self.hinted:
                    self.hints[(goal, key)] = move
                break
            used |= below
        if shallow:
            # a shallow answer used the symmetry of this history, which its query bits do
            # not record: it is stored for this very history only (as are its ancestors')
            self.early.setdefault((goal, key, p[8]), []).append((answer, self.difference(p)))
        else:
            self.remember(goal, p, answer, used, key)
        return answer, used

    @staticmethod
    def hint_first(moves: list, hint: object) -> list:
        """The moves with ``hint`` (the move that last reached the goal at this table key,
        under some other history or prisoner difference) tried first, if it is among them.
        Only the order changes: every move is still tried until one reaches the goal."""
        for i, m in enumerate(moves):
            if m[0] == hint:
                return [m, *moves[:i], *moves[i + 1 :]] if i else moves
        return moves

    @staticmethod
    def loss_query(asked: int, history: int) -> int:
        """What a loss at a node needs of the history besides its children's proofs: that
        the placements the history barred (``asked & history``) stay barred.  A placement
        that was legal need not stay legal: barring it takes a move from the loser, whose
        every move already loses."""
        return asked & history

    def early_answer(self, goal: int, p: Position, key: tuple) -> bool | None:
        """A shallow answer stored for p's key and exact history that applies at p's prisoner
        difference (a win at d holds at every d' ≥ d, a loss at every d' ≤ d), or None."""
        d = self.difference(p)
        for answer, at in self.early.get((goal, key, p[8]), ()):
            if d >= at if answer else d <= at:
                return answer
        return None

    # ---- symmetry early in the game

    def representatives(self, p: Position) -> list[int]:
        """One point of each orbit of the empty points under the automorphisms of the graph
        that fix the board and every board of the history (stone colours kept): placing on
        points of one orbit leads to isomorphic games, histories included."""
        black, white, history = p[0], p[1], p[8]
        code = self.code(black, white)
        known = self.orbits.get((code, history))
        if known is not None:
            return known
        boards = [self.codes[i] for i in range(len(self.codes)) if history >> i & 1] + [code]
        fixing = [sigma for sigma in self.automorphisms() if all(self.image(sigma, b) == b for b in boards)]
        empty = self.full & ~(black | white)
        kept: list[int] = []
        covered = 0
        for v in range(self.n):
            if empty >> v & 1 and not covered >> v & 1:
                kept.append(v)
                for sigma in fixing:
                    covered |= 1 << sigma[v]
        self.orbits[(code, history)] = kept
        return kept

    def automorphisms(self) -> list[tuple[int, ...]]:
        """Automorphisms of the graph as point permutations (networkx's matcher), at most
        ``MAX_AUTOMORPHISMS`` of them: any subset serves (each point a kept point covers is
        its image under an automorphism that fixes the history), fewer only fold less, and
        graphs with thousands of them (section VII's, with interchangeable eyes) would
        spend more time on the orbits than on the search."""
        if self.symmetries is None:
            import networkx as nx
            from networkx.algorithms.isomorphism import GraphMatcher

            g = nx.Graph()
            g.add_nodes_from(self.graph.points)
            g.add_edges_from(self.graph.edges())
            found = itertools.islice(GraphMatcher(g, g).isomorphisms_iter(), MAX_AUTOMORPHISMS)
            self.symmetries = [tuple(m[v] for v in range(self.n)) for m in found]
        return self.symmetries

    def frame(self, code: int) -> tuple[int, int]:
        """The representative of a board (the least code among its images under
        ``automorphisms``) and the index of an automorphism that takes the board there, −1
        if the board is its own representative; worked out once per board."""
        known = self.frames_of.get(code)
        if known is not None:
            return known
        if not self.inverses:
            symmetries = self.automorphisms()
            where = {sigma: i for i, sigma in enumerate(symmetries)}
            self.inverses = [where.get(inverse(sigma), -1) for sigma in symmetries]
        best, index = code, -1
        for i, sigma in enumerate(self.automorphisms()):
            if self.inverses[i] < 0:
                continue  # a truncated list may lack the inverse: skip that automorphism
            moved = self.image(sigma, code)
            if moved < best:
                best, index = moved, i
        self.frames_of[code] = best, index
        return best, index

    def moved(self, bits: int, sigma: int) -> int:
        """A set of history bits with every board moved by automorphism number ``sigma``."""
        known = self.moved_sets.get((bits, sigma))
        if known is not None:
            return known
        if len(self.moved_sets) >= MOVED_SETS:
            self.moved_sets.clear()
        mapping = self.moves_of[sigma]
        whole = bits
        found = 0
        while bits:
            low = bits & -bits
            target = mapping.get(low)
            if target is None:
                board = self.codes[low.bit_length() - 1]
                target = mapping[low] = self.bit(self.image(self.symmetries[sigma], board))  # type: ignore[index]
            found |= target
            bits ^= low
        self.moved_sets[(whole, sigma)] = found
        return found

    def image(self, sigma: tuple[int, ...], code: int) -> int:
        """A board code with every point v moved to sigma[v] (both colours)."""
        moved = 0
        while code:
            low = code & -code
            i = low.bit_length() - 1
            moved |= 1 << (sigma[i % self.n] + (i // self.n) * self.n)
            code ^= low
        return moved

    def race(self, p: Position) -> bool | None:
        """Whether the player to move wins by a delay race alone, in Fundamental Go (no
        ultimate prisoner held, no draw right, no owed delay): None if neither side's lead
        in prisoners settles it.

        While a player only delays, her own stones are never taken, and her opponent has at
        most his bowl + ``solo(board, him)`` moves left (superko, ignored there, only bars
        moves).  So a player to move whose bowl exceeds that wins by delaying at every turn;
        and one whose opponent's bowl reaches her bowl + ``solo(board, her)`` loses, the
        opponent delaying at every turn."""
        black, white, player, bb, wb = p[:5]
        own, other = (bb, wb) if player == 0 else (wb, bb)
        if other - own >= self.solo(black, white, player):
            return False
        if own - other > self.solo(black, white, 1 - player):
            return True
        return None

    def solo(self, black: int, white: int, player: int) -> int:
        """The most moves ``player`` can make from this board while her opponent only
        delays, superko ignored: her placements, each with the stones it takes (each a
        prisoner, one more delay).  Her stones are never taken then, so every line of
        them ends; worked out once per board and player."""
        key = (self.code(black, white), player)
        known = self.solos.get(key)
        if known is not None:
            return known
        own, other = (black, white) if player == 0 else (white, black)
        best = 0
        empty = self.full & ~(black | white)
        for v in range(self.n):
            if empty >> v & 1:
                placed = self.place(own, other, v)
                if placed is not None:
                    a, b, taken = placed
                    nb, nw = (a, b) if player == 0 else (b, a)
                    best = max(best, 1 + taken + self.solo(nb, nw, player))
        self.solos[key] = best
        return best

    def ordered_children(self, p: Position) -> tuple[list[tuple[object, Position, int]], int]:
        """``children(p)`` in the order of ``ordered``, built straight from the placements
        sorted once per board: the ultimate delay, the delay, then the placements that take
        the most stones first (by point among equals)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        if type(self).children is not Engine.children:
            # A variant of the rules (a mutant, a restricted play) changes the moves: its
            # children, in the same order.
            moves, asked = self.children(p)
            return self.ordered(moves), asked
        if forced and player == 1:
            return self.children(p)
        found: list[tuple[object, Position, int]] = []
        if ult >> player & 1:
            rest = ult & ~(1 << player)
            after = (player, draw) if first < 0 else (first, 1 - player)
            found.append((ULTIMATE_DELAY, (black, white, 1 - player, bb, wb, rest, *after, history, forced), 0))
        if bb if player == 0 else wb:
            found.append(
                (
                    DELAY,
                    (
                        black,
                        white,
                        1 - player,
                        bb - (player == 0),
                        wb - (player == 1),
                        ult,
                        first,
                        draw,
                        history,
                        forced,
                    ),
                    0,
                )
            )
        asked = self.placements(black, white, player)[1]
        for v, nb, nw, taken, bit in self.greedy[(self.code(black, white), player)]:
            if history & bit:
                continue
            bowls = (bb + taken, wb) if player == 0 else (bb, wb + taken)
            found.append((v, (nb, nw, 1 - player, *bowls, ult, first, draw, history | bit, forced), bit))
        return found, asked

    def ordered(self, moves: list) -> list:
        """Delays first (with a prisoner to spare, a delay is often best), then the
        placements that take the most stones."""
        return sorted(moves, key=lambda m: (isinstance(m[0], int), -(m[1][3] + m[1][4])))

    def result(self, p: Position) -> int:
        """The result for the player to move under best play: 1 a win, 0 a draw, −1 a loss."""
        if self.can_win(p):
            return 1
        return 0 if self.can_draw(p) else -1

    # ---- section IV: the score of Fundamental Go

    def fundamental(self, p: Position) -> Position:
        """The position with the draw option ignored: ultimate prisoners still held become
        plain prisoners and nobody may declare a draw (section VI's reading)."""
        black, white, player, bb, wb, ult, first, _, history, forced = p
        return (black, white, player, bb + (ult & 1), wb + (ult >> 1 & 1), 0, first, -1, history, forced)

    def with_komi(self, p: Position, colour: int, k: int) -> Position:
        """The position with k more stones in the bowl of ``colour`` (0 Black, 1 White)."""
        q = list(p)
        q[3 + colour] += k
        return tuple(q)

    def black_wins(self, p: Position) -> bool:
        """In Fundamental Go, whether Black has a winning strategy."""
        return self.can_win(p) == (p[2] == 0)

    def score(self, p: Position, probe: int | None = PROBE) -> float:
        """Section IV's score of a position read as Fundamental Go: min{K : White wins with
        K more prisoners} − ½ if Black wins, else −min{K : Black wins with K more} + ½.
        ``bounds`` holds what is proved so far (for a report when the budget runs out).

        Whether K more prisoners for the side behind turn the result is monotone in K (one
        more prisoner of one's own never hurts), so the score is where the answer turns.
        The questions are asked for K = 1, 2, … each first as a probe of ``probe`` nodes;
        one that costs more is put aside while K + 1, K + 2 and K + 4 are probed, so that a
        cheap answer above it bounds the score from the other side, and is then asked in
        full.  ``probe=None`` asks every question in full at once (K = 1, 2, … in turn)."""
        p = self.fundamental(p)
        self.bounds = (-INF, INF)
        black_ahead = self.black_wins(p)
        behind = 1 if black_ahead else 0
        self.bounds = self.score_bounds(black_ahead, 0, None)

        def turns(k: int) -> bool:
            """Whether k more prisoners for the side behind turn the result."""
            return self.black_wins(self.with_komi(p, behind, k)) != black_ahead

        low, high = 0, None  # the largest K known not to turn it, the least known to turn it
        if not black_ahead and self.lemmas and self.symmetric_start(p):
            high = 1  # the delay lemma (``symmetric_start``)
            self.bounds = self.score_bounds(black_ahead, low, high)
        aside: list[int] = []  # questions put aside, all between low and high
        while high is None or high > low + 1:
            k, cap = self.next_question(low, high, aside, probe)
            answer = self.probed(turns, k, cap)
            if answer is None:
                aside.append(k)
                continue
            if answer:
                high = k
                aside = [a for a in aside if a < k]
            else:
                low = k
                aside = [a for a in aside if a > k]
            self.bounds = self.score_bounds(black_ahead, low, high)
        return self.bounds[0]

    def symmetric_start(self, p: Position) -> bool:
        """Whether p is a start that swapping the colours leaves alone: the empty board,
        Black to move, equal bowls, nobody owing delays, no ultimate delay played (both
        ultimate prisoners held, or none), the empty board the only board of the history.

        Two lemmas hold there.  The delay lemma: if Black loses Fundamental Go at p, she
        wins with one more prisoner (score −½), for she delays and White is to move at p
        with the colours swapped, where the player to move loses.  The ultimate-delay
        lemma: if the score of Fundamental Go at p is −½ and both ultimate prisoners are
        held, Black can draw Ultimate Go: she plays her ultimate delay first; White is then
        to move where, as long as she keeps her own ultimate prisoner, the game is
        Fundamental Go with equal bowls and White to move (p with the colours swapped), which
        White loses, and once she plays it Black holds the right to declare a draw.  Nor
        can Black win: White wins Fundamental Go at p (the score is negative) with each
        ultimate prisoner taken as an ordinary one (one more prisoner each changes no
        winner), and the right to a draw is all that Ultimate Go adds for Black."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        if black or white or player != 0 or bb != wb or forced or first >= 0 or draw >= 0:
            return False
        return ult in (0, 3) and history == self.bit(self.code(0, 0))

    @staticmethod
    def next_question(low: int, high: int | None, aside: list[int], probe: int | None) -> tuple[int, int | None]:
        """The next K to ask and its node cap (None: in full): K = low + 1 as a probe, or a
        probe above the first question put aside, or that question in full."""
        if not aside:
            return low + 1, probe
        if len(aside) <= JUMPS:
            k = aside[0] + (1 << (len(aside) - 1))
            if high is None or k < high:
                return k, probe
        return aside[0], None

    def probed(self, question: Callable[[int], bool], k: int, probe: int | None) -> bool | None:
        """The answer to ``question(k)`` within ``probe`` more nodes, or None if it costs
        more (the proofs finished meanwhile stay in the table: they hold whatever the cap)."""
        if probe is None:
            return question(k)
        self.cap = self.nodes + probe
        try:
            return question(k)
        except Abandoned:
            return None
        finally:
            self.cap = None

    @staticmethod
    def score_bounds(black_ahead: bool, low: int, high: int | None) -> tuple[float, float]:
        """The score's bounds (for Black) when K = ``low`` more prisoners for the side behind
        keep the result and K = ``high`` turns it (None: no K known to)."""
        if black_ahead:
            return (low + 0.5, INF if high is None else high - 0.5)
        return (-INF if high is None else -high + 0.5, -low - 0.5)

    # ---- section VI: the Ultimate result from the score

    def untouched(self, p: Position) -> bool:
        """Whether both ultimate prisoners are still held and nobody holds a draw right."""
        return p[5] == 3 and p[6] < 0 and p[7] < 0

    @staticmethod
    def result_range(score: float, player: int) -> tuple[int, int]:
        """The Ultimate results (for the player to move: 1 win, 0 draw, −1 loss) that section
        IV's score of the same position allows while both ultimate prisoners are held.

        With the score ≥ 1½ for a player she wins Fundamental Go even with one more prisoner
        for the opponent: she never plays her ultimate delay and counts the opponent's as a
        plain prisoner, so no draw right can arise and she wins.  With the score ½ she wins
        Fundamental Go with both ultimate prisoners read as plain ones: played so, the
        opponent can at most declare a draw.  The same from the other side."""
        mine = score if player == 0 else -score
        if mine >= 1.5:
            return 1, 1
        if mine <= -1.5:
            return -1, -1
        return (0, 1) if mine > 0 else (-1, 0)

    @classmethod
    def results_between(cls, low: float, high: float, player: int) -> tuple[int, int]:
        """The least and greatest Ultimate result (for the player to move) that a score in
        [low, high] allows while both ultimate prisoners are held: −1 to 1 if its sign is
        not known."""
        if low < 0 < high:
            return -1, 1
        ends = cls.result_range(low, player), cls.result_range(high, player)
        return min(e[0] for e in ends), max(e[1] for e in ends)

    def result_given_score(self, p: Position, low: float, high: float | None = None) -> int:
        """The Ultimate result for the player to move, with the score of p known to lie in
        [low, high] (high=None: the score is low): decided by the score alone when it is at
        least 1½ from 0 for one player, else by one yes/no search (by both if its sign is
        not known, or if an ultimate prisoner has been used)."""
        high = low if high is None else high
        if low == high == -0.5 and self.lemmas and self.symmetric_start(p) and p[5] == 3:
            return 0  # the ultimate-delay lemma (``symmetric_start``): Black draws
        if not self.untouched(p) or low < 0 < high:
            return self.result(p)
        least, most = self.results_between(low, high, p[2])
        if least == most:
            return least
        if least == 0:
            return 1 if self.can_win(p) else 0
        return 0 if self.can_draw(p) else -1


def inverse(sigma: tuple[int, ...]) -> tuple[int, ...]:
    """The inverse of a point permutation."""
    back = [0] * len(sigma)
    for v, w in enumerate(sigma):
        back[w] = v
    return tuple(back)


def board_bits(board) -> tuple[int, int]:
    """The (black, white) bitsets of a board tuple."""
    black = sum(1 << v for v, c in enumerate(board) if c == BLACK)
    white = sum(1 << v for v, c in enumerate(board) if c == WHITE)
    return black, white


def board_tuple(n: int, black: int, white: int) -> tuple:
    """The board tuple ("B", "W", ".") of two bitsets on n points."""
    return tuple(BLACK if black >> v & 1 else WHITE if white >> v & 1 else EMPTY for v in range(n))


def deep(function: Callable, *args):
    """``function(*args)`` run on a thread with a large stack and a high recursion limit, so
    that long games do not overflow it; an exception is raised again here."""
    outcome: dict = {}

    def target() -> None:
        """Call the function, keeping its value or its exception."""
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    limit = sys.getrecursionlimit()
    size = threading.stack_size()
    sys.setrecursionlimit(max(limit, 200_000))
    threading.stack_size(512 * 1024 * 1024)
    try:
        worker = threading.Thread(target=target)
        worker.start()
        worker.join()
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# --------------------------------------------------------------------------- the solve command's hook

OUTCOME = {1: BLACK, 0: "draw", -1: WHITE}
"""Black's result as the interface writes it."""


def for_black(result: int, player: int) -> int:
    """A result for the player to move (1 win, 0 draw, −1 loss) as Black's."""
    return result if player == 0 else -result


def principal_variation(engine: Engine, p: Position, result: int) -> list:
    """Moves that keep the result from p to the end: the winner plays a winning move, a
    player held to a draw declares it if she may or plays a move that keeps it, the loser
    resigns."""
    line: list = []
    while True:
        if result == -1:
            return [*line, spec.RESIGN]
        if result == 0 and p[7] == p[2]:
            return [*line, spec.DECLARE_DRAW]
        moves, _ = engine.children(p)
        for move, child, _ in engine.ordered(moves):
            if -engine.result(child) == result:
                line.append(move)
                p = child
                result = -result
                break
        else:
            raise AssertionError("no move keeps the result: the search is inconsistent")


AUTO_NODES = 50_000
"""The nodes ``solve(core="auto")`` gives the Python search before it asks the compiled core
instead: the Python search settles the easy graphs before the compiled core would have loaded
and numbered its boards, the compiled core the hard ones, which the Python search leaves
open (docs/ultimate.md, "Solving: two yes/no searches")."""


def solve(situation, meter: Meter | None = None, progress=None, core: str = "auto"):
    """The value of an interface situation for Black, as the generic solver's Solution: under
    Ultimate Go its result (B, draw or W), found by the two yes/no searches; under Fundamental
    Go section IV's score (a number, its sign the winner), found by the score's questions, the
    result at the situation's own komi alongside (``details["result"]``).  The questions are
    asked of the Python search (``core="python"``), of the compiled core where it takes the
    graph ("compiled"), or of the Python search for ``AUTO_NODES`` nodes and then, if it has not
    answered, of the compiled core ("auto").  On a spent budget the bounds proved so far are
    reported with status ``bounds``."""
    import dataclasses

    from gorules.impl.solving.budget import Budget, BudgetSpent

    if core != "auto" or situation.graph.order > MAX_COMPILED:
        return solve_by(situation, meter, progress, core == "compiled")
    left = meter.budget.seconds - meter.seconds if meter is not None and meter.budget.seconds is not None else None
    nodes = AUTO_NODES if meter is None or meter.budget.nodes is None else min(AUTO_NODES, meter.budget.nodes)
    trial = Budget(seconds=left if left is None or left > 0 else 1e-9, nodes=nodes).meter()
    first = solve_by(situation, trial, progress, False)
    if first.status == "exact" or trial.nodes <= AUTO_NODES:  # answered, or the time ran out
        return first
    try:
        if meter is not None:
            meter.tick(trial.nodes)
    except BudgetSpent:
        return first
    second = solve_by(situation, meter, progress, True)
    return dataclasses.replace(
        second,
        nodes=second.nodes + first.nodes,
        seconds=second.seconds + first.seconds,
        method=second.method + f", after {first.nodes:,} nodes of the Python search left it open",
    )


def solve_by(situation, meter: Meter | None, progress, compiled: bool):
    """``solve`` by one engine: the compiled core's questions if ``compiled``, else Python's."""
    import time

    from gorules.impl.solving.budget import BudgetSpent
    from gorules.impl.solving.search import Solution

    graph, ruleset = situation.graph, situation.ruleset
    engine = Engine(graph, meter=meter, progress=progress, compiled=compiled)
    p = engine.from_situation(situation.state)
    player = p[2]
    started = time.perf_counter()
    proved: dict = {}
    note = None
    fundamental = ruleset.name == "fundamental"
    score: float | None = None
    try:
        if fundamental:
            score = deep(engine.score, p)
        proved["can_win"] = deep(engine.can_win, p)
        if not proved["can_win"]:
            proved["can_draw"] = deep(engine.can_draw, p)
    except BudgetSpent as spent:
        note = f"{spent}; proved so far: " + (", ".join(f"{k}={v}" for k, v in proved.items()) or "nothing")
    lower, upper = result_bounds(proved)
    black = sorted((for_black(lower, player), for_black(upper, player)))
    exact = black[0] == black[1]
    line = deep(principal_variation, engine, p, lower) if exact else []
    core = "; compiled core (numba)" if engine.compiled else "; Python core"
    details = {
        "to_move": COLOURS[player],
        **proved,
        "result": OUTCOME[black[0]] if exact else None,
        "core": "compiled" if engine.compiled else "python",
    }
    value: float | str | None
    least: float | str | None
    most: float | str | None
    if fundamental:  # section IV's score, and None for a bound not proved
        low, high = (score, score) if score is not None else engine.bounds
        value, least, most = score, (low if abs(low) < INF else None), (high if abs(high) < INF else None)
        method = "section IV's score by yes/no searches (can Black win with K more prisoners for the side behind?), "
    else:
        value, least, most = details["result"], OUTCOME[black[0]], OUTCOME[black[1]]
        method = "two yes/no searches (can the player to move win? can she at least draw?), "
    return Solution(
        graph=graph.name,
        ruleset=ruleset.name,
        options=ruleset.options.as_dict(),
        value=value,
        principal_variation=line,
        nodes=engine.nodes,
        seconds=time.perf_counter() - started,
        method=method + "table sound under positional superko" + core,
        status="exact" if value is not None else "bounds",
        lower=least,
        upper=most,
        note=note,
        details=details,
    )


def result_bounds(proved: dict) -> tuple[int, int]:
    """The least and greatest result (for the player to move) consistent with what the
    searches proved."""
    if proved.get("can_win"):
        return 1, 1
    if "can_win" not in proved:
        return -1, 1
    if "can_draw" not in proved:
        return -1, 0
    return (0, 0) if proved["can_draw"] else (-1, -1)
