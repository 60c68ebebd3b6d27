"""Where the readings of Political Go (source ``004_0820ac7cd15cdfb1.txt``) disagree.

``gorules readings 004`` asks :func:`disagreements`.  For each size n = 1, 2, ... up to
``max_points``, it takes every connected graph on n vertices (networkx's graph atlas),
every board of three players A, B, C on it, and every alliance structure among them, with
A to move (a rotation of the names along the turn list gives every other player to move,
under the same rules), where every dragon has a liberty (a settled board: after a move the
fallen dragons have left it).  Each player is taken to have held eir stones during the
previous turn.  From each such start situation and for each pair of choices of each reading
(the other readings at their defaults) it compares:

- *play*: every move open under either reading: legal under one only, or leading to a
  different board, captured stones, alliances or end; when only what the rules remember
  differs (restriction 1's vertices), or a stone has just been captured, the line is
  followed further (up to ``DEPTH[reading]`` moves: the readings of "previous turn" can
  differ only once a stone has left the board since its owner's turn);
- *scores*: the Go scores when every player then passes until the game ends.

It also searches for the author's paradox (a dragon both captured and capturing, under
each reading of ``credit``) and for the place where the text, by design, does not determine
the outcome: captured stones shared out by a random tie-break (seeds 0 and 1 compared).
Each pair gets, at each size where they disagree, the smallest start situation (fewest
stones, then fewest alliances, then the shortest line) and the number of disagreeing
plays at that size.

With three players the readings of ``overlap`` cannot part during play under the default
reading of ``enemy``: dragons overlap only as {X, Y} and {Y, Z} with X+Y and Y+Z allied
and X+Z not, and whoever moves is friendly to one of the two, so they never fall together.
(At the end they can both be dead and be credited to live dragons elsewhere, which takes
more vertices than searched here.)  A fourth player makes them fall together on four
vertices: see ``docs/readings-political.md``.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from xml.sax.saxutils import escape

from tqdm import tqdm

from gorules.readings_common import Disagreement
from gorules.spec import political as P
from gorules.spec.graph import Graph, parse_graph
from gorules.spec.text import board_text

SOURCE = "004"
PLAYERS = ("A", "B", "C")
PAIRS = [frozenset(pair) for pair in itertools.combinations(PLAYERS, 2)]
DEPTH = {"previous_turn": 3}
"""Moves followed from a start situation while only remembered vertices differ (default 1)."""
ATLAS_POINTS = 7
"""The most points of a graph in networkx's atlas (its graphs are all those of 7 points or fewer)."""
PARADOX = "the author's paradox: a dragon both captured and capturing"
TIES = '"ties broken randomly" (capture credit)'
RULES = P.Political(P.Options(PLAYERS))
DRAWN: dict = {}
"""The graph and board of each disagreement made, by (clause, readings, points), for `diagram`."""
STONE_COLOURS = {"A": "#d62728", "B": "#1f77b4", "C": "#2ca02c"}


def clause_name(reading: str) -> str:
    """A reading's clause as reports name it: the option and the words of the source."""
    fields = {f.name: f for f in P.Options.__dataclass_fields__.values()}
    return f"{reading}: {fields[reading].metadata['reading_of']}"


@lru_cache(maxsize=None)
def connected_atlas_indices(n: int) -> tuple[int, ...]:
    """The atlas indices of the connected graphs on n vertices, one per isomorphism class."""
    import networkx as nx

    return tuple(
        index for index, g in enumerate(nx.graph_atlas_g()) if g.number_of_nodes() == n and n > 0 and nx.is_connected(g)
    )


def connected_graphs(n: int) -> list[Graph]:
    """The connected graphs on n vertices, one per isomorphism class (atlas order)."""
    return [parse_graph(f"atlas:{index}") for index in connected_atlas_indices(n)]


def start_situations(graph: Graph) -> Iterator[P.State]:
    """Every settled board of A, B, C on the graph (each dragon with a liberty) with every
    alliance structure, A to move, each player having held eir stones during the previous
    turn."""
    for board in itertools.product((P.EMPTY, *PLAYERS), repeat=graph.order):
        for k in range(len(PAIRS) + 1):
            for alliances in itertools.combinations(PAIRS, k):
                s = P.initial_situation(graph, PLAYERS)._replace(board=board, alliances=frozenset(alliances))
                if all(P.liberties(graph, board, D) for D in P.dragons(graph, s)):
                    yield s._replace(previous=tuple(P.held(graph, s, q) for q in PLAYERS))


def under(s: P.State, reading: str, choice: str) -> P.State:
    """The situation played under one choice of a reading, the others at their defaults."""
    return s._replace(readings=P.DEFAULT_READINGS._replace(**{reading: choice}))


@lru_cache(maxsize=1 << 18)
def step(graph: Graph, s: P.State, move: P.Move, seed: int = 0) -> P.State | None:
    """The situation after a move (None if illegal), ties broken by the seed (remembered:
    the default readings' plays are asked for by every clause)."""
    return P.play(graph, s, move, P.tie_breaks(seed, s))


def reading_label(s: P.State) -> str:
    """The readings of a situation that differ from the defaults, as NAME=CHOICE."""
    changed = [f"{k}={v}" for k, v in s.readings._asdict().items() if v != getattr(P.DEFAULT_READINGS, k)]
    return " ".join(changed) or "the defaults"


@lru_cache(maxsize=1 << 16)
def legal_moves(graph: Graph, s: P.State) -> list:
    """The moves open in a situation (remembered)."""
    return RULES.moves(graph, s)


def visible(s: P.State) -> tuple:
    """What a player sees of a situation: board, captured stones, alliances, turn, end."""
    return (s.board, s.captured, s.alliances, s.head, s.over)


def remembered(s: P.State) -> P.State:
    """Everything the rules keep of a situation, its readings aside."""
    return s._replace(readings=P.DEFAULT_READINGS)


@lru_cache(maxsize=1 << 16)
def end_of_passes(graph: Graph, s: P.State) -> tuple[int, dict]:
    """The passes that end the game from s and the final scores then."""
    passes = 0
    while not s.over:
        after = step(graph, s, P.Move("pass"))
        assert after is not None, "a pass is always legal before the end"
        s, passes = after, passes + 1
    return passes, RULES.value(graph, s)


def shown(s: P.State) -> str:
    """A situation's board, captured stones and alliances in one line."""
    captured = " ".join(f"{p}{k}" for p, k in zip(s.players, s.captured))
    alliances = ",".join(sorted("+".join(sorted(a)) for a in s.alliances)) or "none"
    return f"board {board_text_of(s)}, captured {captured}, alliances {alliances}" + (", game over" if s.over else "")


def board_text_of(s: P.State) -> str:
    """The board as vertex:owner pairs."""
    return " ".join(f"{v}:{c}" for v, c in enumerate(s.board))


def diverging(graph: Graph, a: P.State, b: P.State, depth: int, line: tuple) -> Iterator[tuple]:
    """(line, difference) for each line of at most `depth` moves from a and b (the same
    start under two readings) after which the two readings show different play; a line
    goes on while what the rules remember differs or a stone has just been captured."""
    name_a, name_b = reading_label(a), reading_label(b)
    ma, mb = legal_moves(graph, a), legal_moves(graph, b)
    for move in ma + [m for m in mb if m not in ma]:
        words = (*line, RULES.move_text(graph, move))
        na = step(graph, a, move) if move in ma else None
        nb = step(graph, b, move) if move in mb else None
        if na is None or nb is None:
            allowed, refused = (name_a, name_b) if nb is None else (name_b, name_a)
            yield (
                words,
                f"after {' '.join(words[:-1]) or 'nothing'}, {words[-1]} is legal under {allowed}, not {refused}",
            )
        elif visible(na) != visible(nb):
            yield words, f"after {' '.join(words)}: {shown(na)} under {name_a}; {shown(nb)} under {name_b}"
        elif depth > 1 and (remembered(na) != remembered(nb) or na.captured != a.captured):
            yield from diverging(graph, na, nb, depth - 1, words)


@dataclass
class Found:
    """The disagreements of one (clause, pair of readings) at one size: how many, and the
    smallest so far with its sort key."""

    count: int = 0
    compared: int = 0  # first moves and ends of games compared
    key: tuple = ()
    best: dict = field(default_factory=dict)

    def add(self, key: tuple, **best) -> None:
        """Count one disagreement; keep it if it is the smallest so far."""
        self.count += 1
        if not self.best or key < self.key:
            self.key, self.best = key, best


def size_key(s: P.State, line: tuple, order: tuple) -> tuple:
    """How small a disagreement is: stones, alliances, moves, then enumeration order."""
    return (sum(c != P.EMPTY for c in s.board), len(s.alliances), len(line), order)


def compare_readings(graph: Graph, s: P.State, order: tuple, found: dict) -> None:
    """Record every disagreement from start s between two choices of any reading."""
    for reading, choices in P.READINGS.items():
        for first, second in itertools.combinations(choices, 2):
            a, b = under(s, reading, first), under(s, reading, second)
            bucket = found.setdefault((clause_name(reading), (first, second)), Found())
            bucket.compared += len(set(legal_moves(graph, a)) | set(legal_moves(graph, b))) + (not a.over)
            for line, difference in diverging(graph, a, b, DEPTH.get(reading, 1), ()):
                bucket.add(size_key(s, line, order), start=s, line=line, difference=difference)
            if a.over:
                continue
            (pa, va), (pb, vb) = end_of_passes(graph, a), end_of_passes(graph, b)
            if va != vb:
                line = ("pass",) * max(pa, pb)
                difference = (
                    f"when every player passes to the end, the scores are {va} under {reading}={first}, "
                    f"{vb} under {reading}={second}"
                )
                bucket.add(size_key(s, line, order), start=s, line=line, difference=difference)


def look_for_paradox(graph: Graph, s: P.State, order: tuple, found: dict) -> None:
    """Record every move from s that makes a dragon both captured and capturing, under
    each reading of credit; and every move whose captures the tie-break's seed changes."""
    for choice in P.READINGS["credit"]:
        t = under(s, "credit", choice)
        other = next(c for c in P.READINGS["credit"] if c != choice)
        bucket = found.setdefault((PARADOX, (choice, other)), Found())
        bucket.compared += len(RULES.moves(graph, t))
        for move in RULES.moves(graph, t):
            made = P.move_made(graph, t, move)
            pairs = P.captured_and_capturing(graph, made, P.to_move(t)) if made is not None else []
            if made is not None and pairs:
                D, E = pairs[0]
                owners = "".join(sorted({s.board[v] if s.board[v] != P.EMPTY else made.board[v] for v in D}))
                words = (RULES.move_text(graph, move),)
                difference = (
                    f"under credit={choice}, A's {words[0]} leaves dragon {sorted(D)} ({owners}) both captured "
                    f"and among the capturers of dragon {sorted(E)} ({len(pairs)} such pairs); "
                    f"under credit={other} no dragon is both"
                )
                bucket.add(size_key(s, words, order), start=s, line=words, difference=difference)
    bucket = found.setdefault((TIES, ("seed=0", "seed=1")), Found())
    bucket.compared += len(RULES.moves(graph, s))
    for move in RULES.moves(graph, s):
        n0, n1 = step(graph, s, move, 0), step(graph, s, move, 1)
        if n0 is not None and n1 is not None and n0.captured != n1.captured:
            words = (RULES.move_text(graph, move),)
            difference = f"after {words[0]}: captured {n0.captured} with seed 0, {n1.captured} with seed 1"
            bucket.add(size_key(s, words, order), start=s, line=words, difference=difference)


def situation_text(graph: Graph, s: P.State) -> str:
    """A start situation as reports show it: the graph and its edges, the board, the
    alliances and whose turn it is."""
    edges = " ".join(f"{v}-{w}" for v, w in graph.edges()) or "no edges"
    alliances = ", ".join(sorted("+".join(sorted(a)) for a in s.alliances)) or "none"
    board = board_text(graph, s.board)
    return f"{graph.name} (edges {edges}); board {board}; alliances {alliances}; {P.to_move(s)} to move"


def picture(graph: Graph, s: P.State, line: tuple, title: str) -> str:
    """An SVG drawing of the start situation: each player's stones in eir colour with eir
    letter, the vertices the line places on ringed."""
    from gorules.pictures import graph_frame

    radius = 16
    at, width, height, body = graph_frame(graph, 30)
    body.append(f'<text x="{width / 2:.0f}" y="20" text-anchor="middle" font-size="11">{escape(title)}</text>')
    for v, w in graph.edges():
        (x1, y1), (x2, y2) = at(v), at(w)
        body.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#444"/>')
    for v in graph.points:
        x, y = at(v)
        owner = s.board[v]
        fill = STONE_COLOURS.get(owner, "#dcb35c")
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{fill}" stroke="#222"/>')
        label = f"{owner}{v}" if owner != P.EMPTY else str(v)
        body.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="11">{escape(label)}</text>')
    for word in line:
        if word.isdigit():
            x, y = at(int(word))
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius + 4}" fill="none" stroke="#000" stroke-width="2"/>'
            )
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">'
    )
    return "\n".join([head, f"<title>{escape(title)}</title>", *body, "</svg>"]) + "\n"


def forget() -> None:
    """Clear the remembered plays, moves and ends of games."""
    for cached in (step, legal_moves, end_of_passes):
        cached.cache_clear()


@dataclass
class Search:
    """What a search did: the disagreements, the sizes searched in full, and where the
    time budget stopped it (None if it did not)."""

    disagreements: list[Disagreement]
    complete_sizes: list[int]
    stopped: str | None
    compared: dict = field(default_factory=dict)

    @property
    def complete_up_to(self) -> int:
        """The largest size searched in full (0 if none)."""
        return max(self.complete_sizes, default=0)

    @property
    def note(self) -> str:
        """Why the search stopped short, or what it compares."""
        return self.stopped or "settled boards, three players, A to move, every alliance structure"


def search(max_points: int, seconds: float | None, progress: bool) -> Search:
    """Every size from 1 to max_points in turn, until the time budget is spent (plays are
    remembered within one search only)."""
    forget()
    started = time.perf_counter()
    results: list[Disagreement] = []
    complete: list[int] = []
    compared: dict = {}
    for n in range(1, max_points + 1):
        found: dict = {}
        graphs = connected_graphs(n)
        starts = [(g, s) for g in graphs for s in start_situations(g)]
        for order, (graph, s) in enumerate(tqdm(starts, desc=f"004 size {n}", file=sys.stderr, disable=not progress)):
            if seconds is not None and time.perf_counter() - started > seconds:
                results += entries(n, found)
                tally(compared, n, found, order)
                note = f"size {n} stopped after {order} of {len(starts)} start situations (time budget {seconds:g} s)"
                return Search(results, complete, note, compared)
            compare_readings(graph, s, (graphs.index(graph), order), found)
            look_for_paradox(graph, s, (graphs.index(graph), order), found)
        results += entries(n, found)
        tally(compared, n, found, len(starts))
        complete.append(n)
    return Search(results, complete, None, compared)


def tally(compared: dict, n: int, found: dict, starts: int) -> None:
    """Add size n's counts to `compared`: per clause and pair, disagreeing and compared plays."""
    for (clause, (a, b)), bucket in found.items():
        compared.setdefault(f"{clause}: {a} vs {b}", {})[str(n)] = {
            "disagreeing": bucket.count,
            "compared": bucket.compared,
            "go_spaces": starts,
            "start_situations": starts,
        }


SETTLED = 0.6
SECONDS_PER_START = 0.004
"""Seconds of search per start situation on n vertices, over 2**n: the measured cost of a start
(docs/readings-political.md, the estimate), rounded up so that the estimate errs high."""


def estimate(max_points: int) -> float:
    """Seconds the search up to max_points is expected to take: the boards of every connected
    graph with every alliance structure, of which SETTLED are settled (the measured share,
    rounded up: docs/readings-political.md, the estimate), at SECONDS_PER_START * 2**n each."""
    structures = 2 ** len(PAIRS)
    return sum(
        len(connected_atlas_indices(n)) * (len(PLAYERS) + 1) ** n * structures * SETTLED * SECONDS_PER_START * 2**n
        for n in range(1, max_points + 1)
    )


def refuse_beyond(max_points: int, seconds: float | None) -> None:
    """UsageError naming --seconds if the estimate exceeds the time allowed."""
    from gorules.errors import UsageError

    if not 1 <= max_points <= ATLAS_POINTS:
        raise UsageError(
            f"--max-points must be 1..{ATLAS_POINTS}: the connected graphs come from networkx's atlas, "
            f"which ends at {ATLAS_POINTS} points"
        )
    expected = estimate(max_points)
    if seconds is not None and expected > seconds:
        raise UsageError(
            f"readings 004 up to {max_points} points is estimated at {expected:,.0f} s, over --seconds {seconds:g}: "
            "raise --seconds or lower --max-points"
        )


def find(max_points: int, seconds: float | None, progress: bool) -> Search:
    """The search, with what it compared at each size (for ``gorules readings``); refused
    before any work if its estimate exceeds the time allowed."""
    refuse_beyond(max_points, seconds)
    return search(max_points, seconds, progress)


def diagram(d: Disagreement) -> str | None:
    """A disagreement's start situation drawn in text: each vertex, its stone and its
    neighbours (None for a disagreement this finder did not make)."""
    drawn = DRAWN.get((d.clause, d.readings, d.points))
    if drawn is None:
        return None
    graph, board = drawn
    return "\n".join(
        f"{v:>3} {board[v]}  - {','.join(str(w) for w in graph.neighbours[v]) or 'none'}" for v in graph.points
    )


def entries(n: int, found: dict) -> list[Disagreement]:
    """One Disagreement per (clause, pair of readings) that disagreed at size n."""
    made = []
    for (clause, readings), bucket in found.items():
        if not bucket.count:
            continue
        start, line = bucket.best["start"], bucket.best["line"]
        graph = graph_of(start, bucket.key)
        DRAWN[(clause, readings, n)] = (graph, start.board)
        made.append(
            Disagreement(
                source=SOURCE,
                clause=clause,
                readings=readings,
                points=n,
                situation=situation_text(graph, start),
                line=tuple(line),
                difference=bucket.best["difference"],
                count=bucket.count,
                picture=picture(graph, start, line, f"{clause} {readings[0]} / {readings[1]}"),
            )
        )
    return made


def graph_of(start: P.State, key: tuple) -> Graph:
    """The graph a recorded start situation was on (its index among the graphs of its size)."""
    return connected_graphs(len(start.board))[key[-1][0]]


def search_readings(max_points: int, seconds: float | None, progress: bool) -> Search:
    """The search as ``gorules readings 004`` reads it (disagreements, what was compared per
    pair and size, the sizes searched in full); refused if the estimate exceeds the time allowed."""
    refuse_beyond(max_points, seconds)
    return search(max_points, seconds, progress)


def disagreements(max_points: int, seconds: float | None, progress: bool) -> list[Disagreement]:
    """For each clause and pair of readings, the smallest disagreeing situation at each size
    up to max_points (sizes without one give no entry); refused if the estimate exceeds the
    time allowed, and a note on stderr if the budget stopped the search before the last size
    was complete."""
    done = search_readings(max_points, seconds, progress)
    if done.stopped:
        print(f"readings 004: {done.stopped}; sizes searched in full: {done.complete_sizes}", file=sys.stderr)
    return done.disagreements
