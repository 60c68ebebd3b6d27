"""A threshold test split over a real Dask cluster (``impl/solving/split_dask.py``) against the plain solve.

The cluster is real (``tests/dask_cluster.py``: a scheduler and two workers as processes, no
nannies).  With the split forced on every test (``split_after`` 0, no first probe) and leaves
of 256 nodes expanded after four times that, the value is the one-process solve's on 1×8 and
2×4 under positional and situational superko; a worker killed with SIGKILL in the middle of a
split solve of 1×8 loses nothing (the value is right, the leaves go on being answered by the
other worker); a pool that flips the answers it sends back is caught by the one-process
value; an unreachable scheduler is one line and exit 2."""

from __future__ import annotations

import json
import os
import signal

import pytest

from gorules.impl.solving import solve, split_dask
from gorules.impl.solving.solve import Solver
from gorules.spec.graph import parse_graph
from tests.dask_cluster import DaskCluster
from tests.test_solve_cli import run_cli
from tests.test_solve_reference import RULES

LEAF = 256


def started(folder) -> DaskCluster:
    """A Dask scheduler and two workers, both joined."""
    from distributed import Client

    running = DaskCluster(folder)
    with Client(running.address, timeout=20) as client:
        client.wait_for_workers(2, timeout=60)
    return running


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A Dask scheduler and two workers for the tests of this file; killed afterwards."""
    running = started(tmp_path_factory.mktemp("dask"))
    yield running
    running.close()


def dask_solver(graph: str, preset: str, address: str, progress=None) -> Solver:
    """A df-pn solver of ``graph`` that splits every test at once over the Dask cluster at
    ``address``, without the first guess's probe, leaves of ``LEAF`` nodes at first."""
    solver = Solver(parse_graph(graph), RULES[preset], search="dfpn", scheduler=address, progress=progress)
    solver.split_after, solver.split_first, solver.split_expand = 0, LEAF, 4 * LEAF
    solver.probe_nodes = 0
    return solver


def plain_value(graph: str, preset: str) -> int:
    """The raw value of the df-pn solve in one process."""
    return Solver(parse_graph(graph), RULES[preset], search="dfpn").solve().raw_value


@pytest.mark.parametrize(
    "graph, preset", [("path:8", "tromp-taylor"), ("grid:2x4", "tromp-taylor"), ("grid:2x4", "situational")]
)
def test_the_dask_split_solve_equals_the_plain_one(cluster, graph, preset):
    """Every test split over the cluster's two workers: the one-process value, the tests
    split with leaves searched on the cluster."""
    solver = dask_solver(graph, preset, cluster.address)
    assert solver.solve().raw_value == plain_value(graph, preset)
    assert solver.jobs == 2 and solver.splits
    assert sum(split["leaves"] for split in solver.splits) > 0


@pytest.mark.slow
def test_the_dask_split_solve_equals_the_plain_one_under_situational_superko_on_path_8(cluster):
    """1×8 under situational superko, split over the cluster, its trees several plies deep."""
    solver = dask_solver("path:8", "situational", cluster.address)
    assert solver.solve().raw_value == plain_value("path:8", "situational") == 3
    assert max(split["depth"] for split in solver.splits) >= 3


class Killer:
    """A progress callback that kills one of the cluster's workers (SIGKILL) once the split
    leaves have taken ``after`` nodes, and counts the nodes answered after that."""

    def __init__(self, cluster: DaskCluster, after: int):
        self.cluster = cluster
        self.after = after
        self.victim: int | None = None
        self.nodes_at_kill = 0

    def __call__(self, solver) -> None:
        leaves = sum(split.nodes for split in solver.split_trees.values())
        if self.victim is None and leaves >= self.after:
            self.victim = self.cluster.workers[0].pid
            os.kill(self.victim, signal.SIGKILL)
            self.cluster.workers[0].wait(timeout=30)
            self.nodes_at_kill = leaves


def test_a_worker_killed_mid_solve_loses_nothing(tmp_path):
    """1×8 under positional superko on a cluster of its own: once the split leaves have taken
    2,000 nodes a worker is killed with SIGKILL; its task is run again by the scheduler on
    the other worker, the solve finishes there with the one-process value, and the leaves
    answered after the kill took nodes."""
    own = started(tmp_path)
    try:
        killer = Killer(own, 2_000)
        solver = dask_solver("path:8", "tromp-taylor", own.address, progress=killer)
        value = solver.solve().raw_value
        assert killer.victim is not None, "no worker was killed: the solve ended first"
        leaves = sum(split["nodes"] for split in solver.splits)
        assert leaves > killer.nodes_at_kill
        from distributed import Client

        with Client(own.address, timeout=20) as client:
            assert len(client.scheduler_info()["workers"]) == 1
    finally:
        own.close()
    assert value == plain_value("path:8", "tromp-taylor")


class FlippingPool(split_dask.DaskPool):
    """A mutant pool: every decided leaf's answer sent back turned round."""

    def answers(self, busy: list, seconds: float) -> list:
        """The cluster's replies, each decided answer negated."""
        flipped = []
        for index, reply in super().answers(busy, seconds):
            if reply is not None:
                answer, nodes, numbers = reply
                reply = (-answer, nodes, numbers)
            flipped.append((index, reply))
        return flipped


def test_a_pool_that_flips_its_answers_is_caught(cluster, monkeypatch):
    """With the leaves' answers turned round the split solve of 1×8 does not give the
    one-process value (or finds itself inconsistent): the answers are used as they come."""
    monkeypatch.setattr(solve, "DaskPool", FlippingPool)
    try:
        value = dask_solver("path:8", "tromp-taylor", cluster.address).solve().raw_value
    except AssertionError:
        value = None
    assert value != plain_value("path:8", "tromp-taylor")


def test_the_cli_runs_on_the_cluster_and_says_so(cluster):
    """``gorules solve grid:2x3 --scheduler ADDRESS``: exact, the JSON names the scheduler
    and its workers' threads, the text says where the split tests ran."""
    code, out, err = run_cli("solve", "grid:2x3", "--scheduler", cluster.address, "--json", "--no-progress")
    assert code == 0, err
    result = json.loads(out)
    assert result["status"] == "exact" and result["scheduler"] == cluster.address and result["jobs"] == 2
    code, out, err = run_cli("solve", "grid:2x3", "--scheduler", cluster.address, "--no-progress")
    assert code == 0, err
    assert f"split tests: on the Dask cluster at {cluster.address} (2 worker threads)" in out


@pytest.mark.parametrize(
    "argv, word",
    [
        (["--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
        (["--scheduler", "tcp://127.0.0.1:9", "--jobs", "2"], "--jobs and --scheduler"),
    ],
)
def test_an_unreachable_scheduler_is_one_line_and_exit_2(argv, word):
    """A scheduler that does not answer, or ``--jobs`` with ``--scheduler``: one line naming
    it, exit 2, no traceback, nothing on stdout."""
    code, out, err = run_cli("solve", "path:4", *argv, "--json")
    assert code == 2 and out == ""
    assert word in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
