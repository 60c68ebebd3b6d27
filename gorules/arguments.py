"""Types of command-line arguments that several subcommands share."""

from __future__ import annotations

import argparse
import math

from gorules.impl.solving.split import MAX_JOBS
from gorules.processes import workers_for


def positive_finite(text: str) -> float:
    """A limit such as a number of seconds or minutes: a finite number above 0 (``nan``,
    ``inf``, 0 and negative numbers are refused while the arguments are read, before any work)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive finite number, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (argparse type): a count or a limit of things, refused at 0 or below before any work."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def worker_count(text: str) -> int:
    """A number of worker processes for a split solve: a whole number from 1 to ``MAX_JOBS``
    (each worker forks the solver with its tables), capped by the machine's cores as every
    worker count is (:func:`gorules.processes.workers_for`): more workers than cores only
    share them, each with its own copy of the solver's arrays."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"expected 1 to {MAX_JOBS} (each worker forks the solver with its tables), got {text!r}"
        )
    return workers_for(value, value)
