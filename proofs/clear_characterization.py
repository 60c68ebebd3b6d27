"""T3, the one-step clearing characterization.

Source (``002_8835c2492dce8849.txt``, "Theorems and thoughts"): for game states s_i,
s_{i+1} and points v, b_i(v) = b_{i+1}(v) unless b_i(v) = p_i* and
¬reaches(b_i[v ↦ p_i], v, Empty), or b_i(v) = p_i and b_i' = clear(b_i', p_i*) and
¬reaches(clear(b_i', p_i*), v, Empty), in which case b_{i+1}(v) = Empty; b_i' = b_i[v ↦ p].

Read literally, one letter v is both the played point and the inspected point, and the
conditions look at b_i(v) — which at the played point is Empty, so no exception applies
and the statement claims that the played point stays empty.  ``as_written=True`` checks
exactly that text (with the spec's corrected ``reaches``): any surviving stone refutes it.

Corrected: p plays the empty point m, b' = b[m ↦ p], and for every point v

    b_{i+1}(v) = Empty   if b'(v) = p* ∧ ¬reaches(b', v, Empty)
                         or b'(v) = p ∧ ¬reaches(clear(b', p*), v, Empty)
                 b'(v)   otherwise.

Proved for every board (well-formed or not), every player and every played point: a
stronger statement than the source's "game states".  A pass leaves the board as it is.
"""

from __future__ import annotations

import z3

from gorules.proofs import encoding as E
from gorules.proofs.graphs import graph_record
from gorules.proofs.result import ProofResult
from gorules.proofs.theorem import SOURCE, Request, Theorem
from gorules.proofs.z3_proof import Z3Proof, symbolic_move


def characterized(enc, b, p, m) -> tuple:
    """The next board as the corrected statement describes it."""
    b1 = E.update(b, m, p)
    first = E.clear(enc, b1, E.opponent(p))
    to_empty = E.reaching(enc, b1, E.EMPTY)
    to_empty_after = E.reaching(enc, first, E.EMPTY)
    return tuple(
        z3.If(
            z3.Or(
                z3.And(E.term(b1[v]) == E.term(E.opponent(p)), z3.Not(to_empty[v])),
                z3.And(E.term(b1[v]) == E.term(p), z3.Not(to_empty_after[v])),
            ),
            z3.IntVal(E.EMPTY),
            E.term(b1[v]),
        )
        for v in enc.points
    )


def as_written_claim(enc, b, p, v, next_board) -> z3.BoolRef:
    """The source's sentence, literally, with v both played and inspected."""
    b1 = E.update(b, v, p)
    first = E.clear(enc, b1, E.opponent(p))
    here, there = E.term(E.at(b, v)), E.term(E.at(next_board, v))
    exception = z3.Or(
        z3.And(here == E.term(E.opponent(p)), z3.Not(E.reaches(enc, b1, v, E.EMPTY))),
        z3.And(here == E.term(p), E.same_board(b1, first), z3.Not(E.reaches(enc, first, v, E.EMPTY))),
    )
    return z3.If(exception, there == E.EMPTY, there == here)


def check(request: Request) -> tuple:
    """Look for a board, a player and a move where the statement's description is wrong."""
    graph, as_written = request.graph, request.as_written
    enc, b, p, m, after, defined = symbolic_move(request, E.rules_named(request.mutant), "m")
    described = characterized(enc.fork(), b, p, m)
    if as_written:
        claim = as_written_claim(enc, b, p, m, after.board)
    else:
        claim = E.same_board(after.board, described)
    status, model = E.search(enc, defined, z3.Not(claim), timeout=request.timeout)
    if status != "sat":
        return ("proved" if status == "unsat" else "unknown"), None
    point, player = E.value(model, m), E.NAME[E.value(model, p)]
    predicted = E.board_value(model, described)
    actual = E.board_value(model, after.board)
    boards = [
        {"label": "board", "board": E.board_value(model, b), "marks": [point]},
        {"label": f"after {player} plays {point}", "board": actual, "marks": [point]},
    ]
    if not as_written:
        wrong = [v for v in enc.points if predicted[v] != actual[v]]
        boards.append({"label": "as the characterization says", "board": predicted, "marks": wrong})
    return "refuted", {
        "graph": graph_record(graph, model),
        "boards": boards,
        "moves": [point],
        "player": player,
        "point": point,
    }


def proof(request: Request) -> ProofResult:
    """T3 on every board of the graph (or on every graph of a SymbolicGraph), in one search."""
    return request.whole(check, f"every board, player and played point of {request.graph.name}")


THEOREM = Theorem(
    name="clear-characterization",
    statement=(
        "When p plays the empty point m and b' = b[m ↦ p], every point v of the next board is Empty if "
        "b'(v) = p* and v does not reach Empty in b', or b'(v) = p and v does not reach Empty in "
        "clear(b', p*); otherwise it is b'(v)."
    ),
    statement_as_written=(
        "b_i(v) = b_{i+1}(v) unless b_i(v) = p* and ¬reaches(b_i[v ↦ p], v, Empty), or b_i(v) = p and "
        "b_i' = clear(b_i', p*) and ¬reaches(clear(b_i', p*), v, Empty), in which case b_{i+1}(v) = Empty; "
        "b_i' = b_i[v ↦ p] (v both the played and the inspected point)."
    ),
    source=SOURCE,
    method=Z3Proof(proof),
    mutants=("own-first", "reaches-as-written", "no-second-clear", "gfp-reaches"),
    expected_as_written="refuted",
)
