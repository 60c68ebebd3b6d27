"""The Tromp–Taylor rules as CNF, for the CDCL SAT solvers of python-sat (CaDiCaL, Kissat, Glucose).

This is the SAT twin of the Z3 encoding in ``proofs/encoding.py``: the same definitions
(a board, ``reaches`` as a least fixed point, ``clear``, ``move``, ``score``) written
directly as Boolean gates, so that a theorem becomes one CNF formula whose
unsatisfiability is the proof.

A board is two literals per point, ``black[v]`` and ``white[v]`` (never both; Empty is
neither).  A *literal* is a non-zero int (a DIMACS literal) or a Python bool (a constant);
gates fold constants, so fixing the played point or the player shrinks the formula.

``reaches`` is the least fixed point of its equation.  Three exact encodings are offered:

* ``layers``: the Kleene iteration unrolled, R₀ = (b(v) = c), R_{k+1} = R_k ∨ ∃w …, to depth
  n − 1 (a path from v to colour c never repeats a point, so it has at most n − 1 steps);
* ``unary``: R closed under the equation (R contains the fixed point) and every v ∈ R
  supported by a neighbour of strictly smaller rank (R is contained in it), ranks 0..n−1
  in order encoding;
* ``binary``: the same with ranks as ⌈log₂ n⌉-bit numbers and comparator circuits.

Each is exact: on every board, R is forced to be the set the spec computes (the tests
check this against ``spec.tromp_taylor`` on concrete boards).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

Literal = int | bool

ENCODINGS = ("layers", "unary", "binary")
SIDES = ("exact", "closed", "supported")
TIGHT = False
SOLVERS = ("cadical195", "kissat404", "glucose4")


@dataclass
class Formula:
    """A CNF under construction: fresh variables, clauses, and hash-consed gates."""

    top: int = 0
    clauses: list = field(default_factory=list)
    gates: dict = field(default_factory=dict)
    ranks: dict = field(default_factory=dict)
    supports: dict = field(default_factory=dict)
    """Keyed by the literals of a ``reaches`` encoded with ranks: ``ranks`` holds its rank
    bits per point, ``supports`` per point v the pairs (w, s) of a neighbour w and the
    literal s that supports v through w (s ⇒ a step from v to w is admissible, w reaches,
    and w has a smaller rank)."""

    def var(self) -> int:
        """A fresh variable."""
        self.top += 1
        return self.top

    def clause(self, *lits: Literal) -> None:
        """Assert the disjunction of ``lits`` (constants folded)."""
        if any(l is True for l in lits):
            return
        body = sorted({l for l in lits if l is not False})
        if any(-l in body for l in body if l > 0):
            return
        self.clauses.append(body)

    def conj(self, lits: Sequence[Literal]) -> Literal:
        """A literal equal to the conjunction of ``lits``."""
        if any(l is False for l in lits):
            return False
        body = frozenset(l for l in lits if l is not True)
        if not body:
            return True
        if any(-l in body for l in body):
            return False
        if len(body) == 1:
            return next(iter(body))
        key = ("and", body)
        if key not in self.gates:
            g = self.var()
            for l in body:
                self.clauses.append([-g, l])
            self.clauses.append([g] + [-l for l in body])
            self.gates[key] = g
        return self.gates[key]

    def disj(self, lits: Sequence[Literal]) -> Literal:
        """A literal equal to the disjunction of ``lits``."""
        return neg(self.conj([neg(l) for l in lits]))

    def ite(self, condition: Literal, then: Literal, otherwise: Literal) -> Literal:
        """A literal equal to ``then`` if ``condition`` holds, else ``otherwise``."""
        return self.disj([self.conj([condition, then]), self.conj([neg(condition), otherwise])])

    def iff(self, a: Literal, b: Literal) -> Literal:
        """A literal equal to a ⟺ b."""
        return self.disj([self.conj([a, b]), self.conj([neg(a), neg(b)])])

    def implies(self, premises: Sequence[Literal], conclusion: Literal) -> None:
        """Assert (∧ premises) → conclusion."""
        self.clause(*[neg(l) for l in premises], conclusion)

    def at_most_one(self, lits: Sequence[Literal]) -> None:
        """Assert that at most one of ``lits`` holds (pairwise)."""
        for a, b in itertools.combinations(lits, 2):
            self.clause(neg(a), neg(b))

    def exactly_one(self, lits: Sequence[Literal]) -> None:
        """Assert that exactly one of ``lits`` holds."""
        self.clause(*lits)
        self.at_most_one(lits)


def neg(l: Literal) -> Literal:
    """The negation of a literal."""
    return (not l) if isinstance(l, bool) else -l


class Board(NamedTuple):
    """A board as literals: ``black[v]`` ⟺ b(v) = Black, ``white[v]`` ⟺ b(v) = White."""

    black: tuple
    white: tuple


def empty(f: Formula, board: Board, v: int) -> Literal:
    """b(v) = Empty."""
    return f.conj([neg(board.black[v]), neg(board.white[v])])


def has_colour(f: Formula, board: Board, v: int, c: str) -> Literal:
    """b(v) = c."""
    if c == BLACK:
        return board.black[v]
    if c == WHITE:
        return board.white[v]
    return empty(f, board, v)


def same_colour(f: Formula, board: Board, v: int, w: int) -> Literal:
    """b(v) = b(w)."""
    return f.disj([f.conj([has_colour(f, board, v, c), has_colour(f, board, w, c)]) for c in (BLACK, WHITE, EMPTY)])


def symbolic_board(f: Formula, n: int) -> Board:
    """A board with a fresh colour at every point (never both Black and White)."""
    black = tuple(f.var() for _ in range(n))
    white = tuple(f.var() for _ in range(n))
    for v in range(n):
        f.clause(-black[v], -white[v])
    return Board(black, white)


def concrete_board(b: Sequence[str]) -> Board:
    """The constant board b."""
    return Board(tuple(c == BLACK for c in b), tuple(c == WHITE for c in b))


def swapped(board: Board) -> Board:
    """The board with Black and White exchanged."""
    return Board(board.white, board.black)


def permuted(board: Board, sigma: Sequence[int]) -> Board:
    """σb: the board with σb(σ(v)) = b(v)."""
    inverse = [0] * len(sigma)
    for v, image in enumerate(sigma):
        inverse[image] = v
    return Board(
        tuple(board.black[inverse[u]] for u in range(len(sigma))),
        tuple(board.white[inverse[u]] for u in range(len(sigma))),
    )


def value(model: set, l: Literal) -> bool:
    """The truth value of a literal in a model (the set of true literals)."""
    return l if isinstance(l, bool) else l in model


def board_value(model: set, board: Board) -> tuple:
    """The concrete board a model assigns to a symbolic board."""
    return tuple(
        BLACK if value(model, board.black[v]) else WHITE if value(model, board.white[v]) else EMPTY
        for v in range(len(board.black))
    )


@dataclass(frozen=True)
class Adjacency:
    """v ↔ w as literals: ``arcs[v]`` lists (w, literal) for every possible out-neighbour w."""

    arcs: tuple
    directed: bool = False

    @property
    def order(self) -> int:
        """The number of points."""
        return len(self.arcs)


def fixed_adjacency(graph: Graph) -> Adjacency:
    """The adjacency of one concrete graph (every arc literal is True)."""
    return Adjacency(tuple(tuple((w, True) for w in graph.neighbours[v]) for v in graph.points), graph.directed)


def symbolic_adjacency(f: Formula, n: int, directed: bool = False) -> tuple[Adjacency, dict]:
    """The adjacency of every graph on n points at once: one fresh literal per possible arc
    (per pair, shared both ways, if undirected).  Returns it and the arc literals by pair."""
    arc = {}
    for v, w in itertools.permutations(range(n), 2):
        if directed or v < w:
            arc[(v, w)] = f.var()
        else:
            arc[(v, w)] = arc[(w, v)]
    arcs = tuple(tuple((w, arc[(v, w)]) for w in range(n) if w != v) for v in range(n))
    return Adjacency(arcs, directed), arc


def admissible(
    f: Formula, adjacency: Adjacency, board: Board, v: int, w: int, arc: Literal, c: str, written: bool = False
) -> Literal:
    """v ↔ w ∧ b(w) ∈ {b(v), c}: a step of a path along which v may reach colour c.
    As the source writes it (``written``), only b(w) = b(v)."""
    if written:
        return f.conj([arc, same_colour(f, board, v, w)])
    return f.conj([arc, f.disj([same_colour(f, board, v, w), has_colour(f, board, w, c)])])


def reaching(
    f: Formula,
    adjacency: Adjacency,
    board: Board,
    c: str,
    encoding: str = "layers",
    side: str = "exact",
    written: bool = False,
) -> tuple:
    """Literals R[v] ⟺ reaches(b, v, c), the least fixed point, by the chosen exact encoding
    (``written``: the source's literal equation, steps only through v's own colour).

    ``side`` keeps only half of the rank encodings: ``"closed"`` asserts R ⊇ the fixed point
    (enough wherever the formula only needs R false), ``"supported"`` asserts R ⊆ it (enough
    wherever it only needs R true).  Either half still admits the true R, so a formula built
    with halves is a relaxation: unsatisfiable means the exact formula is too."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: expected one of {', '.join(SIDES)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}: expected one of {', '.join(ENCODINGS)}")
    key = ("reaching", adjacency, board, c, encoding, side, written)
    if key not in f.gates:
        if encoding == "layers" and side == "exact":
            f.gates[key] = _reaching_by_layers(f, adjacency, board, c, written)
        elif side == "closed":
            f.gates[key] = _reaching_closed(f, adjacency, board, c, written)
        elif encoding == "layers":
            f.gates[key] = _reaching_supported_by_layers(f, adjacency, board, c, written)
        else:
            f.gates[key] = _reaching_by_ranks(f, adjacency, board, c, encoding, side, written)
    return f.gates[key]


def _reaching_by_layers(f: Formula, adjacency: Adjacency, board: Board, c: str, written: bool) -> tuple:
    """Kleene's iteration from R₀ = {v : b(v) = c}, unrolled n − 1 times."""
    n = adjacency.order
    steps = [
        [(w, admissible(f, adjacency, board, v, w, arc, c, written)) for w, arc in adjacency.arcs[v]] for v in range(n)
    ]
    R = tuple(has_colour(f, board, v, c) for v in range(n))
    for _ in range(max(n - 1, 0)):
        R = tuple(f.disj([R[v]] + [f.conj([step, R[w]]) for w, step in steps[v]]) for v in range(n))
    return R


def _reaching_supported_by_layers(f: Formula, adjacency: Adjacency, board: Board, c: str, written: bool) -> tuple:
    """R ⊆ the least fixed point: L₀ ⊆ {v : b(v) = c}, L_{k+1}(v) only if L_k(v) or a step
    to some w in L_k, for n − 1 layers; R is the last layer."""
    n = adjacency.order
    steps = [
        [(w, admissible(f, adjacency, board, v, w, arc, c, written)) for w, arc in adjacency.arcs[v]] for v in range(n)
    ]
    L = [f.var() for _ in range(n)]
    for v in range(n):
        f.implies([L[v]], has_colour(f, board, v, c))
    for _ in range(max(n - 1, 0)):
        nxt = [f.var() for _ in range(n)]
        for v in range(n):
            f.clause(neg(nxt[v]), L[v], *[f.conj([step, L[w]]) for w, step in steps[v]])
        L = nxt
    return tuple(L)


def _reaching_closed(f: Formula, adjacency: Adjacency, board: Board, c: str, written: bool) -> tuple:
    """R closed under the equation: R contains the least fixed point."""
    n = adjacency.order
    R = tuple(f.var() for _ in range(n))
    for v in range(n):
        f.implies([has_colour(f, board, v, c)], R[v])
        for w, arc in adjacency.arcs[v]:
            f.implies([admissible(f, adjacency, board, v, w, arc, c, written), R[w]], R[v])
    return R


def _reaching_by_ranks(
    f: Formula, adjacency: Adjacency, board: Board, c: str, encoding: str, side: str, written: bool
) -> tuple:
    """R closed under the equation, and each v ∈ R not of colour c supported by a
    neighbour in R of strictly smaller rank: then R is exactly the least fixed point.
    With ``side="supported"`` the closure is left out (R ⊆ the fixed point)."""
    n = adjacency.order
    R = tuple(f.var() for _ in range(n))
    ranks = _unary_ranks(f, n) if encoding == "unary" else _binary_ranks(f, n)
    less = _unary_less if encoding == "unary" else _binary_less
    by_point: list = []
    for v in range(n):
        by_point.append([])
        target = has_colour(f, board, v, c)
        if side == "exact":
            f.implies([target], R[v])
        supports = []
        for w, arc in adjacency.arcs[v]:
            step = admissible(f, adjacency, board, v, w, arc, c, written)
            if side == "exact":
                f.implies([step, R[w]], R[v])
            s = f.var()
            f.implies([s], step)
            f.implies([s], R[w])
            less(f, ranks[w], ranks[v], s)
            supports.append(s)
            by_point[v].append((w, s))
            if TIGHT and encoding == "unary":
                # rank(v) ≤ rank(w) + 1 whenever w is a support candidate: ranks are distances
                for i in range(len(ranks[v]) - 1):
                    f.implies([step, R[w], R[v], neg(target), ranks[v][i + 1]], ranks[w][i])
        if TIGHT and encoding == "unary" and ranks[v]:
            f.implies([target], neg(ranks[v][0]))
        f.clause(neg(R[v]), target, *supports)
    f.ranks[R] = ranks
    f.supports[R] = tuple(by_point)
    return R


def _unary_ranks(f: Formula, n: int) -> list:
    """A rank 0..n−1 per point in order encoding: bit i ⟺ rank > i."""
    ranks = []
    for _ in range(n):
        bits = [f.var() for _ in range(max(n - 1, 0))]
        for i in range(len(bits) - 1):
            f.implies([bits[i + 1]], bits[i])
        ranks.append(bits)
    return ranks


def _unary_less(f: Formula, a: list, b: list, condition: Literal) -> None:
    """Assert condition → rank a < rank b (order encoding)."""
    if not b:
        f.clause(neg(condition))
        return
    f.implies([condition], b[0])
    for i in range(len(a)):
        if i + 1 < len(b):
            f.implies([condition, a[i]], b[i + 1])
        else:
            f.implies([condition], neg(a[i]))


def least_member(f: Formula, members: Sequence[Literal], ranks: Sequence[list]) -> tuple:
    """Selectors y[w] of a member of least unary rank: if any ``members[w]`` holds, some
    y[w] holds, and y[w] implies that w is a member whose rank is at most every member's.

    The selectors and the least rank are fresh variables, so every model of the formula
    extends to one of these clauses (a non-empty set of natural numbers has a least
    element): adding them never makes a satisfiable formula unsatisfiable.  A proof may
    then argue about a least member only ("well-founded induction as a least
    counterexample")."""
    bits = len(ranks[0]) if ranks else 0
    least = [f.var() for _ in range(bits)]
    selectors = tuple(f.var() for _ in members)
    for w, member in enumerate(members):
        f.clause(neg(member), *selectors)
        f.implies([selectors[w]], member)
        for i in range(bits):
            f.implies([selectors[w], ranks[w][i]], least[i])
            f.implies([selectors[w], least[i]], ranks[w][i])
            f.implies([member, least[i]], ranks[w][i])
    return selectors


def _binary_ranks(f: Formula, n: int) -> list:
    """A rank 0..2^k−1 per point as k bits, most significant first, k = ⌈log₂ n⌉."""
    k = max(1, (n - 1).bit_length())
    return [[f.var() for _ in range(k)] for _ in range(n)]


def _binary_less(f: Formula, a: list, b: list, condition: Literal) -> None:
    """Assert condition → a < b as unsigned binary numbers."""
    f.implies([condition], _less_than(f, a, b))


def _less_than(f: Formula, a: list, b: list) -> Literal:
    """A literal for a < b (binary, most significant bit first)."""
    if not a:
        return False
    head = f.conj([neg(a[0]), b[0]])
    tie = f.iff(a[0], b[0])
    return f.disj([head, f.conj([tie, _less_than(f, a[1:], b[1:])])])


class Player(NamedTuple):
    """The player to move as a literal: ``black`` ⟺ p = Black."""

    black: Literal


def stones_of(f: Formula, board: Board, p: Player, v: int) -> Literal:
    """b(v) = p."""
    return f.ite(p.black, board.black[v], board.white[v])


def opponent(p: Player) -> Player:
    """p*."""
    return Player(neg(p.black))


def clear(
    f: Formula,
    adjacency: Adjacency,
    board: Board,
    p: Player,
    encoding: str = "layers",
    side: str = "exact",
    written: bool = False,
    judge: Board | None = None,
) -> Board:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty.
    (A mutant may judge reaching on another board, ``judge``.)"""
    R = reaching(f, adjacency, board if judge is None else judge, EMPTY, encoding, side, written)
    removed = [f.conj([stones_of(f, board, p, v), neg(R[v])]) for v in range(adjacency.order)]
    return Board(
        tuple(f.conj([board.black[v], neg(removed[v])]) for v in range(adjacency.order)),
        tuple(f.conj([board.white[v], neg(removed[v])]) for v in range(adjacency.order)),
    )


def played_point(f: Formula, n: int, v: int | None = None) -> tuple:
    """Literals x[u] ⟺ u is the played point: constants if v is given, else one-hot."""
    if v is not None:
        return tuple(u == v for u in range(n))
    x = tuple(f.var() for _ in range(n))
    f.exactly_one(x)
    return x


def place(f: Formula, board: Board, x: Sequence[Literal], p: Player) -> Board:
    """b[v ↦ p], where x is the one-hot played point."""
    n = len(board.black)
    return Board(
        tuple(f.ite(x[u], p.black, board.black[u]) for u in range(n)),
        tuple(f.ite(x[u], neg(p.black), board.white[u]) for u in range(n)),
    )


class MoveSteps(NamedTuple):
    """The boards of one move: b, b[v ↦ p], the first clearing, the second (the result)."""

    board: Board
    placed: Board
    first: Board
    result: Board


MUTANTS = {
    "own-first": "the mover's own stones are cleared before the opponent's",
    "no-second-clear": "the mover's own chains without liberties stay",
    "simultaneous": "the mover's chains are judged on b[v ↦ p], before the capture",
    "colour-biased": "only Black's chains without liberties are removed by the second clearing",
    "spare-point-0": "a stone on point 0 is never removed by the second clearing",
}


def move(
    f: Formula,
    adjacency: Adjacency,
    board: Board,
    x: Sequence[Literal],
    p: Player,
    encoding: str = "layers",
    mutant: str | None = None,
    side: str = "exact",
    written: bool = False,
) -> MoveSteps:
    """The boards of move((b, p, n), v): b[v ↦ p], then clear(·, p*), then clear(·, p).
    (The move is defined only on an empty v; the caller states that.)

    A ``mutant`` names a deliberately broken variant of the rule (see MUTANTS): the
    proofs must refute each of them somewhere.  ``side`` and ``written`` are passed to
    every ``clear`` (see ``reaching``)."""
    if mutant is not None and mutant not in MUTANTS:
        raise ValueError(f"unknown mutant {mutant!r}: expected one of {', '.join(MUTANTS)}")
    placed = place(f, board, x, p)
    options: dict[str, Any] = {"encoding": encoding, "side": side, "written": written}
    if mutant == "own-first":
        first = clear(f, adjacency, placed, p, **options)
        return MoveSteps(board, placed, first, clear(f, adjacency, first, opponent(p), **options))
    first = clear(f, adjacency, placed, opponent(p), **options)
    if mutant == "no-second-clear":
        return MoveSteps(board, placed, first, first)
    if mutant == "simultaneous":
        return MoveSteps(board, placed, first, clear(f, adjacency, first, p, judge=placed, **options))
    result = clear(f, adjacency, first, p, **options)
    if mutant == "colour-biased":
        result = _choose(f, p.black, result, first)
    elif mutant == "spare-point-0":
        result = _choose_at(f, result, first, 0)
    return MoveSteps(board, placed, first, result)


def _choose(f: Formula, condition: Literal, a: Board, b: Board) -> Board:
    """The board a if condition, else b."""
    n = len(a.black)
    return Board(
        tuple(f.ite(condition, a.black[v], b.black[v]) for v in range(n)),
        tuple(f.ite(condition, a.white[v], b.white[v]) for v in range(n)),
    )


def _choose_at(f: Formula, a: Board, b: Board, point: int) -> Board:
    """The board a, except at ``point`` where it is b (a mutant that spares one point)."""
    black = list(a.black)
    white = list(a.white)
    if point < len(black):
        black[point] = b.black[point]
        white[point] = b.white[point]
    return Board(tuple(black), tuple(white))


def well_formed(
    f: Formula, adjacency: Adjacency, board: Board, encoding: str = "layers", side: str = "exact", written: bool = False
) -> Literal:
    """∀v reaches(b, v, Empty): every stone's chain touches an empty point."""
    R = reaching(f, adjacency, board, EMPTY, encoding, side, written)
    return f.conj(list(R))


def counted(
    f: Formula,
    adjacency: Adjacency,
    board: Board,
    p: str,
    encoding: str = "layers",
    mutant: str | None = None,
    written: bool = False,
) -> tuple:
    """Literals for the points score(b, p) counts: p's stones, and empty points that reach p
    but not p*.  The mutant ``"dame-counted"`` forgets the ``not p*``."""
    other = WHITE if p == BLACK else BLACK
    reach_p = reaching(f, adjacency, board, p, encoding, written=written)
    reach_other = reaching(f, adjacency, board, other, encoding, written=written)
    n = adjacency.order
    if mutant == "dame-counted":
        return tuple(f.disj([has_colour(f, board, v, p), f.conj([empty(f, board, v), reach_p[v]])]) for v in range(n))
    return tuple(
        f.disj([has_colour(f, board, v, p), f.conj([empty(f, board, v), reach_p[v], neg(reach_other[v])])])
        for v in range(n)
    )


def boards_differ(f: Formula, a: Board, b: Board) -> Literal:
    """a ≠ b."""
    n = len(a.black)
    return f.disj([f.disj([neg(f.iff(a.black[v], b.black[v])), neg(f.iff(a.white[v], b.white[v]))]) for v in range(n)])


def solve(f: Formula, units: Sequence[Literal] = (), solver: str = "cadical195") -> set | None:
    """A model of the formula with the given unit literals (the set of true literals), or None."""
    from pysat.solvers import Solver

    clauses = list(f.clauses)
    for l in units:
        if l is False:
            return None
        if l is not True:
            clauses.append([l])
    if any(len(c) == 0 for c in clauses):
        return None
    with Solver(name=solver, bootstrap_with=clauses) as s:
        if not s.solve():
            return None
        return set(s.get_model())


def iff_board_point(f: Formula, a: Board, b: Board, v: int) -> Literal:
    """a(v) = b(v)."""
    return f.conj([f.iff(a.black[v], b.black[v]), f.iff(a.white[v], b.white[v])])
