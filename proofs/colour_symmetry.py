"""Swapping the colours commutes with ``move``.

Statement: for every board b, player p and empty point v,
swap(move((b, p, 0), v).board) = move((swap(b), p*, 0), v).board, where swap exchanges
Black and White.  The rules favour neither colour.  No well-formedness is assumed.

Mutant: ``colour-biased`` removes only Black's chains without liberties in the second
clearing, so White's self-capture leaves its stones; the proof must find a board where
the two sides differ.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Reductions, Theorem
from gorules.spec import tromp_taylor as tt

NAME = "colour-symmetry"


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Boards where move on the swapped board differs from the swapped move."""
    setup = extras.move_setup(graph, cube, options)
    f = setup.formula
    mirror = sat.move(
        f,
        setup.adjacency,
        sat.swapped(setup.board),
        setup.x,
        sat.opponent(setup.player),
        options.encoding,
        options.mutant,
        written=options.as_written,
    )
    units = [extras.played_on_empty(setup), sat.boards_differ(f, sat.swapped(setup.steps.result), mirror.result)]

    def decode(model: set) -> dict:
        found = extras.move_counterexample(setup, graph, model, NAME, "swapped, this differs from")
        found["boards"].append(
            {
                "label": "the move on the swapped board",
                "board": extras.board_text(model, mirror.result),
                "marks": found["moves"],
            }
        )
        return found

    lemmas = extras.stage_lemmas(setup, mirror, options, list(range(setup.adjacency.order)))
    return extras.Query(f, units, decode, lemmas)


def swap(b) -> tuple:
    """The board with Black and White exchanged."""
    return tuple({"B": "W", "W": "B"}.get(c, c) for c in b)


def holds(graph, counterexample: dict) -> bool:
    """The statement on one concrete board and move, by the spec."""
    b, v, p = extras.the_move(counterexample)
    if b[v] != tt.EMPTY:
        return True
    after = extras.board_after(graph, b, p, v)
    mirrored = extras.board_after(graph, swap(b), tt.opponent(p), v)
    return swap(after) == mirrored


THEOREM = Theorem.beyond_the_source(
    NAME,
    "Exchanging Black and White on the board and the player to move commutes with move.",
    extras.CnfProof(query, holds, covers="every board, move and player"),
    mutants=("colour-biased",),
    reductions=Reductions(played_point=True, automorphism_invariant=True),
)
