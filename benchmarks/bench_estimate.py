"""How often the estimate's 95-percent interval covers the exact number of games, over many seeds.

    python benchmarks/bench_estimate.py grid:1x3 situational allowed --runs 40 --population 40 --seeds 100
    python benchmarks/bench_estimate.py grid:1x4 situational forbidden --runs 60 --population 300 --seeds 50

The exact count comes from the counting searches (so the board must be within their reach);
each seed gives one estimate (``count --games --estimate RUNS --population B --seed S``)
and the script prints how many intervals contain the count, their median width (the ratio
of the high end to the low end) and the processor seconds.  A correct estimator with a
calibrated interval covers about 95 times in 100; the heavy tails of the runs' estimates
make the interval too narrow, and the coverage lower, when the runs are too few.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from gorules import rulesets
from gorules.impl.counting.estimate import estimate_games
from gorules.impl.counting.games import count_games
from gorules.spec.graph import parse_graph


def main() -> None:
    """Parse the arguments, count exactly, estimate on each seed, print the coverage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph")
    parser.add_argument("ko", choices=("positional", "situational"))
    parser.add_argument("suicide", choices=("allowed", "forbidden"))
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--population", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args()
    graph = parse_graph(args.graph)
    ruleset = rulesets.make("tromp-taylor", None, {"ko": args.ko, "suicide": args.suicide})
    games = count_games(graph, options=ruleset.options).games
    began = time.process_time()
    found = [estimate_games(graph, ruleset, args.runs, args.population, seed) for seed in range(args.seeds)]
    seconds = time.process_time() - began
    covered = sum(f.covers(games) for f in found)
    ratio = statistics.median(math.exp(f.log_high - f.log_low) for f in found)
    print(
        f"{args.graph} ko={args.ko} suicide={args.suicide}: {games:,} games; {args.runs} runs of population "
        f"{args.population}: the interval covers on {covered} of {args.seeds} seeds, median high/low {ratio:.3f}, "
        f"{seconds:.1f} processor seconds"
    )


if __name__ == "__main__":
    main()
