"""``--situation FILE|TEXT``: a situation to start from, for any ruleset that can read one.

The argument is a file's name or the text itself; text that starts with ``{`` is JSON (as
``Situation.to_json`` writes it, read by the ruleset's ``state_from_json``), any other text
is the ruleset's own written form (its ``state_from_text``, where it has one; Ultimate and
Fundamental Go: ``field: value`` lines or ``;``-separated fields).  Text that starts with
``(;`` is an SGF record whose root sets up the position (``AB``/``AW``/``AE``, and ``PL`` for
the player to move, Black without it) on its square grid; it is read as JSON with just
the board and the player to move, so any ruleset that reads JSON situations reads it, and
a record with moves is refused (the situation is the setup, not a game).
"""

from __future__ import annotations

import json
from pathlib import Path

from gorules.errors import UsageError
from gorules.impl.formats.sgf import RecordError, parse_sgf
from gorules.spec.api import Ruleset, Situation
from gorules.spec.graph import Graph
from gorules.spec.text import board_text

SGF_START = "(;"


def add_argument(parser) -> None:
    """Add ``--situation FILE|TEXT``."""
    parser.add_argument(
        "--situation",
        metavar="FILE|TEXT",
        default=None,
        help='start from this situation instead of the empty board: a file, JSON, or e.g. "board: B../...; to move: W"',
    )


def text_of(argument: str) -> str:
    """The situation's text: the file's content if the argument names a file, else the
    argument itself; UsageError for a missing file."""
    if "\n" in argument or argument.lstrip().startswith(("{", SGF_START)):
        return argument
    path = Path(argument)
    try:
        is_file = len(argument) < 1024 and path.is_file()
    except OSError:
        is_file = False
    if is_file:
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read situation file {argument!r}: {error}") from None
    if ":" not in argument:
        raise UsageError(f"situation file {argument!r} does not exist (give a file or the situation's text)")
    return argument


def sgf_data(text: str) -> dict | None:
    """The situation an SGF record's root sets up, as the JSON fields ``graph``, ``board``
    and ``to_move``; None if the text is not SGF; UsageError if it cannot be read or has moves."""
    if not text.lstrip().startswith(SGF_START):
        return None
    try:
        record = parse_sgf(text, "the situation's SGF")
    except RecordError as error:
        raise UsageError(str(error)) from None
    if record.moves:
        raise UsageError(
            f"the situation's SGF has moves ({len(record.moves)}): a situation is set up with AB/AW/AE (and PL), "
            "without moves"
        )
    board = board_text(record.graph, record.setup, separator="").replace("\n", "/")
    return {"graph": record.graph.name, "board": board, "to_move": record.first_player}


def json_data(text: str) -> dict | None:
    """The situation's JSON object (an SGF setup given as one: :func:`sgf_data`), or None if
    the text is neither; UsageError if it starts like JSON but is not an object."""
    if not text.lstrip().startswith("{"):
        return sgf_data(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"the situation is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise UsageError("a situation in JSON is an object of fields")
    return data


def graph_name(text: str) -> str | None:
    """The graph the situation names (its ``graph`` field), or None."""
    data = json_data(text)
    if data is not None:
        name = data.get("graph")
        return name if isinstance(name, str) else None
    for line in text.replace(";", "\n").splitlines():
        field, colon, value = line.partition(":")
        if colon and field.strip().lower() == "graph":
            return value.strip()
    return None


def read(ruleset: Ruleset, graph: Graph, argument: str | None) -> Situation:
    """The situation the argument names (the ruleset's start if None); UsageError (or the
    ruleset's OptionError) in one line if it is not a situation of the graph."""
    if argument is None:
        return ruleset.initial(graph)
    text = text_of(argument)
    data = json_data(text)
    if data is not None:
        return ruleset.situation(graph, ruleset.state_from_json(graph, data))
    reader = getattr(ruleset, "state_from_text", None)
    if reader is None:
        raise UsageError(f"the {ruleset.name} ruleset reads situations only as JSON")
    return ruleset.situation(graph, reader(graph, text))
