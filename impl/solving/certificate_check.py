"""Checking a solver's certificate with the executable spec alone.

A certificate (written by :mod:`gorules.impl.solving.certificate`) proves bounds on the
perfect-play value of a Tromp–Taylor game from the empty board, under positional or
situational superko.  It holds two strategies:

- ``lower``: a strategy for Black that ends every game with Black's margin (score minus
  White's, komi taken off) at least ``bound``: at each of Black's turns one move, at each
  of White's turns every legal move;
- ``upper``: the same for White, every game ending with Black's margin at most ``bound``.

The format
----------
This module reads a certificate as one document, format 3; ``gorules solve --certificate``
writes the same content in lines, format 4 (:mod:`gorules.impl.solving.certificate_lines`,
which reads it a line at a time into arrays and makes the checks below on key numbers).
A certificate of format 3 is a JSON object of exactly these fields: ``format`` (``gorules-certificate/3``),
``graph`` (the graph's name as :func:`gorules.spec.graph.parse_graph` writes it),
``ruleset`` (``tromp-taylor``), ``options`` (exactly ``ko``, ``suicide``, ``scoring`` and
``komi``, a finite number), ``lower`` and ``upper`` (finite numbers: the bounds of the two
strategies), ``strategies`` (``lower`` and ``upper``, each exactly a ``player``, ``B`` for
``lower`` and ``W`` for ``upper``, its ``bound`` and its ``root``), ``keys``, ``nodes`` and,
optionally, ``value``: the exact value, stated only where the bounds meet, and then equal
to both.  Any other field, a missing one, or one of the wrong type makes the file
unreadable (CertificateError); a field that disagrees with what the strategies prove makes
it invalid.  So what a valid certificate states, :func:`claim`, is what it proves.

``keys`` lists the history keys the certificate speaks of: under positional superko a
board (a string of ``B``, ``W``, ``.`` indexed by point), under situational superko a board
and the player to move, written ``board:player``.  ``nodes`` lists the strategies' nodes, each
with its number ``id`` (no two alike), its board, the player to move (``to_move``), its moves ``[move, child]``,
and two lists of numbers into ``keys``: ``q``, the set Q of keys whose presence in the
history the node's strategy relies on, and ``d`` ⊆ ``q``, the set D of those it relies on
being present (absent lists are empty sets), and nothing else.  Every node belongs to a
strategy and every key is named by a node.  A leaf, with ``id``, ``board``, ``q`` and ``d``
only, is a finished game (``over``: true, exactly where two passes end the game) or the
claim ``static`` (true): the strategy's player passes from here to the end and
keeps the points that Benson's unconditional life gives it on this board
(:mod:`gorules.spec.benson`), which proves its bound without play (on a board where it
keeps nothing, the trivial bound: Black's margin lies in [−n, n] on n points).

What a node claims, and why checking each node once proves the value
--------------------------------------------------------------------
The spec's state is the sequence s₀ … s_i of states (b, p, n) played so far, passes
included (a pass appends (b, p*, n + 1)).  A stone move from s_i is legal if its point is
empty, it is not a suicide where suicide is forbidden, and the key of the state it makes
is not the key of any of s₀ … s_i: the board under positional superko, the pair (board,
player to move) under situational superko (``repeated_state``); a pass is always legal.
Every state counts, a pass's too: the source (``002_8835c2492dce8849.txt``, condition 3.2
of a game) forbids b_{i+1} = b_j for all j ≤ i.  Under positional superko a pass's state
has the board of the state before it, so it brings no new key; under situational superko
(the spec's extension) it brings (b, p*).  Write p for the key of s_i, the current
position, and H = {key(s_j) : j < i} for the keys of the earlier states, the history.
Legality then depends on the line only through s_i and the set H ∪ {p}, and the final
margin only on the final board.

A node N at state s with sets Q, D claims: for every line s₀ … s_i ending in s whose
history H satisfies H ∩ Q = D, the node's strategy is a strategy of the real game from that
line (the owner's move is legal, the opponent's listed moves are exactly the legal ones)
and every game it allows ends within the bound.  The checker verifies at each node, once:

1. D ⊆ Q, and the board and player to move are the spec's for the state reached.
2. Each move is decided by Q and D alone.  It is applied with the spec's ruleset to a
   stand-in line: one state for each key of D, then s.  The stand-in's keys D ∪ {p} are a
   subset of the real line's H ∪ {p}, so a move the spec refuses on the stand-in (occupied,
   forbidden suicide, or a repeated key) is illegal on the real line.  A move it accepts
   must make a key k in Q (checked); k ∉ D ∪ {p} because the stand-in accepted it, and
   k ∈ H would give k ∈ H ∩ Q = D; so it is legal on the real line too.  Hence the
   opponent's legal moves are exactly the stand-in's, and the owner's move is legal.
3. A finished game's margin (the spec's ``value``) is within the bound; so is a static
   leaf's bound: the owner passes to the end and keeps the points K of
   :func:`gorules.spec.benson.kept` (unconditionally alive stones, and their one-point eyes
   under area scoring), so Black's margin ends at least 2|K| − n (Black's strategy) or at
   most n − 2|K| (White's), komi taken off.  This holds under any history (passing is
   always legal, and no move of the opponent, however restricted, takes a kept point),
   and with K empty it is the trivial bound ±n.
4. For each edge N → C, with C's state the spec's successor: Q_C ⊆ Q ∪ {p} and
   D_C = (D ∩ Q_C) ∪ ({p} ∩ Q_C).  The child's history is H ∪ {p} (every move, a pass
   too, appends a state, so the key of s_i joins the history), and
   (H ∪ {p}) ∩ Q_C = (H ∩ Q ∩ Q_C) ∪ ({p} ∩ Q_C) = D_C, using Q_C ⊆ Q ∪ {p}.  So C's
   condition holds on every line on which N's does.

The root is s₀ with D = ∅, which the empty history meets.  By induction on the length of
the longest game still possible from the line (finite: each stone move makes a key not
seen before, and two passes in a row end the game), every node's claim holds for every
line that reaches it from the root, whatever the DAG shares: the value is proved.  Under
positional superko a pass leaves p in the child's history with the same board, so a
stone move that gives back the board is refused there as the spec refuses it; under
situational superko the pass's own situation (b, p*) joins the history only when the next
move is made.  Simple ko and no ko are not checked: their games need not end.

This module imports only :mod:`gorules.spec`: every move is played and every score
counted by the spec's ruleset (``gorules.spec.tromp_taylor.TrompTaylor``), so a certificate
is believed only as far as the spec is.  ``check(data)`` returns None for a valid
certificate, else the first problem found, naming the node.
"""

from __future__ import annotations

from typing import Any

from gorules.spec import api, benson
from gorules.spec.graph import GraphError, parse_graph
from gorules.spec.tromp_taylor import BLACK, PASS, WHITE, Options, State, TrompTaylor, move

FORMAT = "gorules-certificate/3"


class CertificateError(ValueError):
    """A certificate that is not even well-formed (unreadable, wrong format)."""


FIELDS = ("format", "graph", "ruleset", "options", "value", "lower", "upper", "strategies", "keys", "nodes")
"""The fields of a certificate, in the order the writer writes them; ``value`` may be left out."""
OPTION_NAMES = ("ko", "suicide", "scoring", "komi")
"""The options a certificate states, every one of them, in the order its claim names them."""
PLAYERS = {"lower": BLACK, "upper": WHITE}
"""The player whose strategy proves each bound."""
STRATEGY_FIELDS = ("player", "bound", "root")
NODE_FIELDS = {
    "inner": frozenset(("id", "board", "to_move", "moves", "q", "d")),
    "over": frozenset(("id", "board", "over", "q", "d")),
    "static": frozenset(("id", "board", "static", "q", "d")),
}
"""The fields of a node of each kind: one with moves, a finished game, a static leaf."""


def integer(x) -> bool:
    """Whether x is a JSON integer (a bool is not)."""
    return isinstance(x, int) and not isinstance(x, bool)


def finite(x) -> bool:
    """Whether x is a finite JSON number (a bool is not, nor infinity or NaN)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x - x == 0


def number_text(x, signed: bool = False) -> str:
    """A number as a claim writes it, exactly: an integer in full, a float by its shortest
    repr (``7.5``, ``1e+20``), with a ``+`` before a non-negative one if ``signed``."""
    text = repr(float(x)) if isinstance(x, float) else str(x)
    return "+" + text if signed and not text.startswith("-") else text


def exact_fields(what: str, found: dict, names, optional=()) -> None:
    """CertificateError unless ``found`` is an object with the fields ``names`` (those in
    ``optional`` may be left out) and no other."""
    if not isinstance(found, dict):
        raise CertificateError(f"{what} is not an object")
    unknown = [name for name in found if name not in names]
    if unknown:
        raise CertificateError(f"{what} has the unknown field {unknown[0]!r} (its fields: {', '.join(names)})")
    missing = [name for name in names if name not in found and name not in optional]
    if missing:
        raise CertificateError(f"{what} has no field {missing[0]!r}")


def ruleset_of(data: dict) -> tuple[Any, TrompTaylor]:
    """The graph and the spec's ruleset a certificate speaks of; CertificateError if unknown,
    or if a field is missing, unknown or not of its type."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        again = "; write it again with 'gorules solve --certificate'" if str(found).startswith("gorules-") else ""
        raise CertificateError(f"not a certificate of format {FORMAT} (format {found!r}{again})")
    exact_fields("the certificate", data, FIELDS, optional=("value",))
    if data["ruleset"] != "tromp-taylor":
        raise CertificateError(f"certificates of the {data['ruleset']!r} ruleset cannot be checked")
    exact_fields("options", data["options"], OPTION_NAMES)
    for name in ("lower", "upper", "value"):
        if name in data and not finite(data[name]):
            raise CertificateError(f"{name} is {data[name]!r}, not a finite number")
    if not finite(data["options"]["komi"]):
        raise CertificateError(f"komi is {data['options']['komi']!r}, not a finite number")
    try:
        graph = parse_graph(data["graph"])
        options = Options(**data["options"])
    except (TypeError, AttributeError, GraphError, api.OptionError) as error:
        raise CertificateError(f"unreadable graph or options: {error}") from None
    if data["graph"] != graph.name:
        raise CertificateError(f"graph {data['graph']!r} is not written as its name {graph.name!r}")
    if options.ko not in ("positional", "situational"):
        raise CertificateError(f"ko={options.ko}: certificates exist only under superko (finite games)")
    return graph, TrompTaylor(options)


def claim(data: dict) -> str:
    """What a certificate states, every field of its claim named: the graph, the ruleset,
    each option and the bounds, e.g. ``grid:2x2 tromp-taylor ko=positional suicide=allowed
    scoring=area komi=0: value in [+1, +1] for Black``.  Once :func:`check` finds the
    certificate valid, this is what it proves."""
    options = " ".join(f"{name}={number_text(data['options'][name])}" for name in OPTION_NAMES)
    bounds = f"[{number_text(data['lower'], True)}, {number_text(data['upper'], True)}]"
    return f"{data['graph']} {data['ruleset']} {options}: value in {bounds} for Black"


def as_move(raw) -> Any:
    """A move as written in a certificate: a point number or "pass"."""
    return PASS if raw == PASS else raw


def well_formed(entry) -> bool:
    """Whether a move entry is [move, child]: a point number or "pass", and a node number."""
    if not isinstance(entry, list) or len(entry) != 2:
        return False
    raw, child = entry
    return (
        isinstance(child, int)
        and not isinstance(child, bool)
        and (raw == PASS or (isinstance(raw, int) and not isinstance(raw, bool)))
    )


def key_of(ruleset: TrompTaylor, s: State) -> tuple:
    """The key with which state s enters the history: its board under positional superko,
    its board and player to move under situational superko."""
    return (s.board, s.player) if ruleset.options.ko == "situational" else (s.board, None)


def parse_key(graph, ruleset: TrompTaylor, text) -> tuple:
    """A key as written in ``keys``; CertificateError if it is not one."""
    board, player = text, None
    if ruleset.options.ko == "situational":
        board, _, player = str(text).partition(":")
        if player not in (BLACK, WHITE):
            raise CertificateError(f"position {text!r} names no player to move")
    if not isinstance(board, str) or len(board) != graph.order or set(board) - set("BW."):
        raise CertificateError(f"position {text!r} is not a board of {graph.name}")
    return (tuple(board), player)


def stand_in(keys, s: State) -> tuple:
    """A line of states whose keys are ``keys`` followed by s: the spec decides a move on it
    exactly as on any line whose history holds these keys and no other key the move makes."""
    return (*(State(board, player or BLACK, 0) for board, player in keys), s)


class Claims:
    """The sets Q and D of each node, read once from the certificate."""

    def __init__(self, graph, ruleset: TrompTaylor, data: dict, nodes: dict):
        """Read ``keys``; CertificateError if one is malformed or listed twice."""
        raw = data["keys"]
        if not isinstance(raw, list):
            raise CertificateError("keys is not a list")
        self.keys = [parse_key(graph, ruleset, text) for text in raw]
        if len(set(self.keys)) != len(self.keys):
            raise CertificateError("keys lists a position twice")
        self.nodes = nodes
        self.read: dict[int, tuple[frozenset, frozenset] | str] = {}
        self.named: set[int] = set()

    def of(self, number: int) -> tuple[frozenset, frozenset] | str:
        """(Q, D) of node ``number`` as sets of keys, or the problem with them."""
        found = self.read.get(number)
        if found is None:
            found = self.read[number] = self.parse(number)
        return found

    def parse(self, number: int) -> tuple[frozenset, frozenset] | str:
        """(Q, D) of a node, or a problem: an index outside ``keys``, or D ⊄ Q."""
        node = self.nodes[number]
        sets = []
        for name in ("q", "d"):
            indices = node.get(name, [])
            if not isinstance(indices, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(self.keys) for i in indices
            ):
                return f"node {number}: {name} is not a list of key numbers"
            self.named.update(indices)
            sets.append(frozenset(self.keys[i] for i in indices))
        q, d = sets
        if not d <= q:
            return f"node {number}: d names keys that are not in q"
        return q, d


def check_strategy(graph, ruleset: TrompTaylor, claims: Claims, strategy: dict, owner: str, visited: set) -> str | None:
    """The first problem of one strategy, or None: at each node (visited once) every move
    decided legal by Q and D with the spec, every reply of the opponent present, every
    leaf a finished game within the bound, and each edge carrying Q and D as stated.  The
    nodes it reaches are added to ``visited``."""
    bound = strategy.get("bound")
    if isinstance(bound, bool) or not isinstance(bound, (int, float)):
        return f"the {owner} strategy has no numeric bound"
    nodes = claims.nodes

    def within(margin: float) -> bool:
        return margin >= bound if owner == BLACK else margin <= bound

    root = strategy.get("root")
    if isinstance(root, bool) or not isinstance(root, int) or root not in nodes:
        return f"the {owner} strategy's root {root!r} is missing"
    root_claim = claims.of(root)
    if isinstance(root_claim, str):
        return root_claim
    if root_claim[1]:
        return f"node {root}: the root relies on positions present in the empty history"
    seen: dict[Any, State] = {}
    stack = [(root, ruleset.start(graph)[-1])]
    while stack:
        number, s = stack.pop()
        if number in seen:
            if seen[number] != s:
                return f"node {number} is reached with two different states"
            continue
        seen[number] = s
        problem = check_node(graph, ruleset, claims, number, s, owner, within, stack)
        if problem is not None:
            return problem
        if nodes[number].get("static"):
            proved = static_bound(graph, ruleset, s, owner)
            if not within(proved):
                return (
                    f"node {number}: a static leaf at this board proves only the bound {number_text(proved)}, "
                    f"not {number_text(bound)}"
                )
    visited.update(seen)
    return None


def static_bound(graph, ruleset: TrompTaylor, s: State, owner) -> float:
    """The bound on Black's final margin (komi taken off) that the owner of a strategy holds
    from state s by passing to the end: with K the points the owner keeps (``spec.benson``),
    at least 2|K| − n for Black, at most n − 2|K| for White, on n points."""
    n, komi = graph.order, ruleset.options.komi
    k = len(benson.kept(graph, ruleset.options, s.board, owner))
    return (2 * k - n if owner == BLACK else n - 2 * k) - komi


def shape_problem(number: int, node: dict, s: State) -> str | None:
    """The problem with the fields of node ``number`` at state s, or None: a static leaf
    (``static`` true), a finished game (``over`` true, exactly where two passes ended it)
    or a node with moves, each with its own fields and no other."""
    kind = "static" if "static" in node else "over" if "over" in node else "inner"
    unknown = sorted(set(node) - NODE_FIELDS[kind])
    if unknown:
        return f"node {number}: the field {unknown[0]!r} does not belong to a node of kind {kind}"
    if kind != "inner" and node[kind] is not True:
        return f"node {number}: {kind} is {node[kind]!r}, not true"
    if (kind == "over") != (s.passes >= 2):
        said = "says the game is over" if kind == "over" else "is not marked over"
        return f"node {number}: {said}, but the spec's game has {s.passes} passes in a row"
    return None


def check_node(graph, ruleset: TrompTaylor, claims: Claims, number: int, s: State, owner, within, stack) -> str | None:
    """The first problem of node ``number`` at state s, or None; its children are pushed on
    ``stack`` with their states after their edges are checked."""
    node = claims.nodes[number]
    claim = claims.of(number)
    if isinstance(claim, str):
        return claim
    q, d = claim
    board = "".join(s.board)
    if node.get("board") != board:
        return f"node {number}: board {node.get('board')!r} but the moves give {board!r}"
    problem = shape_problem(number, node, s)
    if problem is not None:
        return problem
    if node.get("static"):
        return None
    if s.passes >= 2:
        margin = ruleset.value(graph, (s,))
        if not within(margin):
            return f"node {number}: the game ends with margin {number_text(margin)}, outside the bound"
        return None
    moves = node.get("moves")
    if not isinstance(moves, list) or not moves or not all(well_formed(m) for m in moves):
        return f"node {number}: the game is not over and its moves are not a list of [move, node]"
    if node.get("to_move") != s.player:
        return f"node {number}: says {node.get('to_move')} to move, the spec says {s.player}"
    line = stand_in(d, s)
    listed = [as_move(m) for m, _ in moves]
    if s.player == owner:
        if len(listed) != 1:
            return f"node {number}: the strategy's player must have exactly one move, has {len(listed)}"
        decided = listed
    else:
        decided = ruleset.moves(graph, line)
        if sorted(map(str, listed)) != sorted(map(str, decided)):
            return f"node {number}: the opponent's replies {listed} are not the legal moves {decided}"
    for v in decided:
        after = move(graph, s, v) if v != PASS and not isinstance(v, bool) and v in graph.points else None
        if after is not None and key_of(ruleset, after) not in q:
            return f"node {number}: move {v!r} makes a position that q does not name, so its legality is undecided"
    p = key_of(ruleset, s)
    for (raw, child), v in zip(moves, listed, strict=True):
        try:
            after = ruleset.apply(graph, line, v)[-1]
        except api.IllegalMove as error:
            return f"node {number}: move {raw!r} is illegal for the histories the node claims: {error}"
        if child not in claims.nodes:
            return f"node {number}: its move {raw!r} leads to node {child!r}, which is missing"
        child_claim = claims.of(child)
        if isinstance(child_claim, str):
            return child_claim
        q_child, d_child = child_claim
        if not q_child <= q | {p}:
            return f"node {number}: its child {child} relies on positions that neither it nor the move names"
        if d_child != (d & q_child) | ({p} & q_child):
            return f"node {number}: its child {child} states d that the history after move {raw!r} does not give"
        stack.append((child, after))
    return None


def nodes_of(data: dict) -> dict:
    """The nodes by number; CertificateError unless ``nodes`` is a list of objects with
    distinct integer ids."""
    raw = data["nodes"]
    if not isinstance(raw, list):
        raise CertificateError("nodes is not a list")
    nodes: dict = {}
    for node in raw:
        if not isinstance(node, dict) or not integer(node.get("id")):
            raise CertificateError("a node is not an object with an integer id")
        if node["id"] in nodes:
            raise CertificateError(f"two nodes have the id {node['id']}")
        nodes[node["id"]] = node
    return nodes


def strategies_of(data: dict) -> tuple[dict, dict]:
    """The lower and upper strategies; CertificateError unless each has exactly a player, a
    finite bound and an integer root."""
    strategies = data["strategies"]
    exact_fields("strategies", strategies, tuple(PLAYERS))
    for name in PLAYERS:
        strategy = strategies[name]
        exact_fields(f"the {name} strategy", strategy, STRATEGY_FIELDS)
        if not finite(strategy["bound"]):
            raise CertificateError(f"the {name} strategy's bound {strategy['bound']!r} is not a finite number")
        if not integer(strategy["root"]):
            raise CertificateError(f"the {name} strategy's root {strategy['root']!r} is not a node number")
    return strategies["lower"], strategies["upper"]


def stated_problem(data: dict) -> str | None:
    """The first disagreement between the strategies and what the certificate states of
    them, or None: the lower bound is Black's strategy's, the upper White's, each with the
    certificate's bound."""
    for name, player in PLAYERS.items():
        strategy = data["strategies"][name]
        if strategy["player"] != player:
            owner = "Black" if player == BLACK else "White"
            return f"the {name} strategy's player is {strategy['player']!r}: the {name} bound is {owner}'s to keep"
        if strategy["bound"] != data[name]:
            return (
                f"the {name} strategy's bound {number_text(strategy['bound'])} is not "
                f"the certificate's {name} value {number_text(data[name])}"
            )
    return None


def value_problem(data: dict) -> str | None:
    """The problem with the stated ``value``, or None: if stated, the bounds meet at it."""
    if "value" not in data:
        return None
    value, lower, upper = data["value"], data["lower"], data["upper"]
    if lower != upper:
        return (
            f"the value {number_text(value, True)} is stated, but the strategies prove only the bounds "
            f"[{number_text(lower, True)}, {number_text(upper, True)}]"
        )
    if value != lower:
        return f"the value {number_text(value, True)} is stated, but the strategies prove {number_text(lower, True)}"
    return None


def unchecked_problem(data: dict, claims: Claims, visited: set) -> str | None:
    """A node of neither strategy or a key no node names (parts of the file no check
    reads), or None."""
    unvisited = set(claims.nodes) - visited
    if unvisited:
        return f"node {min(unvisited)} belongs to neither strategy"
    unnamed = set(range(len(claims.keys))) - claims.named
    if unnamed:
        return f"key {min(unnamed)} ({data['keys'][min(unnamed)]!r}) is named by no node"
    return None


def check(data: dict) -> str | None:
    """The first problem of a certificate, or None if both strategies hold, their bounds
    are the stated lower and upper values, the value (if stated) is where they meet, and
    every node and key belongs to them; CertificateError if it cannot be read at all (a
    field missing, unknown or of the wrong type)."""
    graph, ruleset = ruleset_of(data)
    nodes = nodes_of(data)
    lower, upper = strategies_of(data)
    claims = Claims(graph, ruleset, data, nodes)
    problem = stated_problem(data)
    if problem:
        return problem
    visited: set = set()
    problem = check_strategy(graph, ruleset, claims, lower, BLACK, visited)
    if problem:
        return f"lower bound (Black's strategy): {problem}"
    problem = check_strategy(graph, ruleset, claims, upper, WHITE, visited)
    if problem:
        return f"upper bound (White's strategy): {problem}"
    return value_problem(data) or unchecked_problem(data, claims, visited)
