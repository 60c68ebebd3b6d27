"""Conjectures to sweep over graph families: built-in ones, and the API for your own.

A sweep computes *figures* of each graph (the perfect-play value, board counts, game
lengths...) and tests a conjecture, a predicate over those figures, on each.  The
figures are the expensive part and run on the workers (a local process pool or a Dask
cluster); the predicate is cheap and runs where the sweep was started, so a conjecture
of your own is just a Python function over named figures (see ``docs/conjectures.md``)::

    from gorules.conjectures import conjecture

    @conjecture(figures=["value"], ruleset="tromp-taylor")
    def odd_paths_are_black_wins(graph, figures):
        "On a path with an odd number of points Black wins."
        return graph.order % 2 == 0 or figures["value"]["value"] > 0

Every figure is computed under the conjecture's ruleset (a registered ruleset with a preset
and options, made by :func:`gorules.rulesets.make`), and every conjecture says which.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gorules import rulesets
from gorules.errors import UsageError
from gorules.impl.counting.positions import legal_bitboards
from gorules.impl.engine.rules import kernel, to_board
from gorules.impl.solving.search import solve
from gorules.impl.solving.solve import Solver
from gorules.spec.api import Ruleset
from gorules.spec.graph import Graph, point_name
from gorules.user_files import load_python_file

# ---------------------------------------------------------------------------- figures

FIGURES: dict[str, Callable[[Graph, Ruleset], object]] = {}

SOLVE_NODE_BUDGET = 50_000_000
LONGEST_GAME_POSITIONS = 41  # the exhaustive longest-game search stops at 1×4's positions (cost: docs/conjectures.md)


def figure(name: str):
    """Register a function (graph, ruleset) -> JSON-able value as the figure ``name``."""

    def register(function):
        FIGURES[name] = function
        return function

    return register


def move_names(graph: Graph, moves: Sequence) -> list:
    """Moves as the CLI shows them: point names, and "pass"."""
    return [m if m == "pass" else point_name(graph, m) for m in moves]


# The figures the Tromp–Taylor engine computes: they need the ruleset's ``engine`` capability.
ENGINE_FIGURES = frozenset({"shortest_perfect_game", "longest_game", "boards"})


def check_figures(names: Sequence[str], ruleset: Ruleset) -> None:
    """UsageError, before any work, if a figure is unknown or the ruleset lacks what it needs
    (the message names the capability)."""
    for name in names:
        if name not in FIGURES:
            raise UsageError(f"unknown figure {name!r}: known figures are {', '.join(sorted(FIGURES))}")
        if name in ENGINE_FIGURES:
            tromp_taylor_options(ruleset, name)
        if name == "value":
            require_solvable(ruleset)
        if name == "directed_value":
            require_arena(ruleset)


def tromp_taylor_options(ruleset: Ruleset, figure_name: str):
    """The options the Tromp–Taylor engine computes a figure under (the ruleset's ``engine``
    capability); UsageError naming the capability when the ruleset lacks it."""
    engine = ruleset.capability("engine")
    if engine is None:
        raise UsageError(
            f"the figure {figure_name!r} is refused: {ruleset.capability_gap('engine')} "
            "(the figure is the Tromp–Taylor engine's)"
        )
    return engine(ruleset)


def require_solvable(ruleset: Ruleset) -> None:
    """UsageError naming the ``solve`` capability when the ruleset has none and the generic
    search does not apply (a game that may not end, or not of two players)."""
    from gorules.impl.solving.search import SearchError, require_two_player_finite

    if ruleset.capability("solve") is not None:
        return
    try:
        require_two_player_finite(ruleset)
    except SearchError as error:
        raise UsageError(
            f"the figure 'value' is refused: {ruleset.capability_gap('solve')}, and the generic search does not "
            f"apply: {error}"
        ) from None


def require_arena(ruleset: Ruleset) -> None:
    """UsageError unless the ruleset is a game of source 000's kind: an infinite game of
    Black and White with an outcome, solved by a capability of its own (a subclass that
    changes a rule loses it)."""
    if ruleset.capability("solve") is None:
        raise UsageError(f"the figure 'directed_value' is refused: {ruleset.capability_gap('solve')}")
    if ruleset.players != ("B", "W") or ruleset.value_kind != "outcome" or ruleset.finite:
        raise UsageError(
            f"the figure 'directed_value' is the value of source 000's game (the directed ruleset's), an infinite "
            f"game of Black and White with an outcome, which the {ruleset.name} ruleset (value kind "
            f"{ruleset.value_kind}) is not"
        )


def as_number(x):
    """An integral float as an int (so that JSON shows 1, not 1.0); anything else as it is."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


@figure("value")
def value_figure(graph: Graph, ruleset: Ruleset) -> dict:
    """The perfect-play value from the start (for Black: a margin, komi subtracted, or an
    outcome), a principal variation and the search nodes (:mod:`gorules.impl.solving.search`)."""
    solution = solve(ruleset.initial(graph), max_nodes=SOLVE_NODE_BUDGET)
    return {
        "value": as_number(solution.value),
        "principal_variation": [ruleset.move_text(graph, m) for m in solution.principal_variation],
        "nodes": solution.nodes,
    }


@figure("shortest_perfect_game")
def shortest_perfect_game_figure(graph: Graph, ruleset: Ruleset) -> dict:
    """The fewest turns (passes included) of a game in which every turn keeps the
    perfect-play value, and one such game (Tromp–Taylor)."""
    options = tromp_taylor_options(ruleset, "shortest_perfect_game")
    line = Solver(graph, options, max_nodes=SOLVE_NODE_BUDGET).shortest_perfect_game()
    return {"turns": None if line is None else len(line), "game": None if line is None else move_names(graph, line)}


@figure("longest_game")
def longest_game_figure(graph: Graph, ruleset: Ruleset) -> dict:
    """The most turns (passes included) of any game under positional superko, suicide
    allowed (the source's ``game``), and one such game; None beyond 41 legal positions."""
    options = tromp_taylor_options(ruleset, "longest_game")
    if options.ko != "positional" or options.suicide != "allowed":
        raise UsageError("the longest game is computed for positional superko with suicide allowed only")
    from gorules.impl.counting.games import longest_game
    from gorules.impl.counting.positions import count_legal, enumerate_legal

    positions = enumerate_legal(graph) if graph.directed else count_legal(graph)
    if positions > LONGEST_GAME_POSITIONS:
        return {
            "turns": None,
            "game": None,
            "reason": f"{positions} legal positions, more than {LONGEST_GAME_POSITIONS}",
        }

    line = longest_game(graph)
    return {"turns": len(line), "game": move_names(graph, line)}


DIRECTED_MAX_POINTS = 5  # the arena has 4 * 3^n positions


@figure("directed_value")
def directed_value_figure(graph: Graph, ruleset: Ruleset) -> dict:
    """Source 000's game without ko bids or history deletion, solved on its finite arena
    (:mod:`gorules.impl.rulesets.directed.arena`): the value from the empty board (live Black stones
    minus live White stones under perfect play), which is the first player's only
    win-or-draw komi under divide-and-choose."""
    require_arena(ruleset)
    if graph.order > DIRECTED_MAX_POINTS:
        raise UsageError(f"the figure 'directed_value' solves graphs of at most {DIRECTED_MAX_POINTS} points")
    from gorules.impl.rulesets.directed.arena import arena_of, values_of

    return {"value": values_of(graph).of(arena_of(graph).start()), "fragment": "no ko bids, no history deletion"}


def reachable_boards(graph: Graph, suicide_allowed: bool = True) -> set:
    """The boards that occur in some game: those reached from the empty board by placing
    stones of either colour (a pass lets the same colour play again) along a path of
    distinct boards, which is what breadth-first search finds."""
    k = kernel(graph)
    start = (0, 0)
    seen = {start}
    queue = deque([start])
    while queue:
        black, white = queue.popleft()
        empty = k.all & ~(black | white)
        for v in graph.points:
            if not empty >> v & 1:
                continue
            for colour in (0, 1):
                nb, nw = k.play(black, white, v, colour)
                if not (nb | nw) >> v & 1 and not suicide_allowed:
                    continue
                if (nb, nw) not in seen:
                    seen.add((nb, nw))
                    queue.append((nb, nw))
    return seen


@figure("boards")
def boards_figure(graph: Graph, ruleset: Ruleset) -> dict:
    """How many boards are well-formed, how many occur in some game, and a board that
    is one but not the other (None if the two sets are equal)."""
    well_formed = set(legal_bitboards(graph))
    reachable = reachable_boards(graph, tromp_taylor_options(ruleset, "boards").suicide == "allowed")
    differ = sorted(well_formed ^ reachable)
    example = None
    if differ:
        black, white = differ[0]
        example = "".join(to_board(graph, black, white))
    return {"well_formed": len(well_formed), "reachable": len(reachable), "differing_example": example}


def compute_figures(graph: Graph, names: Sequence[str], ruleset: Ruleset) -> dict:
    """The named figures of a graph under a ruleset."""
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        raise UsageError(f"unknown figure {unknown[0]!r}: known figures are {', '.join(sorted(FIGURES))}")
    return {name: FIGURES[name](graph, ruleset) for name in names}


# ---------------------------------------------------------------------------- conjectures


@dataclass
class Conjecture:
    """A statement tested graph by graph: a predicate over figures computed under a ruleset
    (a registered ruleset's name, a preset of it or its default, and options changed)."""

    name: str
    predicate: Callable[[Graph, dict], bool]
    figures: list
    ruleset: str = "tromp-taylor"
    description: str = ""
    source: str = ""
    families: list = field(default_factory=list)
    preset: str | None = None
    options: dict = field(default_factory=dict)
    value_kinds: tuple = ()
    """The kinds of value (:data:`gorules.spec.api.ValueKind`) the predicate reads; empty if any."""

    def refuse_value_kind(self, ruleset: Ruleset) -> None:
        """UsageError when the predicate cannot read the ruleset's kind of value."""
        if self.value_kinds and ruleset.value_kind not in self.value_kinds:
            raise UsageError(
                f"{self.name} reads a value of kind {' or '.join(self.value_kinds)}, and the value kind of the "
                f"{ruleset.name} ruleset is {ruleset.value_kind}"
            )

    def holds(self, graph: Graph, figures: dict) -> bool:
        """Whether the conjecture holds on a graph with these figures."""
        return bool(self.predicate(graph, figures))

    def make_ruleset(self) -> Ruleset:
        """The ruleset the figures are computed under."""
        return rulesets.make(self.ruleset, self.preset, self.options)

    @property
    def label(self) -> str:
        """The ruleset as the results store and the summaries name it: ``name``, ``name/preset``,
        and any options changed as ``key=value``."""
        words = [self.ruleset if self.preset is None else f"{self.ruleset}/{self.preset}"]
        words += [f"{k}={v}" for k, v in sorted(self.options.items())]
        return " ".join(words)


USER_CONJECTURES: list = []
OLDER_PRESET_KEYWORD = "rules"
"""The keyword conjecture files written before ``preset=`` used for a Tromp–Taylor preset."""


def conjecture(
    figures: Sequence[str],
    ruleset: str = "tromp-taylor",
    name: str | None = None,
    description: str | None = None,
    source: str = "",
    preset: str | None = None,
    options: dict | None = None,
    **older,
):
    """Decorator: make ``predicate(graph, figures) -> bool`` a conjecture over the named figures,
    computed under ``ruleset`` (with ``preset`` and ``options``).  ``older`` takes the one
    older keyword, the name of a Tromp–Taylor preset (see :data:`OLDER_PRESET_KEYWORD`)."""
    tromp_taylor_preset = older.pop(OLDER_PRESET_KEYWORD, None)
    if older:
        raise TypeError(f"conjecture() got an unexpected keyword argument {next(iter(older))!r}")

    def wrap(predicate):
        made = Conjecture(
            name=name or predicate.__name__.replace("_", "-"),
            predicate=predicate,
            figures=list(figures),
            ruleset="tromp-taylor" if tromp_taylor_preset is not None else ruleset,
            description=description or (predicate.__doc__ or "").strip(),
            source=source,
            preset=tromp_taylor_preset if tromp_taylor_preset is not None else preset,
            options=dict(options or {}),
        )
        USER_CONJECTURES.append(made)
        return made

    return wrap


def going_first_is_good(graph: Graph, figures: dict) -> bool:
    """Black, who moves first, does not lose under perfect play from the start: a margin of
    at least 0, or an outcome that is a Black win or a draw."""
    value = figures["value"]["value"]
    return value in ("B", "draw") if isinstance(value, str) else value >= 0


def going_first_is_good_000(graph: Graph, figures: dict) -> bool:
    """In source 000's own game: the first player's win-or-draw komi (the value) is nonnegative."""
    return figures["directed_value"]["value"] >= 0


def boards_occur_iff_well_formed(graph: Graph, figures: dict) -> bool:
    """The boards occurring in games are exactly the well-formed boards."""
    return figures["boards"]["differing_example"] is None


def pairs_games_are_long(graph: Graph, figures: dict) -> bool:
    """On N disjoint pairs the longest game has at least 2^N turns (where it was computed)."""
    turns = figures["longest_game"]["turns"]
    pairs = graph.order // 2
    return turns is None or turns >= 2**pairs


BUILT_IN = [
    Conjecture(
        "going-first-is-good",
        going_first_is_good,
        ["value"],
        "tromp-taylor",
        "Black's perfect-play value (area score difference, no komi) on the empty board is >= 0: the "
        "analogue, in Tromp-Taylor's game, of source 000's 'going first is good'.  Source 000's own "
        "statement, in its own game, is going-first-is-good-000.",
        "000_ca8046d90d75ceee.txt",
        ["paths:1-7", "cycles:3-7", "stars:1-6", "complete:1-5", "grids:2x3", "atlas-connected:6"],
        value_kinds=("margin", "outcome"),
    ),
    Conjecture(
        "going-first-is-good-stone",
        going_first_is_good,
        ["value"],
        "tromp-taylor",
        "The same under the stone preset: Tromp-Taylor play (positional superko, suicide allowed, the "
        "game ends after two passes) scored by stones on the final board, no komi; Black's stones minus "
        "White's is >= 0.  Not source 000's game, which is infinite, has no superko and scores the stones "
        "that are eventually always there: see going-first-is-good-000.",
        "000_ca8046d90d75ceee.txt",
        ["paths:1-6", "atlas-connected:5"],
        preset="stone",
        value_kinds=("margin", "outcome"),
    ),
    Conjecture(
        "going-first-is-good-000",
        going_first_is_good_000,
        ["directed_value"],
        "directed",
        "Source 000's own game (the directed ruleset) without ko bids or history deletion, solved on its "
        "finite arena: the first player has a win-or-draw strategy choosing a nonnegative komi, i.e. the "
        "value of the empty board (live Black stones minus live White stones) is >= 0.",
        "000_ca8046d90d75ceee.txt",
        ["paths:1-5", "cycles:3-5", "stars:1-4", "complete:1-5", "grids:2x2", "atlas-connected:4"],
    ),
    Conjecture(
        "well-formed-iff-occurs",
        boards_occur_iff_well_formed,
        ["boards"],
        "tromp-taylor",
        "A board occurs in some game iff it is well-formed (every stone reaches Empty); "
        "checked on the board graph by breadth-first search from the empty board.",
        "002_8835c2492dce8849.txt",
        ["atlas-connected:7", "grids:2x4"],
    ),
    Conjecture(
        "pairs-games-are-long",
        pairs_games_are_long,
        ["longest_game", "value", "shortest_perfect_game"],
        "tromp-taylor",
        "On N disjoint pairs of points the longest game under positional superko has at least "
        "2^N turns; also records the perfect-play value and the shortest perfect-play game.  This is "
        "the length of the longest game, not the Omega(2^N) of source 000, which is a length one side "
        "can force: that min-max length is computed by gorules.impl.rulesets.directed.pairs.",
        "000_ca8046d90d75ceee.txt",
        ["pairs:1-2"],
    ),
]


def built_in(name: str) -> Conjecture | None:
    """The built-in conjecture of this name, or None."""
    for c in BUILT_IN:
        if c.name == name:
            return c
    return None


def load_conjecture_file(path) -> list:
    """The conjectures a user's Python file defines with :func:`conjecture`."""
    before = len(USER_CONJECTURES)
    module = load_python_file(path, "conjecture file", f"gorules_user_{Path(path).stem}", UsageError)
    found = USER_CONJECTURES[before:]
    found += [v for v in vars(module).values() if isinstance(v, Conjecture) and v not in found]
    if not found:
        raise UsageError(f"conjecture file {path} defines no conjecture (use @conjecture(...))")
    for c in found:
        unknown = [n for n in c.figures if n not in FIGURES]
        if unknown:
            raise UsageError(
                f"conjecture {c.name!r} asks for unknown figure {unknown[0]!r}: "
                f"known figures are {', '.join(sorted(FIGURES))}"
            )
        try:
            c.make_ruleset()
        except ValueError as error:
            raise UsageError(f"conjecture {c.name!r}: {error}") from error
    return found


def find_conjecture(name: str, conjecture_file=None) -> Conjecture:
    """The conjecture called ``name``: from the file if given, else a built-in one."""
    candidates = load_conjecture_file(conjecture_file) if conjecture_file else []
    for c in candidates:
        if c.name == name:
            return c
    if candidates and name is None:
        return candidates[0]
    found = built_in(name)
    if found is None:
        names = [c.name for c in candidates] + [c.name for c in BUILT_IN]
        raise UsageError(f"unknown conjecture {name!r}: expected one of {', '.join(names)}")
    return found
