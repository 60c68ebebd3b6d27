"""Legal positions of grids by the packed program, the states of every step split into shards
by ranges of a hash of the state.

The packed count (:mod:`gorules.impl.counting.packed`) holds all the border states of a step
in one hash table.  Here they are split into 2^bits shards by the top bits of a second hash
of the key (not the table's, whose top bits place a key within its table): each shard's
table is made from the rows sent to it, the step is taken on that shard alone (the kernel's
``advance``), and the rows it makes are sent on to the shards of their own keys for the next
step, where the counts of a key sent from several shards are added.  The successors of a
state depend on that state alone and the counts of a step are sums over the states before
it, so the shards of a step can be computed apart, each holding one shard's table, and only
the rows sent between shards pass from one step to the next: the way to count a grid whose
states for one modulus do not fit one machine.  Here the shards are computed one after the
other in this process, so that the sharded program is checked against the one-table program.
"""

from __future__ import annotations

import math

import numpy as np

from gorules.impl.counting.packed import WIDEST, PackedCounter
from gorules.impl.kernels.frontier import MOST_FULL, NO_STATE, advance, gathered, settled_total

SHARD_MULTIPLIER = np.uint64(0xBF58476D1CE4E5B9)  # odd, and not the table's multiplier


def shard_of(keys: np.ndarray, bits: int) -> np.ndarray:
    """The shard of each key: the top ``bits`` bits of its second hash (0 when unsharded)."""
    if bits == 0:
        return np.zeros(keys.shape[0], np.int64)
    return ((keys * SHARD_MULTIPLIER) >> np.uint64(64 - bits)).astype(np.int64)


def sent(table: np.ndarray, bits: int) -> list[np.ndarray]:
    """The rows in use of a table, split by the shard of their key (shard 0 first)."""
    rows = table[table[:, 0] != NO_STATE]
    shards = shard_of(rows[:, 0], bits)
    order = np.argsort(shards, kind="stable")
    bounds = np.searchsorted(shards[order], np.arange((1 << bits) + 1))
    return [rows[order[bounds[j] : bounds[j + 1]]] for j in range(1 << bits)]


def table_rows(states: int) -> int:
    """The rows to begin a table of ``states`` keys with (a power of two; doubled as it fills)."""
    return 1 << max(4, math.ceil(math.log2(states / MOST_FULL + 1)))


def joined(pieces: list[np.ndarray], primes: np.ndarray) -> np.ndarray:
    """The rows of several pieces in one array (a key may come more than once)."""
    pieces = [piece for piece in pieces if piece.shape[0]]
    return np.concatenate(pieces) if pieces else np.empty((0, 1 + primes.shape[0]), np.uint64)


def shard_step(
    pieces: list[np.ndarray],
    width: int,
    column: int,
    above: bool,
    primes: np.ndarray,
    bits: int,
    colour_symmetry: bool = True,
) -> tuple[list[np.ndarray], int]:
    """One shard's part of a step: its table made from the rows sent to it (``pieces``), the
    point of ``column`` placed in each of its states, and the rows made, split by the shard
    of their key; with the number of states the shard held.  It depends on nothing but its
    arguments, so that it can run wherever the shard is.  With ``colour_symmetry``, one key
    for each pair of states exchanged by the colours (as in the one-table count)."""
    rows = joined(pieces, primes)
    if rows.shape[0] == 0:
        return [rows for _ in range(1 << bits)], 0
    table, states = gathered(rows, primes, table_rows(rows.shape[0]))
    after, _ = advance(table, width, column, above, column > 0, primes, table_rows(states), colour_symmetry)
    return sent(after, bits), states


def shard_total(pieces: list[np.ndarray], width: int, primes: np.ndarray) -> tuple[np.ndarray, int]:
    """The counts, modulo each prime, of the settled states among the rows sent to one shard
    after the last step, and the number of its states."""
    rows = joined(pieces, primes)
    if rows.shape[0] == 0:
        return np.zeros(primes.shape[0], np.uint64), 0
    table, states = gathered(rows, primes, table_rows(rows.shape[0]))
    return settled_total(table, width, primes), states


class ShardedCounter:
    """The packed dynamic program on a grid of ``width`` columns, counts modulo ``primes``,
    each step's states in 2^``bits`` shards; with ``colour_symmetry``, one key for each pair
    of states exchanged by the colours."""

    def __init__(self, width: int, primes: tuple[int, ...], bits: int, colour_symmetry: bool = True):
        if not 1 <= width <= WIDEST:
            raise ValueError(f"the packed count takes 1 to {WIDEST} columns, not {width}")
        if not 0 <= bits <= 16:
            raise ValueError(f"a count is split into 2^0 to 2^16 shards, not 2^{bits}")
        self.width, self.bits, self.colour_symmetry = width, bits, colour_symmetry
        self.primes = np.array(primes, dtype=np.uint64)
        self.largest = 0  # the most states after a step, all shards together
        self.largest_shard = 0  # the most states one shard held

    def step(self, inbound: list[np.ndarray], column: int, above: bool) -> list[np.ndarray]:
        """Place the point of ``column`` in every shard: the rows each shard is sent."""
        outbound: list[list[np.ndarray]] = [[] for _ in inbound]
        total = 0
        for rows in inbound:
            pieces, states = shard_step([rows], self.width, column, above, self.primes, self.bits, self.colour_symmetry)
            self.largest_shard = max(self.largest_shard, states)
            total += states
            for shard, piece in enumerate(pieces):
                outbound[shard].append(piece)
        self.largest = max(self.largest, total)  # the states after the step before
        return [joined(parts, self.primes) for parts in outbound]

    def run(self, rows: int) -> list[int]:
        """The number of legal positions modulo each prime, after ``rows`` rows."""
        inbound = sent(PackedCounter(self.width, tuple(int(p) for p in self.primes)).start(), self.bits)
        for row in range(rows):
            for column in range(self.width):
                inbound = self.step(inbound, column, row > 0)
        totals = np.zeros(self.primes.shape[0], np.uint64)
        total = 0
        for shard_rows in inbound:
            settled, states = shard_total([shard_rows], self.width, self.primes)
            self.largest_shard = max(self.largest_shard, states)
            total += states
            totals = (totals + settled) % self.primes
        self.largest = max(self.largest, total)
        return [int(t) for t in totals]


__all__ = ["ShardedCounter", "sent", "shard_of", "shard_step", "shard_total"]
