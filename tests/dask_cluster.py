"""A real Dask cluster for the tests: a scheduler and two workers as processes of this machine.

The workers run without nannies, so that a worker a test kills stays dead, and each process
is in a process group of its own, so that closing the cluster kills whatever it started.
With a ``preload`` (a module the workers load first, such as ``tests/residue_hold.py``), the
processes are told the folder where such a module holds its tasks (``GORULES_HOLD_FOLDER``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent


class DaskCluster:
    """A Dask scheduler and two workers, started at once; ``address`` is the scheduler's."""

    def __init__(self, folder: Path, preload: Path | None = None):
        """Start the scheduler, read its address from its scheduler file, start the workers."""
        self.folder = folder
        self.preload = preload
        scheduler = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--scheduler-file"]
        scheduler += [str(folder / "scheduler.json"), "--port", "0", "--no-dashboard", "--host", "127.0.0.1"]
        self.processes = [self.start(scheduler)]
        self.address = self.read_address(folder / "scheduler.json")
        worker = [sys.executable, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1"]
        worker += ["--no-nanny", "--no-dashboard", "--host", "127.0.0.1"]
        if preload is not None:
            worker += ["--preload", str(preload)]
        self.workers = [self.start(worker) for _ in range(2)]
        self.processes += self.workers

    def start(self, argv: list[str]) -> subprocess.Popen:
        """A process of the cluster, its output discarded (told where to hold its tasks, with a preload)."""
        environment = dict(os.environ)
        if self.preload is not None:
            environment["GORULES_HOLD_FOLDER"] = str(self.folder)
            environment["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(TESTS.parent), environment.get("PYTHONPATH")])
            )
        return subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=environment
        )

    @staticmethod
    def read_address(path: Path) -> str:
        """The scheduler's address, once its file is written whole."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                return json.loads(path.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        raise RuntimeError("the Dask scheduler did not start")

    def close(self) -> None:
        """Kill every process of the cluster."""
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
