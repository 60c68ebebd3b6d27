"""The machinery of ``bench_solve.py --targets`` (the frontier targets) on small boards and
budgets: each row's verdict is computed from its measurement ("met" when the target is met,
"not met" otherwise), the growth of nodes is printed as a projection by a fit, the machine is
printed once, and the Dask row runs a real local cluster that is shut down afterwards.  No
assertion depends on the machine's speed: the targets missed here are missed by node limits
and certificate sizes, not by time."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_solve  # noqa: E402

SMALL = dict(
    bench_solve.FRONTIER,
    four="grid:2x2",
    four_value=1,
    four_nodes={"positional": 5_000_000, "situational": 1},
    growth=(2, 3),
    path=4,
    next=5,
    small="grid:1x3",
    five="grid:3x3",
)
"""The frontier targets' boards made small: 2×2 for 4×4 (its situational node limit one node, so that
row is missed), 1×2 and 1×3 for the growth, 1×4 with a certificate, 1×5 as the next path,
1×3 and 2×2 projecting 3×3, which runs through Dask."""


def budgets(**changed) -> argparse.Namespace:
    """The options of ``--targets``, generous for the small boards, with ``changed`` set."""
    settings = {
        "four_seconds": 60.0,
        "seconds": 60.0,
        "rect_seconds": 60.0,
        "max_points": 2,
        "five_seconds": 5.0,
        "jobs": 2,
        "certificate_positions": 5_000_000,
    }
    return argparse.Namespace(**{**settings, **changed})


def test_the_targets_on_small_boards(capsys):
    """Every row measured and judged: the machine line first, the worst case before any
    work, the projection by a fit, the rectangles' table after the targets, the command."""
    rows = bench_solve.frontier_targets(budgets(), SMALL)
    out = capsys.readouterr().out
    verdicts = {row["figure"]: row["verdict"] for row in rows}
    assert verdicts == {
        "2×2, positional superko": "met",
        "2×2, situational superko": "not met",
        "1×4, positional superko, with certificate": "met",
        "1×5, positional superko": "met",
        "rectangles to 2 points": "met",
        "3×3, positional superko, through Dask": "met",
    }
    lines = out.splitlines()
    assert lines[0].startswith("machine: ") and "load average at start" in lines[0]
    assert "commit " in lines[0] and lines[1].startswith("worst case: ")
    assert "projected by a fit of 3 points (1×2" in rows[3]["measured"]
    assert "projected by a fit of 2 points (1×3" in rows[5]["measured"]
    assert "load average at end" in out and "| grid:1x2 | situational |" in out
    assert "4 of 4 exact with a certificate accepted within 2 GB" in rows[4]["measured"]
    assert out.rstrip().splitlines()[-1].startswith("command: python benchmarks/bench_solve.py --targets ")


def test_a_certificate_too_large_misses_the_rectangles_target(tmp_path):
    """With room for one position in a certificate, no rectangle has one: "not met", and
    the row names each rectangle that missed."""
    row, table = bench_solve.rectangle_rows(budgets(max_points=1, certificate_positions=1), tmp_path)
    assert row["verdict"] == "not met" and len(table) == 2
    assert row["measured"].startswith("0 of 2 exact") and "1×1 positional" in row["measured"]


def test_the_fit_of_the_growth():
    """A fit through nodes that triple per point projects the next by three, and says so;
    one point is no fit."""
    slope, _ = bench_solve.fit({10: 100, 11: 300})
    assert math.isclose(math.exp(slope), 3.0)
    text = bench_solve.projection({10: 100, 11: 300}, {10: "1×10", 11: "1×11", 12: "1×12"}, [12], 900.0)
    assert text is not None and text.startswith("projected by a fit of 2 points (1×10 100, 1×11 300): ×3.00 per point")
    assert "1×12 ≈ 900 nodes (≈ 1 s at 900 nodes/s)" in text
    assert bench_solve.fit({10: 100}) is None and bench_solve.projection({10: 100}, {}, [12], 1.0) is None
