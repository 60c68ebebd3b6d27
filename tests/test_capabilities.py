"""Capabilities, not names: a solver is chosen from what a ruleset declares, and a variant that
changes a rule without declaring the change is solved by the generic search, never by the
fast core of the ruleset it derives from.

The variants are subclasses of the fast Tromp–Taylor ruleset, each changing one rule: the
value (misère), the end of the game (the first capture wins), the score (each pass costs a
point), a helper the rules call (suicide forbidden by overriding ``after``), and, changing no
rule, the komi through presets (which keeps the fast core).  Each is solved through
``solve`` and compared with the generic full-history search on every connected graph of at
most 4 points; the generic search itself is checked against the fast core on plain
Tromp–Taylor over the same graphs.  A mutant of the dispatch that ignores overrides is
caught."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import networkx as nx
import pytest

from gorules.impl.rulesets.tromp_taylor import TrompTaylor
from gorules.impl.solving import search
from gorules.impl.solving.search import SearchError, solve
from gorules.spec import api, tromp_taylor
from gorules.spec.graph import parse_graph

CONNECTED_UP_TO_4 = [
    f"atlas:{index}"
    for index, graph in enumerate(nx.graph_atlas_g())
    if 1 <= graph.number_of_nodes() <= 4 and nx.is_connected(graph)
]
CONNECTED_UP_TO_3 = [name for name in CONNECTED_UP_TO_4 if parse_graph(name).order <= 3]
CONNECTED_4 = [name for name in CONNECTED_UP_TO_4 if parse_graph(name).order == 4]


class Misere(TrompTaylor):
    """The player with the smaller score wins: the value is negated."""

    name = "misere"

    def value(self, graph, state):
        """Black's margin, negated."""
        return -super().value(graph, state)


class PassCostsAPoint(TrompTaylor):
    """Each of Black's passes costs her a point (a handicap on the first player): the state
    carries the passes Black has paid for."""

    name = "pass-costs"

    def start(self, graph):
        """The empty board, no passes paid."""
        return (super().start(graph), 0)

    def player(self, state):
        """The player to move."""
        return super().player(state[0])

    def board_of(self, graph, state):
        """The board."""
        return super().board_of(graph, state[0])

    def moves(self, graph, state):
        """The Tromp–Taylor moves."""
        return super().moves(graph, state[0])

    def apply(self, graph, state, move):
        """The Tromp–Taylor move; Black's pass is paid for."""
        paid = state[1] + (1 if move == "pass" and super().player(state[0]) == "B" else 0)
        return (super().apply(graph, state[0], move), paid)

    def is_over(self, graph, state):
        """Two passes end the game."""
        return super().is_over(graph, state[0])

    def value(self, graph, state):
        """Black's margin less what the passes cost."""
        return super().value(graph, state[0]) - state[1]

    def key(self, state):
        """The Tromp–Taylor key and the passes paid."""
        return (super().key(state[0]), state[1])

    def history(self, state):
        """The Tromp–Taylor history."""
        return super().history(state[0])


class FirstCaptureWins(PassCostsAPoint):
    """The first player to capture wins by the board's size; otherwise the area margin.  The
    state's second part is the winner's sign once a capture happened (else 0)."""

    name = "first-capture"

    def apply(self, graph, state, move):
        """The Tromp–Taylor move; a move that removes opposing stones wins."""
        inner = state[0]
        after = TrompTaylor.apply(self, graph, inner, move)
        mover = 0 if TrompTaylor.player(self, inner) == "B" else 1
        captured = bin(after[1 - mover]).count("1") < bin(inner[1 - mover]).count("1")
        return (after, (1 if mover == 0 else -1) if captured else 0)

    def is_over(self, graph, state):
        """A capture or two passes end the game."""
        return state[1] != 0 or super().is_over(graph, state)

    def value(self, graph, state):
        """The capturer's win, else the area margin."""
        return state[1] * (graph.order + 1) if state[1] else TrompTaylor.value(self, graph, state[0])


class SuicideForbidden(TrompTaylor):
    """Suicide forbidden whatever the options say, by overriding the helper that decides a move."""

    name = "no-suicide-subclass"

    def after(self, graph, state, v):
        """The Tromp–Taylor result, or the reason, with suicide refused."""
        result = super().after(graph, state, v)
        if not isinstance(result, str) and not (result[0] | result[1]) & (1 << v):
            return "suicide is forbidden here"
        return result


class HalfPointKomi(TrompTaylor):
    """Tromp–Taylor with presets of their own: komi ½ by default.  No rule changes, so the fast
    core keeps solving it."""

    name = "half-komi"
    presets: ClassVar[dict] = {"half": tromp_taylor.Options(komi=0.5, name="half")}
    default_preset = "half"


VARIANTS = [Misere, PassCostsAPoint, FirstCaptureWins, SuicideForbidden]


def engine_method(solution) -> bool:
    """Whether a solution came from the engine's threshold search."""
    return "MTD(f)" in solution.method


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda cls: cls.name)
def test_a_variant_that_changes_a_rule_loses_the_fast_core(variant):
    ruleset = variant()
    assert ruleset.capability("solve") is None
    gap = ruleset.capability_gap("solve")
    assert isinstance(gap, str) and "TrompTaylor" in gap and "does not describe the change" in gap
    assert TrompTaylor().capability("solve") is not None


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda cls: cls.name)
@pytest.mark.parametrize("name", CONNECTED_UP_TO_4)
def test_a_variant_is_solved_as_the_generic_reference(variant, name):
    situation = variant().initial(parse_graph(name))
    solution = solve(situation)
    assert solution.method.startswith("alpha-beta minimax through the ruleset interface")
    assert solution.value == solve(situation, generic=True).value


@pytest.mark.parametrize("name", CONNECTED_UP_TO_4)
def test_the_generic_search_gives_the_fast_cores_values(name):
    """The generic reference is itself right: on plain Tromp–Taylor it finds the fast core's
    value, a search written apart, on every graph the variants are checked on."""
    situation = TrompTaylor().initial(parse_graph(name))
    generic = solve(situation, generic=True)
    assert not engine_method(generic)
    assert generic.value == solve(situation).value


@pytest.mark.parametrize("name", CONNECTED_UP_TO_4)
def test_a_komi_variant_keeps_the_fast_core_and_its_value(name):
    situation = HalfPointKomi().initial(parse_graph(name))
    fast = solve(situation)
    assert engine_method(fast)
    assert fast.value == solve(TrompTaylor().initial(parse_graph(name))).value - 0.5
    assert fast.value == solve(situation, generic=True).value


def test_the_variants_differ_from_tromp_taylor_somewhere():
    """Each variant that changes values differs from plain Tromp–Taylor's on some graph, so that
    solving it by the fast core would be caught.  Forbidding suicide changes no value on these
    graphs (as the engine's own no-suicide preset shows), but it changes the legal moves."""
    plain = {name: solve(TrompTaylor().initial(parse_graph(name))).value for name in CONNECTED_UP_TO_3}
    for variant in (Misere, PassCostsAPoint, FirstCaptureWins):
        values = {name: solve(variant().initial(parse_graph(name))).value for name in CONNECTED_UP_TO_3}
        assert values != plain, variant.name
    graph = parse_graph("path:3")
    without_ko = tromp_taylor.PRESETS["tromp-taylor"].replace(ko="none")  # superko alone forbids a lone stone's suicide
    plain_rules, variant_rules = TrompTaylor(without_ko), SuicideForbidden(without_ko)
    situation = plain_rules.initial(graph).play("pass").play(1)
    assert 0 in plain_rules.moves(graph, situation.state)
    assert 0 not in variant_rules.moves(graph, situation.state)


def test_a_dispatch_that_ignores_overrides_is_caught(monkeypatch):
    """The mutant: the capability found on the class that declares it, whatever the subclass
    changed.  Misère path:3 is then solved by the fast core as plain Tromp–Taylor (+3), where
    its value is 0."""
    graph = parse_graph("path:3")
    assert solve(Misere().initial(graph)).value == 0

    def ignoring_overrides(self, name):
        return next(cls for cls in type(self).__mro__ if name in vars(cls).get("capabilities", {}))

    monkeypatch.setattr(api.Ruleset, "capability_gap", ignoring_overrides)
    assert solve(Misere().initial(graph)).value == 3


def test_a_rule_replaced_on_the_instance_loses_the_capability():
    ruleset = TrompTaylor()
    ruleset.value = lambda graph, state: 0
    assert ruleset.capability("solve") is None
    assert "changes value" in ruleset.capability_gap("solve")


def test_a_presentation_change_keeps_the_capability():
    """Renaming a ruleset or writing its moves otherwise changes no rule."""

    class Renamed(TrompTaylor):
        name = "renamed"

        def move_text(self, graph, move):
            return f"<{move}>"

    assert Renamed().capability("solve") is TrompTaylor().capability("solve")


def test_a_subclass_that_declares_the_capability_again_keeps_it():
    """The subclass says its change is described: the capability is its own declaration."""

    class Declared(Misere):
        capabilities: ClassVar[dict] = {"solve": "gorules.impl.solving.search:solve_generic"}

    assert Declared().capability("solve") is search.solve_generic


def test_a_ruleset_without_the_capability_and_infinite_is_refused_naming_it():
    ruleset = TrompTaylor(tromp_taylor.PRESETS["tromp-taylor"].replace(ko="none"))
    with pytest.raises(SearchError, match="not a finite game"):
        solve(ruleset.initial(parse_graph("path:2")), generic=True)


def test_the_documented_misere_file_is_solved_by_the_generic_search():
    """The README's variant: ``gorules solve path:3 --ruleset-file docs/examples/misere.py``
    prints +0 by the interface's alpha-beta, where the fast core would print +3."""
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "gorules",
            "solve",
            "path:3",
            "--ruleset-file",
            "docs/examples/misere.py",
            "--ruleset",
            "misere",
            "--no-progress",
            "--json",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(run.stdout)
    assert (data["ruleset"], data["value"]) == ("misere", 0)
    assert "through the ruleset interface" in data["method"]
