"""The errata table: one row per statement of the source, as written and as corrected.

Each row runs its checks (``gorules.errata.statements``) on the graphs the bounds give
and says what was checked.  A row that holds has been *checked* exhaustively on the graphs
it names; that is not a proof for all graphs.  A row that fails carries the smallest
counterexample found (fewest points, then fewest arcs, then fewest stones), with a game that
leads to it.  ``progress``, where given, is told how many cases were checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from gorules.errata.cases import AS_WRITTEN, CORRECTED, well_formed_cases
from gorules.errata.graphs import QUICK, Bounds, board_graphs, graph_summary, prefix_graphs, state_graphs
from gorules.errata.report import Finding, Verdict, brief
from gorules.errata.statements import (
    Progress,
    clear_against_reference,
    combine,
    definedness,
    equation_has_one_solution,
    indexed_equation_is_least_solution,
    move_against_reference,
    occurs_by_enumeration,
    occurs_versus_well_formed,
    one_step,
    prefix_count,
    reaches_against_reference,
    score_against_reference,
    states_unique,
    step_claim_as_written,
    step_claim_corrected,
    step_claim_no_capture_condition,
    step_claim_separated,
    winner_of_each_game,
    winner_of_the_set,
)
from gorules.spec import errata as literal
from gorules.spec import tromp_taylor as tt


@lru_cache(maxsize=None)
def scope(bounds: Bounds) -> dict:
    """The graphs of each kind of check, and how much each kind covers (computed once)."""
    graphs = board_graphs(bounds)
    states = state_graphs(bounds)
    prefixes = prefix_graphs(bounds)
    return {
        "boards": graphs,
        "small": [g for g in graphs if g.order <= 4],
        "states": states,
        "prefixes": prefixes,
        "n_boards": sum(3**g.order for g in graphs),
        "n_well_formed": sum(1 for _ in well_formed_cases(graphs)),
        "n_state_boards": sum(1 for _ in well_formed_cases(states)),
    }


@lru_cache(maxsize=None)
def prefixes_enumerated(bounds: Bounds, rules_name: str) -> int:
    """How many game prefixes the enumeration visits, under the corrected or literal rules."""
    rules = CORRECTED if rules_name == CORRECTED.name else AS_WRITTEN
    return prefix_count(rules, scope(bounds)["prefixes"])


# --------------------------------------------------------------------------- definitions


@dataclass(frozen=True)
class Definition:
    """A definition of the source: its literal reading and the spec's, the check that
    compares a reading with the reference, and the words of its row."""

    statement: str
    as_written: Callable
    corrected: Callable
    check: Callable  # (function, graphs, progress) -> Verdict
    well_formed_only: bool  # compared on the well-formed boards only (else on every board)
    against: str
    note: str


DEFINITIONS = {
    "reaches": Definition(
        "reaches(b, v, c) = (b(v) = c) ∨ ∃v'. v ↔ v' ∧ b(v) = b(v') ∧ reaches(b, v', c)",
        literal.reaches_as_written,
        tt.reaches,
        reaches_against_reference,
        False,
        "every point and colour, against breadth-first search",
        "as written every step stays on v's colour, so reaches(b, v, c) holds iff b(v) = c: "
        "no stone reaches Empty; corrected: the last step may land on colour c",
    ),
    "clear": Definition(
        "clear(b, p)(v) = Empty if b(v) = p ∧ ¬reaches(b, v, Empty), else b(v)",
        literal.clear_as_written,
        tt.clear,
        clear_against_reference,
        False,
        "both players, against removal of chains without a liberty",
        "the definition is right; as written it inherits reaches's fault and removes every stone of p",
    ),
    "move": Definition(
        "move((b, p, n), v) with b' = clear(clear(b[v ↦ p], p*), p)",
        literal.move_as_written,
        tt.move,
        move_against_reference,
        True,
        "both players, every move, against Tromp–Taylor's step",
        "the definition is right; as written it inherits reaches's fault and no stone survives",
    ),
    "score": Definition(
        "score(b, p) = |{v : b(v) = p ∨ (b(v) = Empty ∧ reaches(b, p, v) ∧ ¬reaches(b, p*, v))}|",
        literal.score_as_written,
        tt.score,
        score_against_reference,
        True,
        "both players, against area scoring by flood fill",
        "reaches(b, p, v) swaps point and colour; read literally it never holds and the score "
        "counts stones only; corrected: reaches(b, v, p) ∧ ¬reaches(b, v, p*)",
    ),
}


def definition_row(key: str, bounds: Bounds, progress: Progress = None) -> Finding:
    """A definition, as written and corrected, against the independent reference on every
    board (or every well-formed board) of the board graphs."""
    d = DEFINITIONS[key]
    k = scope(bounds)
    graphs = k["boards"]
    if d.well_formed_only:
        checked = f"every well-formed board ({k['n_well_formed']}) of {graph_summary(graphs)}, {d.against}"
    else:
        checked = f"every board ({k['n_boards']}) of {graph_summary(graphs)}, {d.against}"
    return Finding(
        key,
        d.statement,
        d.check(d.as_written, graphs, progress),
        d.check(d.corrected, graphs, progress),
        checked,
        d.note,
    )


def fixed_point_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """reaches's equation without an index: one solution or several?"""
    small = scope(bounds)["small"]
    return Finding(
        "reaches-fixed-point",
        "reaches defined by its recursive equation alone (the stray 'for n ≥ 1')",
        equation_has_one_solution(True, small, progress),
        indexed_equation_is_least_solution(small, progress),
        f"every board ({sum(3**g.order for g in small)}) of {graph_summary(small)}, every colour: "
        "least and greatest solutions compared; corrected: reaches_n with n = |Point| against the spec",
        "the equation has several solutions; the intended one is the least (a path of finite "
        "length n ≥ 1), which the index n would have fixed",
    )


# --------------------------------------------------------------------------- theorems


def well_formed_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """b occurs in some game iff b is well-formed, as written and corrected."""
    k = scope(bounds)
    states, prefixes = k["states"], k["prefixes"]

    def both(rules) -> Verdict:
        """The statement under one reading: by reachable states, then by enumeration."""
        return combine(
            occurs_versus_well_formed(rules, states, progress), occurs_by_enumeration(rules, prefixes, progress)
        )

    return Finding(
        "well-formed-iff-occurs",
        "b occurs in some game g iff b is well-formed (reaches(b, v, Empty) for all v)",
        both(AS_WRITTEN),
        both(CORRECTED),
        f"every board of {graph_summary(states)} (occurrence decided by reachable states "
        f"and a replayed game); every game prefix of {graph_summary(prefixes)} enumerated "
        f"({prefixes_enumerated(bounds, CORRECTED.name)} prefixes corrected, "
        f"{prefixes_enumerated(bounds, AS_WRITTEN.name)} as written)",
        "holds as written only vacuously: with reaches as written the only well-formed board is "
        "the empty one, and with move as written the only board in any game is the empty one",
    )


def definedness_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """The move-definedness theorem, comparing states (as written) or boards (corrected)."""
    prefixes = scope(bounds)["prefixes"]
    return Finding(
        "move-definedness",
        "s_(i+1) = move(s_i, v) is defined iff v = Pass or b_i(v) = Empty and s_(i+1) ≠ s_j for j ≤ i",
        definedness(CORRECTED, True, prefixes, progress),
        definedness(CORRECTED, False, prefixes, progress),
        f"every non-final state of every game prefix ({prefixes_enumerated(bounds, CORRECTED.name)}) "
        f"of {graph_summary(prefixes)}, every move",
        "the game forbids repeating a board (3.2), the statement compares states, which also "
        "hold the player and the passes; corrected: b_(i+1) ≠ b_j",
    )


def one_step_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """The one-step clearing theorem, as written and as corrected."""
    k = scope(bounds)
    states = k["states"]
    return Finding(
        "one-step-clearing",
        "b_i(v) = b_(i+1)(v) unless b_i(v) = p_i* ∧ ¬reaches(b_i[v ↦ p_i], v, Empty) or "
        "b_i(v) = p_i ∧ b_i' = clear(b_i', p_i*) ∧ ¬reaches(clear(b_i', p_i*), v, Empty)",
        one_step(step_claim_as_written, states, progress),
        one_step(step_claim_corrected, states, progress),
        f"every well-formed board ({k['n_state_boards']}) of {graph_summary(states)}, both players, "
        "every legal move, every point",
        "v is both the played and the inspected point, and b_i stands where b_i' is meant; "
        "with the two points told apart but b_i kept, the statement "
        + one_step(step_claim_separated, states, progress).word
        + "; corrected: the source's displayed formula, b_(i+1)(v) from b_i' = b_i[v_i ↦ p_i]",
    )


def no_capture_condition_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """The one-step theorem's side condition b_i' = clear(b_i', p_i*): on the undirected graphs
    the source speaks of, and on the directed graphs of source 000."""
    states = scope(bounds)["states"]
    undirected = [g for g in states if not g.directed]
    directed = [g for g in states if g.directed]
    on_digraphs = one_step(step_claim_no_capture_condition, directed, progress)
    if on_digraphs.holds:
        digraph_note = f"it also holds on {graph_summary(directed)}"
    elif on_digraphs.counterexample is None:
        digraph_note = "on directed graphs (source 000) it was not settled"
    else:
        digraph_note = "on directed graphs (source 000) it fails, a move can capture and be suicide at once: " + brief(
            on_digraphs.counterexample
        )
    return Finding(
        "one-step-no-capture-condition",
        "in the one-step theorem, p_i's own stones go only if b_i' = clear(b_i', p_i*) (nothing captured)",
        one_step(step_claim_no_capture_condition, undirected, progress),
        one_step(step_claim_corrected, states, progress),
        f"every well-formed board of {graph_summary(undirected)}, both players, every legal move; "
        f"corrected (no side condition) also on {graph_summary(directed)}",
        "true on undirected graphs, where a capture always leaves the played stone a liberty; " + digraph_note,
    )


def states_unique_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """The remark that conditions 1 and 3.1 make the states unique."""
    prefixes = scope(bounds)["prefixes"]
    verdict = states_unique(prefixes, progress)
    return Finding(
        "states-unique",
        "(1. and 3.1. imply that the states are unique)",
        verdict,
        verdict,
        f"every game prefix ({prefixes_enumerated(bounds, CORRECTED.name)}) of {graph_summary(prefixes)}: "
        "each step recomputed with move",
        "true because move is a (partial) function; nothing to correct",
    )


def winner_row(bounds: Bounds, progress: Progress = None) -> Finding:
    """winner(G) as written (one value for the set of games) and winner(g) as meant."""
    prefixes = scope(bounds)["prefixes"]
    return Finding(
        "winner-of-g",
        "winner(G) = Black | White | Draw by S_p = score(b_N, p)",
        winner_of_the_set(prefixes, progress),
        winner_of_each_game([g for g in prefixes if g.order <= 2], progress=progress),
        f"every game of {graph_summary(prefixes)}; corrected: every move list of ≤5 moves on graphs of ≤2 points",
        "winner is applied to the set G; meant: winner(g) for each game g, with b_N its final board",
    )


# --------------------------------------------------------------------------- the table


def _definition(key: str) -> Callable[[Bounds, Progress], Finding]:
    """The row builder of a definition."""

    def row(bounds: Bounds, progress: Progress = None) -> Finding:
        """The row of this definition."""
        return definition_row(key, bounds, progress)

    return row


ROWS: dict[str, Callable[[Bounds, Progress], Finding]] = {
    "reaches": _definition("reaches"),
    "reaches-fixed-point": fixed_point_row,
    "clear": _definition("clear"),
    "move": _definition("move"),
    "score": _definition("score"),
    "well-formed-iff-occurs": well_formed_row,
    "move-definedness": definedness_row,
    "one-step-clearing": one_step_row,
    "one-step-no-capture-condition": no_capture_condition_row,
    "states-unique": states_unique_row,
    "winner-of-g": winner_row,
}

_FOUND: dict[tuple[str, Bounds], Finding] = {}  # each row computed once per bounds


def errata_row(key: str, bounds: Bounds = QUICK, progress: Progress = None) -> Finding:
    """One row of the table, by its key (computed once per bounds: ``progress`` is told only
    while it is computed)."""
    found = _FOUND.get((key, bounds))
    if found is None:
        found = _FOUND[(key, bounds)] = ROWS[key](bounds, progress)
    return found


def errata_table(bounds: Bounds = QUICK, progress: Progress = None) -> list[Finding]:
    """Every row: the source's definitions, then its theorem statements."""
    return [errata_row(key, bounds, progress) for key in ROWS]
