"""Transfer matrices of strips and cycles, and what sympy derives from them."""

from __future__ import annotations

from fractions import Fraction

import sympy

from gorules.impl.counting.positions import count_legal
from gorules.impl.counting.transfer import berlekamp_massey, cycle_system, derive, strip_system
from gorules.spec.graph import parse_graph

x = sympy.Symbol("x")


def test_one_row_strip_gives_the_published_terms_and_recurrence():
    d = derive(strip_system(1))
    assert d.terms[:8] == [1, 5, 15, 41, 113, 313, 867, 2401]
    assert d.recurrence == [3, -1, 1]
    assert sympy.expand(d.characteristic - (x**3 - 3 * x**2 + x - 1)) == 0
    assert abs(d.growth_value - 2.769292354239) < 1e-9


def test_two_row_strip_gives_the_published_terms():
    system = strip_system(2)
    assert system.terms(4) == [5, 57, 489, 4125]


def test_strips_agree_with_the_frontier_program():
    for rows in (1, 2, 3):
        system = strip_system(rows)
        counts = system.counts(7)
        assert counts == {n: count_legal(parse_graph(f"grid:{rows}x{n}")) for n in range(1, 8)}


def test_cycles_agree_with_the_frontier_program():
    counts = cycle_system().counts(8)
    assert counts == {n: count_legal(parse_graph(f"cycle:{n}")) for n in range(3, 11)}


def test_recurrence_holds_far_beyond_the_terms_it_was_found_from():
    for system in (strip_system(2), cycle_system()):
        d = derive(system)
        terms = system.terms(len(d.terms) + 15)
        k = len(d.recurrence)
        assert all(
            terms[m] == sum(c * terms[m - 1 - i] for i, c in enumerate(d.recurrence)) for m in range(k, len(terms))
        )


def test_shortest_recurrence_divides_the_matrix_characteristic_polynomial():
    for system in (strip_system(1), strip_system(2), cycle_system()):
        d = derive(system)
        assert sympy.rem(d.matrix_characteristic, d.characteristic, x) == 0


def power_series(expression, count: int) -> list:
    """The first ``count`` coefficients of a rational function of x, by long division."""
    numerator, denominator = sympy.fraction(sympy.together(expression))
    p = sympy.Poly(numerator, x).all_coeffs()[::-1]
    q = sympy.Poly(denominator, x).all_coeffs()[::-1]
    coefficients = []
    for k in range(count):
        value = (p[k] if k < len(p) else 0) - sum(q[j] * coefficients[k - j] for j in range(1, min(k, len(q) - 1) + 1))
        coefficients.append(value / q[0])
    return coefficients


def test_generating_function_expands_to_the_counts():
    for system in (strip_system(1), strip_system(2), cycle_system()):
        d = derive(system)
        series = power_series(d.generating_function, system.first + 12)
        assert series[: system.first] == [0] * system.first
        assert series[system.first :] == system.terms(12)


def test_growth_constant_is_the_limit_of_ratios():
    system = strip_system(2)
    d = derive(system)
    terms = system.terms(60)
    assert abs(terms[-1] / terms[-2] - d.growth_value) < 1e-9


def test_berlekamp_massey_finds_fibonacci():
    fibonacci = [1, 1]
    for _ in range(20):
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    assert berlekamp_massey(fibonacci) == [Fraction(1), Fraction(1)]


def test_berlekamp_massey_on_a_sequence_that_starts_late():
    sequence = [7, 0, 0] + [2**k for k in range(12)]
    coefficients = berlekamp_massey(sequence)
    k = len(coefficients)
    assert all(
        sequence[m] == sum(c * sequence[m - 1 - i] for i, c in enumerate(coefficients)) for m in range(k, len(sequence))
    )
