"""The engine against OpenSpiel on uniform random playouts, 9×9 and 19×19, as ratios of one run.

Both sides run the same Python loop: list the legal moves, draw one uniformly (pass is one of
them), play it, until two passes or 2·n² moves (OpenSpiel's default cap, used for both).
The engine plays Tromp–Taylor (positional superko: every board is remembered and no move may
repeat one; suicide allowed); OpenSpiel plays its own rules (simple ko, no suicide).  The
figure is moves per second; the ratio is engine / OpenSpiel (≥ 1.0 means the engine is
faster).

A second engine figure draws the same distribution by rejection (draw a point or pass
uniformly; if the point is illegal, mark it and draw again), which needs no list of all
legal moves: ``impl.engine.random_playout``.  OpenSpiel's Python API offers only the full
list (``legal_actions``), so its loop stays the same.

For context: GNU Go over GTP, moves per second of ``play`` (one command and answer per move,
replaying random games made beforehand) and of ``genmove`` at level 0.

Each figure is the best of ``--repeat`` runs (3 by default).

Reproduce:  python benchmarks/bench_openspiel.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402

from impl.engine import Game, random_playout  # noqa: E402
from impl.gtp import GtpClient, gnugo_command, gtp_vertex  # noqa: E402
from spec.graph import grid  # noqa: E402

COMMAND = "python benchmarks/bench_openspiel.py"


def openspiel_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of uniform random OpenSpiel playouts."""
    rng = random.Random(seed)
    game = pyspiel.load_game("go", {"board_size": size, "komi": 7.5})
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves, time.perf_counter() - start


def engine_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of the same loop on the engine's Game under Tromp–Taylor."""
    rng = random.Random(seed)
    graph = grid(size, size)
    cap = 2 * size * size
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Game(graph, "tromp-taylor")
        while not game.over and len(game.moves) < cap:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
    return moves, time.perf_counter() - start


def engine_rejection_playouts(size: int, games: int, seed: int) -> tuple[int, float]:
    """(moves, seconds) of the engine's rejection-sampling playouts (same distribution)."""
    rng = random.Random(seed)
    graph = grid(size, size)
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        moves += len(random_playout(graph, rng, "tromp-taylor", max_moves=2 * size * size).moves)
    return moves, time.perf_counter() - start


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


def best_rate(playouts, size: int, games: int, seed: int, repeat: int) -> float:
    """The highest moves-per-second of ``repeat`` runs of the same playouts (the least
    disturbed by other work on the machine)."""
    rates = []
    for _ in range(repeat):
        moves, seconds = playouts(size, games, seed)
        rates.append(moves / seconds)
    return max(rates)


def main(argv=None) -> int:
    """Run the benchmark and print its figures and the command that reproduces them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="playouts per side and size (default: 200 on 9x9, 20 on 19x19)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the fastest counts (default 3)")
    args = parser.parse_args(argv)
    print(f"# {COMMAND}" + (f" --games {args.games}" if args.games else ""))
    print(f"{'board':>6} {'OpenSpiel mv/s':>15} {'engine mv/s':>12} {'ratio':>6} {'engine rejection mv/s':>22} {'ratio':>6}")
    for size, default_games in ((9, 200), (19, 20)):
        games = args.games or default_games
        os_rate = best_rate(openspiel_playouts, size, games, args.seed, args.repeat)
        en_rate = best_rate(engine_playouts, size, games, args.seed, args.repeat)
        rj_rate = best_rate(engine_rejection_playouts, size, games, args.seed, args.repeat)
        print(
            f"{size}x{size:<3} {os_rate:15.0f} {en_rate:12.0f} {en_rate / os_rate:6.2f}"
            f" {rj_rate:22.0f} {rj_rate / os_rate:6.2f}"
        )
    for size in (9, 19):
        play_rate, genmove_rate = gnugo_rates(size, 2000, args.seed)
        print(f"GNU Go over GTP, {size}x{size}: play {play_rate:.0f} mv/s, genmove (level 0) {genmove_rate:.1f} mv/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
