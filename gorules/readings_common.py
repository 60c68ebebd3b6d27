"""What `gorules readings SOURCE` reports: the smallest situations where two readings of one
clause of a source lead to different play or scores."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Disagreement:
    """The smallest situation found where two readings of one clause lead to different play or scores."""

    source: str  # "001" or "004"
    clause: str  # e.g. "Defn 7 (string of a stone)"
    readings: tuple[str, str]  # the two option values compared, e.g. ("literal", "intended")
    points: int  # size of the space/graph
    situation: str  # text of the space/graph, board and whose turn
    line: tuple[str, ...]  # the line of play that shows the difference (move texts)
    difference: str  # one sentence: what differs (the next board, a score, legality …)
    count: int  # number of disagreeing plays found at this size
    picture: str | None = None  # SVG text, or None

    def as_dict(self) -> dict:
        """The disagreement as a JSON-ready dictionary."""
        return dataclasses.asdict(self)
