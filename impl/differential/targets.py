"""What a campaign is run against, made into a :class:`~gorules.impl.differential.campaign.Campaign`.

- :func:`engine_campaign`: a GTP engine's command line.  Its board sizes are asked with
  ``boardsize`` (a ``?`` answer is a size it refuses); games are played on the sizes it
  accepts up to ``max_side``, the small ones more often, or on the smallest it accepts when
  none is that small (Leela Zero plays 19×19 only).
- :func:`implementation_campaign`: a ruleset class ``module:Class``, on random graphs of
  every kind (``impl.differential.fuzzing.random_graph``).

Both take a preset of the Tromp–Taylor ruleset; ValueError says why one cannot be run.
"""

from __future__ import annotations

import random

from gorules.impl.differential.campaign import Campaign
from gorules.impl.differential.engines import EngineFault, GtpContender, resolve_command
from gorules.impl.differential.fuzzing import random_graph
from gorules.impl.differential.implementations import RulesetContender, load_class
from gorules.impl.differential.shrinking import Shrinker
from gorules.spec.graph import grid
from gorules.spec.tromp_taylor import PRESETS, Options


def preset_options(preset: str) -> Options:
    """The options of a preset of the Tromp–Taylor ruleset; ValueError naming the presets."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: expected one of {', '.join(PRESETS)}")
    return PRESETS[preset]


def square_sizes(accepted: list[int], max_side: int) -> list[int]:
    """The sizes games are played on: the accepted ones up to max_side, else the smallest accepted."""
    chosen = [n for n in accepted if n <= max_side]
    return chosen or accepted[:1]


def engine_campaign(command: str, preset: str, max_side: int = 7, timeout: float = 10.0) -> Campaign:
    """A campaign against the GTP engine started by ``command``, under ``preset``."""
    options = preset_options(preset)
    contender = GtpContender(resolve_command(command), options, timeout, shown=command)
    try:
        contender.start()
        accepted = contender.board_sizes()
    except (EngineFault, OSError) as error:
        contender.close()
        raise ValueError(f"the engine {command!r} does not start as a GTP engine: {error}") from None
    if not accepted:
        contender.close()
        raise ValueError(f"the engine {command!r} accepts no square board of size 1 to 25")
    sizes = square_sizes(accepted, max_side)
    weights = [1 / n for n in sizes]

    def graphs(rng: random.Random):
        n = rng.choices(sizes, weights)[0]
        return grid(n, n)

    campaign = Campaign(contender, options, preset, graphs, Shrinker(contender, options, accepted))
    campaign.sizes = sizes
    return campaign


def implementation_campaign(name: str, preset: str, max_order: int = 12, max_side: int = 7) -> Campaign:
    """A campaign against the ruleset class ``name`` (``module:Class``), under ``preset``."""
    options = preset_options(preset)
    cls = load_class(name)
    try:
        contender = RulesetContender(cls, options)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} cannot be built with the options of {preset}: {error}") from None

    takes = getattr(cls, "takes", None)
    if takes is not None and not any(takes(grid(side, side)) for side in range(1, max_side + 1)):
        raise ValueError(f"{name} takes no square board of at most {max_side} lines (--max-side)")

    def graphs(rng: random.Random):
        """A random graph, drawn again until the class takes it (a class that plays only some
        graphs says which by a ``takes(graph)`` of its own)."""
        while True:
            graph = random_graph(rng, max_order, max_side)
            if takes is None or takes(graph):
                return graph

    sizes = [side for side in range(1, max_side + 1) if takes is None or takes(grid(side, side))]
    return Campaign(contender, options, preset, graphs, Shrinker(contender, options, sizes))
