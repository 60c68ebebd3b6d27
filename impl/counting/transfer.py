"""Transfer matrices for strips and cycles, and what sympy derives from them.

On a strip of k rows (k×n, n growing) the frontier dynamic program of
:mod:`impl.counting.positions` places one column at a time, and every column but the first is
placed by the same steps.  The border states after a column are the states of a finite
automaton, and placing a column is a fixed integer matrix T:

    L(k×n) = init · T^(n-1) · accept

where ``init`` counts the states after the first column and ``accept`` marks the states
in which every chain has a liberty.  A cycle C_n is the same with one more frontier
point, the first point, kept until the last point closes the ring:

    L(C_n) = init · T^(n-3) · close          (n ≥ 3)

From the matrix, sympy gives the characteristic polynomial (a recurrence by
Cayley–Hamilton); from the sequence, the Berlekamp–Massey algorithm over the rationals
gives the shortest recurrence, hence the rational generating function P(x)/Q(x) and the
growth constant, the largest root of the recurrence's characteristic polynomial.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from gorules.impl.counting.positions import FrontierCounter, Step, is_captive, steps_of
from gorules.spec.graph import grid, make_graph


@dataclass
class TransferSystem:
    """a(m) = init · T^m · final, over the border states reachable from ``init``."""

    name: str
    first: int  # the board size n that a(0) counts
    states: list[tuple]
    init: list[int]
    matrix: list[list[int]]  # matrix[i][j]: ways from states[i] to states[j]
    final: list[int]
    notes: str = ""

    def term(self, m: int) -> int:
        """a(m), by m vector–matrix products (exact integers)."""
        vector = list(self.init)
        for _ in range(m):
            vector = multiply(vector, self.matrix)
        return sum(x * y for x, y in zip(vector, self.final))

    def terms(self, count: int) -> list[int]:
        """a(0), …, a(count-1)."""
        found = []
        vector = list(self.init)
        for _ in range(count):
            found.append(sum(x * y for x, y in zip(vector, self.final)))
            vector = multiply(vector, self.matrix)
        return found

    def counts(self, count: int) -> dict[int, int]:
        """{n: L(n)} for the first ``count`` board sizes."""
        return {self.first + m: a for m, a in enumerate(self.terms(count))}


def multiply(vector: Sequence[int], matrix: Sequence[Sequence[int]]) -> list[int]:
    """The row vector times the matrix."""
    result = [0] * len(matrix)
    for i, x in enumerate(vector):
        if x:
            for j, y in enumerate(matrix[i]):
                if y:
                    result[j] += x * y
    return result


def run_block(counter: FrontierCounter, state: tuple, block: Sequence[Step]) -> dict:
    """The border states, with multiplicities, reached from one state by a block of steps."""
    states = {state: 1}
    for step in block:
        states = counter.advance(states, step)
    return dict(states)


def close_states(init: dict, block: Sequence[Step], counter: FrontierCounter) -> tuple[list, dict]:
    """Every state reachable from ``init`` by repeating the block, and the block's transitions."""
    order = list(init)
    moves = {}
    queue = list(init)
    seen = set(init)
    while queue:
        state = queue.pop()
        moves[state] = run_block(counter, state, block)
        for successor in moves[state]:
            if successor not in seen:
                seen.add(successor)
                order.append(successor)
                queue.append(successor)
    order.sort()
    return order, moves


def build_system(
    name: str,
    first: int,
    prefix: Sequence[Step],
    block: Sequence[Step],
    final: Callable[[tuple], int],
    counter: FrontierCounter,
) -> TransferSystem:
    """The transfer system of a family: ``prefix`` places the start, ``block`` repeats, and
    ``final(state)`` counts the legal completions of a state."""
    init = run_block(counter, (), prefix)
    states, moves = close_states(init, block, counter)
    index = {s: i for i, s in enumerate(states)}
    matrix = [[0] * len(states) for _ in states]
    for s, successors in moves.items():
        for t, ways in successors.items():
            matrix[index[s]][index[t]] += ways
    return TransferSystem(name, first, states, [init.get(s, 0) for s in states], matrix, [final(s) for s in states])


def strip_system(rows: int) -> TransferSystem:
    """The transfer system of the rows×n strips, a(m) = L(rows×(m+1))."""
    steps = steps_of(grid(rows, 3), [r * 3 + c for c in range(3) for r in range(rows)])
    counter = FrontierCounter()

    def accept(state: tuple) -> int:
        """1 if no chain of the state lacks a liberty (the strip may end here)."""
        return int(not any(is_captive(c) for c in state))

    system = build_system(f"{rows}xn", 1, steps[:rows], steps[rows : 2 * rows], accept, counter)
    system.notes = f"L({rows}×n) = init · T^(n-1) · accept, n ≥ 1"
    return system


def cycle_system() -> TransferSystem:
    """The transfer system of the cycles, a(m) = L(C_{m+3})."""
    steps = steps_of(make_graph(5, [(i, (i + 1) % 5) for i in range(5)], "cycle:5"), range(5))
    counter = FrontierCounter()
    closing = steps[-1]

    def close(state: tuple) -> int:
        """The number of ways to place the last point, joining both ends of the ring."""
        return len([s for s in counter.successors(state, closing) if s == ()])

    system = build_system("C_n", 3, steps[:2], steps[2:3], close, counter)
    system.notes = "L(C_n) = init · T^(n-3) · close, n ≥ 3"
    return system


def berlekamp_massey(sequence: Sequence[int]) -> list[Fraction]:
    """The shortest c₁…c_L with a(m) = c₁·a(m-1) + … + c_L·a(m-L) for all m ≥ L (over ℚ)."""
    connection = [Fraction(1)]  # C(x) = 1 - c₁x - … - c_L x^L, as coefficients
    before = [Fraction(1)]  # C(x) before the last change of length
    length, gap, last = 0, 1, Fraction(1)
    for m, _value in enumerate(sequence):
        discrepancy = sum(connection[i] * sequence[m - i] for i in range(min(len(connection), m + 1)))
        if discrepancy == 0:
            gap += 1
            continue
        updated = connection + [Fraction(0)] * max(0, len(before) + gap - len(connection))
        for i, c in enumerate(before):
            updated[i + gap] -= discrepancy / last * c
        if 2 * length <= m:
            before, length, last, gap = connection, m + 1 - length, discrepancy, 1
        else:
            gap += 1
        connection = updated
    connection = connection + [Fraction(0)] * (length + 1 - len(connection))
    return [-c for c in connection[1 : length + 1]]


@dataclass
class Derivation:
    """What sympy derives for a family: recurrence, generating function, growth constant."""

    name: str
    first: int
    terms: list[int]
    recurrence: list[int]  # L(n) = Σ recurrence[i-1] · L(n-i)
    characteristic: sympy.Expr
    matrix_characteristic: sympy.Expr
    generating_function: sympy.Expr
    growth: sympy.Expr
    growth_value: float
    states: int
    extra: dict = field(default_factory=dict)

    def recurrence_text(self) -> str:
        """The recurrence written out, e.g. L(n) = 3·L(n-1) - L(n-2) + L(n-3)."""
        parts = []
        for i, c in enumerate(self.recurrence, start=1):
            if c == 0:
                continue
            sign = "-" if c < 0 else "+"
            size = abs(c)
            factor = "" if size == 1 else f"{size}·"
            parts.append(f"{sign} {factor}L(n-{i})")
        text = " ".join(parts).lstrip("+ ").strip()
        if text.startswith("- "):
            text = "-" + text[2:]
        return f"L(n) = {text}  (n ≥ {self.first + len(self.recurrence)})"


def derive(system: TransferSystem, extra_terms: int = 8) -> Derivation:
    """The recurrence, generating function and growth constant of a transfer system."""
    x = sympy.Symbol("x")
    size = len(system.states)
    terms = system.terms(2 * size + extra_terms)
    coefficients = berlekamp_massey(terms)
    if any(c.denominator != 1 for c in coefficients):
        raise ArithmeticError(f"{system.name}: the shortest recurrence is not over the integers")
    recurrence = [int(c) for c in coefficients]
    order = len(recurrence)
    characteristic = sympy.Poly([1] + [-c for c in recurrence], x).as_expr()
    matrix_characteristic = sympy.Matrix(system.matrix).charpoly(x).as_expr()
    denominator = sympy.expand(1 - sum(c * x ** (i + 1) for i, c in enumerate(recurrence)))
    series = sum(a * x**m for m, a in enumerate(terms[:order]))
    numerator = sum(sympy.expand(series * denominator).coeff(x, k) * x**k for k in range(order))
    generating = sympy.factor(x**system.first * numerator / denominator)
    growth, growth_value = largest_root(characteristic, x)
    return Derivation(
        system.name,
        system.first,
        terms,
        recurrence,
        characteristic,
        matrix_characteristic,
        generating,
        growth,
        growth_value,
        size,
    )


def largest_root(polynomial: sympy.Expr, x: sympy.Symbol) -> tuple[sympy.Expr, float]:
    """The largest real root of a polynomial, exact (a CRootOf when needed), and its value.

    For a sequence that counts boards the dominant root is real and positive
    (Perron–Frobenius); an ArithmeticError says if a complex root has a larger modulus.
    """
    poly = sympy.Poly(polynomial, x)
    real = poly.real_roots()
    if not real:
        return sympy.Integer(0), 0.0
    best = max(real)
    value = float(best.evalf(20))
    largest_modulus = max(abs(complex(r)) for r in poly.nroots(n=20))
    if largest_modulus > abs(value) * (1 + 1e-9):
        raise ArithmeticError(f"a complex root of {polynomial} dominates the largest real root")
    return best, value


def derivation_text(d: Derivation) -> str:
    """A few lines stating a derivation."""
    sympy.Symbol("x")
    return "\n".join(
        [
            f"{d.name}: {d.states} border states",
            f"  first terms: {', '.join(str(t) for t in d.terms[:8])}",
            f"  {d.recurrence_text()}",
            f"  characteristic polynomial: {d.characteristic}",
            f"  transfer matrix characteristic polynomial: {sympy.factor(d.matrix_characteristic)}",
            f"  generating function Σ L(n) x^n = {d.generating_function}",
            f"  growth constant: {d.growth_value:.12f} (root of {sympy.factor(d.characteristic)})",
        ]
    )
