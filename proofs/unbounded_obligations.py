"""The verification conditions of the unbounded proofs, one function per obligation.

Each builder takes the rules (the spec's or a mutant's) and a mode and returns a
:class:`Query`: facts, a goal, and the terms a model is read back through.  In ``proof``
mode each ``reaches`` is a predicate with its closure and the minimality instances the
argument needs (``proofs/unbounded_logic.py``); the query is proved when facts ∧ ¬goal is
unsatisfiable.  In ``model`` mode each ``reaches`` is made exact by ranks (or, for a
greatest fixed point, by the dual ranks), the graph has no loops, and a model of
facts ∧ ¬goal is a concrete counterexample, replayed on the spec by :func:`replay`.

Every builder is over an arbitrary relation ↔ unless its obligation says ``undirected``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from gorules.proofs import unbounded_logic as U
from gorules.proofs import unbounded_rules as UR
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph

PROOF, MODEL = "proof", "model"


@dataclass
class Query:
    """facts ∧ ¬goal is what the solver is asked; ``boards``, ``points`` and ``player``
    name the terms a model is read through."""

    facts: list
    goal: z3.BoolRef
    boards: dict = field(default_factory=dict)
    points: dict = field(default_factory=dict)
    player: z3.ExprRef | None = None
    maps: dict = field(default_factory=dict)


def reaching_facts(reachings, mode: str) -> list:
    """Closure of each predicate (proof mode), or exactness (model mode)."""
    if mode == PROOF:
        return [R.closure() for R in reachings]
    return [fact for R in reachings for fact in R.exact()] + [U.no_loops()]


def spec_reaching(name: str, board: U.Board) -> U.Reaching:
    """reaches(board, ·, Empty) with the spec's definition (the statement's own copy)."""
    return U.Reaching(name, board, U.EMPTY)


# --- the core lemma --------------------------------------------------------------------


def emptying_query(rules: UR.Rules, mode: str) -> Query:
    """Emptying preserves reaching: for boards b ⊇ b' (b' is b with some stones removed),
    the set S = {u : b'(u) = b(u) ≠ Empty ⇒ reaches(b', u, Empty)} is closed under the rules
    of reaches(b, ·, Empty); so, by minimality, it contains every point that reaches on b."""
    b, small = U.board_symbol("b"), U.board_symbol("b_emptied")
    R_small = spec_reaching("R_emptied", small)
    R_b = spec_reaching("R_b", b)

    def S(u):
        return z3.Implies(z3.And(small(u) == b(u), b(u) != U.EMPTY), R_small(u))

    facts = [U.every_point("e_x", lambda x: U.emptied(small, b, x)), R_small.closure()]
    return Query(facts, R_b.closed(S), {"b": b, "b emptied": small})


# --- T1 --------------------------------------------------------------------------------


def move_facts(move: UR.Placed, mode: str) -> list:
    """The facts about the move's reaches: closure and the emptying lemma along the clearings."""
    facts = reaching_facts(move.reachings, mode)
    if mode == PROOF and len(move.reachings) == 2:
        facts.append(U.emptying(*move.reachings))
    return facts


def step_query(rules: UR.Rules, mode: str) -> Query:
    """T1's step: a move on an empty point of a well-formed board leaves a well-formed board."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "s")
    R0 = spec_reaching("R_before", b)
    R_after = spec_reaching("R_after", move.result)
    facts = [U.is_player(p), b(m) == U.EMPTY, U.well_formed(R0)]
    facts += reaching_facts([R0, R_after], mode) + move_facts(move, mode)
    if mode == PROOF:
        facts.append(U.emptying(move.reachings[-1], R_after))
    boards = {"well-formed board": b, "after the move": move.result}
    return Query(facts, U.well_formed(R_after), boards, {"m": m}, p)


def replay_query(rules: UR.Rules, mode: str) -> Query:
    """T1's converse, one stone: for a well-formed board b, a board c made of some of b's
    stones, and a point u empty on c with a stone q = b(u), q playing u on c gives c[u ↦ q]."""
    b, c, u = U.board_symbol("b"), U.board_symbol("c"), z3.Const("u", U.Point)
    q = b(u)
    R0 = spec_reaching("R_whole", b)
    move = UR.placed(c, q, u, rules, "r")
    grown = U.update(c, u, q)
    facts = [U.well_formed(R0), U.every_point("r_x", lambda x: U.emptied(c, b, x)), c(u) == U.EMPTY, q != U.EMPTY]
    facts += reaching_facts([R0], mode) + move_facts(move, mode)
    if mode == PROOF:
        facts.append(U.emptying(R0, move.reachings[0]))
    goal = U.every_point("r_y", lambda x: move.result(x) == grown(x))
    boards = {"well-formed board": b, "part of it": c, "after replaying a stone": move.result}
    return Query(facts, goal, boards, {"u": u}, q)


# --- T3 --------------------------------------------------------------------------------


def characterized(b1: U.Board, p) -> tuple[U.Board, list]:
    """The board T3 says the move gives, with its own copies of reaches: Empty where
    b'(v) = p* and ¬reaches(b', v, Empty), or b'(v) = p and ¬reaches(clear(b', p*), v, Empty)."""
    S1 = spec_reaching("T3_R1", b1)
    cb = U.clear(b1, U.opponent(p), S1)
    S2 = spec_reaching("T3_R2", cb)

    def board(v):
        dies = z3.Or(z3.And(b1(v) == U.opponent(p), z3.Not(S1(v))), z3.And(b1(v) == p, z3.Not(S2(v))))
        return z3.If(dies, U.EMPTY, b1(v))

    return board, [S1, S2]


def characterization_query(rules: UR.Rules, mode: str) -> Query:
    """T3 corrected: for every board, player and empty point, the move's board is the one
    the characterization describes (each side with its own copies of reaches)."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "c")
    expected, copies = characterized(U.update(b, m, p), p)
    facts = [U.is_player(p), b(m) == U.EMPTY] + move_facts(move, mode) + reaching_facts(copies, mode)
    if mode == PROOF:
        for R, S in zip(move.reachings, copies):
            facts += [R.least_within(S), S.least_within(R)]
    goal = U.every_point("t3_v", lambda v: move.result(v) == expected(v))
    boards = {"board": b, "after the move": move.result}
    return Query(facts, goal, boards, {"m": m}, p)


def characterization_as_written_query(rules: UR.Rules, mode: str) -> Query:
    """T3 as written at the played point of a well-formed board (a game's, by T1): the
    conditions read b_i(m), which is Empty, so the sentence says b_{i+1}(m) = b_i(m) = Empty."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "w")
    R0 = spec_reaching("R_game", b)
    facts = [U.is_player(p), b(m) == U.EMPTY, U.well_formed(R0)] + reaching_facts([R0], mode) + move_facts(move, mode)
    boards = {"well-formed board": b, "after the move": move.result}
    return Query(facts, move.result(m) == U.EMPTY, boards, {"m": m}, p)


# --- T2 --------------------------------------------------------------------------------


def definedness_query(rules: UR.Rules, mode: str) -> Query:
    """T2 corrected, for every history: with H any set of earlier boards containing b, a
    move v (a point, or Pass) extends the game iff v = Pass, or b(v) = Empty and the next
    board is not in H.  It rests on the partiality of move alone: ⊥ exactly on occupied
    points (under ``occupied-overwrite``, never)."""
    b, p, v = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("v", U.Point)
    is_pass = z3.Bool("v_is_pass")
    move = UR.placed(b, p, v, rules, "d")
    next_is_new = z3.Bool("next_board_is_new")  # the next board ∉ H (H is arbitrary)
    defined = z3.Or(is_pass, z3.BoolVal(True) if rules.overwrite else b(v) == U.EMPTY)
    extends = z3.And(defined, z3.Implies(z3.Not(is_pass), next_is_new))
    condition = z3.Or(is_pass, z3.And(b(v) == U.EMPTY, next_is_new))
    facts = [U.is_player(p)] + move_facts(move, mode)
    boards = {"board": b, "after the move": move.result}
    return Query(facts, extends == condition, boards, {"v": v}, p)


def definedness_as_written_query(rules: UR.Rules, mode: str) -> Query:
    """T2 as written at the first move of every game: the only earlier state is s₀ (the empty
    board, Black to move), so s₁ ≠ s₀ always (White is to move in s₁) and the sentence says
    every point extends the game; the game asks for a board other than the empty one."""
    b, p, v = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("v", U.Point)
    move = UR.placed(b, p, v, rules, "f")
    x = z3.Const("first_x", U.Point)
    facts = [U.every_point("first_e", lambda y: b(y) == U.EMPTY), p == U.BLACK] + move_facts(move, mode)
    extends = z3.Exists([x], move.result(x) != U.EMPTY)
    return Query(facts, extends, {"board": b, "after the move": move.result}, {"v": v}, p)


# --- beyond the source ----------------------------------------------------------------------


def symmetry_query(rules: UR.Rules, mode: str) -> Query:
    """Colour symmetry: exchanging the colours of the board and of the mover exchanges the
    colours of the result, swap(move(b, p, m)) = move(swap(b), p*, m)."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "y")
    mirrored = UR.placed(lambda x: U.swap(b(x)), U.opponent(p), m, rules, "z")
    facts = [U.is_player(p), b(m) == U.EMPTY] + move_facts(move, mode) + move_facts(mirrored, mode)
    if mode == PROOF:
        for R, S in zip(move.reachings, mirrored.reachings):
            facts += [R.least_within(S), S.least_within(R)]
    goal = U.every_point("cs_v", lambda x: U.swap(move.result(x)) == mirrored.result(x))
    return Query(facts, goal, {"board": b, "after the move": move.result}, {"m": m}, p)


def counted(b: U.Board, p, to_p: U.Reaching, to_other: U.Reaching, rules: UR.Rules):
    """The points score(b, p) counts: p's stones and the empty points that reach p but not p*."""
    return lambda v: z3.Or(
        b(v) == p, z3.And(b(v) == U.EMPTY, to_p(v), z3.BoolVal(True) if rules.dame_counted else z3.Not(to_other(v)))
    )


def score_query(rules: UR.Rules, mode: str) -> Query:
    """The score bound, pointwise: no point counts for both players (Coq's ``disjoint_count``
    turns this into score(b, Black) + score(b, White) ≤ |Point| on a finite graph).  A model
    must count every point and one point twice, so that the two scores exceed |Point|."""
    b = U.board_symbol("b")
    to_black, to_white = U.Reaching("R_black", b, U.BLACK), U.Reaching("R_white", b, U.WHITE)
    black, white = counted(b, U.BLACK, to_black, to_white, rules), counted(b, U.WHITE, to_white, to_black, rules)
    facts = reaching_facts([to_black, to_white], mode)
    disjoint = U.every_point("sb_v", lambda v: z3.Not(z3.And(black(v), white(v))))
    if mode == MODEL:
        covered = U.every_point("sb_c", lambda v: z3.Or(black(v), white(v)))
        return Query(facts, z3.Or(disjoint, z3.Not(covered)), {"board": b})
    return Query(facts, disjoint, {"board": b})


def exclusive_query(rules: UR.Rules, mode: str, undirected: bool = True) -> Query:
    """Capture exclusivity on undirected graphs: on a well-formed board no move both captures
    (removes a stone of p*) and removes a stone of p.  The two closed sets: the stones of p*
    that still reach Empty on b[m ↦ p] (closed unless a captured stone is next to m), and the
    stones of p that reach Empty after the capture (closed once m has a liberty)."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "x")
    R0 = spec_reaching("R_excl", b)
    R1, R2 = move.reachings
    x, z = z3.Consts("captured_x selfcaptured_z", U.Point)
    captures = z3.Exists([x], z3.And(move.placed(x) == U.opponent(p), move.first(x) == U.EMPTY))
    self_captures = z3.Exists([z], z3.And(move.first(z) == p, move.result(z) == U.EMPTY))
    facts = [U.is_player(p), b(m) == U.EMPTY, U.well_formed(R0)] + reaching_facts([R0], mode) + move_facts(move, mode)
    if undirected:
        facts.append(U.symmetric())
    if mode == PROOF:
        facts.append(R0.least_within(lambda u: z3.Implies(b(u) == U.opponent(p), R1(u))))
        facts.append(R0.least_within(lambda u: z3.Implies(b(u) == p, R2(u))))
    boards = {"well-formed board": b, "after the move": move.result}
    return Query(facts, z3.Not(z3.And(captures, self_captures)), boards, {"m": m}, p)


def locality_query(rules: UR.Rules, mode: str) -> Query:
    """Capture locality: on a well-formed board, a stone removed by the second clearing has a
    path to the played point through the mover's stones on b[m ↦ p].  The chain of m is a
    predicate C with closure only (m ∈ C; u ↔ w, b'(u) = p, w ∈ C ⇒ u ∈ C): proving C(z)
    for every closed C proves it for the least one.  The closed set of b that the argument
    uses: the mover's stones that reach Empty after the capture, or lie in the chain."""
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    move = UR.placed(b, p, m, rules, "l")
    R0 = spec_reaching("R_local", b)
    chain = z3.Function("chain", U.Point, z3.BoolSort())
    u, w, z = z3.Consts("chain_u chain_w removed_z", U.Point)
    closed_chain = z3.ForAll([u, w], z3.Implies(z3.And(U.adj(u, w), move.placed(u) == p, chain(w)), chain(u)))
    facts = [U.is_player(p), b(m) == U.EMPTY, U.well_formed(R0), chain(m), closed_chain]
    facts += reaching_facts([R0], mode) + move_facts(move, mode)
    facts += [move.first(z) != U.EMPTY, move.result(z) == U.EMPTY]
    if mode == PROOF:
        R2 = move.reachings[-1]
        facts.append(R0.least_within(lambda x: z3.Implies(b(x) == p, z3.Or(R2(x), chain(x)))))
    else:
        rank = z3.Function("chain_rank", U.Point, z3.IntSort())
        support = z3.Exists([w], z3.And(U.adj(u, w), move.placed(u) == p, chain(w), rank(w) < rank(u)))
        facts.append(z3.ForAll([u], z3.And(rank(u) >= 0, z3.Implies(chain(u), z3.Or(u == m, support)))))
    boards = {"well-formed board": b, "after the move": move.result}
    return Query(facts, chain(z), boards, {"m": m, "z": z}, p)


def automorphism_query(rules: UR.Rules, mode: str) -> Query:
    """Invariance under automorphisms: for a bijection σ of the points that preserves ↔
    (τ its inverse), playing σ(m) on σb = b ∘ τ gives σ of the result of playing m on b."""
    sigma, tau = z3.Function("sigma", U.Point, U.Point), z3.Function("tau", U.Point, U.Point)
    b, p, m = U.board_symbol("b"), z3.Const("p", U.Colour), z3.Const("m", U.Point)
    v, w = z3.Consts("auto_v auto_w", U.Point)
    move = UR.placed(b, p, m, rules, "a")
    moved = UR.placed(lambda x: b(tau(x)), p, sigma(m), rules, "t")
    facts = [U.is_player(p), b(m) == U.EMPTY]
    facts += [
        U.every_point("inv_x", lambda x: tau(sigma(x)) == x),
        U.every_point("inv_y", lambda x: sigma(tau(x)) == x),
    ]
    facts.append(z3.ForAll([v, w], U.adj(v, w) == U.adj(sigma(v), sigma(w))))
    facts += move_facts(move, mode) + move_facts(moved, mode)
    if mode == PROOF:
        for R, S in zip(move.reachings, moved.reachings):
            facts += [R.least_within(lambda u, S=S: S(sigma(u))), S.least_within(lambda u, R=R: R(tau(u)))]
    goal = U.every_point("auto_x", lambda x: moved.result(sigma(x)) == move.result(x))
    points = {"m": m, "spared": UR.SPARED} if rules.spare_point else {"m": m}
    return Query(facts, goal, {"board": b, "after the move": move.result}, points, p, {"sigma": sigma})


def exclusive_on_digraphs_query(rules: UR.Rules, mode: str) -> Query:
    """Capture exclusivity without the symmetry of ↔."""
    return exclusive_query(rules, mode, undirected=False)


# --- replay on the spec ------------------------------------------------------------------


def well_formed_on(graph: Graph, b: tuple) -> bool:
    """Every point reaches Empty, by the spec."""
    return tt.reaching(graph, b, tt.EMPTY) == frozenset(graph.points)


def hypotheses(obligation: str, graph: Graph, case: dict) -> bool:
    """Whether the concrete case meets the obligation's hypotheses, by the spec."""
    boards, points = case["boards"], case["points"]
    if obligation == "emptying":
        b, small = boards["b"], boards["b emptied"]
        return all(small[x] in (b[x], tt.EMPTY) for x in graph.points)
    if obligation == "replay":
        b, c, u = boards["well-formed board"], boards["part of it"], points["u"]
        part = all(c[x] in (b[x], tt.EMPTY) for x in graph.points)
        return well_formed_on(graph, tuple(b)) and part and c[u] == tt.EMPTY != b[u]
    if obligation == "step":
        b = boards["well-formed board"]
        return well_formed_on(graph, tuple(b)) and b[points["m"]] == tt.EMPTY
    if obligation == "characterization":
        return boards["board"][points["m"]] == tt.EMPTY
    if obligation == "characterization-as-written":
        b = boards["well-formed board"]
        return well_formed_on(graph, tuple(b)) and b[points["m"]] == tt.EMPTY
    if obligation in ("exclusive", "exclusive-on-digraphs"):
        b = boards["well-formed board"]
        return well_formed_on(graph, tuple(b)) and b[points["m"]] == tt.EMPTY
    if obligation == "colour-symmetry":
        return boards["board"][points["m"]] == tt.EMPTY
    if obligation == "automorphism":
        sigma = case["maps"]["sigma"]
        bijective = sorted(sigma) == list(graph.points)
        preserved = all(
            (w in graph.neighbours[v]) == (sigma[w] in graph.neighbours[sigma[v]])
            for v in graph.points
            for w in graph.points
        )
        return bijective and preserved and boards["board"][points["m"]] == tt.EMPTY
    if obligation == "locality":
        b = boards["well-formed board"]
        return well_formed_on(graph, tuple(b)) and b[points["m"]] == tt.EMPTY
    if obligation == "definedness-as-written":
        return set(boards["board"]) <= {tt.EMPTY} and case["player"] == tt.BLACK
    return obligation in ("definedness", "score")


def conclusion(obligation: str, graph: Graph, case: dict, rules: UR.Rules) -> bool:
    """Whether the obligation's conclusion holds on the concrete case, recomputed with the
    spec (and the mutant's move), never with the solver's values."""
    boards, points, p = case["boards"], case["points"], case["player"]
    if obligation == "emptying":
        b, small = tuple(boards["b"]), tuple(boards["b emptied"])
        kept = [u for u in tt.reaching(graph, b, tt.EMPTY) if small[u] == b[u] != tt.EMPTY]
        return all(tt.reaches(graph, small, u, tt.EMPTY) for u in kept)
    if obligation == "replay":
        b, c, u = tuple(boards["well-formed board"]), tuple(boards["part of it"]), points["u"]
        return UR.concrete_placed(graph, c, b[u], u, rules) == tt.update(c, u, b[u])
    b = tuple(boards.get("board") or boards["well-formed board"])
    if obligation == "step":
        return well_formed_on(graph, UR.concrete_placed(graph, b, p, points["m"], rules))
    if obligation == "characterization":
        m = points["m"]
        return UR.concrete_placed(graph, b, p, m, rules) == spec_characterized(graph, b, p, m)
    if obligation == "characterization-as-written":
        return UR.concrete_placed(graph, b, p, points["m"], rules)[points["m"]] == tt.EMPTY
    if obligation == "definedness":
        v = points["v"]
        defined = rules.overwrite or tt.move(graph, tt.State(b, p, 0), v) is not None
        return defined == (b[v] == tt.EMPTY)
    if obligation == "colour-symmetry":
        m, mirrored = points["m"], tuple(UR.swap(c) for c in b)
        after = UR.concrete_placed(graph, b, p, m, rules)
        return tuple(UR.swap(c) for c in after) == UR.concrete_placed(graph, mirrored, tt.opponent(p), m, rules)
    if obligation == "score":
        total = sum(UR.concrete_score(graph, b, q, rules) for q in (tt.BLACK, tt.WHITE))
        return total <= graph.order
    if obligation in ("exclusive", "exclusive-on-digraphs"):
        m, q = points["m"], tt.opponent(p)
        b1 = tt.update(b, m, p)
        first = tt.clear(graph, b1, q)
        after = UR.concrete_placed(graph, b, p, m, rules)
        captured = any(b1[x] == q and first[x] == tt.EMPTY for x in graph.points)
        self_captured = any(first[z] == p and after[z] == tt.EMPTY for z in graph.points)
        return not (captured and self_captured)
    if obligation == "definedness-as-written":
        start = tt.initial_state(graph)
        following = tt.move(graph, start, points["v"])
        extends = following is not None and following.board != start.board
        written = start.board[points["v"]] == tt.EMPTY and following != start
        return extends == written
    if obligation == "automorphism":
        sigma, m, spared = case["maps"]["sigma"], points["m"], points.get("spared", 0)
        image = [tt.EMPTY] * graph.order
        for x in graph.points:
            image[sigma[x]] = b[x]
        after = UR.concrete_placed(graph, b, p, m, rules, spared)
        moved = UR.concrete_placed(graph, tuple(image), p, sigma[m], rules, spared)
        return all(moved[sigma[x]] == after[x] for x in graph.points)
    if obligation == "locality":
        return removed_in_second_clearing(graph, b, p, points["m"], rules) <= played_chain(graph, b, p, points["m"])
    raise ValueError(f"no replay for {obligation!r}")


def replay(obligation: str, graph: Graph, case: dict, rules: UR.Rules) -> bool:
    """Whether the obligation's statement holds on the concrete case: its hypotheses fail,
    or its conclusion holds."""
    return not hypotheses(obligation, graph, case) or conclusion(obligation, graph, case, rules)


def removed_in_second_clearing(graph: Graph, b: tuple, p: tt.Player, m: int, rules: UR.Rules) -> set:
    """The points the second clearing of p's move at m empties, under the rules."""
    b1 = tt.update(b, m, p)
    first_colour = p if rules.own_first else tt.opponent(p)
    first = UR.concrete_clear(graph, b1, first_colour, UR.concrete_reaching(graph, b1, rules))
    after = UR.concrete_placed(graph, b, p, m, rules)
    return {z for z in graph.points if first[z] != tt.EMPTY and after[z] == tt.EMPTY}


def played_chain(graph: Graph, b: tuple, p: tt.Player, m: int) -> set:
    """m and the stones of p on b[m ↦ p] with a path to m through stones of p."""
    b1, chain = tt.update(b, m, p), {m}
    grown = True
    while grown:
        more = {u for u in graph.points if b1[u] == p and any(w in chain for w in graph.neighbours[u])}
        grown = not more <= chain
        chain |= more
    return chain


def spec_characterized(graph: Graph, b: tuple, p: tt.Player, m: int) -> tuple:
    """T3's right-hand side computed with the spec."""
    b1 = tt.update(b, m, p)
    cb = tt.clear(graph, b1, tt.opponent(p))
    return tuple(
        tt.EMPTY
        if (b1[v] == tt.opponent(p) and not tt.reaches(graph, b1, v, tt.EMPTY))
        or (b1[v] == p and not tt.reaches(graph, cb, v, tt.EMPTY))
        else b1[v]
        for v in graph.points
    )


BUILDERS: dict[str, Callable[[UR.Rules, str], Query]] = {
    "emptying": emptying_query,
    "step": step_query,
    "replay": replay_query,
    "characterization": characterization_query,
    "characterization-as-written": characterization_as_written_query,
    "definedness": definedness_query,
    "definedness-as-written": definedness_as_written_query,
    "colour-symmetry": symmetry_query,
    "score": score_query,
    "exclusive": exclusive_query,
    "locality": locality_query,
    "automorphism": automorphism_query,
    "exclusive-on-digraphs": exclusive_on_digraphs_query,
}
