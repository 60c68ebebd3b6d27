"""The capabilities the fast Tromp–Taylor ruleset declares beyond ``solve``: each takes the
ruleset (and what the call needs) and hands its options to the engine's own counter, GTP
endpoint, record checker or to the spec's ruleset.

They describe the rules of :class:`gorules.impl.rulesets.tromp_taylor.TrompTaylor` with its
options and nothing else; :meth:`gorules.spec.api.Ruleset.capability` withdraws them from a
subclass that changes a rule, which then takes the generic path of each command.
"""

from __future__ import annotations

from typing import Any

from gorules.spec import tromp_taylor
from gorules.spec.api import Ruleset
from gorules.spec.graph import Graph


def engine_options(ruleset: Ruleset) -> tromp_taylor.Options:
    """The options the engine's boards, counts and searches take: the ruleset's own."""
    return ruleset.options


def count_games(ruleset: Ruleset, graph: Graph):
    """The games from the empty board under the ruleset's ko and suicide options, by the
    counting searches of :mod:`gorules.impl.counting.games` (a GameCount)."""
    from gorules.impl.counting import games

    return games.count_games(graph, options=ruleset.options)


def endpoint(ruleset: Ruleset, graph: Graph, seed: int | None = None):
    """The engine's GTP endpoint on ``graph`` under the ruleset's options."""
    from gorules.impl.formats.gtp_server import GtpEndpoint

    return GtpEndpoint(graph, ruleset.options, seed)


def replay_ruleset(ruleset: Ruleset) -> tromp_taylor.TrompTaylor:
    """The spec's Tromp–Taylor ruleset with the same options: its states keep the board,
    the player and the passes that ``gorules replay`` reports and scores."""
    return tromp_taylor.TrompTaylor(ruleset.options)


def check_record(ruleset: Ruleset, record, spec: bool = False, gnugo_every: int | None = None) -> dict[str, Any]:
    """The record replayed in the engine's kernel and compared with sgfmill, the spec and GNU
    Go (:func:`gorules.impl.formats.sgf_replay.check_record`); board play does not depend on
    the options."""
    from gorules.impl.formats import sgf_replay

    return sgf_replay.check_record(record, spec=spec, gnugo_every=gnugo_every)
