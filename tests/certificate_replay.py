"""A second checker of certificates, for the tests: it ignores the nodes' Q and D and follows
every line of each strategy from the empty board with its whole history, as the spec's
ruleset plays it (a line's legal moves depend only on its set of history keys, so a node is
visited once per distinct set with which a line reaches it).  It shares nothing with
``gorules.impl.certificate_check`` beyond the spec."""

from __future__ import annotations

from gorules.spec import api
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import BLACK, PASS, Options, TrompTaylor


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
