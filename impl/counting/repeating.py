"""Games under simple ko or no ko: infinitely many as soon as play can repeat.

With ``ko=simple`` a stone move may not bring back the board before the last turn, and
with ``ko=none`` any board may come back.  What the next turns may be then depends only
on the *state*: the position, the player to move, whether the last turn was a pass, and
(simple ko) the position before the last turn.  There are finitely many states, so:

* if a cycle of turns is reachable from the empty board, a game can repeat it any number
  of times before two passes end it, and there are infinitely many games (conversely,
  with finitely many choices a turn, infinitely many games need an infinite line of play,
  which repeats a state);
* otherwise the states form a directed acyclic graph and the games are its paths from the
  start to the end, counted by a memoised walk (each move its own edge, so two suicides
  that leave the same board are two games).

:func:`count_repeating` counts in the second case and raises :class:`InfiniteGames`, with
a line of play that ends in a repeating cycle, in the first.  A single point with suicide
forbidden has one game (two passes); the tests show a cycle on the other small graphs.
"""

from __future__ import annotations

from gorules.impl.counting.tables import NO_MOVE, GameCount, move_table
from gorules.spec.graph import Graph, point_name
from gorules.spec.tromp_taylor import Options

PASS = "pass"
END = ("end",)


class InfiniteGames(ValueError):
    """The ruleset lets a game repeat forever: its games are infinitely many.  ``prefix``
    and ``loop`` are moves (points and "pass"): after the prefix, the loop returns to the
    state it started from."""

    def __init__(self, message: str, prefix: list, loop: list):
        super().__init__(message)
        self.prefix = prefix
        self.loop = loop


def turns(table, options: Options, state: tuple) -> list[tuple[object, tuple]]:
    """(move, next state) for every turn from ``state`` = (position, player, passed,
    position before the last turn or -1); two passes lead to END."""
    position, player, passed, before = state
    found: list[tuple[object, tuple]] = [(PASS, END if passed else (position, 1 - player, True, position))]
    for v, result in enumerate(table.after[position][player]):
        if result == NO_MOVE or (options.ko == "simple" and result == before):
            continue
        found.append((v, (result, 1 - player, False, position if options.ko == "simple" else -1)))
    return found


def find_cycle(table, options: Options, start: tuple) -> tuple[list, list] | None:
    """(moves from the start to a state, moves that lead from it back to it), or None if no
    cycle of turns is reachable from ``start``."""
    on_path: dict[tuple, int] = {start: 0}
    done: set[tuple] = set()
    path_moves: list = []
    stack = [(start, iter(turns(table, options, start)))]
    while stack:
        state, pending = stack[-1]
        step = next(pending, None)
        if step is None:
            stack.pop()
            del on_path[state]
            done.add(state)
            if path_moves:
                path_moves.pop()
            continue
        move, following = step
        if following == END or following in done:
            continue
        if following in on_path:
            k = on_path[following]
            return path_moves[:k], path_moves[k:] + [move]
        on_path[following] = len(stack)
        path_moves.append(move)
        stack.append((following, iter(turns(table, options, following))))
    return None


def count_paths(table, options: Options, start: tuple) -> tuple[int, int]:
    """(games, states) from ``start`` when no cycle is reachable: paths to END."""
    memo: dict[tuple, int] = {END: 1}
    order = [start]
    while order:
        state = order[-1]
        if state in memo:
            order.pop()
            continue
        following = [s for _, s in turns(table, options, state)]
        missing = [s for s in following if s not in memo]
        if missing:
            order.extend(missing)
            continue
        memo[state] = sum(memo[s] for s in following)
        order.pop()
    return memo[start], len(memo) - 1


def line_text(graph: Graph, moves: list, first: int = 0) -> str:
    """Moves as text, the first by player ``first`` (0 Black): ``B a1, W pass, ...``."""
    return ", ".join(f"{'BW'[(first + k) % 2]} {m if m == PASS else point_name(graph, m)}" for k, m in enumerate(moves))


def count_repeating(graph: Graph, options: Options) -> GameCount:
    """The games under simple ko or no ko, or :class:`InfiniteGames` naming a line of play
    that repeats a state."""
    table = move_table(graph, options.suicide)
    start = (table.empty, 0, False, -1)
    cycle = find_cycle(table, options, start)
    if cycle is not None:
        prefix, loop = cycle
        where = f"after {line_text(graph, prefix)} " if prefix else ""
        loop_text = line_text(graph, loop, len(prefix))
        raise InfiniteGames(
            f"under ko={options.ko} suicide={options.suicide} the games on {graph.name} are infinitely many: "
            f"{where}the turns {loop_text} return to the same position and player to move, and can repeat forever",
            prefix,
            loop,
        )
    games, states = count_paths(table, options, start)
    return GameCount(games, states, len(table.positions))
