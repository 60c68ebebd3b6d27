"""Topological Go on go-spaces of any size: the twin of ``gorules.spec.topological``.

The spec stores every open set of a go-space and finds strings by trying every subset of
stones, which is exact and exponential.  Here a finite topology is held by the smallest
open set ``U_x`` around each point (the specialisation preorder), as bitsets:

- the closure of a set A is the set of points x whose ``U_x`` meets A, so the closure of a
  stone is the union of the closures ``cl{a}`` of its points, kept per placement;
- a subset of a finite space is connected iff it is connected in the graph joining x to y
  when one lies in the other's smallest neighbourhood, a walk over bitsets;
- two closed sets whose union is connected meet, so a placement can only connect to a
  string whose closure its closure meets;
- the union of two go-connected sets of stones that share a stone is go-connected (their
  closures share the closure of that stone, which is not empty), so the literal string of
  Defn 7 is the largest go-connected set holding s, or empty if there is none; it is found
  by splitting the stones of a colour by the components of their closures' union, again
  and again, keeping in each component the stones whose closure lies inside it.

The closure of a finite union is the union of the closures, so Defn 5's two readings are
one computation here.  States, moves, options and values are the spec's: this ruleset is
the spec's with ``turns``, ``apply``, ``is_over`` and ``start`` computed on bitsets, and
the tests play both move by move on every go-space of up to four points.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from gorules.spec import graph as graphs
from gorules.spec import topological as spec
from gorules.spec.api import IllegalMove
from gorules.spec.graph import Graph, set_text
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Board, Player, State, opponent


def points_of(mask: int) -> Iterator[int]:
    """The points of a bitset, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(points) -> int:
    """The bitset of a set of points."""
    mask = 0
    for x in points:
        mask |= 1 << x
    return mask


@dataclass(frozen=True)
class Space:
    """A go-space as bitsets: for each point its closure ``cl{x}`` and the points it is
    joined to (comparable with it); for each placement its set, its closure and whether
    that closure is connected; for each point the placements whose closure holds it."""

    size: int
    links: tuple[int, ...]
    sets: tuple[frozenset, ...]
    masks: tuple[int, ...]
    closures: tuple[int, ...]
    closure_connected: tuple[bool, ...]
    touching: tuple[tuple[int, ...], ...]

    @property
    def full(self) -> int:
        """Every point of X."""
        return (1 << self.size) - 1


def space_from(neighbourhoods: spec.Neighbourhoods) -> Space:
    """The bitset go-space of the smallest open neighbourhoods and placements."""
    n = neighbourhoods.size
    up = [mask_of(U) for U in neighbourhoods.minimal]
    down = [0] * n
    for x in range(n):
        for y in points_of(up[x]):
            down[y] |= 1 << x
    links = tuple((up[x] | down[x]) & ~(1 << x) for x in range(n))
    sets = tuple(sorted(neighbourhoods.placements, key=sorted))
    masks = tuple(mask_of(s) for s in sets)
    closures = tuple(functools.reduce(int.__or__, (down[x] for x in s), 0) for s in sets)
    partial = Space(n, links, sets, masks, closures, (), ())
    connected_closure = tuple(connected(partial, c) for c in closures)
    touching: list[list[int]] = [[] for _ in range(n)]
    for i, c in enumerate(closures):
        for x in points_of(c):
            touching[x].append(i)
    return Space(n, links, sets, masks, closures, connected_closure, tuple(tuple(t) for t in touching))


@functools.lru_cache(maxsize=64)
def space_for(graph: Graph) -> Space:
    """The bitset go-space a game on ``graph`` is played on (the spec's ``neighbourhoods_of``)."""
    return space_from(spec.neighbourhoods_of(graph))


def grow(space: Space, seed: int, within: int) -> int:
    """The component of ``within`` that holds the points of ``seed`` (all of one component)."""
    component = frontier = seed
    links = space.links
    while frontier:
        reached = 0
        for x in points_of(frontier):
            reached |= links[x]
        frontier = reached & within & ~component
        component |= frontier
    return component


def connected(space: Space, U: int) -> bool:
    """Whether the set U is T-connected (the empty set is)."""
    return not U or grow(space, U & -U, U) == U


def components(space: Space, U: int) -> list[int]:
    """The connected components of U."""
    found = []
    while U:
        component = grow(space, U & -U, U)
        found.append(component)
        U &= ~component
    return found


def literal_strings(space: Space, stones: list[int]) -> dict[int, tuple[frozenset, int]]:
    """Defn 7 read literally, for every stone (by placement index) of one colour: its string
    as a set of placement indices and the closure of its union; a stone with no go-connected
    set of stones around it is missing (its string is empty)."""
    found: dict[int, tuple[frozenset, int]] = {}
    groups = [stones]
    while groups:
        group = groups.pop()
        union = functools.reduce(int.__or__, (space.closures[t] for t in group), 0)
        for component in components(space, union):
            inside = [t for t in group if not space.closures[t] & ~component]
            if not inside:
                continue
            if len(inside) == len(group):
                members = frozenset(inside)
                found.update(dict.fromkeys(inside, (members, union)))
            else:
                groups.append(inside)
    return found


@dataclass
class Colouring:
    """A colouring of X as the bitsets of its black and white points."""

    black: int
    white: int

    def of(self, c: Player) -> int:
        """The points of colour c."""
        return self.black if c == BLACK else self.white

    def empty(self, space: Space) -> int:
        """The empty points."""
        return space.full & ~(self.black | self.white)


def colouring_of(board: Board) -> Colouring:
    """The bitsets of a colouring given as a tuple of colours."""
    return Colouring(
        mask_of(x for x, c in enumerate(board) if c == BLACK), mask_of(x for x, c in enumerate(board) if c == WHITE)
    )


def board_of_colouring(space: Space, colouring: Colouring) -> Board:
    """The tuple of colours of a colouring."""
    return tuple(
        BLACK if colouring.black >> x & 1 else WHITE if colouring.white >> x & 1 else EMPTY for x in range(space.size)
    )


def is_legal(space: Space, colouring: Colouring, i: int, c: Player, readings: spec.Readings) -> bool:
    """Defn 4: placement i is coloured empty; read as ``overlap``, it has an empty point and
    none of the colour opposite c."""
    mask = space.masks[i]
    if readings.placement == "empty":
        return not mask & (colouring.black | colouring.white)
    return bool(mask & colouring.empty(space)) and not mask & colouring.of(opponent(c))


def has_liberty(space: Space, colouring: Colouring, union: int, c: Player, readings: spec.Readings) -> bool:
    """Defn 6 for a string of colour c whose stones' closures make ``union``: some legal
    placement e leaves the closure of e and the string connected.  An empty string (the
    literal Defn 7) has a liberty when any legal placement has a connected closure."""
    if not union:
        return any(
            space.closure_connected[i] and is_legal(space, colouring, i, c, readings) for i in range(len(space.masks))
        )
    whole = connected(space, union)
    tried = set()
    for x in points_of(union):
        for i in space.touching[x]:
            if i in tried:
                continue
            tried.add(i)
            if not is_legal(space, colouring, i, c, readings):
                continue
            if whole and space.closure_connected[i]:
                return True
            if connected(space, union | space.closures[i]):
                return True
    return False


def clear(space: Space, colouring: Colouring, c: Player, readings: spec.Readings) -> Colouring:
    """Defn 8: keep a point of colour c only if it lies in a stone of colour c whose string
    has a liberty; read as ``unrestricted``, clear a point only if every stone of colour c
    holds it and none has a liberty (so nothing if one stone lives, and with no stone at
    all every point of colour c)."""
    own = colouring.of(c)
    stones = [i for i, mask in enumerate(space.masks) if not mask & ~own]
    strings = literal_strings(space, stones)
    alive = 0
    verdicts: dict[frozenset, bool] = {}
    empty_string_lives = None
    for s in stones:
        if s in strings:
            members, union = strings[s]
            if members not in verdicts:
                verdicts[members] = has_liberty(space, colouring, union, c, readings)
            lives = verdicts[members]
        elif readings.string == "intended":
            lives = has_liberty(space, colouring, space.closures[s], c, readings)
        else:
            if empty_string_lives is None:
                empty_string_lives = has_liberty(space, colouring, 0, c, readings)
            lives = empty_string_lives
        if lives:
            alive |= space.masks[s]
    if readings.clearing == "unrestricted":
        common = functools.reduce(int.__and__, (space.masks[s] for s in stones), space.full)
        kept = own if alive else own & ~common
    else:
        kept = own & alive
    return Colouring(kept, colouring.white) if c == BLACK else Colouring(colouring.black, kept)


def board_play(space: Space, colouring: Colouring, i: int, p: Player, readings: spec.Readings) -> Colouring | None:
    """Defn 9: colour placement i with p, clear p*, then clear p; None if i is not legal."""
    if not is_legal(space, colouring, i, p, readings):
        return None
    mask = space.masks[i]
    if p == BLACK:
        placed = Colouring(colouring.black | mask, colouring.white & ~mask)
    else:
        placed = Colouring(colouring.black & ~mask, colouring.white | mask)
    return clear(space, clear(space, placed, opponent(p), readings), p, readings)


class Topological(spec.Topological):
    """Topological Go on bitsets: the spec's ruleset (options, states, moves, values) with
    its board plays computed from smallest open neighbourhoods."""

    def start(self, graph: Graph) -> tuple:
        """Rule 3: X empty, Black to move."""
        return (State((EMPTY,) * space_for(graph).size, BLACK, 0),)

    def turn(self, space: Space, states: tuple, i: int) -> Board | None:
        """The colouring the board play of placement i makes, or None if it is not a turn
        (not a legal placement, or its colouring was seen before)."""
        s = states[-1]
        after = board_play(space, colouring_of(s.board), i, s.player, self.options.readings)
        if after is None:
            return None
        board = board_of_colouring(space, after)
        return None if any(board == t.board for t in states) else board

    def turns(self, graph: Graph, states: tuple) -> dict:
        """The board plays open to the player to move, each mapped to the colouring it makes."""
        space = space_for(graph)
        s = states[-1]
        colouring = colouring_of(s.board)
        seen = {t.board for t in states}
        found = {}
        for i, e in enumerate(space.sets):
            after = board_play(space, colouring, i, s.player, self.options.readings)
            if after is not None:
                board = board_of_colouring(space, after)
                if board not in seen:
                    found[e] = board
        return found

    def apply(self, graph: Graph, states: tuple, e) -> tuple:
        """The states with the turn e appended; IllegalMove if e is not a turn."""
        if e == PASS:
            return super().apply(graph, states, e)
        space = space_for(graph)
        board = self.turn(space, states, space.sets.index(e)) if e in space.sets else None
        if board is None:
            raise IllegalMove("not a board play onto an empty point that repeats no earlier colouring")
        s = states[-1]
        return (*states, State(board, opponent(s.player), 0))

    def is_over(self, graph: Graph, states: tuple) -> bool:
        """Stone rules: two consecutive passes; primitive rules: the player to move has no turn."""
        if self.options.scoring == "stone":
            return states[-1].passes >= 2
        space = space_for(graph)
        return all(self.turn(space, states, i) is None for i in range(len(space.sets)))


# --------------------------------------------------------------------------- every small go-space


def preorder_neighbourhoods(n: int) -> Iterator[tuple[int, ...]]:
    """Every topology on X = {0..n-1}, as the bitsets of its smallest open neighbourhoods:
    every reflexive and transitive relation, U_x the points x is related to."""
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    for chosen in range(1 << len(pairs)):
        up = [1 << x for x in range(n)]
        for k, (a, b) in enumerate(pairs):
            if chosen >> k & 1:
                up[a] |= 1 << b
        if all(up[y] & ~up[x] == 0 for x in range(n) for y in points_of(up[x])):
            yield tuple(up)


def permuted(mask: int, p: tuple[int, ...]) -> int:
    """The image of a bitset under the permutation p of the points."""
    return mask_of(p[x] for x in points_of(mask))


def open_sets(up: tuple[int, ...]) -> list[int]:
    """The open sets of the topology with smallest neighbourhoods ``up``: the unions of them."""
    opens = {0}
    for U in up:
        opens |= {V | U for V in opens}
    return sorted(opens)


def go_space_classes(n: int) -> Iterator[spec.Neighbourhoods]:
    """One go-space (X, T, S) with |X| = n and S not empty from each class up to
    isomorphism (a permutation of X carrying T to T and S to S): each topology up to
    homeomorphism, then each S up to the topology's automorphisms."""
    from itertools import permutations

    perms = list(permutations(range(n)))
    seen: set[tuple[int, ...]] = set()
    for up in preorder_neighbourhoods(n):
        key = min(tuple(sorted(permuted(U, p) for U in up)) for p in perms)
        if key in seen:
            continue
        seen.add(key)
        opens = [U for U in open_sets(up) if U]
        index = {U: k for k, U in enumerate(opens)}
        automorphisms = [p for p in perms if all(permuted(up[x], p) == up[p[x]] for x in range(n))]
        images = [[index[permuted(U, p)] for U in opens] for p in automorphisms]
        for chosen in range(1, 1 << len(opens)):
            members = list(points_of(chosen))
            if any(mask_of(image[k] for k in members) < chosen for image in images):
                continue
            minimal = tuple(frozenset(points_of(U)) for U in up)
            yield spec.Neighbourhoods(n, minimal, frozenset(frozenset(points_of(opens[k])) for k in members))


def space_text(space: spec.Neighbourhoods) -> str:
    """The command-line text of a go-space (``3;preorder=2<0;S=0,0+2``): its points, arrows
    a<b of its specialisation preorder from which the rest follow (each arrow dropped in
    turn when the others imply it), and S."""
    arrows = [(a, b) for a in range(space.size) for b in sorted(space.minimal[a]) if b != a]
    for arrow in list(arrows):
        rest = [other for other in arrows if other != arrow]
        if graphs.preorder_neighbourhoods(space.size, rest) == space.minimal:
            arrows = rest
    placements = ",".join(set_text(s) for s in sorted(space.placements, key=lambda s: (len(s), sorted(s))))
    order = ";preorder=" + ",".join(f"{a}<{b}" for a, b in arrows) if arrows else ""
    return f"{space.size}{order};S={placements}"
