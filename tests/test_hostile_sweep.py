"""Sweeps under hostile conditions: killed with SIGKILL (no worker left behind, resumed with
each result once and the table of an uninterrupted run), a worker killed with SIGKILL (no
hang, the same table), bad families (refused before a results file is made), corrupted or
foreign databases (refused, never changed), conjecture files naming unknown rulesets or
with predicates that raise."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gorules import failpoints
from gorules.cli import main
from gorules.sweep import family_graphs
from tests.dask_cluster import DaskCluster
from tests.hostile_inputs import KILL_FAMILY, children, still_running

SWEEP = [sys.executable, "-m", "gorules", "sweep"]


def rows(db: Path) -> int:
    """The number of results stored so far (0 while the file is being made)."""
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.Error:
        return 0


def table(db: Path) -> list[tuple]:
    """The stored results as a sweep's table shows them: each graph's family, figures and
    verdict (not the seconds, which differ from run to run), in the graphs' order."""
    with sqlite3.connect(db) as connection:
        query = "SELECT conjecture, ruleset, graph, family, figures, holds FROM results ORDER BY graph"
        return connection.execute(query).fetchall()


def integrity(db: Path) -> str:
    """SQLite's verdict on the whole file (``ok`` when it is consistent)."""
    with sqlite3.connect(db) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def command(db: Path) -> list[str]:
    """The sweep of the kill tests, on two workers, into ``db``."""
    return [*SWEEP, "going-first-is-good", "--graphs", KILL_FAMILY, "--db", str(db), "--workers", "2", "--json"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[tuple]:
    """The table of the kill tests' sweep run to its end without a fault."""
    db = tmp_path_factory.mktemp("uninterrupted") / "whole.sqlite"
    done = subprocess.run(command(db), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return table(db)


def start_and_wait_for_rows(db: Path, least: int) -> tuple[subprocess.Popen, set[int]]:
    """The kill tests' sweep started in its own process group, once ``least`` results are
    stored (the fault's chosen point), with the worker processes it had by then."""
    process = subprocess.Popen(
        command(db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and rows(db) < least:
        workers |= children(process.pid)
        time.sleep(0.05)
    workers |= children(process.pid)
    return process, workers


def tidy(process: subprocess.Popen) -> None:
    """Kill whatever a failed test left of the sweep's process group."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
def test_sweep_killed_with_sigkill_leaves_no_worker_and_resumes_once(tmp_path, uninterrupted):
    """Only the sweep itself is killed (SIGKILL, no handler runs) once two results are
    stored: its pool workers notice and stop within seconds, the file passes SQLite's
    integrity check, and the sweep started again computes only what is missing and ends
    with the table of a sweep never interrupted, every graph exactly once."""
    db = tmp_path / "killed.sqlite"
    process, workers = start_and_wait_for_rows(db, 2)
    try:
        assert process.poll() is None, "the sweep finished before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert workers, "the sweep started no worker processes"
        left = still_running(workers)
    finally:
        tidy(process)
    assert left == [], f"workers still running after the sweep was killed: {left}"
    assert integrity(db) == "ok"
    total = len(family_graphs(KILL_FAMILY))
    at_kill = rows(db)
    assert 2 <= at_kill < total
    resumed = subprocess.run(command(db), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["already_done"] == at_kill and summary["computed_now"] == total - at_kill
    assert integrity(db) == "ok"
    assert table(db) == uninterrupted


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
@pytest.mark.parametrize("point,kept", [("store-insert:3", 2), ("store-commit:3", 3)])
def test_sweep_killed_in_the_middle_of_a_write_resumes_with_every_result_once(point, kept, tmp_path, uninterrupted):
    """The sweep kills itself with SIGKILL at a chosen point of its third write: inside the
    transaction (the row written, not committed: SQLite rolls it back, so two rows are kept)
    or just after its commit (three kept).  No worker is left, the file passes SQLite's
    integrity check, and the sweep started again computes exactly what is missing and ends
    with the uninterrupted table."""
    db = tmp_path / "faulted.sqlite"
    environment = {**os.environ, failpoints.VARIABLE: point}
    process = subprocess.Popen(
        command(db), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=environment
    )
    workers: set[int] = set()
    try:
        while process.poll() is None:
            workers |= children(process.pid)
            time.sleep(0.05)
        assert process.wait(timeout=300) == -signal.SIGKILL
        left = still_running(workers)
    finally:
        tidy(process)
    assert left == [], f"workers still running after the sweep was killed: {left}"
    assert integrity(db) == "ok" and rows(db) == kept
    resumed = subprocess.run(command(db), capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    total = len(family_graphs(KILL_FAMILY))
    assert summary["already_done"] == kept and summary["computed_now"] == total - kept
    assert integrity(db) == "ok"
    assert table(db) == uninterrupted


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
def test_a_pool_worker_killed_with_sigkill_does_not_hang_the_sweep(tmp_path, uninterrupted):
    """One pool worker killed with SIGKILL once two results are stored must not leave the
    sweep waiting for ever for the task it held: the pool is started again on what was left,
    and the sweep ends (exit 0) with the table of a sweep never interrupted."""
    db = tmp_path / "worker-killed.sqlite"
    process, workers = start_and_wait_for_rows(db, 2)
    try:
        assert process.poll() is None and workers, "the sweep finished before a worker could be killed"
        os.kill(min(workers), signal.SIGKILL)
        code = process.wait(timeout=240)  # a guard against the hang, not a measure of time
    finally:
        tidy(process)
    assert code == 0
    assert integrity(db) == "ok"
    assert table(db) == uninterrupted


@pytest.mark.slow
def test_a_dask_worker_or_the_sweep_killed_with_sigkill_loses_nothing(tmp_path, uninterrupted):
    """On a Dask cluster: one worker killed with SIGKILL once two results are stored, and
    the scheduler runs its tasks on the other (the sweep ends, exit 0, with the table of an
    uninterrupted sweep); then a second sweep itself killed with SIGKILL, and started again
    on the same cluster, computes only what is missing and ends with that table."""
    pytest.importorskip("distributed")
    cluster = DaskCluster(tmp_path)
    try:
        for victim in ("worker", "sweep"):
            db = tmp_path / f"dask-{victim}.sqlite"
            argv = ["going-first-is-good", "--graphs", KILL_FAMILY, "--db", str(db)]
            argv += ["--scheduler", cluster.address, "--json"]
            process = subprocess.Popen(
                [*SWEEP, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
            )
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and process.poll() is None and rows(db) < 2:
                time.sleep(0.05)
            assert process.poll() is None, "the sweep finished before the kill"
            os.kill(cluster.workers[0].pid if victim == "worker" else process.pid, signal.SIGKILL)
            out, err = process.communicate(timeout=240)  # a guard against a hang
            assert integrity(db) == "ok"
            if victim == "sweep":
                at_kill = rows(db)
                resumed = subprocess.run([*SWEEP, *argv], capture_output=True, text=True, timeout=300)
                out, err = resumed.stdout, resumed.stderr
                assert resumed.returncode == 0, err
                assert json.loads(out)["already_done"] == at_kill
            else:
                assert process.returncode == 0, err
            assert integrity(db) == "ok"
            assert table(db) == uninterrupted
    finally:
        cluster.close()


def sweep(argv: list[str], capsys) -> tuple[int, str, str]:
    """``gorules sweep ARGV`` in this process: (exit code, stdout, stderr)."""
    code = main(["sweep", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("family", ["nonsense:3", "paths:1-99999999999", "grids:99x99", "paths:1-20000", "paths:x"])
def test_bad_family_is_refused_before_the_database_is_made(family, tmp_path, capsys):
    """A family that is not one (or too large) gives one line, exit 2, and no results file."""
    db = tmp_path / "new.sqlite"
    code, _, err = sweep(["going-first-is-good", "--graphs", family, "--db", str(db), "--workers", "0"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "family" in err
    assert not db.exists()


def foreign_database(path: Path) -> None:
    """Another program's SQLite database."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('mine')")


def wrong_columns(path: Path) -> None:
    """A database with a results table that is not a sweep's."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE results (x)")


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p.write_bytes(bytes(range(256)) * 20),
        lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000),
        foreign_database,
        wrong_columns,
    ],
    ids=["random-bytes", "broken-header", "foreign", "wrong-columns"],
)
def test_corrupted_database_is_refused_and_left_as_it_was(make, tmp_path, capsys):
    """A corrupted or foreign results file: one line naming it, exit 2, the file unchanged
    (byte for byte) and no journal files left beside it."""
    db = tmp_path / "results.sqlite"
    make(db)
    before = db.read_bytes()
    code, _, err = sweep(["going-first-is-good", "--graphs", "paths:1-2", "--db", str(db), "--workers", "0"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "results.sqlite" in err
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.sqlite"]


def test_conjecture_file_naming_an_unknown_ruleset(tmp_path, capsys):
    """A conjecture over a ruleset that does not exist: one line naming it, exit 2."""
    source = tmp_path / "mine.py"
    source.write_text(
        "from gorules.conjectures import conjecture\n"
        "@conjecture(figures=['boards'], ruleset='no-such-rules')\n"
        "def mine(graph, figures):\n    return True\n"
    )
    code, _, err = sweep(["--conjecture-file", str(source), "--graphs", "paths:1-2", "--workers", "0"], capsys)
    assert code == 2 and "no-such-rules" in err and len(err.strip().splitlines()) == 1


def test_conjecture_whose_predicate_raises_is_unknown_with_why(tmp_path, capsys):
    """A predicate that raises is the user's bug, not a crash: each graph is unknown with the
    exception named, nothing is stored, exit 1."""
    source = tmp_path / "mine.py"
    source.write_text(
        "from gorules.conjectures import conjecture\n"
        "@conjecture(figures=['boards'])\n"
        "def raises(graph, figures):\n    raise RuntimeError('deliberately')\n"
    )
    db = tmp_path / "u.sqlite"
    argv = ["raises", "--conjecture-file", str(source), "--graphs", "paths:1-2", "--db", str(db)]
    code, out, _ = sweep([*argv, "--workers", "0", "--json"], capsys)
    assert code == 1
    summary = json.loads(out)
    assert [u["graph"] for u in summary["unknown"]] == ["path:1", "path:2"]
    assert all("RuntimeError: deliberately" in u["reason"] for u in summary["unknown"])
    assert rows(db) == 0


def test_figure_the_ruleset_lacks_is_refused_before_any_work(tmp_path, capsys):
    """A conjecture asking a Tromp–Taylor figure of another ruleset was refused only once the
    workers ran (after the progress bar, with the database made): now before both."""
    source = tmp_path / "mine.py"
    source.write_text(
        "from gorules.conjectures import conjecture\n"
        "@conjecture(figures=['boards'], ruleset='directed')\n"
        "def mine(graph, figures):\n    return True\n"
    )
    db = tmp_path / "u.sqlite"
    argv = ["--conjecture-file", str(source), "--graphs", "paths:1-2", "--db", str(db), "--workers", "0"]
    code, _, err = sweep(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and "engine capability" in err
    assert not db.exists()
