"""The rectangles' table: Tromp–Taylor's value of every m×n grid (m ≤ n, m·n up to a bound)
under positional and situational superko, each solved within a budget with a certificate,
and each certificate checked by the spec alone.

Each row is two commands run as a user runs them, in subprocesses: ``gorules solve grid:MxN
--certificate FILE`` (value or proven bounds, nodes, seconds) and ``gorules check-certificate
FILE --expect CLAIM`` (the verdict, the positions checked, the checker's seconds and its
peak memory, read from the operating system's accounting of the finished process).  A row
whose solve ran out of budget shows the bounds proved and no certificate.

    python benchmarks/bench_rectangles.py [--min-points N] [--max-points N] [--seconds S] [--jobs J]
    python benchmarks/bench_rectangles.py --shapes 2x7,3x5 [--seconds S]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gorules.arguments import positive_finite

SUPERKO = {"positional": "tromp-taylor", "situational": "situational"}
"""The superko rules of the table and the presets that carry them."""


def rectangles(max_points: int) -> list[tuple[int, int]]:
    """Every m×n with 1 ≤ m ≤ n and m·n ≤ max_points, by points then by shape."""
    found = [(m, n) for m in range(1, max_points + 1) for n in range(m, max_points + 1) if m * n <= max_points]
    return sorted(found, key=lambda shape: (shape[0] * shape[1], shape))


def shape_list(text: str) -> list[tuple[int, int]]:
    """``MxN,MxN,...`` as shapes, each with m ≤ n (argparse's type)."""
    try:
        shapes = [tuple(sorted(int(side) for side in item.split("x"))) for item in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected shapes such as 2x7,3x5, got {text!r}") from None
    if any(len(shape) != 2 or shape[0] < 1 for shape in shapes):
        raise argparse.ArgumentTypeError(f"expected shapes such as 2x7,3x5, got {text!r}")
    return [(m, n) for m, n in shapes]


def measured(argv: list[str]) -> tuple[int, str, float, int]:
    """Run ``gorules`` with ``argv``: (exit code, stdout, or the error line where it failed,
    wall seconds, peak memory in bytes)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "gorules", *argv], stdout=subprocess.PIPE, stderr=errors, text=True
        )
        out = process.stdout.read() if process.stdout is not None else ""
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        if process.returncode != 0:
            out = next(reversed(errors.read().strip().splitlines()), "")
    return process.returncode, out, time.perf_counter() - started, usage.ru_maxrss * 1024


def row(m: int, n: int, superko: str, args, folder: Path) -> dict:
    """Solve m×n under ``superko`` with a certificate, then check the certificate."""
    name = f"grid:{m}x{n}"
    certificate = folder / f"{m}x{n}-{superko}.cert"
    solve = ["solve", name, "--preset", SUPERKO[superko], "--max-points", str(m * n), "--seconds", str(args.seconds)]
    solve += ["--jobs", str(args.jobs), "--certificate", str(certificate), "--json", "--no-progress"]
    solve += ["--certificate-positions", str(args.certificate_positions)]
    code, out, seconds, memory = measured(solve)
    found = {"graph": name, "superko": superko, "solve_exit": code, "solve_seconds": seconds, "solve_memory": memory}
    if code != 0:
        found["error"] = out.removeprefix("gorules solve: error: ")
        return found
    result = json.loads(out)
    found.update({key: result.get(key) for key in ("status", "value", "lower", "upper", "nodes")})
    if result["status"] != "exact" or not certificate.exists():
        return found
    claim = f"{name} tromp-taylor value={result['value']}"
    code, out, seconds, memory = measured(["check-certificate", str(certificate), "--expect", claim, "--json"])
    verdict = json.loads(out) if out else {}
    found.update(
        {
            "valid": code == 0 and verdict.get("valid") is True,
            "positions": verdict.get("positions"),
            "check_seconds": seconds,
            "check_memory": memory,
        }
    )
    certificate.unlink()
    return found


def shown(found: dict) -> str:
    """One markdown row of the table."""
    if found.get("status") == "exact":
        value = f"{found['value']:+d}"
    elif found.get("status") == "bounds":
        value = f"[{found['lower']:+d}, {found['upper']:+d}]"
    else:
        value = f"exit {found['solve_exit']}: {found.get('error', '')}"
    checked = "—"
    if "valid" in found:
        verdict = "valid" if found["valid"] else "INVALID"
        megabytes = found["check_memory"] / 2**20
        checked = f"{verdict}, {found['positions']:,} positions, {found['check_seconds']:.1f} s, {megabytes:,.0f} MB"
    nodes = f"{found['nodes']:,}" if found.get("nodes") is not None else "—"
    return f"| {found['graph']} | {found['superko']} | {value} | {nodes} | {found['solve_seconds']:.1f} | {checked} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-points", type=int, default=20, help="the largest m·n in the table (default 20)")
    parser.add_argument("--min-points", type=int, default=1, help="the smallest m·n in the table (default 1)")
    parser.add_argument("--shapes", type=shape_list, help="these rectangles only, e.g. 2x7,3x5 (instead of the points)")
    parser.add_argument("--seconds", type=positive_finite, default=120.0, help="each solve's time budget")
    parser.add_argument("--jobs", type=int, default=2, help="processes a resisting test is split over (as solve)")
    parser.add_argument(
        "--certificate-positions", type=int, default=5_000_000, help="the most positions a certificate may have"
    )
    args = parser.parse_args()
    print("| graph | superko | value for Black | nodes | solve s | certificate checked by the spec |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        shapes = args.shapes or [s for s in rectangles(args.max_points) if s[0] * s[1] >= args.min_points]
        for m, n in shapes:
            for superko in SUPERKO:
                print(shown(row(m, n, superko, args, Path(folder))), flush=True)
    chosen = (
        "--shapes " + ",".join(f"{m}x{n}" for m, n in shapes)
        if args.shapes
        else (f"--min-points {args.min_points} --max-points {args.max_points}")
    )
    print(f"\ncommand: python benchmarks/bench_rectangles.py {chosen} --seconds {args.seconds:g} --jobs {args.jobs}")


if __name__ == "__main__":
    main()
