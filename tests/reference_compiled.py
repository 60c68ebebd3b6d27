"""The full-history minimax of ``tests/reference_minimax.py``, compiled with numba.

Still deliberately simple, and sharing no code with the solver (``impl/solving/solve.py``) nor with
the engine: the rules are written again here from the spec (``gorules.spec.tromp_taylor``),
on bit masks.  A board is two masks (Black's stones, White's); a move places a stone, then
clears every stone of the opponent that does not reach an empty point, then every stone of
the mover that does not (the spec's ``move``: capture first, then suicide).  The history is
the set of position keys played so far along the line being searched: the board's number in
base 3 under positional superko, that number and the player to move under situational
superko (where a pass adds its position too, as in the spec's list of states).  A stone move
whose position is in the set is illegal; the set is a bit array, one bit a position, set when
a line enters a position and cleared when it leaves.

The search is fail-soft alpha-beta over every legal move, with no static bound, no symmetry
and no deepening.  The moves are tried in a fixed order (the pass first, then the moves that
capture, then the others, each group in point order), re-sorted by the history heuristic: a
count, for each player and move, of the searches that move has cut off so far, the most
frequent first.  The order decides only how soon alpha-beta cuts, never a value: every legal
move is still searched until a cut; the value is found by null-window tests from 0 up or
down (MTD(f)), as the plain reference does.  It may keep a table of value bounds of a fixed
size, keyed on the *whole* state (board, player to move, passes and every bit of the history
set) and checked word for word on a hit, so that an entry is reused only under exactly the
same history.  A state has two entries it may go in; when both hold other states, the one
whose search took fewer nodes is overwritten, which costs time and never soundness.  Only
the finite rules (positional and situational superko) are searched: under the others a line
may never end.  Values are Black's margin before komi.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import Options

POSITIONAL, SITUATIONAL = 0, 1
FAITHFUL, TABLE_FORGETS_HISTORY = 0, 1
FIXED_ORDER, HISTORY_HEURISTIC, RACE = 0, 1, 2
MAX_POINTS = 7  # 3^7 boards, times 2 players: 69 words of history per table entry

# setup[...]: the fields of the int64 array that sets the search up: the options, its limits and the mutant.
ORDER, KO, SUICIDE, STONE_SCORING, MUTANT, WORDS, TABLE_MASK, NODE_LIMIT, ORDERING = range(9)
# A table entry: the history words and the state word in ``keys``; the lower and upper
# bounds and the nodes its search took in ``bounds``.


@njit(cache=True)
def _popcount(x):
    """The number of set bits of x."""
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


@njit(cache=True)
def _around(nbrs, points):
    """The points adjacent to some point of ``points``."""
    out = np.uint64(0)
    v = 0
    while points:
        if points & np.uint64(1):
            out |= nbrs[v]
        points >>= np.uint64(1)
        v += 1
    return out


@njit(cache=True)
def _reaching(nbrs, stones, targets):
    """The points of ``stones`` joined to a point of ``targets`` by a path through ``stones``:
    the spec's ``reaches``, grown from the stones next to a target until nothing changes."""
    reached = stones & _around(nbrs, targets)
    while True:
        grown = reached | (stones & _around(nbrs, reached))
        if grown == reached:
            return reached
        reached = grown


@njit(cache=True)
def _play(nbrs, full, black, white, v, side):
    """The board after ``side`` (0 Black, 1 White) plays on empty point v: the opponent's
    stones that reach no empty point are cleared, then the mover's."""
    mine, theirs = (black, white) if side == 0 else (white, black)
    mine |= np.uint64(1) << np.uint64(v)
    empty = full & ~(mine | theirs)
    theirs = _reaching(nbrs, theirs, empty)
    empty = full & ~(mine | theirs)
    mine = _reaching(nbrs, mine, empty)
    return (mine, theirs) if side == 0 else (theirs, mine)


@njit(cache=True)
def _captures(black, white, after_black, after_white, side):
    """Whether the move of ``side`` that made the board (after_black, after_white) took stones
    of the opponent."""
    if side == 0:
        return after_white != white
    return after_black != black


@njit(cache=True)
def _margin(nbrs, full, black, white, stone_scoring):
    """Black's score minus White's on a final board: stones, and under area scoring the empty
    points that reach Black's stones and not White's (or White's and not Black's)."""
    margin = _popcount(black) - _popcount(white)
    if stone_scoring:
        return margin
    empty = full & ~(black | white)
    near_black = _reaching(nbrs, empty, black)
    near_white = _reaching(nbrs, empty, white)
    return margin + _popcount(near_black & ~near_white) - _popcount(near_white & ~near_black)


@njit(cache=True)
def _position(setup, black, white, side):
    """The position's number in the history: the board in base 3 (point v has weight 3^v;
    Black 1, White 2), times 2 plus the player to move under situational superko."""
    key = 0
    weight = 1
    for v in range(setup[ORDER]):
        bit = np.uint64(1) << np.uint64(v)
        if black & bit:
            key += weight
        elif white & bit:
            key += 2 * weight
        weight *= 3
    if setup[KO] == SITUATIONAL:
        key = 2 * key + side
    return key


@njit(cache=True)
def _has(seen, key):
    """Whether position ``key`` is in the history."""
    return (seen[key >> 6] >> np.uint64(key & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _flip(seen, key):
    """Add position ``key`` to the history, or take it out."""
    seen[key >> 6] ^= np.uint64(1) << np.uint64(key & 63)


@njit(cache=True)
def _state_word(black, white, side, passes):
    """The board, player to move and passes in one word, with a bit that marks a used entry."""
    return black | (white << np.uint64(8)) | np.uint64((side << 16) | (passes << 17) | (1 << 20))


@njit(cache=True)
def _bucket(setup, seen, state):
    """The first of the two table entries where a whole state may be (its history words and
    its state word mixed)."""
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    if setup[MUTANT] != TABLE_FORGETS_HISTORY:
        for w in range(setup[WORDS]):
            h = (h ^ seen[w]) * prime
            h ^= h >> np.uint64(29)
    h = (h ^ state) * prime
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(setup[TABLE_MASK])) & ~np.int64(1)


@njit(cache=True)
def _matches(setup, keys, slot, seen, state):
    """Whether the table's entry ``slot`` is this very state, history and all."""
    words = setup[WORDS]
    if keys[slot, words] != state:
        return False
    if setup[MUTANT] == TABLE_FORGETS_HISTORY:
        return True
    for w in range(words):
        if keys[slot, w] != seen[w]:
            return False
    return True


@njit(cache=True)
def _find(setup, keys, seen, state):
    """The entry of the table that holds this whole state, or -1."""
    slot = _bucket(setup, seen, state)
    for entry in (slot, slot + 1):
        if _matches(setup, keys, entry, seen, state):
            return entry
    return -1


@njit(cache=True)
def _store(setup, keys, bounds, seen, state, lower, upper, work):
    """Keep the bounds of a whole state: in its own entry if the table has one, otherwise in
    the entry of its bucket whose search took fewer nodes (the cheaper one to find again)."""
    slot = _find(setup, keys, seen, state)
    if slot < 0:
        slot = _bucket(setup, seen, state)
        if bounds[slot + 1, 2] < bounds[slot, 2]:
            slot += 1
    words = setup[WORDS]
    for w in range(words):
        keys[slot, w] = seen[w]
    keys[slot, words] = state
    bounds[slot, 0] = lower
    bounds[slot, 1] = upper
    bounds[slot, 2] = min(work, 2**31 - 1)


@njit(cache=True)
def _ordered_moves(setup, nbrs, full, history, black, white, side):
    """The moves of ``side`` to search, in order (point numbers; n stands for the pass): the
    pass, then the points whose stone captures, then the other empty points, each group in
    point order; then, with the history heuristic, stably sorted by how often each move has
    cut off a search for ``side`` so far.  Which moves are legal is left to the caller."""
    n = setup[ORDER]
    moves = np.empty(n + 1, dtype=np.int64)
    moves[0] = n
    count = 1
    for captures in (True, False):
        for v in range(n):
            if (black | white) & (np.uint64(1) << np.uint64(v)):
                continue
            after_black, after_white = _play(nbrs, full, black, white, v, side)
            if _captures(black, white, after_black, after_white, side) == captures:
                moves[count] = v
                count += 1
    moves = moves[:count]
    if setup[ORDERING] == HISTORY_HEURISTIC:
        for i in range(1, count):  # insertion sort: equal counts keep the fixed order
            move = moves[i]
            j = i
            while j > 0 and history[side, moves[j - 1]] < history[side, move]:
                moves[j] = moves[j - 1]
                j -= 1
            moves[j] = move
    return moves


@njit(cache=True)
def _check_static(setup, static, counts, black, white, side, best, alpha, beta):
    """Count the state if its fail-soft result ``best`` within (alpha, beta) proves the
    value outside the claimed bounds of its board: best ≤ alpha means value ≤ best, best ≥
    beta means value ≥ best, and in between value = best."""
    board = _position(setup, black, white, 0)
    if setup[KO] == SITUATIONAL:
        board //= 2
    low, high = static[board, 0], static[board, 1]
    if (best < beta and best < low) or (best > alpha and best > high):
        counts[1] += 1
        if counts[1] == 1:
            counts[2] = np.int64(black)
            counts[3] = np.int64(white)
            counts[4] = side


@njit  # not cached: a recursive kernel loaded from numba's cache crashes the process
def _value(setup, nbrs, full, seen, keys, bounds, counts, history, black, white, side, passes, alpha, beta, static):
    """Black's margin from this state with this history, fail-soft within (alpha, beta).
    ``static`` is empty, or holds claimed bounds [low, high] on Black's margin per board
    (row: the board in base 3) to be checked on the way: a state whose search proves its
    value below the claimed low or above the claimed high is counted in ``counts[1]`` and
    the first one kept in ``counts[2:5]`` (Black's stones, White's, the player to move)."""
    counts[0] += 1
    n = setup[ORDER]
    if counts[0] > setup[NODE_LIMIT]:
        return 0  # the budget is spent: the caller throws the whole search away
    if passes >= 2:
        return _margin(nbrs, full, black, white, setup[STONE_SCORING])
    use_table = setup[TABLE_MASK] >= 0
    start = counts[0]
    state = _state_word(black, white, side, passes)
    lower, upper = -n, n
    if use_table:
        slot = _find(setup, keys, seen, state)
        if slot >= 0:
            lower, upper = bounds[slot, 0], bounds[slot, 1]
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
    outer_alpha, outer_beta = alpha, beta
    best = -n - 1 if side == 0 else n + 1
    moves = _ordered_moves(setup, nbrs, full, history, black, white, side)
    for i in range(moves.size):
        move = moves[i]
        if move == n:  # a pass: the position enters the history only under situational superko
            after_black, after_white, after_passes = black, white, passes + 1
            key = _position(setup, black, white, 1 - side)
            flip = setup[KO] == SITUATIONAL and not _has(seen, key)
        else:
            after_black, after_white = _play(nbrs, full, black, white, move, side)
            if setup[SUICIDE] == 0 and not (after_black | after_white) & (np.uint64(1) << np.uint64(move)):
                continue
            key = _position(setup, after_black, after_white, 1 - side)
            if _has(seen, key):
                continue
            after_passes, flip = 0, True
        if flip:
            _flip(seen, key)
        v = _value(
            setup,
            nbrs,
            full,
            seen,
            keys,
            bounds,
            counts,
            history,
            after_black,
            after_white,
            1 - side,
            after_passes,
            alpha,
            beta,
            static,
        )
        if flip:
            _flip(seen, key)
        if side == 0:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            history[side, move] += 1
            break
    if static.shape[0]:
        _check_static(setup, static, counts, black, white, side, best, outer_alpha, outer_beta)
    if use_table:
        if best <= outer_alpha:
            upper = min(upper, best)
        elif best >= outer_beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        _store(setup, keys, bounds, seen, state, lower, upper, counts[0] - start)
    return best


class OutOfNodes(Exception):
    """The search visited more nodes than its budget allowed: no value is known."""


def compiled_value(
    graph: Graph,
    options: Options,
    table_bits: int = 20,
    mutant: int = FAITHFUL,
    max_nodes: int = 2**62,
    ordering: int = RACE,
) -> tuple[int, int]:
    """Black's perfect-play margin before komi from the empty board, and the nodes searched.

    ``table_bits`` sizes the table (2^bits entries; a negative number: no table); ``mutant``
    is FAITHFUL, or a deliberately wrong reference for the tests: TABLE_FORGETS_HISTORY (the
    table keyed on the position alone, whatever the history); ``ordering`` is FIXED_ORDER,
    HISTORY_HEURISTIC, or RACE: the two in turn, each with a node budget four times the last
    one's, until one finishes (the order never changes the value, so whichever finishes
    first answers; the nodes counted are those of every attempt).  OutOfNodes when the
    search needs more than ``max_nodes`` nodes."""
    if options.ko not in ("positional", "situational"):
        raise ValueError(f"the compiled reference searches the finite rules only, not ko={options.ko}")
    if graph.order > MAX_POINTS or graph.directed:
        raise ValueError(f"the compiled reference takes undirected graphs of up to {MAX_POINTS} points")
    if ordering != RACE:
        return _minimax(graph, options, table_bits, mutant, max_nodes, ordering)
    spent, budget = 0, 100_000
    while True:
        for order in (FIXED_ORDER, HISTORY_HEURISTIC):
            allowed = min(budget, max_nodes - spent)
            try:
                value, nodes = _minimax(graph, options, table_bits, mutant, allowed, order)
                return value, spent + nodes
            except OutOfNodes:
                spent += allowed
            if spent >= max_nodes:
                raise OutOfNodes(f"more than {max_nodes:,} nodes under either order")
        budget *= 4


def static_misses(graph: Graph, options: Options, static: np.ndarray, table_bits: int = 20) -> tuple[int, list]:
    """Search ``graph`` from the empty board as :func:`compiled_value` does (fixed order,
    no node budget) while checking the claimed bounds ``static`` (one row [low, high] of
    Black's margin per board, the board's number in base 3) at every state searched, with
    the history of its line: the number of states whose search proves their value outside
    their board's claim, and the first of them as [Black's stones, White's, player to move]
    (empty if none)."""
    counts = np.zeros(5, dtype=np.int64)
    _minimax(graph, options, table_bits, FAITHFUL, 2**62, FIXED_ORDER, static.astype(np.int64), counts)
    return int(counts[1]), [int(x) for x in counts[2:5]] if counts[1] else []


def _minimax(
    graph: Graph,
    options: Options,
    table_bits: int,
    mutant: int,
    max_nodes: int,
    ordering: int,
    static: np.ndarray | None = None,
    counts: np.ndarray | None = None,
) -> tuple[int, int]:
    """The value and nodes of :func:`compiled_value` with moves in one ``ordering``, checking
    the claimed bounds ``static`` on the way if given (:func:`static_misses`)."""
    n = graph.order
    ko = POSITIONAL if options.ko == "positional" else SITUATIONAL
    positions = 3**n * (2 if ko == SITUATIONAL else 1)
    words = (positions + 63) // 64
    size = 1 << max(table_bits, 1)
    mask = size - 1 if table_bits >= 0 else -1
    setup = np.array(
        [n, ko, options.suicide == "allowed", options.scoring == "stone", mutant, words, mask, max_nodes, ordering],
        dtype=np.int64,
    )
    nbrs = np.zeros(max(n, 1), dtype=np.uint64)
    for v in graph.points:
        for w in graph.neighbours[v]:
            nbrs[v] |= np.uint64(1) << np.uint64(w)
    full = np.uint64((1 << n) - 1)
    seen = np.zeros(words, dtype=np.uint64)
    seen[0] = np.uint64(1)  # the empty board (Black to move): position 0
    keys = np.zeros((size, words + 1), dtype=np.uint64)
    bounds = np.zeros((size, 3), dtype=np.int32)
    if counts is None:
        counts = np.zeros(5, dtype=np.int64)
    if static is None:
        static = np.zeros((0, 2), dtype=np.int64)
    history = np.zeros((2, n + 1), dtype=np.int64)
    lower, upper, guess = -n, n, 0
    while lower < upper:  # null-window tests "is the value at least g?" walking from 0 (MTD(f))
        g = max(guess, lower + 1)
        found = _value(
            setup, nbrs, full, seen, keys, bounds, counts, history, np.uint64(0), np.uint64(0), 0, 0, g - 1, g, static
        )
        if counts[0] > max_nodes:
            raise OutOfNodes(f"more than {max_nodes:,} nodes; the value lies in [{lower}, {upper}]")
        if found >= g:
            lower, guess = found, found + 1
        else:
            upper, guess = found, found
        guess = min(guess, upper)
    return int(lower), int(counts[0])
