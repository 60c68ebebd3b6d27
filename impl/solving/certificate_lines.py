"""Certificates in lines: written and checked a line at a time, held compactly.

A certificate of :mod:`gorules.impl.solving.certificate_check` is one JSON document, which
a reader must hold whole, with a Python object for every node, list and number: for the
4×4 board's million positions that is gigabytes.  The same certificate in lines
(``gorules-certificate/4``, what ``gorules solve --certificate`` writes) is read a line at
a time into arrays of machine integers (:class:`Store`), and checked from them with the
same checks, on key numbers instead of sets of boards (:class:`Checker`).

The format
----------
A text file of lines, each one JSON value ending in a newline (``\\n``), and nothing else:

1. a header: an object of exactly the fields of a ``gorules-certificate/3`` document but
   ``nodes`` and ``keys``, which here are counts: ``format`` (``gorules-certificate/4``),
   ``graph``, ``ruleset``, ``options``, ``lower``, ``upper``, ``strategies``, optionally
   ``value``, then ``keys`` (K, how many key lines follow) and ``nodes`` (N, how many node
   lines follow them), each meaning what it means in format 3;
2. K lines, each a JSON string: the history keys, numbered 0 … K−1 in this order, each
   written as format 3 writes a key;
3. N lines, each a JSON object: the nodes, numbered 0 … N−1 in this order (a node's
   number is its place; it has no ``id``), each with the fields of a format-3 node but
   ``id``.  The numbers of ``q`` and of ``d`` are strictly ascending (each a set written
   once), and every key and node number is in range.

A line of another form, a field missing, unknown or of the wrong type, a count that is not
the number of lines, a line after the last node, a last line without its newline, a line
of more than :data:`LONGEST_LINE` bytes, or a number JSON does not have makes the file
unreadable (CertificateError, or the reader's ValueError); a field that disagrees with
what the strategies prove makes it invalid, exactly as in format 3.

What is checked
---------------
Exactly what :func:`gorules.impl.solving.certificate_check.check` checks of the same
certificate (its module docstring gives the argument that this proves the bounds): from
each root, every node reached, once per strategy, with the spec's state; D ⊆ Q; the board
and the player to move the spec's; every move decided by Q and D on the spec's stand-in
line, the opponent's moves exactly the legal ones, every stone move's key in Q; every
finished game and every static leaf (with :mod:`gorules.spec.benson`) within the bound;
every edge carrying Q and D; at the roots D = ∅; every node of one of the strategies and
every key named by a node; the stated players, bounds and value.  Keys are compared by
number: the key lines are distinct boards (checked), so a key is in a set of numbers
exactly when its number is.

The writer holds the whole certificate until it is done (the nodes are renumbered and
shared as it goes), then writes it a line at a time: :func:`lines` gives the lines of a
format-3 document, and :func:`document` reads them back into one (for readers that want
the whole certificate, such as ``gorules explore``).  This module imports only the spec
and the format-3 checker's functions, which import only the spec.
"""

from __future__ import annotations

import itertools
import json
from array import array
from collections.abc import Callable, Iterator
from typing import Any

from gorules.impl.solving.certificate_check import (
    FIELDS,
    FORMAT,
    NODE_FIELDS,
    PLAYERS,
    CertificateError,
    exact_fields,
    integer,
    number_text,
    parse_key,
    ruleset_of,
    stand_in,
    stated_problem,
    static_bound,
    strategies_of,
    value_problem,
)
from gorules.spec import api
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, State, move

LINES_FORMAT = "gorules-certificate/4"
LONGEST_LINE = 1 << 26
"""The most bytes a line may have (its newline included): far more than a node of any
certificate takes (a node's ``q`` names at most every key once), and a bound on what one
line can make the reader hold."""

INNER, OVER, STATIC = 0, 1, 2
KINDS = {"inner": INNER, "over": OVER, "static": STATIC}
PASS_NUMBER = -1
"""A pass, as the store holds a move (points are 0 … n−1)."""

Parse = Callable[[str], Any]
"""Strict JSON of one line: a JSON value, ValueError if the text is not one (the command
refuses ``NaN``, ``Infinity``, over-long numbers and fields given twice)."""


def lines(data: dict) -> Iterator[str]:
    """The lines of the format-3 document ``data`` in format 4: the header, the keys, the
    nodes (whose ids are their places, as the writer numbers them), each with its newline."""
    header = {name: data[name] for name in FIELDS if name in data and name not in ("keys", "nodes")}
    header.update(format=LINES_FORMAT, keys=len(data["keys"]), nodes=len(data["nodes"]))
    yield json.dumps(header, separators=(",", ":")) + "\n"
    for key in data["keys"]:
        yield json.dumps(key) + "\n"
    for place, node in enumerate(data["nodes"]):
        if node["id"] != place:
            raise ValueError(f"node {node['id']} is at place {place}: the nodes are numbered by their places")
        yield json.dumps({name: value for name, value in node.items() if name != "id"}, separators=(",", ":")) + "\n"


def is_header(value) -> bool:
    """Whether a parsed first line is a format-4 header (else the file is read as format 3)."""
    return isinstance(value, dict) and value.get("format") == LINES_FORMAT


class Lines:
    """The lines of a binary stream, numbered from 1, each decoded and parsed strictly."""

    def __init__(self, stream, parse: Parse, first: bytes | None = None):
        """Read ``stream`` (a binary file) after ``first``, a first line already read."""
        self.stream = stream
        self.parse = parse
        self.pending = first
        self.number = 0

    def raw(self) -> bytes:
        """The next line's bytes, b"" at the end of the stream."""
        if self.pending is not None:
            found, self.pending = self.pending, None
            return found
        return self.stream.readline(LONGEST_LINE + 1)

    def next(self, what: str) -> Any:
        """The JSON value of the next line, which should be ``what``; CertificateError at the
        end of the stream, on a line too long or without its newline, ValueError if it is
        not JSON."""
        found = self.raw()
        self.number += 1
        if not found:
            raise CertificateError(f"the file ends at line {self.number}, where {what} should be")
        if len(found) > LONGEST_LINE:
            raise CertificateError(f"line {self.number} is longer than {LONGEST_LINE:,} bytes")
        if not found.endswith(b"\n"):
            raise CertificateError(f"line {self.number} ({what}) has no newline: the file is cut short")
        try:
            return self.parse(found.decode("utf-8"))
        except ValueError as error:
            raise ValueError(f"line {self.number} ({what}): {error}") from None

    def end(self) -> None:
        """CertificateError unless the stream has ended."""
        if self.raw():
            raise CertificateError(f"line {self.number + 1} follows the last node")


def header_of(value) -> dict:
    """The header, CertificateError unless it has exactly its fields, counts among them."""
    if not is_header(value):
        found = value.get("format") if isinstance(value, dict) else None
        raise CertificateError(f"the first line is not a header of format {LINES_FORMAT} (format {found!r})")
    exact_fields("the header", value, FIELDS, optional=("value",))
    for name in ("keys", "nodes"):
        if not integer(value[name]) or value[name] < 0:
            raise CertificateError(f"the header's {name} is {value[name]!r}, not a count of lines")
    return value


def ascending(found, limit: int) -> bool:
    """Whether ``found`` is a list of integers strictly ascending in 0 … limit−1."""
    if not isinstance(found, list):
        return False
    if not all(type(k) is int for k in found):
        return False
    return (not found or (found[0] >= 0 and found[-1] < limit)) and all(a < b for a, b in itertools.pairwise(found))


class Store:
    """A certificate in format 4, read a line at a time into arrays: the header as read, the
    keys as text (with their numbers), and for each node its kind, board, player to move,
    moves and its Q and D as key numbers, each kind of item in one flat array with the
    offsets of each node's part."""

    def __init__(self, rows: Lines):
        """Read the header, the keys and the nodes; CertificateError if one is malformed or
        a count disagrees with the lines."""
        self.header = header_of(rows.next("the header"))
        self.graph, self.ruleset = ruleset_of({**self.header, "format": FORMAT})
        strategies_of(self.header)
        self.order = self.graph.order
        self.keys: list[str] = []
        self.index: dict[str, int] = {}
        for number in range(self.header["keys"]):
            text = rows.next(f"key {number}")
            if not isinstance(text, str):
                raise CertificateError(f"key {number} is {text!r}, not a string")
            parse_key(self.graph, self.ruleset, text)
            if self.index.setdefault(text, number) != number:
                raise CertificateError(f"key {number} is key {self.index[text]} again")
            self.keys.append(text)
        self.count = self.header["nodes"]
        self.kinds = bytearray()
        self.players = bytearray()
        self.boards = bytearray()
        self.moves = (array("q", [0]), array("i"), array("i"))
        self.claims = (array("q", [0]), array("i"), array("q", [0]), array("i"))
        self.named = bytearray(len(self.keys))
        for number in range(self.count):
            self.add(number, rows.next(f"node {number}"))
        rows.end()

    def add(self, number: int, node) -> None:
        """Store node ``number``; CertificateError if it is malformed."""
        if not isinstance(node, dict):
            raise CertificateError(f"node {number} is not an object")
        kind = "static" if "static" in node else "over" if "over" in node else "inner"
        unknown = sorted(set(node) - NODE_FIELDS[kind] - {"id"}) or (["id"] if "id" in node else [])
        if unknown:
            raise CertificateError(f"node {number}: the field {unknown[0]!r} does not belong to a node of kind {kind}")
        board = node.get("board")
        if not isinstance(board, str) or len(board) != self.order or set(board) - set("BW."):
            raise CertificateError(f"node {number}: board {board!r} is not a board of {self.graph.name}")
        self.boards += board.encode("ascii")
        self.players.append(0)
        self.kinds.append(KINDS[kind])
        if kind != "inner" and node[kind] is not True:
            raise CertificateError(f"node {number}: {kind} is {node[kind]!r}, not true")
        if kind == "inner":
            self.add_moves(number, node)
        else:
            self.moves[0].append(len(self.moves[1]))
        self.add_claim(number, node)

    def add_moves(self, number: int, node: dict) -> None:
        """Store the player to move and the moves of an inner node."""
        player, moves = node.get("to_move"), node.get("moves")
        if not isinstance(player, str) or player not in PLAYERS.values():
            raise CertificateError(f"node {number}: to_move is {player!r}, not B or W")
        self.players[-1] = ord(player)
        if not isinstance(moves, list) or not moves:
            raise CertificateError(f"node {number}: moves is not a list of [move, node]")
        offsets, points, children = self.moves
        for entry in moves:
            if not isinstance(entry, list) or len(entry) != 2:
                raise CertificateError(f"node {number}: the move {entry!r} is not [move, node]")
            point, child = entry
            if point != PASS and not (type(point) is int and 0 <= point < self.order):
                raise CertificateError(f"node {number}: the move {point!r} is neither a point nor a pass")
            if not (type(child) is int and 0 <= child < self.count):
                raise CertificateError(f"node {number}: its move {point!r} leads to node {child!r}, which is missing")
            points.append(PASS_NUMBER if point == PASS else point)
            children.append(child)
        offsets.append(len(points))

    def add_claim(self, number: int, node: dict) -> None:
        """Store a node's Q and D; every key of Q is named."""
        q_offsets, q_keys, d_offsets, d_keys = self.claims
        for name, offsets, keys in (("q", q_offsets, q_keys), ("d", d_offsets, d_keys)):
            found = node.get(name, [])
            if not ascending(found, len(self.keys)):
                raise CertificateError(f"node {number}: {name} is not a list of key numbers, strictly ascending")
            keys.extend(found)
            offsets.append(len(keys))
        named = self.named
        for k in node.get("q", ()):
            named[k] = 1

    def board(self, number: int) -> str:
        """The board node ``number`` states."""
        n = self.order
        return self.boards[number * n : (number + 1) * n].decode("ascii")

    def q(self, number: int) -> array:
        """Q of a node, as key numbers."""
        offsets, keys = self.claims[0], self.claims[1]
        return keys[offsets[number] : offsets[number + 1]]

    def d(self, number: int) -> array:
        """D of a node, as key numbers."""
        offsets, keys = self.claims[2], self.claims[3]
        return keys[offsets[number] : offsets[number + 1]]

    def edges(self, number: int) -> list[tuple[Any, int]]:
        """The moves of a node as (move, child): a point or ``pass``."""
        offsets, points, children = self.moves
        start, stop = offsets[number], offsets[number + 1]
        return [(PASS if v == PASS_NUMBER else v, c) for v, c in zip(points[start:stop], children[start:stop])]


class Checker:
    """The checks of :mod:`gorules.impl.solving.certificate_check` on a :class:`Store`."""

    def __init__(self, store: Store):
        """Check ``store``'s certificate with its graph and the spec's ruleset."""
        self.store = store
        self.graph, self.ruleset = store.graph, store.ruleset
        self.situational = self.ruleset.options.ko == "situational"

    def number_of(self, s: State) -> int:
        """The number of the key of state s, −1 if no key line is it."""
        text = "".join(s.board)
        return self.store.index.get(f"{text}:{s.player}" if self.situational else text, -1)

    def stand_in(self, d, s: State) -> tuple:
        """The spec's stand-in line for D (key numbers) and s."""
        store = self.store
        return stand_in([parse_key(self.graph, self.ruleset, store.keys[k]) for k in d], s)

    def strategy(self, name: str, visited: bytearray) -> str | None:
        """The first problem of the strategy ``name`` (``lower`` or ``upper``), or None; the
        nodes it reaches are marked in ``visited``."""
        store = self.store
        strategy = store.header["strategies"][name]
        owner, bound, root = PLAYERS[name], strategy["bound"], strategy["root"]
        if not 0 <= root < store.count:
            return f"the {owner} strategy's root {root!r} is missing"
        if store.d(root):
            return f"node {root}: the root relies on positions present in the empty history"
        passes, players = bytearray(store.count), bytearray(store.count)
        stack = [(root, self.ruleset.start(self.graph)[-1])]
        while stack:
            number, s = stack.pop()
            if passes[number]:
                if (passes[number] - 1, players[number]) != (s.passes, ord(s.player)) or store.board(number) != "".join(
                    s.board
                ):
                    return f"node {number} is reached with two different states"
                continue
            passes[number], players[number] = s.passes + 1, ord(s.player)
            visited[number] = 1
            problem = self.node(number, s, owner, bound, stack)
            if problem is not None:
                return problem
        return None

    def node(self, number: int, s: State, owner: str, bound, stack: list) -> str | None:
        """The first problem of node ``number`` at state s, or None; its children are pushed
        on ``stack`` with their states after their edges are checked."""
        store = self.store
        q, d = store.q(number), store.d(number)
        q_set = set(q)
        if not q_set.issuperset(d):
            return f"node {number}: d names keys that are not in q"
        board = "".join(s.board)
        if store.board(number) != board:
            return f"node {number}: board {store.board(number)!r} but the moves give {board!r}"
        kind = store.kinds[number]
        if (kind == OVER) != (s.passes >= 2):
            said = "says the game is over" if kind == OVER else "is not marked over"
            return f"node {number}: {said}, but the spec's game has {s.passes} passes in a row"
        if kind == STATIC:
            proved = static_bound(self.graph, self.ruleset, s, owner)
            if not (proved >= bound if owner == BLACK else proved <= bound):
                return (
                    f"node {number}: a static leaf at this board proves only the bound {number_text(proved)}, "
                    f"not {number_text(bound)}"
                )
            return None
        if kind == OVER:
            margin = self.ruleset.value(self.graph, (s,))
            if not (margin >= bound if owner == BLACK else margin <= bound):
                return f"node {number}: the game ends with margin {number_text(margin)}, outside the bound"
            return None
        return self.inner(number, s, owner, q_set, d, stack)

    def inner(self, number: int, s: State, owner: str, q_set: set, d, stack: list) -> str | None:
        """The first problem of the moves of inner node ``number`` at state s, or None."""
        store = self.store
        said = chr(store.players[number])
        if said != s.player:
            return f"node {number}: says {said} to move, the spec says {s.player}"
        edges = store.edges(number)
        line = self.stand_in(d, s)
        listed = [v for v, _ in edges]
        if s.player == owner:
            if len(listed) != 1:
                return f"node {number}: the strategy's player must have exactly one move, has {len(listed)}"
            decided = listed
            applied = {v: self.applied(line, v) for v in listed}
        else:
            applied = self.legal(line, s)
            decided = [v for v, after in applied.items() if isinstance(after, State)]
            if sorted(map(str, listed)) != sorted(map(str, decided)):
                return f"node {number}: the opponent's replies {listed} are not the legal moves {decided}"
        for v in decided:
            if v == PASS:
                continue
            found = applied[v]
            after = found if isinstance(found, State) else move(self.graph, s, v)
            if after is not None and self.number_of(after) not in q_set:
                return f"node {number}: move {v!r} makes a position that q does not name, so its legality is undecided"
        return self.children(number, s, q_set, d, applied, edges, stack)

    def legal(self, line: tuple, s: State) -> dict:
        """Every move on the stand-in line with the state the spec's ``apply`` makes, or why
        it refuses it: each empty point, then pass.  The legal moves are those it accepts,
        in this order, as the spec's ``TrompTaylor.moves`` finds them; each is applied once
        here and its state used for the key check and the edge both."""
        board = s.board
        found = {v: self.applied(line, v) for v in self.graph.points if board[v] == EMPTY}
        found[PASS] = self.applied(line, PASS)
        return found

    def applied(self, line: tuple, v) -> State | str:
        """The state after move v on the stand-in line, by the spec's ``apply``, or why the
        spec refuses it."""
        try:
            return self.ruleset.apply(self.graph, line, v)[-1]
        except api.IllegalMove as error:
            return str(error)

    def children(self, number: int, s: State, q_set: set, d, applied: dict, edges: list, stack: list) -> str | None:
        """The first problem of the edges of node ``number``, or None: each move as the spec
        applied it to the stand-in line (``applied``), each child's Q within Q ∪ {p} and its
        D the one the move gives; the children pushed on ``stack``."""
        store = self.store
        p = self.number_of(s)
        allowed = q_set | {p}
        d_set = set(d)
        for v, child in edges:
            after = applied[v]
            if not isinstance(after, State):
                return f"node {number}: move {v!r} is illegal for the histories the node claims: {after}"
            q_child = store.q(child)
            if not allowed.issuperset(q_child):
                return f"node {number}: its child {child} relies on positions that neither it nor the move names"
            given = [k for k in q_child if k in d_set or k == p]
            if list(store.d(child)) != given:
                return f"node {number}: its child {child} states d that the history after move {v!r} does not give"
            stack.append((child, after))
        return None

    def problem(self) -> str | None:
        """The first problem of the certificate, as :func:`certificate_check.check` finds it."""
        store = self.store
        problem = stated_problem(store.header)
        if problem:
            return problem
        visited = bytearray(store.count)
        for name, whose in (("lower", "Black's"), ("upper", "White's")):
            problem = self.strategy(name, visited)
            if problem:
                return f"{name} bound ({whose} strategy): {problem}"
        return value_problem(store.header) or self.unchecked(visited)

    def unchecked(self, visited: bytearray) -> str | None:
        """A node of neither strategy or a key no node names, or None."""
        store = self.store
        unvisited = visited.find(0)
        if unvisited >= 0:
            return f"node {unvisited} belongs to neither strategy"
        unnamed = store.named.find(0)
        if unnamed >= 0:
            return f"key {unnamed} ({store.keys[unnamed]!r}) is named by no node"
        return None


def check(rows: Lines) -> tuple[dict, int, str | None]:
    """Read and check a certificate in format 4: its header, its number of positions and its
    first problem (None if valid); CertificateError if it cannot be read."""
    store = Store(rows)
    return store.header, store.count, Checker(store).problem()


def document(rows: Lines) -> dict:
    """A certificate in format 4 read whole, as the format-3 document of the same content
    (nodes with their ids); CertificateError if its lines are not of the format."""
    header = header_of(rows.next("the header"))
    keys = [rows.next(f"key {number}") for number in range(header["keys"])]
    nodes = []
    for number in range(header["nodes"]):
        node = rows.next(f"node {number}")
        if not isinstance(node, dict) or "id" in node:
            raise CertificateError(f"node {number} is not an object without an id")
        nodes.append({"id": number, **node})
    rows.end()
    data = {name: header[name] for name in FIELDS if name in header}
    data.update(format=FORMAT, keys=keys, nodes=nodes)
    return data
