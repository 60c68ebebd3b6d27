"""The common interface of every ruleset of every source: :class:`Ruleset` and
:class:`Situation`.  Solving, playing, sweeping, replaying and GTP talk to a ruleset only
through it.  It depends on no ruleset: the function API of the Tromp–Taylor formalization is
:class:`gorules.spec.rules.Rules`, and a situation is written as text by
:func:`gorules.spec.text.situation_text`.

The vocabulary is used alike in code, CLI flags, JSON keys and docs: a **ruleset** is a game
(Tromp–Taylor, directed, topological, ultimate, fundamental, political); its **options** are
its parameters (ko, suicide, scoring, komi, and the *readings* of ambiguous clauses of its
source); a **preset** is a named set of options; a **situation** is everything play depends
on (board, player to move, prisoners, history as far as the rules consult it).

A situation is immutable and hashable: ``play`` returns a new situation.  What the rules
consult of the past is stated by the ruleset's ``history_rule``:

- ``"none"``: ``key()`` alone decides every legal move and result from here on;
- ``"positional"``: ``key()`` and the set ``history`` of earlier boards decide them: a move
  that recreates a board of ``history`` is illegal (passes and other moves that leave the
  board alone are not checked);
- ``"situational"``: the same with (board, player to move) pairs in ``history``.

A transposition table that stores a value under ``key()`` may reuse it for another history
only when it knows the value did not depend on the difference; storing under ``(key(),
history)`` is always sound.
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from typing import Any, ClassVar, Generic, Literal, TypeVar

from gorules.spec.graph import Graph, parse_point, point_name

# --------------------------------------------------------------------------- the ruleset interface

HistoryRule = Literal["none", "positional", "situational"]
HISTORY_RULES: tuple[HistoryRule, ...] = ("none", "positional", "situational")

ValueKind = Literal["margin", "outcome", "scores"]
"""What a finished game is worth: ``margin``, Black's final score minus White's (komi taken
off), a number; ``outcome``, "B", "W" or "draw"; ``scores``, each player's final score."""

PlayerName = str
"""A player: "B" or "W" in two-player rulesets, a name in Political Go."""


class IllegalMove(ValueError):
    """A move the rules do not allow in a situation; the message says why."""


class OptionError(ValueError):
    """An option, preset or reading that a ruleset does not have, or a value it cannot take."""


@dataclasses.dataclass(frozen=True)
class Options:
    """The options of a ruleset: a frozen dataclass whose fields are the options.

    A field may list its allowed values in ``metadata["choices"]`` and explain itself in
    ``metadata["help"]``; a field that chooses between readings of an ambiguous clause of
    the source names that clause in ``metadata["reading_of"]``.
    """

    def replace(self, **changes: Any) -> Options:
        """The same options with some changed; OptionError for an unknown name or value."""
        known = {f.name for f in dataclasses.fields(self)}
        for name in changes:
            if name not in known:
                raise OptionError(f"unknown option {name!r}: expected one of {', '.join(sorted(known))}")
        return dataclasses.replace(self, **changes)

    def __post_init__(self) -> None:
        """Reject a value outside a field's declared choices."""
        for f in dataclasses.fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                allowed = ", ".join(str(c) for c in choices)
                raise OptionError(f"option {f.name} cannot be {value!r}: expected one of {allowed}")

    def as_dict(self) -> dict[str, Any]:
        """The options by name (JSON-able when the values are); a label that takes no part in
        comparisons (a preset's name) is not an option."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.compare}

    def describe(self) -> str:
        """A one-line statement such as ``ko=positional suicide=allowed komi=0``."""
        return " ".join(f"{name}={value}" for name, value in self.as_dict().items())


def option_fields(options_type: type[Options]) -> list[dataclasses.Field]:
    """The declared options of an Options class, in order."""
    return list(dataclasses.fields(options_type))


def reading_fields(options_type: type[Options]) -> list[dataclasses.Field]:
    """The options that choose a reading of an ambiguous clause of the source."""
    return [f for f in dataclasses.fields(options_type) if "reading_of" in f.metadata]


OptionsT = TypeVar("OptionsT", bound="Options")


class Ruleset(ABC, Generic[OptionsT]):
    """A game with its options fixed: its situations, moves and results.

    A ruleset keeps each situation as a *state* of its own choosing (a spec ruleset's State
    tuple, a tuple of bitsets...): hashable and immutable.  It implements the
    abstract methods below on those states; :class:`Situation` pairs a state with its graph
    and ruleset and gives every ruleset the same method names.  To add a ruleset: one
    module with a subclass, one line in ``gorules.rulesets``; ``docs/adding-a-ruleset.md``.
    """

    name: ClassVar[str]
    """The ruleset's name in the CLI and in JSON (``tromp-taylor``, ``ultimate``...)."""
    source: ClassVar[str]
    """The source document it formalises (a file name of the sources), or a short note."""
    value_kind: ClassVar[ValueKind]
    """What a finished game is worth (see :data:`ValueKind`)."""
    players: ClassVar[tuple[PlayerName, ...] | None] = ("B", "W")
    """The players in turn order; None when the options name them (Political Go)."""
    options_type: ClassVar[type[Options]]
    """The dataclass of this ruleset's options."""
    presets: ClassVar[dict[str, Any]]
    """Named sets of options; ``default_preset`` names the one used when none is given."""
    default_preset: ClassVar[str]
    capabilities: ClassVar[Mapping[str, str]] = {}
    """What this class can do beyond the interface: capability name -> ``"module:function"``
    implementing it (see :data:`CAPABILITIES`).  A capability describes the rules of the class
    that declares it; :meth:`capability` withdraws it from a subclass that changes any of them."""

    def __init__(self, options: OptionsT | None = None):
        """The ruleset with these options (its default preset when None)."""
        self.options: OptionsT = options if options is not None else self.presets[self.default_preset]

    # ---- what every ruleset implements

    @abstractmethod
    def start(self, graph: Graph) -> Any:
        """The state a game on ``graph`` starts from."""

    @abstractmethod
    def player(self, state: Any) -> PlayerName | None:
        """The player to move in ``state`` (None once the game is over)."""

    @abstractmethod
    def board_of(self, graph: Graph, state: Any) -> tuple:
        """The colour (or owner) of each point in ``state``; "." is empty."""

    @abstractmethod
    def moves(self, graph: Graph, state: Any) -> list[Any]:
        """The legal moves in ``state``, in a fixed order (empty once the game is over)."""

    @abstractmethod
    def apply(self, graph: Graph, state: Any, move: Any) -> Any:
        """The state after the player to move makes ``move``; IllegalMove says why not."""

    @abstractmethod
    def is_over(self, graph: Graph, state: Any) -> bool:
        """Whether the game has ended in ``state``."""

    @abstractmethod
    def value(self, graph: Graph, state: Any) -> Any:
        """What the finished game in ``state`` is worth, of kind ``value_kind``."""

    # ---- what a ruleset may refine

    @property
    def history_rule(self) -> HistoryRule:
        """Which history the legality of a move depends on (see the module docstring)."""
        return "none"

    @property
    def finite(self) -> bool:
        """Whether every play ends after finitely many moves (so that minimax applies)."""
        return True

    def key(self, state: Any) -> Hashable:
        """The state less its history: what a transposition table is keyed by."""
        return state

    def history(self, state: Any) -> frozenset:
        """What the rules still consult of the past in ``state`` (empty if nothing)."""
        return frozenset()

    def parse_move(self, graph: Graph, text: str) -> Any:
        """The move a word names: a point (by number, or on grids ``C3``/``cc``) or "pass"."""
        word = text.strip()
        if word.lower() == "pass":
            return "pass"
        return parse_point(graph, word)

    def move_text(self, graph: Graph, move: Any) -> str:
        """How a move is written: a point's name, or the move's word."""
        return point_name(graph, move) if isinstance(move, int) else str(move)

    def details(self, graph: Graph, state: Any) -> dict[str, Any]:
        """What lies beside the board in ``state`` (prisoners, scores...), JSON-able."""
        return {}

    def state_from_json(self, graph: Graph, data: dict) -> Any:
        """The state that ``Situation.to_json`` wrote; OptionError if this ruleset cannot read one."""
        raise OptionError(f"the {self.name} ruleset cannot read a situation yet")

    # ---- capabilities

    def capability(self, name: str) -> Callable[..., Any] | None:
        """The function implementing capability ``name`` for this ruleset, or None when the
        ruleset does not have it (see :meth:`capability_gap` for why)."""
        declaring = self.capability_gap(name)
        if isinstance(declaring, str):
            return None
        module_name, _, function_name = declaring.capabilities[name].partition(":")
        return getattr(importlib.import_module(module_name), function_name)

    def capability_gap(self, name: str) -> type[Ruleset] | str:
        """The class whose declaration of capability ``name`` holds for this ruleset, or a
        sentence saying why none does: no class declares it, or a subclass changed a rule
        (a method or attribute of the declaring class other than :data:`PRESENTATION`, on a
        class between or on the instance itself) or the options' type without declaring the
        capability again."""
        cls = type(self)
        index = next((i for i, c in enumerate(cls.__mro__) if name in vars(c).get("capabilities", {})), None)
        if index is None:
            return f"the {self.name} ruleset has no {name} capability"
        declaring: type[Ruleset] = cls.__mro__[index]
        changed = sorted(
            attribute
            for namespace in (vars(self), *map(vars, cls.__mro__[:index]))
            for attribute in namespace
            if attribute not in PRESENTATION and attribute != "options" and hasattr(declaring, attribute)
        )
        if type(self.options) is not declaring.options_type:
            changed.append("its options' type")
        if changed:
            return (
                f"the {self.name} ruleset ({cls.__qualname__}) changes {', '.join(changed)} of "
                f"{declaring.__qualname__}, whose {name} capability does not describe the change"
            )
        return declaring

    def capability_names(self) -> list[str]:
        """The capabilities this ruleset has, in the order of :data:`CAPABILITIES`."""
        return [name for name in CAPABILITIES if self.capability(name) is not None]

    @property
    def preset(self) -> str | None:
        """The name of the preset whose options are this ruleset's, or None when they differ from every preset."""
        return next((name for name, options in self.presets.items() if options == self.options), None)

    # ---- built from the above

    def initial(self, graph: Graph) -> Situation:
        """The situation a game on ``graph`` starts from."""
        return Situation(self, graph, self.start(graph))

    def situation(self, graph: Graph, state: Any) -> Situation:
        """The situation of ``state`` on ``graph``."""
        return Situation(self, graph, state)

    def describe(self) -> str:
        """The ruleset and its options on one line."""
        options = self.options.describe()
        return f"{self.name} ({options})" if options else self.name

    def __repr__(self) -> str:
        return f"<ruleset {self.describe()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and type(self) is type(other) and self.options == other.options

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.options))


CAPABILITIES: dict[str, str] = {
    "solve": "perfect play from a situation: ``solve(situation, request)`` -> a Solution, or "
    "SearchError; it may decline a situation it cannot start from (``Declined``), which then gets the generic search",
    "count-games": "the number of complete games from the start, counted without visiting each: "
    "``count_games(ruleset, graph)`` -> a GameCount (InfiniteGames when a line of play repeats forever)",
    "engine": "the Tromp–Taylor engine's boards, counts and searches play this ruleset: "
    "``engine_options(ruleset)`` -> the options they take",
    "gtp": "play over the Go Text Protocol: ``endpoint(ruleset, graph, seed)`` -> a GTP endpoint",
    "replay": "a list of moves stepped with the source's reasons and scores: "
    "``replay_ruleset(ruleset)`` -> the spec's ruleset that ``gorules replay`` steps",
    "sgf": "game records in SGF compared with other opinions: "
    "``check_record(ruleset, record, spec, gnugo_every)`` -> the report of ``gorules replay-sgf``",
    "analyse": "sections IV–VI of source 003 at a situation: ``analyse(situation, engine)`` -> an Analysis, "
    "``engine`` the yes/no searches on the situation's graph",
}
"""The capabilities a ruleset may declare, each with the call that implements it.  Every
algorithm asks the ruleset for one by name (:meth:`Ruleset.capability`) and takes its generic
path, or refuses naming the capability, when the ruleset does not have it."""

PRESENTATION = frozenset(
    {
        "__doc__",
        "__module__",
        "__qualname__",
        "__dict__",
        "__weakref__",
        "__annotations__",
        "__parameters__",
        "__orig_bases__",
        "__abstractmethods__",
        "_abc_impl",
        "__init__",
        "__repr__",
        "name",
        "source",
        "presets",
        "default_preset",
        "capabilities",
        "describe",
        "details",
        "parse_move",
        "move_text",
        "state_from_json",
        "state_from_text",
    }
)
"""What a subclass may change of a ruleset and keep its capabilities: names, presets (whose
options every capability is given), documentation and how moves and situations are written
and read.  Anything else it changes (a rule method, a helper the rules call, the options'
type, the players, the value kind) withdraws every capability it does not declare again."""


@dataclasses.dataclass(frozen=True)
class Situation:
    """Everything play depends on at one moment of a game: a ruleset's state on a graph.

    Immutable and hashable; the same names in every ruleset.
    """

    ruleset: Ruleset
    graph: Graph
    state: Any

    @property
    def board(self) -> tuple:
        """The colour (or owner) of each point, indexed by point; "." is empty."""
        return self.ruleset.board_of(self.graph, self.state)

    @property
    def to_move(self) -> PlayerName | None:
        """The player whose turn it is (None once the game is over)."""
        return None if self.over else self.ruleset.player(self.state)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.ruleset.is_over(self.graph, self.state)

    def legal_moves(self) -> list[Any]:
        """The moves the player to move may make (empty once the game is over)."""
        return [] if self.over else self.ruleset.moves(self.graph, self.state)

    def play(self, move: Any) -> Situation:
        """The situation after the player to move makes ``move``; IllegalMove says why not."""
        if self.over:
            raise IllegalMove(f"{self.ruleset.move_text(self.graph, move)} is illegal: the game is over")
        return Situation(self.ruleset, self.graph, self.ruleset.apply(self.graph, self.state, move))

    def result(self) -> Any:
        """The value of the finished game (of the ruleset's ``value_kind``); None before the end."""
        return self.ruleset.value(self.graph, self.state) if self.over else None

    def key(self) -> Hashable:
        """Everything of the situation but its history: a transposition-table key."""
        return self.ruleset.key(self.state)

    @property
    def history(self) -> frozenset:
        """What the rules still consult of the past (see the module docstring)."""
        return self.ruleset.history(self.state)

    def details(self) -> dict[str, Any]:
        """What lies beside the board: prisoners, scores, rights, as the ruleset has them."""
        return self.ruleset.details(self.graph, self.state)

    def to_json(self) -> dict[str, Any]:
        """The situation as JSON-able data."""
        data: dict[str, Any] = {
            "ruleset": self.ruleset.name,
            "options": self.ruleset.options.as_dict(),
            "graph": self.graph.name,
            "board": list(self.board),
            "to_move": self.to_move,
            "over": self.over,
        }
        data.update(self.details())
        if self.over:
            data["result"] = self.result()
        return data
