"""T2, move-definedness: which moves can extend a game.

Source (``002_8835c2492dce8849.txt``, "Theorems and thoughts"): for any game g and
non-final associated state s_i = (b_i, p_i, n_i), s_{i+1} = move(s_i, v) is defined iff v
is Pass or b_i(v) = Empty and s_{i+1} ≠ s_j for j ≤ i.

"Defined" is read as "v can extend the game": the prefix s_0 … s_i followed by v still
satisfies the game's conditions 3.1–3.3 (move(s_i, v) is defined, a stone move does not
repeat an earlier *board*, n_i < 2).

- As written, the statement compares *states*; the game compares *boards*.  A move that
  recreates an earlier board with another player to move, or another pass count, passes
  the written test but cannot extend the game.  Refuting this needs a real game prefix,
  so it is searched for among the game prefixes of length ≤ ``depth``: a counterexample
  found there is a real one; finding none is reported as unknown, never as a proof.
- Corrected (boards compared), two parts:
  ``abstract``: for every state with n < 2 and every set H of earlier boards containing
  b (a predicate on boards, left uninterpreted), v extends iff v = Pass or (b(v) = Empty
  and the next board is not in H).  Every game prefix gives such a state and set, so this
  is a proof for games of every length.
  ``histories``: the same equivalence over real, symbolic game prefixes of each length
  0 … ``depth`` — a bounded check, kept as a second, independent encoding of histories.
"""

from __future__ import annotations

import functools

import z3

from gorules.proofs import encoding as E
from gorules.proofs.graphs import graph_record
from gorules.proofs.result import ProofResult
from gorules.proofs.theorem import SOURCE, Request, Theorem
from gorules.proofs.z3_proof import Z3Proof

DEFAULT_DEPTH = 2
AS_WRITTEN_DEPTH = 6


def move_name(v: int) -> object:
    """A move as the spec writes it: a point, or "pass"."""
    return "pass" if v == E.PASS else v


def abstract_part(request: Request) -> tuple:
    """Look for a non-final state, a set of earlier boards and a move where "v extends the
    game" and the corrected condition disagree."""
    graph, rules, timeout = request.graph, E.rules_named(request.mutant), request.timeout
    enc = E.Encoding(graph, request.encoding)
    b = E.symbolic_board(enc, "b")
    p = E.symbolic_player(enc, "p")
    n = z3.Int("n")
    v = E.symbolic_point(enc, "v", allow_pass=True)
    earlier = z3.Function("earlier", *([z3.IntSort()] * enc.order), z3.BoolSort())
    after, defined = E.move(enc, E.State(b, p, n), v, rules)
    new_board = z3.Not(earlier(*after.board))
    extends = z3.And(defined, z3.Implies(v != E.PASS, new_board))
    condition = z3.Or(v == E.PASS, z3.And(E.term(E.at(b, v)) == E.EMPTY, new_board))
    s = z3.SolverFor("QF_UFLIA")
    if timeout:
        s.set("timeout", int(timeout * 1000))
    s.add(enc.side)
    s.add(n >= 0, n < 2, earlier(*b), extends != condition)
    answer = s.check()
    if answer == z3.sat:
        model = s.model()
        point = E.value(model, v)
        return "refuted", {
            "part": "abstract",
            "graph": graph_record(graph, model),
            "boards": [
                {
                    "label": "state's board",
                    "board": E.board_value(model, b),
                    "marks": [] if point == E.PASS else [point],
                }
            ],
            "moves": [move_name(point)],
            "player": E.NAME[E.value(model, p)],
            "point": move_name(point),
            "note": "the earlier boards are an arbitrary set here, not necessarily a game's",
        }
    return ("proved" if answer == z3.unsat else "unknown"), None


def game_prefix(enc, length: int, rules: E.Rules) -> tuple[list, list, list]:
    """A symbolic game prefix v_0 … v_{length-1}: its moves, its states s_0 … s_length and
    the conditions 3.1–3.3 of the game definition for each of its moves."""
    states, moves, conditions = [E.initial_state(enc)], [], []
    for t in range(length):
        m = E.symbolic_point(enc, f"m{t}", allow_pass=True)
        after, defined = E.move(enc, states[t], m, rules)
        repeats = z3.Or([E.same_board(after.board, s.board) for s in states])
        conditions += [E.term(states[t].passes) < 2, defined, z3.Implies(m != E.PASS, z3.Not(repeats))]
        moves.append(m)
        states.append(after)
    return moves, states, conditions


def same_state(a: E.State, b: E.State) -> z3.BoolRef:
    """a = b: same board, same player to move, same number of passes."""
    return z3.And(
        E.same_board(a.board, b.board), E.term(a.player) == E.term(b.player), E.term(a.passes) == E.term(b.passes)
    )


def history_part(request: Request, length: int) -> tuple:
    """Look for a game prefix of the given length and a move where "v extends the game" and
    the condition (written or corrected) disagree."""
    graph, rules = request.graph, E.rules_named(request.mutant)
    enc = E.Encoding(graph, request.encoding)
    moves, states, conditions = game_prefix(enc, length, rules)
    last = states[-1]
    v = E.symbolic_point(enc, "v", allow_pass=True)
    after, defined = E.move(enc, last, v, rules)
    new_board = z3.Not(z3.Or([E.same_board(after.board, s.board) for s in states]))
    extends = z3.And(defined, z3.Implies(v != E.PASS, new_board))
    if request.as_written:
        fresh = z3.Not(z3.Or([same_state(after, s) for s in states]))
    else:
        fresh = new_board
    condition = z3.Or(v == E.PASS, z3.And(E.term(E.at(last.board, v)) == E.EMPTY, fresh))
    status, model = E.search(enc, *conditions, E.term(last.passes) < 2, extends != condition, timeout=request.timeout)
    if status != "sat" or model is None:
        return ("proved" if status == "unsat" else "unknown"), None
    played = [move_name(E.value(model, m)) for m in moves]
    point = move_name(E.value(model, v))
    boards: list[dict] = [
        {
            "label": f"s_{t}: {E.NAME[E.value(model, s.player)]} to move, {E.value(model, s.passes)} passes",
            "board": E.board_value(model, s.board),
        }
        for t, s in enumerate(states)
    ]
    boards.append(
        {
            "label": f"after {point}: {E.NAME[E.value(model, after.player)]} to move, "
            f"{E.value(model, after.passes)} passes",
            "board": E.board_value(model, after.board),
            "marks": [] if point == "pass" else [point],
        }
    )
    return "refuted", {
        "part": f"history of length {length}",
        "graph": graph_record(graph, model),
        "boards": boards,
        "moves": played + [point],
        "player": E.NAME[E.value(model, last.player)],
        "point": point,
        "extends": z3.is_true(model.eval(extends, model_completion=True)),
    }


def proof(request: Request) -> ProofResult:
    """T2 (corrected: unbounded, plus histories up to the ``depth`` option), or a search of
    the game prefixes up to ``depth`` for a counterexample to the written statement."""
    as_written, depth = request.as_written, request.options.get("depth")
    parts, abstract = [], []
    if not as_written:
        depth = DEFAULT_DEPTH if depth is None else depth
        abstract.append(
            request.part("abstract", abstract_part, "every non-final state and every set of earlier boards")
        )
    else:
        depth = AS_WRITTEN_DEPTH if depth is None else depth
    for length in range(depth + 1):
        part = request.part(
            f"history-{length}",
            functools.partial(history_part, length=length),
            f"every game prefix of length {length}",
        )
        parts.append(part)
        if part.refuted:
            break
    result = request.combine(parts + abstract)
    if as_written and result.status == "proved":
        result.status = "unknown"
        result.scope = f"no counterexample among game prefixes of length ≤ {depth} (a bounded search, not a proof)"
    elif result.refuted and result.counterexample is not None and result.counterexample.get("part") == "abstract":
        result.status = "unknown"
        result.scope = "the abstract history admits a counterexample that may not be a game's"
    elif result.proved:
        result.scope = f"every game, by the abstract history; checked again on every game prefix of length ≤ {depth}"
    return result


THEOREM = Theorem(
    name="move-definedness",
    statement=(
        "For every game prefix ending in a non-final state s_i, a move v can extend it iff v is Pass, "
        "or b_i(v) = Empty and the board of move(s_i, v) differs from b_j for every j ≤ i."
    ),
    statement_as_written=(
        "For every game prefix ending in a non-final state s_i, move(s_i, v) is defined iff v is Pass, "
        "or b_i(v) = Empty and s_{i+1} ≠ s_j for every j ≤ i (states compared)."
    ),
    source=SOURCE,
    method=Z3Proof(proof),
    mutants=("occupied-overwrite",),
    expected_as_written="refuted",
)
