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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar, NamedTuple

from gorules.spec import api
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, Board, adjacent, update


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


class Situation(NamedTuple):
    """The board (each vertex empty or holding the name of its stone's owner), the players
    in their first turn-list order, the index of the head of the turn list, the alliances
    (pairs of players), each player's captured stones, the vertices each player had stones
    on during eir previous turn, the consecutive passes, and whether the game is over."""

    board: Board
    players: tuple
    head: int
    alliances: frozenset
    captured: tuple
    previous: tuple
    passes: int
    over: bool


def initial_situation(graph: Graph, players: Sequence[str]) -> Situation:
    """The empty board, no alliances, nothing captured, the first named player to move."""
    n = len(players)
    return Situation(
        tuple(EMPTY for _ in graph.points),
        tuple(players),
        0,
        frozenset(),
        (0,) * n,
        (frozenset(),) * n,
        0,
        False,
    )


def to_move(s: Situation) -> str:
    """The player at the head of the turn list."""
    return s.players[s.head]


def friendly(s: Situation, p: str, q: str) -> bool:
    """Stones of owners p and q are friendly: the same player, or allies."""
    return p == q or frozenset({p, q}) in s.alliances


def mutually_friendly(s: Situation, owners) -> bool:
    """All pairs of the given owners' stones are friendly."""
    return all(friendly(s, p, q) for p in owners for q in owners)


def is_dragon(graph: Graph, s: Situation, D: frozenset) -> bool:
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


def dragons(graph: Graph, s: Situation) -> list:
    """All dragons.  A dragon whose owners form the set O is a component of the stones of
    the players friendly to all of O; so `is_dragon` sorts out the dragons from those
    components, for every mutually friendly O.  With alliances that are not transitive,
    dragons may overlap."""
    found = set()
    for k in range(1, len(s.players) + 1):
        for owners in combinations(s.players, k):
            if not mutually_friendly(s, set(owners)):
                continue
            allies = {q for q in s.players if all(friendly(s, p, q) for p in owners)}
            for D in components(graph, {v for v in graph.points if s.board[v] in allies}):
                if is_dragon(graph, s, D):
                    found.add(D)
    return sorted(found, key=sorted)


def liberties(graph: Graph, b: Board, D: frozenset) -> frozenset:
    """The unoccupied vertices adjacent to the dragon's vertices, each counted once."""
    return frozenset(w for v in D for w in graph.neighbours[v] if b[w] == EMPTY)


def dead(graph: Graph, b: Board, D: frozenset) -> bool:
    """As the source writes it: a dragon is dead if it has exactly one liberty (so a dragon
    with none is, literally, live)."""
    return len(liberties(graph, b, D)) == 1


def friendly_to(s: Situation, D: frozenset, p: str) -> bool:
    """The dragon contains only stones friendly to player p."""
    return all(friendly(s, s.board[v], p) for v in D)


def territory(graph: Graph, s: Situation, p: str) -> frozenset:
    """The empty vertices from which no path through empty vertices reaches a stone of a
    dragon unfriendly to p."""
    b = s.board
    hostile = {v for D in dragons(graph, s) if not friendly_to(s, D, p) for v in D}
    counted = set()
    for v in graph.points:
        if b[v] != EMPTY:
            continue
        seen, frontier, touches = {v}, [v], False
        while frontier and not touches:
            u = frontier.pop()
            for w in graph.neighbours[u]:
                touches = touches or w in hostile
                if b[w] == EMPTY and w not in seen:
                    seen.add(w)
                    frontier.append(w)
        if not touches:
            counted.add(v)
    return frozenset(counted)


class Move(NamedTuple):
    """A move: ("place", vertex), ("pass",), ("ally", player, accepted) or ("war", player)."""

    kind: str
    target: object = None
    accepted: bool = False


def may_place(graph: Graph, s: Situation, v: int) -> bool:
    """Whether the player to move may place on v: v is an unoccupied vertex, e had no stone on
    it during eir previous turn, and the stone forms no friendly dragon without liberties
    unless it also forms an enemy dragon without liberties."""
    p = to_move(s)
    if v not in graph.points or s.board[v] != EMPTY or v in s.previous[s.head]:
        return False
    after = s._replace(board=update(s.board, v, p))
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


def capture(graph: Graph, s: Situation, mover: str, rng: random.Random) -> Situation:
    """Enemy dragons (to the mover) without liberties come off the board, their stones shared
    out by `share` among the owners of the stones adjacent to them; a stone in several such
    dragons is credited once, with the first of them in sorted order."""
    b = s.board
    victims = [D for D in dragons(graph, s) if not friendly_to(s, D, mover) and not liberties(graph, b, D)]
    captured = list(s.captured)
    removed: set = set()
    for D in victims:
        fresh = D - removed
        removed |= D
        touching = {w for v in D for w in graph.neighbours[v] if b[w] != EMPTY and w not in D}
        counts: dict = {}
        for w in touching:
            counts[b[w]] = counts.get(b[w], 0) + 1
        for p, k in share(counts, len(fresh), rng).items():
            captured[s.players.index(p)] += k
    board = tuple(EMPTY if v in removed else b[v] for v in graph.points)
    return s._replace(board=board, captured=tuple(captured))


def legal_placement_exists(graph: Graph, s: Situation) -> bool:
    """Some player could place a stone, were it eir turn."""
    return any(may_place(graph, s._replace(head=i), v) for i in range(len(s.players)) for v in graph.points)


def play(graph: Graph, s: Situation, m: Move, rng: random.Random) -> Situation | None:
    """The situation after the player to move makes move m, the captures that follow it and
    the turn passing on; None if m is not legal or the game is over.  The game ends when
    every player has passed three times in a row or no player may place a stone."""
    p = to_move(s)
    if s.over:
        return None
    passes = 0
    if m.kind == "place":
        if not may_place(graph, s, m.target):
            return None
        s = s._replace(board=update(s.board, m.target, p))
    elif m.kind == "pass":
        passes = s.passes + 1
    elif m.kind == "ally":
        if m.target not in s.players or friendly(s, p, m.target):
            return None
        if m.accepted:
            s = s._replace(alliances=s.alliances | {frozenset({p, m.target})})
    elif m.kind == "war":
        if m.target == p or frozenset({p, m.target}) not in s.alliances:
            return None
        s = s._replace(alliances=s.alliances - {frozenset({p, m.target})})
    else:
        return None
    mine = frozenset(v for v in graph.points if s.board[v] == p)
    previous = s.previous[: s.head] + (mine,) + s.previous[s.head + 1 :]
    s = capture(graph, s, p, rng)
    s = s._replace(previous=previous, passes=passes, head=(s.head + 1) % len(s.players))
    over = passes >= 3 * len(s.players) or not legal_placement_exists(graph, s)
    return s._replace(over=over)


def final_scores(graph: Graph, s: Situation, judged_dead: Sequence[frozenset], rng: random.Random) -> dict:
    """Each player's Go score at the end: the dead dragons (those with one liberty and those
    judged unable to make two eyes) are captured by the owners of unfriendly live dragons
    adjacent to them or to their liberties; then territory plus captured stones."""
    b = s.board
    all_dragons = dragons(graph, s)
    dead_dragons = [D for D in all_dragons if dead(graph, b, D) or D in set(map(frozenset, judged_dead))]
    live = [E for E in all_dragons if E not in dead_dragons]
    captured = list(s.captured)
    removed: set = set()
    for D in dead_dragons:
        fresh = D - removed
        removed |= D
        near = D | liberties(graph, b, D)
        counts: dict = {}
        for E in live:
            if mutually_friendly(s, {b[v] for v in D | E}):
                continue
            for w in E:
                if any(adjacent(graph, w, x) for x in near):
                    counts[b[w]] = counts.get(b[w], 0) + 1
        for p, k in share(counts, len(fresh), rng).items():
            captured[s.players.index(p)] += k
    after = s._replace(board=tuple(EMPTY if v in removed else b[v] for v in graph.points))
    return {p: len(territory(graph, after, p)) + captured[i] for i, p in enumerate(s.players)}


def winners(scores: dict) -> list:
    """The players with the highest Go score (more than one on a tie, which the source leaves open)."""
    top = max(scores.values())
    return [p for p in scores if scores[p] == top]


@dataclass(frozen=True)
class Options(api.Options):
    """The options of Political Go: the players' names in turn order, and the seed of the
    random tie-breaks when captured stones are shared out."""

    players: tuple = ("A", "B", "C")
    seed: int = 0

    def __post_init__(self) -> None:
        """At least two distinct names, none of them "." (an empty vertex) or holding ":" or ","."""
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


def tie_breaks(seed: int, s: Situation) -> random.Random:
    """The random source of the tie-breaks after a move from s: seeded by the seed and the
    situation itself, so that the same move from the same situation is shared out alike."""
    alliances = sorted(sorted(a) for a in s.alliances)
    return random.Random(f"{seed}|{s.board}|{s.head}|{alliances}|{s.captured}|{s.passes}")


class Political(api.Ruleset):
    """Political Go as a ruleset of the common interface: a state is a ``Situation``; a move
    places a stone, passes, offers an alliance (accepted or not) or declares war; a finished
    game is worth each player's Go score (no dragon judged dead beyond those with one liberty)."""

    name = "political"
    source = "004_0820ac7cd15cdfb1.txt"
    value_kind = "scores"
    players = None
    options_type = Options
    presets: ClassVar[dict[str, api.Options]] = {"three": Options(("A", "B", "C"))}
    default_preset = "three"

    @property
    def finite(self) -> bool:
        """Nothing forbids a board from recurring: play can go on forever."""
        return False

    def start(self, graph: Graph) -> Situation:
        """The empty board, the first named player to move."""
        return initial_situation(graph, self.options.players)  # type: ignore[attr-defined]

    def player(self, s: Situation) -> str:
        """The head of the turn list."""
        return to_move(s)

    def board_of(self, graph: Graph, s: Situation) -> Board:
        """Each vertex empty or holding its stone's owner."""
        return s.board

    def moves(self, graph: Graph, s: Situation) -> list:
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
            elif q != p:
                found.append(Move("war", q))
        return found

    def apply(self, graph: Graph, s: Situation, m: Move) -> Situation:
        """The situation after m and the captures; IllegalMove if m is not open."""
        after = play(graph, s, m, tie_breaks(self.options.seed, s))  # type: ignore[attr-defined]
        if after is None:
            raise api.IllegalMove("not open to the player to move")
        return after

    def is_over(self, graph: Graph, s: Situation) -> bool:
        """Every player passed three times in a row, or no one may place a stone."""
        return s.over

    def value(self, graph: Graph, s: Situation) -> dict:
        """Each player's Go score at the end."""
        return final_scores(graph, s, [], tie_breaks(self.options.seed, s))  # type: ignore[attr-defined]

    def parse_move(self, graph: Graph, text: str) -> Move:
        """A vertex, "pass", "ally:NAME" (refused), "ally:NAME!" (accepted) or "war:NAME"."""
        word = text.strip()
        kind, _, target = word.partition(":")
        if kind == "pass" and not target:
            return Move("pass")
        if kind in ("ally", "war") and target:
            return Move(kind, target.rstrip("!"), accepted=target.endswith("!"))
        return Move("place", super().parse_move(graph, word))

    def move_text(self, graph: Graph, m: Move) -> str:
        """How a move is written (as ``parse_move`` reads it)."""
        if m.kind == "place":
            return super().move_text(graph, m.target)
        if m.kind == "ally":
            return f"ally:{m.target}{'!' if m.accepted else ''}"
        return m.kind if m.kind == "pass" else f"{m.kind}:{m.target}"

    def details(self, graph: Graph, s: Situation) -> dict:
        """The stones each player has captured and the alliances."""
        return {
            "captured": dict(zip(s.players, s.captured)),
            "alliances": sorted("+".join(sorted(a)) for a in s.alliances),
        }
