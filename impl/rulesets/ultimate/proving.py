"""The Python yes/no searches (``Engine``'s part ``prover``): ``can_win`` and ``can_draw``
as AND–OR searches that call each other, their answers stored in the engine's table with the
history condition each proof needs, and the two move orders that race.

The search runs on the engine's parts and asks the engine itself for what its variants
override (the table look-up, the delay race, the orbits, the moved history, the hint's place
and a loss's history condition), so that a subclass of ``Engine`` changes the search."""

from __future__ import annotations

from typing import Any

from gorules.impl.rulesets.ultimate.boards import Position

RACE = 5_000
"""The nodes each move order first gets when the two race (``decide``); four times as many
at each round after."""
SHALLOW = 6
"""Positions with at most this many boards in their history are searched up to the graph's
symmetry (one placement per orbit of the automorphisms that fix the board and the history)
and kept out of the table."""


class Abandoned(Exception):
    """A probe reached its node cap; nothing it had not proved was stored."""


class Prover:
    """The yes/no searches of one engine (its flags, node count and cap are the engine's);
    the move that last reached a goal at a table key is kept as that key's hint."""

    def __init__(self, engine: Any):
        """No hint yet."""
        self.engine = engine
        self.hints: dict[tuple, object] = {}  # (goal, table key) -> the move that last reached the goal there

    def result(self, p: Position) -> int:
        """The result for the player to move under best play: 1 a win, 0 a draw, −1 a loss."""
        engine = self.engine
        if engine.can_win(p):
            return 1
        return 0 if engine.can_draw(p) else -1

    def decide(self, goal: int, p: Position) -> bool:
        """``prove(goal, p)``'s answer.  With ``hinted`` the two move orders race: the fixed
        order and the hinted one (``hint_first``) each get ``RACE`` nodes, then four times
        as many, and so on, until one answers; a search cut off keeps in the table only what
        it proved (as a probe does), so each attempt starts from every proof found before.
        Neither order is better everywhere (on one dense 6-point graph the hints cut the
        nodes fivefold, on another they multiply them by more than four)."""
        engine = self.engine
        if engine.compiled and not engine.racing and not p[9]:
            answer = self.decide_python_first(goal, p) if engine.nodes < engine.hand_over else None
            if answer is None:
                answer = engine.driver.decide_compiled(goal, p)
            if answer is not None:
                return answer
        if not engine.hinted or engine.racing:
            return engine.prove(goal, p)[0]
        outer = engine.cap  # a probe's cap, which cuts every attempt
        budget = RACE
        engine.racing = True
        try:
            while True:
                for hints in (False, True):
                    cap = engine.nodes + budget
                    engine.cap = cap if outer is None else min(cap, outer)
                    engine.use_hints = hints
                    try:
                        return engine.prove(goal, p)[0]
                    except Abandoned:
                        if outer is not None and engine.nodes > outer:
                            raise
                budget *= 4
        finally:
            engine.cap, engine.racing, engine.use_hints = outer, False, True

    def decide_python_first(self, goal: int, p: Position) -> bool | None:
        """``decide(goal, p)`` by the Python search until the engine has spent ``hand_over``
        nodes in all: its answer, or None if it had none by then (a probe's cap reached
        first still ends the question, as it would in the compiled core)."""
        engine = self.engine
        outer = engine.cap
        engine.cap = engine.hand_over if outer is None else min(engine.hand_over, outer)
        engine.compiled = False
        try:
            return engine.decide(goal, p)
        except Abandoned:
            if outer is not None and engine.nodes > outer:
                raise
            return None
        finally:
            engine.cap, engine.compiled = outer, True

    def prove(self, goal: int, p: Position) -> tuple[bool, int]:
        """Whether the player to move reaches her goal (0 a win, 1 at least a draw), with the
        bits of the boards whose presence in the history the proof asked about.  Past the
        early game (``SHALLOW``), with ``frames``, the position is searched as its image
        under the automorphism that takes its board to its representative (``frame``): the
        image of a position (board and every history board moved alike) is the same game,
        so symmetric positions share the table; the bits asked are moved back."""
        engine = self.engine
        if engine.frames and p[8].bit_count() > SHALLOW:
            symmetry = engine.symmetry
            code, sigma = symmetry.frame(engine.boards.code(p[0], p[1]))
            if sigma >= 0:
                n = engine.n
                image = (code & engine.full, code >> n, *p[2:8], engine.moved(p[8], sigma), p[9])
                answer, used = self.prove_here(goal, image)
                return answer, engine.moved(used, symmetry.inverses[sigma])
        return self.prove_here(goal, p)

    def prove_here(self, goal: int, p: Position) -> tuple[bool, int]:
        """``prove`` at p itself (its children are asked of ``prove``)."""
        engine = self.engine
        if goal == 1:
            if p[7] == p[2]:
                return True, 0  # she may declare a draw
            if not p[5] and p[7] < 0:
                goal = 0  # no draw can happen any more
        if engine.races and not p[5] and p[7] < 0 and not p[9]:
            raced = engine.race(p)
            if raced is not None:
                return raced, 0  # the history plays no part in it
        table = engine.table
        key = table.node_key(p)
        known = engine.lookup(goal, p, key)
        if known is not None:
            return known
        shallow = engine.symmetric and p[8].bit_count() <= SHALLOW
        if shallow:
            found = table.early_answer(goal, p, key)
            if found is not None:
                return found, p[8]
        engine.count()
        moves, asked = engine.moves.ordered_children(p)
        if shallow:
            kept = engine.representatives(p)
            moves = [m for m in moves if not isinstance(m[0], int) or m[0] in kept]
        hint = self.hints.get((goal, key)) if engine.use_hints else None
        if hint is not None:
            moves = engine.hint_first(moves, hint)
        answer, used = False, engine.loss_query(asked, p[8])
        for move, child, bit in moves:
            refuted, below = self.prove(1 - goal, child)
            below &= ~bit  # the board this move made is the line's own, not the history's
            if not refuted:
                answer, used = True, below | bit
                if engine.hinted:
                    self.hints[(goal, key)] = move
                break
            used |= below
        if shallow:
            # a shallow answer used the symmetry of this history, which its query bits do
            # not record: it is stored for this very history only (as are its ancestors')
            table.remember_early(goal, p, key, answer)
        else:
            table.remember(goal, p, answer, used, key)
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
