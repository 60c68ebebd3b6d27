"""The moves of Ultimate/Fundamental Go as bitsets (``Engine``'s part ``moves``): the
placements of each board worked out once, a position's moves in the rules' order and in the
search's, and the delay races that settle a position without a search."""

from __future__ import annotations

from typing import Any

from gorules.impl.rulesets.ultimate.boards import DELAY, ULTIMATE_DELAY, Position


class Moves:
    """Move generation and ordering for one engine, its placements kept per board and player.

    ``engine`` supplies the boards and the rule of a placement (``engine.place``, which a
    variant of the rules overrides); ``own_children`` says whether the engine's moves are
    this class's own (``children``), so that the search may build them in its order directly."""

    def __init__(self, engine: Any, own_children: bool):
        """Nothing worked out yet."""
        self.engine = engine
        self.own_children = own_children
        self.moves: dict[tuple[int, int], tuple[list, int]] = {}  # the placements, per board and player
        self.solos: dict[tuple[int, int], int] = {}  # solo(), per board and player
        self.greedy: dict[tuple[int, int], list] = {}  # the same, those that take the most stones first

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
        engine = self.engine
        found = []
        own, other = (black, white) if player == 0 else (white, black)
        empty = engine.full & ~(black | white)
        for v in range(engine.n):
            if not empty >> v & 1:
                continue
            placed = engine.place(own, other, v)
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
        boards = self.engine.boards
        key = (boards.code(black, white), player)
        known = self.moves.get(key)
        if known is not None:
            return known
        found = []
        asked = 0
        for v, nb, nw, taken in self.engine.placed(black, white, player):
            bit = boards.bit(boards.code(nb, nw))
            asked |= bit
            found.append((v, nb, nw, taken, bit))
        self.moves[key] = found, asked
        self.greedy[key] = sorted(found, key=lambda m: -m[3])
        return found, asked

    def ordered_children(self, p: Position) -> tuple[list[tuple[object, Position, int]], int]:
        """``children(p)`` in the order of ``ordered``, built straight from the placements
        sorted once per board: the ultimate delay, the delay, then the placements that take
        the most stones first (by point among equals)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        if not self.own_children:
            # A variant of the rules (a mutant, a restricted play) changes the moves: its
            # children, in the same order.
            moves, asked = self.engine.children(p)
            return self.engine.ordered(moves), asked
        if forced and player == 1:
            return self.children(p)
        found: list[tuple[object, Position, int]] = []
        if ult >> player & 1:
            rest = ult & ~(1 << player)
            after = (player, draw) if first < 0 else (first, 1 - player)
            found.append((ULTIMATE_DELAY, (black, white, 1 - player, bb, wb, rest, *after, history, forced), 0))
        if bb if player == 0 else wb:
            delayed = (black, white, 1 - player, bb - (player == 0), wb - (player == 1), ult, first, draw, history)
            found.append((DELAY, (*delayed, forced), 0))
        asked = self.placements(black, white, player)[1]
        for v, nb, nw, taken, bit in self.greedy[(self.engine.boards.code(black, white), player)]:
            if history & bit:
                continue
            bowls = (bb + taken, wb) if player == 0 else (bb, wb + taken)
            found.append((v, (nb, nw, 1 - player, *bowls, ult, first, draw, history | bit, forced), bit))
        return found, asked

    @staticmethod
    def ordered(moves: list) -> list:
        """Delays first (with a prisoner to spare, a delay is often best), then the
        placements that take the most stones."""
        return sorted(moves, key=lambda m: (isinstance(m[0], int), -(m[1][3] + m[1][4])))

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
        them ends; worked out once per board and player.  The boards of such lines grow
        exponentially with the graph, so the budget's clock is read at each new one."""
        engine = self.engine
        key = (engine.boards.code(black, white), player)
        known = self.solos.get(key)
        if known is not None:
            return known
        if engine.meter is not None:
            engine.meter.check_time()
        own, other = (black, white) if player == 0 else (white, black)
        best = 0
        empty = engine.full & ~(black | white)
        for v in range(engine.n):
            if empty >> v & 1:
                placed = engine.place(own, other, v)
                if placed is not None:
                    a, b, taken = placed
                    nb, nw = (a, b) if player == 0 else (b, a)
                    best = max(best, 1 + taken + self.solo(nb, nw, player))
        self.solos[key] = best
        return best
