"""The yes/no searches of Ultimate and Fundamental Go (``ultimate_search``) compiled with numba.

The kernel answers ``Engine.prove(goal, p)``: can the player to move win (goal 0), or at
least draw (goal 1)?  It plays the same game as ``Engine`` on boards numbered once and for
all (every board of the graph, as a number below 3^n), with the moves of each board
worked out beforehand in Python (``CompiledQuestions``):

- the placements of a board and player, those that take the most stones first (the order
  of ``Engine.ordered_children``), after the ultimate delay and the delay;
- the bowls kept as their difference (section IV: one more prisoner in each bowl changes
  nothing, the argument the Python table already stores its answers by); a player has a
  delay when her bowl exceeds the opponent's;
- ``Engine.race``'s delay races, from ``solo`` worked out per board in Python;
- every position searched as its image under the automorphism that takes its board to the
  least of its images, its history moved alike (the image is the same game), and the
  boards its proof asked about moved back for the caller;
- then its history moved to its least image (as a number) under the automorphisms that fix
  its board (up to ``ultimate_compiled.FIXING`` of them), the same game again: histories
  that differ by such a symmetry meet in the table.

**The table is sound under positional superko** as in ``Engine``: a proof records the
boards whose presence in the history it asked about (Q) and the subset found there (D); it
is reused at a history H only if H ∩ Q = D.  A loss records, besides its children's
queries, the placements the history barred.  Histories, Q and D are bitsets over the board
numbers (``words`` 64-bit words).  Each table key (board, player, ultimate prisoners held,
first ultimate delayer, draw right, goal) keeps up to ``KEEP`` proofs in a ring: the oldest
is overwritten when it is full.  Each key also remembers the move that last reached the goal
there; with hints on (``S_HINTS``) it is tried first (``ultimate_compiled`` races that order
against the fixed one, as ``Engine.decide`` does).

The search runs over an explicit stack of plies (numpy arrays) and stops after a number of
nodes; ``resume`` continues exactly where it stopped, so the caller checks its budget and
shows its progress between slices.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from gorules.impl.kernels.cache import njit

KEEP = 4096
"""How many proofs a table key keeps.  Fewer cost more nodes than they save time: proofs
overwritten under one history are searched again under the next, and with the folded
lookups (``FOLD``) 4,096 took the fewest nodes of the sizes compared on the 6-point graphs
(docs/ultimate.md, "Solving: two yes/no searches", the compiled core)."""
MAX_PLY = 8192
"""The longest line the stack holds; a longer one ends the search as overflowed."""
CHUNKS = 128
"""How many table keys can hold proofs at first; the caller doubles it when a key found none
free (``S_FULL``), up to ``MAX_CHUNKS`` (a key past them stores nothing: sound, slower).
Memory is taken as needed: a key's proofs are ``KEEP`` × (2 × words + 2 + ``FOLD``) words;
at most ``MAX_CHUNKS`` × ``KEEP`` proofs in all (8.4 million)."""
MAX_CHUNKS = 2048
FOLD = 4
"""The words a proof's D is folded into (its words w ≡ i mod ``FOLD`` or-ed into word i):
a lookup skips a proof whose folded D is not within the history's fold without reading its
Q and D.  With one word, a history of 100–170 boards (atlas:208) sets most of its bits."""

kernel = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # a flag the stubs do not list
"""The kernel's functions are compiled without numba's reference counting (``_nrt=False``):
they allocate nothing, and ``CompiledQuestions`` holds every array while the search runs."""

# st: the kernel's counters and its state between slices; then counters for measurement
# (lookups at a key holding no proof, reusing a proof, refusing every proof of the key; the
# proofs read while refusing; stores overwriting the ring's oldest; the deepest ply)
S_NODES, S_LIMIT, S_PLY, S_ACTION, S_RESULT, S_CHUNKS, S_HINTS, S_FULL = range(8)
S_EMPTY, S_REUSED, S_REFUSED, S_READ, S_OVERWRITTEN, S_DEEPEST = range(8, 14)
ST_SIZE = 14
ENTER, EXPAND, DESCEND, RETURN = range(4)
# flags: the parts of the search a mutant may switch off (each on in the real search)
# (F_EVERY_CHILD: the proof-number search's, ``kernels.ultimate_dfpn``)
F_HISTORY_TEST, F_BARRED, F_MOVE_HISTORY, F_AFTER_HINT, F_STABILISER, F_EVERY_CHILD = range(6)
FLAGS_SIZE = 6
RUNNING, FINISHED, OVERFLOWED = 0, 1, 2


@kernel
def _has(words, number):
    """Whether board ``number`` is in the bitset ``words``."""
    return (words[number >> 6] >> np.uint64(number & 63)) & np.uint64(1) != np.uint64(0)


@kernel
def _add(words, number):
    """Put board ``number`` into the bitset ``words``."""
    words[number >> 6] |= np.uint64(1) << np.uint64(number & 63)


@kernel
def _drop(words, number):
    """Take board ``number`` out of the bitset ``words``."""
    words[number >> 6] &= ~(np.uint64(1) << np.uint64(number & 63))


@kernel
def _copy(target, source):
    """``target`` := ``source`` word by word (a slice assignment may allocate a temporary,
    which the kernel, compiled without reference counting, cannot)."""
    for w in range(source.shape[0]):
        target[w] = source[w]


@kernel
def _moved(source, target, mapping):
    """``target`` := the bitset ``source`` with every board number b moved to mapping[b]."""
    target[:] = 0
    for w in range(source.shape[0]):
        word = source[w]
        while word:
            i = np.int64(trailing_zeros(word))
            _add(target, mapping[w * 64 + i])
            word &= word - np.uint64(1)


@kernel
def _image_below(history, a, b, perm, inverse):
    """Whether the image of ``history`` under automorphism a is less (as a number) than its
    image under b (−1: the identity), read from the highest board down without moving it:
    board t is in the image under a if a's inverse takes t into the history."""
    back_a = perm[inverse[a]]
    for t in range(perm.shape[1] - 1, -1, -1):
        x = _has(history, back_a[t])
        y = _has(history, t if b < 0 else perm[inverse[b], t])
        if x != y:
            return y
    return False


@kernel
def _least_image(history, fixing, perm, inverse, scratch):
    """Move ``history`` to its least image under the automorphisms ``fixing`` (indices into
    ``perm``, each fixing the position's board; the identity left implicit): returns the one
    used, or −1 if none gives a smaller image (``history`` unchanged)."""
    best = -1
    for i in range(fixing.shape[0]):
        tau = fixing[i]
        if tau < 0:
            break
        if _image_below(history, tau, best, perm, inverse):
            best = tau
    if best >= 0:
        _moved(history, scratch[1], perm[best])
        _copy(history, scratch[1])
    return best


@kernel
def _legal(k, b, p, d, ult, history, placements, children):
    """Whether move k of the fixed order is open to player p at board b: 0 the ultimate
    delay (she still holds her ultimate prisoner), 1 the delay (her bowl exceeds the
    opponent's), 2 + j her j-th placement (its board not in the history)."""
    if k == 0:
        return ult >> p & 1 == 1
    if k == 1:
        return d > 0
    return 0 <= k - 2 < placements[b, p] and not _has(history, children[b, p, k - 2])


@kernel
def _key(board, player, ult, first, draw, goal):
    """The table key of a position and goal (the bowls and the history left out)."""
    return ((((board * 2 + player) * 4 + ult) * 3 + first + 1) * 3 + draw + 1) * 2 + goal


@kernel
def _fold(words, i):
    """Word i of a bitset's fold: its words w ≡ i (mod ``FOLD``) or-ed together.  A set's
    fold lies within a superset's fold."""
    folded = np.uint64(0)
    for w in range(i, words.shape[0], FOLD):
        folded |= words[w]
    return folded


@kernel
def _lookup(tables, st, key, d, history, out, test_history):
    """A stored proof at ``key`` that holds at prisoner difference d and this history:
    1 a win, 0 a loss (its Q copied into ``out``), or −1 if none applies (``test_history``
    false: the history condition ignored, a mutant)."""
    chunk_of, counts, _, answers, ats, queries, founds, _, folds = tables
    chunk = chunk_of[key]
    if chunk < 0:
        st[S_EMPTY] += 1
        return -1
    words = history.shape[0]
    f0, f1, f2, f3 = _fold(history, 0), _fold(history, 1), _fold(history, 2), _fold(history, 3)
    for e in range(counts[chunk]):
        fold = folds[chunk, e]
        if test_history and (fold[0] & ~f0 | fold[1] & ~f1 | fold[2] & ~f2 | fold[3] & ~f3):
            continue  # some board of D is not in the history (seen in the folds)
        answer = answers[chunk, e]
        at = ats[chunk, e]
        if answer == 1:
            if d < at:
                continue
        elif d > at:
            continue
        good = True
        for w in range(words if test_history else 0):
            if history[w] & queries[chunk, e, w] != founds[chunk, e, w]:
                good = False
                break
        if good:
            _copy(out, queries[chunk, e])
            st[S_REUSED] += 1
            return answer
        st[S_READ] += 1
    st[S_REFUSED] += 1
    return -1


@kernel
def _store(tables, st, key, d, history, query, answer):
    """Keep a proof at ``key``: its answer, the prisoner difference it was proved at, and
    its history condition (Q = ``query``, D = history ∩ Q)."""
    chunk_of, counts, ring, answers, ats, queries, founds, _, folds = tables
    chunk = chunk_of[key]
    if chunk < 0:
        if st[S_CHUNKS] >= counts.shape[0]:
            st[S_FULL] = 1  # the caller may give the table more keys
            return
        chunk = st[S_CHUNKS]
        st[S_CHUNKS] += 1
        chunk_of[key] = chunk
    if counts[chunk] < answers.shape[1]:
        e = counts[chunk]
        counts[chunk] += 1
    else:
        e = ring[chunk]
        ring[chunk] = (e + 1) % answers.shape[1]
        st[S_OVERWRITTEN] += 1
    answers[chunk, e] = answer
    ats[chunk, e] = d
    for w in range(history.shape[0]):
        queries[chunk, e, w] = query[w]
        founds[chunk, e, w] = history[w] & query[w]
    for i in range(FOLD):
        folds[chunk, e, i] = _fold(founds[chunk, e], i)


@kernel
def _enter(ply, game, stack, scratch):
    """Enter the position at ``ply`` (shared by the depth-first kernel and df-pn's): move its
    board to its class's representative and its history alike (then, with the stabiliser
    fold, to its least image under the automorphisms fixing the board), drop the draw goal
    where no draw can happen any more, and return the answer a rule settles without search
    (1 reached, 0 not), or -1.  A declared draw reaches the draw goal; with no ultimate
    prisoner left and no draw right, the delay race (``solo``) settles a difference of bowls
    that the other player cannot make up."""
    _, _, _, solo, canon, frame, perm, inverse, flags, stabiliser = game
    board, player, diff, ult, _, draw, goal, sigma = stack[:8]
    hist, tau = stack[-4], stack[-1]
    s = frame[board[ply]]
    sigma[ply] = s
    if s >= 0:
        board[ply] = canon[board[ply]]
    if s >= 0 and flags[F_MOVE_HISTORY]:
        _moved(hist[ply], scratch[0], perm[s])
        _copy(hist[ply], scratch[0])
    tau[ply] = -1
    if flags[F_STABILISER] and flags[F_MOVE_HISTORY]:
        tau[ply] = _least_image(hist[ply], stabiliser[board[ply]], perm, inverse, scratch)
    b, p, d = board[ply], player[ply], diff[ply]
    if goal[ply] == 1:
        if draw[ply] == p:
            return 1  # she may declare a draw
        if ult[ply] == 0 and draw[ply] < 0:
            goal[ply] = 0  # no draw can happen any more
    if ult[ply] == 0 and draw[ply] < 0:
        if -d >= solo[b, p]:
            return 0
        if d > solo[b, 1 - p]:
            return 1
    return -1


@kernel
def _leave(ply, game, stack, scratch):
    """Leave the decided position at ``ply`` (shared by the depth-first kernel and df-pn's): move
    its query bits back from its least image and its class's representative to the caller's
    frame (the inverse of ``_enter``'s moves), and drop the board its own move made, which is
    the line's, not the history's."""
    perm, inverse, flags = game[6], game[7], game[8]
    sigma, made = stack[7], stack[8]
    used, tau = stack[-3], stack[-1]
    if tau[ply] >= 0:
        _moved(used[ply], scratch[0], perm[inverse[tau[ply]]])
        _copy(used[ply], scratch[0])
    if sigma[ply] >= 0 and flags[F_MOVE_HISTORY]:
        _moved(used[ply], scratch[0], perm[inverse[sigma[ply]]])
        _copy(used[ply], scratch[0])
    if made[ply] >= 0:
        _drop(used[ply], made[ply])


@kernel
def _search(game, tables, stack, st):
    """Run the search from the state in ``stack``/``st`` until it finishes, overflows or
    spends ``st[S_LIMIT]`` nodes; returns FINISHED (answer in st[S_RESULT]), OVERFLOWED or
    RUNNING (resume later)."""
    placements, children, taken, _, _, _, _, _, flags, _ = game
    board, player, diff, ult, first, draw, goal, _, made, nxt, hint_at, move_of, hist, used, scratch, _ = stack
    hints = tables[7]
    ply = st[S_PLY]
    action = st[S_ACTION]
    result = st[S_RESULT]
    while True:
        if action == ENTER:
            settled = _enter(ply, game, stack, scratch)
            b, p, d = board[ply], player[ply], diff[ply]
            if settled >= 0:
                used[ply, :] = 0
                result = settled
                action = RETURN
                continue
            found = _lookup(
                tables,
                st,
                _key(b, p, ult[ply], first[ply], draw[ply], goal[ply]),
                d,
                hist[ply],
                used[ply],
                flags[F_HISTORY_TEST],
            )
            if found >= 0:
                result = found
                action = RETURN
                continue
            action = EXPAND
        elif action == EXPAND:
            if st[S_NODES] >= st[S_LIMIT]:
                st[S_PLY], st[S_ACTION], st[S_RESULT] = ply, action, result
                return RUNNING
            st[S_NODES] += 1
            b, p = board[ply], player[ply]
            used[ply, :] = 0
            for j in range(placements[b, p]):
                c = children[b, p, j]
                if flags[F_BARRED] and _has(hist[ply], c):
                    _add(used[ply], c)  # a barred placement must stay barred for a loss
            h = -1
            if st[S_HINTS]:
                h = hints[_key(b, p, ult[ply], first[ply], draw[ply], goal[ply])]
            hint_at[ply] = h
            nxt[ply] = -1 if h >= 0 else 0
            action = DESCEND
        elif action == DESCEND:
            b, p, d = board[ply], player[ply], diff[ply]
            k = nxt[ply]
            h = hint_at[ply]
            child = ply + 1
            move = -1
            if k < 0:  # the hint first
                k = 0
                if _legal(h, b, p, d, ult[ply], hist[ply], placements, children):
                    move = h
                if not flags[F_AFTER_HINT]:
                    k = 2 + placements[b, p]  # a mutant: the hinted move alone
            while move < 0 and k < 2 + placements[b, p]:
                if k != h and _legal(k, b, p, d, ult[ply], hist[ply], placements, children):
                    move = k
                k += 1
            nxt[ply] = k
            if move < 0:
                result = 0
                _store(tables, st, _key(b, p, ult[ply], first[ply], draw[ply], goal[ply]), d, hist[ply], used[ply], 0)
                action = RETURN
                continue
            if child >= board.shape[0]:
                return OVERFLOWED
            player[child] = 1 - p
            goal[child] = 1 - goal[ply]
            _copy(hist[child], hist[ply])
            board[child] = b
            ult[child], first[child], draw[child] = ult[ply], first[ply], draw[ply]
            made[child] = -1
            move_of[child] = move
            if move == 0:  # the ultimate delay
                diff[child] = -d
                ult[child] = ult[ply] & ~(1 << p)
                if first[ply] < 0:
                    first[child] = p
                else:
                    draw[child] = 1 - p
            elif move == 1:  # a delay: one prisoner out of her bowl
                diff[child] = -(d - 1)
            else:
                c = children[b, p, move - 2]
                board[child] = c
                diff[child] = -(d + taken[b, p, move - 2])
                made[child] = c
                _add(hist[child], c)
            ply = child
            if ply > st[S_DEEPEST]:
                st[S_DEEPEST] = ply
            action = ENTER
        else:  # RETURN: ply's answer is result, its query bits are used[ply] (in its frame)
            _leave(ply, game, stack, scratch)
            if ply == 0:
                st[S_RESULT] = result
                st[S_PLY], st[S_ACTION] = 0, RETURN
                return FINISHED
            parent = ply - 1
            if result == 0:  # the child cannot reach its goal: the parent reaches hers
                _copy(used[parent], used[ply])
                if made[ply] >= 0:
                    _add(used[parent], made[ply])
                b, p = board[parent], player[parent]
                key = _key(b, p, ult[parent], first[parent], draw[parent], goal[parent])
                _store(tables, st, key, diff[parent], hist[parent], used[parent], 1)
                hints[key] = move_of[ply]  # the move that reached the goal here
                result = 1
                ply = parent
                continue
            for w in range(used.shape[1]):
                used[parent, w] |= used[ply, w]
            ply = parent
            action = DESCEND


@kernel
def begin(stack, st, b, p, d, ult, first, draw, goal, history):
    """Put the root position on the stack (its history a bitset over board numbers)."""
    board, player, diff, ults, firsts, draws, goals = stack[:7]
    board[0], player[0], diff[0] = b, p, d
    ults[0], firsts[0], draws[0], goals[0] = ult, first, draw, goal
    stack[8][0] = -1  # the root made no board
    _copy(stack[12][0], history)
    st[S_PLY], st[S_ACTION], st[S_RESULT] = 0, ENTER, -1


@kernel
def resume(game, tables, stack, st, limit):
    """Search on until ``limit`` nodes in all (see ``_search``)."""
    st[S_LIMIT] = limit
    return _search(game, tables, stack, st)
