"""Legal positions of grids by the frontier dynamic program on packed states, compiled.

The same dynamic program as :func:`gorules.impl.counting.positions.count_legal`, on grids
only, placed row by row across the shorter side (Tromp and Farnebäck, *Combinatorics of
Go*, Computers and Games 2006): a border state is one machine word
(:mod:`gorules.impl.kernels.frontier`), the states of a step sit in a hash table held in a
numpy array, and a count is kept modulo several primes below 2^62 at once.  Their product
exceeds 3^(rows·columns), which bounds the number of legal positions, so the Chinese
remainder theorem gives the exact count back.  By default a table holds one key for each
pair of states exchanged by the colours, with the pair's total (the kernel's docstring says
why that is exact), so about half the states; ``colour_symmetry=False`` keeps every state.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from gorules.impl.kernels.frontier import MOST_FULL, NO_STATE, advance, empty_table, settled_total
from gorules.spec.graph import Graph

WIDEST = 13  # columns: 29^13 < 2^64, so a border state fits one word
PRIME_BITS = 62
GROWTH_SLACK = 1.05  # room for a little more growth than the same column's step had one row earlier


@functools.cache
def word_primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2^62 (two residues add without overflow in a word)."""
    from sympy import prevprime

    primes: list[int] = []
    below = 1 << PRIME_BITS
    while len(primes) < count:
        below = prevprime(below)
        primes.append(below)
    return tuple(primes)


def primes_for(points: int) -> tuple[int, ...]:
    """Enough word primes that their product exceeds 3^points, a bound on the legal positions."""
    needed = max(1, math.ceil(points * math.log2(3) / (PRIME_BITS - 1)))
    primes = word_primes(needed)
    assert math.prod(primes) > 3**points
    return primes


def chinese_remainder(residues: list[int], primes: tuple[int, ...]) -> int:
    """The least non-negative integer with these residues modulo these distinct primes."""
    modulus = math.prod(primes)
    total = 0
    for residue, prime in zip(residues, primes, strict=True):
        rest = modulus // prime
        total += residue * rest * pow(rest, -1, prime)
    return total % modulus


def fits(graph: Graph) -> bool:
    """Whether the packed count applies: an undirected grid with at most WIDEST columns on its shorter side."""
    return graph.is_grid and not graph.directed and min(graph.shape) <= WIDEST


class PackedCounter:
    """The packed dynamic program on a grid of ``width`` columns, counts modulo ``primes``;
    with ``colour_symmetry``, one key for each pair of states exchanged by the colours."""

    def __init__(self, width: int, primes: tuple[int, ...], colour_symmetry: bool = True):
        if not 1 <= width <= WIDEST:
            raise ValueError(f"the packed count takes 1 to {WIDEST} columns, not {width}")
        self.width = width
        self.primes = np.array(primes, dtype=np.uint64)
        self.colour_symmetry = colour_symmetry
        self.largest = 0
        self.sizes: list[int] = []  # the states held after each step

    def start(self) -> np.ndarray:
        """The one state before any point is placed (every column code 0), counted once."""
        table = empty_table(2, self.primes)
        table[0] = 1
        table[0, 0] = 0
        return table

    def rows_for(self, states: int, growth: float) -> int:
        """The rows to begin the next table with, for ``growth`` times as many states as now
        (a table is doubled when it fills, so this is a guess, not a bound)."""
        return 1 << max(4, math.ceil(math.log2(GROWTH_SLACK * growth * states / MOST_FULL + 1)))

    def run(self, rows: int, progress=None) -> list[int]:
        """The number of legal positions modulo each prime, after ``rows`` rows.

        Every step of the first row at most triples the states; a later step grows them about
        as the same column's step did one row earlier."""
        table, states = self.start(), 1
        growth = [3.0] * self.width
        for row in range(rows):
            for column in range(self.width):
                size = self.rows_for(states, growth[column])
                table, after = advance(
                    table, self.width, column, row > 0, column > 0, self.primes, size, self.colour_symmetry
                )
                growth[column] = after / states
                states = after
                self.sizes.append(states)
                self.largest = max(self.largest, states)
                if progress is not None:
                    progress.update(1)
        return [int(t) for t in settled_total(table, self.width, self.primes)]


# The cost model of the packed count, fitted to square grids (benchmarks/README.md,
# ``bench_counting.py --packed``): about STATES_AT_WIDTH_9 * STATE_GROWTH^(w - 9) border
# states at width w once the rows repeat, half as many keys when a key stands for a pair of
# states exchanged by the colours, SECONDS_PER_STATE_STEP for each key at each
# step, TABLES_AT_ONCE tables of rows of a key and one count per prime, at most MOST_FULL
# full (the table read, the one written and, while that one is doubled, its successor; each
# of at most the size of the largest), and the interpreter with its compiled kernels
# (BASE_BYTES) besides.
STATES_AT_WIDTH_9 = 315_165
STATE_GROWTH = 4.15
SECONDS_PER_STATE_STEP = 6e-7
BASE_BYTES = 2.5e8
TABLES_AT_ONCE = 3


@dataclass(frozen=True)
class PackedCost:
    """What the packed count is expected to need: border states, seconds and bytes (estimates)."""

    width: int
    states: float
    seconds: float
    bytes: float


def packed_cost(graph: Graph, moduli: int | None = None, shards: int = 1, colour_symmetry: bool = True) -> PackedCost:
    """The estimated cost of the packed count of a grid (see the constants above), keeping
    ``moduli`` counts a state (default: as many as the exact count needs): one modulus is
    one task of a count split by modulus, whose table rows are a key and one count.  With
    ``shards``, the cost of one shard of the states by ranges of their hash (a share of the
    states, of the processor time and of the tables).  With ``colour_symmetry`` (as the count
    runs by default), a key stands for a pair of states, so the tables hold half as many."""
    rows, columns = graph.shape
    width, length = min(rows, columns), max(rows, columns)
    pairs = 2 if colour_symmetry else 1
    states = min(STATES_AT_WIDTH_9 * STATE_GROWTH ** (width - 9), 3.0**graph.order) / shards / pairs
    steps = width * length
    row_bytes = 8 * (1 + (len(primes_for(graph.order)) if moduli is None else moduli))
    table_rows = 2 ** math.ceil(math.log2(GROWTH_SLACK * states / MOST_FULL + 1))
    return PackedCost(
        width, states, SECONDS_PER_STATE_STEP * states * steps, BASE_BYTES + TABLES_AT_ONCE * table_rows * row_bytes
    )


def residues_modulo(
    graph: Graph, primes: tuple[int, ...], progress=None, colour_symmetry: bool = True
) -> tuple[list[int], int]:
    """The number of legal positions of a grid modulo each of ``primes`` (any word primes,
    one or several: the table keeps one count a prime, so fewer primes take fewer bytes a
    state), and the largest number of border states held after a step."""
    if not fits(graph):
        raise ValueError(f"{graph.name}: the packed count takes undirected grids of at most {WIDEST} columns")
    rows, columns = graph.shape
    counter = PackedCounter(min(rows, columns), primes, colour_symmetry)
    residues = counter.run(max(rows, columns), progress)
    return residues, counter.largest


def count_legal_grid(
    graph: Graph, progress=None, primes: tuple[int, ...] | None = None, colour_symmetry: bool = True
) -> tuple[int, int]:
    """The number of legal positions of a grid, exactly, by the packed dynamic program, and
    the largest number of border states held after a step."""
    primes = primes_for(graph.order) if primes is None else primes
    residues, largest = residues_modulo(graph, primes, progress, colour_symmetry)
    return chinese_remainder(residues, primes), largest


__all__ = [
    "NO_STATE",
    "PackedCost",
    "PackedCounter",
    "chinese_remainder",
    "count_legal_grid",
    "fits",
    "packed_cost",
    "primes_for",
    "residues_modulo",
    "word_primes",
]
