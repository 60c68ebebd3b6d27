"""A game of any ruleset, move by move, and its SGF-like record (made for Political Go).

``game_steps`` replays the words of a game through the ruleset interface and keeps, for
each move, who made it and what it did beyond the board (the ruleset's ``events``, if it
has them: for Political Go the alliances made and broken and the stones captured).
``record_text`` writes the game in the shape of SGF: a root node naming the ruleset, its
options, the graph and the players, then one node per move, ``P[player]M[move]`` with a
comment ``C[...]`` for its events, then the final scores and the winners in ``RE[...]``.
SGF has no property for a player beyond Black and White, hence "SGF-like".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from gorules.impl.formats.files import write_text_atomically
from gorules.spec.api import Situation
from gorules.spec.graph import Graph, GraphError, graph_from_json, graph_to_json, parse_graph


@dataclass(frozen=True)
class Step:
    """One move of a game: its number, who made it, how it is written, what it did."""

    number: int
    player: str
    move: str
    events: tuple[str, ...]


def game_steps(start: Situation, words: list[str]) -> tuple[Situation, list[Step]]:
    """The situation after the moves the words name, and the steps taken (IllegalMove or
    the ruleset's error for a bad word, as ``Situation.play`` raises them)."""
    ruleset, graph = start.ruleset, start.graph
    events = getattr(ruleset, "events", None)
    situation, steps = start, []
    for number, word in enumerate(words, 1):
        move = ruleset.parse_move(graph, word)
        after = situation.play(move)
        happened = tuple(events(graph, situation.state, after.state)) if events else ()
        steps.append(Step(number, str(situation.to_move), ruleset.move_text(graph, move), happened))
        situation = after
    return situation, steps


def escape(text: str) -> str:
    """A property value as SGF writes it: backslash before "]" and "\\"."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def result_text(situation: Situation) -> str | None:
    """Each player's final score and the winners, in words (None before the end)."""
    scores = situation.result()
    if scores is None:
        return None
    if not isinstance(scores, dict):
        return str(scores)
    top = max(scores.values())
    winners = ", ".join(p for p, v in scores.items() if v == top)
    return " ".join(f"{p}={v}" for p, v in scores.items()) + f"; winners: {winners}"


def graph_property(graph: Graph) -> str:
    """``GJ[...]``, the graph as JSON (``graph_to_json``), when its name alone does not give it
    back (a graph read from a file or built in Python); else nothing."""
    try:
        named = parse_graph(graph.name) == graph
    except GraphError:
        named = False
    return "" if named else f"GJ[{escape(json.dumps(graph_to_json(graph), separators=(',', ':')))}]"


def record_text(start: Situation, steps: list[Step], end: Situation) -> str:
    """The SGF-like record of a game from `start` through `steps` to `end`."""
    ruleset = start.ruleset
    players = getattr(ruleset.options, "players", None) or ruleset.players or ()
    root = (
        f"(;GM[{escape(ruleset.name)}]AP[gorules]CA[UTF-8]RU[{escape(ruleset.options.describe())}]"
        f"GR[{escape(start.graph.name)}]{graph_property(start.graph)}PL[{escape(','.join(players))}]"
    )
    nodes = [root]
    for step in steps:
        comment = f"C[{escape('; '.join(step.events))}]" if step.events else ""
        nodes.append(f";P[{escape(step.player)}]M[{escape(step.move)}]{comment}")
    result = result_text(end)
    if result is not None:
        nodes.append(f";RE[{escape(result)}]")
    return "\n".join(nodes) + ")\n"


def write_record(path: str, start: Situation, steps: list[Step], end: Situation) -> None:
    """Write the record to a file, whole or not at all."""
    write_text_atomically(path, record_text(start, steps, end))


RECORD_APPLICATION = "AP[gorules]"
"""The root property that marks a record in this module's form."""


@dataclass(frozen=True)
class GameRecord:
    """A record in this module's form, read back: the ruleset's name and options (as
    ``Options.describe`` writes them), the graph's name, the players, the (player, move)
    pairs, the result line (None when the record has none) and the graph as JSON when the
    record holds it (``GJ``)."""

    ruleset: str
    options: str
    graph: str
    players: tuple[str, ...]
    moves: tuple[tuple[str, str], ...]
    result: str | None
    graph_json: dict | None = None

    def board_graph(self) -> Graph:
        """The graph the record is played on: from ``GJ`` when present, else by its name;
        GraphError if neither gives one."""
        if self.graph_json is not None:
            return graph_from_json(self.graph_json)
        return parse_graph(self.graph)


def is_record_text(text: str) -> bool:
    """Whether SGF-like text is a record of this module's form: its root marks the
    application and names a game other than SGF's Go (``GM[1]``)."""
    root = text.lstrip()[:2000].split(";", 2)
    if len(root) < 2 or RECORD_APPLICATION not in root[1]:
        return False
    game = re.search(r"GM\[([^\]]*)\]", root[1])
    return game is not None and game.group(1).strip() != "1"


def record_nodes(text: str) -> list[list[tuple[str, str]]]:
    """The nodes of one SGF-like game, each a list of (property, value), values unescaped;
    ValueError for text of another shape."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        raise ValueError("a record is written '(;...)'")
    nodes: list[list[tuple[str, str]]] = []
    i, name = 1, ""
    while i < len(text) - 1:
        char = text[i]
        if char == ";":
            nodes.append([])
        elif char == "[":
            value, i = _value(text, i + 1)
            if not nodes or not name:
                raise ValueError(f"a value without a property at character {i}")
            nodes[-1].append((name, value))
            i += 1
            continue
        elif char.isalpha():
            name = name + char if text[i - 1].isalpha() else char
        elif not char.isspace():
            raise ValueError(f"unexpected {char!r} at character {i}")
        i += 1
    return nodes


def _value(text: str, i: int) -> tuple[str, int]:
    """The unescaped value starting at ``i`` and the index of its closing bracket."""
    out = []
    while i < len(text) and text[i] != "]":
        if text[i] == "\\" and i + 1 < len(text):
            i += 1
        out.append(text[i])
        i += 1
    if i >= len(text):
        raise ValueError("a value without its closing ']'")
    return "".join(out), i


def parse_record_text(text: str) -> GameRecord:
    """The GameRecord of :func:`record_text`'s form; ValueError naming what is missing."""
    nodes = record_nodes(text)
    if not nodes:
        raise ValueError("the record has no node")
    root = dict(nodes[0])
    missing = [key for key in ("GM", "RU", "GR") if key not in root]
    if missing:
        raise ValueError(f"the root lacks {', '.join(missing)}")
    moves, result = [], None
    for node in nodes[1:]:
        found = dict(node)
        if "M" in found:
            moves.append((found.get("P", ""), found["M"]))
        if "RE" in found:
            result = found["RE"]
    players = tuple(p for p in root.get("PL", "").split(",") if p)
    graph_json = json.loads(root["GJ"]) if "GJ" in root else None
    if graph_json is not None and not isinstance(graph_json, dict):
        raise ValueError("GJ holds no graph")
    return GameRecord(root["GM"], root["RU"], root["GR"], players, tuple(moves), result, graph_json)
