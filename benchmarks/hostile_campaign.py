"""The hostile-input campaign: the properties of tests/hostile_inputs.py over many more
generated inputs than the test suite tries, a long random GTP session, and sweeps killed
with SIGKILL; prints the figures that benchmarks/README.md quotes.

    python benchmarks/hostile_campaign.py --examples 300 --gtp-commands 100000 --kills 3

Figures: inputs tried, commands run, crashes (a property with a failing input: an exit code
outside 0/1/2, a traceback, more than one error line, a command over its time bound, an
internal error from the GTP server), partial files left, orphaned worker processes.

The GTP part checks a random session against the spec after every command, then feeds as
many random commands (a ``clear_board`` at least every 500, long lines) to a real ``gorules
gtp`` and reads its resident memory after 10,000 and after all of them: a growth of
``GTP_GROWTH_KIB`` or more is a defect.  The kills part kills a sweep (SIGKILL, the sweep alone, at a fault
injected in the middle of writing a result: ``gorules.failpoints``) and resumes it, and kills one pool worker of another: defects are an orphaned
worker, a file that fails ``PRAGMA integrity_check``, a resumed run that redid stored rows,
a sweep that hangs or fails, a table unlike an uninterrupted sweep's.

Then the hostile writes: every output flag against every kind of thing at its path (nothing,
an empty path, a directory, a socket, a FIFO with its reader, links to a file and to a
directory, a path under a file, a folder where no file can be made and, for the superuser,
copies of /dev/null and /dev/full), each case's defect counted by class (replaced, silent
success, wrongly refused, litter, a hidden file named, internal error); hangs and internal
errors of inputs (``replay-sgf`` and ``check-certificate`` on a FIFO), worker counts
(``sweep --workers``, ``solve --jobs``) and standard streams; and a sweep signalled with SIGTERM,
SIGHUP and Ctrl-C (exit code, error lines, partial file, orphaned worker).  ``--parts``
chooses what runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 120
"""How long a case may run before it counts as a hang: far beyond any case's work."""
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from gorules import failpoints  # noqa: E402
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


def sweep_command(db: Path) -> list[str]:
    """The killed sweeps' command: two workers, into ``db``."""
    command = [sys.executable, "-m", "gorules", "sweep", "going-first-is-good", "--graphs", hostile.KILL_FAMILY]
    return command + ["--db", str(db), "--workers", "2", "--json"]


def sweep_table(db: Path) -> tuple[str, list]:
    """SQLite's integrity verdict on a results file, and its table (each graph's family,
    figures and verdict, without the seconds)."""
    with sqlite3.connect(db) as connection:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        query = "SELECT conjecture, ruleset, graph, family, figures, holds FROM results ORDER BY graph"
        return verdict, connection.execute(query).fetchall()


def started_sweep(db: Path, after_rows: int) -> tuple[subprocess.Popen, set[int]]:
    """The killed sweeps' command once ``after_rows`` results are stored, and its workers."""
    process = subprocess.Popen(
        sweep_command(db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and len(stored(db)) < after_rows:
        workers |= hostile.children(process.pid)
        time.sleep(0.05)
    workers |= hostile.children(process.pid)
    return process, workers


def faulted_sweep(db: Path, point: str) -> tuple[subprocess.Popen, set[int]]:
    """The killed sweeps' command with the fault ``point`` injected (``gorules.failpoints``),
    run until it ends, and the workers it had."""
    environment = {**os.environ, failpoints.VARIABLE: point}
    process = subprocess.Popen(
        sweep_command(db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=environment
    )
    workers: set[int] = set()
    deadline = time.monotonic() + HANG_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        workers |= hostile.children(process.pid)
        time.sleep(0.05)
    return process, workers


def killed_sweep(directory: Path, after_rows: int, whole: list) -> Counter:
    """Kill a sweep (SIGKILL, by itself, the sweep alone) in the middle of writing result
    ``after_rows + 1``: inside its transaction or just after its commit, in turn; resume it.
    The defects: a sweep that was not killed there, workers left running 10 s after the kill,
    a file that fails SQLite's integrity check, a resumed run that redid stored rows or whose
    table is not ``whole``."""
    db = directory / "killed.sqlite"
    point = f"{failpoints.POINTS[after_rows % 2]}:{after_rows + 1}"
    process, workers = faulted_sweep(db, point)
    defects: Counter = Counter()
    if process.poll() is None:
        defects["hang"] += 1
        os.killpg(process.pid, signal.SIGKILL)
    defects["not killed at the fault"] += process.wait() != -signal.SIGKILL
    time.sleep(10)
    left = [w for w in workers if hostile.alive(w)]
    for w in left:  # tidy up, after counting
        os.kill(w, signal.SIGKILL)
    defects["orphaned worker"] += len(left)
    at_kill = len(stored(db))
    verdict, _ = sweep_table(db)
    defects["inconsistent file"] += verdict != "ok"
    done = subprocess.run(sweep_command(db), capture_output=True, text=True, timeout=600, check=False)
    resumed = json.loads(done.stdout) if done.returncode == 0 else {}
    defects["not resumed"] += resumed.get("already_done") != at_kill
    verdict, table = sweep_table(db)
    defects["inconsistent file"] += verdict != "ok"
    defects["wrong table"] += table != whole
    return defects


def killed_worker(directory: Path, after_rows: int, whole: list) -> Counter:
    """Kill one pool worker of a sweep (SIGKILL) after ``after_rows`` results.  The defects:
    a sweep that hangs or fails, a file that fails SQLite's integrity check, a table that is
    not ``whole``."""
    db = directory / "worker.sqlite"
    process, workers = started_sweep(db, after_rows)
    defects: Counter = Counter()
    if process.poll() is None and workers:
        os.kill(min(workers), signal.SIGKILL)
    try:
        defects["sweep failed"] += process.wait(timeout=HANG_SECONDS) != 0
    except subprocess.TimeoutExpired:
        defects["hang"] += 1
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return defects
    verdict, table = sweep_table(db)
    defects["inconsistent file"] += verdict != "ok"
    defects["wrong table"] += table != whole
    return defects


# ------------------------------------------------------------------ hostile writes


FILE, DIRECTORY = "file", "directory"
WRITERS = [  # a command up to its output flag, and whether the flag names a file or a directory
    (["count", "grid:1x2", "--out"], FILE),
    (["count", "grid:1x2", "--json", "--out"], FILE),
    (["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record"], FILE),
    (["solve", "grid:1x2", "--no-progress", "--certificate"], FILE),
    (["replay", "grid:2x2", "--moves", "B A1", "--picture"], FILE),
    (["conjectures", "000", "--points", "1", "--json"], FILE),
    (["conjectures", "000", "--points", "2", "--pictures"], DIRECTORY),
    (["readings", "004", "--max-points", "2", "--pictures"], DIRECTORY),
    (["prove", "well-formedness", "--graph", "path:2", "--pictures"], DIRECTORY),
    (["fuzz", "--examples", "1", "--out"], DIRECTORY),
]


def kind(path: str) -> str | None:
    """What is at ``path`` itself (a link is a link), or None."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    for test, name in ((stat.S_ISLNK, "link"), (stat.S_ISDIR, "directory"), (stat.S_ISREG, "file")):
        if test(mode):
            return name
    return "special"


def at_path(name: str, folder: Path) -> str:
    """Make the thing ``name`` names in ``folder``; the output path that reaches it."""
    path = folder / "out.svg"
    if name == "directory":
        path.mkdir()
    elif name == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()
    elif name in ("null device", "full device"):
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3 if name == "null device" else 7))
    elif name == "FIFO":
        os.mkfifo(path)
    elif name.startswith("link to a"):
        target = folder / "target"
        if name.endswith("directory"):
            target.mkdir()
        else:
            target.write_text("before")
        path.symlink_to(target)
    elif name == "under a file":
        (folder / "file").write_text("")
        path = folder / "file" / "out.svg"
    elif name == "empty":
        return ""
    elif name == "no file can be made":
        return "/proc/out.svg"
    return str(path)


def expected(name: str, flag: str) -> str:
    """What a correct command does with an output of this kind at the path: written, an
    error (a device that fails the write), or refused."""
    written = {
        FILE: ("nothing", "null device", "FIFO", "link to a file"),
        DIRECTORY: ("nothing", "directory", "link to a directory"),
    }
    if name == "full device" and flag == FILE:
        return "error"
    return "written" if name in written[flag] else "refused"


PATH_KINDS = [
    "nothing",
    "empty",
    "directory",
    "socket",
    "FIFO",
    "link to a file",
    "link to a directory",
    "under a file",
    "no file can be made",
]
if os.geteuid() == 0:  # device nodes are the superuser's to make
    PATH_KINDS += ["null device", "full device"]


def in_process(argv: list[str]) -> tuple[int, str]:
    """``gorules ARGV`` in this process: (exit code, stderr)."""
    from gorules.cli import main as gorules_main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = gorules_main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 2
    return code, err.getvalue()


def write_defect(argv: list[str], flag: str, name: str) -> str | None:
    """Run one write case in fresh folders; the class of its defect, or None."""
    with hostile.fresh_directory() as cwd, tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        path = at_path(name, folder)
        before = kind(path) if path else None
        reader = subprocess.Popen(["cat", path], stdout=subprocess.DEVNULL) if name == "FIFO" else None
        try:
            code, err = in_process([*argv, path])
        finally:
            if reader is not None:
                reader.kill()
                reader.wait()
        hostile.COUNTS["commands"] += 1
        if code not in (0, 1, 2) or "Traceback" in err:
            return "internal error"
        if len([line for line in err.splitlines() if ": error: " in line]) != (code == 2):
            return "error lines"
        if before not in (None, "file") and kind(path) != before:
            return "replaced"
        if ".tmp" in err:
            return "hidden file named"
        if list(cwd.iterdir()) or hostile.partial_files(folder):
            return "litter"
        want = expected(name, flag)
        if want == "written" and code == 2:
            return "wrongly refused"
        if want != "written" and code != 2:
            return "silent success"
    return None


def hostile_writes() -> dict:
    """Every output flag against every kind of thing at its path: cases tried, defects by
    class, the first case of each class."""
    tried, defects, first = 0, Counter(), {}
    for argv, flag in WRITERS:
        for name in PATH_KINDS:
            tried += 1
            defect = write_defect(argv, flag, name)
            if defect:
                defects[defect] += 1
                first.setdefault(defect, f"{' '.join(argv)} onto {name}")
    return {"cases": tried, "defects": dict(defects), "first": first}


def stream_cases(directory: Path) -> list[tuple[str, list[str], dict, Callable]]:
    """Hangs and internal errors outside the output paths: (name, command, run settings,
    the check of the finished run)."""
    gorules = [sys.executable, "-m", "gorules"]
    fifo = directory / "game.sgf"
    os.mkfifo(fifo)
    records = directory / "records"
    records.mkdir()
    (records / "good.sgf").write_text("(;SZ[9];B[cc];W[dd])")
    os.mkfifo(records / "pipe.sgf")
    ascii_only = {"env": {**os.environ, "PYTHONIOENCODING": "ascii"}}

    def shell(redirection: str, argv: list[str]) -> list[str]:
        return ["sh", "-c", f'exec "$@" {redirection}', "sh", *gorules, *argv]

    sweep = ["sweep", "going-first-is-good", "--graphs", "paths:1-3", "--db", str(directory / "capped.sqlite")]
    return [
        ("replay-sgf on a FIFO", [*gorules, "replay-sgf", str(fifo)], {}, lambda done: done.returncode == 2),
        ("a FIFO in a folder of records", [*gorules, "replay-sgf", str(records)], {}, lambda d: d.returncode == 0),
        ("a million workers", [*gorules, *sweep, "--workers", "1000000"], {}, lambda done: done.returncode == 0),
        ("an ASCII terminal", [*gorules, "count", "grid:1xn"], ascii_only, lambda done: done.returncode == 0),
        ("stdin closed", shell("<&-", ["gtp"]), {}, lambda done: done.returncode == 0),
        ("stderr closed", shell("2>&-", ["count", "grid:0x0x"]), {}, lambda done: done.stdout == ""),
        ("a certificate FIFO", [*gorules, "check-certificate", str(fifo)], {}, one_line_refusal),
        ("a certificate /dev/zero", [*gorules, "check-certificate", "/dev/zero"], {}, one_line_refusal),
        ("solve, a million jobs", [*gorules, "solve", "grid:1x3", "--jobs", str(10**6)], {}, one_line_refusal),
        ("solve, jobs over the cores", [*gorules, "solve", "grid:2x3", "--jobs", "64", "--json"], {}, cores_jobs),
    ]


def one_line_refusal(done: subprocess.CompletedProcess) -> bool:
    """Whether a run was refused: exit 2, one line on stderr."""
    return done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def cores_jobs(done: subprocess.CompletedProcess) -> bool:
    """Whether a solve ran with its jobs capped by the machine's cores."""
    return done.returncode == 0 and json.loads(done.stdout)["jobs"] <= (os.cpu_count() or 1)


def stream_defects() -> dict:
    """Run each case of :func:`stream_cases`; a run past ``HANG_SECONDS`` counts as a hang."""
    defects, failed = Counter(), []
    with tempfile.TemporaryDirectory() as directory:
        cases = stream_cases(Path(directory))
        for name, command, settings, check in cases:
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_SECONDS, **settings)
            except subprocess.TimeoutExpired:
                defects["hang"] += 1
                failed.append(name)
                continue
            if done.returncode == 3 or "Traceback" in done.stderr:
                defects["internal error"] += 1
                failed.append(name)
            elif not check(done):
                defects["wrong answer"] += 1
                failed.append(name)
    return {"cases": len(cases), "defects": dict(defects), "failed": failed}


SIGNALS = [("SIGTERM", signal.SIGTERM, False, 143), ("SIGHUP", signal.SIGHUP, False, 129)]
SIGNALS += [("Ctrl-C", signal.SIGINT, True, 130)]


def signal_defects() -> dict:
    """A sweep on two workers signalled part way, once per signal: a wrong exit code, more
    than one error line, a summary or temporary file left, or a worker left running."""
    from tests.test_hostile_writes import Signalled, results

    defects, failed = Counter(), []
    for name, number, group, code in SIGNALS:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            db, out = folder / "signalled.sqlite", folder / "summary.json"
            argv = ["sweep", "going-first-is-good", "--graphs", hostile.KILL_FAMILY, "--db", str(db)]
            sweep = Signalled([*argv, "--workers", "2", "--json", "--out", str(out)], folder)
            sweep.wait_until(lambda sweep=sweep, db=db: results(db) >= 1 and len(sweep.workers) >= 2)
            exit_code, _, stderr = sweep.signal(number, group)
            for defect, found in (
                ("exit code", exit_code != code),
                ("error lines", len(stderr.strip().splitlines()) != 1),
                ("partial file", out.exists() or bool(hostile.partial_files(folder))),
                ("orphaned worker", bool(sweep.left())),
            ):
                if found:
                    defects[defect] += 1
                    failed.append(f"{name}: {defect}")
    return {"cases": len(SIGNALS), "defects": dict(defects), "failed": failed}


PARTS = ("properties", "gtp", "kills", "writes", "streams", "signals")


def parts(text: str) -> tuple[str, ...]:
    """The comma-separated parts of the campaign to run."""
    chosen = tuple(p.strip() for p in text.split(",") if p.strip())
    unknown = [p for p in chosen if p not in PARTS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"parts are {', '.join(PARTS)}; got {text!r}")
    return chosen


def run_properties(examples: int, figures: dict) -> None:
    """The properties of tests/hostile_inputs.py, ``examples`` inputs each."""
    for name, strategy, check in PROPERTIES:
        before = dict(hostile.COUNTS)
        failure = run_property(strategy, check, examples)
        tried = hostile.COUNTS["inputs"] - before.get("inputs", 0)
        figures["properties"][name] = {"inputs": tried, "failure": failure}
        figures["crashes"] += failure is not None
        print(f"{name:18} {tried:7,} inputs  {'FAILED: ' + failure if failure else 'no failure'}", flush=True)


def run_kills(kills: int) -> dict:
    """``kills`` sweeps killed with SIGKILL and resumed, and as many whose pool worker was
    killed, after more and more results; each compared with a sweep never interrupted."""
    defects: Counter = Counter()
    with tempfile.TemporaryDirectory() as directory:
        db = Path(directory) / "whole.sqlite"
        subprocess.run(sweep_command(db), capture_output=True, timeout=600, check=True)
        _, whole = sweep_table(db)
    for kill in range(kills):
        for case in (killed_sweep, killed_worker):
            with tempfile.TemporaryDirectory() as directory:
                defects += case(Path(directory), 2 + kill, whole)
    return {"cases": 2 * kills, "defects": {name: n for name, n in defects.items() if n}, "failed": []}


GTP_GROWTH_KIB = 5 * 1024
"""The most the GTP server's resident memory may grow after its first 10,000 commands."""


def gtp_defects(commands: int) -> dict:
    """The spec-checked random session of ``commands`` commands in this process, then a real
    ``gorules gtp`` fed as many: its resident memory after 10,000 and after all of them."""
    from tests.gtp_memory import memory_over

    session = run_session(commands, seed=2026, graph="grid:4x4")["commands"]
    checkpoints = sorted({min(10_000, commands), commands})
    measured = memory_over(checkpoints, seed=2026)
    resident = measured["resident_kib"]
    growth = resident[commands] - resident[checkpoints[0]]
    defects: Counter = Counter()
    defects["memory growth"] += growth >= GTP_GROWTH_KIB
    defects["internal error"] += measured["internal_errors"]
    defects["exit code"] += measured["exit_code"] != 0
    print(
        f"{'GTP session':18} {session:7,} commands, the board the spec's after each; a real server's "
        f"VmRSS {resident[checkpoints[0]] / 1024:.1f} MB after {checkpoints[0]:,}, "
        f"{resident[commands] / 1024:.1f} MB after {commands:,} (+{growth / 1024:.2f} MB)",
        flush=True,
    )
    return {
        "cases": 2,
        "session": session,
        "resident_kib": resident,
        "defects": {name: n for name, n in defects.items() if n},
        "failed": [],
    }


def defect_line(name: str, found: dict) -> str:
    """One line of a part's cases and defects by class."""
    classes = ", ".join(f"{n} {c}" for c, n in sorted(found["defects"].items())) or "none"
    return f"{name:18} {found['cases']:7,} cases, defects: {classes}"


def main() -> None:
    """Run the campaign and print its figures (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="inputs per property (default 300)")
    parser.add_argument("--gtp-commands", type=int, default=100_000, help="length of the random GTP session")
    parser.add_argument(
        "--kills", type=int, default=3, help="sweeps killed with SIGKILL, and as many pool workers (default 3)"
    )
    parser.add_argument(
        "--parts", type=parts, default=PARTS, help=f"comma-separated parts to run (default all: {','.join(PARTS)})"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    figures: dict = {"properties": {}, "crashes": 0}
    orphans, session = 0, 0
    if "properties" in args.parts:
        run_properties(args.examples, figures)
    for name, part, run in (
        (None, "gtp", lambda: gtp_defects(args.gtp_commands)),
        ("killed sweeps", "kills", lambda: run_kills(args.kills)),
        ("hostile writes", "writes", hostile_writes),
        ("streams, hangs", "streams", stream_defects),
        ("signals", "signals", signal_defects),
    ):
        if part in args.parts:
            figures[part] = run()
            if name:
                print(defect_line(name, figures[part]), flush=True)
            orphans += figures[part]["defects"].get("orphaned worker", 0)
    session = figures.get("gtp", {}).get("session", 0)
    checked = ("gtp", "kills", "writes", "streams", "signals")
    defects = sum(sum(figures[p]["defects"].values()) for p in checked if p in figures)
    figures.update(
        inputs=hostile.COUNTS["inputs"],
        commands=hostile.COUNTS["commands"] + session,
        gtp_session=session,
        partial_files=sum(1 for p in figures["properties"].values() if p["failure"] and "partial" in p["failure"]),
        killed_sweeps=args.kills if "kills" in args.parts else 0,
        orphaned_processes=orphans,
        defects=defects,
        seconds=round(time.perf_counter() - started, 1),
    )
    print(
        f"inputs tried {figures['inputs']:,}; commands run {figures['commands']:,}; crashes {figures['crashes']}; "
        f"partial files {figures['partial_files']}; orphaned processes {orphans}; defects {defects}; "
        f"{figures['seconds']} s"
    )
    print("reproduce: python benchmarks/hostile_campaign.py " + " ".join(sys.argv[1:]))
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
