"""The engine against OpenSpiel on uniform random playouts, 9×9 and 19×19, as ratios of one run.

The loops compared (same number of games, same seed, same move-choice rule:
``random.Random.choice`` over the full list of legal actions, pass among them):

OpenSpiel, per move::

    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))

``CompiledGame actions``, per move (OpenSpiel's method names and action numbers: a point, or
n for pass; the cap on the number of moves, part of OpenSpiel's ``is_terminal``, is a
separate test on this side)::

    while not game.is_terminal() and len(game.moves) < cap:
        game.apply_action(rng.choice(game.legal_actions()))

``CompiledGame moves`` and ``pure Game`` run the same loop with the engine's own names
(``game.over``, ``legal_moves()`` a new Python list with "pass" last, ``play(v)``).  Both
sides stop after two passes or 2·n² moves (OpenSpiel's default cap).

The work per move.  OpenSpiel (C++ behind pybind11): ``is_terminal``; ``legal_actions``
tests every point for legality and builds a new Python list of ints; ``apply_action`` plays
the move (chains kept incrementally) under simple ko, suicide forbidden, and hashes the board
(a repeated board ends OpenSpiel's game instead of being forbidden).  ``CompiledGame``
(numba): ``apply_action`` is one compiled call that checks the move, plays it (chains kept
incrementally, and the class of each point for each player: occupied, a stone placed that
removes nothing, a capture, a suicide — refreshed only at the few points the move can
change), stores the board in the history and, once the loop has asked for legal actions,
lists the legal actions of the next position into a log under the ruleset's ko rule: the
placements straight from the classes, except, under Tromp–Taylor positional superko, those
that would bring back an earlier board (found by comparing the stored boards with one more
stone of the player, if any), and the captures and suicides one by one (a hash probe, and
an exact comparison of boards on a hash hit); ``legal_actions`` returns a read-only view of
that log's row (nothing copied, and it never changes afterwards).  The engine plays Tromp–Taylor
(positional superko, suicide allowed) unless the row says ``openspiel``: the preset with
OpenSpiel's rules (simple ko, suicide forbidden).  The figure is moves per second; the ratio
is engine / OpenSpiel (≥ 1.0 means the engine is faster).

Two further engine figures are not the same loop: ``impl.engine.rules.random_playout`` draws the
same distribution by rejection (draw a point or pass uniformly; if the point is illegal,
mark it and draw again), which needs no list of all legal moves, and
``impl.engine.rules.compiled_random_playout`` plays the whole game inside numba.  OpenSpiel's
Python API offers only the full list (``legal_actions``), so its loop stays the same.

For context: GNU Go over GTP, moves per second of ``play`` (one command and answer per move,
replaying random games made beforehand) and of ``genmove`` at level 0.

Times are processor time of this process (``time.process_time``, garbage collection off),
because the machine may be busy with other work; each figure is the best of ``--repeat``
runs (3 by default), and the measurements of one size are interleaved, so that a ratio
compares runs made close together.  Numba compiles (or loads its cache) before measuring.

Reproduce:  python benchmarks/bench_openspiel.py [--games N] [--repeat R] [--no-gnugo]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel

from gorules.impl.engine.rules import CompiledGame, Game, compiled_random_playout, random_playout
from gorules.impl.formats.gtp import GtpClient, gnugo_command, gtp_vertex
from gorules.spec.graph import grid

COMMAND = "python benchmarks/bench_openspiel.py"


def timed(work) -> tuple[int, float]:
    """(moves, processor seconds) of ``work()``, which returns the moves it played."""
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        moves = work()
        return moves, time.process_time() - start
    finally:
        gc.enable()


def openspiel_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of uniform random OpenSpiel playouts."""
    rng = random.Random(seed)
    game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})

    def work() -> int:
        moves = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return timed(work)


def same_loop(game_class, preset: str):
    """The playouts of the same loop on an engine game class under the preset named ``preset``."""

    def playouts(size: int, games: int, seed: int) -> tuple[int, float]:
        """(moves, seconds) of ``games`` playouts on size×size."""
        rng = random.Random(seed)
        graph = grid(size, size)
        cap = 2 * size * size

        def work() -> int:
            moves = 0
            for _ in range(games):
                game = game_class(graph, preset)
                while not game.over and len(game.moves) < cap:
                    game.play(rng.choice(game.legal_moves()))
                    moves += 1
            return moves

        return timed(work)

    return playouts


def action_loop(preset: str):
    """The playouts of OpenSpiel's loop (``is_terminal``, ``legal_actions``, ``apply_action``,
    an action a point or n for pass) on :class:`CompiledGame` under the preset named ``preset``."""
    # same_loop's loop with OpenSpiel's names, repeated on purpose: the loop timed must be the
    # loop compared, with no call through a parameter per move.

    def playouts(size: int, games: int, seed: int) -> tuple[int, float]:
        """(moves, seconds) of ``games`` playouts on size×size."""
        rng = random.Random(seed)
        graph = grid(size, size)
        cap = 2 * size * size

        def work() -> int:
            moves = 0
            for _ in range(games):
                game = CompiledGame(graph, preset)
                while not game.is_terminal() and len(game.moves) < cap:
                    game.apply_action(rng.choice(game.legal_actions()))
                    moves += 1
            return moves

        return timed(work)

    return playouts


engine_playouts = same_loop(Game, "tromp-taylor")
compiled_playouts = same_loop(CompiledGame, "tromp-taylor")
compiled_openspiel_rules_playouts = same_loop(CompiledGame, "openspiel")
compiled_action_playouts = action_loop("tromp-taylor")
compiled_action_openspiel_rules_playouts = action_loop("openspiel")


def engine_rejection_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of the engine's rejection-sampling playouts (same distribution)."""
    rng = random.Random(seed)
    graph = grid(size, size)

    def work() -> int:
        return sum(
            len(random_playout(graph, rng, "tromp-taylor", max_moves=2 * size * size).moves) for _ in range(games)
        )

    return timed(work)


def kernel_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of whole playouts inside the numba kernel (not the same loop)."""
    rng = random.Random(seed)
    graph = grid(size, size)

    def work() -> int:
        return sum(
            len(compiled_random_playout(graph, rng, "tromp-taylor", max_moves=2 * size * size).moves)
            for _ in range(games * 10)
        )

    return timed(work)


def warm_up() -> None:
    """Compile (or load from numba's cache) the compiled game and kernel before measuring."""
    for size in (9, 19):
        for playouts in (
            compiled_playouts,
            compiled_openspiel_rules_playouts,
            compiled_action_playouts,
            compiled_action_openspiel_rules_playouts,
            kernel_playouts,
        ):
            playouts(size, 1, 0)


def gnugo_rates(size: int, moves_wanted: int, seed: int) -> tuple[float, float]:
    """GNU Go's moves per second over GTP: ``play`` (one command and answer per move) of
    random games made beforehand by the engine, and ``genmove`` at level 0."""
    rng = random.Random(seed)
    graph = grid(size, size)
    games = []
    while sum(len(g) for g in games) < moves_wanted:
        games.append(random_playout(graph, rng, "tromp-taylor", max_moves=2 * size * size).moves)
    played = 0
    with GtpClient(gnugo_command("tromp-taylor")) as gnugo:
        start = time.perf_counter()
        for moves in games:
            gnugo.new_game(graph)
            for i, v in enumerate(moves):
                gnugo.send(f"play {'BW'[i % 2]} {gtp_vertex(graph, v)}")
                played += 1
        play_rate = played / (time.perf_counter() - start)
    with GtpClient(gnugo_command("tromp-taylor", level=0)) as gnugo:
        gnugo.new_game(graph)
        generated = 0
        start = time.perf_counter()
        player = "B"
        passes = 0
        while generated < 40 and passes < 2:
            answer = gnugo.send(f"genmove {player}")
            passes = passes + 1 if answer.lower() == "pass" else 0
            generated += 1
            player = "W" if player == "B" else "B"
        genmove_rate = generated / (time.perf_counter() - start)
    return play_rate, genmove_rate


def best_rates(loops: dict, size: int, games: int, seed: int, repeat: int) -> dict:
    """The highest moves-per-second of each loop over ``repeat`` rounds; in each round every
    loop runs once, so the loops of a ratio are measured close together."""
    rates = {name: [] for name in loops}
    for _ in range(repeat):
        for name, playouts in loops.items():
            moves, seconds = playouts(size, games, seed)
            rates[name].append(moves / seconds)
    return {name: max(found) for name, found in rates.items()}


LOOPS = {
    "OpenSpiel": openspiel_playouts,
    "pure Game": engine_playouts,
    "CompiledGame actions": compiled_action_playouts,
    "CompiledGame actions, openspiel": compiled_action_openspiel_rules_playouts,
    "CompiledGame moves": compiled_playouts,
    "CompiledGame moves, openspiel": compiled_openspiel_rules_playouts,
    "pure rejection loop": engine_rejection_playouts,
    "whole-playout kernel": kernel_playouts,
}


def main(argv=None) -> int:
    """Run the benchmark and print its figures and the command that reproduces them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=0, help="playouts per side and size (default: 200 on 9x9, 20 on 19x19)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each measurement; the fastest counts (default 3)"
    )
    parser.add_argument("--no-gnugo", action="store_true", help="skip the GNU Go figures")
    args = parser.parse_args(argv)
    print(f"# {COMMAND}" + (f" --games {args.games}" if args.games else "") + f" --repeat {args.repeat}")
    print("# processor time, best of the repeats; ratio = moves per second / OpenSpiel's")
    warm_up()
    for size, default_games in ((9, 200), (19, 20)):
        games = args.games or default_games
        rates = best_rates(LOOPS, size, games, args.seed, args.repeat)
        reference = rates["OpenSpiel"]
        print(f"{size}x{size}, {games} playouts per loop ({10 * games} for the whole-playout kernel):")
        for name, rate in rates.items():
            same = "same loop" if name != "pure rejection loop" and name != "whole-playout kernel" else "other loop"
            print(f"  {name:<31} {same:<10} {rate:12,.0f} mv/s  {rate / reference:6.2f}x")
    if args.no_gnugo:
        return 0
    for size in (9, 19):
        play_rate, genmove_rate = gnugo_rates(size, 2000, args.seed)
        print(f"GNU Go over GTP, {size}x{size}: play {play_rate:.0f} mv/s, genmove (level 0) {genmove_rate:.1f} mv/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
