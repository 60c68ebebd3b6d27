"""A Dask worker preload for the kill tests of the count split by modulus: every residue task
first writes ``started-PID-PRIME`` into the folder named by ``GORULES_HOLD_FOLDER``, then waits
until a file ``release`` is there, so that a test kills a worker while it certainly holds a
task, and lets the tasks finish when it chooses.

The client sends the task function by its name, ``gorules.modular_count.residue_task``, and a
worker looks that name up when it unpickles a task: the function set here is the one it runs.
Dask may import a preload twice (once from a copy in its scratch folder): the function held
is the true one either way."""

from __future__ import annotations

import os
import time
from pathlib import Path

from gorules import modular_count

FOLDER = Path(os.environ["GORULES_HOLD_FOLDER"])
computed = getattr(modular_count.residue_task, "__wrapped__", modular_count.residue_task)


def held(task: modular_count.Task) -> modular_count.Outcome:
    """Say that the task started, on which worker, wait for the release, then compute it."""
    (FOLDER / f"started-{os.getpid()}-{task.prime}").write_text("")
    while not (FOLDER / "release").exists():
        time.sleep(0.05)
    return computed(task)


held.__wrapped__ = computed  # type: ignore[attr-defined]
modular_count.residue_task = held  # type: ignore[assignment]
