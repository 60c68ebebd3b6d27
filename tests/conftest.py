"""Shared test set-up: Hypothesis profiles and the fixture that runs a test over spec and engine."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The modules that implement the Tromp–Taylor API (spec.rules.Rules).  Every behavioural
# test that takes the ``rules`` fixture runs once over each of them.
IMPLEMENTATIONS = ["gorules.spec.tromp_taylor", "gorules.impl.engine.rules"]


@pytest.fixture(params=IMPLEMENTATIONS)
def rules(request):
    """An implementation of the Tromp–Taylor API: the spec, then the engine."""
    return importlib.import_module(request.param)


def _ruleset_cases() -> list:
    """(ruleset, implementation) for every registered ruleset and implementation, then Node Kayles."""
    from gorules import rulesets

    return [(name, impl) for name in rulesets.names() for impl in rulesets.implementations(name)] + [
        ("node-kayles", "tests")
    ]


@pytest.fixture(params=_ruleset_cases(), ids=lambda case: f"{case[0]}-{case[1]}")
def any_ruleset(request):
    """Each ruleset of the common interface with its default preset, in each implementation,
    and the Node Kayles ruleset of tests/kayles.py (a ruleset added from outside)."""
    from gorules import rulesets

    name, implementation = request.param
    if name == "node-kayles":
        from tests.kayles import NodeKayles

        return NodeKayles()
    return rulesets.make(name, implementation=implementation)


GOBAN = "/usr/share/goban"  # Debian's goban-original-games: 596 professional records (installed by .ci/run)


def _recorded_games() -> list:
    """The recorded games the interface suite replays: every test vector (small graphs,
    checked move by move against the states the spec recorded), then two professional
    records that start on an empty board with Black and alternate."""
    from gorules.impl.differential.vectors import vector_files

    cases = [("vector", path) for path in vector_files(Path(__file__).with_name("vectors"))]
    return cases + [("record", Path(GOBAN) / name) for name in ("Hon-41-1.mgt", "Hon-41-2.mgt")]


@pytest.fixture(params=_recorded_games(), ids=lambda case: case[1].stem)
def recorded_game(request):
    """(graph, moves, states or None, refused move or None) of a recorded game: a test vector
    or a professional record (its moves as points and passes; no states recorded)."""
    from gorules.impl.differential.vectors import load_vector
    from gorules.impl.formats.sgf import load_sgf
    from gorules.spec.graph import graph_from_json

    kind, path = request.param
    if kind == "vector":
        data = load_vector(path)
        refused = data.get("invalid", {}).get("move")
        return graph_from_json(data["graph"]), list(data["moves"]), data["states"], refused
    record = load_sgf(path)
    assert (
        not record.problems
        and record.first_player == "B"
        and not any(record.setup[v] != "." for v in record.graph.points)
    )
    assert all(p == "BW"[i % 2] for i, p in enumerate(record.players)), f"{path.name}: colours do not alternate"
    return record.graph, [v for _, v in record.moves], None, None
