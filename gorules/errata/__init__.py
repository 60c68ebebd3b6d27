"""The exhaustive errata checker: which statements of the source hold as written, which as corrected.

Every definition of ``002_8835c2492dce8849.txt`` that has a literal reading in
``spec/errata.py`` is compared, as written and as corrected, with an independent reference
written from Tromp and Taylor's English, on every board of every small graph; every theorem
statement of the source is checked as written and as corrected on every board, state or
game prefix of small graphs, within stated bounds.

- ``graphs``: the graphs searched and the bounds of the search;
- ``reference``: the independent reference (kept apart from ``spec/`` on purpose);
- ``cases``: the two readings of the rules, and the boards, states and game prefixes;
- ``statements``: each statement as a check that runs to a verdict;
- ``report``: counterexamples, verdicts and rows, as text, JSON, table and pictures;
- ``rows``: the table, one row per statement (``errata_table``, ``errata_row``).

The names below are those that callers use, importable from ``gorules.errata`` itself.
"""

from gorules.errata.cases import (
    AS_WRITTEN,
    CORRECTED,
    Rules,
    continues,
    game_prefixes,
    moves_of,
    reachable_states,
    well_formed,
    witness_game,
)
from gorules.errata.graphs import QUICK, THOROUGH, Bounds, all_boards, by_size
from gorules.errata.reference import reference_clear, reference_move, reference_reaches, reference_score
from gorules.errata.report import Counterexample, Finding, Verdict, move_names
from gorules.errata.rows import errata_row, errata_table
from gorules.errata.statements import (
    clear_against_reference,
    definedness,
    equation_step,
    fixed_points,
    indexed_equation_is_least_solution,
    move_against_reference,
    one_step,
    reaches_against_reference,
    score_against_reference,
    step_claim_as_written,
    step_claim_corrected,
    step_claim_no_capture_condition,
    step_claim_separated,
)

__all__ = [
    "AS_WRITTEN",
    "CORRECTED",
    "QUICK",
    "THOROUGH",
    "Bounds",
    "Counterexample",
    "Finding",
    "Rules",
    "Verdict",
    "all_boards",
    "by_size",
    "clear_against_reference",
    "continues",
    "definedness",
    "equation_step",
    "errata_row",
    "errata_table",
    "fixed_points",
    "game_prefixes",
    "indexed_equation_is_least_solution",
    "move_against_reference",
    "move_names",
    "moves_of",
    "one_step",
    "reachable_states",
    "reaches_against_reference",
    "reference_clear",
    "reference_move",
    "reference_reaches",
    "reference_score",
    "score_against_reference",
    "step_claim_as_written",
    "step_claim_corrected",
    "step_claim_no_capture_condition",
    "step_claim_separated",
    "well_formed",
    "witness_game",
]
