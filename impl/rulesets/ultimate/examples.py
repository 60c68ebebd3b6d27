"""The two worked examples of section VII of source ``003_ba4357ff6ddc9904.txt``, rebuilt.

The text gives no diagrams, only properties: in the first example Black is to play, each
side has a territory of 2 after the 2-point group tax, the Fundamental score is +½ and
optimal play ends in a draw (White's ultimate delay at move 4, Black's at move 9, White
declares the draw at move 10); if Black delays first she loses (resigning at move 9).  In
the second White is to play, Black leads by 1 point of territory, the score is again +½ and
Black wins by 1 point (ultimate delays at B4 and W9, White resigns at W11); if White delays
first she loses by 2 (resigning at W9).

**The positions.**  A :class:`Shape` is a family of small graphs: point 0 is a Black stone,
point 1 a White stone, the dame (neutral points) are adjacent to both, and each stone has
``territory + 2`` eye points adjacent to it alone (the 2 are the group tax: a stone keeps
two of its eyes or can be taken).  :func:`find` searches the shapes up to a number of
points for those with the stated properties.

**Sensible play.**  The full search (:class:`Engine`) also tries every self-destruction — a
player filling her own eyes down to the last, after which the opponent takes the group and
the region reopens — and on these shapes it takes a minute at 10 points and does not finish at 13.
:class:`Sensible` leaves out exactly those placements: a placement that captures nothing and
leaves the mover's string with one liberty on which the opponent could place at once
(by rule 4; whether that board would repeat is not asked).  Where the full search
finishes, the two agree (:func:`agreement`); the examples' own sizes (13 and 14 points)
are computed with sensible play only.

**The line.**  :func:`line` plays section VI's optimal play from a situation: a player who
may declare a draw and cannot win declares it; otherwise she keeps her Ultimate result
(win, draw, loss) and, among the moves that do, plays an optimal one (cost 0 in section
IV's score) if any, a placement before a delay, and the ultimate delay last; a losing
player without an optimal move resigns (section IV).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gorules.impl.rulesets.ultimate.analysis import Analysis, _analyse
from gorules.impl.rulesets.ultimate.search import COLOURS, DELAY, ULTIMATE_DELAY, Engine, Position, deep, for_black
from gorules.spec import ultimate as spec
from gorules.spec.graph import Graph, parse_graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE, Player

RESULT_WORDS = {1: BLACK, 0: "draw", -1: WHITE}
"""Black's result as a word."""


# --------------------------------------------------------------------------- the positions


@dataclass(frozen=True)
class Shape:
    """Two living stones with their eyes and the dame between them: the territory of each
    side after the group tax, the number of dame, and the player to move."""

    black_territory: int
    white_territory: int
    dame: int
    to_move: Player

    @property
    def order(self) -> int:
        """The number of points: two stones, the dame, each side's territory and two eyes."""
        return 2 + self.dame + self.black_territory + 2 + self.white_territory + 2

    def regions(self) -> dict[str, list[int]]:
        """The dame and each side's eye points, by point number."""
        black_start = 2 + self.dame
        white_start = black_start + self.black_territory + 2
        dame = list(range(2, black_start))
        return {"dame": dame, BLACK: list(range(black_start, white_start)), WHITE: list(range(white_start, self.order))}

    def describe(self) -> str:
        """The shape in words."""
        side = "Black" if self.to_move == BLACK else "White"
        return (
            f"territory B {self.black_territory}, W {self.white_territory} (after the group tax), "
            f"{self.dame} dame, {side} to play"
        )


def example_graph(shape: Shape) -> Graph:
    """The graph of a shape, named by its edge list (so that ``edges:...`` reads it back)."""
    regions = shape.regions()
    arcs = [(0, d) for d in regions["dame"]] + [(1, d) for d in regions["dame"]]
    arcs += [(0, v) for v in regions[BLACK]] + [(1, v) for v in regions[WHITE]]
    if not regions["dame"]:
        arcs.append((0, 1))
    return parse_graph("edges:" + ",".join(f"{a}-{b}" for a, b in sorted(arcs)))


def example_situation(shape: Shape) -> spec.State:
    """The two stones on the graph, empty bowls, both ultimate prisoners held, the player to
    move; the boards that have occurred are the empty board and this one."""
    board = tuple([BLACK, WHITE] + [EMPTY] * (shape.order - 2))
    empty = tuple(EMPTY for _ in board)
    both = frozenset({BLACK, WHITE})
    return spec.State(board, shape.to_move, 0, 0, both, None, None, frozenset({board, empty}), None)


# --------------------------------------------------------------------------- sensible play and mutants


class Sensible(Engine):
    """The full game less self-destruction: no placement that captures nothing and leaves
    the mover's string with a single liberty the opponent could place on at once (by rule 4;
    whether that board would repeat is not asked)."""

    def place(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The placement, or None if it is not legal or puts its own string in atari."""
        placed = self.rule(own, other, v)
        if placed is None or placed[2]:
            return placed
        own, other, _ = placed
        liberties = self.liberties(self.group(own, v), self.full & ~(own | other))
        if liberties.bit_count() == 1 and self.rule(other, own, liberties.bit_length() - 1) is not None:
            return None
        return placed

    def rule(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The placement as the rules have it (rule 4 and 5's surrounded stone)."""
        return Engine.place(self, own, other, v)

    def liberties(self, string: int, empty: int) -> int:
        """The empty points next to a string."""
        found = 0
        while string:
            low = string & -string
            found |= self.neighbours[low.bit_length() - 1] & empty
            string ^= low
        return found & empty


class NoDrawOption(Sensible):
    """Mutant: the second ultimate delay gives nobody the right to declare a draw (rule 8 left out)."""

    def children(self, p: Position):
        """The moves, the second ultimate delay leaving the draw right with nobody."""
        moves, asked = super().children(p)
        if p[6] >= 0:
            moves = [(m, c[:7] + (-1,) + c[8:], b) if m == ULTIMATE_DELAY else (m, c, b) for m, c, b in moves]
        return moves, asked


class NoGroupTax(Sensible):
    """Mutant: a point whose neighbours are all stones of one colour is closed to the other
    colour, even to capture; so the last eye can never be taken and a group pays 1 point of
    tax instead of 2 (it may fill all its eyes but the last)."""

    def rule(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The placement, refused inside an eye of the opponent."""
        if self.neighbours[v] and self.neighbours[v] & ~other == 0:
            return None
        return super().rule(own, other, v)


MUTANTS = {"no draw option": NoDrawOption, "no group tax": NoGroupTax}


# --------------------------------------------------------------------------- properties


def margin(engine: Engine, p: Position) -> int:
    """The Ultimate margin of the winner: the least number of extra prisoners that lets the
    loser draw (the text's "1-point win"); 0 for a draw."""
    black = for_black(deep(engine.result, p), p[2])
    if black == 0:
        return 0
    loser = 1 if black == 1 else 0
    k = 1
    while for_black(deep(engine.result, engine.with_komi(p, loser, k)), p[2]) == black:
        k += 1
    return k


@dataclass
class Properties:
    """What the engine computes of one shape's situation."""

    shape: Shape
    score: float
    result: str
    margin: int

    def as_dict(self) -> dict:
        """JSON-able."""
        return {"score": self.score, "ultimate_result": self.result, "margin": self.margin}


def properties(engine: Engine, shape: Shape) -> Properties:
    """The Fundamental score, the Ultimate result and its margin of the shape's situation."""
    p = engine.from_situation(example_situation(shape))
    score = deep(engine.score, p)
    result = RESULT_WORDS[for_black(deep(engine.result, p), p[2])]
    return Properties(shape, score, result, margin(engine, p))


# --------------------------------------------------------------------------- the line


@dataclass
class Step:
    """One move of a line: its number from the example's start, the player, the move (a
    point, a delay's word, "declare draw" or "resign"), its cost, and the Ultimate result
    for Black after it."""

    number: int
    player: str
    move: object
    cost: float | None
    result: str

    def word(self) -> str:
        """The move as the text writes it, e.g. ``W4 ultimate delay`` or ``B1 2``."""
        return f"{self.player}{self.number} {self.move}"


def preference(move) -> tuple:
    """Placements first (by point), then a plain delay, then the ultimate delay."""
    if isinstance(move, int):
        return (0, move)
    return (1, 0) if move == DELAY else (2, 0)


def choose(engine: Engine, p: Position, analysis: Analysis) -> object:
    """Section VI's move at p: the draw if she may declare it and cannot win; resign if she
    loses and has no optimal move; else a move keeping her result, optimal if possible,
    preferred by :func:`preference`."""
    result = engine.result(p)
    if result == 0 and p[7] == p[2]:
        return spec.DECLARE_DRAW
    children = {m: child for m, child, _ in engine.children(p)[0]}
    keeping = [m for m, child in children.items() if -engine.result(child) == result]
    optimal = [m for m in keeping if analysis.costs.get(m) == 0]
    candidates = optimal or keeping
    if not candidates or (result == -1 and not optimal):
        return spec.RESIGN
    return min(candidates, key=preference)


def line(engine: Engine, p: Position, forced: tuple = (), limit: int = 60) -> list[Step]:
    """The moves of section VI's optimal play from p, after the ``forced`` moves (an
    alternative the text describes), to a draw declaration or a resignation."""
    return deep(_line, engine, p, forced, limit)


def _line(engine: Engine, p: Position, forced: tuple, limit: int) -> list[Step]:
    """The line, run inside :func:`deep`."""
    steps: list[Step] = []
    while len(steps) < limit:
        analysis = _analyse(engine, p, False)
        move = forced[len(steps)] if len(steps) < len(forced) else choose(engine, p, analysis)
        player = COLOURS[p[2]]
        if move in (spec.DECLARE_DRAW, spec.RESIGN):
            final = "draw" if move == spec.DECLARE_DRAW else RESULT_WORDS[-1 if p[2] == 0 else 1]
            steps.append(Step(len(steps) + 1, player, move, None, final))
            return steps
        child = {m: c for m, c, _ in engine.children(p)[0]}[move]
        after = RESULT_WORDS[for_black(-engine.result(child), p[2])]
        steps.append(Step(len(steps) + 1, player, move, analysis.costs.get(move), after))
        p = child
    return steps


def events(steps: list[Step]) -> list[str]:
    """The moves the text numbers: ultimate delays, the draw declaration, the resignation."""
    marked = (ULTIMATE_DELAY, spec.DECLARE_DRAW, spec.RESIGN)
    return [step.word() for step in steps if step.move in marked]


# --------------------------------------------------------------------------- the examples as the text states them


@dataclass
class Variation:
    """A line of the text: its title, the moves forced at its start, the events the text
    numbers, and the result it states (with its margin, where it gives one)."""

    title: str
    forced: tuple
    text_events: list[str]
    result: str
    margin: int | None = None
    complete: bool = True  # the text numbers every ultimate delay, draw and resignation of the line


@dataclass
class Example:
    """One worked example: who is to play, the territories the text states (or a rule for
    them), the stated score, and its variations."""

    name: str
    to_move: Player
    territories: list[tuple[int, int]]
    score: float
    variations: list[Variation] = field(default_factory=list)


EXAMPLES = [
    Example(
        "first example",
        BLACK,
        [(2, 2)],
        0.5,
        [
            Variation(
                "optimal play",
                (),
                ["W4 ultimate delay", "B9 ultimate delay", "W10 declare draw"],
                "draw",
            ),
            Variation(
                "White's ultimate delay earlier (at W2)",
                ("main", ULTIMATE_DELAY),
                ["W2 ultimate delay"],
                "draw",
                complete=False,
            ),
            Variation(
                "Black's attempt to deny the draw",
                (ULTIMATE_DELAY,),
                ["B1 ultimate delay", "B9 resign"],
                WHITE,
            ),
        ],
    ),
    Example(
        "second example",
        WHITE,
        [(t + 1, t) for t in range(3)],
        0.5,
        [
            Variation(
                "optimal play: Black wins",
                (),
                ["B4 ultimate delay", "W9 ultimate delay", "W11 resign"],
                BLACK,
                1,
            ),
            Variation("White's failed attempt", (ULTIMATE_DELAY,), ["W1 ultimate delay", "W9 resign"], BLACK, 2),
        ],
    ),
]


def shapes(example: Example, max_points: int) -> list[Shape]:
    """The shapes of an example with at most ``max_points`` points, smallest first."""
    found = [
        Shape(b, w, dame, example.to_move)
        for b, w in example.territories
        for dame in range(max_points)
        if Shape(b, w, dame, example.to_move).order <= max_points
    ]
    return sorted(found, key=lambda s: (s.order, s.dame))


def stated(example: Example, found: Properties) -> bool:
    """Whether a shape has the properties the text states of the example's position: the
    score, the optimal-play result and (where given) its margin."""
    main = example.variations[0]
    return (
        found.score == example.score
        and found.result == main.result
        and (main.margin is None or found.margin == main.margin)
    )


@dataclass
class Computed:
    """One variation as computed: the line, its events, the result and margin at its
    branching point, and the differences from the text."""

    variation: Variation
    steps: list[Step]
    events: list[str]
    result: str
    margin: int | None
    differences: list[str]


def resolve(forced: tuple, main: list[Step]) -> tuple:
    """The forced moves, ``"main"`` standing for the main line's move at that place."""
    return tuple(main[i].move if m == "main" else m for i, m in enumerate(forced))


def compute(engine: Engine, shape: Shape, example: Example) -> list[Computed]:
    """Every variation of the example on the shape: the line, and where it parts from the text."""
    start = engine.from_situation(example_situation(shape))
    computed: list[Computed] = []
    main: list[Step] = []
    for variation in example.variations:
        forced = resolve(variation.forced, main)
        steps = line(engine, start, forced)
        if not main:
            main = steps
        branch = start
        for move in forced:
            branch = {m: c for m, c, _ in engine.children(branch)[0]}[move]
        result = RESULT_WORDS[for_black(deep(engine.result, branch), branch[2])]
        found_margin = margin(engine, branch) if variation.margin is not None else None
        mine = events(steps)
        differences = [f"text: {e}; computed: not in the line" for e in variation.text_events if e not in mine]
        if variation.complete:
            differences += [f"computed: {e}; not in the text" for e in mine if e not in variation.text_events]
        if result != variation.result:
            differences.append(f"text: result {variation.result}; computed: {result}")
        if variation.margin is not None and found_margin != variation.margin:
            differences.append(f"text: a {variation.margin}-point win; computed: {found_margin}-point")
        computed.append(Computed(variation, steps, mine, result, found_margin, differences))
    return computed


def territory_fills(shape: Shape, steps: list[Step]) -> dict[str, int]:
    """How many of her own eye points each player fills in a line: her territory after the
    group tax, as play measures it."""
    regions = shape.regions()
    return {c: sum(1 for s in steps if s.player == c and s.move in regions[c]) for c in (BLACK, WHITE)}


def find(example: Example, max_points: int, engine_type: type = Sensible, meter=None) -> list[Properties]:
    """The properties of every shape of the example up to ``max_points`` points."""
    found = []
    for shape in shapes(example, max_points):
        engine = engine_type(example_graph(shape), meter=meter)
        found.append(properties(engine, shape))
    return found


def agreement_shapes(max_points: int) -> list[Shape]:
    """The smaller shapes on which sensible play is compared with the full search: each
    side's territory 0 or 1 (Black's at least White's), 1 to 3 dame, either player to
    move, at most ``max_points`` points."""
    found = [
        Shape(b, w, dame, player)
        for b, w in ((0, 0), (1, 0), (1, 1))
        for dame in (1, 2, 3)
        for player in (BLACK, WHITE)
    ]
    return sorted((s for s in found if s.order <= max_points), key=lambda s: (s.order, s.dame, s.to_move))


def agreement(shape: Shape, meter=None) -> tuple[Properties, Properties]:
    """The properties of one shape by the full search and by sensible play."""
    full = properties(Engine(example_graph(shape), meter=meter), shape)
    return full, properties(Sensible(example_graph(shape), meter=meter), shape)
