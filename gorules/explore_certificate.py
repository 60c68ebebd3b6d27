"""A certificate's positions as a reader walks them, each with the spec checker's verdict.

A certificate (:mod:`gorules.impl.solving.certificate_check` states its format) holds two
strategies as a DAG of nodes.  :class:`Walk` reaches nodes from the strategies' roots
only: a node's state (board, player to move, passes in a row) is the spec's state after
the moves that lead to it, and the checker's per-position check
(:func:`gorules.impl.solving.certificate_check.check_node`, with the static bound of
:func:`~gorules.impl.solving.certificate_check.static_bound` at a static leaf) needs that
state.  So a node is shown once its parent has been, and what the walk holds grows with
what has been shown, not with the certificate.

:func:`view` is what the page shows of one position: the board, the strategy and its
bound, the value a leaf proves, the moves with the node each leads to, why a leaf is a
leaf, the moves the spec refuses there (with its reason: an occupied point, a forbidden
suicide, a repeated position of the history the node relies on), and the verdict.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

from gorules.impl.solving import certificate_check as checker
from gorules.spec import api, benson
from gorules.spec.text import move_name
from gorules.spec.tromp_taylor import BLACK, PASS, WHITE, State

CHECKER = (
    "gorules.impl.solving.certificate_check.check_node (each move played, each final board scored by the "
    "spec's gorules.spec.tromp_taylor), and static_bound (gorules.spec.benson) at a static leaf"
)
"""The checker whose verdict each position carries, as the page names it."""
STRATEGIES = {"lower": "Black's strategy: Black's margin at least", "upper": "White's strategy: Black's margin at most"}
"""What each strategy keeps, as the page says it before the bound."""


class Walk:
    """The positions of one certificate reached so far from its roots, with their states.

    ``data`` is the certificate as read (CertificateError if it is not one); nodes are
    reached by :meth:`view` of their parent or as a root."""

    def __init__(self, data: dict):
        """Read the certificate's graph, ruleset, nodes, strategies and keys."""
        self.data = data
        self.graph, self.ruleset = checker.ruleset_of(data)
        self.nodes = checker.nodes_of(data)
        lower, upper = checker.strategies_of(data)
        self.claims = checker.Claims(self.graph, self.ruleset, data, self.nodes)
        self.roots = {"lower": lower["root"], "upper": upper["root"]}
        self.bounds = {"lower": lower["bound"], "upper": upper["bound"]}
        for name, root in self.roots.items():
            if root not in self.nodes:
                raise checker.CertificateError(f"the {name} strategy's root {root} is not a node")
        start = self.ruleset.start(self.graph)[-1]
        self.reached: dict[int, tuple[State, str]] = {root: (start, name) for name, root in self.roots.items()}

    def owner(self, strategy: str) -> str:
        """The player whose strategy ``strategy`` is: B for lower, W for upper."""
        return checker.PLAYERS[strategy]

    def within(self, strategy: str):
        """The test of a margin against the strategy's bound."""
        bound = self.bounds[strategy]
        return (lambda margin: margin >= bound) if strategy == "lower" else (lambda margin: margin <= bound)

    def verdict(self, number: int) -> tuple[str | None, list[tuple[int, State]]]:
        """The checker's problem with node ``number`` (None if it passes) and the states of
        the children it checked; the children become reached."""
        s, strategy = self.reached[number]
        owner = self.owner(strategy)
        stack: list = []
        try:
            problem = checker.check_node(
                self.graph, self.ruleset, self.claims, number, s, owner, self.within(strategy), stack
            )
        except (api.IllegalMove, TypeError, ValueError, KeyError) as error:
            problem = f"node {number}: cannot be checked: {error}"
        if problem is None and self.nodes[number].get("static"):
            proved = checker.static_bound(self.graph, self.ruleset, s, owner)
            if not self.within(strategy)(proved):
                bound = checker.number_text(self.bounds[strategy])
                problem = f"node {number}: a static leaf here proves only {checker.number_text(proved)}, not {bound}"
        for child, after in stack:
            self.reached.setdefault(child, (after, strategy))
        return problem, stack

    def view(self, number: int) -> dict:
        """What the page shows of node ``number``, which must be reached (KeyError if not)."""
        s, strategy = self.reached[number]
        node = self.nodes[number]
        problem, _ = self.verdict(number)
        kind = "static" if node.get("static") else "over" if node.get("over") else "inner"
        shown: dict = {
            "id": number,
            "strategy": strategy,
            "bound": f"{STRATEGIES[strategy]} {checker.number_text(self.bounds[strategy], True)}",
            "board": "".join(s.board),
            "to_move": s.player,
            "passes": s.passes,
            "moves": self.moves(node),
            "kind": kind,
            "verdict": {"ok": problem is None, "text": "passes the checker" if problem is None else problem},
            "kept": [],
        }
        shown.update(self.leaf(kind, s, strategy))
        shown.update(self.history(number, s))
        return shown

    def moves(self, node: dict) -> list[dict]:
        """The node's moves as the page lists them: the move's name and the node it leads to."""
        listed = node["moves"] if isinstance(node.get("moves"), list) else []
        found = []
        for entry in listed:
            if checker.well_formed(entry):
                raw, child = entry
                name = "pass" if raw == PASS else move_name(self.graph, raw) if raw in self.graph.points else str(raw)
                found.append({"move": name, "child": child})
        return found

    def leaf(self, kind: str, s: State, strategy: str) -> dict:
        """Why a leaf is a leaf and the value it proves; for an inner node, the bound it keeps."""
        if kind == "over":
            margin = self.ruleset.value(self.graph, (s,))
            return {
                "value": f"final margin {checker.number_text(margin, True)} for Black (komi taken off)",
                "leaf": "game over: two passes in a row end the game; the spec scores the final board",
            }
        if kind == "static":
            owner: Literal["B", "W"] = BLACK if strategy == "lower" else WHITE
            kept = sorted(benson.kept(self.graph, self.ruleset.options, s.board, owner))
            proved = checker.static_bound(self.graph, self.ruleset, s, owner)
            who = "Black" if owner == BLACK else "White"
            word = "at least" if owner == BLACK else "at most"
            return {
                "value": f"Black's margin {word} {checker.number_text(proved, True)} (static bound)",
                "leaf": (
                    f"static: {who} passes to the end and keeps {len(kept)} of {self.graph.order} points "
                    "(Benson's unconditionally alive stones and their one-point eyes, gorules.spec.benson.kept)"
                ),
                "kept": kept,
            }
        return {"value": "inner position: the strategy answers below", "leaf": None}

    def history(self, number: int, s: State) -> dict:
        """The history keys the node relies on (Q, and D those present) and the moves the
        spec refuses on the node's stand-in line, each with the spec's reason."""
        claim = self.claims.of(number)
        if isinstance(claim, str):
            return {"q": 0, "d": [], "refused": []}
        q, d = claim
        refused = []
        if s.passes < 2 and not self.nodes[number].get("static"):
            line = checker.stand_in(d, s)
            for v in self.graph.points:
                try:
                    self.ruleset.apply(self.graph, line, v)
                except api.IllegalMove as error:
                    if s.board[v] == ".":
                        refused.append({"move": move_name(self.graph, v), "why": str(error)})
        return {"q": len(q), "d": sorted("".join(board) for board, _ in d), "refused": refused}


def breadth_first(walk: Walk, limit: int) -> dict[int, dict]:
    """The views of at most ``limit`` nodes, reached breadth first from both roots (the
    lower strategy's root first): the positions a static page embeds."""
    shown: dict[int, dict] = {}
    queue = deque(walk.roots.values())
    while queue and len(shown) < limit:
        number = queue.popleft()
        if number in shown or number not in walk.reached:
            continue
        shown[number] = walk.view(number)
        queue.extend(m["child"] for m in shown[number]["moves"] if m["child"] in walk.nodes)
    return shown
