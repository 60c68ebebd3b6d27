"""Certificates of perfect-play values: the strategies that prove a solver's bounds.

After :class:`gorules.impl.solving.solve.Solver` has found the value v of a Tromp–Taylor game from
the empty board, :func:`certificate` writes down why: a strategy for Black that keeps
Black's margin at least v whatever White does, and one for White that keeps it at most v
whatever Black does (the format, and what a checker must verify, are stated in
:mod:`gorules.impl.solving.certificate_check`, which checks them with the spec alone; the
document it returns is written to a file in lines by
:func:`gorules.impl.solving.certificate_lines.lines`).

The strategies are read off the solver: at the opponent's turn every legal move; at the
strategy's player's turn a move that settles the bound without search if there is one
(:meth:`Writer.settling`), else the first move whose remaining game the solver proves good
enough (``Solver.at_least``), trying first the move of a proof that holds under the
current history (``Solver.held_move``: the compiled core's test at this very state, then
a proof of its table whose queries the history meets).  A hint from a proof made under
another history often keeps the bound too, but may lead into long lines the solver never
proved, each re-proved from Python, far slower than following the proofs (docs/solver.md,
"Certificates"), and with df-pn's eight table ways per state (which keep proofs of
several histories side by side) the first proof of a state's bucket is often such a one.  Each node states
the history keys Q its strategy relies on and those of them present, D; a state reached
again with a history H such that H ∩ Q = D reuses the node (see :class:`Writer`), so the
strategy is a DAG shared across histories as the solver's table is.  Where the
strategy's player already keeps enough points by passing to the end (Benson's alive
stones and their one-point eyes, the static bound the solver's proofs stop at; on the
empty board the trivial bound ±n), the node is a ``static`` leaf, which the checker
verifies with :mod:`gorules.spec.benson`.
"""

from __future__ import annotations

import sys
from array import array

from gorules.impl.engine.benson import owned
from gorules.impl.engine.bitset import to_board
from gorules.impl.engine.rules import popcount
from gorules.impl.solving.certificate_check import FORMAT
from gorules.impl.solving.solve import PASS, Solver

MAX_POSITIONS = 50_000
"""The positions a certificate may have unless more are allowed (``--certificate-positions``):
the writer keeps every position with its Q and D in memory until the certificate is done,
so this bounds its memory.  The certificates of the boards solved take far fewer, while a
writer led into lines no proof covers runs past it; the positions each takes and the
memory of such a runaway writer are in docs/solver.md, "Certificates" (Q and D are held as
arrays of key numbers, :class:`Writer`)."""

Claim = tuple[array, array]
"""A node's (Q, D): the numbers (:meth:`Writer.key`) of the history keys its strategy relies
on and of those present in the history it was written for, each an ascending array."""
NO_KEYS = array("l")


class CertificateRefused(ValueError):
    """A certificate that cannot be written for this solve (rules under which play cycles)."""


class PositionsSpent(Exception):
    """The certificate's positions would exceed the writer's limit (``Writer.max_positions``)."""


class NumberedHistory:
    """The history keys a certificate names, numbered on first sight, and the history of the
    line being written as a multiset of key numbers."""

    def __init__(self) -> None:
        """No keys yet, an empty history."""
        self.numbers: dict = {}
        self.keys: list = []
        self.history: dict = {}

    def number(self, key) -> int:
        """The number of a history key, numbered on first sight."""
        found = self.numbers.get(key)
        if found is None:
            found = self.numbers[key] = len(self.keys)
            self.keys.append(key)
        return found

    def claim(self, q) -> Claim:
        """(Q, D) for the key numbers ``q``: D those present in the history before the
        current position; both ascending arrays."""
        history = self.history
        ordered = sorted(q)
        return array("l", ordered), array("l", (k for k in ordered if k in history))

    def reusable(self, q: array, d: array) -> bool:
        """Whether a node with (Q, D) holds under the current history H: H ∩ Q = D (D is
        part of Q, so: every key of D is in H, and no more keys of Q than D has)."""
        history = self.history
        return all(k in history for k in d) and sum(k in history for k in q) == len(d)

    def enter(self, key) -> None:
        """The current position's key joins the history (a move is made from it)."""
        self.history[key] = self.history.get(key, 0) + 1

    def leave(self, key) -> None:
        """Undo :meth:`enter`."""
        count = self.history[key] - 1
        if count:
            self.history[key] = count
        else:
            del self.history[key]


class Writer:
    """The nodes of the certificate's strategies, built from a solver that has its value.

    Each node is written with the set Q of history keys its strategy relies on and the
    subset D of them present in the history it was written for (the claim checked by
    :mod:`gorules.impl.solving.certificate_check`): Q is the keys its own moves make (every stone
    move of the opponent, the owner's chosen move) together with its children's Q less the
    node's own key, which the move adds to their history.  A state reached again, for the
    same owner and bound, with a history H such that H ∩ Q = D reuses the node.

    Every position is held until the certificate is written, so they are held compactly: a
    history key is numbered on first sight (:meth:`key`, :class:`NumberedHistory`), the
    history counts key numbers, and each claim is two ascending arrays of key numbers
    (:data:`Claim`): held as sets of keys, the claims would take most of the writer's memory
    (docs/solver.md, "Certificates")."""

    def __init__(self, solver: Solver, max_positions: int = MAX_POSITIONS):
        """Write strategies from ``solver``'s proofs (its tables are reused and extended), of
        at most ``max_positions`` positions (PositionsSpent beyond)."""
        if solver.cycles:
            raise CertificateRefused(
                f"ko={solver.ko}: play can cycle, and the solver's repetition convention is not a rule "
                "of the game; certificates are written only under positional or situational superko"
            )
        self.solver = solver
        self.max_positions = max_positions
        self.nodes: list[dict] = []
        self.claims: list[Claim] = []
        self.ledger = NumberedHistory()
        self.written: dict = {}
        self.images: dict = {}
        self.kept_points: dict = {}
        self.tables_emptied = 0
        self.disagreement: str | None = None

    def key(self, black: int, white: int, side: int) -> int:
        """The number of a position's history key (the solver's key: the board, with the
        player to move under situational superko), numbered on first sight."""
        return self.ledger.number(self.solver.history_key(black, white, side, 0, None))

    def add(self, content: dict, claim: Claim) -> int:
        """Append a node (``content`` without its id) with its claim (Q, D); its number.
        PositionsSpent if the certificate already has ``max_positions`` positions."""
        number = len(self.nodes)
        if number >= self.max_positions:
            raise PositionsSpent(f"the certificate's budget of {self.max_positions:,} positions ran out")
        self.nodes.append({"id": number, **content})
        self.claims.append(claim)
        return number

    def node(self, state, content: dict, q=()) -> int:
        """Add a node for ``state`` with ``content`` and Q = ``q`` (D from the history); its number."""
        return self.add({"board": self.board(state[0], state[1]), **content}, self.ledger.claim(q))

    def board(self, black: int, white: int) -> str:
        """A board as a certificate writes it: a character per point (``.``, ``B``, ``W``)."""
        return "".join(to_board(self.solver.graph, black, white))

    def kept(self, black: int, white: int, owner: int) -> int:
        """The number of points ``owner`` keeps to the end by passing on this board: Benson's
        alive stones and, under area scoring, their one-point eyes (without the secure
        regions that ``Solver(territory=True)`` counts: the checker's bound,
        :func:`gorules.spec.benson.kept`, does not count them); none where the solver does
        not use Benson (cycle rules, directed graphs)."""
        place = (black, white, owner)
        found = self.kept_points.get(place)
        if found is None:
            solver = self.solver
            found = 0
            if solver.benson:
                mine, theirs = (white, black) if owner else (black, white)
                found = popcount(owned(solver.kernel, mine, theirs, solver.suicide_allowed, not solver.stone_scoring))
            self.kept_points[place] = found
        return found

    def holds(self, state, owner: int, t: int) -> bool:
        """Whether ``owner`` keeps a value of at least ``t`` from ``state`` by passing to the
        end: 2·(points kept) − n ≥ t, a ``static`` leaf (n − 2·kept for the opponent is at most −t)."""
        return 2 * self.kept(state[0], state[1], owner) - self.solver.n >= t

    def carried(self, number: int, sigma: tuple) -> int:
        """The number of the image of history key number ``number`` under the automorphism σ."""
        solver = self.solver
        key = self.ledger.keys[number]
        if solver.ko == "situational":
            side, board = key & 1, key >> 1
        else:
            side, board = 0, key
        full = (1 << solver.n) - 1
        black, white = Solver.image(sigma, board & full), Solver.image(sigma, board >> solver.n)
        return self.key(black, white, side)

    def mapped(self, number: int, sigma: tuple) -> int:
        """The node that is the image of node ``number`` and everything below it under the
        automorphism σ (boards, moves, Q and D carried by σ)."""
        place = (number, sigma)
        found = self.images.get(place)
        if found is not None:
            return found
        node = self.nodes[number]
        board = [""] * len(sigma)
        for v, colour in enumerate(node["board"]):
            board[sigma[v]] = colour
        image = {k: value for k, value in node.items() if k not in ("id", "board", "moves")}
        if "moves" in node:
            image["moves"] = [[m if m == PASS else sigma[m], self.mapped(child, sigma)] for m, child in node["moves"]]
        q, d = self.claims[number]
        claim = (
            array("l", sorted(self.carried(k, sigma) for k in q)),
            array("l", sorted(self.carried(k, sigma) for k in d)),
        )
        image_number = self.add({"board": "".join(board), **image}, claim)
        self.images[place] = image_number
        return image_number

    def strategy(self, state, owner: int, t: int, group: tuple = ()) -> tuple[int, array]:
        """The node of a strategy for ``owner`` (0 Black, 1 White) from ``state`` (with the
        solver's current history) keeping the owner's value (negamax, no komi) at least ``t``,
        and its Q.  ``group`` holds automorphisms fixing the whole history: the opponent's
        moves of one orbit are written by carrying one of them along the automorphism."""
        solver = self.solver
        black, white, side, passes = state[0], state[1], state[2], state[3]
        place = (state, owner, t)
        for number in self.written.get(place, ()):
            q, d = self.claims[number]
            if self.ledger.reusable(q, d):
                return number, q
        if passes >= 2 or self.holds(state, owner, t):
            number = self.node(state, {"over": True} if passes >= 2 else {"static": True})
            self.written.setdefault(place, []).append(number)
            return number, NO_KEYS
        own = self.key(black, white, side)
        moves = solver.legal(state)
        asked: set = set()
        self.ledger.enter(own)
        try:
            if side == owner:
                entries = self.owner_move(state, owner, t, group, moves, asked)
            else:
                entries = self.replies(state, owner, t, group, moves, asked)
        finally:
            self.ledger.leave(own)
        content = {"to_move": "BW"[side], "moves": [[v, c] for v, c, _ in entries]}
        for _, _, q_child in entries:
            asked.update(q_child)
        asked.discard(own)
        number = self.node(state, content, asked)
        self.written.setdefault(place, []).append(number)
        return number, self.claims[number][0]

    def owner_move(self, state, owner: int, t: int, group: tuple, moves: list, asked: set) -> list:
        """The owner's one move at ``state``, as [(move, child node, child's Q)], its key added
        to ``asked``: a move that settles the bound without search if there is one (:meth:`settling`),
        else the first whose remaining game the solver proves good enough, trying first the
        moves its proofs remember (with the compiled core, after its test at this state
        under the current history, the move of that proof).  If the solver refutes every
        move, its tables are emptied (counted in ``tables_emptied``) and the moves tried
        again; AssertionError if they are all refuted again."""
        solver = self.solver
        settled = self.settling(state, owner, t, moves)
        if settled is not None:
            candidates = [settled]
        else:
            # First the move of a proof that holds under this very history (the compiled
            # core's test is run here for it): a proof kept for another history may name a
            # move that fails here, or keeps the bound but leads into lines never proved
            # (docs/solver.md, "Writing from the solver's own table").
            held = solver.held_move(state, t)
            candidates = solver.hinted(state, t, moves[1:] + moves[:1] if state[3] == 0 else moves)
            if held in candidates:
                candidates = [held] + [v for v in candidates if v != held]
        for fresh in (False, True):
            if fresh:
                # Every move refuted here, yet a test on the way here said the bound holds:
                # one of the solver's answers was wrong for its history.  Its tables are
                # emptied and the moves tried once more, each test then searched afresh.
                solver.forget()
                self.tables_emptied += 1
                if self.disagreement is None:
                    self.disagreement = self.where(state, owner, t)
            for v in candidates:
                child, pushed = solver.step(state, v)
                try:
                    if v == settled or not solver.at_least(child, 1 - t):
                        if v != PASS:
                            asked.add(self.key(child[0], child[1], child[2]))
                        number, q = self.strategy(child, owner, t, self.solver.child_group(group, child, v))
                        return [(v, number, q)]
                finally:
                    if pushed:
                        solver.pop()
        raise AssertionError(
            "no move keeps the bound, even searched afresh: the solver's value is inconsistent, at "
            + self.where(state, owner, t)
        )

    def where(self, state, owner: int, t: int) -> str:
        """A position of the strategy as the solve's note names it: the board, the player to
        move, the bound and the line of boards that led there (the history, oldest first)."""
        solver = self.solver
        line = " ".join(self.position(k) for k in solver.keys)
        board = self.board(state[0], state[1])
        return f"board {board}, {'BW'[state[2]]} to move, {'BW'[owner]} keeping {t:+d} (negamax), after {line}"

    def settling(self, state, owner: int, t: int, moves: list):
        """A legal move after which the bound needs no search, or None: a pass that ends the
        game (after the opponent's pass) with the owner's value at least ``t`` (the solver's
        stand pat), else a stone move to a board where the owner keeps enough by passing
        (a ``static`` leaf, the solver's Benson bound).  Taking these first keeps the
        strategy where the solver's proofs stop, instead of following a longer game that
        also keeps the bound."""
        solver = self.solver
        black, white, side, passes = state[0], state[1], state[2], state[3]
        if passes == 1:
            d = solver.difference(black, white)
            if (-d if side else d) >= t:
                return PASS
        legal = set(moves)
        for _, v, nb, nw in solver.children(black, white, side):
            if v in legal and self.holds((nb, nw), owner, t):
                return v
        return None

    def replies(self, state, owner: int, t: int, group: tuple, moves: list, asked: set) -> list:
        """Every legal move of the opponent at ``state`` with the owner's strategy after it,
        as [(move, child node, child's Q)]; the keys of all the opponent's stone moves,
        those the history forbids too, added to ``asked``."""
        solver = self.solver
        black, white, side = state[0], state[1], state[2]
        for _, _, nb, nw in solver.children(black, white, side):
            asked.add(self.key(nb, nw, 1 - side))
        entries: list = []
        built: dict = {}
        for v in moves:
            if v != PASS and group:
                sigma = min(group, key=lambda s: s[v])
                if sigma[v] < v and sigma[v] in built:
                    inverse = [0] * len(sigma)
                    for w, image in enumerate(sigma):
                        inverse[image] = w
                    number = self.mapped(built[sigma[v]], tuple(inverse))
                    entries.append((v, number, self.claims[number][0]))
                    continue
            child, pushed = solver.step(state, v)
            try:
                number, q = self.strategy(child, owner, t, self.solver.child_group(group, child, v))
            finally:
                if pushed:
                    solver.pop()
            built[v] = number
            entries.append((v, number, q))
        return entries

    def written_keys(self) -> list[str]:
        """The keys named by the nodes' Q, numbered afresh in the order the nodes name them,
        as strings, and each node's ``q`` and ``d`` written as lists of those numbers (the
        claims are let go as they are written)."""
        numbers: dict = {}
        for i, node in enumerate(self.nodes):
            q, d = self.claims[i]
            self.claims[i] = (NO_KEYS, NO_KEYS)
            for name, keys in (("q", q), ("d", d)):
                if keys:
                    node[name] = sorted(numbers.setdefault(k, len(numbers)) for k in keys)
        return [self.position(self.ledger.keys[k]) for k in numbers]

    def position(self, key) -> str:
        """A history key as written in a certificate: the board, and ``:B`` or ``:W`` for the
        player to move under situational superko."""
        solver = self.solver
        side, board = (key & 1, key >> 1) if solver.ko == "situational" else (None, key)
        full = (1 << solver.n) - 1
        text = self.board(board & full, board >> solver.n)
        return text if side is None else f"{text}:{'BW'[side]}"


def certificate(solver: Solver, value: int, max_positions: int = MAX_POSITIONS, effort: dict | None = None) -> dict:
    """The certificate of the raw value ``value`` (Black's margin before komi) that ``solver``
    found from its start (the empty board, Black to move): both strategies, as JSON-able data,
    of at most ``max_positions`` positions (PositionsSpent beyond).  ``effort``, if given,
    receives ``tables_emptied``: how often the solver's answers disagreed and its tables
    were emptied (:meth:`Writer.owner_move`), and ``disagreement``: where they first did
    (:meth:`Writer.where`), or None."""
    if solver.start != (0, 0, 0):
        raise CertificateRefused("certificates are written only for games from the empty board")
    writer = Writer(solver, max_positions)
    komi = solver.options.komi
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        lower_root = writer.strategy(solver.root(), 0, value, solver.group)[0]
        upper_root = writer.strategy(solver.root(), 1, -value, solver.group)[0]
    finally:
        sys.setrecursionlimit(limit)
        if effort is not None:
            effort["tables_emptied"] = writer.tables_emptied
            effort["disagreement"] = writer.disagreement
    return {
        "format": FORMAT,
        "graph": solver.graph.name,
        "ruleset": "tromp-taylor",
        "options": {
            "ko": solver.options.ko,
            "suicide": solver.options.suicide,
            "scoring": solver.options.scoring,
            "komi": komi,
        },
        "value": value - komi,
        "lower": value - komi,
        "upper": value - komi,
        "strategies": {
            "lower": {"player": "B", "bound": value - komi, "root": lower_root},
            "upper": {"player": "W", "bound": value - komi, "root": upper_root},
        },
        "keys": writer.written_keys(),
        "nodes": writer.nodes,
    }
