"""How problems reach the user: one line naming the problem, and an exit code.

Exit codes (see ``docs/exit-codes.md``): 0 success, 1 a check failed (a statement refuted,
a conjecture with a counterexample, records that disagree), 2 bad input or a refused or
exhausted budget (time, memory, recursion), 3 an internal error (a bug: the line says to
run again with ``--debug``).

JSON output is strict: :func:`json_text` never writes ``NaN`` or ``Infinity`` (which are
not JSON); a non-finite float is written as a string, ``"inf"``, ``"-inf"`` or ``"nan"``.
"""

from __future__ import annotations

import json
import math

SUCCESS = 0
CHECK_FAILED = 1
BAD_INPUT = 2
INTERNAL_ERROR = 3

SHOWN_CHARACTERS = 60


class UsageError(Exception):
    """Bad input from the user (a graph, a point, a move, a file): shown as one line, exit 2."""


class BudgetRefused(UsageError):
    """Work refused before it starts (or stopped) because it would exceed a budget of time or
    memory; the message names the flag that raises the limit.  Exit 2, like bad input."""


def shown(value, limit: int = SHOWN_CHARACTERS) -> str:
    """A value as quoted in an error line: its repr, cut to about ``limit`` characters with
    the length said, so that a 5,000-digit number does not fill the screen."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"… ({len(text):,} characters)"


LONGEST_LINE = 500


def one_line(text: str) -> str:
    """A message on one line: line breaks become ' / ', and a line longer than LONGEST_LINE
    characters is cut, its length said (a library may quote a 5,000-digit value)."""
    flat = " / ".join(part.strip() for part in str(text).splitlines() if part.strip())
    if len(flat) <= LONGEST_LINE:
        return flat
    return flat[:LONGEST_LINE] + f"… ({len(flat):,} characters)"


def strict(data):
    """JSON-able data with every non-finite float replaced by a string (``"inf"``, ``"-inf"``,
    ``"nan"``); tuples become lists.  Finite numbers, strings, booleans and None are kept."""
    if isinstance(data, float) and not math.isfinite(data):
        return "nan" if math.isnan(data) else ("inf" if data > 0 else "-inf")
    if isinstance(data, dict):
        return {key: strict(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [strict(value) for value in data]
    return data


def json_text(data, **options) -> str:
    """Strict JSON text of ``data`` (``json.dumps`` options accepted): non-finite floats
    written as strings by :func:`strict`, and ``allow_nan=False`` as the last guard."""
    return json.dumps(strict(data), allow_nan=False, **options)
