"""A Python class implementing the ruleset interface as a contender of the spec, on any graph.

``module:Class`` names a subclass of :class:`gorules.spec.api.Ruleset` (a twin of the
Tromp–Taylor ruleset: the same options, moves that are points and ``pass``).  It is built
with the preset's options and played like a GTP engine: a move is accepted when
``Situation.play`` returns, refused when it raises ``IllegalMove``; its board is
``Situation.board``; its final score is the finished game's value, Black's margin.  Any
other exception of the class is a fault of the contender (``crash``), reported like an
engine's, naming the call.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from gorules.impl.differential.engines import EngineFault
from gorules.impl.formats.interface import point_moves
from gorules.spec.api import IllegalMove, Ruleset, Situation
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import Options


def load_class(name: str) -> type[Ruleset]:
    """The class ``module:Class`` names; ValueError saying why when it names none, or not a Ruleset."""
    module_name, colon, class_name = name.partition(":")
    if not colon or not module_name or not class_name:
        raise ValueError(f"--implementation wants module:Class, got {name!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type) or not issubclass(found, Ruleset):
        raise ValueError(f"{name} is not a subclass of gorules.spec.api.Ruleset")
    return found


@dataclass
class RulesetContender:
    """A ruleset class under the preset's options, played move by move."""

    cls: type[Ruleset]
    options: Options
    situation: Situation | None = None
    known: dict | None = None
    board_reason: str | None = None

    def __post_init__(self) -> None:
        self.ruleset = self.cls(self.options)

    def describe(self) -> str:
        """The class and the options it is built with."""
        return f"{self.cls.__module__}:{self.cls.__qualname__} (built with {self.options.describe()})"

    def new_game(self, graph: Graph) -> None:
        """The ruleset's start on ``graph``; EngineFault if the class fails to give one."""
        try:
            self.situation = self.ruleset.initial(graph)
            self.known = {v: m for m, v in point_moves(self.ruleset, graph).items()}
        except Exception as error:  # a user's class failing is a finding, reported as a crash
            raise EngineFault("crash", f"initial({graph.name})", f"{type(error).__name__}: {error}") from None

    def play(self, graph: Graph, player: str, v) -> tuple[bool, str]:
        """Play v; (accepted, the refusal's reason or ""); EngineFault if the class fails
        otherwise than by IllegalMove."""
        assert self.situation is not None and self.known is not None
        if v not in self.known:
            return False, f"no move {v!r}"
        try:
            self.situation = self.situation.play(self.known[v])
        except IllegalMove as error:
            return False, str(error)
        except Exception as error:  # a user's class failing is a finding, reported as a crash
            raise EngineFault("crash", f"play({v!r})", f"{type(error).__name__}: {error}") from None
        return True, ""

    def board(self, graph: Graph) -> tuple | None:
        """The board of the situation now."""
        assert self.situation is not None
        return tuple(self.situation.board)

    def final_score(self) -> tuple[bool, str]:
        """The finished game's value as ``final_score`` writes it (B+x, W+x, 0)."""
        assert self.situation is not None
        value = self.situation.result()
        if not isinstance(value, (int, float)):
            return False, f"the ruleset's value is not a margin but {self.ruleset.value_kind!r}"
        return True, "0" if value == 0 else f"B+{value:g}" if value > 0 else f"W+{-value:g}"

    def stones_judged(self, graph: Graph, status: str) -> list:
        """Empty: a ruleset judges no stone dead or in seki."""
        return []

    def restart(self) -> None:
        """Nothing to restart."""

    def close(self) -> None:
        """Nothing to close."""
