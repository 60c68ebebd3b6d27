"""The CNF method: the machinery shared by the theorems proved through CNF (``proofs/sat.py``).

A theorem proved this way has a :class:`CnfProof` as its method, made of
``query(graph, cube, options) -> Query``: one CNF whose models are the counterexamples in
that cube; ``holds(graph, counterexample)``: the statement checked on one concrete case
with the executable spec; what a proof covers; and optionally its own cubes.  The method
splits the statement into cubes (one per played point and player, the played points
reduced to one per automorphism orbit and the players to Black where the theorem's
:class:`proofs.theorem.Reductions` allow it, see ``proofs/symmetry.py``), solves them on a
pool of processes, and returns a :class:`proofs.result.ProofResult`.  A counterexample
found under the spec's rules is replayed on ``spec.tromp_taylor`` before it is reported,
so an encoding bug cannot pass for a refutation.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from gorules.processes import die_with_parent
from gorules.proofs import sat
from gorules.proofs.result import ProofResult, Status
from gorules.proofs.symmetry import representatives
from gorules.proofs.theorem import Reductions, Request, Theorem
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph, graph_from_json, graph_to_json

ENCODING_ALIASES = {"ranked": "unary", "layered": "layers"}
ENCODINGS_AVAILABLE = ("ranked", "layered", "unary", "binary", "layers")


class Query(NamedTuple):
    """One CNF: its formula, the unit literals that complete it, and how to read a model;
    optionally lemmas: levels of clauses that should follow from it, each level easy to
    check given the levels before (see :func:`_solve`)."""

    formula: sat.Formula
    units: list
    decode: Callable[[set], dict]
    lemmas: tuple = ()


@dataclass(frozen=True)
class Options:
    """How a statement is checked: the rules (spec, as written, or a mutant), the encoding
    of reaches, and the SAT solver."""

    encoding: str = "unary"
    solver: str = "cadical195"
    mutant: str | None = None
    as_written: bool = False
    extra: dict = field(default_factory=dict)


class Family(NamedTuple):
    """Every graph (or digraph) on ``order`` points: a picklable stand-in for a
    :class:`proofs.graphs.SymbolicGraph`, whose adjacency the CNF makes symbolic."""

    order: int
    directed: bool = False

    @property
    def name(self) -> str:
        """How results name the family, as ``proofs.graphs`` does."""
        return f"all-{'digraphs' if self.directed else 'graphs'}:{self.order}"


def as_target(graph):
    """A Graph (a string is parsed), or a Family for a SymbolicGraph or Family."""
    from gorules.proofs.graphs import as_graph

    if isinstance(graph, Family):
        return graph
    graph = as_graph(graph)
    if isinstance(graph, Graph):
        return graph
    return Family(graph.order, graph.directed)


class Cube(NamedTuple):
    """A part of the statement: the played point (None: any), the player (None: either),
    and for statements about a renaming of the points, the renaming σ."""

    point: int | None
    player: str | None
    label: str = ""
    sigma: tuple | None = None


def encoding_name(encoding: str) -> str:
    """The CNF encoding of reaches that a name selects (the Z3 names map to their twins)."""
    name = ENCODING_ALIASES.get(encoding, encoding)
    if name not in sat.ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}: expected one of {', '.join(sat.ENCODINGS)}")
    return name


def adjacency_of(f: sat.Formula, graph) -> tuple[sat.Adjacency, dict | None]:
    """The adjacency of a fixed graph, or fresh arc literals for every graph of an order."""
    if isinstance(graph, Graph):
        return sat.fixed_adjacency(graph), None
    return sat.symbolic_adjacency(f, graph.order, graph.directed)


def graph_of_model(graph, arcs: dict | None, model: set) -> dict:
    """The graph a counterexample lives on, as data (the one the solver chose, if symbolic)."""
    from gorules.spec.graph import make_graph

    if arcs is None:
        g = graph
    else:
        chosen = sorted(
            {(v, w) if graph.directed else (min(v, w), max(v, w)) for (v, w), l in arcs.items() if sat.value(model, l)}
        )
        text = ",".join(f"{v}{'>' if graph.directed else '-'}{w}" for v, w in chosen)
        name = (f"{'digraph' if graph.directed else 'edges'}:{text}") if chosen else f"empty:{graph.order}"
        g = make_graph(graph.order, chosen, name, directed=graph.directed)
    return graph_to_json(g)


def rebuild_graph(record: dict) -> Graph:
    """The concrete Graph of a counterexample's graph record."""
    return graph_from_json(record)


def player_literal(cube: Cube, f: sat.Formula) -> sat.Player:
    """The player to move: fixed by the cube, or a fresh literal."""
    if cube.player is None:
        return sat.Player(f.var())
    return sat.Player(cube.player == "B")


def player_value(model: set, p: sat.Player) -> str:
    """The player a model chose."""
    return "B" if sat.value(model, p.black) else "W"


def point_value(model: set, x) -> int:
    """The played point a model chose."""
    return next(u for u, l in enumerate(x) if sat.value(model, l))


def _solve(query: Query, solver: str) -> tuple[str, set | None, str]:
    """("sat", model, note) or ("unsat", None, note).

    Lemmas, if the query has any, are checked one by one before the final call: a lemma
    is added as a clause only after the solver has shown that its negation contradicts the
    formula and the lemmas added before it, so adding it never changes the answer.  A lemma
    that fails its check is left out.  (Time limits are enforced by terminating the
    worker process: CaDiCaL cannot be interrupted.)"""
    from pysat.solvers import Solver

    clauses = list(query.formula.clauses)
    for l in query.units:
        if l is False:
            return "unsat", None, ""
        if l is not True:
            clauses.append([l])
    if any(len(c) == 0 for c in clauses):
        return "unsat", None, ""
    with Solver(name=solver, bootstrap_with=clauses) as s:
        note = _add_lemmas(s, query.lemmas) if query.lemmas and solver != "kissat404" else ""
        if s.solve():
            return "sat", set(s.get_model()), note
        return "unsat", None, note


def _add_lemmas(s, levels) -> str:
    """Check and add the lemmas, level by level and one at a time: a lemma is added only
    once the solver has found no model of the formula (with the lemmas added so far) that
    falsifies it.  (Asking for a whole level at once, through one disjunction of the
    lemmas' negations, is slower: the solver loses the locality of each check.)"""
    added = total = 0
    for level in levels:
        for lemma in level:
            body = [l for l in lemma if l is not False]
            if any(l is True for l in body):
                continue
            total += 1
            if not s.solve(assumptions=[-l for l in body]):
                s.add_clause(body)
                added += 1
    return f"{added}/{total} lemmas"


def solve_cube(job: tuple) -> tuple:
    """Build and solve one cube: (cube, status, counterexample, seconds, note)."""
    make_query, graph, cube, options = job
    start = time.perf_counter()
    query = make_query(graph, cube, options)
    status, model, note = _solve(query, options.solver)
    counterexample = query.decode(model) if status == "sat" else None
    if counterexample is not None:
        counterexample["cube"] = cube.label
    return cube, status, counterexample, time.perf_counter() - start, note


def _row(cube: Cube, status: str, seconds: float, note: str) -> dict:
    """One cube's line in a result's parts."""
    row = {"cube": cube.label, "status": status, "seconds": round(seconds, 3)}
    if note:
        row["note"] = note
    return row


def run_cubes(
    make_query: Callable, graph, cubes: list, options: Options, timeout: float | None, processes: int
) -> tuple[Status, dict | None, list]:
    """Solve every cube (in parallel on ``processes`` processes); stop at the first
    counterexample or at the timeout.  Returns (status, counterexample, per-cube rows).
    Without a timeout and with one process the cubes are solved here, in order.
    ``make_query`` is a module-level function, so that it reaches the workers by name."""
    rows: list = []
    deadline = None if timeout is None else time.monotonic() + timeout
    jobs = [(make_query, graph, cube, options) for cube in cubes]
    if processes <= 1 and timeout is None:
        for job in jobs:
            cube, status, counterexample, seconds, note = solve_cube(job)
            rows.append(_row(cube, status, seconds, note))
            if status != "unsat":
                return ("refuted" if status == "sat" else "unknown"), counterexample, rows
        return "proved", None, rows
    context = multiprocessing.get_context("fork")
    pool = context.Pool(max(1, min(processes, len(jobs))), initializer=die_with_parent)
    try:
        results = pool.imap_unordered(solve_cube, jobs)
        for _ in jobs:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return "unknown", None, rows
            try:
                cube, status, counterexample, seconds, note = results.next(timeout=remaining)
            except multiprocessing.TimeoutError:
                return "unknown", None, rows
            rows.append(_row(cube, status, seconds, note))
            if status != "unsat":
                return ("refuted" if status == "sat" else "unknown"), counterexample, rows
        return "proved", None, rows
    finally:
        pool.terminate()
        pool.join()


def cubes_for(
    method: CnfProof,
    reductions: Reductions,
    graph,
    symmetry: bool = True,
    colours: bool = False,
    split: bool = True,
) -> tuple[list, str]:
    """The cubes a statement is split into on this graph (the method's own, or by played
    point and player as the reductions allow), and a sentence saying which reduction was
    used (empty if none).  With ``colours``, a statement that is invariant under exchanging
    Black and White is checked for Black to move only.  Without ``split``, one cube: the
    played point and the player are left to the solver, and no reduction is used."""
    if method.cubes is not None:
        return method.cubes(graph, symmetry)
    if not reductions.played_point:
        return [Cube(None, None, "all boards")], ""
    if not split:
        return [
            Cube(None, None, "all boards")
        ], "in one query: the played point and the player are the solver's, no reduction"
    players: tuple[str, ...] = ("B", "W")
    notes = []
    if colours and reductions.colour_invariant:
        players = ("B",)
        notes.append(
            "Black to move only (invariance under exchanging the colours: the rules name players "
            "only as p and p*; proved for move by colour-symmetry)"
        )
    reduction = ""
    points = list(range(graph.order))
    if symmetry and reductions.automorphism_invariant:
        if isinstance(graph, Graph):
            points = representatives(graph)
            if len(points) < graph.order:
                reduction = (
                    f"played points reduced to {len(points)} automorphism-orbit representatives "
                    f"of {graph.order} (invariance of the definitions under automorphisms)"
                )
        else:
            points = [0]
            reduction = "played point 0 (every graph of the order is a relabelling of one with the move at 0)"
    if reduction:
        notes.insert(0, reduction)
    return [Cube(v, p, f"v={v},p={p}") for v in points for p in players], "; ".join(notes)


@dataclass(frozen=True)
class CnfProof:
    """A statement proved through CNF: ``query(graph, cube, options)`` builds the CNF of
    its counterexamples in a cube, ``holds(graph, counterexample)`` checks one case on the
    spec, ``covers`` says what a proof covers ("every board", ...), and ``cubes(graph,
    symmetry)``, if given, replaces the split by played point and player; ``split`` says
    whether a statement about a move is split by played point and player unless the
    caller says otherwise (see :func:`cubes_for`).  Every CNF encoding of reaches (the Z3
    names map to their twins), ``unary`` by default."""

    query: Callable[..., Query]
    holds: Callable[[Graph, dict], bool]
    covers: str
    cubes: Callable | None = None
    mutants_available: tuple[str, ...] = tuple(sat.MUTANTS)
    encodings: tuple[str, ...] = ENCODINGS_AVAILABLE
    default_encoding: str = "unary"
    split: bool = True

    def __call__(self, theorem: Theorem, request: Request) -> ProofResult:
        """Answer the request; the options are ``solver``, ``processes``, ``symmetry``,
        ``colours``, ``split`` and the theorem's own (``lemmas``, ...), see :func:`prove`."""
        return prove(
            theorem,
            request.graph,
            request.as_written,
            request.encoding,
            request.mutant,
            request.timeout,
            **request.options,
        )


def prove(
    theorem: Theorem,
    graph,
    as_written: bool = False,
    encoding: str = "unary",
    mutant: str | None = None,
    timeout: float | None = None,
    solver: str = "cadical195",
    processes: int = 1,
    symmetry: bool = True,
    colours: bool = False,
    split: bool | None = None,
    **extra,
) -> ProofResult:
    """Prove a CNF theorem's statement on one graph or on every graph of an order (in one
    query without ``split``, see :func:`cubes_for`; by default as the method says)."""
    method = theorem.method
    assert isinstance(method, CnfProof), f"{theorem.name} is not proved through CNF"
    graph = as_target(graph)
    if mutant is not None and mutant not in theorem.mutants_available:
        raise ValueError(f"unknown mutant {mutant!r} for {theorem.name}; known: {', '.join(theorem.mutants_available)}")
    options = Options(encoding_name(encoding), solver, mutant, as_written, dict(extra))
    split = method.split if split is None else split
    cubes, reduction = cubes_for(method, theorem.reductions, graph, symmetry, colours, split)
    start = time.perf_counter()
    status, counterexample, rows = run_cubes(method.query, graph, cubes, options, timeout, processes)
    seconds = time.perf_counter() - start
    if counterexample is not None and mutant is None and not as_written:
        confirm(theorem, method, counterexample)
    scope = scope_text(graph, method.covers) + (f"; {reduction}" if reduction else "")
    return ProofResult(
        theorem.name,
        graph.name,
        status,
        seconds,
        counterexample,
        encoding=f"cnf-{options.encoding}/{solver}",
        as_written=as_written,
        mutant=mutant,
        scope=scope,
        parts=rows,
    )


def confirm(theorem: Theorem, method: CnfProof, counterexample: dict) -> None:
    """Replay a counterexample on the executable spec; an encoding that disagrees is a bug."""
    graph = rebuild_graph(counterexample["graph"])
    if method.holds(graph, counterexample):
        raise AssertionError(f"{theorem.name}: the CNF counterexample {counterexample} holds on the spec")


class MoveSetup(NamedTuple):
    """A symbolic move: the formula, the adjacency (and its arc literals, if symbolic),
    the board b, the one-hot played point x, the player p and the boards of the move."""

    formula: sat.Formula
    adjacency: sat.Adjacency
    arcs: dict | None
    board: sat.Board
    x: tuple
    player: sat.Player
    steps: sat.MoveSteps


def move_setup(graph, cube: Cube, options: Options, side: str = "exact") -> MoveSetup:
    """A symbolic board and a stone move on an empty point, under the options' rules (its
    clearings encoded with ``side``, see ``sat.clear``)."""
    f = sat.Formula()
    adjacency, arcs = adjacency_of(f, graph)
    n = adjacency.order
    b = sat.symbolic_board(f, n)
    x = sat.played_point(f, n, cube.point)
    p = player_literal(cube, f)
    steps = sat.move(f, adjacency, b, x, p, options.encoding, options.mutant, side=side, written=options.as_written)
    return MoveSetup(f, adjacency, arcs, b, x, p, steps)


def played_on_empty(setup: MoveSetup) -> sat.Literal:
    """b(v) = Empty at the played point v: the move is defined."""
    f = setup.formula
    return f.disj([f.conj([setup.x[u], sat.empty(f, setup.board, u)]) for u in range(setup.adjacency.order)])


def board_text(model: set, board: sat.Board) -> str:
    """A model's board as a string of "B", "W", "."."""
    return "".join(sat.board_value(model, board))


def move_counterexample(setup: MoveSetup, graph, model: set, part: str, result_label: str) -> dict:
    """A counterexample to a statement about one move: the board, the move, the result."""
    v = point_value(model, setup.x)
    p = player_value(model, setup.player)
    return {
        "part": part,
        "graph": graph_of_model(graph, setup.arcs, model),
        "boards": [
            {"label": "board", "board": board_text(model, setup.board), "marks": [v]},
            {
                "label": f"after {p} plays {v}: {result_label}",
                "board": board_text(model, setup.steps.result),
                "marks": [v],
            },
        ],
        "moves": [v],
        "player": p,
        "point": v,
    }


def the_move(counterexample: dict) -> tuple[tt.Board, int, tt.Player]:
    """The board, the played point and the player of a counterexample about one move."""
    player: tt.Player = tt.BLACK if counterexample["player"] == tt.BLACK else tt.WHITE
    return tuple(counterexample["boards"][0]["board"]), counterexample["point"], player


def board_after(graph: Graph, board: tt.Board, player: tt.Player, v: int) -> tt.Board:
    """The board after player plays the empty point v, by the spec's move (defined there)."""
    after = tt.move(graph, tt.State(board, player, 0), v)
    if after is None:
        raise ValueError(f"point {v} is occupied: the move is ⊥")
    return after.board


def well_formed_and_empty_at(graph: Graph, board: tuple, v: int) -> bool:
    """On the spec: v is empty and every point reaches Empty (the hypothesis of the
    statements about a move on a well-formed board)."""
    return board[v] == tt.EMPTY and all(tt.reaches(graph, board, u, tt.EMPTY) for u in graph.points)


def on_a_well_formed_move(statement: Callable[[Graph, tt.Board, int, tt.Player], bool]):
    """The check ``holds(graph, counterexample)`` of a statement about one move on a
    well-formed board: true where the hypothesis fails, else ``statement(graph, b, v, p)``."""

    def holds(graph, counterexample: dict) -> bool:
        """The statement on one concrete board and move, by the spec."""
        b, v, p = the_move(counterexample)
        return not well_formed_and_empty_at(graph, b, v) or statement(graph, b, v, p)

    return holds


MOVE_REDUCTIONS = Reductions(played_point=True, colour_invariant=True, automorphism_invariant=True)
"""The reductions of a statement about one move on a well-formed board that neither colour
nor the names of the points change: one cube per played point, Black to move, one played
point per orbit."""


def move_proof(
    query: Callable[..., Query], statement: Callable[[Graph, tt.Board, int, tt.Player], bool], split: bool = True
) -> CnfProof:
    """The CNF proof of a statement about one move on a well-formed board: ``query`` builds
    the CNF of its counterexamples, ``statement(graph, b, v, p)`` checks one on the spec;
    ``split``: by played point and player unless the caller says otherwise."""
    return CnfProof(
        query, on_a_well_formed_move(statement), covers="every well-formed board, move and player", split=split
    )


def scope_text(graph, what: str = "every board") -> str:
    """What a proof on this graph covers."""
    if isinstance(graph, Graph):
        return f"{what} of {graph.name}"
    kind = "directed graph" if graph.directed else "undirected graph"
    return f"{what} of every {kind} on {graph.order} points (adjacency symbolic)"


def transfer_lemmas(f: sat.Formula, first: tuple, second: tuple, mapping) -> tuple:
    """Levels of lemmas saying that two ``reaches`` encodings agree point for point,
    ``first[u]`` ⟺ ``second[mapping[u]]``, by induction on their unary ranks: at level k,
    a point of rank ≤ k in one is in the other.  Empty if either has no unary ranks.

    Used where one board is the other renamed (colours exchanged, points permuted): the
    solver checks each lemma before it is added (see :func:`_solve`), so a wrong one is
    simply left out."""
    ranks_first, ranks_second = f.ranks.get(first), f.ranks.get(second)
    if ranks_first is None or ranks_second is None:
        return ()
    n = len(first)
    levels = []
    for k in range(n):
        level = []
        for u in range(n):
            w = mapping[u]
            level.append([sat.neg(first[u]), *([ranks_first[u][k]] if k < len(ranks_first[u]) else []), second[w]])
            level.append([sat.neg(second[w]), *([ranks_second[w][k]] if k < len(ranks_second[w]) else []), first[u]])
        levels.append(level)
    return tuple(levels)


def stage_lemmas(setup: MoveSetup, other: sat.MoveSteps, options: Options, mapping) -> tuple:
    """Transfer lemmas for both clearings of two moves whose boards correspond by
    ``mapping`` (unary encoding only)."""
    if options.encoding != "unary" or not options.extra.get("lemmas", True):
        return ()
    f, adjacency = setup.formula, setup.adjacency
    levels: tuple = ()
    for mine, theirs in ((setup.steps.placed, other.placed), (setup.steps.first, other.first)):
        R = sat.reaching(f, adjacency, mine, sat.EMPTY, options.encoding, written=options.as_written)
        key = [
            k
            for k in f.gates
            if isinstance(k, tuple)
            and k[0] == "reaching"
            and k[2] == theirs
            and k[3] == sat.EMPTY
            and k[4] == options.encoding
            and k[5] == "exact"
        ]
        if not key:
            return ()
        levels += transfer_lemmas(f, R, f.gates[key[0]], mapping)
    return levels
