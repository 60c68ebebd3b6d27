"""What the errata checker runs over: the two readings of the rules, boards, states and game prefixes.

A reading (:class:`Rules`) is the ``move`` and ``reaches`` a statement is read with: the
source's literal definitions (``spec.errata``) or the corrected spec.  Game prefixes obey
the source's game conditions, as the oracle (``impl.differential.oracle``) states them over the
reading's ``move``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from gorules.errata.graphs import all_boards
from gorules.errata.reference import reference_reaches
from gorules.impl.differential.oracle import legal_reason
from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph


def well_formed(graph: Graph, b: Sequence[str], reaches: Callable) -> bool:
    """The source's well-formedness: reaches(b, v, Empty) for every point v."""
    return all(reaches(graph, b, v, tt.EMPTY) for v in graph.points)


# --------------------------------------------------------------------------- rules as data


@dataclass(frozen=True)
class Rules:
    """A reading of the source's definitions: the move and reaches it uses."""

    name: str
    move: Callable
    reaches: Callable


AS_WRITTEN = Rules("as written", literal.move_as_written, literal.reaches_as_written)
CORRECTED = Rules("corrected", tt.move, tt.reaches)


def continues(graph: Graph, rules: Rules, history: Sequence[tt.State], v) -> tt.State | None:
    """The state after v if a game prefix with these states may go on with v (rules 3.1–3.3
    of the source's game, read with the rules' ``move``), else None."""
    return legal_reason(rules, graph, history, v)[0]


def moves_of(graph: Graph) -> list:
    """Every move on a graph: Pass and each point."""
    return [tt.PASS, *graph.points]


def game_prefixes(graph: Graph, rules: Rules) -> Iterator[tuple[tuple, tuple]]:
    """Every game prefix (moves, states) on a graph, depth first; a prefix with two closing
    passes is a whole game."""
    stack: list[tuple[tuple, tuple]] = [((), (tt.initial_state(graph),))]
    while stack:
        moves, states = stack.pop()
        yield moves, states
        for v in moves_of(graph):
            s_next = continues(graph, rules, states, v)
            if s_next is not None:
                stack.append((moves + (v,), states + (s_next,)))


def reachable_states(graph: Graph, rules: Rules) -> dict[tt.State, tuple]:
    """Every state reachable from s₀ by moves that obey rules 3.1 and 3.3 (not the no-repeat
    rule 3.2, so this over-approximates the states of games), each with a shortest move list."""
    start = tt.initial_state(graph)
    found: dict[tt.State, tuple] = {start: ()}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s.passes >= 2:
            continue
        for v in moves_of(graph):
            s_next = rules.move(graph, s, v)
            if s_next is not None and s_next not in found:
                found[s_next] = found[s] + (v,)
                queue.append(s_next)
    return found


def witness_game(graph: Graph, board: Sequence[str]) -> tuple | None:
    """A game prefix (moves) under the corrected rules whose last board is ``board``: the
    stones of each chain placed outward from a liberty, passes keeping colours alternate.
    None if the board is not well-formed."""
    board = tuple(board)
    if not well_formed(graph, board, reference_reaches):
        return None
    order = []
    placed: set[int] = set()
    frontier = deque(
        v for v in graph.points if board[v] != tt.EMPTY and any(board[w] == tt.EMPTY for w in graph.neighbours[v])
    )
    placed.update(frontier)
    while frontier:
        v = frontier.popleft()
        order.append(v)
        for u in graph.points:
            if u not in placed and board[u] == board[v] and v in graph.neighbours[u]:
                placed.add(u)
                frontier.append(u)
    moves: list = []
    to_move = tt.BLACK
    for v in order:
        if board[v] != to_move:
            moves.append(tt.PASS)
            to_move = tt.opponent(to_move)
        moves.append(v)
        to_move = tt.opponent(to_move)
    history = [tt.initial_state(graph)]
    for v in moves:
        s_next = continues(graph, CORRECTED, history, v)
        if s_next is None:
            return None
        history.append(s_next)
    return tuple(moves) if history[-1].board == board else None


def board_cases(graphs: Sequence[Graph]) -> Iterator[tuple[Graph, tuple]]:
    """(graph, board) for every board of every graph, smallest first."""
    for graph in graphs:
        for b in all_boards(graph):
            yield graph, b


def well_formed_cases(graphs: Sequence[Graph]) -> Iterator[tuple[Graph, tuple]]:
    """(graph, board) for every well-formed board of every graph, smallest first."""
    for graph, b in board_cases(graphs):
        if well_formed(graph, b, reference_reaches):
            yield graph, b
