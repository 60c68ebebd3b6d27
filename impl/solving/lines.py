"""Lines of play for the Tromp–Taylor solver (:mod:`gorules.impl.solving.solve`): moves played
with the history kept, the moves allowed in a state, and the lines that keep the value once
it is known (the principal variation, a shortest perfect game)."""

from __future__ import annotations

import sys

from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.move_order import PASS, child_group
from gorules.impl.solving.stops import SolveError


class Lines:
    """Play along lines from the solver's root, asking its threshold tests which moves keep the value."""

    def __init__(self, solver) -> None:
        """Lines of ``solver``'s game."""
        self.solver = solver

    def step(self, state, move):
        """The state after ``move`` and whether a history key was pushed for it."""
        solver = self.solver
        history = solver.history
        black, white, side, passes, _before = state
        nbefore = (black, white) if solver.ko == "simple" else None
        if move == PASS:
            nb, nw, npasses = black, white, passes + 1
        else:
            nb, nw = solver.kernel.play(black, white, move, side)
            npasses = 0
        child = (nb, nw, 1 - side, npasses, nbefore)
        if solver.cycles:
            return child, history.push(history.key(*child))
        if move == PASS and solver.ko != "situational":
            return child, False
        return child, history.push(history.key(nb, nw, 1 - side, npasses, nbefore))

    def legal(self, state):
        """The moves allowed in ``state`` under the current history, in search order; for
        cycle rules, moves that repeat a state are listed too (they end the line)."""
        solver = self.solver
        history = solver.history
        black, white, side, _passes, before = state
        found = []
        for _, v, nb, nw in solver.order.children(black, white, side):
            if solver.ko == "simple" and before is not None and (nb, nw) == before:
                continue
            if not solver.cycles:
                key = history.key(nb, nw, 1 - side, 0, None)
                if key in history.index:
                    continue
            found.append(v)
        return [PASS] + found

    def replay(self, path) -> tuple:
        """The state after the moves ``path`` from the root, the history pushed along them,
        and the automorphisms that fix every position of that history."""
        solver = self.solver
        state = solver.root()
        group = solver.group
        for move in path:
            state, _ = self.step(state, move)
            group = child_group(group, state, move)
        return state, group

    def child_value(self, child, pushed: bool, value: int) -> int:
        """The value of ``child`` for its player to move, as far as telling whether it is at
        most -``value`` goes: 0 for a repeated state under a cycle rule, the final difference
        once two passes end the game, else a null-window search around -``value``."""
        solver = self.solver
        if solver.cycles and not pushed:
            return 0
        if child[3] >= 2:
            d = solver.static.difference(child[0], child[1])
            return -d if child[2] else d
        return 1 - value if solver.at_least(child, 1 - value) else -value

    def hinted(self, state, value: int, moves: list) -> list:
        """``moves`` with first the moves that the searches' tables remember as best at
        ``state`` (the proof of "at least ``value``", then the alpha-beta entry): the line
        then follows the proof just found instead of refuting the other moves one by one."""
        python = self.solver.python
        compiled = self.solver.compiled
        hints = []
        known = python.settled.get(state)
        proof = known[0] if known is not None and known[0] is not None and known[0][0] >= value else None
        for entry in (proof, python.table.get(state)):
            if entry is not None and entry[2] in moves and entry[2] not in hints:
                hints.append(entry[2])
        if compiled.compiled_state is not None:
            move = compiled.compiled_move(state, value)
            if move in moves and move not in hints:
                hints.append(move)
        return hints + [v for v in moves if v not in hints]

    def principal_variation(self, state, value: int, line: list | None = None) -> list:
        """Moves from ``state`` to the end of the game, each keeping the value ``value``,
        appended to ``line`` as they are found (so that a budget running out keeps the
        moves found so far)."""
        solver = self.solver
        line = [] if line is None else line
        pushed = []
        try:
            while state[3] < 2:
                for v in solver.hinted(state, value, self.legal(state)):
                    child, was_pushed = self.step(state, v)
                    if self.child_value(child, was_pushed, value) <= -value:
                        line.append(v)
                        state = child
                        value = -value
                        if was_pushed:
                            pushed.append(True)
                        break
                    if was_pushed:
                        solver.history.pop()
                else:
                    raise AssertionError("no move keeps the value: the search is inconsistent")
                if solver.cycles and not was_pushed:
                    break
        finally:
            for _ in pushed:
                solver.history.pop()
        return line

    def perfect_within(self, state, value: int, limit: int):
        """A line of at most ``limit`` turns from ``state`` to the end of the game in which
        every turn keeps the perfect-play value ``value`` (negamax), or None."""
        if limit <= 0:
            return None
        solver = self.solver
        for v in self.legal(state):
            child, pushed = self.step(state, v)
            try:
                ends = child[3] >= 2 or (solver.cycles and not pushed)
                if self.child_value(child, pushed, value) <= -value:
                    if ends:
                        return [v]
                    rest = self.perfect_within(child, -value, limit - 1)
                    if rest is not None:
                        return [v] + rest
            finally:
                if pushed:
                    solver.history.pop()
        return None

    def shortest_perfect_game(self, max_turns: int = 40) -> list | None:
        """A shortest game (fewest turns, passes included) in which every turn is a
        perfect-play turn: it keeps the value of the position it is played in.  Found by
        iterative deepening up to ``max_turns``; None if there is none that short."""
        solver = self.solver
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 100_000))
        try:
            state = solver.root()
            value = solver.mtd(state)
            for turns in range(1, max_turns + 1):
                line = self.perfect_within(state, value, turns)
                if line is not None:
                    return line
            return None
        except BudgetSpent:
            raise SolveError(
                f"{solver.graph.name}: the node budget of {solver.account.max_nodes} nodes ran out"
            ) from None
        finally:
            sys.setrecursionlimit(limit)
