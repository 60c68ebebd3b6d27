"""Engine against spec, and the engine's playout speed and memory, measured in one run.

    python benchmarks/bench_engine.py [--games 20] [--playouts 200] [--seed 0]

Figures (printed, with the command that reproduced them):

1. ``game()`` on the same uniform random 9×9 games, spec against engine (the ratio of
   their times; both results are checked to be equal), and the same for a plain loop of
   ``move`` (the spec's move against the engine's Game.play, which also keeps the
   superko history).
2. Moves per second of random playouts with positional superko (``random_playout``:
   uniformly random legal moves, pass among them) on 9×9 and 19×19, pure Python and,
   when numba is installed, the compiled kernel.
3. Bytes per stored position in a Game's history (measured with tracemalloc).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.engine import rules as engine
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PASS


def random_games(graph, count: int, seed: int) -> list[list]:
    """``count`` uniform random complete games (cut at 4·n moves, then two passes)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        moves = list(engine.random_playout(graph, rng).moves)
        while len(moves) < 2 or moves[-2:] != [PASS, PASS]:
            moves.append(PASS)
        games.append(moves)
    return games


def seconds(work) -> float:
    """The processor time of ``work()``, garbage collection off (this process only:
    steadier than wall time on a shared machine; the work is single-threaded)."""
    gc.collect()
    gc.disable()  # as timeit does: collections are not part of the work
    try:
        start = time.process_time()
        work()
        return time.process_time() - start
    finally:
        gc.enable()


def spec_move_loop(graph, games) -> None:
    """The spec's move over every game, without the superko check."""
    for moves in games:
        s = spec_rules.initial_state(graph)
        for v in moves:
            s = spec_rules.move(graph, s, v)


def engine_play_loop(graph, games) -> None:
    """The engine's Game.play over every game (with the superko history)."""
    for moves in games:
        g = engine.Game(graph)
        for v in moves:
            g.play(v)


def best_of(repeats: int, work) -> float:
    """The least processor time of ``repeats`` runs of ``work()``."""
    return min(seconds(work) for _ in range(repeats))


def cold_spec(work):
    """``work`` run with the spec's memo of ``reaching`` emptied first (no game is replayed
    from a warm cache)."""

    def run():
        spec_rules.reaching.cache_clear()
        work()

    return run


def game_ratio(graph, games, function="game") -> tuple[float, float, int]:
    """(spec seconds, engine seconds, moves) for game() (or winner()) on every game;
    the results must agree.  The engine's time is the best of five runs."""
    spec_results, engine_results = [], []
    spec_function, engine_function = getattr(spec_rules, function), getattr(engine, function)
    t_spec = seconds(cold_spec(lambda: spec_results.extend(spec_function(graph, m) for m in games)))
    engine_function(graph, games[0])
    t_engine = best_of(5, lambda: engine_results.__setitem__(slice(None), [engine_function(graph, m) for m in games]))
    if spec_results != engine_results:
        raise SystemExit(f"spec and engine disagree on a benchmark game ({function})")
    return t_spec, t_engine, sum(map(len, games))


def playout_rate(graph, playouts: int, seed: int, playout=engine.random_playout) -> tuple[float, int]:
    """(moves per second, moves) of ``playouts`` random playouts with positional superko."""
    rng = random.Random(seed)
    total = 0

    def work():
        nonlocal total
        for _ in range(playouts):
            total += len(playout(graph, rng).moves)

    elapsed = seconds(work)
    return total / elapsed, total


def bytes_per_position(graph, games) -> float:
    """The memory a Game's history holds per move played (undo record and superko key)."""
    tracemalloc.start()
    kept = []
    before = tracemalloc.get_traced_memory()[0]
    moves = 0
    for m in games:
        g = engine.Game(graph)
        for v in m:
            g.play(v)
        moves += len(m)
        kept.append(g)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / moves


def main(argv=None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="9×9 games for engine vs spec")
    parser.add_argument("--playouts", type=int, default=200, help="playouts per board size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    command = f"python benchmarks/bench_engine.py --games {args.games} --playouts {args.playouts} --seed {args.seed}"

    nine = parse_graph("grid:9x9")
    nineteen = parse_graph("grid:19x19")
    games = random_games(nine, args.games, args.seed)

    for function in ("game", "winner"):
        t_spec, t_engine, moves = game_ratio(nine, games, function)
        print(
            f"{function}() on {len(games)} random 9x9 games ({moves} moves): spec {t_spec:.2f}s, "
            f"engine {t_engine:.4f}s, engine/spec speed {t_spec / t_engine:.0f}x"
        )
    t_spec_moves = seconds(cold_spec(lambda: spec_move_loop(nine, games)))
    t_engine_moves = best_of(5, lambda: engine_play_loop(nine, games))
    print(
        f"move loop on the same games: spec {moves / t_spec_moves:,.0f} moves/s, engine Game.play "
        f"{moves / t_engine_moves:,.0f} moves/s, engine/spec speed {t_spec_moves / t_engine_moves:.0f}x"
    )

    rates = {}
    for name, graph, count in (("9x9", nine, args.playouts), ("19x19", nineteen, max(1, args.playouts // 5))):
        rate, total = playout_rate(graph, count, args.seed)
        rates[name] = rate
        print(f"random playouts {name}, positional superko, pure Python: {rate:,.0f} moves/s ({total} moves)")
        compiled = getattr(engine, "compiled_random_playout", None)
        if compiled is not None and engine.compiled_available():
            compiled(graph, random.Random(0))  # compile outside the measurement
            fast, total = playout_rate(graph, count * 20, args.seed, compiled)
            print(
                f"random playouts {name}, positional superko, compiled kernel: {fast:,.0f} moves/s "
                f"({total} moves), compiled/pure {fast / rate:.1f}x"
            )

    for name, graph, count in (("9x9", nine, 50), ("19x19", nineteen, 10)):
        per = bytes_per_position(graph, random_games(graph, count, args.seed + 1))
        print(f"bytes per stored position in a Game, {name}: {per:.0f}")
    print(f"reproduce: {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
