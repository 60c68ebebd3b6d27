"""Records of games in files: a solved line written as SGF, and the records of any ruleset
read back and replayed.

Two forms (``docs/cli.md``, "Game records"):

- **SGF** (``GM[1]``), for a ruleset with the ``sgf`` capability on a square grid of at most
  25 lines: ``SZ``, ``KM``, the moves as ``B[..]``/``W[..]``, the result in ``RE`` (``B+1``,
  ``W+2``, ``0``), and the ruleset and its options in ``RU`` as ``NAME: OPTIONS``
  (``RU[tromp-taylor: ko=positional suicide=allowed scoring=area komi=0]``).  Any SGF reader
  takes it.
- **the gorules form**, for any ruleset on any graph: the SGF-like record of
  ``play --record`` (``impl/rulesets/political/record.py``): a root
  ``GM[ruleset]AP[gorules]RU[options]GR[graph]PL[players]`` (and ``GJ[graph as JSON]``
  when the graph's name does not give it back), one node ``P[player]M[move]`` per move,
  then ``RE[scores; winners]`` once the game is over.

``replay-sgf`` reads both: SGF in the engine and sgfmill, the gorules form by replaying its moves through the
ruleset it names, each move's player checked, and the result compared with ``RE``.
"""

from __future__ import annotations

from pathlib import Path

from gorules import rulesets
from gorules.errors import UsageError
from gorules.impl.formats.sgf import LARGEST_RECORD, RecordError, record_sgf
from gorules.impl.rulesets.political.record import (
    GameRecord,
    game_steps,
    is_record_text,
    parse_record_text,
    record_text,
    result_text,
)
from gorules.spec.api import IllegalMove, OptionError, Situation
from gorules.spec.graph import GraphError


def sgf_result(value) -> str | None:
    """SGF's ``RE`` of a margin for Black (``B+1``, ``W+2.5``, ``0``), None for other values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value == 0:
        return "0"
    return f"{'B' if value > 0 else 'W'}+{abs(value):g}"


def standard_sgf(start: Situation) -> bool:
    """Whether a line from ``start`` is written as standard SGF: a ruleset with the ``sgf``
    capability, on a square grid SGF can hold."""
    graph = start.graph
    if start.ruleset.capability("sgf") is None or not graph.is_grid:
        return False
    rows, columns = graph.shape
    return rows == columns <= 25


def line_record(start: Situation, moves: list, value=None) -> str:
    """The record of the line ``moves`` from the ruleset's start: SGF where
    :func:`standard_sgf` allows, else the gorules form; UsageError for a start that is not
    the ruleset's own (the gorules form starts there)."""
    ruleset, graph = start.ruleset, start.graph
    if start.key() != ruleset.initial(graph).key():
        raise UsageError("--sgf records a line from the ruleset's start: leave out --situation")
    if standard_sgf(start):
        komi = getattr(ruleset.options, "komi", 0)
        line = f"{ruleset.name}: {ruleset.options.describe()}"
        data = record_sgf(graph, list(moves), komi=float(komi), result=sgf_result(value), ruleset_line=line)
        return data.decode("utf-8")
    words = [ruleset.move_text(graph, move) for move in moves]
    try:
        end, steps = game_steps(start, words)
    except (IllegalMove, OptionError, ValueError) as error:
        raise UsageError(f"the line cannot be recorded: {error}") from None
    return record_text(start, steps, end)


def holds_game_record(path: str) -> bool:
    """Whether the file at ``path`` holds a record of the gorules form."""
    with open(path, "rb") as handle:
        head = handle.read(2000)
    return is_record_text(head.decode("utf-8", errors="replace"))


def read_game_record(path: str) -> GameRecord:
    """The gorules-form record in a file; RecordError, one line, if it cannot be read."""
    name = Path(path).name
    data = Path(path).read_bytes()
    if len(data) > LARGEST_RECORD:
        raise RecordError(f"{name}: more than {LARGEST_RECORD // 1_000_000} MB; not a game record this reader takes")
    try:
        return parse_record_text(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordError(f"{name}: not a readable gorules record ({error})") from None


def replay_game_record(record: GameRecord, name: str) -> dict:
    """The replay-sgf report of a gorules-form record: its moves played through the ruleset
    it names from that ruleset's start, where it stops and why, and whether the final
    scores are the record's ``RE``."""
    try:
        ruleset = rulesets.make(record.ruleset, options=rulesets.parse_options(record.options.split()))
        graph = record.board_graph()
    except (OptionError, GraphError, KeyError) as error:
        raise RecordError(f"{name}: {error}") from None
    situation = ruleset.initial(graph)
    unclean = None
    for number, (player, word) in enumerate(record.moves, 1):
        if player and str(situation.to_move) != player:
            unclean = f"move {number}: {player} plays, but {situation.to_move} is to move"
            break
        try:
            situation = situation.play(ruleset.parse_move(graph, word))
        except (IllegalMove, OptionError, GraphError, ValueError) as error:
            unclean = f"move {number} ({word}): {error}"
            break
    result = result_text(situation) if unclean is None else None
    compared = record.result is not None and unclean is None
    disagreement = None
    if compared and result != record.result:
        disagreement = f"the record's result is {record.result!r}, the replay's {result!r}"
    return {
        "record": name,
        "board": graph.name,
        "moves": len(record.moves),
        "unclean": unclean,
        "repetitions": [],
        "opinions": {"result": {"compared": int(compared), "disagreement": disagreement}},
        "ruleset": f"{ruleset.name} ({ruleset.options.describe()})",
        "result": result,
        "agree": unclean is None and disagreement is None,
    }
