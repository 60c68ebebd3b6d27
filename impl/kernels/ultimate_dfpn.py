"""The yes/no questions of ``kernels.ultimate`` decided by depth-first proof-number search.

The same question ("can the player to move win (goal 0), or at least draw (goal 1)?"), the
same game, the same positions (each searched in its board's frame, its history moved alike)
and the same table of proofs with their history condition (Q, D; reused at a history H only
if H ∩ Q = D) as the depth-first kernel, which this one calls for all of that; only the
order in which the tree is searched differs.

The proof-number rules are ``kernels.proof_numbers``'s, the same as Tromp–Taylor's df-pn
(``kernels.dfpn``) with the weak rule: a node's pn is the least dn of its children (one
child that cannot reach its goal suffices), its dn the largest pn of the open children plus
one for each other open child, and the child of least dn is searched under the thresholds
of the 1 + ε trick with ε = 1/4.  New children start at (1, 1).  The walk is this game's
own: its positions are board numbers of the game's table with prisoners, delays and a
history of boards, where Tromp–Taylor's are bit masks under a score threshold, and a
compiled kernel calls its game's steps directly, not through function values.

**Sound under superko.**  The numbers of undecided nodes are heuristics: they are kept in a
table of numbers under a hash of the position and of its history that every automorphism
leaves alone (the history's boards taken by their representatives), so that histories
alike, or merely colliding, share numbers; a wrong number only changes the order of the
search.  Only decided answers say anything, and they are the depth-first kernel's: a node
reaches its goal when one child cannot (Q: that child's queries and its board, found
absent), and fails when every child reaches its own (Q: every child's queries and the
placements the history barred); both are stored and looked up by ``kernels.ultimate``'s
``_store`` and ``_lookup``, nothing else is ever taken as decided.

The search runs over an explicit stack of plies and stops after a number of nodes (entries
of a node that neither the rules nor a stored proof settle at once, each re-entry counted
again); ``resume`` continues exactly where it stopped.
"""

from __future__ import annotations

import numpy as np

from gorules.impl.kernels.proof_numbers import OPEN, child_thresholds, combine
from gorules.impl.kernels.ultimate import (
    F_AFTER_HINT,
    F_BARRED,
    F_EVERY_CHILD,
    F_HISTORY_TEST,
    FINISHED,
    OVERFLOWED,
    RUNNING,
    S_ACTION,
    S_DEEPEST,
    S_LIMIT,
    S_NODES,
    S_PLY,
    S_RESULT,
    _add,
    _copy,
    _enter,
    _has,
    _key,
    _leave,
    _legal,
    _lookup,
    _store,
    kernel,
)

INF = np.int64(1) << np.int64(40)
"""A number that stands for infinity (a decided node's other number)."""
MOVES = 9
"""The most moves of a position: the ultimate delay, the delay, 7 placements."""
NUMBERS = 1 << 21
"""Entries of the table of numbers (each a hash check, pn and dn); a newer one overwrites."""
S_PN, S_DN = 14, 15
"""Where a node that returns undecided leaves its numbers (``st`` beyond the kernel's)."""
ST_SIZE = 16
ENTER, EXPAND, SELECT, RETURN = range(4)
REACHED, FAILED = 1, 2
"""A child's status beside ``OPEN`` (undecided, ``kernels.proof_numbers``): known to reach
its goal, known not to."""
EPSILON_SHIFT = 2
"""ε = 1/4 in the 1 + ε trick of the chosen child's thresholds."""

_MIX = np.uint64(0x9E3779B97F4A7C15)


@kernel
def _mixed(x):
    """A 64-bit mix of ``x`` (splitmix64's finaliser)."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@kernel
def _state(key, d, history_hash):
    """The hash under which a position's numbers are kept: its table key (canonical board,
    player, ultimate prisoners, first delayer, draw right, goal), its prisoner difference and
    its history's hash."""
    return _mixed(history_hash ^ _mixed(np.uint64(key) * _MIX ^ np.uint64(d + 4096)))


@kernel
def _numbers(numbers, h):
    """The numbers kept under hash h, or (1, 1) for a node not met yet."""
    checks, pns, dns = numbers
    i = np.int64(h & np.uint64(checks.shape[0] - 1))
    if checks[i] == h:
        return pns[i], dns[i]
    return np.int64(1), np.int64(1)


@kernel
def _keep(numbers, h, pn, dn):
    """Keep an undecided node's numbers under hash h (overwriting whatever was there)."""
    checks, pns, dns = numbers
    i = np.int64(h & np.uint64(checks.shape[0] - 1))
    checks[i] = h
    pns[i] = pn
    dns[i] = dn


@kernel
def _child(game, ply, k, board, player, diff, ult, first, draw, goal):
    """The fields of the position after move k (fixed order) at ``ply``: (board made or −1,
    board, diff, ult, first, draw)."""
    children, taken = game[1], game[2]
    b, p, d = board[ply], player[ply], diff[ply]
    u, f, r = ult[ply], first[ply], draw[ply]
    if k == 0:  # the ultimate delay
        if f < 0:
            return -1, b, -d, u & ~(1 << p), p, r
        return -1, b, -d, u & ~(1 << p), f, 1 - p
    if k == 1:  # a delay
        return -1, b, -(d - 1), u, f, r
    c = children[b, p, k - 2]
    return c, c, -(d + taken[b, p, k - 2]), u, f, r


@kernel
def _child_hash(game, zobrist, ply, k, board, player, diff, ult, first, draw, goal, hh):
    """The numbers' hash of the child of ``ply`` by move k."""
    canon = game[4]
    made, b, d, u, f, r = _child(game, ply, k, board, player, diff, ult, first, draw, goal)
    h = hh[ply]
    if made >= 0:
        h ^= zobrist[canon[made]]
    key = _key(canon[b], 1 - player[ply], u, f, r, 1 - goal[ply])
    return _state(key, d, h)


@kernel
def _search(game, tables, numbers, zobrist, stack, st):
    """Run the search from the state in ``stack``/``st`` until it finishes, overflows or
    spends ``st[S_LIMIT]`` nodes; returns FINISHED (answer in st[S_RESULT]), OVERFLOWED or
    RUNNING (resume later)."""
    # The entry step repeats kernels.ultimate._search's on purpose: a kernel calls its steps
    # directly, not through function values, so each search has its own loop.
    placements, children, _, _, canon, _, _, _, flags, _ = game
    board, player, diff, ult, first, draw, goal, _, made, hh, thpn, thdn = stack[:12]
    moves, move_at, status, cpn, cdn, current, hist, used, scratch, _ = stack[12:]
    ply = st[S_PLY]
    action = st[S_ACTION]
    result = st[S_RESULT]
    rpn, rdn = st[S_PN], st[S_DN]
    while True:
        if action == ENTER:
            settled = _enter(ply, game, stack, scratch)
            b, p, d = board[ply], player[ply], diff[ply]
            if settled >= 0:
                used[ply, :] = 0
                result = settled
                action = RETURN
                continue
            key = _key(b, p, ult[ply], first[ply], draw[ply], goal[ply])
            found = _lookup(tables, st, key, d, hist[ply], used[ply], flags[F_HISTORY_TEST])
            if found >= 0:
                result = found
                action = RETURN
                continue
            action = EXPAND
        elif action == EXPAND:
            b, p, d = board[ply], player[ply], diff[ply]
            key = _key(b, p, ult[ply], first[ply], draw[ply], goal[ply])
            if st[S_NODES] >= st[S_LIMIT]:
                st[S_PLY], st[S_ACTION], st[S_RESULT] = ply, action, result
                return RUNNING
            st[S_NODES] += 1
            rpn, rdn = _numbers(numbers, _state(key, d, hh[ply]))
            if rpn >= thpn[ply] or rdn >= thdn[ply]:
                result = -1  # the numbers already say: not now
                action = RETURN
                continue
            used[ply, :] = 0
            m = 0
            for k in range(2 + placements[b, p]):
                if k >= 2 and flags[F_BARRED] and _has(hist[ply], children[b, p, k - 2]):
                    _add(used[ply], children[b, p, k - 2])  # a barred placement must stay barred for a loss
                if not _legal(k, b, p, d, ult[ply], hist[ply], placements, children):
                    continue
                move_at[ply, m] = k
                status[ply, m] = OPEN
                h = _child_hash(game, zobrist, ply, k, board, player, diff, ult, first, draw, goal, hh)
                cpn[ply, m], cdn[ply, m] = _numbers(numbers, h)
                m += 1
                if not flags[F_AFTER_HINT]:
                    break  # a mutant: the first move alone
            moves[ply] = m
            action = SELECT
        elif action == SELECT:
            pn, dn, best, second, open_ = combine(ply, moves[ply], status, cpn, cdn, FAILED, True, INF, INF)
            b, p, d = board[ply], player[ply], diff[ply]
            key = _key(b, p, ult[ply], first[ply], draw[ply], goal[ply])
            if pn == 0 or dn == 0:
                result = 1 if pn == 0 else 0
                _store(tables, st, key, d, hist[ply], used[ply], result)
                action = RETURN
                continue
            if pn >= thpn[ply] or dn >= thdn[ply]:
                _keep(numbers, _state(key, d, hh[ply]), pn, dn)
                rpn, rdn = pn, dn
                result = -1
                action = RETURN
                continue
            child = ply + 1
            if child >= board.shape[0]:
                return OVERFLOWED
            thpn[child], thdn[child] = child_thresholds(
                thpn[ply], thdn[ply], dn, second, open_, cpn[ply, best], True, EPSILON_SHIFT, INF, INF
            )  # the child's dn is the node's pn
            current[ply] = best
            k = move_at[ply, best]
            c, nb, nd, nu, nf, nr = _child(game, ply, k, board, player, diff, ult, first, draw, goal)
            player[child] = 1 - p
            goal[child] = 1 - goal[ply]
            _copy(hist[child], hist[ply])
            board[child] = nb
            diff[child] = nd
            ult[child], first[child], draw[child] = nu, nf, nr
            made[child] = c
            hh[child] = hh[ply]
            if c >= 0:
                _add(hist[child], c)
                hh[child] ^= zobrist[canon[c]]
            ply = child
            if ply > st[S_DEEPEST]:
                st[S_DEEPEST] = ply
            action = ENTER
        else:  # RETURN: ply's answer is result (−1 undecided, numbers rpn, rdn)
            if result >= 0:
                _leave(ply, game, stack, scratch)
            if ply == 0:
                if result < 0:  # the root's thresholds are infinite: cannot happen
                    return OVERFLOWED
                st[S_RESULT] = result
                st[S_PLY], st[S_ACTION] = 0, RETURN
                return FINISHED
            parent = ply - 1
            i = current[parent]
            if result == 0:  # the child cannot reach its goal: the parent reaches hers
                status[parent, i] = FAILED
                _copy(used[parent], used[ply])
                if made[ply] >= 0:
                    _add(used[parent], made[ply])
            elif result == 1:
                status[parent, i] = REACHED
                for w in range(used.shape[1]):
                    used[parent, w] |= used[ply, w]
                if not flags[F_EVERY_CHILD]:  # a mutant: one child reaching its goal fails the node
                    for j in range(moves[parent]):
                        status[parent, j] = REACHED
            else:
                cpn[parent, i], cdn[parent, i] = rpn, rdn
            ply = parent
            action = SELECT


@kernel
def begin(stack, st, b, p, d, ult, first, draw, goal, history):
    """Put the root position on the stack (its history a bitset over board numbers), with
    infinite thresholds; ``hashes`` (the history's hash) is set by ``root_hash``."""
    board, player, diff, ults, firsts, draws, goals = stack[:7]
    board[0], player[0], diff[0] = b, p, d
    ults[0], firsts[0], draws[0], goals[0] = ult, first, draw, goal
    stack[8][0] = -1  # the root made no board
    stack[10][0] = INF
    stack[11][0] = INF
    _copy(stack[18][0], history)
    st[S_PLY], st[S_ACTION], st[S_RESULT] = 0, ENTER, -1


@kernel
def root_hash(stack, canon, zobrist):
    """The root history's hash: its boards' representatives' random words xor-ed."""
    history = stack[18][0]
    h = np.uint64(0)
    for w in range(history.shape[0]):
        word = history[w]
        for i in range(64):
            if word >> np.uint64(i) & np.uint64(1):
                h ^= zobrist[canon[w * 64 + i]]
    stack[9][0] = h


@kernel
def resume(game, tables, numbers, zobrist, stack, st, limit):
    """Search on until ``limit`` nodes in all (see ``_search``)."""
    st[S_LIMIT] = limit
    return _search(game, tables, numbers, zobrist, stack, st)


def new_stack(plies: int, words: int) -> tuple[np.ndarray, ...]:
    """The kernel's stack: per ply its position, frame, made board, history hash and
    thresholds; its moves, their statuses and numbers, the child searched; its history and
    queries; scratch; the stabiliser's automorphism."""
    small = [np.zeros(plies, dtype=np.int64) for _ in range(9)]
    hashes = np.zeros(plies, dtype=np.uint64)
    thresholds = [np.zeros(plies, dtype=np.int64) for _ in range(2)]
    return (
        *small,
        hashes,
        *thresholds,
        np.zeros(plies, dtype=np.int64),  # moves
        np.zeros((plies, MOVES), dtype=np.int64),  # move_at
        np.zeros((plies, MOVES), dtype=np.int64),  # status
        np.zeros((plies, MOVES), dtype=np.int64),  # cpn
        np.zeros((plies, MOVES), dtype=np.int64),  # cdn
        np.zeros(plies, dtype=np.int64),  # current
        np.zeros((plies, words), dtype=np.uint64),  # hist
        np.zeros((plies, words), dtype=np.uint64),  # used
        np.zeros((2, words), dtype=np.uint64),  # scratch
        np.zeros(plies, dtype=np.int64),  # tau
    )


def new_numbers() -> tuple[np.ndarray, ...]:
    """An empty table of numbers."""
    return (np.zeros(NUMBERS, dtype=np.uint64), np.zeros(NUMBERS, dtype=np.int64), np.zeros(NUMBERS, dtype=np.int64))


def empty_numbers(numbers: tuple[np.ndarray, ...]) -> None:
    """Empty a table of numbers in place (a search under way goes on with it)."""
    for column in numbers:
        column[:] = 0


def new_zobrist(boards: int, seed: int = 20260) -> np.ndarray:
    """A random word per board number."""
    return np.random.default_rng(seed).integers(0, 2**63, size=boards, dtype=np.uint64) | np.uint64(1)
