"""A second checker of certificates, for the tests: it ignores the nodes' Q and D and follows
every line of each strategy from the empty board with its whole history, as the spec's
ruleset plays it (a line's legal moves depend only on its set of history keys, so a node is
visited once per distinct set with which a line reaches it).  It shares nothing with
``gorules.impl.solving.certificate_check`` beyond the spec."""

from __future__ import annotations

from gorules.spec import api
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import BLACK, PASS, Options, TrompTaylor


def trivial(graph, ruleset: TrompTaylor, owner, bound) -> bool:
    """Whether ``bound`` holds at every final board: each point counts for at most one player."""
    n, komi = graph.order, ruleset.options.komi
    return bound <= -n - komi if owner == BLACK else bound >= n - komi


def passing_out(graph, ruleset: TrompTaylor, states: tuple, owner, bound, visited: set, budget: int) -> str | None:
    """A static leaf played out without Benson: the owner passes at every turn, the opponent
    plays every legal move, and every game ends within ``bound``; the first line that does
    not, or None.  A bound that holds at every final board is not played out."""
    if trivial(graph, ruleset, owner, bound):
        return None
    stack = [states]
    while stack:
        line = stack.pop()
        place = ("static", owner, line[-1], ruleset.history(line))
        if place in visited:
            continue
        visited.add(place)
        if len(visited) > budget:
            raise RuntimeError(f"more than {budget} (node, history) pairs")
        if ruleset.is_over(graph, line):
            margin = ruleset.value(graph, line)
            if (margin < bound) if owner == BLACK else (margin > bound):
                board = "".join(line[-1].board)
                return f"the game ends at {board} with margin {margin:g}"
            continue
        moves = [PASS] if ruleset.player(line) == owner else ruleset.moves(graph, line)
        stack.extend(ruleset.apply(graph, line, v) for v in moves)
    return None


def replay(data: dict, budget: int = 10**7) -> tuple[str | None, int]:
    """(the first problem found on some line, or None; the (node, history) pairs visited).
    RuntimeError if more than ``budget`` pairs would be visited."""
    graph = parse_graph(data["graph"])
    ruleset = TrompTaylor(Options(**data["options"]))
    nodes = {node["id"]: node for node in data["nodes"]}
    visited: set = set()
    for name, owner in (("lower", BLACK), ("upper", "W")):
        strategy = data["strategies"][name]
        bound = strategy["bound"]
        stack = [(strategy["root"], ruleset.start(graph))]
        while stack:
            number, states = stack.pop()
            place = (name, number, states[-1], ruleset.history(states))
            if place in visited:
                continue
            visited.add(place)
            if len(visited) > budget:
                raise RuntimeError(f"more than {budget} (node, history) pairs")
            node = nodes[number]
            if node["board"] != "".join(ruleset.board_of(graph, states)):
                return f"{name}: node {number} has the wrong board", len(visited)
            if node.get("static"):
                problem = passing_out(graph, ruleset, states, owner, bound, visited, budget)
                if problem is not None:
                    return f"{name}: node {number}'s static bound fails: {problem}", len(visited)
                continue
            if ruleset.is_over(graph, states):
                margin = ruleset.value(graph, states)
                if (margin < bound) if owner == BLACK else (margin > bound):
                    return f"{name}: node {number} ends outside the bound", len(visited)
                continue
            legal = ruleset.moves(graph, states)
            listed = [PASS if m == PASS else m for m, _ in node["moves"]]
            if ruleset.player(states) == owner:
                if len(listed) != 1 or listed[0] not in legal:
                    return f"{name}: node {number}'s move is not one legal move", len(visited)
            elif sorted(map(str, listed)) != sorted(map(str, legal)):
                return f"{name}: node {number} does not answer every legal move", len(visited)
            for m, child in node["moves"]:
                try:
                    stack.append((child, ruleset.apply(graph, states, PASS if m == PASS else m)))
                except api.IllegalMove:
                    return f"{name}: node {number}'s move {m} is illegal", len(visited)
    return None, len(visited)
