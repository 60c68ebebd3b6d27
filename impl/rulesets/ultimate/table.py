"""The table of the yes/no searches (``Engine``'s part ``table``): proofs stored with the
history condition they need, so that they are reused soundly under positional superko, and
the answers of the early game stored for their exact history.

A proof records the boards whose presence in the history it asked about (Q) and those it
found there (D = H ∩ Q, H the history at the node); it is reused at the same table key with
any history H' for which H' ∩ Q = D.  With ``canonical`` the key leaves the bowls out and an
answer is stored against the prisoner difference of the player to move as a bound (a win at
d holds at every d' ≥ d, a loss at every d' ≤ d); else the key holds the exact bowls."""

from __future__ import annotations

from typing import Any

from gorules.impl.rulesets.ultimate.boards import Position

KEEP = 256
"""How many proofs (each with its own history condition) a table entry keeps."""


class Table:
    """The proofs of ``can_win`` (goal 0) and ``can_draw`` (goal 1), by table key, and the
    shallow answers by exact history; ``boards`` codes a position's board."""

    def __init__(self, boards: Any, canonical: bool):
        """Empty tables."""
        self.boards = boards
        self.canonical = canonical
        self.tables: tuple[dict, dict] = ({}, {})  # can_win, can_draw
        self.early: dict[tuple, list[tuple[bool, int]]] = {}  # shallow answers, by exact history

    def node_key(self, p: Position) -> tuple:
        """The table key of a position: all of it but its bowls and history."""
        black, white, player, bb, wb, ult, first, draw, _, forced = p
        key = (self.boards.code(black, white), player, ult, first, draw, forced)
        return key if self.canonical else (*key, bb, wb)

    @staticmethod
    def difference(p: Position) -> int:
        """The prisoner difference of the player to move: her bowl less the opponent's."""
        return p[3] - p[4] if p[2] == 0 else p[4] - p[3]

    @staticmethod
    def normal(p: Position) -> Position:
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

    def early_answer(self, goal: int, p: Position, key: tuple) -> bool | None:
        """A shallow answer stored for p's key and exact history that applies at p's prisoner
        difference (a win at d holds at every d' ≥ d, a loss at every d' ≤ d), or None."""
        d = self.difference(p)
        for answer, at in self.early.get((goal, key, p[8]), ()):
            if d >= at if answer else d <= at:
                return answer
        return None

    def remember_early(self, goal: int, p: Position, key: tuple, answer: bool) -> None:
        """Store a shallow answer for p's key and exact history (its proof used the symmetry
        of that history, which no query bits record)."""
        self.early.setdefault((goal, key, p[8]), []).append((answer, self.difference(p)))
