"""``gorules count GRAPH --games --estimate N``: the number of games estimated, not counted.

The flags, the result and its line of text; the method is
:mod:`gorules.impl.counting.estimate` (Knuth's random-path estimator with a population,
on the engine's move table when the ruleset has the ``engine`` capability, through the
ruleset interface otherwise).  The verdict always says "estimate", the method, the runs,
the population and the 95-percent interval, and never calls the figure exact.
"""

from __future__ import annotations

import math

from gorules.arguments import positive_int
from gorules.errors import BudgetRefused, UsageError
from gorules.impl.counting.estimate import INTERVAL, METHOD, TooCostly, estimate_games
from gorules.spec.api import Ruleset

DEFAULT_POPULATION = 1000
LARGEST_TABLE = 20_000
"""Legal positions at most for the move table the estimate plays on, built in Python one
move at a time: 3×3 (12,675) is within it, 4×4 (43 million) far beyond."""


def add_estimate_arguments(parser) -> None:
    """``--estimate N``, ``--population B`` and ``--seed S`` of ``count --games``."""
    parser.add_argument(
        "--estimate",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --games: estimate the number of games instead of counting them, from N independent runs of "
        "Knuth's random-path estimator with a population (stochastic enumeration), with a 95%% interval; "
        "for boards beyond the exact searches",
    )
    parser.add_argument(
        "--population",
        type=positive_int,
        default=DEFAULT_POPULATION,
        metavar="B",
        help=f"with --estimate: the points of games each run follows per level (default {DEFAULT_POPULATION:,}); "
        "a larger population makes the runs agree better, at a cost in time proportional to it; 1 is Knuth's "
        "single random game",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="with --estimate: the random seed (default 0)")


def estimate_result(graph, ruleset: Ruleset, positions: int | None, args) -> dict:
    """{"games_estimate": ...} for ``--games --estimate N``, or a one-line refusal."""
    if positions is not None and positions > LARGEST_TABLE:
        raise BudgetRefused(
            f"--estimate on {graph.name} is refused: it has {positions:,} legal positions and the estimate plays "
            f"on a move table of at most {LARGEST_TABLE:,}"
        )
    try:
        found = estimate_games(graph, ruleset, args.estimate, args.population, args.seed, args.seconds)
    except TooCostly as costly:
        raise BudgetRefused(
            f"--estimate {args.estimate} on {graph.name} is refused: the runs are projected at {costly.seconds:,.3g} s, "
            f"beyond the time budget of {args.seconds:g} s (raise it with --seconds, or lower --estimate or "
            "--population)"
        ) from None
    except ValueError as error:
        raise UsageError(f"--estimate on {graph.name} is refused: {error}") from None
    return {
        "games_estimate": {
            "estimate": exponential(found.log_estimate),
            "low": exponential(found.log_low),
            "high": exponential(found.log_high),
            "log10_estimate": found.log_estimate / math.log(10),
            "method": METHOD,
            "interval": INTERVAL,
            "samples": found.samples,
            "population": found.population,
            "seed": args.seed,
            "effective_samples": round(found.effective_samples, 1),
            "largest_share": round(found.largest_share, 4),
            "mean_depth": round(found.mean_depth, 1),
            "played_on": found.playout,
        }
    }


def exponential(log_value: float) -> str:
    """e^log_value in scientific notation with four significant digits ("0" for -inf,
    "inf" for the unbounded end of the interval of a single run)."""
    if log_value == -math.inf:
        return "0"
    if log_value == math.inf:
        return "inf"
    exponent = math.floor(log_value / math.log(10))
    mantissa = math.exp(log_value - exponent * math.log(10))
    if mantissa >= 9.9995:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.4f}e{exponent}"


def games_estimate_text(found: dict) -> str:
    """The estimate's lines: the figure and interval, then how it was made."""
    return (
        f"games estimate   {found['estimate']}  (95% interval {found['low']} to {found['high']}; not exact)\n"
        f"estimated by     {found['method']}: {found['samples']:,} run{'' if found['samples'] == 1 else 's'} "
        f"of population {found['population']:,}, "
        f"seed {found['seed']}, on {found['played_on']}\n"
        f"heavy tails      effective runs {found['effective_samples']:,} of {found['samples']:,}, largest run "
        f"{found['largest_share']:.1%} of the sum (the interval is unreliable when these are small and large)"
    )
