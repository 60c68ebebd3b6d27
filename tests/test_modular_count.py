"""The packed count split by modulus (``gorules count --workers/--scheduler/--db``): the same
count as one process and as OEIS A094777, in this process, on a local pool and on a real
Dask cluster with a worker killed with SIGKILL while it holds a task; resumed from the
results database computing only the primes missing; a corrupted stored residue caught by
the check against the extra prime; refusals in one line."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from gorules.cli import main
from gorules.impl.counting.packed import count_legal_grid, primes_for, residues_modulo
from gorules.modular_count import count_by_moduli, moduli_for
from gorules.spec.graph import parse_graph
from gorules.store import Residue, Store
from tests.dask_cluster import DaskCluster
from tests.hostile_inputs import children, still_running
from tests.test_packed_counting import A094777

GORULES = [sys.executable, "-m", "gorules"]
HOLD = Path(__file__).with_name("residue_hold.py")


def run_cli(*argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `gorules`, in this process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def stored(db: Path) -> list[tuple]:
    """The (graph, prime, residue) rows of the residues table, in order."""
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT graph, prime, residue FROM residues ORDER BY graph, prime").fetchall()


def test_the_moduli_are_those_of_the_one_process_count_and_one_more():
    graph = parse_graph("grid:9x9")
    moduli = moduli_for(graph)
    assert moduli.needed == primes_for(graph.order)
    assert moduli.check not in moduli.needed and moduli.primes[-1] == moduli.check


def test_residues_of_a_subset_of_primes_are_those_of_all_together():
    graph = parse_graph("grid:7x7")
    primes = moduli_for(graph).primes
    together, _ = residues_modulo(graph, primes)
    assert [residues_modulo(graph, (p,))[0][0] for p in primes] == together
    assert together == [A094777[6] % p for p in primes]


@pytest.mark.parametrize("name", ["grid:5x5", "grid:6x6", "grid:7x7", "grid:4x9"])
def test_split_count_in_this_process_equals_the_one_process_count(name):
    graph = parse_graph(name)
    found = count_by_moduli(graph, 600.0, workers=0)
    assert found.count() == count_legal_grid(graph)[0]
    assert found.check()["agrees"] and found.missing == [] and found.lost == {}
    assert found.computed == list(found.moduli.primes)


def test_split_count_on_a_local_pool_gives_a094777_and_stores_each_residue_once(tmp_path):
    """Two worker processes; the six-by-six count and each of its primes stored once."""
    db = tmp_path / "residues.sqlite"
    argv = [*GORULES, "count", "grid:6x6", "--workers", "2", "--db", str(db), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["legal_positions"] == A094777[5]
    split = result["split"]
    primes = [*split["moduli"], split["check_prime"]]
    assert split["computed_now"] and sorted(split["computed_now"]) == sorted(primes)
    assert split["check"]["agrees"] and "local pool of 2" in split["on"]
    assert stored(db) == [("grid:6x6", p, A094777[5] % p) for p in sorted(primes)]


def test_resume_computes_only_the_primes_missing(tmp_path):
    """One residue stored beforehand: the count reads it and computes only the others; a
    second run computes nothing."""
    graph = parse_graph("grid:7x7")
    first, *others = moduli_for(graph).primes
    db = tmp_path / "resume.sqlite"
    with Store(db) as store:
        store.record_residue(Residue(graph.name, first, A094777[6] % first, 1.0, 1))
    code, out, _ = run_cli("count", "grid:7x7", "--db", str(db), "--workers", "0", "--json")
    assert code == 0
    split = json.loads(out)["split"]
    assert split["from_database"] == [first] and split["computed_now"] == others
    assert json.loads(out)["legal_positions"] == A094777[6]
    code, out, _ = run_cli("count", "grid:7x7", "--db", str(db), "--scheduler", "tcp://127.0.0.1:9", "--json")
    assert code == 0 and json.loads(out)["split"]["computed_now"] == []  # no cluster reached: nothing to compute
    assert json.loads(out)["legal_positions"] == A094777[6]
    assert len(stored(db)) == 3


@pytest.mark.parametrize("which", [0, 1, 2], ids=["first-needed", "second-needed", "check"])
def test_a_corrupted_stored_residue_is_caught_by_the_check(tmp_path, which):
    """A stored residue changed by one: the check against the extra prime disagrees, no count
    is given, exit 1, and the text says the check failed."""
    db = tmp_path / "corrupt.sqlite"
    assert run_cli("count", "grid:7x7", "--db", str(db), "--workers", "0")[0] == 0
    prime = moduli_for(parse_graph("grid:7x7")).primes[which]
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE residues SET residue = (residue + 1) % prime WHERE prime = ?", (prime,))
    code, out, _ = run_cli("count", "grid:7x7", "--db", str(db), "--workers", "0", "--json")
    result = json.loads(out)
    assert code == 1 and result["legal_positions"] is None
    assert result["split"]["check"]["agrees"] is False and result["split"]["computed_now"] == []
    code, out, _ = run_cli("count", "grid:7x7", "--db", str(db), "--workers", "0")
    assert code == 1 and "check            FAILED" in out and "not known" in out


def test_a_lost_task_leaves_no_count_and_says_which_prime():
    """Tasks that give no residue (their time budget spent): the count is not given, each
    prime is named as lost with why, and the check is not made."""
    graph = parse_graph("grid:6x6")
    found = count_by_moduli(graph, 1e-9, workers=0)
    assert found.count() is None and found.check() is None
    assert sorted(found.lost) == sorted(found.moduli.primes) and "--seconds" in next(iter(found.lost.values()))


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["grid:14x14", "--db", "x.sqlite"], "64-bit word"),
        (["petersen", "--workers", "2"], "--method dp"),
        (["grid:7x7", "--workers", "2", "--method", "dp"], "--method dp"),
        (["grid:12x12", "--workers", "2", "--seconds", "1"], "--seconds"),
        (["grid:6x6", "--workers", "-1"], "--workers"),
        (["grid:6x6", "--db", "."], "--db"),
    ],
)
def test_refusals_are_one_line_exit_2_before_any_file_is_made(argv, word, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("count", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and word in err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_task_over_the_memory_ceiling_is_refused_naming_the_flag(tmp_path):
    """Thirteen by thirteen needs about 6.7 GB a task: under a ceiling of a tenth of a
    machine with less than 30 GB, refused naming gorules --memory-limit."""
    from gorules.cli import machine_memory

    memory = machine_memory()
    if memory is None or memory > 30e9:
        pytest.skip("needs a machine with less than 30 GB")
    argv = [*GORULES, "--memory-limit", "0.1", "count", "grid:13x13", "--workers", "1", "--seconds", "1e6"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "--memory-limit" in done.stderr


class HeldCluster(DaskCluster):
    """A real Dask cluster (``tests/dask_cluster.py``) whose residue tasks wait for a release
    file (``tests/residue_hold.py``, or another preload)."""

    def __init__(self, folder: Path, hold: Path = HOLD):
        super().__init__(folder, hold)

    def kill_and_release(self, pid: int) -> None:
        """Kill the worker ``pid`` (SIGKILL) while it holds its task, then let the others go on."""
        victims = [w for w in self.workers if w.pid == pid]
        assert victims, "the task began on a process that is not a worker of the cluster"
        os.kill(pid, signal.SIGKILL)
        victims[0].wait(timeout=30)
        (self.folder / "release").write_text("")

    def started(self) -> list[tuple[int, int]]:
        """(worker pid, prime) of every task that has begun, in no order."""
        found = []
        for path in self.folder.glob("started-*"):
            _, pid, prime = path.name.split("-")
            found.append((int(pid), int(prime)))
        return found


@pytest.mark.slow
def test_a_dask_worker_killed_while_it_holds_a_task_loses_no_residue(tmp_path):
    """Seven by seven on a real Dask cluster of two workers: once a task has begun, its
    worker is killed with SIGKILL; the scheduler runs the task again on the other worker,
    and the count ends (exit 0) with A094777's value and each prime's residue stored once."""
    pytest.importorskip("distributed")
    cluster = HeldCluster(tmp_path)
    db = tmp_path / "dask.sqlite"
    argv = [*GORULES, "count", "grid:7x7", "--scheduler", cluster.address, "--db", str(db), "--json"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not cluster.started():
            time.sleep(0.05)
        assert cluster.started(), "no residue task began"
        victim, prime = cluster.started()[0]
        cluster.kill_and_release(victim)
        out, err = process.communicate(timeout=240)  # a guard against a hang, not a measure of time
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        cluster.close()
    assert process.returncode == 0, err
    result = json.loads(out)
    assert result["legal_positions"] == A094777[6] and result["split"]["check"]["agrees"]
    survivor = next(w.pid for w in cluster.workers if w.pid != victim)
    assert (survivor, prime) in cluster.started(), "the killed worker's task was not run again on the other"
    primes = moduli_for(parse_graph("grid:7x7")).primes
    assert stored(db) == [("grid:7x7", p, A094777[6] % p) for p in sorted(primes)]
    assert sorted(result["split"]["computed_now"]) == sorted(primes)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")
def test_the_count_killed_with_sigkill_leaves_no_worker_and_resumes_with_the_primes_missing(tmp_path):
    """Nine by nine (four tasks) on a local pool of two workers, the count itself killed with
    SIGKILL once one residue is stored: its workers stop, and the count started again on the
    same database reads the residues stored and computes only the others."""
    db = tmp_path / "killed.sqlite"
    argv = [*GORULES, "count", "grid:9x9", "--workers", "2", "--db", str(db), "--json"]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None and not stored_quietly(db):
            workers |= children(process.pid)
            time.sleep(0.05)
        assert process.poll() is None, "the count finished before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert workers, "the count started no worker processes"
        left = still_running(workers)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert left == [], f"workers still running after the count was killed: {left}"
    at_kill = [prime for _, prime, _ in stored(db)]
    primes = moduli_for(parse_graph("grid:9x9")).primes
    assert 1 <= len(at_kill) < len(primes)
    resumed = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    split = json.loads(resumed.stdout)["split"]
    assert sorted(split["from_database"]) == sorted(at_kill)
    assert sorted(split["computed_now"]) == sorted(set(primes) - set(at_kill))
    assert json.loads(resumed.stdout)["legal_positions"] == A094777[8]
    assert stored(db) == [("grid:9x9", p, A094777[8] % p) for p in sorted(primes)]


def stored_quietly(db: Path) -> list[tuple]:
    """The stored residues, or none while the file is being made."""
    try:
        return stored(db)
    except sqlite3.Error:
        return []


def test_a_sweep_database_takes_residues_and_a_sweep_still_reads_it(tmp_path):
    """The residues go beside a sweep's results in the same file: a count on a sweep's
    database stores them, and a sweep on it afterwards resumes as before."""
    db = tmp_path / "shared.sqlite"
    sweep = ["sweep", "going-first-is-good", "--graphs", "paths:1-2", "--db", str(db), "--workers", "0", "--json"]
    assert run_cli(*sweep)[0] == 0
    code, out, _ = run_cli("count", "grid:6x6", "--db", str(db), "--workers", "0", "--json")
    assert code == 0 and json.loads(out)["legal_positions"] == A094777[5]
    code, out, _ = run_cli(*sweep)
    assert code == 0 and json.loads(out)["already_done"] == 2
    assert len(stored(db)) == 2


def test_another_programs_database_is_refused_by_count_and_left_as_it_was(tmp_path):
    db = tmp_path / "theirs.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = db.read_bytes()
    code, out, err = run_cli("count", "grid:6x6", "--db", str(db), "--workers", "0")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "theirs.sqlite" in err
    assert db.read_bytes() == before


@pytest.mark.slow
def test_each_modulus_in_shards_on_a_real_dask_cluster_is_stored_and_resumed(tmp_path):
    """Seven by seven with each modulus in four shards by ranges of the state hash, every
    shard of every step a task on a local Dask cluster of two worker processes: A094777's
    value, the check agreeing, each residue stored once; a rerun computes nothing."""
    distributed = pytest.importorskip("distributed")
    db = tmp_path / "shards.sqlite"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        argv = ["count", "grid:7x7", "--scheduler", cluster.scheduler_address, "--shards", "4", "--db", str(db)]
        code, out, _ = run_cli(*argv, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["legal_positions"] == A094777[6] and result["split"]["check"]["agrees"]
    assert result["split"]["shards"] == 4 and "4 shards" in result["split"]["on"]
    primes = moduli_for(parse_graph("grid:7x7")).primes
    assert stored(db) == [("grid:7x7", p, A094777[6] % p) for p in sorted(primes)]
    code, out, _ = run_cli("count", "grid:7x7", "--shards", "4", "--scheduler", "tcp://127.0.0.1:9", "--db", str(db))
    assert code == 0 and "from the database" in out and "computed in" not in out


@pytest.mark.parametrize("shards", ["3", "0", "131072"])
def test_shards_not_a_power_of_two_in_range_are_refused(shards):
    code, out, err = run_cli("count", "grid:7x7", "--scheduler", "tcp://127.0.0.1:9", "--shards", shards)
    assert code == 2 and out == "" and "--shards" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_dask_worker_killed_during_a_sharded_modulus_loses_at_most_that_modulus(tmp_path):
    """Seven by seven, each modulus in four shards on a real Dask cluster of two workers, one
    worker killed with SIGKILL while it holds a shard's task on a later row: the count ends
    (exit 0, or 1 naming the moduli lost), each residue it stored is right and stored once,
    and a rerun on the same database computes only the moduli missing and gives A094777's
    value."""
    pytest.importorskip("distributed")
    cluster = HeldCluster(tmp_path, Path(__file__).with_name("shard_hold.py"))
    db = tmp_path / "sharded.sqlite"
    argv = [*GORULES, "count", "grid:7x7", "--scheduler", cluster.address, "--shards", "4", "--db", str(db), "--json"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(tmp_path.glob("started-*")):
            time.sleep(0.05)
        started = sorted(tmp_path.glob("started-*"))
        assert started, "no shard task began"
        victim = int(started[0].name.split("-")[1])
        cluster.kill_and_release(victim)
        out, err = process.communicate(timeout=240)  # a guard against a hang, not a measure of time
        primes = moduli_for(parse_graph("grid:7x7")).primes
        assert process.returncode in (0, 1), err
        split = json.loads(out)["split"]
        assert sorted(split["computed_now"] + [lost["prime"] for lost in split["lost"]]) == sorted(primes)
        assert all(residue == A094777[6] % prime for _, prime, residue in stored(db))
        rerun = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        cluster.close()
    assert rerun.returncode == 0, rerun.stderr
    result = json.loads(rerun.stdout)
    assert sorted(result["split"]["computed_now"]) == sorted(lost["prime"] for lost in split["lost"])
    assert result["legal_positions"] == A094777[6] and result["split"]["check"]["agrees"]
    assert stored(db) == [("grid:7x7", p, A094777[6] % p) for p in sorted(primes)]
