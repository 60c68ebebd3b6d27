"""Topological Go on the go-space of the 19×19 grid (1,045 points: 361 vertices, 684 edge
points), through the ruleset interface, on the bitset twin.

    python benchmarks/bench_topological.py [--moves 200] [--seed 0]

Figures (processor time, garbage collection off):

1. the time of one move (``Situation.play``: the board play, its clearing, the check that
   it repeats no colouring) over a random game of ``--moves`` moves, each a uniformly
   chosen empty point that is a turn (pass when none of 20 tries is);
2. the time to list every turn in the final position (``Situation.legal_moves``: a board
   play per empty point).
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from gorules import rulesets
from gorules.spec.api import IllegalMove
from gorules.spec.graph import parse_graph


def main() -> None:
    """Play the random game, time each move and the final listing, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    graph = parse_graph("grid:19x19")
    ruleset = rulesets.make("topological")
    situation = ruleset.initial(graph)
    rng = random.Random(args.seed)
    times = []
    gc.disable()
    for _ in range(args.moves):
        empty = [v for v in graph.points if situation.board[v] == "."]
        for _ in range(20):
            move = frozenset({rng.choice(empty)})
            started = time.process_time()
            try:
                situation = situation.play(move)
            except IllegalMove:
                continue
            times.append(time.process_time() - started)
            break
        else:
            situation = situation.play("pass")
    started = time.process_time()
    turns = len(situation.legal_moves())
    listing = time.process_time() - started
    gc.enable()
    print(f"python benchmarks/bench_topological.py --moves {args.moves} --seed {args.seed}")
    print(
        f"{len(times)} moves on grid:19x19's go-space: mean {1000 * sum(times) / len(times):.2f} ms, "
        f"max {1000 * max(times):.2f} ms"
    )
    print(f"listing the {turns} turns of the final position: {listing:.2f} s")
    print(f"final scores: {situation.details()['scores']}")


if __name__ == "__main__":
    main()
