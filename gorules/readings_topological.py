"""Where the readings of Topological Go (source ``001_463c45151ac4bff4.txt``) part ways.

For each option of the ruleset that reads an ambiguous clause (``reading_of``), the default
reading is compared with each other one on every go-space up to isomorphism, in increasing
number of points:

- Defn 7 (``string``), Defn 4 (``placement``) and Defn 8 (``clearing``) change board plays: every board play
  (colouring, player, placement) on every colouring that Proposition 2 allows (every
  coloured point in a stone of its colour, which every colouring met in play is) is made
  under both readings by the bitset twin, and the plays whose next colouring (or legality)
  differ are counted;
- Defn 5 (``closure``) changes only which sets of stones are go-connected: every set of
  placements is compared under both readings by the spec, which computes them differently;
- Defn 10a/10b (``scoring``) change the turns: a pass is a turn under the stone rules and
  not under the primitive ones, in every situation;
- Defns 7, 4 and 8 are also compared by who wins the primitive-rules game from the empty
  board under perfect play (``gorules.impl.solving.search.solve``), go-space by go-space.

For the smallest disagreeing go-space of each size (fewest placements first), a line of
play from the empty board to a disagreeing board play is searched for, move by move
through the ruleset interface, under the default reading.
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from gorules.errors import UsageError
from gorules.impl.rulesets import topological as engine
from gorules.readings_common import Disagreement
from gorules.spec import api
from gorules.spec import topological as spec
from gorules.spec.graph import braces, parse_graph, set_text
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Player

SOURCE = "001"
MAX_POINTS = 4
PLAYS_PER_SECOND = 40_000
"""A cautious rate of twin board plays per second, for the estimate made before the work."""
SETS_PER_SECOND = 15_000
"""A cautious rate of sets of placements compared by the spec under Defn 5's two readings."""
SOLVES_PER_SECOND = 100
"""A cautious rate of primitive-rules games solved on go-spaces of up to four points."""
LINE_DEPTH = 6
BOARD_PLAY_OPTIONS = ("string", "placement", "clearing")
"""The reading options that change board plays (compared play by play and by the winner)."""


@dataclass(frozen=True)
class Clause:
    """One option reading an ambiguous clause: its name, the clause, the default reading and
    the others."""

    option: str
    clause: str
    default: str
    others: tuple[str, ...]


def clauses() -> list[Clause]:
    """The reading options of the Topological ruleset, in declaration order."""
    found = []
    for f in api.reading_fields(spec.Options):
        others = tuple(c for c in f.metadata["choices"] if c != f.default)
        found.append(Clause(f.name, f.metadata["reading_of"], str(f.default), others))
    return found


@dataclass
class Tally:
    """What was compared for one clause and pair of readings at one size."""

    spaces: int = 0
    compared: int = 0
    disagreeing: int = 0
    disagreeing_spaces: list = field(default_factory=list)


@dataclass
class Finding:
    """The disagreements found, what was compared per clause, pair and size, and the largest
    size compared completely."""

    disagreements: list[Disagreement]
    compared: dict
    complete_up_to: int
    note: str = ""


def invariant_colourings(space: engine.Space) -> Iterator[tuple]:
    """Every colouring of X in which each coloured point lies in a stone of its colour
    (Proposition 2: every colouring met in play is one)."""
    for board in itertools.product((BLACK, WHITE, EMPTY), repeat=space.size):
        colouring = engine.colouring_of(board)
        covered = {BLACK: 0, WHITE: 0}
        for mask in space.masks:
            for c in (BLACK, WHITE):
                if not mask & ~colouring.of(c):
                    covered[c] |= mask
        if colouring.black & ~covered[BLACK] or colouring.white & ~covered[WHITE]:
            continue
        yield board


def readings_with(option: str, value: str) -> spec.Readings:
    """The default readings with one changed (``scoring`` is not a reading of Readings)."""
    return spec.INTENDED._replace(**{option: value}) if option in spec.Readings._fields else spec.INTENDED


def board_plays_compared(space: engine.Space, a: spec.Readings, b: spec.Readings) -> tuple[int, int]:
    """(board plays compared, board plays whose next colouring differs) on one go-space."""
    compared = differing = 0
    for board in invariant_colourings(space):
        colouring = engine.colouring_of(board)
        for i in range(len(space.masks)):
            for p in (BLACK, WHITE):
                compared += 1
                differing += engine.board_play(space, colouring, i, p, a) != engine.board_play(
                    space, colouring, i, p, b
                )
    return compared, differing


def go_connected_compared(neighbourhoods: spec.Neighbourhoods, a: spec.Readings, b: spec.Readings) -> tuple[int, int]:
    """(sets of placements compared, sets go-connected under one reading only) on one
    go-space, by the spec."""
    literal = spec.go_space(neighbourhoods.size, neighbourhoods.minimal, neighbourhoods.placements)
    placements = sorted(literal.placements, key=sorted)
    compared = differing = 0
    for k in range(1, len(placements) + 1):
        for family in itertools.combinations(placements, k):
            compared += 1
            G = frozenset(family)
            differing += spec.go_connected(literal, G, a) != spec.go_connected(literal, G, b)
    return compared, differing


def situations_compared(space: engine.Space) -> tuple[int, int]:
    """(situations compared, situations whose turns differ) for the turn rules: a pass is a
    turn under Defn 10b and not under Defn 10a, in every situation."""
    situations = 2 * sum(1 for _ in invariant_colourings(space))
    return situations, situations


def estimated_seconds(max_points: int) -> float:
    """The time the comparisons should take on every go-space up to max_points points, at
    cautious rates: board plays (for each reading option that changes them), sets of
    placements (Defn 5) and games solved (two per go-space and such option)."""
    plays = sets = solves = 0
    for n in range(1, max_points + 1):
        for space in engine.go_space_classes(n):
            plays += len(BOARD_PLAY_OPTIONS) * len(space.placements) * 2 * 3**n
            sets += 2 ** len(space.placements)
            solves += 2 * len(BOARD_PLAY_OPTIONS)
    return plays / PLAYS_PER_SECOND + sets / SETS_PER_SECOND + solves / SOLVES_PER_SECOND


def outcome_text(ruleset, graph, states, move) -> str:
    """What a move does under one ruleset: the colouring it makes, or why it is no turn."""
    try:
        after = ruleset.apply(graph, states, move)
    except api.IllegalMove as error:
        space = engine.space_for(graph)
        if move == PASS:
            return f"it is not a turn ({error})"
        s = states[-1]
        played = engine.board_play(
            space, engine.colouring_of(s.board), space.sets.index(move), s.player, ruleset.options.readings
        )
        if played is None:
            return "it is not a legal placement"
        board = " ".join(f"{x}:{c}" for x, c in enumerate(engine.board_of_colouring(space, played)))
        return f"its board play makes {board}, an earlier colouring, so it is not a turn"
    return "the board becomes " + " ".join(f"{x}:{c}" for x, c in enumerate(after[-1].board))


def first_line(graph, a_ruleset, b_ruleset) -> tuple[tuple, tuple, object] | None:
    """The shortest line of play from the empty board (under reading a) to a situation
    where a move is a turn under one reading only or makes different colourings: (the
    states, the moves before, the move), or None within LINE_DEPTH moves."""
    start = a_ruleset.start(graph)
    layer: list[tuple[tuple, tuple]] = [(start, ())]
    for _ in range(LINE_DEPTH):
        following = []
        for states, line in layer:
            if a_ruleset.is_over(graph, states):
                continue
            moves_a = a_ruleset.moves(graph, states)
            moves_b = b_ruleset.moves(graph, states) if not b_ruleset.is_over(graph, states) else []
            for move in sorted(set(moves_a) | set(moves_b), key=lambda m: (m == PASS, sorted(m) if m != PASS else [])):
                if (move in moves_a) != (move in moves_b):
                    return states, line, move
                if (
                    move != PASS
                    and a_ruleset.apply(graph, states, move)[-1] != b_ruleset.apply(graph, states, move)[-1]
                ):
                    return states, line, move
            following += [(a_ruleset.apply(graph, states, m), (*line, m)) for m in moves_a]
        layer = following
    return None


def svg_size(svg: str) -> tuple[float, float]:
    """The (width, height) an SVG drawing declares."""
    found = re.search(r'width="([\d.]+)" height="([\d.]+)"', svg)
    if found is None:
        raise ValueError("the drawing declares no width and height")
    return float(found.group(1)), float(found.group(2))


def panels_svg(graph, panels: list, title: str, footer: list[str]) -> str:
    """One SVG of several boards side by side, each a (caption, board, marked points) drawn
    by ``gorules.pictures.board_svg``, under a title and over lines of text."""
    from html import escape

    from gorules.pictures import board_svg

    drawn = [board_svg(graph, board, title=caption, marks=marks) for caption, board, marks in panels]
    sizes = [svg_size(d) for d in drawn]
    width = sum(w for w, _ in sizes) + 20
    height = max(h for _, h in sizes) + 40 + 18 * len(footer)
    body = [f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>']
    body.append(f'<text x="{width / 2:.0f}" y="24" text-anchor="middle" font-size="16">{escape(title)}</text>')
    x = 10.0
    for d, (w, _) in zip(drawn, sizes, strict=True):
        body.append(d.replace("<svg ", f'<svg x="{x:.0f}" y="34" ', 1))
        x += w
    top = max(h for _, h in sizes) + 40
    for k, line in enumerate(footer):
        body.append(f'<text x="10" y="{top + 18 * k:.0f}" font-size="13">{escape(line)}</text>')
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">'
    )
    return "\n".join([head, f"<title>{escape(title)}</title>", *body, "</svg>"]) + "\n"


def play_picture(
    graph, board: tuple, move, player: Player, clause: Clause, other: str, title: str, footer: list[str]
) -> str:
    """The situation before a disagreeing board play (the placement marked) and the colouring
    the board play makes under each reading (or the board unchanged where it is not legal)."""
    space = engine.space_for(graph)
    marks = sorted(move) if isinstance(move, frozenset) else []
    panels = [(f"before: {set_text(move) if marks else move} by {player}", board, marks)]
    for value in (clause.default, other):
        readings = readings_with(clause.option, value)
        after = None
        if isinstance(move, frozenset):
            after = engine.board_play(space, engine.colouring_of(board), space.sets.index(move), player, readings)
        shown = board if after is None else engine.board_of_colouring(space, after)
        caption = f"{clause.option}={value}" + (": not legal" if marks and after is None else "")
        panels.append((caption, shown, []))
    placements = ", ".join(braces(e) for e in space.sets)
    return panels_svg(graph, panels, title, [*footer, f"S = {placements}"])


LINE_ATTEMPTS = 12
"""How many of the smallest disagreeing go-spaces of a size are searched for a line of play."""


def colouring_example(neighbourhoods: spec.Neighbourhoods, a: spec.Readings, b: spec.Readings):
    """The first (colouring, player, placement index) of a go-space where the board plays
    under the two readings differ, over the colourings Proposition 2 allows."""
    space = engine.space_from(neighbourhoods)
    for board in invariant_colourings(space):
        colouring = engine.colouring_of(board)
        for i in range(len(space.masks)):
            for p in (BLACK, WHITE):
                if engine.board_play(space, colouring, i, p, a) != engine.board_play(space, colouring, i, p, b):
                    return board, p, i
    return None


def play_text(space: engine.Space, board: tuple, i: int, p: Player, readings: spec.Readings) -> str:
    """What a board play does under one reading, in words."""
    after = engine.board_play(space, engine.colouring_of(board), i, p, readings)
    if after is None:
        return "it is not a legal placement"
    return "the board becomes " + " ".join(f"{x}:{c}" for x, c in enumerate(engine.board_of_colouring(space, after)))


def disagreement_at(clause: Clause, other: str, n: int, candidates: list, tally: Tally) -> Disagreement:
    """The Disagreement for the smallest go-space of one size where the readings differ
    (fewest placements first; the first of the few smallest that a line of play from the
    empty board reaches, else the smallest with a colouring that Proposition 2 allows)."""
    from gorules import rulesets

    title = f"{clause.clause}: {clause.default} vs {other}"
    pair = (clause.default, other)
    a = rulesets.make("topological", options={clause.option: clause.default})
    b = rulesets.make("topological", options={clause.option: other})
    ordered = sorted(candidates, key=lambda s: (len(s.placements), engine.space_text(s)))
    if clause.option == "closure":
        return closure_disagreement(clause, other, n, ordered[0], tally)
    for neighbourhoods in ordered[:LINE_ATTEMPTS]:
        text = engine.space_text(neighbourhoods)
        graph = parse_graph("space:" + text)
        found = first_line(graph, a, b)
        if found is None:
            continue
        states, line, move = found
        board = states[-1].board
        words = tuple(a.move_text(graph, m) for m in (*line, move))
        to_move = "Black" if states[-1].player == BLACK else "White"
        situation = f"space:{text}; board {' '.join(f'{x}:{c}' for x, c in enumerate(board))}; {to_move} to move"
        difference = (
            f"{a.move_text(graph, move)} by {to_move}: under {clause.option}={clause.default} "
            f"{outcome_text(a, graph, states, move)}; under {clause.option}={other} {outcome_text(b, graph, states, move)}"
        )
        footer = [f"space:{text}", "line: " + " ".join(words)]
        picture = play_picture(graph, board, move, states[-1].player, clause, other, title, footer)
        return Disagreement(SOURCE, clause.clause, pair, n, situation, words, difference, tally.disagreeing, picture)
    neighbourhoods = ordered[0]
    ra, rb = readings_with(clause.option, clause.default), readings_with(clause.option, other)
    board, p, i = colouring_example(neighbourhoods, ra, rb)
    space = engine.space_from(neighbourhoods)
    text = engine.space_text(neighbourhoods)
    to_move = "Black" if p == BLACK else "White"
    situation = (
        f"space:{text}; board {' '.join(f'{x}:{c}' for x, c in enumerate(board))}; {to_move} to move "
        f"(a colouring Proposition 2 allows; no line of play within {LINE_DEPTH} moves reaches a difference)"
    )
    move = set_text(space.sets[i])
    difference = (
        f"{move} by {to_move}: under {clause.option}={clause.default} {play_text(space, board, i, p, ra)}; "
        f"under {clause.option}={other} {play_text(space, board, i, p, rb)}"
    )
    picture = play_picture(
        parse_graph("space:" + text), board, space.sets[i], p, clause, other, title, [f"space:{text}"]
    )
    return Disagreement(SOURCE, clause.clause, pair, n, situation, (move,), difference, tally.disagreeing, picture)


def closure_disagreement(
    clause: Clause, other: str, n: int, neighbourhoods: spec.Neighbourhoods, tally: Tally
) -> Disagreement:
    """The first set of placements of a go-space that one reading of Defn 5 finds
    go-connected and the other not (the spec's computation under each reading)."""
    a, b = readings_with(clause.option, clause.default), readings_with(clause.option, other)
    literal = spec.go_space(neighbourhoods.size, neighbourhoods.minimal, neighbourhoods.placements)
    placements = sorted(literal.placements, key=sorted)
    text = engine.space_text(neighbourhoods)
    for k in range(1, len(placements) + 1):
        for G in itertools.combinations(placements, k):
            under_a = spec.go_connected(literal, frozenset(G), a)
            if under_a != spec.go_connected(literal, frozenset(G), b):
                stones = " and ".join(braces(s) for s in G)
                yes, no = (clause.default, other) if under_a else (other, clause.default)
                difference = f"stones on {stones} are go-connected under {clause.option}={yes}, not under {no}"
                situation = f"space:{text}; stones {stones} of one colour"
                return Disagreement(
                    SOURCE, clause.clause, (clause.default, other), n, situation, (), difference, tally.disagreeing
                )
    raise AssertionError("a go-space counted as disagreeing holds no disagreeing set")


def compare_space(clause: Clause, other: str, neighbourhoods: spec.Neighbourhoods) -> tuple[int, int]:
    """(compared, differing) for one clause and pair of readings on one go-space."""
    a, b = readings_with(clause.option, clause.default), readings_with(clause.option, other)
    if clause.option == "closure":
        return go_connected_compared(neighbourhoods, a, b)
    space = engine.space_from(neighbourhoods)
    if clause.option == "scoring":
        return situations_compared(space)
    return board_plays_compared(space, a, b)


WINNER = "winner of the primitive rules"
"""The second comparison of a board-play clause: who wins the primitive-rules game from the
empty board under perfect play (``gorules.impl.solving.search.solve``)."""


def comparisons() -> list[tuple[Clause, str, str]]:
    """Every (clause, other reading, kind) compared: each pair of readings of each clause by
    its plays, and the board-play clauses also by the winner of the primitive rules."""
    pairs = []
    for clause in clauses():
        for other in clause.others:
            pairs.append((clause, other, "plays"))
            if clause.option in BOARD_PLAY_OPTIONS:
                pairs.append((clause, other, WINNER))
    return pairs


def primitive_winner(neighbourhoods: spec.Neighbourhoods, option: str, value: str):
    """The perfect-play solution of the primitive-rules game on a go-space under one reading."""
    from gorules import rulesets
    from gorules.impl.solving.search import solve

    graph = parse_graph("space:" + engine.space_text(neighbourhoods))
    ruleset = rulesets.make("topological", "primitive", {option: value})
    return ruleset, graph, solve(ruleset.initial(graph))


def winner_disagreement(clause: Clause, other: str, n: int, candidates: list, tally: Tally) -> Disagreement:
    """The smallest go-space of a size where the readings change who wins the primitive-rules
    game under perfect play, with each reading's principal variation."""
    neighbourhoods = min(candidates, key=lambda s: (len(s.placements), engine.space_text(s)))
    parts, lines = [], []
    for value in (clause.default, other):
        ruleset, graph, solution = primitive_winner(neighbourhoods, clause.option, value)
        words = [ruleset.move_text(graph, m) for m in solution.principal_variation]
        lines.append(tuple(words))
        shown = " ".join(words) or "(no move)"
        parts.append(f"under {clause.option}={value} {solution.value} wins ({shown}, then no turn is left)")
    situation = f"space:{engine.space_text(neighbourhoods)}; the primitive rules from the empty board"
    difference = "perfect play: " + "; ".join(parts)
    return Disagreement(
        SOURCE,
        f"{clause.clause}; {WINNER}",
        (clause.default, other),
        n,
        situation,
        lines[0],
        difference,
        tally.disagreeing,
    )


def compare(clause: Clause, other: str, kind: str, neighbourhoods: spec.Neighbourhoods) -> tuple[int, int]:
    """(compared, differing) for one comparison on one go-space."""
    if kind == WINNER:
        first = primitive_winner(neighbourhoods, clause.option, clause.default)[2].value
        return 1, int(first != primitive_winner(neighbourhoods, clause.option, other)[2].value)
    return compare_space(clause, other, neighbourhoods)


def search_readings(max_points: int, seconds: float | None, progress: bool) -> Finding:
    """Compare every pair (default, other) of readings of every clause on every go-space of
    1..max_points points; UsageError if max_points is out of reach or the estimate exceeds
    the seconds allowed; when the time runs out, the sizes finished so far."""
    if not 1 <= max_points <= MAX_POINTS:
        raise UsageError(f"--max-points must be 1..{MAX_POINTS}: go-spaces of 5 points are too many to enumerate here")
    estimate = estimated_seconds(max_points)
    if seconds is not None and estimate > seconds:
        raise UsageError(
            f"comparing readings on go-spaces up to {max_points} points takes about {estimate:.0f} s, "
            f"more than --seconds {seconds:g}: raise --seconds or lower --max-points"
        )
    started = time.perf_counter()
    compared: dict = {}
    found: list[Disagreement] = []
    complete = 0
    for n in range(1, max_points + 1):
        spaces = list(engine.go_space_classes(n))
        bar = _progress(len(spaces) * len(comparisons()), f"{n} points", progress)
        for clause, other, kind in comparisons():
            tally = Tally()
            for neighbourhoods in spaces:
                if seconds is not None and time.perf_counter() - started > seconds:
                    bar.close()
                    note = f"the {seconds:g} s ran out during the go-spaces of {n} points"
                    return Finding(found, compared, complete, note)
                done, differing = compare(clause, other, kind, neighbourhoods)
                tally.spaces += 1
                tally.compared += done
                tally.disagreeing += differing
                if differing:
                    tally.disagreeing_spaces.append(neighbourhoods)
                bar.update(1)
            key = f"{clause.option}: {clause.default} vs {other}" + (f", {WINNER}" if kind == WINNER else "")
            compared.setdefault(key, {})[n] = {
                "go_spaces": tally.spaces,
                "compared": tally.compared,
                "disagreeing": tally.disagreeing,
                "disagreeing_go_spaces": len(tally.disagreeing_spaces),
            }
            if tally.disagreeing_spaces:
                pick = winner_disagreement if kind == WINNER else disagreement_at
                found.append(pick(clause, other, n, tally.disagreeing_spaces, tally))
        bar.close()
        complete = n
    return Finding(found, compared, complete)


def _progress(total: int, label: str, shown: bool):
    """A progress bar on stderr (tqdm), or one that shows nothing."""
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="space", file=sys.stderr, disable=not shown, leave=False)


def disagreements(max_points: int, seconds: float | None, progress: bool) -> list[Disagreement]:
    """The smallest disagreement of each size for each clause and pair of readings."""
    return search_readings(max_points, seconds, progress).disagreements


def diagram(d: Disagreement) -> str | None:
    """The situation of a disagreement drawn in text: each point of the go-space with its
    colour and the points joined to it (one in the other's smallest open neighbourhood);
    None when the situation has no board (Defn 5's sets of stones)."""
    from gorules.spec.text import board_diagram

    space, found, rest = d.situation.partition("; board ")
    if not found:
        return None
    words = rest.split(";")[0].split()
    graph = parse_graph(space)
    board = [w.partition(":")[2] for w in words]
    return board_diagram(graph, board)
