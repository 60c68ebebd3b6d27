"""A fuzzing campaign of any engine against the spec, under a preset.

Games are played on the spec (``oracle.legal_under`` with the preset's options) and on a
contender side by side: a GTP engine (``impl.differential.engines.GtpContender``) or a
Python ruleset (``impl.differential.implementations.RulesetContender``).  Every move tried
is a check: the contender must accept what the spec allows and refuse what it forbids; after
each move played the boards are compared, and at the end of the game the area score.

Random play is steered toward the corners of the rules: a move that captures, a suicide, a
move recreating an earlier board is preferred when there is one, a move the spec forbids
(a repetition that removes no stone of its own first, suicides last, an occupied point now and then) is tried before the move
played, and some games pass often (never twice in a row before their end).  On boards
larger than 7×7 most moves go to one corner, so that stones meet there as on a small board.  Each game stops
at its first disagreement; the first one of each class is shrunk
(``impl.differential.shrinking``) and kept with the number of times its class was met.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.differential.conventions import MoveFacts, classify
from gorules.impl.differential.engines import EngineFault
from gorules.impl.differential.findings import Disagreement, Fault, Finding
from gorules.impl.differential.oracle import legal_under
from gorules.impl.engine import rules as engine
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, PASS, Options


class SpecGame:
    """The spec's side of a game: the states so far under the preset's options."""

    def __init__(self, graph: Graph, options: Options):
        self.graph = graph
        self.options = options
        self.history = [spec_rules.initial_state(graph)]
        self.played: list[tuple[str, object]] = []
        self.repeated = False

    @property
    def over(self) -> bool:
        """Whether two passes have ended the game."""
        return self.history[-1].passes >= 2

    @property
    def player(self) -> str:
        """The player to move."""
        return self.history[-1].player

    def verdict(self, v, move=spec_rules.move):
        """(the next state or None, the reason it is refused), by the spec's ``move`` (or the
        ``move`` given: the engine's twin, where only steering asks)."""
        return legal_under(self.options, self.graph, self.history, v, move)

    def facts(self, v, move=spec_rules.move) -> MoveFacts:
        """Whether v removes its own stones, and which earlier board it recreates."""
        if v == PASS:
            return MoveFacts(repeated_before=self.repeated)
        after = move(self.graph, self.history[-1], v)
        if after is None:
            return MoveFacts(repeated_before=self.repeated)
        suicide = after.board[v] == EMPTY
        before_opponent = len(self.history) >= 2 and self.history[-2].board == after.board
        earlier = any(s.board == after.board for s in self.history)
        return MoveFacts(suicide, 1 if before_opponent else 2 if earlier else 0, self.repeated)

    def advance(self, v, after) -> None:
        """Record the move v, whose next state is ``after``."""
        self.played.append((self.player, v))
        if v != PASS and any(s.board == after.board for s in self.history):
            self.repeated = True
        self.history.append(after)

    def margin(self, board: tuple | None = None) -> float:
        """Black's area score minus White's and komi, of the board now (or of ``board``)."""
        b = self.history[-1].board if board is None else board
        return spec_rules.score(self.graph, b, "B") - spec_rules.score(self.graph, b, "W") - self.options.komi


@dataclass
class Tally:
    """What a campaign compared: games, moves tried, checks (moves, boards, scores)."""

    games: int = 0
    moves: int = 0
    checks: int = 0
    boards: int = 0
    scores: int = 0
    skipped: set = field(default_factory=set)
    corners: Counter = field(default_factory=Counter)
    """The moves agreed on, by what they are: refused (by the spec's reason), or played
    suicides, captures and passes."""


def parse_margin(text: str) -> float | None:
    """Black's margin from a ``final_score`` answer (``B+3.5``, ``W+2``, ``0``), or None."""
    word = text.strip().upper()
    if word in ("0", "DRAW", "JIGO"):
        return 0.0
    if len(word) > 2 and word[0] in "BW" and word[1] == "+":
        try:
            value = float(word[2:])
        except ValueError:
            return None
        return value if word[0] == "B" else -value
    return None


def attempt(contender, spec: SpecGame, v, attempts: list, tally: Tally) -> Disagreement | None:
    """Try v for the spec's player to move on both sides; the disagreement it shows, or None."""
    graph, player = spec.graph, spec.player
    after, reason = spec.verdict(v)
    accepted, answer = contender.play(graph, player, v)
    tally.moves += 1
    tally.checks += 1

    def found(kind: str, said: str, engine: str, convention: str) -> Disagreement:
        return Disagreement(graph, list(attempts), kind, said, engine, convention, list(spec.played), (player, v))

    if after is None and accepted:
        convention = classify("accepted", reason, spec.facts(v))
        return found("accepted", f"illegal ({reason})", f"= {answer}".strip(), convention)
    if after is not None and not accepted:
        return found("refused", "legal", f"? {answer}".strip(), classify("refused", "", spec.facts(v)))
    if after is None:
        tally.corners[f"refused: {reason}"] += 1
        return None
    before = spec.history[-1].board
    if v == PASS:
        tally.corners["played: pass"] += 1
    elif after.board[v] == EMPTY:
        tally.corners["played: suicide"] += 1
    elif after.board.count(EMPTY) >= before.count(EMPTY):
        tally.corners["played: capture"] += 1
    spec.advance(v, after)
    reason_not = contender.board_reason
    if reason_not is not None:
        tally.skipped.add(f"boards not compared: {reason_not}")
        return None
    board = contender.board(graph)
    tally.boards += 1
    tally.checks += 1
    if board != after.board:
        shown = "".join(board) if board is not None else "unreadable"
        d = found("board", "".join(after.board), shown, "unexplained")
        d.played, d.disputed = d.played[:-1], d.played[-1]
        return d
    return None


def score_check(contender, spec: SpecGame, attempts: list, tally: Tally) -> Disagreement | None:
    """Compare the final area score with the engine's ``final_score``, where comparable."""
    if spec.options.scoring != "area":
        tally.skipped.add(f"scores not compared: the preset scores {spec.options.scoring}s")
        return None
    ok, text = contender.final_score()
    engine = parse_margin(text) if ok else None
    if engine is None:
        tally.skipped.add(f"scores not compared: final_score answered {text!r}")
        return None
    tally.scores += 1
    tally.checks += 1
    expected = spec.margin()
    if abs(engine - expected) < 1e-9:
        return None
    dead, seki = (contender.stones_judged(spec.graph, status) for status in ("dead", "seki"))
    board = tuple(EMPTY if v in dead else c for v, c in enumerate(spec.history[-1].board))
    explains = bool(dead) and abs(spec.margin(board) - engine) < 1e-9
    said = f"B+{expected:g}" if expected > 0 else f"W+{-expected:g}" if expected < 0 else "0"
    convention = classify("score", "", MoveFacts(), explains, bool(dead or seki))
    return Disagreement(spec.graph, list(attempts), "score", said, text.strip(), convention, list(spec.played))


def replay(contender, graph: Graph, options: Options, attempts: list, tally: Tally | None = None):
    """Play ``attempts`` from an empty board on both sides; the first disagreement, or None."""
    tally = tally if tally is not None else Tally()
    contender.new_game(graph)
    spec = SpecGame(graph, options)
    tried: list = []
    for v in attempts:
        if spec.over:
            break
        tried.append(v)
        d = attempt(contender, spec, v, tried, tally)
        if d is not None:
            return d
    return score_check(contender, spec, tried, tally) if spec.over else None


# --------------------------------------------------------------------------- steering


def candidates(spec: SpecGame, rng: random.Random, region=None, sample: int = 48) -> dict[str, list]:
    """Points sorted by what they do: capture, suicide, repeat (a legal recreation of an
    earlier board), plain, and the forbidden ones (repetitions first, suicides last).  Only steering asks this, so the
    engine's ``move`` (the spec's twin, checked equal by the differential tests) answers it
    fast; the verdict on each move tried is the spec's."""
    s = spec.history[-1]
    points = [v for v in (region or spec.graph.points) if s.board[v] == EMPTY]
    occupied = [v for v in spec.graph.points if s.board[v] != EMPTY]
    rng.shuffle(points)
    sorts: dict[str, list] = {"capture": [], "suicide": [], "repeat": [], "plain": [], "forbidden": []}
    forbidden_by: dict[str, list] = {}
    for v in points[: max(12, sample * 25 // max(25, spec.graph.order))]:
        after, reason = spec.verdict(v, engine.move)
        facts = spec.facts(v, engine.move)
        if after is None:
            forbidden_by.setdefault(f"{reason} by a suicide" if facts.suicide else reason, []).append(v)
            continue
        captured = after.board.count(EMPTY) >= s.board.count(EMPTY)
        kind = "suicide" if facts.suicide else "capture" if captured else "repeat" if facts.repeats else "plain"
        sorts[kind].append(v)
    for reason in sorted(forbidden_by, key=lambda r: ("suicide" in r, "board" not in r and "position" not in r)):
        sorts["forbidden"] += forbidden_by[reason]
    if occupied:
        sorts["forbidden"].append(rng.choice(occupied))
    return sorts


def choose(spec: SpecGame, rng: random.Random, pass_rate: float, ending: bool, region=None) -> list:
    """The moves to try this turn: perhaps a forbidden one first, then the one to play."""
    if ending:
        return [PASS]
    sorts = candidates(spec, rng, region if region and rng.random() < 0.9 else None)
    tries = []
    if sorts["forbidden"] and rng.random() < 0.3:
        tries.append(sorts["forbidden"][0] if rng.random() < 0.7 else rng.choice(sorts["forbidden"]))
    last_was_pass = spec.history[-1].passes > 0
    if not last_was_pass and rng.random() < pass_rate:
        return [*tries, PASS]
    for kind, weight in (("capture", 0.6), ("repeat", 0.6), ("suicide", 0.35)):
        if sorts[kind] and rng.random() < weight:
            return [*tries, sorts[kind][0]]
    legal = sorts["plain"] + sorts["capture"] + sorts["repeat"] + sorts["suicide"]
    return [*tries, rng.choice(legal) if legal else PASS]


def corner(graph: Graph, rng: random.Random) -> list | None:
    """On a square board larger than 7×7, the points of a corner of side 3 to 5, where most
    moves of a game go (so that stones meet, capture and retake as on a small board); None
    on smaller boards and other graphs."""
    if not graph.is_grid or graph.shape[0] != graph.shape[1] or graph.shape[0] <= 7:
        return None
    n, side = graph.shape[0], rng.choice((3, 4, 5))
    rows = range(side) if rng.random() < 0.5 else range(n - side, n)
    columns = range(side) if rng.random() < 0.5 else range(n - side, n)
    return [r * n + c for r in rows for c in columns]


def play_game(contender, graph: Graph, options: Options, rng: random.Random, tally: Tally) -> Disagreement | None:
    """One steered game to its end (two passes); its first disagreement, or None."""
    contender.new_game(graph)
    spec = SpecGame(graph, options)
    length = rng.randint(max(2, graph.order // 2), min(200, 3 * graph.order + 6))
    pass_rate = rng.choice((0.03, 0.1, 0.4))
    region = corner(graph, rng)
    tried: list = []
    turns = 0
    while not spec.over:
        for v in choose(spec, rng, pass_rate, turns >= length, region):
            tried.append(v)
            d = attempt(contender, spec, v, tried, tally)
            if d is not None:
                return d
        turns += 1
    return score_check(contender, spec, tried, tally)


# --------------------------------------------------------------------------- the campaign


class Contender(Protocol):
    """What a campaign and its shrinker ask of the side compared with the spec beyond the
    moves of a game (a GTP engine or a Python ruleset class)."""

    def describe(self) -> str:
        """The contender as the report names it."""
        ...

    def restart(self) -> None:
        """A fresh contender after a fault."""
        ...

    def close(self) -> None:
        """Stop it for good."""
        ...


@dataclass
class Campaign:
    """A campaign's settings and what it found."""

    contender: Contender
    options: Options
    preset: str
    graphs: Callable[[random.Random], Graph]
    shrink: Callable[[Disagreement], Disagreement]
    tally: Tally = field(default_factory=Tally)
    findings: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)
    sizes: list = field(default_factory=list)

    def run(self, games: int | None, seconds: float | None, seed: int, progress=None) -> None:
        """Play games until ``games`` are played or ``seconds`` have passed (the first to come)."""
        rng = random.Random(seed)
        start = time.monotonic()
        while (games is None or self.tally.games < games) and (seconds is None or time.monotonic() - start < seconds):
            self.one_game(rng)
            if progress is not None:
                progress(self.tally)

    def one_game(self, rng: random.Random) -> None:
        """Play one game; shrink a disagreement of a new class; restart the engine after a fault."""
        graph = self.graphs(rng)
        self.tally.games += 1
        try:
            d = play_game(self.contender, graph, self.options, rng, self.tally)
        except EngineFault as fault:
            self.faults.append(Fault(fault.kind, fault.command, fault.detail, self.tally.games))
            self.contender.restart()
            return
        if d is None:
            return
        if d.signature in self.findings:
            self.findings[d.signature].count += 1
            return
        self.findings[d.signature] = Finding(self.shrink(d))

    def close(self) -> None:
        """Stop the contender (kill an engine's process group)."""
        self.contender.close()

    def as_json(self) -> dict:
        """The totals, the classes found (with their shrunk case) and the faults."""
        t = self.tally
        return {
            "engine": self.contender.describe(),
            "preset": self.preset,
            "options": self.options.describe(),
            "board_sizes": self.sizes,
            "games": t.games,
            "moves": t.moves,
            "checks": t.checks,
            "boards_compared": t.boards,
            "scores_compared": t.scores,
            "not_compared": sorted(t.skipped),
            "agreed": dict(sorted(t.corners.items())),
            "disagreements": [
                {
                    "kind": f.case.kind,
                    "class": f.case.convention,
                    "count": f.count,
                    "board": f.case.graph.name,
                    "moves": f.case.moves_text(),
                    "disputed": f.case.move_text(),
                    "spec": f.case.spec,
                    "engine": f.case.engine,
                    "case": f.case.line(),
                }
                for f in self.findings.values()
            ],
            "faults": [fault.line() for fault in self.faults],
        }
