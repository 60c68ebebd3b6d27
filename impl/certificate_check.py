"""Checking a solver's certificate with the executable spec alone.

A certificate (written by :mod:`gorules.impl.certificate`) proves bounds on the
perfect-play value of a Tromp–Taylor game from the empty board.  It holds two strategies:

- ``lower``: a strategy for Black that ends every game with Black's margin (score minus
  White's, komi taken off) at least ``bound``: at each of Black's turns one move, at each
  of White's turns every legal move;
- ``upper``: the same for White, every game ending with Black's margin at most ``bound``.

Each strategy is a DAG: ``nodes`` lists positions by number, each with the board, the
player to move and its moves (move, child number); a position reached along two lines of
play is written once when both lines arrive with the same board, player, passes and
history (the set of earlier positions the ko rule consults).  A leaf is either a finished
game (two passes) or the claim ``static``: Black's margin lies in [−n, n] on a graph of n
points at every final board (each point counts for at most one player), which proves an
upper bound of n − komi or a lower bound of −n − komi without play.

This module imports only :mod:`gorules.spec`: it replays every move with the spec's
ruleset (``gorules.spec.tromp_taylor.TrompTaylor``), so a certificate is believed only as
far as the spec is.  ``check(data)`` returns None for a valid certificate, else the first
problem found, naming the node.
"""

from __future__ import annotations

from typing import Any

from gorules.spec import api
from gorules.spec.graph import GraphError, parse_graph
from gorules.spec.tromp_taylor import BLACK, PASS, WHITE, Options, TrompTaylor

FORMAT = "gorules-certificate/1"


class CertificateError(ValueError):
    """A certificate that is not even well-formed (unreadable, wrong format)."""


def ruleset_of(data: dict) -> tuple[Any, TrompTaylor]:
    """The graph and the spec's ruleset a certificate speaks of; CertificateError if unknown."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CertificateError(f"not a certificate of format {FORMAT}")
    if data.get("ruleset") != "tromp-taylor":
        raise CertificateError(f"certificates of the {data.get('ruleset')!r} ruleset cannot be checked")
    try:
        graph = parse_graph(data["graph"])
        options = Options(**{k: v for k, v in data["options"].items() if k != "name"})
    except (KeyError, TypeError, GraphError, api.OptionError) as error:
        raise CertificateError(f"unreadable graph or options: {error}") from None
    if options.ko not in ("positional", "situational"):
        raise CertificateError(f"ko={options.ko}: certificates exist only under superko (finite games)")
    return graph, TrompTaylor(options)


def as_move(raw) -> Any:
    """A move as written in a certificate: a point number or "pass"."""
    return PASS if raw == PASS else raw


def check_strategy(graph, ruleset: TrompTaylor, nodes: dict, strategy: dict, owner: str) -> str | None:
    """The first problem of one strategy, or None: every move legal by the spec, every
    reply of the opponent present, every leaf a finished game within the bound."""
    bound = strategy.get("bound")
    if not isinstance(bound, (int, float)):
        return f"the {owner} strategy has no numeric bound"
    n = graph.order
    komi = ruleset.options.komi

    def within(margin: float) -> bool:
        return margin >= bound if owner == BLACK else margin <= bound

    seen: dict[Any, Any] = {}
    stack = [(strategy.get("root"), ruleset.start(graph), "root")]
    while stack:
        number, states, how = stack.pop()
        node = nodes.get(number)
        if node is None:
            return f"node {number} ({how}) is missing"
        place = (ruleset.key(states), ruleset.history(states))
        if number in seen:
            if seen[number] != place:
                return f"node {number} is reached with two different positions or histories"
            continue
        seen[number] = place
        board = "".join(ruleset.board_of(graph, states))
        if node.get("board") != board:
            return f"node {number}: board {node.get('board')!r} but the moves give {board!r}"
        if node.get("static"):
            static_ok = (owner == WHITE and bound >= n - komi) or (owner == BLACK and bound <= -n - komi)
            if not static_ok:
                return f"node {number}: a static leaf proves only the bound ±{n} (less komi), not {bound:g}"
            continue
        if ruleset.is_over(graph, states):
            margin = ruleset.value(graph, states)
            if not within(margin):
                return f"node {number}: the game ends with margin {margin:g}, outside the bound {bound:g}"
            continue
        moves = node.get("moves")
        if not isinstance(moves, list) or not moves:
            return f"node {number}: the game is not over and no move is given"
        mover = ruleset.player(states)
        if node.get("to_move") != mover:
            return f"node {number}: says {node.get('to_move')} to move, the spec says {mover}"
        listed = [as_move(m) for m, _ in moves]
        if mover == owner:
            if len(listed) != 1:
                return f"node {number}: the strategy's player must have exactly one move, has {len(listed)}"
        else:
            legal = ruleset.moves(graph, states)
            if sorted(map(str, listed)) != sorted(map(str, legal)):
                return f"node {number}: the opponent's replies {listed} are not the legal moves {legal}"
        for (raw, child), move in zip(moves, listed, strict=True):
            try:
                after = ruleset.apply(graph, states, move)
            except api.IllegalMove as error:
                return f"node {number}: move {raw!r} is illegal: {error}"
            stack.append((child, after, f"after move {raw!r} at node {number}"))
    return None


def check(data: dict) -> str | None:
    """The first problem of a certificate, or None if both strategies hold and their bounds
    are the stated lower and upper values; CertificateError if it cannot be read at all."""
    graph, ruleset = ruleset_of(data)
    try:
        nodes = {int(node["id"]): node for node in data["nodes"]}
        strategies = data["strategies"]
        lower, upper = strategies["lower"], strategies["upper"]
    except (KeyError, TypeError, ValueError) as error:
        raise CertificateError(f"malformed certificate: {error}") from None
    if lower.get("bound") != data.get("lower") or upper.get("bound") != data.get("upper"):
        return "the strategies' bounds are not the certificate's lower and upper values"
    problem = check_strategy(graph, ruleset, nodes, lower, BLACK)
    if problem:
        return f"lower bound (Black's strategy): {problem}"
    problem = check_strategy(graph, ruleset, nodes, upper, WHITE)
    if problem:
        return f"upper bound (White's strategy): {problem}"
    return None
