"""The spec's definitions over every graph at once: an uninterpreted sort of points.

Points are the elements of an uninterpreted sort ``Point`` and ``adj`` an arbitrary binary
relation on it: no symmetry, no finiteness, loops allowed unless a query forbids them, so a
formula proved here holds on every graph and every digraph.  Colours are an enumeration.
A board is a Python function from a point term to a colour term: a free function symbol
for a board the statement quantifies over, an ``If`` term for ``update`` and ``clear``.

``reaches(b, ·, c)`` is a predicate symbol R constrained by what the least fixed point is
known to satisfy (``proofs/coq/Reaches.v`` proves each fact about the inductive
definition):

- *closure*: b(v) = c ⇒ R(v), and v ↔ w ∧ b(w) ∈ {b(v), c} ∧ R(w) ⇒ R(v)
  (``reaches_closed``);
- *minimality, one set at a time*: for a set S given as a formula, if S is closed then
  R ⊆ S (``reaches_least``); a proof states the instance it uses, so the solver never has
  to find an induction by itself;
- *ranked support*, for counterexamples: R(v) ⇒ b(v) = c, or a step to some w in R of
  smaller rank, ranks being integers ≥ 0 (``supported_reaches``).  With closure, R is then
  exactly the least fixed point on a finite model, so a model is a real board.

The greatest fixed point of a mutant is pinned down dually: R is a post-fixed point (so
R ⊆ gfp) and its complement has ranked support for the dual equation (so gfp ⊆ R).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import z3

Point = z3.DeclareSort("Point")
Colour, (EMPTY, BLACK, WHITE) = z3.EnumSort("Colour", ["Empty", "Black", "White"])
NAME = {"Empty": ".", "Black": "B", "White": "W"}

Board = Callable[[z3.ExprRef], z3.ExprRef]


def adj(v: z3.ExprRef, w: z3.ExprRef) -> z3.BoolRef:
    """v ↔ w: the arbitrary adjacency relation (an arc from v to w)."""
    return z3.Function("adj", Point, Point, z3.BoolSort())(v, w)


def opponent(p: z3.ExprRef) -> z3.ExprRef:
    """p*: White for Black, Black otherwise (p is a player wherever it is used)."""
    return z3.If(p == BLACK, WHITE, BLACK)


def swap(c: z3.ExprRef) -> z3.ExprRef:
    """The colour with Black and White exchanged (Empty stays)."""
    return z3.If(c == BLACK, WHITE, z3.If(c == WHITE, BLACK, EMPTY))


def is_player(p: z3.ExprRef) -> z3.BoolRef:
    """p is Black or White."""
    return z3.Or(p == BLACK, p == WHITE)


def board_symbol(name: str) -> Board:
    """A board the statement quantifies over: a free function Point → Colour."""
    f = z3.Function(name, Point, Colour)
    return lambda x: f(x)


def update(b: Board, m: z3.ExprRef, c: z3.ExprRef) -> Board:
    """b[m ↦ c]."""
    return lambda x: z3.If(x == m, c, b(x))


def emptied(small: Board, large: Board, x: z3.ExprRef) -> z3.BoolRef:
    """small(x) is large(x) or Empty: small is large with some stones removed, at x."""
    return z3.Or(small(x) == large(x), small(x) == EMPTY)


def step(b: Board, v, w, c, written: bool = False) -> z3.BoolRef:
    """The colours allow a step of reaches from v to w: b(w) ∈ {b(v), c} (as written: b(w) = b(v))."""
    same = b(w) == b(v)
    return same if written else z3.Or(same, b(w) == c)


@dataclass
class Reaching:
    """reaches(b, ·, c) as a predicate symbol with the facts asserted about it."""

    name: str
    board: Board
    colour: z3.ExprRef
    written: bool = False
    greatest: bool = False
    facts: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.symbol = z3.Function(self.name, Point, z3.BoolSort())

    def __call__(self, x: z3.ExprRef) -> z3.BoolRef:
        return self.symbol(x)

    def base(self, v) -> z3.BoolRef:
        """b(v) = c."""
        return self.board(v) == self.colour

    def step(self, v, w) -> z3.BoolRef:
        """An arc from v to w that the colours allow."""
        return z3.And(adj(v, w), step(self.board, v, w, self.colour, self.written))

    def closed(self, S: Callable[[z3.ExprRef], z3.BoolRef]) -> z3.BoolRef:
        """S is closed under the two rules of reaches (``closed`` in Reaches.v)."""
        v, w = z3.Consts(f"{self.name}_cv {self.name}_cw", Point)
        return z3.And(
            z3.ForAll([v], z3.Implies(self.base(v), S(v))),
            z3.ForAll([v, w], z3.Implies(z3.And(self.step(v, w), S(w)), S(v))),
        )

    def closure(self) -> z3.BoolRef:
        """R itself is closed: it contains the least fixed point (``reaches_closed``)."""
        return self.closed(self)

    def least_within(self, S: Callable[[z3.ExprRef], z3.BoolRef]) -> z3.BoolRef:
        """The instance of minimality for S: if S is closed, R ⊆ S (``reaches_least``)."""
        v = z3.Const(f"{self.name}_lv", Point)
        return z3.Implies(self.closed(S), z3.ForAll([v], z3.Implies(self(v), S(v))))

    def ranked_support(self) -> z3.BoolRef:
        """Every point of R is a base or steps to a point of R of smaller rank ≥ 0
        (``supported_reaches``): R is contained in the least fixed point."""
        rank = z3.Function(f"{self.name}_rank", Point, z3.IntSort())
        v, w = z3.Consts(f"{self.name}_sv {self.name}_sw", Point)
        support = z3.Exists([w], z3.And(self.step(v, w), self(w), rank(w) < rank(v)))
        return z3.ForAll([v], z3.And(rank(v) >= 0, z3.Implies(self(v), z3.Or(self.base(v), support))))

    def exact(self) -> list:
        """The facts that make R the fixed point the rules ask for, on every finite model."""
        if not self.greatest:
            return [self.closure(), self.ranked_support()]
        rank = z3.Function(f"{self.name}_rank", Point, z3.IntSort())
        v, w = z3.Consts(f"{self.name}_gv {self.name}_gw", Point)
        post = z3.ForAll(
            [v], z3.Implies(self(v), z3.Or(self.base(v), z3.Exists([w], z3.And(self.step(v, w), self(w)))))
        )
        outside = z3.And(z3.Not(self.base(v)), z3.ForAll([w], z3.Implies(self.step(v, w), z3.Not(self(w)))))
        below = z3.ForAll([w], z3.Implies(self.step(v, w), rank(w) < rank(v)))
        dual = z3.ForAll([v], z3.And(rank(v) >= 0, z3.Implies(z3.Not(self(v)), z3.And(outside, below))))
        return [post, dual]


def clear(b: Board, p: z3.ExprRef, R: Reaching) -> Board:
    """clear(b, p) with reaches(b, ·, Empty) given by R."""
    return lambda x: z3.If(z3.And(b(x) == p, z3.Not(R(x))), EMPTY, b(x))


def well_formed(R: Reaching) -> z3.BoolRef:
    """Every point reaches Empty."""
    x = z3.Const(f"{R.name}_wx", Point)
    return z3.ForAll([x], R(x))


def every_point(name: str, condition: Callable[[z3.ExprRef], z3.BoolRef]) -> z3.BoolRef:
    """∀x. condition(x)."""
    x = z3.Const(name, Point)
    return z3.ForAll([x], condition(x))


def emptying(before: Reaching, after: Reaching) -> z3.BoolRef:
    """The lemma "emptying preserves reaching" for two boards: if ``after``'s board is
    ``before``'s with some stones removed, every stone left that reached Empty still does."""
    b, b2 = before.board, after.board
    smaller = every_point(f"{after.name}_le", lambda x: emptied(b2, b, x))
    kept = every_point(
        f"{after.name}_kept", lambda x: z3.Implies(z3.And(before(x), b2(x) == b(x), b(x) != EMPTY), after(x))
    )
    return z3.Implies(smaller, kept)


def no_loops() -> z3.BoolRef:
    """No point is its own neighbour (the spec's graphs have no loops)."""
    return every_point("loop_x", lambda x: z3.Not(adj(x, x)))


def symmetric() -> z3.BoolRef:
    """v ↔ w ⇒ w ↔ v: an undirected graph."""
    v, w = z3.Consts("sym_v sym_w", Point)
    return z3.ForAll([v, w], z3.Implies(adj(v, w), adj(w, v)))


def ground(e: z3.ExprRef, elements: list) -> z3.ExprRef:
    """e with every quantifier over Point expanded over the given elements: ∀ a conjunction,
    ∃ a disjunction.  On a universe of exactly those elements it means what e means, so a
    model of the ground formula is a finite model of e."""
    if z3.is_quantifier(e):
        count = e.num_vars()
        import itertools

        cases = [
            ground(z3.substitute_vars(e.body(), *reversed(values)), elements)
            for values in itertools.product(elements, repeat=count)
        ]
        return z3.And(cases) if e.is_forall() else z3.Or(cases)
    if z3.is_app(e) and e.num_args() > 0:
        return e.decl()(*[ground(a, elements) for a in e.children()])
    return e
