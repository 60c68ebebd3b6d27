"""The compiled step of the frontier count of legal positions on grids, in numba.

A border state of a grid of width w (placed row by row) holds one code per column: the last
placed point of that column.  The codes are those of :mod:`gorules.impl.counting.positions`:
0 empty, 1 and 2 a Black or White stone whose chain has a liberty, ``3 + 2·label + colour``
a stone whose chain has none yet, labels numbered 0, 1, 2, … in order of first occurrence.
At most w chains are on the frontier, so a code is below ``CODES`` = 29 and a state is the
number ``sum(code[i] · 29^i)``: for w ≤ 13 it is below 29^13 < 2^64, one machine word, and
``NO_STATE`` (2^64 − 1) is never a state.

A step places the point of one column: its neighbours are the point above (the column's old
code, which then leaves the frontier) and the point to its left (the previous column's code,
already of this row).  In the first row the columns not yet placed hold 0 and are nobody's
neighbour.  The states after a step are gathered in an open-addressing hash table, one row a
state: its key, then its counts modulo word primes below 2^62 (a sum of two residues fits a
word).  The successors of a batch of states are made first and their rows read together,
so that the memory fetches of the table overlap.

Colour exchange.  Exchanging Black and White maps legal positions to legal positions and
commutes with a step: a placement 1 ↔ 2, a code 1 ↔ 2 and ``3 + 2·label + colour`` ↔
``3 + 2·label + (1 − colour)``, the labels unchanged, since their order of first occurrence
does not look at colour.  With ``symmetric`` set, a table holds one key for each pair
{s, swap(s)}, the smaller (:func:`canonical_key`), with the class total: the sum of the
counts of the pair's members.  This is exact.  Let C(P) be the total of the class P and p
any one member.  Every member of a class has as many successors in a class T closed under
the exchange, for #(swap(p) → T) = #(p → swap(T)) = #(p → T); so C(T) = Σ_P C(P) · #(p → T),
which is what adding C(P) to the key of each successor of p computes.  No factor two appears,
for self-symmetric states (s = swap(s)) neither: their class has one member.  The start (all
empty) is self-symmetric, and being settled (no libertyless chain) is kept by the exchange, so
the number of legal positions is the sum of the totals of the settled keys.  The argument
holds for any member taken as the key; taking the smaller one merges the pair into one row,
so that a table holds about half the states.
"""

from __future__ import annotations

import numpy as np

from gorules.impl.kernels.cache import njit

CODES = 29
NO_STATE = np.uint64(0xFFFFFFFFFFFFFFFF)
HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
FIRST_CAPTIVE = 3
POWERS = np.array([CODES**i for i in range(14)], dtype=np.uint64)


@njit(cache=True)
def decode(key, width, codes):
    """The codes of a packed state, column 0 first, into ``codes``."""
    base = np.uint64(CODES)
    for i in range(width):
        codes[i] = np.int64(key % base)
        key = key // base


@njit(cache=True)
def swapped_code(code):
    """The code of a point once Black and White are exchanged: 1 ↔ 2, and a libertyless
    stone keeps its label with the other colour."""
    if code == 0:
        return 0
    if code < FIRST_CAPTIVE:
        return 3 - code
    return FIRST_CAPTIVE + ((code - FIRST_CAPTIVE) ^ 1)


@njit(cache=True)
def swapped_key(codes, width):
    """The packed state of ``codes`` (labels already in order of first occurrence) with Black
    and White exchanged."""
    key = np.uint64(0)
    for i in range(width - 1, -1, -1):
        key = key * np.uint64(CODES) + np.uint64(swapped_code(codes[i]))
    return key


@njit(cache=True)
def canonical_key(work, width, renumber, symmetric):
    """The packed state of ``work`` with its chain labels renumbered in order of first
    occurrence; with ``symmetric``, the smaller of it and its colour exchange."""
    for i in range(width + 1):
        renumber[i] = -1
    fresh = 0
    key = np.uint64(0)
    mirror = np.uint64(0)
    power = np.uint64(1)
    for i in range(width):
        code = work[i]
        if code >= FIRST_CAPTIVE:
            label = (code - FIRST_CAPTIVE) >> 1
            number = renumber[label]
            if number < 0:
                number = fresh
                renumber[label] = number
                fresh += 1
            code = FIRST_CAPTIVE + 2 * number + ((code - FIRST_CAPTIVE) & 1)
        key += np.uint64(code) * power
        mirror += np.uint64(swapped_code(code)) * power
        power *= np.uint64(CODES)
    if symmetric and mirror < key:
        return mirror
    return key


@njit(cache=True)
def relabel(work, width, label, code):
    """Give every frontier stone of the libertyless chain ``label`` the code ``code``."""
    for i in range(width):
        if work[i] >= FIRST_CAPTIVE and (work[i] - FIRST_CAPTIVE) >> 1 == label:
            work[i] = code


@njit(cache=True)
def simple_code(up, side, placement):
    """The code of the new point when no neighbour is a libertyless stone and the new point
    has a liberty (no other code changes, nor the labels), else −1."""
    if placement == 0:
        return 0
    if up == 0 or side == 0 or up == placement or side == placement:
        return placement
    return -1


@njit(cache=True)
def edited_key(key, mirror, old, new, column, symmetric):
    """The key after one code at ``column`` changes from ``old`` to ``new``, no label changing:
    with ``symmetric``, the smaller of it and its colour exchange (``mirror`` the exchange of
    ``key``'s state, edited alike)."""
    power = POWERS[column]
    edited = key - np.uint64(old) * power + np.uint64(new) * power
    if not symmetric:
        return edited
    exchanged = mirror - np.uint64(swapped_code(old)) * power + np.uint64(swapped_code(new)) * power
    return exchanged if exchanged < edited else edited


@njit(cache=True)
def successor(key, mirror, codes, work, width, column, above, left, placement, renumber, symmetric):
    """The packed state after placing ``placement`` (0 empty, 1 Black, 2 White) at ``column``
    in the state ``key`` (whose codes are ``codes``, and ``mirror`` the key of their colour
    exchange), or ``NO_STATE`` when the chain of the point above leaves the frontier without
    a liberty; with ``symmetric``, the smaller of the successor and its colour exchange."""
    up = codes[column] if above else -1
    side = codes[column - 1] if left else -1
    if up < FIRST_CAPTIVE and side < FIRST_CAPTIVE:
        new = simple_code(up, side, placement)
        if new >= 0:
            return edited_key(key, mirror, codes[column], new, column, symmetric)
    for i in range(width):
        work[i] = codes[i]
    if placement == 0:
        for neighbour in (up, side):
            if neighbour >= FIRST_CAPTIVE:
                relabel(work, width, (neighbour - FIRST_CAPTIVE) >> 1, 1 + ((neighbour - FIRST_CAPTIVE) & 1))
        new = 0
    else:
        colour = placement - 1
        liberty = False
        first = -1
        second = -1
        for neighbour in (up, side):
            if neighbour == 0:
                liberty = True
            elif neighbour > 0 and neighbour < FIRST_CAPTIVE:
                if neighbour - 1 == colour:
                    liberty = True
            elif neighbour >= FIRST_CAPTIVE and ((neighbour - FIRST_CAPTIVE) & 1) == colour:
                if first < 0:
                    first = (neighbour - FIRST_CAPTIVE) >> 1
                else:
                    second = (neighbour - FIRST_CAPTIVE) >> 1
        if liberty:
            new = 1 + colour
        elif first < 0:
            new = FIRST_CAPTIVE + 2 * width + colour
        else:
            label = first if second < 0 or first < second else second
            new = FIRST_CAPTIVE + 2 * label + colour
        if first >= 0:
            relabel(work, width, first, new)
        if second >= 0:
            relabel(work, width, second, new)
    leaving = work[column]
    work[column] = new
    if above and leaving >= FIRST_CAPTIVE:
        alive = False
        for i in range(width):
            if work[i] == leaving:
                alive = True
        if not alive:
            return NO_STATE
    return canonical_key(work, width, renumber, symmetric)


@njit(cache=True)
def table_shift(rows):
    """The right shift that turns a hashed key into a row of a table of ``rows`` rows (a power of two)."""
    bits = 0
    while (1 << bits) < rows:
        bits += 1
    return np.uint64(64 - bits)


@njit(cache=True)
def empty_table(rows, primes):
    """A table of ``rows`` rows (a power of two), each a key (``NO_STATE`` when free) followed by
    its counts modulo each prime, so that finding a key and adding to its counts touches one
    or two cache lines."""
    table = np.zeros((rows, 1 + primes.shape[0]), np.uint64)
    table[:, 0] = NO_STATE
    return table


@njit(cache=True)
def add_row(table, key, source, row, primes):
    """Add the counts of ``source[row]`` to the row of ``key`` in ``table`` (modulo each prime),
    or put them in a free row; returns 1 when the key is new, else 0."""
    mask = np.uint64(table.shape[0] - 1)
    slot = (key * HASH_MULTIPLIER) >> table_shift(table.shape[0])
    while table[slot, 0] != key:
        if table[slot, 0] == NO_STATE:
            table[slot, 0] = key
            for q in range(primes.shape[0]):
                table[slot, 1 + q] = source[row, 1 + q]
            return 1
        slot = (slot + np.uint64(1)) & mask
    for q in range(primes.shape[0]):
        total = table[slot, 1 + q] + source[row, 1 + q]
        if total >= primes[q]:
            total -= primes[q]
        table[slot, 1 + q] = total
    return 0


@njit(cache=True)
def grown(table, primes):
    """The same rows in a table twice as long."""
    larger = empty_table(2 * table.shape[0], primes)
    for row in range(table.shape[0]):
        if table[row, 0] != NO_STATE:
            add_row(larger, table[row, 0], table, row, primes)
    return larger


MOST_FULL = 0.7  # the share of a table's rows in use beyond which it is doubled


BATCH = 256  # states whose successors are hashed together, their rows fetched before use


@njit(cache=True)
def successors(table, first, last, width, column, above, left, keys, sources, renumber, codes, work, symmetric):
    """The successors of the states in rows ``first``..``last`` − 1 of ``table``, into ``keys``
    with the row of each in ``sources``; returns how many."""
    made = 0
    mirror = np.uint64(0)
    for row in range(first, last):
        if table[row, 0] == NO_STATE:
            continue
        decode(table[row, 0], width, codes)
        if symmetric:
            mirror = swapped_key(codes, width)
        for placement in range(3):
            key = successor(
                table[row, 0], mirror, codes, work, width, column, above, left, placement, renumber, symmetric
            )
            if key != NO_STATE:
                keys[made] = key
                sources[made] = row
                made += 1
    return made


@njit(cache=True)
def touch(table, keys, made):
    """Read the home row of each key, all loads independent, so that the memory fetches
    overlap and the insertions that follow find the rows in cache."""
    shift = table_shift(table.shape[0])
    seen = np.uint64(0)
    for i in range(made):
        seen ^= table[(keys[i] * HASH_MULTIPLIER) >> shift, 0]
    return seen


@njit(cache=True)
def advance(table, width, column, above, left, primes, rows, symmetric):
    """Place the point of ``column`` in every state of ``table``.  Returns the table of the
    states after the step, begun with ``rows`` rows and doubled whenever it fills beyond
    ``MOST_FULL``, and their number; with ``symmetric``, one key for each pair of states
    exchanged by the colours, holding the pair's total."""
    after = empty_table(rows, primes)
    limit = int(MOST_FULL * rows)
    codes = np.zeros(width, np.int64)
    work = np.zeros(width, np.int64)
    renumber = np.empty(width + 1, np.int64)
    keys = np.empty(3 * BATCH, np.uint64)
    sources = np.empty(3 * BATCH, np.int64)
    found = 0
    seen = np.uint64(0)
    for first in range(0, table.shape[0], BATCH):
        last = min(first + BATCH, table.shape[0])
        made = successors(
            table, first, last, width, column, above, left, keys, sources, renumber, codes, work, symmetric
        )
        while found + made > limit:
            after = grown(after, primes)
            limit = int(MOST_FULL * after.shape[0])
        seen ^= touch(after, keys, made)
        for i in range(made):
            found += add_row(after, keys[i], table, sources[i], primes)
    if seen == NO_STATE and found < 0:
        found = 0  # keeps the reads of ``touch`` from being optimised away
    return after, found


@njit(cache=True)
def settled_total(table, width, primes):
    """The counts, summed modulo each prime, of the states with no libertyless chain."""
    totals = np.zeros(primes.shape[0], np.uint64)
    codes = np.zeros(width, np.int64)
    for row in range(table.shape[0]):
        if table[row, 0] == NO_STATE:
            continue
        decode(table[row, 0], width, codes)
        settled = True
        for j in range(width):
            if codes[j] >= FIRST_CAPTIVE:
                settled = False
        if settled:
            for q in range(primes.shape[0]):
                total = totals[q] + table[row, 1 + q]
                if total >= primes[q]:
                    total -= primes[q]
                totals[q] = total
    return totals


@njit(cache=True)
def gathered(rows, primes, size):
    """A table of ``size`` rows (a power of two, doubled as it fills) holding the rows of
    ``rows`` (each a key and its counts; a key may come several times, its counts are then
    added modulo each prime), and the number of distinct keys."""
    table = empty_table(size, primes)
    limit = int(MOST_FULL * size)
    found = 0
    for row in range(rows.shape[0]):
        if found + 1 > limit:
            table = grown(table, primes)
            limit = int(MOST_FULL * table.shape[0])
        found += add_row(table, rows[row, 0], rows, row, primes)
    return table, found
