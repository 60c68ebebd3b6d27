"""The Tromp–Taylor spec again, as Z3 terms, with the spec's names and shapes.

A board is a tuple of integer terms, one per point: ``EMPTY = 0``, ``BLACK = 1``,
``WHITE = 2`` (so that the opponent of p is ``3 - p``); a move is a point ``0..n-1`` or
``PASS = -1``.  Boards, players and moves may be concrete or symbolic.  An
:class:`Encoding` carries the graph (a fixed :class:`spec.graph.Graph`, or a
:class:`proofs.graphs.SymbolicGraph` whose arcs are variables) and the side constraints
that define auxiliary variables; the functions below take it first, as the spec's
functions take the graph first.

``reaches`` is the least fixed point of its recursive equation.  A bi-implication
"R(v) ⇔ base ∨ step" alone admits larger fixed points (chains that hold each other up
without a liberty), so the least one is pinned down in one of two ways, selected by name:

- ``ranked``: ranked support and closure.  Closure (base ⇒ R(v); step to w ∧ R(w) ⇒ R(v))
  makes R contain the least fixed point; support (R(v) ⇒ base, or a step to a w in R of
  smaller rank, ranks being integers ≥ 0) makes R contained in it.  Exact under either
  polarity.
- ``layered``: unrolling, R₀ = base, R_{k+1} = R_k ∨ step into R_k, to depth n − 1 (a
  chain may snake through every point, so the diameter is not enough).  No auxiliary
  variables.

``naive`` (the bi-implication alone) is kept only to show, in the tests, that it is
wrong.  The mutants' greatest fixed point is built by unrolling downwards from "true".

``move`` returns the next state and a Boolean term saying whether the move is defined:
the spec's ⊥ becomes "defined is false".  :data:`MUTANTS` are deliberately broken rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

import z3

from gorules.spec.graph import Graph

EMPTY, BLACK, WHITE = 0, 1, 2
PASS = -1
COLOUR = {".": EMPTY, "B": BLACK, "W": WHITE}
NAME = {EMPTY: ".", BLACK: "B", WHITE: "W"}

Term: TypeAlias = "int | z3.ExprRef"


class Encoding:
    """A graph (fixed or symbolic), the way ``reaches`` is encoded, and the side
    constraints that give the auxiliary variables their meaning."""

    def __init__(self, graph, name: str = "ranked"):
        if name not in ENCODINGS:
            raise ValueError(f"unknown encoding {name!r}; known: {', '.join(sorted(ENCODINGS))}")
        self.graph = graph
        self.name = name
        self.side: list = list(graph_constraints(graph))
        self._reaching_cache: dict = {}
        self._fresh = 0
        self._forks = 0
        self._tag = ""

    @property
    def order(self) -> int:
        """The number of points n."""
        return self.graph.order

    @property
    def points(self) -> range:
        """The points 0 .. n-1."""
        return range(self.graph.order)

    def arcs(self, v: int) -> list[tuple[int, Term]]:
        """The pairs (w, v ↔ w) of possible neighbours w of v, with the condition that
        the arc exists (``True`` on a fixed graph, a variable on a symbolic one)."""
        if isinstance(self.graph, Graph):
            return [(w, True) for w in self.graph.neighbours[v]]
        return self.graph.arcs(v)

    def fork(self) -> Encoding:
        """The same graph and constraints, with its own copies of the auxiliary variables:
        a statement built in the fork does not share terms with the rules it speaks of."""
        other = Encoding.__new__(Encoding)
        other.graph, other.name, other.side = self.graph, self.name, self.side
        other._reaching_cache, other._fresh, other._forks = {}, 0, 0
        self._forks += 1
        other._tag = f"{self._tag}f{self._forks}"
        return other

    def fresh(self, prefix: str) -> str:
        """A variable name not used before in this encoding."""
        self._fresh += 1
        return f"{prefix}{self._tag}!{self._fresh}"


def graph_constraints(graph) -> list:
    """What a symbolic graph's arcs must satisfy (nothing for a fixed graph)."""
    if isinstance(graph, Graph):
        return []
    return graph.constraints()


# --- colours, boards, states ---------------------------------------------------------


def term(x: Term) -> z3.ExprRef:
    """x as a Z3 integer term."""
    return x if isinstance(x, z3.ExprRef) else z3.IntVal(x)


def opponent(p: Term) -> Term:
    """p*: the other player (colours 1 and 2 swap)."""
    return 3 - p


def is_player(p: Term) -> z3.BoolRef:
    """p is Black or White."""
    return z3.Or(term(p) == BLACK, term(p) == WHITE)


def board_of(board: Sequence[str]) -> tuple:
    """A concrete board (colours "B", "W", ".") as a tuple of Z3 constants."""
    return tuple(z3.IntVal(COLOUR[c]) for c in board)


def symbolic_board(enc: Encoding, name: str) -> tuple:
    """A board with one unknown colour per point."""
    b = tuple(z3.Int(f"{name}_{v}") for v in enc.points)
    enc.side.extend(z3.And(x >= 0, x <= 2) for x in b)
    return b


def symbolic_player(enc: Encoding, name: str) -> z3.ArithRef:
    """An unknown player, Black or White."""
    p = z3.Int(name)
    enc.side.append(is_player(p))
    return p


def symbolic_point(enc: Encoding, name: str, allow_pass: bool = False) -> z3.ArithRef:
    """An unknown point 0..n-1 (or PASS, if allowed)."""
    v = z3.Int(name)
    enc.side.append(z3.And(v >= (PASS if allow_pass else 0), v < enc.order))
    return v


def at(b: Sequence[Term], v: Term) -> Term:
    """b(v) for a concrete or symbolic point v."""
    if isinstance(v, int):
        return b[v]
    value = b[0]
    for u in range(1, len(b)):
        value = z3.If(v == u, b[u], value)
    return value


def update(b: Sequence[Term], v: Term, c: Term) -> tuple:
    """b[v ↦ c]: the board that agrees with b except that point v has colour c."""
    if isinstance(v, int):
        return tuple(c if u == v else b[u] for u in range(len(b)))
    return tuple(z3.If(v == u, term(c), term(b[u])) for u in range(len(b)))


def same_board(a: Sequence[Term], b: Sequence[Term]) -> z3.BoolRef:
    """a = b, point by point."""
    return z3.And([term(x) == term(y) for x, y in zip(a, b)])


class State(NamedTuple):
    """(b, p, n) as terms: the board, the player to move, the consecutive passes."""

    board: tuple
    player: Term
    passes: Term


def initial_state(enc: Encoding) -> State:
    """s₀ = (_ ↦ Empty, Black, 0)."""
    return State(tuple(z3.IntVal(EMPTY) for _ in enc.points), z3.IntVal(BLACK), z3.IntVal(0))


# --- reaches ---------------------------------------------------------------------------


def step_condition(b: Sequence[Term], v: int, w: int, c: Term, written: bool) -> z3.BoolRef:
    """The colours allow a step of reaches from v to its neighbour w: b(w) ∈ {b(v), c}
    (the corrected equation); as written in the source, only b(w) = b(v)."""
    same = term(b[w]) == term(b[v])
    return same if written else z3.Or(same, term(b[w]) == term(c))


def steps(enc: Encoding, b, v: int, c: Term, written: bool) -> list[tuple[int, z3.BoolRef]]:
    """The possible steps (w, condition) of reaches out of v."""
    return [
        (
            w,
            z3.And(arc, step_condition(b, v, w, c, written))
            if arc is not True
            else step_condition(b, v, w, c, written),
        )
        for w, arc in enc.arcs(v)
    ]


def ranked_reaching(enc: Encoding, b, c: Term, written: bool) -> tuple:
    """The least fixed point by ranked support and closure (auxiliary R and rank)."""
    tag = enc.fresh("R")
    R = [z3.Bool(f"{tag}_{v}") for v in enc.points]
    rank = [z3.Int(f"{tag}_rank_{v}") for v in enc.points]
    for v in enc.points:
        base = term(b[v]) == term(c)
        out = steps(enc, b, v, c, written)
        enc.side.append(z3.And(rank[v] >= 0, rank[v] < enc.order))
        enc.side.append(z3.Implies(base, R[v]))
        enc.side.extend(z3.Implies(z3.And(cond, R[w]), R[v]) for w, cond in out)
        support = [z3.And(cond, R[w], rank[w] < rank[v]) for w, cond in out]
        enc.side.append(z3.Implies(R[v], z3.Or(base, *support)))
    return tuple(R)


def layered_reaching(enc: Encoding, b, c: Term, written: bool) -> tuple:
    """The least fixed point by unrolling the equation n − 1 times from "false"."""
    R = [term(b[v]) == term(c) for v in enc.points]
    for _ in range(max(enc.order - 1, 0)):
        R = [z3.Or(R[v], *[z3.And(cond, R[w]) for w, cond in steps(enc, b, v, c, written)]) for v in enc.points]
    return tuple(R)


def naive_reaching(enc: Encoding, b, c: Term, written: bool) -> tuple:
    """Some fixed point of the equation, R(v) ⇔ base ∨ step: not the least (unsound)."""
    tag = enc.fresh("N")
    R = [z3.Bool(f"{tag}_{v}") for v in enc.points]
    for v in enc.points:
        step = [z3.And(cond, R[w]) for w, cond in steps(enc, b, v, c, written)]
        enc.side.append(R[v] == z3.Or(term(b[v]) == term(c), *step))
    return tuple(R)


def greatest_reaching(enc: Encoding, b, c: Term, written: bool) -> tuple:
    """The greatest fixed point, unrolled n times down from "true" (a mutant's reaches)."""
    R = [z3.BoolVal(True) for _ in enc.points]
    for _ in range(enc.order):
        R = [
            z3.Or(term(b[v]) == term(c), *[z3.And(cond, R[w]) for w, cond in steps(enc, b, v, c, written)])
            for v in enc.points
        ]
    return tuple(R)


ENCODINGS: dict[str, Callable] = {
    "ranked": ranked_reaching,
    "layered": layered_reaching,
    "naive": naive_reaching,
}
SOUND_ENCODINGS = ("ranked", "layered")


def register_encoding(name: str, builder: Callable) -> None:
    """Make another construction of the least fixed point selectable by name; ``builder``
    takes (enc, b, c, written) and returns one Boolean term per point."""
    ENCODINGS[name] = builder


def reaching(enc: Encoding, b, c: Term, written: bool = False, fixpoint: str = "least") -> tuple:
    """The points v with reaches(b, v, c), one Boolean term per point (cached per board)."""
    key = (tuple(term(x).get_id() for x in b), term(c).get_id(), written, fixpoint)
    if key not in enc._reaching_cache:
        if fixpoint == "greatest":
            built = greatest_reaching(enc, b, c, written)
        else:
            built = ENCODINGS[enc.name](enc, b, c, written)
        enc._reaching_cache[key] = (tuple(b), built)
    return enc._reaching_cache[key][1]


def reaches(enc: Encoding, b, v: Term, c: Term, written: bool = False, fixpoint: str = "least") -> z3.BoolRef:
    """reaches(b, v, c): a path from v through points of v's colour ends at colour c."""
    R = reaching(enc, b, c, written, fixpoint)
    if isinstance(v, int):
        return R[v]
    return z3.Or([z3.And(v == u, R[u]) for u in enc.points])


def well_formed(enc: Encoding, b, written: bool = False) -> z3.BoolRef:
    """Every point reaches Empty (the source's well-formedness)."""
    return z3.And(list(reaching(enc, b, EMPTY, written)))


# --- clear, move, score ------------------------------------------------------------------


def clear(enc: Encoding, b, p: Term, written: bool = False, fixpoint: str = "least") -> tuple:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty."""
    R = reaching(enc, b, EMPTY, written, fixpoint)
    return tuple(z3.If(z3.And(term(b[v]) == term(p), z3.Not(R[v])), z3.IntVal(EMPTY), term(b[v])) for v in enc.points)


@dataclass(frozen=True)
class Rules:
    """A variant of the rules of play: the spec, or a deliberately broken mutant."""

    name: str = "spec"
    description: str = "the Tromp–Taylor rules as corrected (spec/tromp_taylor.py)"
    own_first: bool = False  # clear the mover's stones before the opponent's
    second_clear: bool = True  # remove the mover's own chains without liberties
    written: bool = False  # reaches as written in the source: steps only through v's colour
    fixpoint: str = "least"  # "greatest": chains that hold each other up survive
    overwrite: bool = False  # a move on an occupied point is defined and overwrites it


SPEC_RULES = Rules()
AS_WRITTEN_RULES = Rules("as-written", "the source's move, built on reaches as written", written=True)

MUTANTS: dict[str, Rules] = {
    r.name: r
    for r in [
        Rules("own-first", "the mover's own stones are cleared before the opponent's", own_first=True),
        Rules("reaches-as-written", "reaches steps only through v's own colour (E1)", written=True),
        Rules("no-second-clear", "the mover's own chains without liberties stay", second_clear=False),
        Rules("gfp-reaches", "reaches is the greatest fixed point of its equation", fixpoint="greatest"),
        Rules("occupied-overwrite", "a move on an occupied point is defined and overwrites it", overwrite=True),
    ]
}


def rules_named(mutant: str | None) -> Rules:
    """The spec's rules, or the mutant of that name."""
    if mutant is None:
        return SPEC_RULES
    if mutant not in MUTANTS:
        raise ValueError(f"unknown mutant {mutant!r}; known: {', '.join(MUTANTS)}")
    return MUTANTS[mutant]


def placed(enc: Encoding, b, p: Term, v: Term, rules: Rules = SPEC_RULES) -> tuple:
    """b' = clear(clear(b[v ↦ p], p*), p): the board after p plays on the empty point v
    (under a mutant, its broken version of the same)."""
    b1 = update(b, v, p)
    first, second = (p, opponent(p)) if rules.own_first else (opponent(p), p)
    b2 = clear(enc, b1, first, rules.written, rules.fixpoint)
    if not rules.second_clear:
        return b2
    return clear(enc, b2, second, rules.written, rules.fixpoint)


def move(enc: Encoding, s: State, v: Term, rules: Rules = SPEC_RULES) -> tuple[State, z3.BoolRef]:
    """move((b, p, n), v) and whether it is defined (false for ⊥: an occupied point)."""
    b, p, n = s
    if isinstance(v, int) and v == PASS:
        return State(tuple(b), opponent(p), term(n) + 1), z3.BoolVal(True)
    stone = State(placed(enc, b, p, v, rules), opponent(p), z3.IntVal(0))
    empty_there = term(at(b, v)) == EMPTY
    stone_defined = z3.BoolVal(True) if rules.overwrite else empty_there
    if isinstance(v, int):
        return stone, stone_defined
    is_pass = v == PASS
    board = tuple(z3.If(is_pass, term(x), y) for x, y in zip(b, stone.board))
    passes = z3.If(is_pass, term(n) + 1, 0)
    return State(board, opponent(p), passes), z3.Or(is_pass, stone_defined)


def score(enc: Encoding, b, p: Term) -> z3.ArithRef:
    """score(b, p): p's stones, plus the empty points that reach p but not p*."""
    to_p = reaching(enc, b, p)
    to_other = reaching(enc, b, opponent(p))
    counted = [
        z3.Or(term(b[v]) == term(p), z3.And(term(b[v]) == EMPTY, to_p[v], z3.Not(to_other[v]))) for v in enc.points
    ]
    return z3.Sum([z3.If(x, 1, 0) for x in counted]) if counted else z3.IntVal(0)


# --- solving --------------------------------------------------------------------------


def solver(enc: Encoding) -> z3.Solver:
    """A solver holding the encoding's side constraints (linear integer arithmetic)."""
    s = z3.SolverFor("QF_LIA")
    s.add(enc.side)
    return s


def board_value(model: z3.ModelRef, b) -> str:
    """The concrete board a model gives to b, as a string of "B", "W", "."."""
    return "".join(NAME[model.eval(term(x), model_completion=True).as_long()] for x in b)


def value(model: z3.ModelRef, x: Term) -> int:
    """The integer a model gives to a term."""
    return model.eval(term(x), model_completion=True).as_long()


def search(enc: Encoding, *conditions, timeout: float | None = None) -> tuple[str, z3.ModelRef | None]:
    """Look for values satisfying the side constraints and the conditions: ("sat", model),
    ("unsat", None) when there are none, ("unknown", None) on a timeout (in seconds)."""
    s = solver(enc)
    if timeout:
        s.set("timeout", int(timeout * 1000))
    s.add(*conditions)
    answer = s.check()
    if answer == z3.sat:
        return "sat", s.model()
    return ("unsat" if answer == z3.unsat else "unknown"), None


def count_boards(enc: Encoding, b, condition, split: int = 3) -> int:
    """The number of concrete boards b satisfying the condition, by enumerating models
    (one blocking clause per board), split into cubes on the colours of the first
    ``split`` points so that each cube's enumeration stays small."""
    import itertools

    s = solver(enc)
    s.add(condition)
    split = min(split, len(b))
    count = 0
    for cube in itertools.product((EMPTY, BLACK, WHITE), repeat=split):
        s.push()
        s.add([term(b[i]) == c for i, c in enumerate(cube)])
        rest = [term(x) for x in b[split:]]
        while s.check() == z3.sat:
            count += 1
            model = s.model()
            if not rest:
                break
            s.add(z3.Or([x != model.eval(x, model_completion=True) for x in rest]))
        s.pop()
    return count
