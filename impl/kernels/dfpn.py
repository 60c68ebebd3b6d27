"""Depth-first proof-number search (df-pn) for one threshold test, in numba.

The test is the compiled core's ("can the player to move force a final value of at least
t?", ``impl/kernels/solve.py``), decided by Nagai's df-pn instead of iterative deepening.
The proof-number rules (a node's numbers from its children's, the weak rule for dn by
default, ``WEAK``, or the sum, ``SUM``, and the chosen child's thresholds with the 1 + ε
trick) are ``kernels.proof_numbers``'s, shared with the Ultimate/Fundamental search; this
module is the walk over Tromp–Taylor's positions.  The sum counts a shared subtree once
per path to it, and the positions of a line of Go transpose into each other everywhere, so
that the root's numbers grow past any meaning and the thresholds with them, where the weak
rule's stay small (docs/solver.md, "Why the weak rule").

Soundness under superko.  The numbers of undecided nodes are heuristics: they are stored
per state (board, player to move, passes, threshold) whatever the history, and a wrong
number only changes the order of the search.  A node's final answer is different: it is
stored in the compiled core's table with its history queries (the keys asked, Q, and
those found, D) and reused only where the history H has H ∩ Q = D, the test of
``kernels.solve._reusable``.  The queries are gathered as the existing kernel gathers them:
a proved node asked whether its winning move's position was in the history (it was not)
and what its refuted child asked; a disproved node asked about the positions of its moves
that repeat the history (its hits; with ``EVERY_MOVE``, about every move's position) and
what each of its proved children asked; a node whose
moves were folded by symmetry holds for exactly its history.  Moves that repeat a
position of the history (the path from the root and the game before it) are not moves, so
every line is finite and every descent ends.

The search runs over an explicit stack of frames and stops after a number of nodes, to be
resumed exactly where it stopped (:func:`begin`, :func:`resume`), like the deepening
kernel; a node is counted each time it is entered.  The state is the deepening kernel's
tuple ``A`` (graph, rules, history, table, move lists) and this module's tuple ``B``
(children's numbers, thresholds, the table of numbers).
"""

from __future__ import annotations

import numpy as np

from gorules.impl.kernels.proof_numbers import NO_STATUS, OPEN, child_thresholds, combine
from gorules.impl.kernels.solve import (
    C_SITUATIONAL,
    C_STONE,
    C_TABLE_MASK,
    C_TRANSPOSITIONS,
    C_WAYS,
    EXPAND,
    F_ANSWER,
    F_BEST,
    F_COUNT,
    F_CURRENT,
    F_DEPTH,
    F_H,
    F_PASSES,
    F_PUSHED,
    F_SIDE,
    F_SLOT,
    F_T,
    GOLDEN,
    HWORDS,
    MAX_PLY,
    NO_MOVE,
    OVERFLOW,
    PASS_MOVE,
    QWORDS,
    S_HLEN,
    S_LIMIT,
    S_NODES,
    S_OVERFLOW,
    SIDE_SALT,
    SUSPENDED,
    U0,
    U_BLACK,
    U_GROUP,
    U_WHITE,
    UNBOUNDED,
    _bit,
    _bounds,
    _bucket,
    _close,
    _decided,
    _difference,
    _enter,
    _find,
    _fixing,
    _image,
    _load_history,
    _mix,
    _pop,
    _popcount,
    _push,
    _qbit,
    _tag,
    kernel,
    position_key,
)

INF = 1 << 40
"""The proof or disproof number of a decided node; undecided sums stop at ``INF - 1``."""
WIDTH = 66
"""Children per frame: at most 64 points and the pass."""

# B[0..3]: per frame and child, its pn, dn, status and the history key its move pushes (0: none)
REPEATS, SUCCEEDS, FAILS = 1, 2, 3
"""A child's status beside ``OPEN`` (undecided, ``kernels.proof_numbers``): not a move (its
position repeats the history); decided for its own mover (the move is refuted); decided
against its mover (the move wins)."""
# B[4]: per frame
D_THPN, D_THDN, D_PN, D_DN, D_OPEN = range(5)
DS_SIZE = 5
# B[5]: per slot of the table of numbers, (check, threshold, pn, dn)
N_CHECK, N_T, N_PN, N_DN = range(4)
# B[6]: the run
R_PLY, R_STEP, R_EPS, R_RULE, R_MUTANT, R_QUERIES, R_INIT, R_FOLD = range(8)
R_SIZE = 8
ONE_REFUTATION, WINNING_MOVE_UNASKED, REPETITIONS_UNASKED = 1, 2, 3
"""Mutants for the tests: a node disproved as soon as one of its moves is refuted; a proof
whose queries leave out the position of its winning move; a node whose queries leave out
the positions of its moves that repeat the history (a disproof reused where such a move
has become legal)."""
EVERY_MOVE, REPETITIONS = 0, 1
"""Which of a node's own move positions its queries hold (``R_QUERIES``): every move's
(legal or not), or only those that repeat the history.  A disproof needs only the latter:
where a move that was legal repeats the history, the move is gone and the others are still
refuted (their own queries are kept); a proof asks about its winning move alone
(:func:`_take`)."""
SUM, WEAK = 0, 1
"""How a node's dn follows from its children's pn: their sum (df-pn), or the largest plus
one for each other open child (weak proof-number search, Ueda et al.)."""
ENTER, SELECT, RETURN = 0, 1, 2


@kernel
def _merge(A, ply):
    """Add the queries of frame ``ply + 1`` to those of frame ``ply`` (the hits only as far
    as frame ``ply``'s history reaches: later ones are positions of the line below it)."""
    qs, hs, fi = A[11], A[12], A[24]
    h = fi[ply, F_H]
    for w in range(QWORDS):
        qs[ply, w] |= qs[ply + 1, w]
    for w in range((h >> 6) + 1):
        hs[ply, w] |= hs[ply + 1, w]


@kernel
def _take(A, B, ply, i):
    """Make the queries of frame ``ply`` those of its child ``i`` (a move that wins), with
    the query of the child's own position, whose absence made the move legal."""
    qs, hs, st, fi = A[11], A[12], A[10], A[24]
    h = fi[ply, F_H]
    for w in range(QWORDS):
        qs[ply, w] = qs[ply + 1, w]
    for w in range((h >> 6) + 1):
        hs[ply, w] = hs[ply + 1, w]
    key = B[3][ply, i]
    if key != U0 and A[13][ply, i] != PASS_MOVE and B[6][R_MUTANT] != WINNING_MOVE_UNASKED:
        b = _qbit(A[26], A[27], st, key)
        qs[ply, b >> 6] |= _bit(b & 63)


@kernel
def _child_state(A, ply, i):
    """The child ``i`` of frame ``ply``: (black, white, side, passes, threshold)."""
    fi = A[24]
    side = fi[ply, F_SIDE]
    npasses = fi[ply, F_PASSES] + 1 if A[13][ply, i] == PASS_MOVE else 0
    return A[14][ply, i], A[15][ply, i], 1 - side, npasses, 1 - fi[ply, F_T]


@kernel
def _static(A, black, white, side, passes, t):
    """The answer of a state known without its moves (1 or -1 for its mover), else 0: the
    game over after two passes, the static bounds, standing pat after one pass."""
    # Repeated in kernels.solve._enter on purpose: there it is inlined among the frame's set-up.
    nbr, full, cfg = A[0], A[1], A[2]
    if passes >= 2:
        d = _difference(nbr, full, black, white, cfg[C_STONE])
        return 1 if (-d if side else d) >= t else -1
    low, high = _bounds(nbr, full, cfg, A[21], A[22], A[23], black, white, side)
    if low >= t:
        return 1
    if high < t:
        return -1
    if passes == 1:
        d = _difference(nbr, full, black, white, cfg[C_STONE])
        if (-d if side else d) >= t:
            return 1
    return 0


@kernel
def _stored(A, black, white, side, passes):
    """Whether the table holds answers for the state (in some slot of its bucket); False
    if the table is switched off."""
    cfg, tk = A[2], A[18]
    if not cfg[C_TRANSPOSITIONS]:
        return False
    base = _bucket(black, white, side, passes, cfg)
    meta = _tag(side, passes)
    for slot in range(base, base + cfg[C_WAYS]):
        if tk[slot, 0] == black and tk[slot, 1] == white and tk[slot, 2] == meta:
            return True
    return False


@kernel
def _folded(A, B, black, white):
    """The board whose numbers stand for (black, white): the least of it and its images under
    the first ``R_FOLD`` automorphisms of the kernel's group (the graph's other than the
    identity; none with ``R_FOLD`` 0, the board itself then), so that boards the graph's
    symmetry maps onto each other share their numbers (numbers order the search and decide
    nothing, so any board's may stand for another's)."""
    least_black, least_white = black, white
    for k in range(B[6][R_FOLD]):
        ib, iw = _image(A[4], k, black, white)
        if ib < least_black or (ib == least_black and iw < least_white):
            least_black, least_white = ib, iw
    return least_black, least_white


@kernel
def _numbers_slot(black, white, side, passes, mask):
    """The state's slot in the table of numbers and its check word: one mix of the whole
    state (as ``_state_slot``'s), its low bits the slot and the whole word the check.  A
    state taken for another (equal mixes) only gets that state's numbers: they order the
    search and decide nothing."""
    code = np.uint64(side * 2 + passes + 1)
    z = _mix(black ^ _mix(white + GOLDEN + code * SIDE_SALT))
    return np.int64(z & np.uint64(mask)), np.int64(z)


@kernel
def _initial_dn(A, B, black, white):
    """The disproof number of a child not searched yet: 1, or with ``R_INIT`` > 0 its
    empty points divided by ``R_INIT`` (at least 1; the moves its mover has, all of
    which a disproof must refute)."""
    k = B[6][R_INIT]
    if k <= 0:
        return 1
    return max(1, _popcount(A[1] & ~(black | white)) // k)


@kernel
def _initial_by_score(A, B, black, white, side, t):
    """The numbers of a child not searched yet from the area score its board would have if
    the game ended now, seen by its mover: the further below ``t``, the larger its proof
    number, the further at or above, the larger its disproof number (``-R_INIT`` points a
    unit)."""
    nbr, full, cfg = A[0], A[1], A[2]
    d = _difference(nbr, full, black, white, cfg[C_STONE])
    gap = (-d if side else d) - t
    unit = -B[6][R_INIT]
    if gap < 0:
        return 1 + (-gap) // unit, 1
    return 1, 1 + (gap + 1) // unit


@kernel
def _peek(A, B, ply, i):
    """Evaluate child ``i`` of frame ``ply`` without entering it: its status and numbers;
    the queries of its move go to frame ``ply``, and those of a decided child to frame
    ``ply + 1`` (empty for a static answer).  Returns the child's status."""
    cfg, hset_keys, hset_index, q_count, q_xor, st, qs, hs = A[2], A[6], A[7], A[8], A[9], A[10], A[11], A[12]
    cpn, cdn, cstatus, ckey = B[0], B[1], B[2], B[3]
    situational = cfg[C_SITUATIONAL] != 0
    black, white, side, passes, t = _child_state(A, ply, i)
    key = U0
    if A[13][ply, i] == PASS_MOVE:
        if situational:
            k = position_key(black, white, side)
            if _find(hset_keys, hset_index, k) < 0:
                key = k
    else:
        key = position_key(black, white, side if situational else 0)
        if B[6][R_QUERIES] == EVERY_MOVE:
            b = _qbit(A[26], A[27], st, key)
            qs[ply, b >> 6] |= _bit(b & 63)
        found = _find(hset_keys, hset_index, key)
        if found >= 0:
            if B[6][R_MUTANT] != REPETITIONS_UNASKED:
                b = _qbit(A[26], A[27], st, key)
                qs[ply, b >> 6] |= _bit(b & 63)
                hs[ply, found >> 6] |= _bit(found & 63)
            ckey[ply, i] = U0
            cstatus[ply, i] = REPEATS
            return REPEATS
    ckey[ply, i] = key
    answer = _static(A, black, white, side, passes, t)
    c = ply + 1
    if answer:
        for w in range(QWORDS):
            qs[c, w] = U0
        for w in range(min(HWORDS, (st[S_HLEN] >> 6) + 2)):
            hs[c, w] = U0
    else:
        if _stored(A, black, white, side, passes):
            pushed = key != U0 and _find(hset_keys, hset_index, key) < 0
            if pushed:
                _push(A[5], A[28], hset_keys, hset_index, q_count, q_xor, st, key, _qbit(A[26], A[27], st, key), A[29])
            h = st[S_HLEN]
            for w in range((h >> 6) + 1):
                hs[c, w] = U0
            answer = _decided(A, black, white, side, passes, t, c)
            if pushed:
                _pop(A[5], A[28], hset_keys, hset_index, q_count, q_xor, st, A[29])
    if answer > 0:
        cstatus[ply, i] = SUCCEEDS
        cpn[ply, i] = 0
        cdn[ply, i] = INF
        return SUCCEEDS
    if answer < 0:
        cstatus[ply, i] = FAILS
        cpn[ply, i] = INF
        cdn[ply, i] = 0
        return FAILS
    cstatus[ply, i] = OPEN
    numbers = B[5]
    fb, fw = _folded(A, B, black, white)
    s, check = _numbers_slot(fb, fw, side, passes, cfg[C_TABLE_MASK])
    if numbers[s, N_CHECK] == check and numbers[s, N_T] == t:
        cpn[ply, i] = numbers[s, N_PN]
        cdn[ply, i] = numbers[s, N_DN]
    elif B[6][R_INIT] < 0:
        cpn[ply, i], cdn[ply, i] = _initial_by_score(A, B, black, white, side, t)
    else:
        cpn[ply, i] = 1
        cdn[ply, i] = _initial_dn(A, B, black, white)
    return OPEN


@kernel
def _decide(A, B, ply, answer, best):
    """Close frame ``ply`` with ``answer`` (1 or -1; its queries in the frame), stored in
    the table as the deepening kernel stores it."""
    fi, ds = A[24], B[4]
    fi[ply, F_ANSWER] = answer
    fi[ply, F_BEST] = best
    _close(A, ply)
    ds[ply, D_PN] = 0 if answer > 0 else INF
    ds[ply, D_DN] = INF if answer > 0 else 0


@kernel
def _expand(A, B, ply):
    """Open frame ``ply``: RETURN if its answer is known (closed), else SELECT with its
    children peeked; OVERFLOW if the line is too long."""
    st, fi = A[10], A[24]
    ds = B[4]
    answer = _enter(A, ply)
    if st[S_OVERFLOW]:
        return OVERFLOW
    if answer == 1 or answer == -1:
        fi[ply, F_ANSWER] = answer
        ds[ply, D_PN] = 0 if answer > 0 else INF
        ds[ply, D_DN] = INF if answer > 0 else 0
        return RETURN
    if answer != EXPAND:
        st[S_OVERFLOW] = 1
        return OVERFLOW
    left = 0
    for i in range(fi[ply, F_COUNT]):
        status = _peek(A, B, ply, i)
        if status == FAILS:
            _take(A, B, ply, i)
            _decide(A, B, ply, 1, A[13][ply, i])
            return RETURN
        if status == SUCCEEDS:
            _merge(A, ply)
            if B[6][R_MUTANT] == ONE_REFUTATION:
                _decide(A, B, ply, -1, NO_MOVE)
                return RETURN
        elif status == OPEN:
            left += 1
    ds[ply, D_OPEN] = left
    if left == 0:
        _decide(A, B, ply, -1, NO_MOVE)
        return RETURN
    return SELECT


@kernel
def _select(A, B, ply):
    """Frame ``ply``'s numbers from its children's: RETURN (numbers stored) if they reach
    its thresholds, else ENTER on the child of least dn with its thresholds set."""
    hset_keys, hset_index, q_count, q_xor, st = A[6], A[7], A[8], A[9], A[10]
    fi, fu, perm = A[24], A[25], A[4]
    cpn, cdn, cstatus, ckey, ds = B[0], B[1], B[2], B[3], B[4]
    weak = B[6][R_RULE] == WEAK
    # No child here is decisive: a refuted move decides its node where it is found.
    pn, dn, best, dn2, left = combine(ply, fi[ply, F_COUNT], cstatus, cpn, cdn, NO_STATUS, weak, INF, INF - 1)
    ds[ply, D_PN] = pn
    ds[ply, D_DN] = dn
    if pn >= ds[ply, D_THPN] or dn >= ds[ply, D_THDN]:
        fi[ply, F_ANSWER] = 0
        if fi[ply, F_SLOT] >= 0:
            numbers = B[5]
            cfg = A[2]
            fb, fw = _folded(A, B, fu[ply, U_BLACK], fu[ply, U_WHITE])
            slot, check = _numbers_slot(fb, fw, fi[ply, F_SIDE], fi[ply, F_PASSES], cfg[C_TABLE_MASK])
            numbers[slot, N_CHECK] = check
            numbers[slot, N_T] = fi[ply, F_T]
            numbers[slot, N_PN] = pn
            numbers[slot, N_DN] = dn
        return RETURN
    c = ply + 1
    ds[c, D_THPN], ds[c, D_THDN] = child_thresholds(
        ds[ply, D_THPN], ds[ply, D_THDN], dn, dn2, left, cpn[ply, best], weak, B[6][R_EPS], INF, INF - 1
    )
    key = ckey[ply, best]
    pushed = 0
    if key != U0 and _find(hset_keys, hset_index, key) < 0:
        _push(A[5], A[28], hset_keys, hset_index, q_count, q_xor, st, key, _qbit(A[26], A[27], st, key), A[29])
        pushed = 1
    black, white, side, passes, t = _child_state(A, ply, best)
    group = fu[ply, U_GROUP]
    child_group = group
    if group and A[13][ply, best] != PASS_MOVE:
        child_group = _fixing(perm, group, black, white)
    fi[ply, F_CURRENT] = best
    fi[ply, F_PUSHED] = pushed
    # The child's frame is filled field by field as begin fills the root's, on purpose: the
    # values come from other places, and a helper would only take them all as arguments.
    fu[c, U_BLACK] = black
    fu[c, U_WHITE] = white
    fu[c, U_GROUP] = child_group
    fi[c, F_SIDE] = side
    fi[c, F_PASSES] = passes
    fi[c, F_T] = t
    fi[c, F_DEPTH] = UNBOUNDED
    return ENTER


@kernel
def _returned(A, B, ply):
    """Frame ``ply`` takes back the move to its child (frame ``ply + 1``) and takes in its
    answer or numbers: RETURN if that decides frame ``ply`` (closed), else SELECT."""
    hset_keys, hset_index, q_count, q_xor, st, fi = A[6], A[7], A[8], A[9], A[10], A[24]
    cpn, cdn, cstatus, ds = B[0], B[1], B[2], B[4]
    if fi[ply, F_PUSHED]:
        _pop(A[5], A[28], hset_keys, hset_index, q_count, q_xor, st, A[29])
        fi[ply, F_PUSHED] = 0
    i = fi[ply, F_CURRENT]
    c = ply + 1
    answer = fi[c, F_ANSWER]
    if answer < 0:
        cstatus[ply, i] = FAILS
        _take(A, B, ply, i)
        _decide(A, B, ply, 1, A[13][ply, i])
        return RETURN
    if answer > 0:
        cstatus[ply, i] = SUCCEEDS
        cpn[ply, i] = 0
        cdn[ply, i] = INF
        _merge(A, ply)
        ds[ply, D_OPEN] -= 1
        if ds[ply, D_OPEN] == 0 or B[6][R_MUTANT] == ONE_REFUTATION:
            _decide(A, B, ply, -1, NO_MOVE)
            return RETURN
        return SELECT
    cpn[ply, i] = ds[c, D_PN]
    cdn[ply, i] = ds[c, D_DN]
    return SELECT


@kernel
def _run(A, B):
    """Run the search from where it stopped until the root is decided (1 or -1), the node
    limit is reached (``SUSPENDED``) or a line is too long (``OVERFLOW``); 0 if the root's
    numbers reach its thresholds undecided (they are infinite: this does not happen)."""
    # The driver loop of kernels.solve._search, repeated on purpose: a kernel calls its steps
    # directly, not through function values, so each search has its own loop.
    st, fi, run = A[10], A[24], B[6]
    ply = run[R_PLY]
    step = run[R_STEP]
    while True:
        if step == ENTER:
            if st[S_NODES] >= st[S_LIMIT]:
                run[R_PLY] = ply
                run[R_STEP] = ENTER
                return SUSPENDED
            step = _expand(A, B, ply)
            if step == OVERFLOW:
                return OVERFLOW
        elif step == SELECT:
            step = _select(A, B, ply)
            if step == ENTER:
                ply += 1
        else:
            if ply == 0:
                run[R_STEP] = RETURN
                return fi[0, F_ANSWER]
            ply -= 1
            step = _returned(A, B, ply)


@kernel
def begin(A, B, history_black, history_white, history_side, black, white, side, passes, t, group):
    """Set up the test "can the player to move in (black, white, side, passes) force at
    least ``t``?" with the history given as boards (each with the player to move),
    dropping whatever test was under way; :func:`resume` runs it."""
    # Repeated in kernels.solve.begin on purpose: each search fills the root frame its own way.
    st, fi, fu, ds, run = A[10], A[24], A[25], B[4], B[6]
    _load_history(A, history_black, history_white, history_side)
    st[S_OVERFLOW] = 0
    fu[0, U_BLACK] = black
    fu[0, U_WHITE] = white
    fu[0, U_GROUP] = group
    fi[0, F_SIDE] = side
    fi[0, F_PASSES] = passes
    fi[0, F_T] = t
    fi[0, F_DEPTH] = UNBOUNDED
    fi[0, F_PUSHED] = 0
    ds[0, D_THPN] = INF
    ds[0, D_THDN] = INF
    ds[0, D_PN] = 1
    ds[0, D_DN] = 1
    run[R_PLY] = 0
    run[R_STEP] = ENTER


@kernel
def resume(A, B, limit):
    """Run the test set up by :func:`begin` for at most ``limit`` more nodes (counted in
    ``st[S_NODES]``): its answer (1, -1), ``SUSPENDED`` or ``OVERFLOW``."""
    st = A[10]
    st[S_LIMIT] = st[S_NODES] + limit
    return _run(A, B)


def arrays(
    table_bits: int,
    epsilon_shift: int = 2,
    rule: int = WEAK,
    mutant: int = 0,
    queries: int = REPETITIONS,
    initial: int = 0,
    fold: int = 0,
) -> tuple:
    """This module's state: per frame and child the numbers, status and key of the move;
    per frame its thresholds and numbers; the table of numbers (``1 << table_bits`` slots,
    the deepening kernel's slots, a row of one cache line per slot: the state's check word,
    the threshold, pn, dn); the run (where it stopped, ε = 2^-``epsilon_shift`` of the 1 + ε
    trick (63 for none), the rule of ``dn`` (``WEAK`` or ``SUM``), a mutant for the tests, 0
    for none, which move positions a node's queries hold, ``EVERY_MOVE`` or ``REPETITIONS``,
    and ``initial``: a new node's numbers are (1, 1) (0), its dn its empty points divided by
    ``initial`` (positive), or its numbers from its area score, ``-initial`` points a unit
    (negative: :func:`_initial_by_score`))."""
    size = 1 << table_bits
    run = np.zeros(R_SIZE, np.int64)
    run[R_EPS] = epsilon_shift
    run[R_RULE] = rule
    run[R_MUTANT] = mutant
    run[R_QUERIES] = queries
    run[R_INIT] = initial
    run[R_FOLD] = fold
    return (
        np.zeros((MAX_PLY + 1, WIDTH), np.int64),
        np.zeros((MAX_PLY + 1, WIDTH), np.int64),
        np.zeros((MAX_PLY + 1, WIDTH), np.int64),
        np.zeros((MAX_PLY + 1, WIDTH), np.uint64),
        np.zeros((MAX_PLY + 1, DS_SIZE), np.int64),
        np.zeros((size, 4), np.int64),
        run,
    )


def table_bytes(table_bits: int) -> int:
    """The bytes of this module's table of numbers (:func:`arrays`) with ``1 << table_bits``
    slots, one row of four words each."""
    return (1 << table_bits) * 4 * 8


def root_numbers(B) -> tuple[int, int]:
    """The root's proof and disproof numbers as the search last computed them (1 and 1
    before its first selection): where a search cut off by its budget stood."""
    return int(B[4][0, D_PN]), int(B[4][0, D_DN])


def empty_numbers(B) -> None:
    """Empty the state's table of numbers in place, so that a search under way, which holds
    the table, goes on with it empty (:func:`forget` gives a new table instead)."""
    B[5][:] = 0


def forget(B) -> tuple:
    """The state with its table of numbers emptied."""
    return (*B[:5], np.zeros_like(B[5]), B[6])
