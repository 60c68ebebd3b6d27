"""The known convention differences: how a disagreement with the spec is classified.

An engine that disagrees with the spec under a preset either plays a convention of its own
that is known and documented (it forbids suicide where the preset allows it, it checks
simple ko where the preset has superko...), or disagrees in a way nothing here explains.
:data:`CONVENTIONS` is the table (``docs/fuzzing.md`` shows it with the engines it was seen
in); :func:`classify` names the row a disagreement falls in, from what the spec knows about
the disputed move, or ``unexplained``.
"""

from __future__ import annotations

from dataclasses import dataclass

UNEXPLAINED = "unexplained"

CONVENTIONS: dict[str, str] = {
    "suicide-forbidden": "the engine refuses a suicide that the preset allows: it forbids suicide",
    "suicide-allowed": "the engine accepts a suicide that the preset forbids: it allows suicide",
    "superko-skips-suicide": "the engine accepts a suicide that recreates an earlier board: "
    "its superko test does not look at moves that remove their own stones",
    "simple-ko-only": "the engine accepts a move that recreates an earlier board other than the one "
    "before the opponent's move: it checks simple ko where the preset has superko",
    "ko-stricter": "the engine refuses a move that recreates an earlier board, which the preset's ko rule allows",
    "repetition-ends-game": "the engine ended the game when a stone move recreated an earlier board (which "
    "the preset's ko rule allowed) and refuses every move after it",
    "dead-stones-removed": "the engine's final score is the area score after removing the stones it "
    "calls dead (final_status_list dead); the spec scores the board as it stands",
    "status-judged": "the engine's final score follows its own judgement of the stones it calls dead or "
    "in seki (final_status_list), which the spec does not make: it scores the board as it stands",
}


@dataclass(frozen=True)
class MoveFacts:
    """What the spec knows about a disputed move: whether it removes its own stones, which
    earlier board it recreates (0 none, 1 the board before the opponent's move, 2 an older
    one), and whether a stone move of the game before it recreated an earlier board."""

    suicide: bool = False
    repeats: int = 0
    repeated_before: bool = False


def classify(kind: str, reason: str, facts: MoveFacts, dead_explains: bool = False, judged: bool = False) -> str:
    """The convention a disagreement of ``kind`` (``accepted`` a move the spec refuses for
    ``reason``, ``refused`` a legal move, ``board``, ``score``) falls in, or UNEXPLAINED.
    For a score, ``dead_explains`` says that removing the stones the engine calls dead
    gives its score, ``judged`` that it calls some stones dead or in seki."""
    if kind == "accepted":
        if reason == "suicide":
            return "suicide-allowed"
        if facts.repeats and facts.suicide:
            return "superko-skips-suicide"
        if facts.repeats == 2:
            return "simple-ko-only"
    if kind == "refused":
        if facts.repeated_before:
            return "repetition-ends-game"
        if facts.suicide:
            return "suicide-forbidden"
        if facts.repeats:
            return "ko-stricter"
    if kind == "score" and dead_explains:
        return "dead-stones-removed"
    if kind == "score" and judged:
        return "status-judged"
    return UNEXPLAINED


def described(name: str) -> str:
    """The sentence of a class (its row of the table), or the word for an unexplained one."""
    return CONVENTIONS.get(name, "an unexplained disagreement")
