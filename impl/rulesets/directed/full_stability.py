"""Source 000's stability conjectures in the whole game (ko bids, history deletion,
unsustainability): stability, "a normal board is stable" and the independence of settled
boards, each per graph under a reading of
:mod:`gorules.impl.rulesets.directed.full_arena`.

"Eventually passes" is read off the colours of a
:class:`~gorules.impl.rulesets.directed.full_arena.MarkedArena`, whose placements carry the
placer's colour (reading ``passing``).  At a komi where perfect play draws, a start is
*stable* when both players have a win-or-draw strategy that eventually passes, *unstable*
when neither has (then, the game being determined, each player has a strategy that wins
whenever the other eventually passes: the complement of the other's settling condition), and
*mixed* otherwise.  A start is a board with itself as the whole history and the komi as the
score difference; every board of the graph is a start, as in the game without bids.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from gorules.impl.rulesets.directed.arena import boards, play_plans
from gorules.impl.rulesets.directed.conjectures import Verdict, board_text, disjoint_sum
from gorules.impl.rulesets.directed.full_arena import Reading
from gorules.impl.rulesets.directed.full_game import FullSolution, cached_solution, empty_board, settling_solution
from gorules.impl.rulesets.directed.graphs import digraphs
from gorules.spec.graph import Graph, grid
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

GRIDS = ((1, 1), (1, 2), (1, 3), (2, 2))
"""The grids (rows, columns) tried for "a normal board is stable", smallest first."""


def all_starts(graph: Graph, reading: Reading, max_positions: int) -> FullSolution:
    """The settling solution from every board of the graph (ArenaTooLarge past the limit)."""
    return settling_solution(graph, reading, tuple(boards(graph.order)), max_positions)


def class_at(solution: FullSolution, board: tuple, komi: Fraction) -> str:
    """stable, unstable or mixed (naming the side that can settle) at one start and komi."""
    start = solution.start(board, komi)
    black = start in solution.solved["black-settles"].regions[0]
    white = start in solution.solved["white-settles"].regions[1]
    if black and white:
        return "stable"
    if not black and not white:
        return "unstable"
    return "mixed (only " + ("Black" if black else "White") + " can settle)"


def classes(solution: FullSolution) -> dict:
    """(board, komi) -> class at every start board and each komi at which it draws; a board
    without a drawn komi maps (board, None) to 'no drawn komi'."""
    found: dict[tuple, str] = {}
    for board in boards(solution.graph.order):
        drawn = solution.drawn_komis(board)
        for k in drawn:
            found[(board, k)] = class_at(solution, board, k)
        if not drawn:
            found[(board, None)] = "no drawn komi"
    return found


def stones(board: tuple) -> int:
    """Black stones minus White stones."""
    return sum(c == BLACK for c in board) - sum(c == WHITE for c in board)


def witness(found: dict, wanted) -> tuple:
    """The start of the fewest stones (then least board, least komi) among those whose class
    is accepted by `wanted`."""
    return min((key for key, kind in found.items() if wanted(kind)), key=lambda k: (sum(c != EMPTY for c in k[0]), k))


def stability(graph: Graph, reading: Reading, max_positions: int) -> Verdict:
    """One class, stable or unstable, at every start board and every komi at which it draws."""
    found = classes(all_starts(graph, reading, max_positions))
    kinds = sorted(set(found.values()))
    if len(kinds) == 1 and kinds[0] in ("stable", "unstable"):
        return Verdict("holds", f"{kinds[0]} from all {len(found)} (start board, drawn komi) pairs")
    by_kind = {kind: witness(found, lambda k, kind=kind: k == kind) for kind in kinds}
    odd = [kind for kind in kinds if kind not in ("stable", "unstable")]
    board, komi = by_kind[odd[0]] if odd else witness(found, lambda k: True)
    return Verdict(
        "fails",
        "; ".join(f"{kind} from {board_text(b)} at komi {k}" for kind, (b, k) in sorted(by_kind.items())),
        {
            "graph": graph.name,
            "start": board_text(board),
            "komi": str(komi),
            "classes": {kind: f"{board_text(b)} at komi {k}" for kind, (b, k) in by_kind.items()},
        },
    )


def grids_within(points: int) -> list[Graph]:
    """The grids of :data:`GRIDS` with at most `points` points."""
    return [grid(r, c) for r, c in GRIDS if r * c <= points]


def normal_board_is_stable(graph: Graph, reading: Reading, max_positions: int) -> Verdict:
    """On a grid: stable from every start board at every komi at which it draws."""
    found = classes(all_starts(graph, reading, max_positions))
    other = [key for key, kind in found.items() if kind != "stable"]
    if not other:
        return Verdict("holds", f"stable from all {len(found)} (start board, drawn komi) pairs")
    board, komi = witness(found, lambda k: k != "stable")
    return Verdict(
        "fails",
        f"{found[(board, komi)]} from {board_text(board)} at komi {komi}",
        {"graph": graph.name, "start": board_text(board), "komi": str(komi), "class": found[(board, komi)]},
    )


# ------------------------------------------------------------------ settled boards


def settled_boards(graph: Graph, reading: Reading, max_positions: int) -> list[tuple]:
    """The boards on which Black's settling plan and White's come to rest from the empty
    board, one per komi at which it draws (none if the empty board is not stable at some
    such komi, or a play of the plans keeps changing the board)."""
    solution = settling_solution(graph, reading, (empty_board(graph),), max_positions)
    found = []
    for k in solution.drawn_komis(empty_board(graph)):
        if class_at(solution, empty_board(graph), k) != "stable":
            return []
        arena = solution.arena
        lasso = play_plans(
            arena,
            solution.solved["black-settles"].plans[0],
            solution.solved["white-settles"].plans[1],
            solution.start(empty_board(graph), k),
        )
        resting = {arena.positions[v][1] for v in lasso.cycle if arena.positions[v][0] == "offer"}
        if len(resting) != 1:
            return []
        board = resting.pop()
        if board not in found:
            found.append(board)
    return found


@functools.lru_cache(maxsize=16)
def settled_sums(points: int, reading: Reading, max_positions: int) -> dict:
    """Every sum H + S on at most `points` points, S a digraph stable from the empty board with
    a settled board: the sum's name -> (sum, [(H, S, settled board of S)])."""
    found: dict = {}
    for m in range(1, points):
        for s in digraphs(m, m):
            for board in settled_boards(s, reading, max_positions):
                for h in digraphs(points - m):
                    g = disjoint_sum(h, s)
                    entry = found.setdefault(g.name, (g, []))
                    if (h, s, board) not in entry[1]:
                        entry[1].append((h, s, board))
    return found


def settled_komi(graph: Graph, reading: Reading, max_positions: int) -> Verdict:
    """On each H + S that makes up the graph, from H empty and S settled: the komis at which
    perfect play draws are those of H alone, each moved by S's stones (Black's minus White's)."""
    _, parts = settled_sums(graph.order, reading, max_positions).get(graph.name, (graph, []))
    if not parts:
        return Verdict("unknown", "not a sum of a digraph and a settled board")
    for h, s, board in parts:
        start = empty_board(h) + board
        summed = cached_solution(graph, reading, (start,), max_positions).drawn_komis(start)
        alone = cached_solution(h, reading, (empty_board(h),), max_positions).drawn_komis(empty_board(h))
        moved = [k + stones(board) for k in alone]
        if summed != moved:
            return Verdict(
                "fails",
                f"{h.name} (drawn komis {shown(alone)}) plus {s.name} settled as {board_text(board)} "
                f"({stones(board):+d} stones): drawn komis {shown(summed)}, not {shown(moved)}",
                {"graph": graph.name, "start": board_text(start), "settled": board_text(board)},
            )
    return Verdict("holds", "the drawn komis move by the settled boards' stones")


def shown(komis: list) -> str:
    """Komis as text."""
    return ", ".join(str(k) for k in komis) or "none"
