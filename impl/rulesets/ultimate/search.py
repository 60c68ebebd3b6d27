"""Ultimate and Fundamental Go (source ``003_ba4357ff6ddc9904.txt``) solved by yes/no searches.

The spec (:mod:`gorules.spec.ultimate`) states the rules on tuples; this module plays the
same game on bitsets and decides it by two boolean searches, AND–OR searches that call
each other:

- ``can_win(p)``: the player to move has a strategy that ends in her win: some move after
  which the opponent cannot even draw;
- ``can_draw(p)``: she has one that ends at least in a draw: she holds the right to declare
  one, or some move after which the opponent cannot win.

The Ultimate Go result is a win if ``can_win``, else a draw if ``can_draw``, else a loss.
Fundamental Go has no draws, so ``can_win`` alone decides it, and section IV's score is
found by asking ``can_win`` with more and more mid-game komi.

``Engine`` composes the parts in the modules beside this one, each of one concern:
``boards`` (bitsets, the numbering of boards), ``moves`` (move generation and ordering, the
delay races), ``table`` (proofs and their history conditions), ``symmetry`` (orbits, frames,
moved histories), ``proving`` (the Python searches), ``driver`` (the compiled core) and
``scoring`` (sections IV and VI).

**Why the table is sound under positional superko.**  Whether a placement is legal depends
on the history (rule 5).  Each answer the search proves records the boards whose presence
in the history its proof asked about (Q) and those it found there (D = H ∩ Q, H the
history at the node); boards that the line below the node itself created are not asked of
H.  The same proof holds at the same position with any history H' for which H' ∩ Q = D,
and only then is the answer reused (the graph–history interaction handled exactly, as the
Tromp–Taylor solver does).  Boards are numbered on first sight and Q, D, H are bitsets
over those numbers.

**Why the bowls are stored less their common part.**  Section IV: one more prisoner in
each bowl changes nothing (whoever wins keeps her extra stone and delays with it right
after the opponent delays with his); the same argument keeps a draw.  And one more
prisoner of one's own never hurts (she need not use it).  So an answer is stored against
the prisoner difference d of the player to move (her bowl less the opponent's) as a bound:
a win at d is a win at every d' ≥ d, a loss at d a loss at every d' ≤ d.  ``canonical=False``
stores exact bowls instead; the check of the claim itself searches that way.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from gorules.impl.rulesets.ultimate.boards import COLOURS, DELAY, INF, ULTIMATE_DELAY, Boards, Position
from gorules.impl.rulesets.ultimate.driver import MAX_COMPILED, CompiledDriver
from gorules.impl.rulesets.ultimate.moves import Moves
from gorules.impl.rulesets.ultimate.proving import Abandoned, Prover
from gorules.impl.rulesets.ultimate.scoring import PROBE, Scoring
from gorules.impl.rulesets.ultimate.symmetry import Symmetry
from gorules.impl.rulesets.ultimate.table import Table
from gorules.impl.solving.budget import Meter
from gorules.spec import ultimate as spec
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, WHITE

__all__ = [
    "AUTO_NODES",
    "COLOURS",
    "DELAY",
    "INF",
    "ULTIMATE_DELAY",
    "Abandoned",
    "Engine",
    "Position",
    "deep",
    "for_black",
    "principal_variation",
    "solve",
]


class Engine:
    """Ultimate/Fundamental Go on one graph as bitsets, with the two yes/no searches, composed
    of its parts by concern: ``boards`` (bitsets and the numbering of boards), ``moves``
    (move generation and ordering, the delay races), ``table`` (the proofs and their
    history conditions), ``symmetry`` (orbits, frames, moved histories), ``prover`` (the
    Python searches), ``driver`` (the compiled core) and ``scoring`` (sections IV and VI).

    The engine holds what its parts share while a question is asked (the node count, a
    probe's cap, the budget, the flags) and names every operation; the parts ask the engine
    for the operations a subclass overrides (a mutant of the claims, a restricted play), so
    that overriding a method here changes the search."""

    def __init__(
        self,
        graph: Graph,
        canonical: bool = True,
        meter: Meter | None = None,
        progress=None,
        races: bool = True,
        symmetric: bool = True,
        frames: bool = True,
        hinted: bool = True,
        compiled: bool = False,
        search: str = "all",
        lemmas: bool = True,
        hand_over: int = 0,
    ):
        """Prepare the graph's neighbour sets.  ``meter`` (a budget's) counts every node of
        every search and raises BudgetSpent when the budget is used up; ``progress`` is
        called with the node count every thousand nodes.  With ``races`` a position that
        a delay race settles (see ``race``) is answered without a search; with ``symmetric``
        positions early in the game are searched up to the graph's symmetry (``SHALLOW``),
        and with ``frames`` later ones as the image whose board represents its class
        (``prove``); with ``hinted`` the fixed move order races one where the move that last
        reached a goal at a table key is tried there first (``decide``); with ``compiled``
        each question is asked of the compiled core (``ultimate_compiled``) on graphs it
        takes (at most 7 points), the Python search left for the owed delays of a handicap
        and for lines longer than the core's stack; ``search`` is the core's: "all" (the fixed and
        the hinted depth-first orders and proof-number search racing), "race" (the two
        depth-first orders alone) or "dfpn" (proof-number search alone); with ``lemmas``
        the score and the Ultimate result of a start that swapping the colours leaves alone
        skip the questions two lemmas answer (``symmetric_start``); with ``compiled`` and
        ``hand_over`` > 0 each question is asked of the Python search first while the engine
        has spent fewer than ``hand_over`` nodes in all, then of the compiled core (as
        ``solve(core="auto")``: the easy graphs answered before the core would have loaded)."""
        self.boards = Boards(graph)
        self.graph, self.n, self.full = graph, self.boards.n, self.boards.full
        self.neighbours, self.numbers, self.codes = self.boards.neighbours, self.boards.numbers, self.boards.codes
        self.moves = Moves(self, own_children=type(self).children is Engine.children)
        self.table = Table(self.boards, canonical)
        self.tables = self.table.tables
        self.symmetry = Symmetry(self.boards)
        self.frames_of, self.moved_sets = self.symmetry.frames_of, self.symmetry.moved_sets
        self.prover = Prover(self)
        self.hints = self.prover.hints
        self.driver = CompiledDriver(self, search)
        self.scoring = Scoring(self)
        self.canonical = canonical
        self.races = races
        self.meter = meter
        self.progress = progress
        self.nodes = 0
        self.cap: int | None = None  # a probe's last node (Abandoned past it), or None
        self.symmetric = symmetric
        self.frames = frames
        self.hinted = hinted
        self.racing = False  # within decide(): the two orders are racing
        self.use_hints = hinted  # whether the hints order the moves now
        self.compiled = compiled and canonical and self.n <= MAX_COMPILED
        self.search = search
        self.lemmas = lemmas
        self.hand_over = hand_over

    def count(self) -> None:
        """One more node: the meter ticked (BudgetSpent past the budget), progress told every thousand."""
        self.nodes += 1
        if self.cap is not None and self.nodes > self.cap:
            raise Abandoned
        if self.meter is not None:
            self.meter.tick()
        if self.progress is not None and not self.nodes % 1000:
            self.progress(self.nodes)

    @property
    def core(self) -> Any:
        """The compiled core (``ultimate_compiled``), once loaded: the driver's."""
        return self.driver.core

    @core.setter
    def core(self, core: Any) -> None:
        """Give the driver this core."""
        self.driver.core = core

    @property
    def symmetries(self) -> list[tuple[int, ...]] | None:
        """The graph's automorphisms once found (``automorphisms``), else None."""
        return self.symmetry.symmetries

    @property
    def bounds(self) -> tuple[float, float]:
        """The score as far as proved (``score``)."""
        return self.scoring.bounds

    # ---- boards (``Boards``)

    def code(self, black: int, white: int) -> int:
        """One integer for a board (``Boards.code``)."""
        return self.boards.code(black, white)

    def bit(self, code: int) -> int:
        """The history bit of a board (``Boards.bit``)."""
        return self.boards.bit(code)

    def group(self, stones: int, v: int) -> int:
        """The points of the string through v among ``stones`` (``Boards.group``)."""
        return self.boards.group(stones, v)

    def breathes(self, string: int, empty: int) -> bool:
        """Whether some point next to the string is empty (``Boards.breathes``)."""
        return self.boards.breathes(string, empty)

    def place(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The rule of a placement (``Boards.place``): a variant of the rules overrides it."""
        return self.boards.place(own, other, v)

    def image(self, sigma: tuple[int, ...], code: int) -> int:
        """A board code moved by a point permutation (``Boards.image``)."""
        return self.boards.image(sigma, code)

    def from_situation(self, s: spec.State) -> Position:
        """The position of a spec situation (``Boards.from_situation``)."""
        return self.boards.from_situation(s)

    def to_situation(self, p: Position) -> spec.State:
        """The spec situation of a position (``Boards.to_situation``)."""
        return self.boards.to_situation(p)

    # ---- moves (``Moves``)

    def children(self, p: Position) -> tuple[list[tuple[object, Position, int]], int]:
        """The moves of the player to move and the boards asked of the history
        (``Moves.children``): a variant of the rules overrides it."""
        return self.moves.children(p)

    def placed(self, black: int, white: int, player: int) -> list[tuple[int, int, int, int]]:
        """The placements of ``player`` on a board (``Moves.placed``)."""
        return self.moves.placed(black, white, player)

    ordered = staticmethod(Moves.ordered)

    def race(self, p: Position) -> bool | None:
        """Whether a delay race alone settles p (``Moves.race``)."""
        return self.moves.race(p)

    def solo(self, black: int, white: int, player: int) -> int:
        """The most moves ``player`` can make while her opponent only delays (``Moves.solo``)."""
        return self.moves.solo(black, white, player)

    # ---- the table (``Table``)

    difference = staticmethod(Table.difference)
    normal = staticmethod(Table.normal)

    def node_key(self, p: Position) -> tuple:
        """The table key of a position (``Table.node_key``)."""
        return self.table.node_key(p)

    def lookup(self, goal: int, p: Position, key: tuple | None = None) -> tuple[bool, int] | None:
        """A stored proof that applies at p (``Table.lookup``)."""
        return self.table.lookup(goal, p, key)

    def remember(self, goal: int, p: Position, answer: bool, asked: int, key: tuple | None = None) -> None:
        """Store a proof at p (``Table.remember``)."""
        self.table.remember(goal, p, answer, asked, key)

    # ---- symmetry (``Symmetry``)

    def representatives(self, p: Position) -> list[int]:
        """One empty point of each orbit under the automorphisms fixing p's boards
        (``Symmetry.representatives``)."""
        return self.symmetry.representatives(p)

    def automorphisms(self) -> list[tuple[int, ...]]:
        """Automorphisms of the graph (``Symmetry.automorphisms``)."""
        return self.symmetry.automorphisms()

    def moved(self, bits: int, sigma: int) -> int:
        """A set of history bits moved by automorphism number ``sigma`` (``Symmetry.moved``)."""
        return self.symmetry.moved(bits, sigma)

    # ---- the yes/no searches (``Prover``, ``CompiledDriver``)

    def can_win(self, p: Position) -> bool:
        """Whether the player to move has a strategy that ends in her win."""
        return self.decide(0, p)

    def can_draw(self, p: Position) -> bool:
        """Whether the player to move has a strategy that ends at least in a draw."""
        return self.decide(1, p)

    def result(self, p: Position) -> int:
        """The result for the player to move under best play: 1 a win, 0 a draw, −1 a loss."""
        return self.prover.result(p)

    def decide(self, goal: int, p: Position) -> bool:
        """``prove(goal, p)``'s answer, the two move orders racing (``Prover.decide``)."""
        return self.prover.decide(goal, p)

    def prove(self, goal: int, p: Position) -> tuple[bool, int]:
        """Whether the player to move reaches her goal, with the bits the proof asked about
        (``Prover.prove``)."""
        return self.prover.prove(goal, p)

    hint_first = staticmethod(Prover.hint_first)
    loss_query = staticmethod(Prover.loss_query)

    # ---- sections IV and VI (``Scoring``)

    fundamental = staticmethod(Scoring.fundamental)
    with_komi = staticmethod(Scoring.with_komi)
    untouched = staticmethod(Scoring.untouched)
    result_range = staticmethod(Scoring.result_range)

    def black_wins(self, p: Position) -> bool:
        """In Fundamental Go, whether Black has a winning strategy."""
        return self.scoring.black_wins(p)

    def score(self, p: Position, probe: int | None = PROBE) -> float:
        """Section IV's score of a position read as Fundamental Go (``Scoring.score``);
        ``bounds`` holds what is proved so far."""
        return self.scoring.score(p, probe)

    def symmetric_start(self, p: Position) -> bool:
        """Whether p is a start that swapping the colours leaves alone, where two lemmas
        hold (``Scoring.symmetric_start``)."""
        return self.scoring.symmetric_start(p)

    def probed(self, question: Callable[[int], bool], k: int, probe: int | None) -> bool | None:
        """The answer to ``question(k)`` within ``probe`` more nodes, or None (``Scoring.probed``)."""
        return self.scoring.probed(question, k, probe)

    @classmethod
    def results_between(cls, low: float, high: float, player: int) -> tuple[int, int]:
        """The least and greatest Ultimate result that a score in [low, high] allows, each
        end read by ``result_range`` (``Scoring.results_between``)."""
        return Scoring.results_between(low, high, player, cls.result_range)

    def result_given_score(self, p: Position, low: float, high: float | None = None) -> int:
        """The Ultimate result for the player to move, the score of p known to lie in
        [low, high] (``Scoring.result_given_score``)."""
        return self.scoring.result_given_score(p, low, high)


def deep(function: Callable, *args):
    """``function(*args)`` run on a thread with a large stack and a high recursion limit, so
    that long games do not overflow it; an exception is raised again here."""
    outcome: dict = {}

    def target() -> None:
        """Call the function, keeping its value or its exception."""
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    limit = sys.getrecursionlimit()
    size = threading.stack_size()
    sys.setrecursionlimit(max(limit, 200_000))
    threading.stack_size(512 * 1024 * 1024)
    try:
        worker = threading.Thread(target=target)
        worker.start()
        worker.join()
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# --------------------------------------------------------------------------- the solve command's hook

OUTCOME = {1: BLACK, 0: "draw", -1: WHITE}
"""Black's result as the interface writes it."""


def for_black(result: int, player: int) -> int:
    """A result for the player to move (1 win, 0 draw, −1 loss) as Black's."""
    return result if player == 0 else -result


def principal_variation(engine: Engine, p: Position, result: int) -> list:
    """Moves that keep the result from p to the end: the winner plays a winning move, a
    player held to a draw declares it if she may or plays a move that keeps it, the loser
    resigns."""
    line: list = []
    while True:
        if result == -1:
            return [*line, spec.RESIGN]
        if result == 0 and p[7] == p[2]:
            return [*line, spec.DECLARE_DRAW]
        moves, _ = engine.children(p)
        for move, child, _ in engine.ordered(moves):
            if -engine.result(child) == result:
                line.append(move)
                p = child
                result = -result
                break
        else:
            raise AssertionError("no move keeps the result: the search is inconsistent")


AUTO_NODES = 50_000
"""The nodes ``solve(core="auto")`` gives the Python search before it asks the compiled core
instead: the Python search settles the easy graphs before the compiled core would have loaded
and numbered its boards, the compiled core the hard ones, which the Python search leaves
open (docs/ultimate.md, "Solving: two yes/no searches")."""


def solve(situation, meter: Meter | None = None, progress=None, core: str = "auto"):
    """The value of an interface situation for Black, as the generic solver's Solution: under
    Ultimate Go its result (B, draw or W), found by the two yes/no searches; under Fundamental
    Go section IV's score (a number, its sign the winner), found by the score's questions, the
    result at the situation's own komi alongside (``details["result"]``).  The questions are
    asked of the Python search (``core="python"``), of the compiled core where it takes the
    graph ("compiled"), or of the Python search for ``AUTO_NODES`` nodes and then, if it has not
    answered, of the compiled core ("auto").  On a spent budget the bounds proved so far are
    reported with status ``bounds``."""
    import dataclasses

    from gorules.impl.solving.budget import Budget, BudgetSpent

    if core != "auto" or situation.graph.order > MAX_COMPILED:
        return solve_by(situation, meter, progress, core == "compiled")
    left = meter.budget.seconds - meter.seconds if meter is not None and meter.budget.seconds is not None else None
    nodes = AUTO_NODES if meter is None or meter.budget.nodes is None else min(AUTO_NODES, meter.budget.nodes)
    trial = Budget(seconds=left if left is None or left > 0 else 1e-9, nodes=nodes).meter()
    first = solve_by(situation, trial, progress, False)
    if first.status == "exact" or trial.nodes <= AUTO_NODES:  # answered, or the time ran out
        return first
    try:
        if meter is not None:
            meter.tick(trial.nodes)
    except BudgetSpent:
        return first
    second = solve_by(situation, meter, progress, True)
    return dataclasses.replace(
        second,
        nodes=second.nodes + first.nodes,
        seconds=second.seconds + first.seconds,
        method=second.method + f", after {first.nodes:,} nodes of the Python search left it open",
    )


def solve_by(situation, meter: Meter | None, progress, compiled: bool):
    """``solve`` by one engine: the compiled core's questions if ``compiled``, else Python's."""
    import time

    from gorules.impl.solving.budget import BudgetSpent
    from gorules.impl.solving.search import Solution

    graph, ruleset = situation.graph, situation.ruleset
    engine = Engine(graph, meter=meter, progress=progress, compiled=compiled)
    p = engine.from_situation(situation.state)
    player = p[2]
    started = time.perf_counter()
    proved: dict = {}
    note = None
    fundamental = ruleset.fundamental
    score: float | None = None
    try:
        if fundamental:
            score = deep(engine.score, p)
        proved["can_win"] = deep(engine.can_win, p)
        if not proved["can_win"]:
            proved["can_draw"] = deep(engine.can_draw, p)
    except BudgetSpent as spent:
        note = f"{spent}; proved so far: " + (", ".join(f"{k}={v}" for k, v in proved.items()) or "nothing")
    lower, upper = result_bounds(proved)
    black = sorted((for_black(lower, player), for_black(upper, player)))
    exact = black[0] == black[1]
    line = deep(principal_variation, engine, p, lower) if exact else []
    core = "; compiled core (numba)" if engine.compiled else "; Python core"
    details = {
        "to_move": COLOURS[player],
        **proved,
        "result": OUTCOME[black[0]] if exact else None,
        "core": "compiled" if engine.compiled else "python",
    }
    value: float | str | None
    least: float | str | None
    most: float | str | None
    if fundamental:  # section IV's score, and None for a bound not proved
        low, high = (score, score) if score is not None else engine.bounds
        value, least, most = score, (low if abs(low) < INF else None), (high if abs(high) < INF else None)
        method = "section IV's score by yes/no searches (can Black win with K more prisoners for the side behind?), "
    else:
        value, least, most = details["result"], OUTCOME[black[0]], OUTCOME[black[1]]
        method = "two yes/no searches (can the player to move win? can she at least draw?), "
    return Solution(
        graph=graph.name,
        ruleset=ruleset.name,
        options=ruleset.options.as_dict(),
        value=value,
        principal_variation=line,
        nodes=engine.nodes,
        seconds=time.perf_counter() - started,
        method=method + "table sound under positional superko" + core,
        status="exact" if value is not None else "bounds",
        lower=least,
        upper=most,
        note=note,
        details=details,
    )


def result_bounds(proved: dict) -> tuple[int, int]:
    """The least and greatest result (for the player to move) consistent with what the
    searches proved."""
    if proved.get("can_win"):
        return 1, 1
    if "can_win" not in proved:
        return -1, 1
    if "can_draw" not in proved:
        return -1, 0
    return (0, 0) if proved["can_draw"] else (-1, -1)
