"""The Python core of the Tromp–Taylor solver's threshold tests (:mod:`gorules.impl.solving.solve`):
the depth-limited proof search (:meth:`PythonCore.prove`: proved, disproved, or undecided at
the horizon) and the full negamax alpha-beta null-window search (:meth:`PythonCore.search`),
which has no horizon.  Both answer with the history queries of their proof, (answer, Q mask,
hits as history indices), store it in their tables, and expand a node's children by one
function (:meth:`PythonCore.child`), which keeps the history and the queries.
"""

from __future__ import annotations

from gorules.impl.solving.history import FULL_MASK
from gorules.impl.solving.move_order import PASS, stabiliser

INFINITY = 1 << 20


class PythonCore:
    """The threshold tests in Python on the engine's bitsets, with their tables."""

    def __init__(self, solver) -> None:
        """The tests of ``solver``, through its parts (history, bounds, move order, accounting)."""
        self.solver = solver
        self.account = solver.account
        self.history = solver.history
        self.static = solver.static
        self.order = solver.order
        self.ko = solver.ko
        self.cycles = solver.cycles
        self.n = solver.n
        self.transpositions = solver.transpositions
        self.table: dict = {}
        self.proofs: dict = {}
        self.settled = solver.settled_kind(self.history)

    def forget(self) -> None:
        """Empty the tables."""
        self.table.clear()
        self.proofs.clear()
        self.settled.clear()

    def child(self, c, black: int, white: int, side: int, passes: int, before):
        """The child a plan's entry ``c`` (None: pass) reaches, its history kept: None where
        simple ko forbids it, else (move, black, white, passes, before, query bit, hit,
        pushed); ``hit`` is the child's history position as a bit mask when it repeats the
        history (then nothing was pushed), else 0."""
        ko = self.ko
        if c is None:
            nb, nw, npasses, v = black, white, passes + 1, PASS
        else:
            _, v, nb, nw = c
            npasses = 0
            if ko == "simple" and before is not None and (nb, nw) == before:
                return None
        nbefore = (black, white) if ko == "simple" else None
        opponent = 1 - side
        history = self.history
        if self.cycles:
            key = (nb, nw, opponent, npasses, nbefore)
            b = history.bit(key)
            if key in history.index:
                return v, nb, nw, npasses, nbefore, b, 1 << history.index[key], False
            return v, nb, nw, npasses, nbefore, b, 0, history.push(key)
        if v == PASS:
            pushed = ko == "situational" and history.push(((nb | (nw << self.n)) << 1) | opponent)
            return v, nb, nw, npasses, nbefore, 0, 0, pushed
        key = nb | (nw << self.n)
        if ko == "situational":
            key = (key << 1) | opponent
        b = history.bit(key)
        if key in history.index:
            return v, nb, nw, npasses, nbefore, b, 1 << history.index[key], False
        history.enter(key, b)
        return v, nb, nw, npasses, nbefore, b, 0, True

    @staticmethod
    def closed(q: int, hits: int, h: int, folded) -> tuple[int, int]:
        """A node's queries as stored: moves left out as images of others under the group are
        equal only while the history is fixed by it, so a folded result holds for exactly this
        history (Q all ones, D the whole history); hits only above the node."""
        if folded:
            q = FULL_MASK
            hits = (1 << h) - 1
        return q, hits & ((1 << h) - 1)

    def search(self, black, white, side, passes, before, alpha, beta, group=()):
        """Negamax value for the player to move, fail-soft in (alpha, beta), with the
        history queries of its proof: (value, Q mask, hits as history indices).  ``group``
        holds the graph's automorphisms that fix every position of the history so far."""
        account = self.account
        account.nodes += 1
        if account.nodes >= account.next_tick:
            account.tick()
        static = self.static
        if passes >= 2:
            d = static.difference(black, white)
            return (-d if side else d), 0, 0
        history = self.history
        h = len(history.keys)
        q = 0
        hits = 0
        best = -INFINITY
        best_move = None
        low, high = static.bounds(black, white, side)
        if passes == 1:
            d = static.difference(black, white)
            best = -d if side else d
            best_move = PASS
            if best >= beta or best >= high:
                return best, 0, 0
        if high <= alpha:
            return high, 0, 0
        if low >= beta:
            return low, 0, 0
        alpha_in, beta_in = alpha, beta
        if best > alpha:
            alpha = best
        tt_key = (black, white, side, passes, before)
        entry = self.table.get(tt_key) if self.transpositions else None
        tt_move = None
        if entry is not None:
            tt_move = entry[2]
            if history.reusable(entry):
                lower, upper = entry[0], entry[1]
                e_hits = history.hits_of(entry[3])
                if lower >= beta or lower == upper:
                    return max(lower, best), entry[5], e_hits
                if upper <= alpha:
                    if best >= upper:
                        return best, entry[5], e_hits
                    return upper, entry[5], e_hits
                if lower > alpha:
                    alpha = lower
                    q |= entry[5]
                    hits |= e_hits
                if upper < beta:
                    beta = upper
                    q |= entry[5]
                    hits |= e_hits
        order = self.order
        plan = order.plan(black, white, side, passes, tt_move, group)
        folded = order.folded(plan, black, white, side, passes, group)
        for c in plan:
            child = self.child(c, black, white, side, passes, before)
            if child is None:
                continue
            v, nb, nw, npasses, nbefore, b, hit, pushed = child
            q |= b
            if hit:
                hits |= hit
                if self.cycles and 0 > best:
                    # A repeated state ends the line with the value 0.
                    best, best_move = 0, v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
                continue
            child_group = stabiliser(group, nb, nw) if group and v != PASS else group
            try:
                value, cq, chits = self.search(nb, nw, 1 - side, npasses, nbefore, -beta, -alpha, child_group)
            finally:
                if pushed:
                    history.pop()
            value = -value
            q |= cq
            hits |= chits
            if value > best:
                best, best_move = value, v
                if best > alpha:
                    alpha = best
                    if alpha >= beta or best >= high:
                        if c is not None and c[0] == 1:
                            order.reward(side, v, h)
                        break
        if best == -INFINITY:
            # No move at all is impossible (pass is always legal before the game ends).
            raise AssertionError("a node without moves")
        q, hits = self.closed(q, hits, h, folded)
        if self.transpositions:
            if best <= alpha_in:
                lower, upper = -INFINITY, best
            elif best >= beta_in:
                lower, upper = best, INFINITY
            else:
                lower = upper = best
            d_keys, d_bits = history.found(hits)
            self.table[tt_key] = (lower, upper, best_move, d_keys, d_bits, q)
        return best, q, hits

    def prove(self, black, white, side, passes, before, t, depth, group=()):
        """Whether the player to move can force a final value (theirs) of at least ``t``
        within ``depth`` more turns: 1 proved, -1 disproved (the opponent forces less), 0
        not decided within the depth; with the history queries of the answer, as in
        :meth:`search`: (answer, Q mask, hits as history indices)."""
        account = self.account
        account.nodes += 1
        if account.nodes >= account.next_tick:
            account.tick()
        static = self.static
        if passes >= 2:
            d = static.difference(black, white)
            return (1 if (-d if side else d) >= t else -1), 0, 0
        low, high = static.bounds(black, white, side)
        if low >= t:
            return 1, 0, 0
        if high < t:
            return -1, 0, 0
        if passes == 1:
            d = static.difference(black, white)
            if (-d if side else d) >= t:
                return 1, 0, 0
        if depth <= 0:
            return 0, 0, 0
        history = self.history
        h = len(history.keys)
        state_key = (black, white, side, passes, before)
        tt_key = (black, white, side, passes, before, t)
        tt_move = None
        if self.transpositions:
            known = self.settled.entries.get(state_key)
            if known is not None:
                answer = self.settled.answer(known, t)
                if answer is not None:
                    return answer
                tt_move = self.settled.move(known)
            entry = self.proofs.get(tt_key)
            if entry is not None:
                tt_move = entry[2]
                if entry[1] >= depth and history.reusable(entry):
                    return 0, entry[5], history.hits_of(entry[3])
        # The children are walked as in search(), but for a yes/no answer at threshold t within
        # a horizon instead of a value within a window: the loops stay apart so that neither
        # pays for the other's bookkeeping at every node.
        order = self.order
        plan = order.plan(black, white, side, passes, tt_move, group)
        folded = order.folded(plan, black, white, side, passes, group)
        q = hits = 0
        answer = -1
        best_move = None
        for c in plan:
            child = self.child(c, black, white, side, passes, before)
            if child is None:
                continue
            v, nb, nw, npasses, nbefore, b, hit, pushed = child
            q |= b
            if hit:
                hits |= hit
                if self.cycles and 0 >= t:
                    # A repeated state ends the line with the value 0.
                    answer, best_move = 1, v
                    break
                continue
            child_group = stabiliser(group, nb, nw) if group and v != PASS else group
            try:
                result, cq, chits = self.prove(nb, nw, 1 - side, npasses, nbefore, 1 - t, depth - 1, child_group)
            finally:
                if pushed:
                    history.pop()
            q |= cq
            hits |= chits
            if result == -1:
                answer, best_move = 1, v
                if c is not None and c[0] == 1:
                    order.reward(side, v, h)
                break
            if result == 0:
                answer = 0
                if best_move is None:
                    best_move = v
        q, hits = self.closed(q, hits, h, folded)
        d_keys, d_bits = history.found(hits)
        if self.transpositions:
            if answer:
                self.settled.store(state_key, answer, t, best_move, d_keys, d_bits, q)
            else:
                self.proofs[tt_key] = (answer, depth, best_move, d_keys, d_bits, q)
        return answer, q, hits

    def deepen(self, state, t, group=()) -> int:
        """Whether the player to move in ``state`` can force at least ``t``, by iterative
        deepening of :meth:`prove` up to the solver's ``max_depth`` turns: 1, -1, or 0 if undecided."""
        solver = self.solver
        for depth in solver.horizons():
            solver.depth = depth
            black, white, side, passes, before = state
            answer = self.prove(black, white, side, passes, before, t, depth, group)[0]
            if answer:
                return answer
        return 0

    def test(self, state, alpha, beta, group=()) -> int:
        """The search's fail-soft value of ``state`` (with the current history) in (alpha, beta)."""
        black, white, side, passes, before = state
        return self.search(black, white, side, passes, before, alpha, beta, group)[0]
