"""T1, well-formedness: a board occurs in some game if and only if it is well-formed.

Source (``002_8835c2492dce8849.txt``, "Theorems and thoughts"): a board b is
*well-formed* iff reaches(b, v, Empty) for every point v; for any board b, b occurs in
some game iff b is well-formed.

Proved on one graph (every board of it) or on every graph on N vertices, in three parts:

- ``empty``: the empty board is well-formed;
- ``step`` (⇒): for every well-formed board b, player p and empty point v, the board of
  move((b, p, n), v) is well-formed.  A pass leaves the board alone, so by induction
  every board of every game is well-formed;
- ``lemma`` (⇐): every non-empty well-formed board b has a stone u such that b[u ↦ Empty]
  is well-formed and move((b[u ↦ Empty], b(u), 0), u) has board b.  Why this gives a game
  is written in ``proofs/README.md``: the stones are added back one at a time, the number
  of stones grows so no board repeats, and a single pass lets the same colour move again.

As written, the source's own ``reaches`` never lets a stone reach Empty (E1), so only the
empty board is "well-formed" and every stone move empties the board; the statement then
holds, degenerately.  ``as_written=True`` checks that reading: the source's definitions
throughout.  A mutant changes the rules of play only; well-formedness keeps the spec's
meaning, so the proof must find where the broken rules leave a chain without liberty.
"""

from __future__ import annotations

import z3

from gorules.proofs import encoding as E
from gorules.proofs.graphs import as_graph, graph_record
from gorules.proofs.result import ProofResult
from gorules.proofs.theorem import SOURCE, Request, Theorem
from gorules.proofs.z3_proof import Z3Proof, symbolic_move

NAME = "well-formedness"
STATEMENT = (
    "A board occurs in some game iff it is well-formed (every point reaches Empty): the empty "
    "board is well-formed, every move keeps a well-formed board well-formed, and every non-empty "
    "well-formed board is rebuilt by replaying one of its stones on a well-formed board."
)


def rules_for(request: Request) -> E.Rules:
    """The rules the statement is checked against: a mutant's, or as written the source's
    definitions throughout, or the spec's."""
    if request.mutant:
        return E.rules_named(request.mutant)
    return E.AS_WRITTEN_RULES if request.as_written else E.SPEC_RULES


def empty_part(request: Request) -> tuple:
    """Look for a point of the empty board that does not reach Empty."""
    graph, as_written = request.graph, request.as_written
    enc = E.Encoding(graph, request.encoding)
    status, model = E.search(
        enc, z3.Not(E.well_formed(enc, E.initial_state(enc).board, as_written)), timeout=request.timeout
    )
    if status == "sat":
        return "refuted", {
            "part": "empty",
            "graph": graph_record(graph, model),
            "boards": [{"label": "empty board, not well-formed", "board": "." * enc.order}],
        }
    return ("proved" if status == "unsat" else "unknown"), None


def step_part(request: Request) -> tuple:
    """Look for a well-formed board and a move on an empty point whose result is not."""
    graph, as_written = request.graph, request.as_written
    enc, b, p, v, after, defined = symbolic_move(request, rules_for(request))
    status, model = E.search(
        enc,
        E.well_formed(enc, b, as_written),
        defined,
        z3.Not(E.well_formed(enc, after.board, as_written)),
        timeout=request.timeout,
    )
    if status == "sat":
        point, player = E.value(model, v), E.NAME[E.value(model, p)]
        before, result = E.board_value(model, b), E.board_value(model, after.board)
        return "refuted", {
            "part": "step",
            "graph": graph_record(graph, model),
            "boards": [
                {"label": "well-formed board", "board": before, "marks": [point]},
                {"label": f"after {player} plays {point}: not well-formed", "board": result, "marks": [point]},
            ],
            "moves": [point],
            "player": player,
            "point": point,
        }
    return ("proved" if status == "unsat" else "unknown"), None


def rebuilt_by(enc, b, u: int, rules: E.Rules, as_written: bool) -> z3.BoolRef:
    """u holds a stone, b[u ↦ Empty] is well-formed, and replaying the stone rebuilds b."""
    lifted = E.update(b, u, E.EMPTY)
    after, defined = E.move(enc, E.State(lifted, b[u], 0), u, rules)
    return z3.And(
        E.term(b[u]) != E.EMPTY,
        E.well_formed(enc, lifted, as_written),
        defined,
        E.same_board(after.board, b),
    )


def lemma_part(request: Request) -> tuple:
    """Look for a non-empty well-formed board that no stone of it rebuilds in one move."""
    graph, as_written, rules = request.graph, request.as_written, rules_for(request)
    enc = E.Encoding(graph, request.encoding)
    b = E.symbolic_board(enc, "b")
    status, model = E.search(
        enc,
        E.well_formed(enc, b, as_written),
        z3.Or([E.term(x) != E.EMPTY for x in b]),
        *[z3.Not(rebuilt_by(enc, b, u, rules, as_written)) for u in enc.points],
        timeout=request.timeout,
    )
    if status == "sat":
        return "refuted", {
            "part": "lemma",
            "graph": graph_record(graph, model),
            "boards": [
                {"label": "well-formed board that no replayed stone rebuilds", "board": E.board_value(model, b)}
            ],
        }
    return ("proved" if status == "unsat" else "unknown"), None


def proof(request: Request) -> ProofResult:
    """T1 on every board of the graph (or on every graph of a SymbolicGraph): its three parts."""
    scope = f"every board of {request.graph.name}"
    parts = [
        request.part("empty", empty_part, "the empty board"),
        request.part("step", step_part, scope),
        request.part("lemma", lemma_part, scope),
    ]
    return request.combine(parts, scope=scope)


def prove_step(
    graph, as_written: bool = False, encoding: str = "ranked", mutant: str | None = None, timeout: float | None = None
) -> ProofResult:
    """Only the (⇒) step: moves keep well-formed boards well-formed."""
    request = Request(NAME, as_graph(graph), as_written, encoding, mutant, timeout)
    return request.part("step", step_part, f"every board of {request.graph.name}")


def game_through(graph, board) -> list:
    """A game (a list of moves, as the spec writes them) in which the well-formed board
    occurs: the construction of ``proofs/README.md`` made concrete.  Its stones are played
    one at a time (any order: every board on the way has a subset of the stones, so it is
    well-formed and nothing is captured), the other player passing once whenever a colour
    must move twice; two passes end the game."""
    from gorules.spec.tromp_taylor import BLACK, PASS, Player, opponent

    graph = as_graph(graph)
    moves: list = []
    to_move: Player = BLACK
    for u in graph.points:
        if board[u] == ".":
            continue
        if board[u] != to_move:
            moves.append(PASS)
            to_move = opponent(to_move)
        moves.append(u)
        to_move = opponent(to_move)
    return moves + [PASS, PASS]


THEOREM = Theorem(
    name=NAME,
    statement=STATEMENT,
    statement_as_written=STATEMENT + " With reaches as the source writes it (a stone never reaches Empty).",
    source=SOURCE,
    method=Z3Proof(proof),
    mutants=("reaches-as-written", "no-second-clear", "gfp-reaches"),
    expected_as_written="proved",
)
