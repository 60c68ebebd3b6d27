"""Go on directed graphs (source 000) as a ruleset with a ``solve`` capability: the spec's
ruleset, solved by the infinite-game solver of :mod:`gorules.impl.rulesets.directed.arena`.

The solver decides the fragment of the game without ko bids and without history deletion,
from any situation, exactly.  In that fragment the history is never read and the scores
never change after the komi, so what happens next depends on the board and the player to
move alone: the arena's positions.  Source 000's game is infinite, and its *value* here is
the one an infinite game has: the arena's value v of the position, the greatest t such that
Black can keep "live Black stones minus live White stones ≥ t" on every play and White can
keep it ≤ t, so that under perfect play of both the live-stone margin is exactly v.  The
:class:`~gorules.impl.solving.search.Solution`'s value is Black's final score minus White's
under that play: v plus the scores the situation already holds (White's komi taken off),
as a Tromp–Taylor margin has its komi taken off.  Beside it: the result at the komi, the
first player's win-or-draw komi (divide-and-choose), the stability class of the position
under a reading of "eventually passes", and the play of both sides' value plans (a lasso).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import ClassVar

from gorules.impl.rulesets.directed import conjectures
from gorules.impl.rulesets.directed.arena import Arena, Position, arena_of, values_of
from gorules.impl.rulesets.directed.arena import solve as solve_arena
from gorules.impl.rulesets.directed.full_arena import ArenaTooLarge, FullArena, Reading
from gorules.impl.rulesets.directed.full_game import komis, solve_condition
from gorules.impl.solving.search import SearchError, Solution, SolveRequest
from gorules.spec import directed
from gorules.spec.api import Situation
from gorules.spec.tromp_taylor import BLACK, DRAW, PASS, WHITE

SOLVE = "gorules.impl.rulesets.directed.ruleset:solve"

ARENA_POINTS = 6
"""The largest graph the solver takes: its arena has 4·3ⁿ positions, and Zielonka's
algorithm, once started, cannot be stopped part-way by a budget."""

READINGS = {"passes": conjectures.READINGS["passes"][1]}
"""The reading of "eventually passes" under which the stability class is computed (the
default of ``gorules conjectures 000``)."""

FRAGMENT = "source 000's game without ko bids and without history deletion"

WHOLE = "source 000's whole game (ko bids, history deletion, unsustainability)"


class Directed(directed.Directed):
    """Go on directed graphs (source 000), solved in the fragment without ko bids and without
    history deletion by Zielonka's algorithm over its finite arena."""

    capabilities: ClassVar[dict[str, str]] = {"solve": SOLVE}


def arena_positions(order: int) -> int:
    """The positions of the arena on ``order`` points: 3ⁿ boards × player to move × whether
    the last turn was a pass."""
    return 4 * 3**order


def refuse_beyond_limits(situation: Situation, request: SolveRequest) -> None:
    """SearchError before any work for a graph beyond the arena's limit or an arena larger
    than the node budget (a position of the arena counts as a node)."""
    graph = situation.graph
    positions = arena_positions(graph.order)
    if graph.order > ARENA_POINTS:
        raise SearchError(
            f"{graph.name} has {graph.order} points: the infinite-game solver's arena would hold {positions:,} "
            f"positions; it takes graphs of at most {ARENA_POINTS} points ({arena_positions(ARENA_POINTS):,} "
            "positions), a limit --max-points does not raise: the arena's solution cannot stop part-way"
        )
    nodes = request.budget.nodes
    if nodes is not None and positions > nodes:
        raise SearchError(
            f"{graph.name}: the infinite-game solver's arena holds {positions:,} positions, over the budget of "
            f"{nodes:,} nodes (raise --nodes)"
        )


def position_of(arena: Arena, state: directed.State) -> int:
    """The arena position of a situation: its board and player to move.  Whether the last turn
    was a pass changes no value and no stability class (both positions have the same moves,
    and a play visits the start once), so the position taken is the one after a stone."""
    return arena.index_of(Position(tuple(state.board), state.player, False))


def stability_class(graph, position: int, value: int, readings: dict) -> str:
    """The stability class of a position at komi = its value, as
    :func:`gorules.impl.rulesets.directed.conjectures.stability_classes` defines it for start
    boards: stable (both sides have a win-or-draw plan that eventually passes), unstable
    (neither has) or mixed (one side has)."""
    arena = arena_of(graph)
    black_game, white_game = conjectures.stability_games(graph, value, readings)
    black_has = position in solve_arena(arena, black_game).regions[0]
    white_has = position in solve_arena(arena, white_game).regions[1]
    if black_has and white_has:
        return "stable"
    if not black_has and not white_has:
        return "unstable"
    return "mixed (only " + ("Black" if black_has else "White") + " can settle)"


def lasso_moves(turns: list[str]) -> list:
    """The moves of a lasso's turns (``B 0``, ``W pass``): points and passes."""
    moves = []
    for turn in turns:
        word = turn.split()[1]
        moves.append(PASS if word == PASS else int(word))
    return moves


def lasso_movers(turns: list[str]) -> list[str]:
    """The players of a lasso's turns (``B 0`` is Black's)."""
    return [turn.split()[0] for turn in turns]


def plain(number) -> int | Fraction:
    """A rational number as an int when it is whole."""
    number = Fraction(number)
    return int(number) if number.denominator == 1 else number


FULL_POINTS = 2
"""The largest graph whose whole game (ko bids, history deletion) the solver builds: on three
points the arena of a single graph can pass a million nodes (the history is a set of boards)."""

FULL_NODES = 200_000
"""The whole game's arena limit when the request gives no node budget."""

FULL_READING = Reading()
"""The whole game's reading: the defaults of :data:`gorules.impl.rulesets.directed.full_arena.READINGS`."""


def whole_game(situation: Situation, request: SolveRequest) -> dict:
    """The whole game from the situation under :data:`FULL_READING`: the outcome at the
    situation's scores, the extra komis (one per class) at which perfect play draws, and
    Black's final score minus White's (the one drawn extra komi, when there is one on the
    grid); SearchError when the arena passes the node budget."""
    graph, state = situation.graph, situation.state
    limit = request.budget.nodes or FULL_NODES
    ks = komis(graph.order, FULL_READING.step)
    e = state.black_score - state.white_score
    board = tuple(state.board)
    probe = FullArena(graph, FULL_READING, [], limit)
    starts = {k: probe.bounded(board, state.player, state.history, e - k) for k in ks}
    try:
        arena = FullArena(graph, FULL_READING, list(starts.values()), limit)
    except ArenaTooLarge as too_large:
        raise SearchError(f"{graph.name}: the whole game's arena has {too_large} (raise --nodes)") from None
    win, draw = solve_condition(arena, "win"), solve_condition(arena, "win-or-draw")

    def outcome(k: Fraction) -> str:
        start = arena.index[starts[k]]
        return BLACK if start in win.regions[0] else DRAW if start in draw.regions[0] else WHITE

    drawn = [k for k in ks if outcome(k) == DRAW]
    exact = len(drawn) == 1 and (drawn[0] / (ks[1] - ks[0])).denominator == 1 and ks.index(drawn[0]) % 2 == 0
    at_zero = outcome(Fraction(0)) if Fraction(0) in starts else (BLACK if e > 0 else WHITE)
    return {
        "outcome": at_zero,
        "drawn": drawn,
        "value": drawn[0] if exact else None,
        "nodes": len(arena.positions),
    }


def solve(situation: Situation, request: SolveRequest) -> Solution:
    """The whole game's value on graphs of at most :data:`FULL_POINTS` points (beside the
    fragment's perfect komi, stability and line), the fragment's beyond."""
    solution = solve_fragment(situation, request)
    if situation.graph.order > FULL_POINTS:
        return solution
    started = time.perf_counter()
    whole = whole_game(situation, request)
    reading = {"bids": FULL_READING.bids, "unsustainable": FULL_READING.unsustainable}
    drawn = [str(k) for k in whole["drawn"]]
    scores = situation.state.black_score - situation.state.white_score
    details = dict(solution.details)
    details.update(
        fragment=WHOLE,
        outcome=whole["outcome"],
        perfect_komi=[str(plain(k - scores)) for k in whole["drawn"]],
        readings=dict(reading, passes=READINGS["passes"]),
        whole_game={"readings": reading, "drawn_extra_komis": drawn, "nodes": whole["nodes"]},
    )
    value = whole["value"]
    return Solution(
        graph=solution.graph,
        ruleset=solution.ruleset,
        options=solution.options,
        value=value,
        principal_variation=solution.principal_variation,
        nodes=whole["nodes"] + solution.nodes,
        seconds=solution.seconds + time.perf_counter() - started,
        method=(
            f"Zielonka's algorithm on the arena of {WHOLE} ({whole['nodes']:,} nodes: offers, turns, answers, resets), "
            f"reading bids={FULL_READING.bids} unsustainable={FULL_READING.unsustainable}; win and win-or-draw at "
            "one komi of each class"
        ),
        lower=value if value is not None else min(whole["drawn"], default=None),
        upper=value if value is not None else max(whole["drawn"], default=None),
        note=(
            f"proved exactly for {WHOLE} under bids={FULL_READING.bids} unsustainable={FULL_READING.unsustainable}: "
            f"Black's final score minus White's under perfect play, the extra komi at which it draws "
            f"({', '.join(drawn) or 'none'}); outcome at the situation's scores {whole['outcome']}; the stability "
            f"class and the principal variation are those of {FRAGMENT}"
        ),
        details=details,
    )


def solve_fragment(situation: Situation, request: SolveRequest) -> Solution:
    """The value of source 000's game from ``situation`` in the fragment without ko bids and
    without history deletion (see the module docstring), with the perfect komi, the
    stability class and the play of the value plans; SearchError for a graph beyond the
    arena's limit or the node budget, or a setting of the request this solver does not take."""
    request.refuse_tuning("the infinite-game solver of source 000")
    refuse_beyond_limits(situation, request)
    graph, state = situation.graph, situation.state
    started = time.perf_counter()
    arena = arena_of(graph)
    position = position_of(arena, state)
    live_margin = values_of(graph).of(position)
    scores = state.black_score - state.white_score
    value = plain(live_margin + scores)
    line = conjectures.optimal_lasso(arena, position)
    outcome = BLACK if value > 0 else WHITE if value < 0 else DRAW
    details = {
        "fragment": FRAGMENT,
        "live_stone_margin": live_margin,
        "scores": {BLACK: str(state.black_score), WHITE: str(state.white_score)},
        "outcome": outcome,
        "perfect_komi": [str(Fraction(k)) for k in conjectures.first_player_komis(graph, position)],
        "stability": stability_class(graph, position, live_margin, READINGS),
        "readings": dict(READINGS),
        "line": line,
        "movers": lasso_movers(line["prefix"]) + lasso_movers(line["cycle"]),
        "cycle": len(line["cycle"]),
    }
    return Solution(
        graph=graph.name,
        ruleset=situation.ruleset.name,
        options=situation.ruleset.options.as_dict(),
        value=value,
        principal_variation=lasso_moves(line["prefix"]) + lasso_moves(line["cycle"]),
        nodes=len(arena.positions),
        seconds=time.perf_counter() - started,
        method=(
            f"Zielonka's algorithm on the finite arena of {FRAGMENT} ({len(arena.positions):,} positions: board, "
            "player to move, last turn a pass), one Emerson–Lei game per threshold of the live-stone margin"
        ),
        lower=value,
        upper=value,
        note=(
            f"proved exactly for {FRAGMENT}: Black's final score minus White's under perfect play for ever, the "
            f"live-stone margin {live_margin:+d} (the greatest t such that Black can keep live Black minus live White "
            f"stones ≥ t and White can keep it ≤ t) plus Black's score minus White's ({plain(scores)}, the komi "
            f"taken off); stability at komi {live_margin} under the reading passes={READINGS['passes']}; the "
            f"principal variation's last {len(line['cycle'])} turns repeat for ever"
        ),
        details=details,
    )
