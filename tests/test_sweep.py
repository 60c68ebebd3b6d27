"""Sweeps: families, the store, a local pool, a real local Dask cluster, a real kill and resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from gorules.conjectures import built_in, find_conjecture
from gorules.errors import UsageError
from gorules.store import Row, Store
from gorules.sweep import family_graphs, run_sweep

FAST_FAMILY = "paths:1-5+cycles:3-4+stars:1-3"
SWEEP = [sys.executable, "-m", "gorules", "sweep"]  # the sweep command in a fresh process
KILL_FAMILY = "paths:1-6+cycles:3-6+graph:atlas:44+graph:atlas:46+graph:atlas:48+graph:atlas:49"


def table(path):
    """{graph: (figures JSON, holds)} of a results file."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT graph, figures, holds FROM results").fetchall()
    graphs = [g for g, _, _ in rows]
    assert len(graphs) == len(set(graphs)), "a graph was recorded twice"
    return {g: (f, h) for g, f, h in rows}


def test_families():
    assert family_graphs("paths:3") == ["path:1", "path:2", "path:3"]
    assert family_graphs("grids:2x4") == [
        "grid:1x1",
        "grid:1x2",
        "grid:1x3",
        "grid:1x4",
        "grid:2x2",
        "grid:2x3",
        "grid:2x4",
    ]
    assert family_graphs("pairs:2") == ["edges:0-1", "edges:0-1,2-3"]
    # connected graphs on 1..4 points: 1 + 1 + 2 + 6
    assert len(family_graphs("atlas-connected:4")) == 10
    with pytest.raises(UsageError):
        family_graphs("hypercubes:3")


def test_store_keeps_one_row_per_graph(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        row = Row("c", "tromp-taylor", "path:2", "paths:2", {"value": {"value": 0}}, True, 0.1)
        assert store.record(row) is True
        assert store.record(row) is False
        assert store.count() == 1
        assert store.done("c", "tromp-taylor") == {"path:2"}


def test_local_pool_equals_in_process(tmp_path):
    conjecture = built_in("going-first-is-good")
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        serial = run_sweep(conjecture, FAST_FAMILY, a, workers=0, progress=False)
        pooled = run_sweep(conjecture, FAST_FAMILY, b, workers=2, progress=False)
    assert [(r.graph, r.figures) for r in serial.rows] == [(r.graph, r.figures) for r in pooled.rows]
    values = {r.graph: r.figures["value"]["value"] for r in serial.rows}
    assert values["path:3"] == 3 and values["path:4"] == 4
    assert not serial.counterexamples


def test_real_local_dask_cluster(tmp_path):
    from distributed import LocalCluster

    conjecture = built_in("going-first-is-good")
    with Store(tmp_path / "local.sqlite") as store:
        local = run_sweep(conjecture, FAST_FAMILY, store, workers=0, progress=False)
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        with Store(tmp_path / "dask.sqlite") as store:
            remote = run_sweep(conjecture, FAST_FAMILY, store, scheduler=cluster.scheduler_address, progress=False)
    assert table(tmp_path / "dask.sqlite") == table(tmp_path / "local.sqlite")
    assert remote.computed == len(family_graphs(FAST_FAMILY)) == len(local.rows)


@pytest.mark.slow
def test_killed_sweep_resumes_without_loss_or_duplicates(tmp_path):
    killed_db = tmp_path / "killed.sqlite"
    command = [
        *SWEEP,
        "going-first-is-good",
        "--graphs",
        KILL_FAMILY,
        "--db",
        str(killed_db),
        "--workers",
        "1",
        "--json",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    rows_at_kill = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if killed_db.exists():
                try:
                    with sqlite3.connect(killed_db) as connection:
                        rows_at_kill = connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                except sqlite3.OperationalError:
                    rows_at_kill = 0
                if rows_at_kill >= 2:
                    break
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    total = len(family_graphs(KILL_FAMILY))
    assert process.returncode == -signal.SIGKILL, "the sweep was killed, not finished"
    assert 2 <= rows_at_kill < total
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["already_done"] >= 2 and summary["computed_now"] + summary["already_done"] == total
    whole_db = tmp_path / "whole.sqlite"
    with Store(whole_db) as store:
        run_sweep(built_in("going-first-is-good"), KILL_FAMILY, store, workers=0, progress=False)
    assert table(killed_db) == table(whole_db)
    assert len(table(killed_db)) == total


def test_user_conjecture_file_finds_counterexamples(tmp_path):
    source = tmp_path / "mine.py"
    source.write_text(
        "from gorules.conjectures import conjecture\n\n"
        "@conjecture(figures=['value'], rules='tromp-taylor')\n"
        "def black_wins(graph, figures):\n"
        "    'Black wins every path outright.'\n"
        "    return figures['value']['value'] > 0\n"
    )
    done = subprocess.run(
        [
            *SWEEP,
            "black-wins",
            "--conjecture-file",
            str(source),
            "--graphs",
            "paths:1-4",
            "--db",
            str(tmp_path / "u.sqlite"),
            "--workers",
            "0",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert summary["counterexamples"] == ["path:1", "path:2"]
    found = find_conjecture("black-wins", source)
    assert (found.ruleset, found.preset) == ("tromp-taylor", "tromp-taylor")


def test_well_formed_boards_are_the_boards_of_games(tmp_path):
    with Store(tmp_path / "w.sqlite") as store:
        summary = run_sweep(built_in("well-formed-iff-occurs"), "grids:2x2", store, workers=0, progress=False)
    counts = {r.graph: r.figures["boards"]["well_formed"] for r in summary.rows}
    assert counts == {"grid:1x1": 1, "grid:1x2": 5, "grid:2x2": 57}  # figures.md
    assert not summary.counterexamples


def test_cli_sweep_bad_family_is_one_line(tmp_path):
    done = subprocess.run(
        [
            *SWEEP,
            "going-first-is-good",
            "--graphs",
            "blobs:3",
            "--db",
            str(tmp_path / "x.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "blobs:3" in done.stderr


def test_a_graph_out_of_reach_is_unknown_and_retried(tmp_path, monkeypatch):
    """A spent node budget makes a graph unknown: reported, not stored, tried again next run."""
    import gorules.conjectures

    monkeypatch.setattr(gorules.conjectures, "SOLVE_NODE_BUDGET", 200)
    with Store(tmp_path / "u.sqlite") as store:
        first = run_sweep(built_in("going-first-is-good"), "paths:1-6", store, workers=0, progress=False)
        assert [g for g, _ in first.unknown] == ["path:5", "path:6"]
        assert "node budget" in first.unknown[0][1]
        assert [r.graph for r in first.rows] == [f"path:{n}" for n in range(1, 5)]
        monkeypatch.setattr(gorules.conjectures, "SOLVE_NODE_BUDGET", 10**7)
        second = run_sweep(built_in("going-first-is-good"), "paths:1-6", store, workers=0, progress=False)
    assert second.unknown == [] and second.computed == 2 and second.skipped == 4
