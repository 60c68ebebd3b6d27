"""A Dask worker preload for the kill test of the sharded count: the first shard step a
worker runs on a later row writes ``started-PID`` into the folder named by
``GORULES_HOLD_FOLDER``, then waits until a file ``release`` is there, so that a test kills a
worker while it certainly holds a shard's task part way through a modulus.

The client sends the shard step by its name, ``gorules.impl.counting.sharded.shard_step``,
and a worker looks that name up when it unpickles a task: the function set here is the one
it runs.  Dask may import a preload twice: the function held is the true one either way."""

from __future__ import annotations

import os
import time
from pathlib import Path

from gorules.impl.counting import sharded

FOLDER = Path(os.environ["GORULES_HOLD_FOLDER"])
computed = getattr(sharded.shard_step, "__wrapped__", sharded.shard_step)
held_once = []


def held(pieces, width, column, above, primes, bits):
    """Hold the first step of a later row this worker runs until the release, then compute it."""
    if above and not held_once:
        held_once.append(True)
        (FOLDER / f"started-{os.getpid()}").write_text("")
        while not (FOLDER / "release").exists():
            time.sleep(0.05)
    return computed(pieces, width, column, above, primes, bits)


held.__wrapped__ = computed  # type: ignore[attr-defined]
sharded.shard_step = held  # type: ignore[assignment]
