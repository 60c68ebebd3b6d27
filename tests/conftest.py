"""Shared test set-up: Hypothesis profiles and the fixture that runs a test over spec and engine."""

from __future__ import annotations

import importlib
import os

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

# The modules that implement the Tromp–Taylor API (spec.api.Rules).  Every behavioural
# test that takes the ``rules`` fixture runs once over each of them.
IMPLEMENTATIONS = ["gorules.spec.tromp_taylor", "gorules.impl.engine"]


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
