"""The compiled step kernel: a game in progress in numpy arrays, stepped in numba.

A game in progress, kept in numpy arrays and stepped by the functions below, for
``impl.engine.compiled.CompiledGame``.  Undirected graphs only.  Each chain keeps, at the row of
its representative point: its size, its pseudo-liberties (pairs (stone, empty
neighbour)), the sum and the sum of squares of those liberties' points, and the xor of
the Zobrist keys of its stones.  A chain has no liberty when its count is 0, and its only
liberty is v exactly when sum = count·v and sum of squares = count·v² (all the
pseudo-liberties are v).  So the legality of a point costs one look at each neighbour.

``pts`` rows: board colour (0 Empty, 1 Black, 2 White), chain representative, next stone
of the chain (a cycle), then per representative: size, liberties, sum, sum of squares,
Zobrist xor; then per point its class for Black and for White (see ``_set_classes``: 0
occupied, 1 a stone placed there removes nothing, 2 it captures, 3 and 4 it is a suicide),
and a mark and a list of the points whose classes a move may have changed.

The classes are kept incrementally.  The class of an empty point p depends only on the
colours of its neighbours and, for each chain next to it, on whether p is that chain's only
liberty.  A move changes colours at the point played and the stones it removes, and
changes the liberties of the chains next to those; a chain whose liberties change alters
"p is my only liberty" only at its only liberty before the change and at its only liberty
after it.  So the points to refresh after a move are the point played, the stones removed,
the empty neighbours of both, and the only liberty (before and after) of every chain next
to them, a few points where listing from scratch looks at every empty point.

``hist`` rows per position of the history: hash, side to move (1 Black, 2 White), passes,
Black's stones, White's stones, and 1 + the previous position whose stone counts share its
slot (0 if none); ``boards`` the boards; ``table`` an open-addressing hash table of
history indices.  ``scal``: [positions stored, ko code, suicide allowed, marked points],
then from COUNTS on, per slot of stone counts, 1 + the last stored position in it (0 if
none).  A move that adds a stone and removes none can only repeat a board with one more
stone of the player, so the positions of that slot are the only candidates: usually
there are none, and otherwise their boards are compared with the current one, which finds
the points that would repeat them exactly (no hash probe per point).

The whole-playout kernel, which plays entire random games without chains, is
``impl/kernels/playout.py``.
"""

from __future__ import annotations

from numba import carray, types
from numba.core.extending import intrinsic

from gorules.impl.kernels.cache import njit

BOARD, HEAD, NEXT, SIZE, LIBS, LSUM, LSQ, ZXOR, CLASS, CLASS_WHITE, MARK, DIRTY = range(12)
ROWS = 12  # rows of ``pts``; the class of a point for colour c (1 or 2) is row CLASS + c - 1
MARKED = 3  # scal[MARKED]: how many points the DIRTY row lists
COUNTS = 8  # scal[COUNTS + (b·(n+1) + w) mod slots]: 1 + the last stored position of that slot, or 0
REPEATS = 5  # the class, for the listing only, of a placement found to repeat a board
HISTORY_COLUMNS = 6  # columns of a ``hist`` row: hash, side, passes, Black's and White's stones, slot link


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


@njit(cache=True, inline="always")
def _mark(pts, scal, p):
    """Put point p on the list of points whose classes must be computed again."""
    if pts[MARK, p] == 0:
        pts[MARK, p] = 1
        pts[DIRTY, scal[MARKED]] = p
        scal[MARKED] += 1


@njit(cache=True, inline="always")
def _mark_only_liberty(pts, scal, c):
    """Mark the only liberty of chain c, if it has exactly one."""
    count = pts[LIBS, c]
    if count > 0:
        p = pts[LSUM, c] // count
        if pts[LSUM, c] == count * p and pts[LSQ, c] == count * p * p:
            _mark(pts, scal, p)


@njit(cache=True, inline="always")
def _set_classes(pts, v, ptr, idx):
    """Set the class of point v for each player: 0 occupied; 1 a stone of that player
    placed at v removes nothing (v has an empty neighbour, or a chain of the player next to
    it keeps another liberty, and no chain of the opponent next to it has v as its only
    liberty); 2 it captures; 3 it is the suicide of a lone stone (every neighbour is a stone
    of the opponent, none of them capturable: the board stays as it is); 4 it is the
    suicide of the stone with chains of the player next to it.  One pass over the
    neighbours, nearly without branches: each sets bit 2·colour − a, where a says that v is
    its chain's only liberty (an empty neighbour sets bit 0)."""
    seen = 0
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        colour = pts[BOARD, w]
        g = pts[HEAD, w]
        count = pts[LIBS, g]
        # (The chain rows of an empty point are left over from earlier chains: not read.)
        only_v = (colour != 0) & (count > 0) & (pts[LSUM, g] == count * v) & (pts[LSQ, g] == count * v * v)
        seen |= 1 << (2 * colour - only_v)
    empty = pts[BOARD, v] == 0
    pts[CLASS, v] = empty * _class_of(seen & 1 | seen >> 2 & 1, seen >> 1 & 1, seen >> 3 & 1)
    pts[CLASS_WHITE, v] = empty * _class_of(seen & 1 | seen >> 4 & 1, seen >> 3 & 1, seen >> 1 & 1)


@njit(cache=True, inline="always")
def _class_of(free, own_in_atari, captures):
    """The class of an empty point (see ``_set_classes``) from three bits: a neighbour is
    empty or a chain of the player with another liberty; a chain of the player has its only
    liberty there; a chain of the opponent has its only liberty there."""
    suicide = 3 + own_in_atari
    placement = suicide + free * (1 - suicide)
    return placement + captures * (2 - placement)


@njit(cache=True, inline="always")
def _refresh_classes(pts, scal, ptr, idx):
    """Compute again the classes of the marked points, for both players; clear the marks."""
    for i in range(scal[MARKED]):
        p = pts[DIRTY, i]
        pts[MARK, p] = 0
        _set_classes(pts, p, ptr, idx)
    scal[MARKED] = 0


@njit(cache=True)
def game_classes(pts, scal, ptr, idx, n):
    """Compute the classes of every point from scratch (a loaded board)."""
    for p in range(n):
        pts[MARK, p] = 0
        _set_classes(pts, p, ptr, idx)
    scal[MARKED] = 0


@njit(cache=True)
def _remove_chain(pts, c, ptr, idx, scal):
    """Make the stones of chain c empty, giving their points back as liberties to the
    chains next to them; return the chain's Zobrist xor.  Marks the stones, their empty
    neighbours, and the only liberty of each chain next to them before it gains one."""
    z = pts[ZXOR, c]
    s = c
    while True:
        pts[BOARD, s] = 0
        s = pts[NEXT, s]
        if s == c:
            break
    while True:
        _mark(pts, scal, s)
        for k in range(ptr[s], ptr[s + 1]):
            u = idx[k]
            if pts[BOARD, u] != 0:
                _mark_only_liberty(pts, scal, pts[HEAD, u])
                _add_liberty(pts, pts[HEAD, u], s, 1)
            else:
                _mark(pts, scal, u)
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


@njit(cache=True, inline="always")
def _put(pts, v, me, ptr, idx, zob, scal):
    """Play ``me`` at empty v (the move of the source: captures, then suicide); return the
    xor of the Zobrist keys that changed and the numbers of stones of me and of the
    opponent removed.  The classes of the points it may change are computed again (see
    the module's docstring)."""
    opp = 3 - me
    _alone(pts, v, me)
    pts[ZXOR, v] = zob[v, me]
    change = zob[v, me]
    pts[CLASS, v] = 0  # occupied, unless the move is a suicide: then v is marked with its chain
    pts[CLASS_WHITE, v] = 0
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        c = pts[BOARD, w]
        if c == 0:
            _add_liberty(pts, v, w, 1)
            _mark(pts, scal, w)
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
    theirs_lost = 0
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] == opp and pts[LIBS, pts[HEAD, w]] == 0:
            theirs_lost += pts[SIZE, pts[HEAD, w]]
            change ^= _remove_chain(pts, pts[HEAD, w], ptr, idx, scal)
    mine_lost = 0
    if pts[LIBS, mine] == 0:
        mine_lost = pts[SIZE, mine]
        change ^= _remove_chain(pts, mine, ptr, idx, scal)
    # The chains next to v after the move: v was a liberty of each, so before the move
    # each had its only liberty at v (marked) or none.
    for k in range(ptr[v], ptr[v + 1]):
        w = idx[k]
        if pts[BOARD, w] != 0:
            _mark_only_liberty(pts, scal, pts[HEAD, w])
    _refresh_classes(pts, scal, ptr, idx)
    return change, mine_lost, theirs_lost


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


@njit(cache=True, inline="always")
def _record(pts, hist, boards, table, scal, h, side, passes, black, white, n):
    """Append the current board, with its hash, side to move, passes and numbers of Black
    and White stones (counted here when ``black`` is negative), to the history."""
    t = scal[0]
    hist[t, 0] = h
    hist[t, 1] = side
    hist[t, 2] = passes
    for u in range(n):
        boards[t, u] = pts[BOARD, u]
    if black < 0:
        black = 0
        white = 0
        for u in range(n):
            black += pts[BOARD, u] == 1
            white += pts[BOARD, u] == 2
    hist[t, 3] = black
    hist[t, 4] = white
    slot = COUNTS + (black * (n + 1) + white) % (scal.shape[0] - COUNTS)
    hist[t, 5] = scal[slot]
    scal[slot] = t + 1
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
    _record(pts, hist, boards, table, scal, hist[t, 0], 3 - hist[t, 1], hist[t, 2] + 1, hist[t, 3], hist[t, 4], n)
    return 0


@njit(cache=True, inline="always")
def _quick_reason(pts, hist, table, scal, v, ptr, idx, zob, n, placements_new):
    """Like ``_why_illegal`` for an empty point v, but -1 where a hash matches an earlier
    position (a repetition, or a collision) and only an exact comparison can decide;
    ``placements_new`` says that no stored position has the stone counts of a board with
    one more stone of the player to move.
    It calls no other compiled function, so that the loop over all points stays tight."""
    # Its ko test is repeated in _placement_reason on purpose, for the reason just given.
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
def _placements_new(hist, scal, t, me, n):
    """Whether no stored position has the stone counts of the board after the player to
    move (at position t) adds a stone and removes none."""
    black = hist[t, 3] + (me == 1)
    white = hist[t, 4] + (me == 2)
    return scal[COUNTS + (black * (n + 1) + white) % (scal.shape[0] - COUNTS)] == 0


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


@njit(cache=True, inline="always")
def _mark_repeating_placements(pts, hist, boards, scal, classes, found, t, me, ko, n):
    """Give class REPEATS to each point where a stone of the player to move, removing
    nothing, would bring back a stored board (under situational superko, with the opponent
    to move), listing them from the end of ``found``; return how many.  Only the positions
    with one more stone of the player are candidates (the chain of their slot), and such a
    board repeats by a placement at v exactly when it differs from the current board at v
    alone."""
    black = hist[t, 3] + (me == 1)
    white = hist[t, 4] + (me == 2)
    j = scal[COUNTS + (black * (n + 1) + white) % (scal.shape[0] - COUNTS)] - 1
    marked = 0
    while j >= 0:
        if hist[j, 3] == black and hist[j, 4] == white and (ko == 0 or hist[j, 1] == 3 - me):
            differ = 0
            point = 0
            for u in range(n):
                if boards[j, u] != boards[t, u]:
                    differ += 1
                    point = u
            if differ == 1 and classes[point] == 1:
                classes[point] = REPEATS
                found[n - marked] = point
                marked += 1
        j = hist[j, 5] - 1
    return marked


@njit(cache=True, inline="always")
def game_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, legal, spare):
    """Write the legal points of the player to move to ``legal``, in increasing order;
    return how many (``legal`` and ``spare`` have room for n + 1 points).  The classes kept
    for the player to move (``_set_classes``) say which points are empty and which of them
    add a stone and remove none; under superko the placements that would repeat a board
    are found from the stored boards with the stone counts they make (usually none) and
    left out; the other placements are written without a branch.  The points that capture
    or are suicides (where the rules may allow them) wait in ``spare`` and are decided one
    by one, then merged in."""
    t = scal[0] - 1
    if hist[t, 2] >= 2:
        return 0
    me = hist[t, 1]
    placements_new = _placements_new(hist, scal, t, me, n)
    ko = scal[1]
    # The classes that wait for a closer look: captures; a lone stone's suicide, which
    # repeats the board (illegal under positional superko); other suicides.
    suicide_allowed = scal[2] != 0
    waits = 1 << 2 | (suicide_allowed and ko != 0) << 3 | suicide_allowed << 4
    classes = pts[CLASS + me - 1]
    repeats = 0
    if (ko == 0 or ko == 1) and not placements_new:
        repeats = _mark_repeating_placements(pts, hist, boards, scal, classes, spare, t, me, ko, n)
    # Every placement left of class 1 is legal: no branch on the class.
    count = 0
    later = 0
    for v in range(n):
        kind = classes[v]
        legal[count] = v
        count += kind == 1
        spare[later] = v
        later += waits >> kind & 1
    for i in range(repeats):
        classes[spare[n - i]] = 1
    found = 0
    for i in range(later):
        v = spare[i]
        code = _quick_reason(pts, hist, table, scal, v, ptr, idx, zob, n, placements_new)
        if code < 0:
            code = _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n)
        if code == 0:
            spare[found] = v
            found += 1
    # Merge the points found legal one by one (increasing) into the others, from the end.
    i = count - 1
    k = count + found - 1
    for j in range(found - 1, -1, -1):
        v = spare[j]
        while i >= 0 and legal[i] > v:
            legal[k] = legal[i]
            i -= 1
            k -= 1
        legal[k] = v
        k -= 1
    return count + found


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
    scal[COUNTS + (hist[t, 3] * (n + 1) + hist[t, 4]) % (scal.shape[0] - COUNTS)] = hist[t, 5]
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
        ROWS * width,
        HISTORY_COLUMNS * capacity,
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
    """The arrays packed in ``mem`` (see ``_views_at``)."""
    return _views_at(mem.ctypes.data)


@njit(cache=True, inline="always")
def _views_at(base):
    """The arrays packed in the memory at address ``base``: (pts, hist, table, scal, ptr,
    idx, zob, out, n, boards, scratch, log), every one laid over it by address
    (``carray``): numba's ``reshape`` and ``view`` check their arguments at each call,
    which cost more than a short step itself, and a slice of the memory array would carry
    its reference count, which every call between compiled functions increments and
    decrements.  The caller keeps the memory alive."""
    mem = carray(_pointer(base, types.int64), HEADER)
    n = mem[0]
    cap = mem[1]
    width = max(n, 1)
    o = HEADER
    pts = carray(_pointer(base + 8 * o, types.int64), (ROWS, width))
    o += ROWS * width
    hist = carray(_pointer(base + 8 * o, types.int64), (cap, HISTORY_COLUMNS))
    o += HISTORY_COLUMNS * cap
    table = carray(_pointer(base + 8 * o, types.int64), 4 * cap)
    o += 4 * cap
    scal = carray(_pointer(base + 8 * o, types.int64), mem[2])
    o += mem[2]
    ptr = carray(_pointer(base + 8 * o, types.int64), n + 1)
    o += n + 1
    idx = carray(_pointer(base + 8 * o, types.int64), mem[3])
    o += mem[3]
    zob = carray(_pointer(base + 8 * o, types.int64), (width, 3))
    o += 3 * width
    out = carray(_pointer(base + 8 * o, types.int64), width + 1)
    o += width + 1
    boards = carray(_pointer(base + 8 * o, types.int8), (cap, width))
    o += -(-cap * width // 8)
    scratch = carray(_pointer(base + 8 * o, types.int8), width)
    o += -(-width // 8)
    log = carray(_pointer(base + 8 * o, types.int32), cap * (n + 1))
    return pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log


@njit(cache=True, inline="always")
def _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log):
    """Write the legal actions of the player to move (the legal points in increasing order,
    then n for pass) to the log row of the current position; return how many (0 once the
    game is over)."""
    t = scal[0] - 1
    if hist[t, 2] >= 2:
        return 0
    row = t * (n + 1)
    legal = log[row : row + n + 1]
    count = game_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, legal, out)
    legal[count] = n
    return count + 1


@njit(cache=True)
def packed_step(code, address):
    """Play action ``code >> 1`` (a point, or n for pass) for the player to move; with
    ``code & 1`` list the next player's legal actions too (see ``_log_legal``).  Return the
    number of legal actions listed (0 once the game is over), or -1 if played without
    listing, or -1 - the reason the action is illegal (as ``_why_illegal``; 6 when the
    game is over), or -8 when the history has no room for one more position, or -9 when
    the action is neither a point nor pass (nothing played in either case).  ``address``
    is that of the game's memory (an int, which is cheaper to pass than an array)."""
    pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log = _views_at(address)
    v = code >> 1
    if v < 0 or v > n:
        return -9
    t = scal[0] - 1
    if t + 1 >= hist.shape[0]:
        return -8
    if v == n:
        if game_pass(pts, hist, boards, table, scal, n):
            return -7
    else:
        if hist[t, 2] >= 2:
            return -7
        me = hist[t, 1]
        reason = -1
        if pts[CLASS + me - 1, v] == 1:
            # A stone added and none removed: only a repetition can make it illegal.
            reason = _placement_reason(
                hist, table, scal, hist[t, 0] ^ zob[v, me], me, t, _placements_new(hist, scal, t, me, n)
            )
        if reason != 0:
            reason = _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n)
            if reason != 0:
                return -1 - reason
        change, mine_lost, theirs_lost = _put(pts, v, me, ptr, idx, zob, scal)
        mine = 1 - mine_lost
        black = hist[t, 3] + (mine if me == 1 else -theirs_lost)
        white = hist[t, 4] + (mine if me == 2 else -theirs_lost)
        _record(pts, hist, boards, table, scal, hist[t, 0] ^ change, 3 - me, 0, black, white, n)
    if code & 1:
        return _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log)
    return -1


@njit(cache=True)
def packed_list(address):
    """``_log_legal`` over the arrays packed in the memory at ``address``."""
    pts, hist, table, scal, ptr, idx, zob, out, n, boards, scratch, log = _views_at(address)
    return _log_legal(pts, hist, boards, table, scal, ptr, idx, zob, scratch, n, out, log)


@njit(cache=True)
def packed_why_illegal(v, mem):
    """``_why_illegal`` over the arrays packed in ``mem``."""
    pts, hist, table, scal, ptr, idx, zob, _out, n, boards, scratch, _log = _views(mem)
    return _why_illegal(pts, hist, boards, table, scal, v, ptr, idx, zob, scratch, n)
