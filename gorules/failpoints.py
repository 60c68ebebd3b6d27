"""Faults injected at named points of the code, so that a test can kill a command exactly
where a write is half done instead of racing a timer against it.

``GORULES_FAILPOINT=NAME:N`` makes the process kill itself with SIGKILL (no handler, no
clean-up runs, as when the machine or a batch system kills it) the N-th time it reaches the
point ``NAME`` (N is 1 if left out).  Unset, as it always is in use, reaching a point costs
one look at the environment.  The points:

- ``store-insert``: a sweep's result row written into the results file, its transaction
  not yet committed (:meth:`gorules.store.Store.record`);
- ``store-commit``: that transaction committed, the sweep not yet told.
"""

from __future__ import annotations

import os
import signal

VARIABLE = "GORULES_FAILPOINT"
POINTS = ("store-insert", "store-commit")
passes: dict[str, int] = {}


def reached(point: str) -> None:
    """Count a pass through ``point``; kill this process if the environment names this pass."""
    wanted = os.environ.get(VARIABLE)
    if not wanted:
        return
    name, _, nth = wanted.partition(":")
    if name != point:
        return
    passes[point] = passes.get(point, 0) + 1
    if passes[point] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
