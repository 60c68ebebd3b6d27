"""Seconds to count legal positions on n×n boards, games on small boards, and derived ratios.

    python benchmarks/bench_counting.py            # n = 1..8; games up to 1×4 under each preset
    python benchmarks/bench_counting.py --nine     # also 9×9 (the longest of the counts of positions)
    python benchmarks/bench_counting.py --python-1x4  # also 1×4 games by the plain search
    python benchmarks/bench_counting.py --games-2x2  # also the 2×2 game count (gigabytes of keys)
    python benchmarks/bench_counting.py --packed 12  # only L(n×n), n = 9..12, by the packed count
    python benchmarks/bench_counting.py --table 9    # only L(m×n), m ≤ 9, m ≤ n ≤ 13, as markdown
    python benchmarks/bench_counting.py --table 9 --table-from 9  # only its rows m = 9
    python benchmarks/bench_counting.py --symmetry-ratio 10  # only n = 9..10 with and without the colour exchange

What each option costs: benchmarks/README.md, ``bench_counting.py``.

Times are processor time of this process (``time.process_time``), so that other work on
a shared machine does not distort them.  Each n×n time is printed with its ratio to the
previous board (the growth that matters when planning a larger run), and the compiled
game search with its ratio to the plain Python search on the same board.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import time

from gorules.impl.counting.games import count_games
from gorules.impl.counting.longest import longest
from gorules.impl.counting.packed import count_legal_grid, packed_cost
from gorules.impl.counting.positions import FrontierCounter, count_legal, good_ordering, steps_of
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS


def timed(function, *args):
    """(result, processor seconds) of one call, garbage collection off."""
    gc.collect()
    gc.disable()
    start = time.process_time()
    try:
        result = function(*args)
    finally:
        gc.enable()
    return result, time.process_time() - start


def legal_square(n: int) -> tuple[int, int]:
    """L(n×n) and the largest number of border states held at once."""
    graph = parse_graph(f"grid:{n}x{n}")
    counter = FrontierCounter()
    return counter.run(steps_of(graph, good_ordering(graph))), counter.largest


def packed_square(n: int) -> dict:
    """``gorules count grid:nxn`` by the packed count in a process of its own (so that its peak
    memory is its own), as the command reports it, with the wall-clock seconds."""
    command = [sys.executable, "-m", "gorules.cli", "count", f"grid:{n}x{n}", "--method", "packed"]
    command += ["--seconds", "100000", "--json"]
    start, used = time.perf_counter(), children_seconds()
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    spent = {"wall": time.perf_counter() - start, "processor": children_seconds() - used}
    if run.returncode != 0:
        return {"error": run.stderr.strip(), **spent}
    return {**json.loads(run.stdout), **spent}


def children_seconds() -> float:
    """Processor seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def packed_table(largest: int) -> None:
    """L(n×n) for n = 9..largest by the packed count: time, states and peak memory beside the estimates."""
    print("legal positions on n×n boards (packed compiled count, one process per board)")
    print(
        f"{'n':>2}  {'cpu s':>8}  {'wall s':>8}  {'estimate s':>10}  {'states':>10}  {'estimate':>10}  {'peak GB':>7}  {'est. GB':>7}  L(n×n)"
    )
    for n in range(9, largest + 1):
        found = packed_square(n)
        if "error" in found:
            print(f"{n:>2}  {found['wall']:8.1f}  {found['error']}", flush=True)
            continue
        estimate = found["estimate"]
        print(
            f"{n:>2}  {found['processor']:8.1f}  {found['wall']:8.1f}  {estimate['seconds']:10.1f}  {found['states']:>10,}  "
            f"{estimate['states']:>10,}  {found['peak_bytes'] / 1e9:7.2f}  {estimate['bytes'] / 1e9:7.2f}  "
            f"{found['legal_positions']}",
            flush=True,
        )


def one_packed_count(n: int, colour_symmetry: bool) -> None:
    """Print, as one JSON line, the packed count of grid:nxn in this process: the count, the
    most keys held after a step, the processor seconds of the count and the peak memory."""
    graph = parse_graph(f"grid:{n}x{n}")
    (count, largest), seconds = timed(lambda: count_legal_grid(graph, colour_symmetry=colour_symmetry))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    estimate = packed_cost(graph, colour_symmetry=colour_symmetry)
    found = {"count": count, "states": largest, "seconds": seconds, "peak_bytes": peak}
    print(json.dumps({**found, "estimate_states": estimate.states, "estimate_bytes": estimate.bytes}))


def packed_count_apart(n: int, colour_symmetry: bool) -> dict:
    """:func:`one_packed_count` in a process of its own, so that its peak memory is its own."""
    command = [sys.executable, __file__, "--one-count", str(n)]
    command += [] if colour_symmetry else ["--without-exchange"]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def symmetry_ratio(largest: int) -> None:
    """The packed count of n×n for n = 9..largest without and with the colour exchange (one key
    for each pair of states): the most keys held after a step, the processor seconds and the
    peak memory of each, and their ratios, with over without."""
    print("packed count of n×n without and with the colour exchange (each count in a process of its own)")
    print(
        f"{'n':>2}  {'exchange':>8}  {'states':>10}  {'est. states':>11}  {'cpu s':>8}  {'peak GB':>7}  "
        f"{'est. GB':>7}  L(n×n)"
    )
    for n in range(9, largest + 1):
        without, merged = packed_count_apart(n, False), packed_count_apart(n, True)
        assert without["count"] == merged["count"]
        for label, found in (("without", without), ("with", merged)):
            print(
                f"{n:>2}  {label:>8}  {found['states']:>10,}  {found['estimate_states']:>11,.0f}  "
                f"{found['seconds']:8.1f}  {found['peak_bytes'] / 1e9:7.2f}  {found['estimate_bytes'] / 1e9:7.2f}  "
                f"{found['count']}",
                flush=True,
            )
        ratios = [merged[k] / without[k] for k in ("states", "seconds", "peak_bytes")]
        print(f"{n:>2}  {'ratio':>8}  {ratios[0]:>10.3f}  {'':>11}  {ratios[1]:8.3f}  {ratios[2]:7.3f}", flush=True)


def rectangle_table(widest: int, narrowest: int = 1) -> None:
    """L(m×n) for m = narrowest..widest and m ≤ n ≤ 13 as the rows of a markdown table (the packed
    count from 6 columns on the shorter side, the exact program below, as ``gorules count``)."""
    print("| m | n | L(m×n) | method | seconds |")
    print("|---|---|---|---|---|")
    for m in range(narrowest, widest + 1):
        for n in range(m, 14):
            graph = parse_graph(f"grid:{m}x{n}")
            if m >= 6:
                (count, _), seconds = timed(count_legal_grid, graph)
                method = "packed"
            else:
                count, seconds = timed(count_legal, graph)
                method = "dp"
            print(f"| {m} | {n} | {count} | {method} | {seconds:.2f} |", flush=True)


def main(argv=None) -> int:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nine", action="store_true", help="also count 9×9")
    parser.add_argument("--python-1x4", action="store_true", help="also the 1×4 games by the plain Python search")
    parser.add_argument("--games-2x2", action="store_true", help="also count the games on 2×2 (long)")
    parser.add_argument(
        "--packed", type=int, metavar="N", help="only the packed count of n×n boards for n = 9..N (N ≤ 13)"
    )
    parser.add_argument("--table", type=int, metavar="M", help="only L(m×n) for m ≤ M, m ≤ n ≤ 13, as markdown")
    parser.add_argument("--table-from", type=int, default=1, metavar="K", help="with --table: only the rows m ≥ K")
    parser.add_argument(
        "--symmetry-ratio",
        type=int,
        metavar="N",
        help="only the packed count of n×n for n = 9..N with and without the colour exchange, and the ratios",
    )
    parser.add_argument("--one-count", type=int, help=argparse.SUPPRESS)  # one count of --symmetry-ratio
    parser.add_argument("--without-exchange", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_count is not None:
        one_packed_count(args.one_count, not args.without_exchange)
        return 0
    if args.symmetry_ratio is not None:
        print(f"command: python benchmarks/bench_counting.py --symmetry-ratio {args.symmetry_ratio}")
        symmetry_ratio(args.symmetry_ratio)
        return 0
    if args.table is not None:
        since = f" --table-from {args.table_from}" if args.table_from != 1 else ""
        print(f"command: python benchmarks/bench_counting.py --table {args.table}{since}")
        rectangle_table(args.table, args.table_from)
        return 0
    if args.packed is not None:
        print(f"command: python benchmarks/bench_counting.py --packed {args.packed}")
        packed_table(args.packed)
        return 0
    flags = [("--nine", args.nine), ("--python-1x4", args.python_1x4), ("--games-2x2", args.games_2x2)]
    command = " ".join(["python benchmarks/bench_counting.py"] + [flag for flag, on in flags if on])
    print(f"command: {command}")
    print("legal positions on n×n boards (frontier dynamic program)")
    print(f"{'n':>2}  {'seconds':>9}  {'× previous':>10}  {'states':>8}  L(n×n)")
    previous = None
    for n in range(1, 10 if args.nine else 9):
        (count, states), seconds = timed(legal_square, n)
        ratio = f"{seconds / previous:10.1f}" if previous else " " * 10
        print(f"{n:>2}  {seconds:9.3f}  {ratio}  {states:>8}  {count}", flush=True)
        previous = max(seconds, 1e-6)
    print()
    print("games under positional superko (simple paths in the game graph)")
    print(f"{'graph':>9}  {'search':>8}  {'seconds':>9}  {'positions':>9}  {'keys':>9}  games")
    count_games(parse_graph("grid:1x1"), compiled=True)  # compile before measuring
    boards = [
        ("grid:1x2", False),
        ("grid:1x3", False),
        ("cycle:3", False),
        ("star:3", False),
        ("star:3", True),
        ("grid:1x4", True),
    ]
    if args.python_1x4:
        boards.append(("grid:1x4", False))
    if args.games_2x2:
        boards.append(("grid:2x2", True))
    plain_seconds = {}
    for name, compiled in boards:
        found, seconds = timed(count_games, parse_graph(name), compiled)
        search = "numba" if compiled else "python"
        ratio = ""
        if compiled and name in plain_seconds and seconds > 0.05:
            ratio = f"  (python/numba {plain_seconds[name] / max(seconds, 1e-6):.0f}×)"
        elif not compiled:
            plain_seconds[name] = seconds
        print(
            f"{name:>9}  {search:>8}  {seconds:9.3f}  {found.positions:>9}  {found.keys:>9}  {found.games}{ratio}",
            flush=True,
        )
    print()
    print("games under the other presets (options = ko, suicide)")
    print(f"{'graph':>9}  {'preset':>12}  {'seconds':>9}  {'keys':>9}  games")
    for name, preset in [
        ("grid:1x3", "no-suicide"),
        ("grid:1x4", "no-suicide"),
        ("grid:1x3", "situational"),
        ("cycle:3", "situational"),
    ]:
        found, seconds = timed(lambda g, p: count_games(g, options=PRESETS[p]), parse_graph(name), preset)
        print(f"{name:>9}  {preset:>12}  {seconds:9.3f}  {found.keys:>9}  {found.games}", flush=True)
    print()
    print("longest game: turns (passes included) and GoGameGraphs (stone moves, longest simple path)")
    longest(parse_graph("grid:1x2"), "turns")  # compile before measuring
    for name in ("grid:1x3", "cycle:3", "grid:1x4"):
        for convention in ("turns", "gogamegraphs"):
            found, seconds = timed(longest, parse_graph(name), convention)
            print(
                f"{name:>9}  {convention:>12}  {seconds:9.3f}  {found.keys:>9} keys  length {found.length}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
