"""Source 000's whole game on a digraph as a finite arena: history deletion, ko bids, their
answers and resets, and every unsustainable action.

A turn of ``spec/directed.py`` is cut into the decisions of its two players, each a node:

* ``offer`` (board, mover, history, e): the board has joined the history; the mover's
  opponent may delete it (the opponent is asked first, the mover then as part of its turn);
* ``turn`` (board, mover, history, e, deleted): the mover may delete the history (unless
  the opponent did), places a stone or passes, and after a stone may bid an amount;
* ``answer`` (board, bidder, history, e, amount): the opponent ignores the bid, names
  itself ko winner together with the board it resets to, or names the bidder;
* ``reset`` (board, winner, history, e): the bidder, named ko winner, keeps the board or
  resets it to a board of the history;
* ``via`` (colours, target): one arc that carries the unsustainable actions just done;
* ``sink`` (winner): a play its owner has won whatever follows (below).

The history is the set of boards since the last deletion, as the source says.  The scores
enter as one number, ``e``: Black's score minus White's, komi included.  Black wins a play
in which nobody is unsustainable for ever iff ``e + live margin > 0``, draws iff it is 0.
Once ``e > n`` (n points) Black wins whatever follows: never bidding, never deleting, and
naming White ko winner of each of White's bids keeps Black's unsustainability 0 and ``e``
from falling, and the live margin is at least −n; likewise White once ``e < −n``.  So
``e`` is kept in [−n, n] and a play leaving it goes to its winner's sink: exact, not a
bound.  An amount above 2n + step leads from any e of the window to the same sinks as
2n + step, so the menu of amounts {0, step, …, 2n + step} loses nothing but the amounts
off the step's grid: the step is the reading ``bids``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from gorules.spec.directed import place
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Player, opponent

READINGS: dict[str, tuple[tuple[str, ...], str, str]] = {
    # name: (choices, default, why the default)
    "bids": (
        ("halves", "units", "zero"),
        "halves",
        "KO: 'a nonnegative rational amount'; the arena offers the multiples of a step, and amounts "
        "above 2n + step change nothing (see the module's argument); halves is the finest step whose "
        "arenas are solved on two points, and the grid of the komi's half point ('units': whole points; "
        "'zero': bids of 0 only, which the source's notes single out)",
    ),
    "unsustainable": (
        ("source", "older"),
        "source",
        "WINNING as written: bid < choose yourself ko winner < ignore a bid < delete the history; 'older' "
        "is the note's older version, in which placing a stone is unsustainable too, read as the least "
        "unsustainable action",
    ),
    "passing": (
        ("stones", "quiet"),
        "stones",
        "'always eventually passes' read as: from some turn on, each of the player's turns is a pass (no "
        "stone, hence no bid); deleting the history and answering the opponent's bids are not turns of its "
        "own ('quiet': it also eventually never deletes the history)",
    ),
}

STEPS = {"halves": Fraction(1, 2), "units": Fraction(1), "zero": None}

SOURCE_ACTIONS = ("bid", "self", "ignore", "delete")
OLDER_ACTIONS = ("place", "bid", "self", "ignore", "delete")


@dataclass(frozen=True)
class Reading:
    """The readings of the full game: the bid menu's step, the unsustainability order and
    what "eventually passes" asks."""

    bids: str = "halves"
    unsustainable: str = "source"
    passing: str = "stones"

    def __post_init__(self) -> None:
        """Each field one of its reading's choices."""
        for name in READINGS:
            if getattr(self, name) not in READINGS[name][0]:
                raise ValueError(f"unknown value {getattr(self, name)!r} of reading {name}")

    @property
    def step(self) -> Fraction | None:
        """The step of the bid menu (None: bids of 0 only)."""
        return STEPS[self.bids]

    @property
    def actions(self) -> tuple[str, ...]:
        """The unsustainable actions, least unsustainable first (rank 1)."""
        return OLDER_ACTIONS if self.unsustainable == "older" else SOURCE_ACTIONS

    def describe(self) -> str:
        """The reading as NAME=VALUE words."""
        return f"bids={self.bids} unsustainable={self.unsustainable} passing={self.passing}"


def menu(order: int, step: Fraction | None) -> list[Fraction]:
    """The amounts a bid may name: 0, step, …, 2n + step (bids of 0 only without a step)."""
    if step is None:
        return [Fraction(0)]
    top = 2 * order + step
    return [k * step for k in range(int(top / step) + 1)]


class ArenaTooLarge(Exception):
    """The arena grew past the position limit before it was complete."""


SINK = {BLACK: ("sink", BLACK), WHITE: ("sink", WHITE)}


def offer_key(board: tuple, player: Player, history: frozenset, e: Fraction) -> tuple:
    """The node before a turn (the board already in the history)."""
    return ("offer", board, player, history | {board}, e)


class FullArena:
    """Every node reachable from some starts, with owners (0 Black, 1 White), successors,
    predecessors, colours and the label of each arc (the part of a spec Turn it decides)."""

    flag_count = 0
    """Colours beside the live points, the unsustainable actions and e (none here)."""

    def __init__(self, graph: Graph, reading: Reading, starts: Iterable[tuple], max_positions: int = 10**6):
        self.graph = graph
        self.reading = reading
        self.order = graph.order
        self.amounts = menu(graph.order, reading.step)
        self.rank_count = len(reading.actions)
        self.live_bits = 2 * graph.order
        self.flag_bits = 2 * len(reading.actions) + self.live_bits
        self.e_bits: dict[Fraction, int] = {}
        self.positions: list[tuple] = []
        self.index: dict[tuple, int] = {}
        self.labels: list[dict[int, tuple]] = []
        self.owner: list[int] = []
        self.colour: list[int] = []
        self._build(list(starts), max_positions)

    # -------------------------------------------------------------- colours

    def unsustainable_bit(self, player: Player, action: str) -> int:
        """The colour of `player` doing `action` (rank = its place in the reading's order)."""
        rank = self.reading.actions.index(action)
        return 1 << (self.live_bits + (0 if player == BLACK else self.rank_count) + rank)

    def rank_bits(self, player: Player) -> list[int]:
        """The colours of `player`'s unsustainable actions, rank 1 first."""
        base = self.live_bits + (0 if player == BLACK else self.rank_count)
        return [1 << (base + r) for r in range(self.rank_count)]

    def e_bit(self, e: Fraction) -> int:
        """The colour of score difference e (a new bit for each value met)."""
        if e not in self.e_bits:
            self.e_bits[e] = 1 << (self.flag_bits + self.flag_count + len(self.e_bits))
        return self.e_bits[e]

    def colour_of(self, key: tuple) -> int:
        """Offers carry their board (which points are not Black, not White) and e; arcs their
        actions; a sink the other side's most unsustainable action, so that it wins for its owner."""
        kind = key[0]
        if kind == "offer":
            board, e = key[1], key[4]
            mask = self.e_bit(e)
            for i, c in enumerate(board):
                if c != BLACK:
                    mask |= 1 << i
                if c != WHITE:
                    mask |= 1 << (self.order + i)
            return mask
        if kind == "via":
            return key[1]
        if kind == "sink":
            return self.rank_bits(opponent(key[1]))[-1]
        return 0

    # -------------------------------------------------------------- nodes and arcs

    def bounded(self, board: tuple, player: Player, history: frozenset, e: Fraction) -> tuple:
        """The offer before the next turn, or the sink of the player whom e has made safe."""
        if e > self.order:
            return SINK[BLACK]
        if e < -self.order:
            return SINK[WHITE]
        return offer_key(board, player, history, e)

    def via(self, mask: int, target: tuple) -> tuple:
        """An arc through a node that carries the colours `mask` (the target itself if none)."""
        return ("via", mask, target) if mask else target

    def owner_of(self, key: tuple) -> int:
        """Who decides at a node."""
        kind = key[0]
        if kind == "offer":
            return 1 if key[2] == BLACK else 0
        if kind in ("turn", "reset"):
            return 0 if key[2] == BLACK else 1
        if kind == "answer":
            return 1 if key[2] == BLACK else 0
        return 0

    def resets(self, board: tuple, history: frozenset, bidder: Player) -> list[tuple]:
        """The boards a ko winner may leave on the board after `bidder`'s stone: the current
        one, or one of the history."""
        return [board, *sorted(b for b in history if b != board)]

    def stone_bit(self, player: Player) -> int:
        """The colour of `player` placing a stone: none in this arena."""
        return 0

    def placement_colour(self, player: Player) -> int:
        """The colours of an arc on which `player` places a stone: none, or the least
        unsustainable action under the older reading."""
        return self.unsustainable_bit(player, "place") if "place" in self.reading.actions else 0

    def may_delete(self) -> bool:
        """Whether the history may be deleted (always, in the source)."""
        return True

    def arcs(self, key: tuple) -> list[tuple[tuple, tuple]]:
        """(label, successor) of every choice at a node; a label is (deleted_by, move, amount,
        winner, reset board) with None for what the choice leaves open."""
        kind = key[0]
        if kind == "offer":
            return self._offer_arcs(key)
        if kind == "turn":
            return self._turn_arcs(key)
        if kind == "answer":
            return self._answer_arcs(key)
        if kind == "reset":
            _, board, winner, history, e = key
            return [
                ((None, None, None, winner, r), self.bounded(r, winner, history, e))
                for r in self.resets(board, history, winner)
            ]
        if kind == "via":
            return [((None,) * 5, key[2])]
        return [((None,) * 5, key)]

    def _offer_arcs(self, key: tuple) -> list:
        """The mover's opponent keeps or deletes the history."""
        _, board, player, history, e = key
        found: list[tuple[tuple, tuple]] = [((None,) * 5, ("turn", board, player, history, e, False))]
        if self.may_delete():
            deleter = opponent(player)
            target: tuple = ("turn", board, player, frozenset(), e, True)
            found.append(
                ((deleter, None, None, None, None), self.via(self.unsustainable_bit(deleter, "delete"), target))
            )
        return found

    def _turn_arcs(self, key: tuple) -> list:
        """The mover's deletion (unless done), its placement or pass, and its bid."""
        _, board, player, history, e, deleted = key
        other = opponent(player)
        found: list[tuple[tuple, tuple]] = []
        for delete in (False, True) if not deleted and self.may_delete() else (False,):
            kept = frozenset() if delete else history
            base = self.unsustainable_bit(player, "delete") if delete else 0
            deleter = player if delete else None
            found.append(((deleter, PASS, None, None, None), self.via(base, self.bounded(board, other, kept, e))))
            for v in self.graph.points:
                if board[v] != EMPTY:
                    continue
                after = place(self.graph, board, v, player)
                mask = base | self.placement_colour(player)
                found.append(((deleter, v, None, None, None), self.via(mask, self.bounded(after, other, kept, e))))
                bid = mask | self.unsustainable_bit(player, "bid")
                for a in self.amounts:
                    found.append(((deleter, v, a, None, None), self.via(bid, ("answer", after, player, kept, e, a))))
        return found

    def _answer_arcs(self, key: tuple) -> list:
        """Ignore; name oneself ko winner and reset; or name the bidder, who resets next."""
        _, board, bidder, history, e, a = key
        answerer = opponent(bidder)
        ignore = self.unsustainable_bit(answerer, "ignore")
        found: list[tuple[tuple, tuple]] = [
            ((None, None, None, None, None), self.via(ignore, self.bounded(board, answerer, history, e)))
        ]
        to_bidder = e + a if bidder == BLACK else e - a
        mine = self.unsustainable_bit(answerer, "self")
        for r in self.resets(board, history, bidder):
            found.append(
                ((None, None, None, answerer, r), self.via(mine, self.bounded(r, answerer, history, to_bidder)))
            )
        to_answerer = e - a if bidder == BLACK else e + a
        probe = self.bounded(board, bidder, history, to_answerer)
        target = probe if probe[0] == "sink" else ("reset", board, bidder, history, to_answerer)
        found.append(((None, None, None, bidder, None), target))
        return found

    def _build(self, starts: list[tuple], max_positions: int) -> None:
        """Every node reachable from the starts, breadth first; ArenaTooLarge past the limit."""
        queue: list[tuple] = []
        for key in starts:
            self._add(key, queue, max_positions)
        arcs_of: list[list] = []
        done = 0
        while done < len(self.positions):
            key = self.positions[done]
            done += 1
            arcs = self.arcs(key)
            for _, target in arcs:
                self._add(target, queue, max_positions)
            arcs_of.append(arcs)
        self.labels = [{} for _ in self.positions]
        for v, arcs in enumerate(arcs_of):
            for label, target in arcs:
                self.labels[v].setdefault(self.index[target], label)
        self.successors = [tuple(sorted(m)) for m in self.labels]
        predecessors: list[list[int]] = [[] for _ in self.positions]
        for v, succ in enumerate(self.successors):
            for w in succ:
                predecessors[w].append(v)
        self.predecessors = [tuple(p) for p in predecessors]

    def _add(self, key: tuple, queue: list, max_positions: int) -> None:
        """Number a new node."""
        if key in self.index:
            return
        if len(self.positions) >= max_positions:
            raise ArenaTooLarge(f"more than {max_positions:,} nodes")
        self.index[key] = len(self.positions)
        self.positions.append(key)
        self.owner.append(self.owner_of(key))
        self.colour.append(self.colour_of(key))

    def start(self, board: Iterable, e: Fraction, player: Player = BLACK, history: frozenset = frozenset()) -> int:
        """The index of the offer before the first turn from `board` with score difference e."""
        return self.index[self.bounded(tuple(board), player, history, Fraction(e))]

    def offers(self) -> list[int]:
        """The indices of the offers (the situations between turns)."""
        return [v for v, key in enumerate(self.positions) if key[0] == "offer"]


class MarkedArena(FullArena):
    """The same game, with each placement also coloured by the player who places the stone,
    so that "a player eventually passes" (places no more stones) is read off the colours that
    recur.  The two colours come after the unsustainable actions and before the e colours."""

    flag_count = 2

    def stone_bit(self, player: Player) -> int:
        """The colour of `player` placing a stone."""
        return 1 << (self.flag_bits + (0 if player == BLACK else 1))

    def placement_colour(self, player: Player) -> int:
        """The placer's stone colour, beside the older reading's unsustainable action."""
        return super().placement_colour(player) | self.stone_bit(player)
