"""Pool workers that end with the process that started them.

A worker computing inside compiled code (numba, Z3, a SAT solver) never lets a Python
thread run, and a parent killed with SIGKILL runs no clean-up: without help such a worker
goes on computing for nobody.  This module imports nothing of the project, so that every
layer (the application's sweeps, the proofs' pools of cubes) can start its workers with
:func:`die_with_parent`.
"""

from __future__ import annotations

import os
import sys
import threading
import time

WATCH_SECONDS = 0.2


def workers_for(asked: int | None, work: int) -> int:
    """How many workers to start for ``work`` tasks when ``asked`` for (None: as many as the
    machine has cores): never more than the tasks nor than the cores, and at least one.
    More workers than cores only share them, and a million would never all start."""
    cores = os.cpu_count() or 1
    return max(1, min(cores if asked is None else asked, work, cores))


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process receives when its parent dies


def ask_kernel_for_death_signal() -> None:
    """On Linux, have the kernel send this process SIGKILL when its parent dies, even while
    it computes inside compiled code that never lets a Python thread run."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watchdog thread below still ends the worker


def leave_signals_to_parent() -> None:
    """A worker ignores Ctrl-C (SIGINT reaches the whole process group; the parent stops the
    pool) and ends at once on SIGTERM or SIGHUP, whatever handlers it inherited by fork: no
    worker prints a traceback of an interruption."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


def die_with_parent() -> None:
    """Run in each pool worker as it starts: the kernel's death signal (on Linux) and a
    daemon thread end the worker as soon as the process that started it is gone (killed
    with SIGKILL, say, which no handler sees), so no worker is left behind computing for
    nobody."""
    parent = os.getppid()
    leave_signals_to_parent()
    ask_kernel_for_death_signal()
    if os.getppid() != parent:  # the parent died before the death signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
