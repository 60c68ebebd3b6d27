"""Certificates of perfect-play values: the strategies that prove a solver's bounds.

After :class:`gorules.impl.solve.Solver` has found the value v of a Tromp–Taylor game from
the empty board, :func:`certificate` writes down why: a strategy for Black that keeps
Black's margin at least v whatever White does, and one for White that keeps it at most v
whatever Black does (the format, and what a checker must verify, are stated in
:mod:`gorules.impl.certificate_check`, which checks them with the spec alone).

The strategies are read off the solver: at the strategy's player's turn the first move
whose remaining game the solver proves good enough (``Solver.at_least``), at the
opponent's turn every legal move.  Positions are shared when they arrive with the same
board, player to move, passes and history, so the strategy is a DAG.  A bound that holds
on every board (Black's margin within [−n, n]) is written as a ``static`` leaf instead.
"""

from __future__ import annotations

import sys

from gorules.impl.bitset import to_board
from gorules.impl.certificate_check import FORMAT
from gorules.impl.solve import PASS, Solver


class CertificateRefused(ValueError):
    """A certificate that cannot be written for this solve (rules under which play cycles)."""


class Writer:
    """The nodes of the certificate's strategies, built from a solver that has its value."""

    def __init__(self, solver: Solver):
        """Write strategies from ``solver``'s proofs (its tables are reused and extended)."""
        if solver.cycles:
            raise CertificateRefused(
                f"ko={solver.ko}: play can cycle, and the solver's repetition convention is not a rule "
                "of the game; certificates are written only under positional or situational superko"
            )
        self.solver = solver
        self.nodes: list[dict] = []
        self.ids: dict = {}
        self.images: dict = {}

    def child_group(self, group: tuple, child, v) -> tuple:
        """The automorphisms of ``group`` that also fix the child's board."""
        if not group or v == PASS:
            return group
        return self.solver.stabiliser(group, child[0], child[1])

    def node(self, state, content: dict) -> int:
        """Add a node for ``state`` with ``content``; its number."""
        number = len(self.nodes)
        board = "".join(to_board(self.solver.graph, state[0], state[1]))
        self.nodes.append({"id": number, "board": board, **content})
        return number

    def static(self, state) -> int:
        """A leaf claiming the bound that holds on every board."""
        return self.node(state, {"static": True})

    def mapped(self, number: int, sigma: tuple) -> int:
        """The node that is the image of node ``number`` and everything below it under the
        automorphism σ (boards and moves carried by σ)."""
        key = (number, sigma)
        found = self.images.get(key)
        if found is not None:
            return found
        node = self.nodes[number]
        board = [""] * len(sigma)
        for v, colour in enumerate(node["board"]):
            board[sigma[v]] = colour
        image = {k: value for k, value in node.items() if k not in ("id", "board", "moves")}
        if "moves" in node:
            image["moves"] = [[m if m == PASS else sigma[m], self.mapped(child, sigma)] for m, child in node["moves"]]
        image_number = len(self.nodes)
        self.nodes.append({"id": image_number, "board": "".join(board), **image})
        self.images[key] = image_number
        return image_number

    def strategy(self, state, owner: int, t: int, group: tuple = ()) -> int:
        """The node of a strategy for ``owner`` (0 Black, 1 White) from ``state`` (with the
        solver's current history) keeping the owner's value (negamax, no komi) at least ``t``.
        ``group`` holds automorphisms fixing the whole history: the opponent's moves of one
        orbit are written by carrying one of them along the automorphism."""
        solver = self.solver
        side, passes = state[2], state[3]
        place = (state, owner, t, frozenset(solver.keys))
        found = self.ids.get(place)
        if found is not None:
            return found
        if passes >= 2:
            number = self.node(state, {"over": True})
            self.ids[place] = number
            return number
        moves = solver.legal(state)
        if side == owner:
            if passes == 0:
                moves = moves[1:] + moves[:1]
            chosen = None
            for v in moves:
                child, pushed = solver.step(state, v)
                try:
                    if child[3] >= 2:
                        d = solver.difference(child[0], child[1])
                        good = (-d if side else d) >= t
                    else:
                        good = not solver.at_least(child, 1 - t)
                    if good:
                        chosen = (v, self.strategy(child, owner, t, self.child_group(group, child, v)))
                finally:
                    if pushed:
                        solver.pop()
                if chosen is not None:
                    break
            if chosen is None:
                raise AssertionError("no move keeps the bound: the solver's proof is inconsistent")
            entries = [chosen]
        else:
            entries = []
            built: dict = {}
            for v in moves:
                if v != PASS and group:
                    sigma = min(group, key=lambda s: s[v])
                    if sigma[v] < v and sigma[v] in built:
                        inverse = [0] * len(sigma)
                        for w, image in enumerate(sigma):
                            inverse[image] = w
                        entries.append((v, self.mapped(built[sigma[v]], tuple(inverse))))
                        continue
                child, pushed = solver.step(state, v)
                try:
                    built[v] = self.strategy(child, owner, t, self.child_group(group, child, v))
                    entries.append((v, built[v]))
                finally:
                    if pushed:
                        solver.pop()
        number = self.node(state, {"to_move": "BW"[side], "moves": [[v if v != PASS else PASS, c] for v, c in entries]})
        self.ids[place] = number
        return number


def certificate(solver: Solver, value: int) -> dict:
    """The certificate of the raw value ``value`` (Black's margin before komi) that ``solver``
    found from its start (the empty board, Black to move): both strategies, as JSON-able data."""
    if solver.start != (0, 0, 0):
        raise CertificateRefused("certificates are written only for games from the empty board")
    writer = Writer(solver)
    n = solver.n
    komi = solver.rules.komi
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        state = solver.root()
        lower_root = writer.static(state) if value <= -n else writer.strategy(state, 0, value, solver.group)
        state = solver.root()
        upper_root = writer.static(state) if value >= n else writer.strategy(state, 1, -value, solver.group)
    finally:
        sys.setrecursionlimit(limit)
    return {
        "format": FORMAT,
        "graph": solver.graph.name,
        "ruleset": "tromp-taylor",
        "options": {
            "ko": solver.rules.ko,
            "suicide": solver.rules.suicide,
            "scoring": solver.rules.scoring,
            "komi": komi,
        },
        "value": value - komi,
        "lower": value - komi,
        "upper": value - komi,
        "strategies": {
            "lower": {"player": "B", "bound": value - komi, "root": lower_root},
            "upper": {"player": "W", "bound": value - komi, "root": upper_root},
        },
        "nodes": writer.nodes,
    }
