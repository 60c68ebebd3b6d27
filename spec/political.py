"""Political Go (source ``004_0820ac7cd15cdfb1.txt``) on any graph, executable where it can be.

Each definition below mirrors one heading of ``spec/political.md`` (same name, same
order).  N players take turns from a turn list; each turn a player places a stone,
passes, offers an alliance or declares war on an ally.  Stones of allies are friendly;
a dragon is a connected, mutually friendly, maximal set of stones.  Enemy dragons without
liberties are captured after each move and their stones shared out among the players
whose stones touch them, ties broken by an explicit, seedable random source.  The source's
"eyes" and its end-of-game judgement of which dragons "could not gain two distinct eyes"
ask what *could* happen in future play and are not executed: the final scoring takes the
dragons judged dead as an argument.

Where the text can be read more than one way, each reading is a named choice of
``Readings`` (and an option of the ruleset): which dragons are dead, who is credited when
several dragons fall at once, a stone in two fallen dragons, what "the previous turn" is,
what counts as territory, whether allies of allies are friendly, and whose enemies are
captured.  The first choice of each is the default; ``spec/political.md`` gives the reason.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import ClassVar, NamedTuple

from gorules.spec import api
from gorules.spec.graph import Graph, GraphError
from gorules.spec.tromp_taylor import EMPTY, Board, adjacent

READINGS = {
    "dead": ("one-liberty", "at-most-one", "no-liberties"),
    "credit": ("adjacent", "survivors"),
    "overlap": ("once", "per-dragon"),
    "previous_turn": ("own", "last"),
    "territory": ("open", "bordered", "any-path", "sole"),
    "friendship": ("pairwise", "transitive"),
    "enemy": ("mover", "next", "anyone"),
}


# One field a clause, the shape of spec/topological.py's Readings on purpose: each names a
# clause of its own source.
class Readings(NamedTuple):
    """One reading of each ambiguous clause (the first of each choice in ``READINGS`` is the
    default): which dragons are dead at the end; whose stones count as capturing when
    several dragons fall at once; how often a stone in two fallen dragons is credited;
    whose "previous turn" restriction 1 means; what counts as territory; whether allies of
    allies are friendly; and to whom a dragon must be an enemy to be captured."""

    dead: str = "one-liberty"
    credit: str = "adjacent"
    overlap: str = "once"
    previous_turn: str = "own"
    territory: str = "open"
    friendship: str = "pairwise"
    enemy: str = "mover"


DEFAULT_READINGS = Readings()


# The search of spec/benson.py's components repeated on purpose: the definition follows the
# source's words (a path joins one vertex to all the others), not another module's.
def mutually_adjacent(graph: Graph, vertices: frozenset) -> bool:
    """A path along the graph's lines through vertices of the set alone joins one vertex of
    the set to all the others."""
    if not vertices:
        return True
    start = min(vertices)
    seen, frontier = {start}, [start]
    while frontier:
        v = frontier.pop()
        for w in graph.neighbours[v]:
            if w in vertices and w not in seen:
                seen.add(w)
                frontier.append(w)
    return seen == set(vertices)


class State(NamedTuple):
    """The board (each vertex empty or holding the name of its stone's owner), the players
    in their first turn-list order, the index of the head of the turn list, the alliances
    (pairs of players), each player's captured stones, the vertices each player had stones
    on during eir previous turn (or, read so, during the last turn), the consecutive
    passes, whether the game is over, and the readings the rules are played under."""

    board: Board
    players: tuple
    head: int
    alliances: frozenset
    captured: tuple
    previous: tuple
    passes: int
    over: bool
    readings: Readings = DEFAULT_READINGS


def initial_situation(graph: Graph, players: Sequence[str], readings: Readings = DEFAULT_READINGS) -> State:
    """The empty board, no alliances, nothing captured, the first named player to move."""
    n = len(players)
    return State(
        tuple(EMPTY for _ in graph.points),
        tuple(players),
        0,
        frozenset(),
        (0,) * n,
        (frozenset(),) * n,
        0,
        False,
        readings,
    )


def to_move(s: State) -> str:
    """The player at the head of the turn list."""
    return s.players[s.head]


def bloc(s: State, p: str) -> frozenset:
    """The players joined to p by a chain of alliances (p included)."""
    seen, frontier = {p}, [p]
    while frontier:
        q = frontier.pop()
        for pair in s.alliances:
            if q in pair:
                for r in pair - {q}:
                    if r not in seen:
                        seen.add(r)
                        frontier.append(r)
    return frozenset(seen)


def friendly(s: State, p: str, q: str) -> bool:
    """Stones of owners p and q are friendly: the same player, or allies (reading
    "pairwise"), or joined by a chain of alliances (reading "transitive")."""
    if p == q or frozenset({p, q}) in s.alliances:
        return True
    return s.readings.friendship == "transitive" and q in bloc(s, p)


def mutually_friendly(s: State, owners) -> bool:
    """All pairs of the given owners' stones are friendly."""
    return all(friendly(s, p, q) for p in owners for q in owners)


def is_dragon(graph: Graph, s: State, D: frozenset) -> bool:
    """D is a dragon: a non-empty set of stones, mutually friendly, on mutually adjacent
    vertices, no stone of which is adjacent to a stone outside D that is friendly to all of D."""
    b = s.board
    owners = {b[v] for v in D}
    if not D or EMPTY in owners or not mutually_friendly(s, owners):
        return False
    if not mutually_adjacent(graph, D):
        return False
    return not any(
        b[w] != EMPTY and w not in D and mutually_friendly(s, owners | {b[w]}) for v in D for w in graph.neighbours[v]
    )


def components(graph: Graph, vertices: set) -> list:
    """The maximal mutually adjacent subsets of a set of vertices."""
    found, left = [], set(vertices)
    while left:
        start = min(left)
        part, frontier = {start}, [start]
        while frontier:
            for w in graph.neighbours[frontier.pop()]:
                if w in left and w not in part:
                    part.add(w)
                    frontier.append(w)
        found.append(frozenset(part))
        left -= part
    return found


def dragons(graph: Graph, s: State) -> list:
    """All dragons: those of `dragons_of` the board, players, alliances and friendship
    reading of s (which alone decide them)."""
    return list(dragons_of(graph, s.board, s.players, s.alliances, s.readings.friendship))


@lru_cache(maxsize=1 << 16)
def dragons_of(graph: Graph, board: Board, players: tuple, alliances: frozenset, friendship: str) -> tuple:
    """All dragons.  A dragon whose owners form the set O is a component of the stones of
    the players friendly to all of O; so `is_dragon` sorts out the dragons from those
    components, for every mutually friendly O.  With alliances that are not transitive,
    dragons may overlap."""
    n = len(players)
    s = State(board, players, 0, alliances, (0,) * n, (frozenset(),) * n, 0, False, Readings(friendship=friendship))
    found = set()
    for k in range(1, n + 1):
        for owners in combinations(players, k):
            if not mutually_friendly(s, set(owners)):
                continue
            allies = {q for q in players if all(friendly(s, p, q) for p in owners)}
            for D in components(graph, {v for v in graph.points if board[v] in allies}):
                if is_dragon(graph, s, D):
                    found.add(D)
    return tuple(sorted(found, key=sorted))


def liberties(graph: Graph, b: Board, D: frozenset) -> frozenset:
    """The unoccupied vertices adjacent to the dragon's vertices, each counted once."""
    return frozenset(w for v in D for w in graph.neighbours[v] if b[w] == EMPTY)


def dead(graph: Graph, b: Board, D: frozenset, reading: str = "one-liberty") -> bool:
    """Whether the dragon is dead: as the source writes it, with exactly one liberty
    ("one-liberty", so a dragon with none is, literally, live); with at most one
    ("at-most-one"); or with none ("no-liberties")."""
    n = len(liberties(graph, b, D))
    return {"one-liberty": n == 1, "at-most-one": n <= 1, "no-liberties": n == 0}[reading]


def friendly_to(s: State, D: frozenset, p: str) -> bool:
    """The dragon contains only stones friendly to player p."""
    return all(friendly(s, s.board[v], p) for v in D)


def territory(graph: Graph, s: State, p: str) -> frozenset:
    """The empty vertices from which no path reaches a stone of a dragon unfriendly to p:
    paths through empty vertices ("open"); the same, and the empty region also touches a
    stone friendly to p ("bordered"); paths through any vertices ("any-path"); or "open"
    territory of p that is no other player's ("sole")."""
    b = s.board
    if s.readings.territory == "sole":
        opened = s._replace(readings=s.readings._replace(territory="open"))
        others = {v for q in s.players if q != p for v in territory(graph, opened, q)}
        return territory(graph, opened, p) - others
    found = dragons(graph, s)
    hostile = {v for D in found if not friendly_to(s, D, p) for v in D}
    friends = {v for D in found if friendly_to(s, D, p) for v in D}
    reading = s.readings.territory
    counted: set = set()
    if reading == "any-path":
        for part in components(graph, set(graph.points)):
            if not part & hostile:
                counted |= {v for v in part if b[v] == EMPTY}
        return frozenset(counted)
    for region in components(graph, {v for v in graph.points if b[v] == EMPTY}):
        border = {w for v in region for w in graph.neighbours[v] if b[w] != EMPTY}
        if not border & hostile and (reading == "open" or border & friends):
            counted |= region
    return frozenset(counted)


class Move(NamedTuple):
    """A move: ("place", vertex), ("pass",), ("ally", player, accepted) or ("war", player)."""

    kind: str
    target: int | str | None = None
    accepted: bool = False


def placed(board: Board, v: int, p: str) -> Board:
    """The board with a stone of player p on vertex v (Tromp–Taylor's b[v ↦ c], the colour
    being a player's name)."""
    return board[:v] + (p,) + board[v + 1 :]


def may_place(graph: Graph, s: State, v: int) -> bool:
    """Whether the player to move may place on v: v is an unoccupied vertex, e had no stone on
    it during eir previous turn, and the stone forms no friendly dragon without liberties
    unless it also forms an enemy dragon without liberties."""
    p = to_move(s)
    if v not in graph.points or s.board[v] != EMPTY or v in s.previous[s.head]:
        return False
    after = s._replace(board=placed(s.board, v, p))
    before_none = {D for D in dragons(graph, s) if not liberties(graph, s.board, D)}
    formed = [D for D in dragons(graph, after) if not liberties(graph, after.board, D) and D not in before_none]
    friendly_formed = any(friendly_to(after, D, p) for D in formed)
    enemy_formed = any(not friendly_to(after, D, p) for D in formed)
    return not friendly_formed or enemy_formed


def share(counts: dict, stones: int, rng: random.Random) -> dict:
    """The stones of a captured dragon shared out: to one player, all of them; else, round
    after round, one each in order of most adjacent stones (ties broken by `rng`), until
    none remain."""
    credit = dict.fromkeys(counts, 0)
    if len(counts) == 1:
        credit[next(iter(counts))] = stones
        return credit
    while stones > 0 and counts:
        order = sorted(counts, key=lambda p: (-counts[p], rng.random()))
        for p in order:
            if stones == 0:
                break
            credit[p] += 1
            stones -= 1
    return credit


def fallen(graph: Graph, s: State, mover: str) -> list:
    """The dragons captured after the mover's move: those without liberties that are
    enemies of the mover ("mover"), of the next player on the turn list ("next"), or of
    any player ("anyone")."""
    if s.readings.enemy == "mover":
        judges = [mover]
    elif s.readings.enemy == "next":
        judges = [s.players[(s.players.index(mover) + 1) % len(s.players)]]
    else:
        judges = list(s.players)
    return [
        D
        for D in dragons(graph, s)
        if not liberties(graph, s.board, D) and any(not friendly_to(s, D, q) for q in judges)
    ]


def capturers(graph: Graph, s: State, D: frozenset, falling: frozenset) -> dict:
    """For each player, eir stones adjacent to the captured dragon D that take part in its
    capture: every adjacent stone ("adjacent", as written), or only those not falling
    with it ("survivors")."""
    b = s.board
    excluded = falling if s.readings.credit == "survivors" else frozenset()
    touching = {w for v in D for w in graph.neighbours[v] if b[w] != EMPTY and w not in D and w not in excluded}
    counts: dict = {}
    for w in touching:
        counts[b[w]] = counts.get(b[w], 0) + 1
    return counts


def capture(graph: Graph, s: State, mover: str, rng: random.Random) -> State:
    """The fallen dragons come off the board, the stones of each shared out by `share` among
    its capturers; a stone in several fallen dragons is credited once, with the first of
    them in sorted order ("once"), or with each of them ("per-dragon")."""
    b = s.board
    victims = fallen(graph, s, mover)
    falling = frozenset(v for D in victims for v in D)
    captured = list(s.captured)
    credited: set = set()
    for D in victims:
        stones = len(D) if s.readings.overlap == "per-dragon" else len(D - credited)
        credited |= D
        for p, k in share(capturers(graph, s, D, falling), stones, rng).items():
            captured[s.players.index(p)] += k
    board = tuple(EMPTY if v in falling else b[v] for v in graph.points)
    return s._replace(board=board, captured=tuple(captured))


def captured_and_capturing(graph: Graph, s: State, mover: str) -> list:
    """The author's paradox after the mover's move from s (captures not yet made): the
    pairs (D, E) of distinct fallen dragons such that a stone of D, not in E, is among the
    capturers of E, so that D is captured and causes the capture of E at the same time."""
    victims = fallen(graph, s, mover)
    falling = frozenset(v for D in victims for v in D)
    b = s.board
    excluded = falling if s.readings.credit == "survivors" else frozenset()
    pairs = []
    for D in victims:
        for E in victims:
            if D != E and any(
                w in D and w not in E and w not in excluded and b[w] != EMPTY for v in E for w in graph.neighbours[v]
            ):
                pairs.append((D, E))
    return pairs


def legal_placement_exists(graph: Graph, s: State) -> bool:
    """Some player could place a stone, were it eir turn.  First the vertices with an empty
    neighbour, open to every player who had no stone on them during eir previous turn."""
    b = s.board
    for i in range(len(s.players)):
        for v in graph.points:
            if b[v] == EMPTY and v not in s.previous[i] and any(b[w] == EMPTY for w in graph.neighbours[v]):
                return True
    return any(may_place(graph, s._replace(head=i), v) for i in range(len(s.players)) for v in graph.points)


def held(graph: Graph, s: State, q: str) -> frozenset:
    """The vertices holding q's stones."""
    return frozenset(v for v in graph.points if s.board[v] == q)


def move_made(graph: Graph, s: State, m: Move) -> State | None:
    """The situation right after the player to move makes move m, before the captures and
    the turn passing on; None if m is not legal or the game is over."""
    p = to_move(s)
    if s.over:
        return None
    if m.kind == "place":
        if not isinstance(m.target, int) or not may_place(graph, s, m.target):
            return None
        return s._replace(board=placed(s.board, m.target, p), passes=0)
    if m.kind == "pass":
        return s._replace(passes=s.passes + 1)
    if m.kind == "ally":
        if not isinstance(m.target, str) or m.target not in s.players or friendly(s, p, m.target):
            return None
        alliances = s.alliances | {frozenset({p, m.target})} if m.accepted else s.alliances
        return s._replace(alliances=alliances, passes=0)
    if m.kind == "war":
        if m.target == p or frozenset({p, m.target}) not in s.alliances:
            return None
        return s._replace(alliances=s.alliances - {frozenset({p, m.target})}, passes=0)
    return None


def play(graph: Graph, s: State, m: Move, rng: random.Random) -> State | None:
    """The situation after the player to move makes move m, the captures that follow it and
    the turn passing on; None if m is not legal or the game is over.  The game ends when
    every player has passed three times in a row or no player may place a stone.
    Restriction 1 remembers the mover's stones during this turn ("own": eir previous
    turn), or every player's stones during it ("last": the previous turn of the game)."""
    p = to_move(s)
    made = move_made(graph, s, m)
    if made is None:
        return None
    if made.readings.previous_turn == "own":
        previous = made.previous[: made.head] + (held(graph, made, p),) + made.previous[made.head + 1 :]
    else:
        previous = tuple(held(graph, made, q) for q in made.players)
    after = capture(graph, made, p, rng)
    after = after._replace(previous=previous, head=(after.head + 1) % len(after.players))
    over = after.passes >= 3 * len(after.players) or not legal_placement_exists(graph, after)
    return after._replace(over=over)


def final_scores(graph: Graph, s: State, judged_dead: Sequence[frozenset], rng: random.Random) -> dict:
    """Each player's Go score at the end: the dead dragons (those the `dead` reading makes
    dead, and those judged unable to make two eyes) are captured by the owners of unfriendly
    live dragons adjacent to them or to their liberties; then territory plus captured stones."""
    b = s.board
    all_dragons = dragons(graph, s)
    judged = set(map(frozenset, judged_dead))
    dead_dragons = [D for D in all_dragons if dead(graph, b, D, s.readings.dead) or D in judged]
    live = [E for E in all_dragons if E not in dead_dragons]
    captured = list(s.captured)
    removed: set = set()
    for D in dead_dragons:
        stones = len(D) if s.readings.overlap == "per-dragon" else len(D - removed)
        removed |= D
        near = D | liberties(graph, b, D)
        counts: dict = {}
        for E in live:
            if mutually_friendly(s, {b[v] for v in D | E}):
                continue
            for w in E:
                if any(adjacent(graph, w, x) for x in near):
                    counts[b[w]] = counts.get(b[w], 0) + 1
        for p, k in share(counts, stones, rng).items():
            captured[s.players.index(p)] += k
    after = s._replace(board=tuple(EMPTY if v in removed else b[v] for v in graph.points))
    return {p: len(territory(graph, after, p)) + captured[i] for i, p in enumerate(s.players)}


def winners(scores: dict) -> list:
    """The players with the highest Go score (more than one on a tie, which the source leaves open)."""
    top = max(scores.values())
    return [p for p in scores if scores[p] == top]


def reading_option(name: str, clause: str, reason: str):
    """An option choosing a reading of a clause of the source: the choices ``READINGS[name]``,
    the first the default, for the reason given."""
    return field(default=READINGS[name][0], metadata={"choices": READINGS[name], "reading_of": clause, "help": reason})


# One reading_option a clause, alike in shape on purpose: each quotes its own clause.
@dataclass(frozen=True)
class Options(api.Options):
    """The options of Political Go: the players' names in turn order, the seed of the
    random tie-breaks when captured stones are shared out, how grid vertices are named,
    and one reading of each ambiguous clause (see ``Readings``)."""

    players: tuple = ("A", "B", "C")
    seed: int = 0
    coordinates: str = field(
        default="text",
        metadata={
            "choices": ("text", "gtp"),
            "help": 'files lettered "a" to "s" with "i", as the source letters them; or GTP, without "i"',
        },
    )
    dead: str = reading_option("dead", '"dead if [it] has only one liberty"', "the text says one liberty")
    credit: str = reading_option(
        "credit", '"divided ... by the Go players whose stones are adjacent"', "the text names every adjacent stone"
    )
    overlap: str = reading_option(
        "overlap", '"credited with all of the stones in the captured dragon"', "a stone leaves the board once"
    )
    previous_turn: str = reading_option(
        "previous_turn", '"a stone during eir previous turn"', '"eir" names the player placing'
    )
    territory: str = reading_option(
        "territory", '"no path may be traced to a dragon unfriendly"', "paths through empty vertices, as area scoring"
    )
    friendship: str = reading_option(
        "friendship", '"friendly if owned by the same Go player or by allies"', "allies are the pairs that allied"
    )
    enemy: str = reading_option(
        "enemy", '"the stones of enemy dragons with no liberties are captured"', "the capture follows the mover's move"
    )

    def __post_init__(self) -> None:
        """At least two distinct names, none of them "." (an empty vertex) or holding ":" or
        ","; every reading one of its choices."""
        names = self.players
        if (
            not isinstance(names, tuple)
            or len(names) < 2
            or len(set(names)) != len(names)
            or any(not isinstance(p, str) or not p or p == EMPTY or ":" in p or "," in p for p in names)
        ):
            raise api.OptionError(f"bad players {names!r}: at least two distinct names, none '.'")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise api.OptionError(f"seed must be an integer, got {self.seed!r}")
        super().__post_init__()

    @property
    def readings(self) -> Readings:
        """The readings these options choose."""
        return Readings(**{name: getattr(self, name) for name in READINGS})

    def describe(self) -> str:
        """The options on one line, the players written as ``--option players=`` takes them."""
        return " ".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in self.as_dict().items())


def tie_breaks(seed: int, s: State) -> random.Random:
    """The random source of the tie-breaks after a move from s: seeded by the seed and the
    situation itself, so that the same move from the same situation is shared out alike."""
    alliances = sorted(sorted(a) for a in s.alliances)
    return random.Random(f"{seed}|{s.board}|{s.head}|{alliances}|{s.captured}|{s.passes}")


FILE_LETTERS = {"text": string.ascii_lowercase, "gtp": "abcdefghjklmnopqrstuvwxyz"}


def vertex_name(graph: Graph, v: int, coordinates: str = "text") -> str:
    """A grid vertex named by its file letter and its rank from 1 at the bottom: files "a"
    to "s" on 19 lines, "i" included ("text"), or without "i" as GTP has them ("gtp"); a
    vertex of any other graph by its number."""
    if graph.coordinates is None:
        return str(v)
    rows, _ = graph.shape
    r, c = graph.coordinates[v]
    return f"{FILE_LETTERS[coordinates][c]}{rows - r}"


def parse_vertex(graph: Graph, text: str, coordinates: str = "text") -> int:
    """The vertex a word names (as `vertex_name` writes it, in either case, or a number);
    GraphError naming the word otherwise."""
    word = text.strip().lower()
    if re.fullmatch(r"\d+", word) and int(word) < graph.order:
        return int(word)
    named = re.fullmatch(r"([a-z])(\d+)", word)
    if graph.is_grid and named and named.group(1) in FILE_LETTERS[coordinates]:
        rows, columns = graph.shape
        c, r = FILE_LETTERS[coordinates].index(named.group(1)), rows - int(named.group(2))
        if c < columns and 0 <= r < rows:
            return r * columns + c
    raise GraphError(f"unknown point {text!r} on {graph.name} ({coordinates} coordinates)")


def why_illegal(graph: Graph, s: State, m: Move) -> str:
    """Why the rules forbid move m to the player to move (for a move they forbid)."""
    p = to_move(s)
    if m.kind in ("ally", "war") and m.target not in s.players:
        return f"there is no player {m.target!r}: the players are {', '.join(s.players)}"
    if m.kind == "ally":
        return f"{m.target}'s stones are already friendly to {p}"
    if m.kind == "war":
        return f"{p} and {m.target} are not allies"
    if not isinstance(m.target, int) or m.target not in graph.points:
        return f"{m.target!r} is not a vertex of {graph.name}"
    if s.board[m.target] != EMPTY:
        return "the vertex is occupied"
    if m.target in s.previous[s.head]:
        return f"{p} had a stone there during the previous turn (restriction 1)"
    return "it would form a friendly dragon with no liberties and no enemy one (restriction 2)"


def alliance_events(before: State, after: State) -> list:
    """The alliances made and broken between two situations, as sentences."""
    made = sorted(sorted(a) for a in after.alliances - before.alliances)
    broken = sorted(sorted(a) for a in before.alliances - after.alliances)
    return [f"{a} and {b} are allied" for a, b in made] + [f"{a} and {b} are no longer allied" for a, b in broken]


class Political(api.Ruleset):
    """Political Go as a ruleset of the common interface: a state is a ``State``; a move
    places a stone, passes, offers an alliance (accepted or not) or declares war; a finished
    game is worth each player's Go score (no dragon judged dead beyond those the `dead`
    reading makes dead)."""

    name = "political"
    source = "004_0820ac7cd15cdfb1.txt"
    value_kind = "scores"
    players = None
    options_type = Options
    presets: ClassVar[dict[str, api.Options]] = {
        "three": Options(("A", "B", "C")),
        "four": Options(("A", "B", "C", "D")),
        "five": Options(("A", "B", "C", "D", "E")),
    }
    default_preset = "three"

    @property
    def finite(self) -> bool:
        """Nothing forbids a board from recurring: play can go on forever."""
        return False

    def start(self, graph: Graph) -> State:
        """The empty board, the first named player to move."""
        return initial_situation(graph, self.options.players, self.options.readings)

    def player(self, s: State) -> str:
        """The head of the turn list."""
        return to_move(s)

    def board_of(self, graph: Graph, s: State) -> Board:
        """Each vertex empty or holding its stone's owner."""
        return s.board

    def moves(self, graph: Graph, s: State) -> list:
        """The placements e may make, pass, an alliance offered (accepted, refused) to each
        player not friendly, and war on each ally."""
        if s.over:
            return []
        p = to_move(s)
        found: list = [Move("place", v) for v in graph.points if may_place(graph, s, v)]
        found.append(Move("pass"))
        for q in s.players:
            if not friendly(s, p, q):
                found += [Move("ally", q, True), Move("ally", q, False)]
            elif frozenset({p, q}) in s.alliances:
                found.append(Move("war", q))
        return found

    def apply(self, graph: Graph, s: State, m: Move) -> State:
        """The situation after m and the captures; IllegalMove saying why if m is not open."""
        if s.over:
            raise api.IllegalMove("the game is over")
        after = play(graph, s, m, tie_breaks(self.options.seed, s))
        if after is None:
            raise api.IllegalMove(why_illegal(graph, s, m))
        return after

    def is_over(self, graph: Graph, s: State) -> bool:
        """Every player passed three times in a row, or no one may place a stone."""
        return s.over

    def value(self, graph: Graph, s: State) -> dict:
        """Each player's Go score at the end."""
        return final_scores(graph, s, [], tie_breaks(self.options.seed, s))

    def parse_move(self, graph: Graph, text: str) -> Move:
        """A vertex, "pass", "ally:NAME" (refused), "ally:NAME!" (accepted) or "war:NAME";
        OptionError for a player who is not in the game."""
        word = text.strip()
        kind, _, target = word.partition(":")
        if kind == "pass" and not target:
            return Move("pass")
        if kind in ("ally", "war") and target:
            name = target.rstrip("!")
            if name not in self.options.players:
                players = ", ".join(self.options.players)
                raise api.OptionError(f"{word!r} names no player of this game: the players are {players}")
            return Move(kind, name, accepted=target.endswith("!"))
        return Move("place", parse_vertex(graph, word, self.options.coordinates))

    def move_text(self, graph: Graph, m: Move) -> str:
        """How a move is written (as ``parse_move`` reads it)."""
        if m.kind == "place" and isinstance(m.target, int):
            return vertex_name(graph, m.target, self.options.coordinates)
        if m.kind == "ally":
            return f"ally:{m.target}{'!' if m.accepted else ''}"
        return m.kind if m.kind == "pass" else f"{m.kind}:{m.target}"

    def events(self, graph: Graph, before: State, after: State) -> list:
        """What a move did beyond the board: alliances made and broken, stones captured."""
        gained = [f"{p} captures {b - a}" for p, a, b in zip(after.players, before.captured, after.captured) if b > a]
        return alliance_events(before, after) + gained

    def details(self, graph: Graph, s: State) -> dict:
        """The stones each player has captured, the alliances, and once over the winners."""
        found = {
            "captured": dict(zip(s.players, s.captured)),
            "alliances": sorted("+".join(sorted(a)) for a in s.alliances),
        }
        if s.over:
            found["winners"] = winners(self.value(graph, s))
        return found
