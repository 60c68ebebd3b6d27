"""The compiled step kernel: a game in progress in numpy arrays, stepped in numba.

A game in progress, kept in numpy arrays and stepped by the functions below, for
``impl.compiled.CompiledGame``.  Undirected graphs only.  Each chain keeps, at the row of
its representative point: its size, its pseudo-liberties (pairs (stone, empty
neighbour)), the sum and the sum of squares of those liberties' points, and the xor of
the Zobrist keys of its stones.  A chain has no liberty when its count is 0, and its only
liberty is v exactly when sum = count·v and sum of squares = count·v² (all the
pseudo-liberties are v).  So the legality of a point costs one look at each neighbour.

``pts`` rows: board colour (0 Empty, 1 Black, 2 White), chain representative, next stone
of the chain (a cycle), then per representative: size, liberties, sum, sum of squares,
Zobrist xor.  ``hist`` rows per position of the history: hash, side to move (1 Black, 2
White), passes, Black's stones, White's stones; ``boards`` the boards; ``table`` an
open-addressing hash table of history indices.  ``scal``: [positions stored, ko code,
suicide allowed], then from COUNTS on the number of stored positions with each pair of
stone counts (pairs sharing a slot add up: a filter may only say "perhaps"), which spares
most points the hash probe.

The whole-playout kernel, which plays entire random games without chains, is
``impl/_numba_playout.py``.
"""

from __future__ import annotations

from numba import carray, njit, types
from numba.core.extending import intrinsic

BOARD, HEAD, NEXT, SIZE, LIBS, LSUM, LSQ, ZXOR = range(8)
COUNTS = 8  # scal[COUNTS + (b·(n+1) + w) mod slots]: stored positions with b Black, w White stones


@njit(cache=True, inline="always")
def _add_liberty(pts, c, e, sign):
    """Add (sign 1) or remove (sign -1) one pseudo-liberty at point e of chain c."""
    pts[LIBS, c] += sign
    pts[LSUM, c] += sign * e
    pts[LSQ, c] += sign * e * e


@njit(cache=True, inline="always")
def _only_liberty_is(pts, c, v):
    """Whether chain c has exactly one liberty, the point v."""
    count = pts[LIBS, c]
    return count > 0 and pts[LSUM, c] == count * v and pts[LSQ, c] == count * v * v


@njit(cache=True)
def _remove_chain(pts, c, ptr, idx):
    """Make the stones of chain c empty, giving their points back as liberties to the
    chains next to them; return the chain's Zobrist xor."""
    z = pts[ZXOR, c]
    s = c
    while True:
        pts[BOARD, s] = 0
        s = pts[NEXT, s]
        if s == c:
            break
    while True:
        for k in range(ptr[s], ptr[s + 1]):
            u = idx[k]
            if pts[BOARD, u] != 0:
                _add_liberty(pts, pts[HEAD, u], s, 1)
        t = pts[NEXT, s]
        pts[NEXT, s] = s
        pts[HEAD, s] = s
        s = t
        if s == c:
            break
    return z


@njit(cache=True)
def _merge(pts, a, b):
    """Join chain b into chain a (both representatives); return a."""
    s = b
    while True:
        pts[HEAD, s] = a
        s = pts[NEXT, s]
        if s == b:
            break
    na = pts[NEXT, a]
    pts[NEXT, a] = pts[NEXT, b]
    pts[NEXT, b] = na
    for row in (SIZE, LIBS, LSUM, LSQ):
        pts[row, a] += pts[row, b]
    pts[ZXOR, a] ^= pts[ZXOR, b]
    return a


@njit(cache=True, inline="always")
def _alone(pts, v, colour):
    """Colour point v and make it a chain of its own, with no liberty counted yet."""
    pts[BOARD, v] = colour
    pts[HEAD, v] = v
    pts[NEXT, v] = v
    pts[SIZE, v] = 1
    pts[LIBS, v] = 0
    pts[LSUM, v] = 0
    pts[LSQ, v] = 0


@njit(cache=True)
def _put(pts, v, me, ptr, idx, zob):
    """Play ``me`` at empty v (the move of the source: captures, then suicide); return the
    xor of the Zobrist keys that changed."""
    opp = 3 - me
    _alone(pts, v, me)
    pts[ZXOR, v] = zob[v, me]
    change = zob[v, me]
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        c = pts[BOARD, w]
        if c == 0:
            _add_liberty(pts, v, w, 1)
        else:
            _add_liberty(pts, pts[HEAD, w], v, -1)
    mine = v
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] == me:
            other = pts[HEAD, w]
            if other != mine:
                if pts[SIZE, other] > pts[SIZE, mine]:
                    mine = _merge(pts, other, mine)
                else:
                    mine = _merge(pts, mine, other)
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] == opp and pts[LIBS, pts[HEAD, w]] == 0:
            change ^= _remove_chain(pts, pts[HEAD, w], ptr, idx)
    if pts[LIBS, mine] == 0:
        change ^= _remove_chain(pts, mine, ptr, idx)
    return change


@njit(cache=True, inline="always")
def _first_next_to(pts, ptr, idx, v, k, colour, h):
    """Whether idx[k] is the first neighbour of v, in order, that is a stone of ``colour`` in chain h."""
    for j in range(ptr[v], k):
        if pts[BOARD, idx[j]] == colour and pts[HEAD, idx[j]] == h:
            return False
    return True


@njit(cache=True, inline="always")
def _empty_chain(scratch, pts, h):
    """Make the stones of chain h empty in ``scratch`` (a copy of the board)."""
    s = h
    while True:
        scratch[s] = 0
        s = pts[NEXT, s]
        if s == h:
            break


@njit(cache=True, inline="always")
def _outcome(pts, v, me, ptr, idx, zob):
    """Without changing anything: (hash change of me playing at empty v, its kind: 0 a
    stone placed and nothing removed, 1 captures, 2 a suicide that removes stones of me,
    3 a suicide of the lone stone at v, which leaves the board as it is)."""
    opp = 3 - me
    change = zob[v, me]
    free = False
    captures = False
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        c = pts[BOARD, w]
        if c == 0:
            free = True
        elif c == opp:
            h = pts[HEAD, w]
            if _only_liberty_is(pts, h, v) and _first_next_to(pts, ptr, idx, v, k, opp, h):
                change ^= pts[ZXOR, h]
                captures = True
    if captures:
        return change, 1
    if free:
        return change, 0
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] == me and not _only_liberty_is(pts, pts[HEAD, w], v):
            return change, 0
    # Suicide: v and every chain of me next to it are removed.
    change = 0
    kind = 3
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] == me:
            h = pts[HEAD, w]
            if _first_next_to(pts, ptr, idx, v, k, me, h):
                change ^= pts[ZXOR, h]
            kind = 2
    return change, kind


@njit(cache=True)
def _board_after_equals(pts, v, me, ptr, idx, boards, j, scratch, n):
    """Whether the board after me plays v equals stored board j (exact, on a hash hit)."""
    for u in range(n):
        scratch[u] = pts[BOARD, u]
    opp = 3 - me
    scratch[v] = me
    suicide = True
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if scratch[w] == 0:
            suicide = False
        elif scratch[w] == opp and _only_liberty_is(pts, pts[HEAD, w], v):
            suicide = False
            _empty_chain(scratch, pts, pts[HEAD, w])
    if suicide:
        for k in range(ptr[v], ptr[v + 1]):
            w = idx[k]
            if pts[BOARD, w] == me and not _only_liberty_is(pts, pts[HEAD, w], v):
                suicide = False
    if suicide:
        scratch[v] = 0
        for k in range(ptr[v], ptr[v + 1]):
            w = idx[k]
            if pts[BOARD, w] == me:
                scratch[w] = 0
                _empty_chain(scratch, pts, pts[HEAD, w])
    for u in range(n):
        if boards[j, u] != scratch[u]:
            return False
    return True


@njit(cache=True)
def _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n):
    """0 if the player to move may play point v, else the reason: 1 occupied, 2 suicide
    forbidden, 3 positional superko, 4 situational superko, 5 simple ko."""
    if pts[BOARD, v] != 0:
        return 1
    t = scal[0] - 1
    me = hist[t, 1]
    change, kind = _outcome(pts, v, me, ptr, idx, zob)
    after = hist[t, 0] ^ change
    if kind >= 2 and scal[2] == 0:
        return 2
    ko = scal[1]
    if ko == 0 or ko == 1:
        mask = table.shape[0] - 1
        slot = after & mask
        while table[slot] >= 0:
            j = table[slot]
            if hist[j, 0] == after and (ko == 0 or hist[j, 1] == 3 - me):
                if _board_after_equals(pts, v, me, ptr, idx, boards, j, scratch, n):
                    return 3 + ko
            slot = (slot + 1) & mask
    elif ko == 2 and t >= 1:
        if hist[t - 1, 0] == after and _board_after_equals(pts, v, me, ptr, idx, boards, t - 1, scratch, n):
            return 5
    return 0


@njit(cache=True)
def _record(pts, hist, boards, table, scal, h, side, passes, n):
    """Append the current board, with its hash, side to move and passes, to the history."""
    t = scal[0]
    hist[t, 0] = h
    hist[t, 1] = side
    hist[t, 2] = passes
    black = 0
    white = 0
    for u in range(n):
        c = pts[BOARD, u]
        boards[t, u] = c
        black += c == 1
        white += c == 2
    hist[t, 3] = black
    hist[t, 4] = white
    scal[COUNTS + (black * (n + 1) + white) % (scal.shape[0] - COUNTS)] += 1
    mask = table.shape[0] - 1
    slot = h & mask
    while table[slot] >= 0:
        slot = (slot + 1) & mask
    table[slot] = t
    scal[0] = t + 1


@njit(cache=True)
def game_pass(pts, hist, boards, table, scal, n):
    """Pass for the player to move; return 0, or 6 when the game is over."""
    t = scal[0] - 1
    if hist[t, 2] >= 2:
        return 6
    _record(pts, hist, boards, table, scal, hist[t, 0], 3 - hist[t, 1], hist[t, 2] + 1, n)
    return 0


@njit(cache=True, inline="always")
def _quick_reason(pts, hist, table, scal, v, ptr, idx, zob, n, placements_new):
    """Like ``_why_illegal`` for an empty point v, but -1 where a hash matches an earlier
    position (a repetition, or a collision) and only an exact comparison can decide;
    ``placements_new`` says that no stored position has the stone counts of a board with
    one more stone of the player to move.
    It calls no other compiled function, so that the loop over all points stays tight."""
    t = scal[0] - 1
    me = hist[t, 1]
    change, kind = _outcome(pts, v, me, ptr, idx, zob)
    if kind >= 2 and scal[2] == 0:
        return 2
    after = hist[t, 0] ^ change
    ko = scal[1]
    if kind == 3 and ko == 0:
        return 3  # the board stays the current one, which is stored
    if ko == 0 or ko == 1:
        if kind == 0 and placements_new:
            # A stone added and none removed: only a board with one more stone of me can be
            # the same, and no position stored has those counts.
            return 0
        mask = table.shape[0] - 1
        slot = after & mask
        while table[slot] >= 0:
            j = table[slot]
            if hist[j, 0] == after and (ko == 0 or hist[j, 1] == 3 - me):
                return -1
            slot = (slot + 1) & mask
    elif ko == 2 and t >= 1:
        if hist[t - 1, 0] == after:
            return -1
    return 0


@njit(cache=True, inline="always")
def _placement_reason(hist, table, scal, after, me, t, placements_new):
    """``_quick_reason`` for a move that adds a stone and removes none (hash ``after``)."""
    ko = scal[1]
    if ko == 0 or ko == 1:
        if placements_new:
            # Only a board with one more stone of me can be the same, and no position
            # stored has those counts.
            return 0
        mask = table.shape[0] - 1
        slot = after & mask
        while table[slot] >= 0:
            j = table[slot]
            if hist[j, 0] == after and (ko == 0 or hist[j, 1] == 3 - me):
                return -1
            slot = (slot + 1) & mask
    elif ko == 2 and t >= 1:
        if hist[t - 1, 0] == after:
            return -1
    return 0


@njit(cache=True)
def game_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out):
    """Write the legal points of the player to move to ``out``, in increasing order;
    return how many.  A point where a stone is added and none removed is decided in the
    loop; a point that captures or is a suicide goes through ``_quick_reason``; points
    whose hash matches an earlier position wait at the end of ``out`` for the exact check."""
    t = scal[0] - 1
    if hist[t, 2] >= 2:
        return 0
    me = hist[t, 1]
    opp = 3 - me
    h = hist[t, 0]
    black = hist[t, 3] + (me == 1)
    white = hist[t, 4] + (me == 2)
    placements_new = scal[COUNTS + (black * (n + 1) + white) % (scal.shape[0] - COUNTS)] == 0
    board = pts[BOARD]
    head = pts[HEAD]
    libs = pts[LIBS]
    lsum = pts[LSUM]
    lsq = pts[LSQ]
    ko = scal[1]
    # Whether a stone added with none removed is legal without a look at the history.
    placements_legal = ko == 3 or ko == 2 or ((ko == 0 or ko == 1) and placements_new)
    count = 0
    waiting = 0
    for v in range(n):
        if board[v] != 0:
            continue
        free = False
        captures = False
        for k in range(ptr[v], ptr[v + 1]):
            w = idx[k]
            c = board[w]
            if c == 0:
                free = True
            else:
                g = head[w]
                m = libs[g]
                only_v = lsum[g] == m * v and lsq[g] == m * v * v
                if c == opp:
                    captures = captures or only_v
                else:
                    free = free or not only_v
        if captures or not free:
            code = _quick_reason(pts, hist, table, scal, v, ptr, idx, zob, n, placements_new)
        elif placements_legal:
            code = 0
        else:
            code = _placement_reason(hist, table, scal, h ^ zob[v, me], me, t, placements_new)
        if code == 0:
            out[count] = v
            count += 1
        elif code < 0:
            waiting += 1
            out[n - waiting] = v
    for i in range(waiting):
        v = out[n - waiting + i]
        if _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n) == 0:
            k = count
            while k > 0 and out[k - 1] > v:
                out[k] = out[k - 1]
                k -= 1
            out[k] = v
            count += 1
    return count


@njit(cache=True)
def game_load(pts, boards, t, ptr, idx, n):
    """Make stored board t current and rebuild its chains and liberties."""
    for u in range(n):
        _alone(pts, u, boards[t, u])
    for u in range(n):
        c = pts[BOARD, u]
        if c == 0:
            continue
        for k in range(ptr[u], ptr[u + 1]):
            w = idx[k]
            if pts[BOARD, w] == 0:
                _add_liberty(pts, pts[HEAD, u], w, 1)  # to u's chain as joined so far
            elif pts[BOARD, w] == c:
                a = pts[HEAD, u]
                b = pts[HEAD, w]
                if a != b:
                    if pts[SIZE, a] >= pts[SIZE, b]:
                        _merge(pts, a, b)
                    else:
                        _merge(pts, b, a)


@njit(cache=True)
def game_zobrist(pts, zob, n):
    """Set each chain's Zobrist xor from its stones; return the board's hash."""
    h = 0
    for u in range(n):
        pts[ZXOR, u] = 0
    for u in range(n):
        c = pts[BOARD, u]
        if c != 0:
            h ^= zob[u, c]
            pts[ZXOR, pts[HEAD, u]] ^= zob[u, c]
    return h


@njit(cache=True)
def game_forget_last(hist, table, scal, n):
    """Drop the last stored position from the history and the hash table (positions leave
    in the reverse order of their arrival, so emptying its slot keeps every probe sequence)."""
    t = scal[0] - 1
    mask = table.shape[0] - 1
    slot = hist[t, 0] & mask
    while table[slot] != t:
        slot = (slot + 1) & mask
    table[slot] = -1
    scal[COUNTS + (hist[t, 3] * (n + 1) + hist[t, 4]) % (scal.shape[0] - COUNTS)] -= 1
    scal[0] = t


@njit(cache=True)
def game_rehash(hist, table, count):
    """Fill an empty hash table with the first ``count`` positions of the history."""
    mask = table.shape[0] - 1
    for t in range(count):
        slot = hist[t, 0] & mask
        while table[slot] >= 0:
            slot = (slot + 1) & mask
        table[slot] = t


# One int64 array holds every array of a compiled game, so that a step from Python passes two
# arguments (numba's dispatch costs per argument).  Header: n, history capacity, length of
# scal, number of arcs; then pts, hist, table, scal, ptr, idx, zob, out, and as int64 words
# holding smaller integers: the boards (int8), a scratch board (int8) and the log of legal
# actions (int32, one row of n + 1 per position of the history).

HEADER = 4


def packed_sizes(n, capacity, scal_length, arcs):
    """The number of int64 words of each array packed in a compiled game's memory (after
    the header), in the order of ``_views``."""
    width = max(n, 1)
    return (
        8 * width,
        5 * capacity,
        4 * capacity,
        scal_length,
        n + 1,
        arcs,
        3 * width,
        width + 1,
        -(-capacity * width // 8),
        -(-width // 8),
        -(-capacity * (n + 1) // 2),
    )


@intrinsic
def _pointer(typingctx, address, dtype):
    """The address (an int64) as a pointer to ``dtype`` (a numba type given as a value)."""
    target = dtype.dtype
    signature = types.CPointer(target)(address, dtype)

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(target)))

    return signature, codegen


@njit(cache=True, inline="always")
def _views(mem):
    """The arrays packed in ``mem``: (pts, hist, table, scal, ptr, idx, zob, out, n, boards,
    scratch, log).  The arrays of two dimensions and those of smaller integers are laid over
    ``mem``'s memory by address (``carray``): numba's ``reshape`` and ``view`` check their
    arguments at each call, which cost more than a short step itself."""
    n = mem[0]
    cap = mem[1]
    width = max(n, 1)
    base = mem.ctypes.data
    o = HEADER
    pts = carray(_pointer(base + 8 * o, types.int64), (8, width))
    o += 8 * width
    hist = carray(_pointer(base + 8 * o, types.int64), (cap, 5))
    o += 5 * cap
    table = mem[o : o + 4 * cap]
    o += 4 * cap
    scal = mem[o : o + mem[2]]
    o += mem[2]
    ptr = mem[o : o + n + 1]
    o += n + 1
    idx = mem[o : o + mem[3]]
    o += mem[3]
    zob = carray(_pointer(base + 8 * o, types.int64), (width, 3))
    o += 3 * width
    out = mem[o : o + width + 1]
    o += width + 1
    boards = carray(_pointer(base + 8 * o, types.int8), (cap, width))
    o += -(-cap * width // 8)
    scratch = carray(_pointer(base + 8 * o, types.int8), width)
    o += -(-width // 8)
    log = carray(_pointer(base + 8 * o, types.int32), cap * (n + 1))
    return pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log


@njit(cache=True)
def _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log):
    """Write the legal actions of the player to move (the legal points in increasing order,
    then n for pass) to the log row of the current position; return how many (0 once the
    game is over)."""
    t = scal[0] - 1
    if hist[t, 2] >= 2:
        return 0
    count = game_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out)
    row = t * (n + 1)
    for i in range(count):
        log[row + i] = out[i]
    log[row + count] = n
    return count + 1


@njit(cache=True)
def packed_step(code, mem):
    """Play action ``code >> 1`` (a point, or n for pass) for the player to move; with
    ``code & 1`` list the next player's legal actions too (see ``_log_legal``).  Return the
    number of legal actions listed (0 once the game is over), or -1 if played without
    listing, or -1 - the reason the action is illegal (as ``_why_illegal``; 6 when the
    game is over), or -8 when the history has no room for one more position (nothing
    played)."""
    pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log = _views(mem)
    t = scal[0] - 1
    if t + 1 >= hist.shape[0]:
        return -8
    v = code >> 1
    if v == n:
        if game_pass(pts, hist, boards, table, scal, n):
            return -7
    else:
        if hist[t, 2] >= 2:
            return -7
        reason = _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n)
        if reason != 0:
            return -1 - reason
        me = hist[t, 1]
        after = hist[t, 0] ^ _put(pts, v, me, ptr, idx, zob)
        _record(pts, hist, boards, table, scal, after, 3 - me, 0, n)
    if code & 1:
        return _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log)
    return -1


@njit(cache=True)
def packed_list(mem):
    """``_log_legal`` over the arrays packed in ``mem``."""
    pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log = _views(mem)
    return _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log)


@njit(cache=True)
def packed_why_illegal(v, mem):
    """``_why_illegal`` over the arrays packed in ``mem``."""
    pts, hist, table, scal, ptr, idx, zob, _out, n, boards, scratch, _log = _views(mem)
    return _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n)
