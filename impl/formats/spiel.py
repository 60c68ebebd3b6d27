"""OpenSpiel's ``go`` game in the engine's terms: its actions as points, its board as ours.

OpenSpiel numbers the points of an n×n board from the bottom line (action r·n + c with row
0 at the bottom) and passes with action n²; our grids number from the top.
"""

from __future__ import annotations

from gorules.spec.tromp_taylor import PASS


def openspiel_action(size: int, v) -> int:
    """OpenSpiel's action for a point (its row 0 is the bottom line) or a pass."""
    if v == PASS:
        return size * size
    r, c = divmod(v, size)
    return (size - 1 - r) * size + c


def openspiel_point(size: int, action: int):
    """The point (or PASS) of an OpenSpiel action."""
    if action == size * size:
        return PASS
    row, c = divmod(action, size)
    return (size - 1 - row) * size + c


def openspiel_board(size: int, state) -> tuple:
    """OpenSpiel's board, from the black and white planes of its observation tensor."""
    planes = state.observation_tensor(0)
    n = size * size
    board = ["."] * n
    for action in range(n):
        v = openspiel_point(size, action)
        if planes[action]:
            board[v] = "B"
        elif planes[n + action]:
            board[v] = "W"
    return tuple(board)
