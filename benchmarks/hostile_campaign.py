"""The hostile-input campaign: the properties of tests/hostile_inputs.py over many more
generated inputs than the test suite tries, a long random GTP session, and sweeps killed
with SIGKILL; prints the figures that the README quotes.

    python benchmarks/hostile_campaign.py --examples 300 --gtp-commands 100000 --kills 3

Figures: inputs tried, commands run, crashes (a property with a failing input: an exit code
outside 0/1/2, a traceback, more than one error line, a command over its time bound, an
internal error from the GTP server), partial files left, orphaned worker processes.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests import hostile_inputs as hostile  # noqa: E402
from tests.gtp_session import run_session  # noqa: E402


def with_directory(check):
    """A check that takes a fresh temporary directory as its second argument (and runs there)."""

    def run(value):
        with hostile.fresh_directory() as directory:
            check(value, directory)
            if hostile.partial_files(directory):
                raise AssertionError(f"partial files for {value!r}")

    return run


PROPERTIES = [
    ("graph strings", hostile.graph_strings(), hostile.check_graph_string),
    ("move lists", hostile.move_lists(), hostile.check_moves),
    ("SGF files", hostile.sgf_texts(), with_directory(hostile.check_sgf)),
    ("GTP streams", hostile.gtp_streams(), hostile.check_gtp_stream),
    ("conjecture files", hostile.conjecture_files(), with_directory(hostile.check_conjecture_file)),
    ("command lines", hostile.COMMAND_LINES, with_directory(hostile.check_command_line)),
]


def run_property(strategy, check, examples: int) -> str | None:
    """Try ``examples`` inputs; the (shrunk) failure as text, or None."""

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def prop(value):
        check(value)

    try:
        prop()
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:500]
    return None


def stored(db: Path) -> list:
    """(graph, rows) of a results file (empty while it is being made)."""
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT graph, COUNT(*) FROM results GROUP BY graph").fetchall()
    except sqlite3.Error:
        return []


def killed_sweep(directory: Path, after_rows: int) -> tuple[int, bool]:
    """Kill a sweep (SIGKILL, the sweep alone) after ``after_rows`` results; resume it.
    Returns (workers left running 10 s after the kill, every result stored exactly once)."""
    db = directory / "killed.sqlite"
    command = [sys.executable, "-m", "gorules", "sweep", "going-first-is-good", "--graphs", hostile.KILL_FAMILY]
    command += ["--db", str(db), "--workers", "2", "--json"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and len(stored(db)) < after_rows:
        workers |= hostile.children(process.pid)
        time.sleep(0.05)
    workers |= hostile.children(process.pid)
    if process.poll() is None:
        os.kill(process.pid, signal.SIGKILL)
    process.wait()
    time.sleep(10)
    left = [w for w in workers if hostile.alive(w)]
    for w in left:  # tidy up, after counting
        os.kill(w, signal.SIGKILL)
    subprocess.run(command, capture_output=True, timeout=600, check=False)
    rows = stored(db)
    return len(left), bool(rows) and all(n == 1 for _, n in rows)


def main() -> None:
    """Run the campaign and print its figures (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="inputs per property (default 300)")
    parser.add_argument("--gtp-commands", type=int, default=100_000, help="length of the random GTP session")
    parser.add_argument("--kills", type=int, default=3, help="sweeps killed with SIGKILL (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    figures: dict = {"properties": {}, "crashes": 0}
    for name, strategy, check in PROPERTIES:
        before = dict(hostile.COUNTS)
        failure = run_property(strategy, check, args.examples)
        tried = hostile.COUNTS["inputs"] - before.get("inputs", 0)
        figures["properties"][name] = {"inputs": tried, "failure": failure}
        figures["crashes"] += failure is not None
        print(f"{name:18} {tried:7,} inputs  {'FAILED: ' + failure if failure else 'no failure'}", flush=True)
    counts = run_session(args.gtp_commands, seed=2026, graph="grid:4x4")
    print(f"{'GTP session':18} {counts['commands']:7,} commands, the board the spec's after each", flush=True)
    orphans, once = 0, True
    for kill in range(args.kills):
        with tempfile.TemporaryDirectory() as directory:
            left, exactly_once = killed_sweep(Path(directory), after_rows=2 + kill)
        orphans += left
        once = once and exactly_once
    print(f"{'killed sweeps':18} {args.kills:7,} killed, {orphans} workers left, each result once: {once}", flush=True)
    figures.update(
        inputs=hostile.COUNTS["inputs"],
        commands=hostile.COUNTS["commands"] + counts["commands"],
        gtp_session=counts["commands"],
        partial_files=sum(1 for p in figures["properties"].values() if p["failure"] and "partial" in p["failure"]),
        killed_sweeps=args.kills,
        orphaned_processes=orphans,
        results_exactly_once=once,
        seconds=round(time.perf_counter() - started, 1),
    )
    print(
        f"inputs tried {figures['inputs']:,}; commands run {figures['commands']:,}; crashes {figures['crashes']}; "
        f"partial files {figures['partial_files']}; orphaned processes {orphans}; {figures['seconds']} s"
    )
    print("reproduce: python benchmarks/hostile_campaign.py " + " ".join(sys.argv[1:]))
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
