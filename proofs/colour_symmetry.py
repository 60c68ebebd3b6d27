"""Swapping the colours commutes with ``move``.

Statement: for every board b, player p and empty point v,
swap(move((b, p, 0), v).board) = move((swap(b), p*, 0), v).board, where swap exchanges
Black and White.  The rules favour neither colour.  No well-formedness is assumed.

Mutant: ``colour-biased`` removes only Black's chains without liberties in the second
clearing, so White's self-capture leaves its stones; the proof must find a board where
the two sides differ.
"""

from __future__ import annotations

import sys

from gorules.proofs import extras, sat
from gorules.spec import tromp_taylor as tt

NAME = "colour-symmetry"
STATEMENT = "Exchanging Black and White on the board and the player to move commutes with move."
STATEMENT_AS_WRITTEN = STATEMENT + " With reaches as the source writes it."
MUTANTS = ("colour-biased",)
MUTANTS_AVAILABLE = tuple(sat.MUTANTS)
ENCODINGS_AVAILABLE = extras.ENCODINGS_AVAILABLE
PLAYED_POINT = True
INVARIANT = True


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
    b = tuple(counterexample["boards"][0]["board"])
    v, p = counterexample["point"], counterexample["player"]
    if b[v] != tt.EMPTY:
        return True
    after = tt.move(graph, tt.State(b, p, 0), v).board
    mirrored = tt.move(graph, tt.State(swap(b), tt.opponent(p), 0), v).board
    return swap(after) == mirrored


def scope(graph) -> str:
    """What a proof covers."""
    return extras.scope_text(graph, "every board, move and player")


def prove(
    graph,
    as_written: bool = False,
    encoding: str = "unary",
    mutant: str | None = None,
    timeout: float | None = None,
    **options,
):
    """Prove the statement on a graph (or every graph of a SymbolicGraph's order)."""
    return extras.prove(sys.modules[__name__], graph, as_written, encoding, mutant, timeout, **options)
