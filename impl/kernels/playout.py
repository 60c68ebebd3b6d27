"""The compiled playout kernel: whole random games in numba, for speed.

The board is an int8 array (0 Empty, 1 Black, 2 White) over the points of a graph
given by its out-neighbours and in-neighbours in compressed rows.  A move places the
stone, removes the opponent's stones that do not reach Empty after it, then the mover's; on
an undirected graph only the chains next to the point played are looked at, on a
directed graph the stones of each colour that reach Empty are found by a backward
search.  Ko rules compare the new board with the stored history of boards (a Zobrist
hash first, then the boards themselves, so a hash collision can never forbid a move).

This module is imported only by ``impl.engine.compiled.compiled_random_playout``; the pure
Python engine stays the reference path.  The step kernel of ``CompiledGame`` is
``impl/kernels/game.py``.
"""

from __future__ import annotations

import numpy as np

from gorules.impl.kernels.cache import njit


@njit(cache=True)
def _flood_has_liberty(board, start, colour, ptr, idx, mark, stamp, stack, chain):
    """Flood the chain of ``start`` (undirected) until a liberty shows; return (has a
    liberty, length).  Without a liberty the whole chain is left in ``chain[:length]``."""
    top = 0
    length = 0
    stack[top] = start
    top += 1
    mark[start] = stamp
    while top > 0:
        top -= 1
        u = stack[top]
        chain[length] = u
        length += 1
        for k in range(ptr[u], ptr[u + 1]):
            w = idx[k]
            c = board[w]
            if c == 0:
                return True, length
            if c == colour and mark[w] != stamp:
                mark[w] = stamp
                stack[top] = w
                top += 1
    return False, length


@njit(cache=True, inline="always")
def _push_into(board, u, colour, rptr, ridx, mark, stamp, stack, top):
    """Mark and push the unmarked stones of ``colour`` with an arc into u; return the new top."""
    for k in range(rptr[u], rptr[u + 1]):
        w = ridx[k]
        if board[w] == colour and mark[w] != stamp:
            mark[w] = stamp
            stack[top] = w
            top += 1
    return top


@njit(cache=True)
def _strand_directed(board, colour, rptr, ridx, mark, stamp, stack, out, out_count, n):
    """Remove (and append to ``out``) the stones of ``colour`` that reach no empty point
    along out-arcs; return the new count in ``out``."""
    top = 0
    for u in range(n):
        if board[u] == 0:
            top = _push_into(board, u, colour, rptr, ridx, mark, stamp, stack, top)
    while top > 0:
        top -= 1
        top = _push_into(board, stack[top], colour, rptr, ridx, mark, stamp, stack, top)
    for u in range(n):
        if board[u] == colour and mark[u] != stamp:
            out[out_count] = u
            out_count += 1
    for i in range(out_count):
        if board[out[i]] == colour:
            board[out[i]] = 0
    return out_count


@njit(cache=True, inline="always")
def _remove(board, chain, length, removed, count):
    """Empty the points ``chain[:length]`` and append them to ``removed[count:]``; return the new count."""
    for i in range(length):
        board[chain[i]] = 0
        removed[count] = chain[i]
        count += 1
    return count


@njit(cache=True)
def _place(board, v, me, ptr, idx, rptr, ridx, symmetric, mark, stamp, stack, chain, removed, n):
    """Play ``me`` at empty v; return (opponent stones removed, own stones removed, stamp).
    The removed points are ``removed[:total]``, the opponent's first."""
    opp = 3 - me
    board[v] = me
    count = 0
    if symmetric:
        for k in range(ptr[v], ptr[v + 1]):
            w = idx[k]
            if board[w] == opp:
                stamp += 1
                liberty, length = _flood_has_liberty(board, w, opp, ptr, idx, mark, stamp, stack, chain)
                if not liberty:
                    count = _remove(board, chain, length, removed, count)
        taken = count
        stamp += 1
        liberty, length = _flood_has_liberty(board, v, me, ptr, idx, mark, stamp, stack, chain)
        if not liberty:
            count = _remove(board, chain, length, removed, count)
        return taken, count - taken, stamp
    stamp += 1
    count = _strand_directed(board, opp, rptr, ridx, mark, stamp, stack, removed, 0, n)
    taken = count
    stamp += 1
    count = _strand_directed(board, me, rptr, ridx, mark, stamp, stack, removed, count, n)
    return taken, count - taken, stamp


@njit(cache=True)
def _same_board(history, j, board, n):
    """Whether stored board j equals the board."""
    for u in range(n):
        if history[j, u] != board[u]:
            return False
    return True


@njit(cache=True)
def _repeats(table, mask, hashes, boards, sides, new_h, board, n, side_to_move, situational):
    """Whether the board (with ``side_to_move``, for situational superko) is among the
    stored positions: the hash table gives the candidates, the boards decide."""
    slot = new_h & mask
    while table[slot] >= 0:
        j = table[slot]
        if hashes[j] == new_h and (not situational or sides[j] == side_to_move):
            if _same_board(boards, j, board, n):
                return True
        slot = (slot + np.uint64(1)) & mask
    return False


@njit(cache=True)
def _store(table, mask, new_h, j):
    """Enter position j (with hash ``new_h``) in the hash table."""
    slot = new_h & mask
    while table[slot] >= 0:
        slot = (slot + np.uint64(1)) & mask
    table[slot] = j


@njit(cache=True)
def playout(
    ptr, idx, rptr, ridx, symmetric, n, zobrist, ko, suicide_allowed, max_moves, seed, moves_out, board, pass_last
):
    """A uniformly random game (pass among the legal moves, or with ``pass_last`` only
    when no point is legal) until two passes or ``max_moves``; the moves go to
    ``moves_out`` (-1 for pass), the final board to ``board``; returns the number of moves."""
    np.random.seed(seed)
    for u in range(n):
        board[u] = 0
    boards = np.zeros((max_moves + 1, n), dtype=np.int8)
    hashes = np.zeros(max_moves + 1, dtype=np.uint64)
    sides = np.zeros(max_moves + 1, dtype=np.int8)
    size = 16
    while size < 4 * (max_moves + 1):
        size *= 2
    table = np.full(size, -1, dtype=np.int32)
    mask = np.uint64(size - 1)
    mark = np.zeros(n, dtype=np.int64)
    stamp = 0
    stack = np.zeros(n + 1, dtype=np.int32)
    chain = np.zeros(n + 1, dtype=np.int32)
    removed = np.zeros(2 * n + 2, dtype=np.int32)
    tried = np.zeros(n, dtype=np.int32)
    side = 1
    passes = 0
    h = np.uint64(0)
    sides[0] = 1
    _store(table, mask, h, 0)
    played = 0
    while played < max_moves and passes < 2:
        turn = played + 1
        untried = 0
        if pass_last:
            for u in range(n):
                if board[u] == 0:
                    untried += 1
        chosen = -1
        while True:
            if pass_last and untried == 0:
                break
            r = np.random.randint(0, n if pass_last else n + 1)
            if r == n:
                break
            if board[r] != 0 or tried[r] == turn:
                continue
            taken, lost, stamp = _place(
                board, r, side, ptr, idx, rptr, ridx, symmetric, mark, stamp, stack, chain, removed, n
            )
            legal = True
            if lost > 0 and not suicide_allowed:
                legal = False
            new_h = h ^ zobrist[r, side]
            for i in range(taken):
                new_h ^= zobrist[removed[i], 3 - side]
            for i in range(taken, taken + lost):
                new_h ^= zobrist[removed[i], side]
            if legal and (ko == 0 or ko == 1):
                if _repeats(table, mask, hashes, boards, sides, new_h, board, n, 3 - side, ko == 1):
                    legal = False
            elif legal and ko == 2 and played >= 1:
                if _same_board(boards, played - 1, board, n):
                    legal = False
            if legal:
                chosen = r
                h = new_h
                break
            for i in range(taken):
                board[removed[i]] = 3 - side
            for i in range(taken, taken + lost):
                board[removed[i]] = side
            board[r] = 0
            tried[r] = turn
            untried -= 1
        moves_out[played] = chosen
        played += 1
        passes = passes + 1 if chosen < 0 else 0
        side = 3 - side
        for u in range(n):
            boards[played, u] = board[u]
        hashes[played] = h
        sides[played] = side
        _store(table, mask, h, played)
    return played
