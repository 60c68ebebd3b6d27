"""Types of command-line arguments that several subcommands share."""

from __future__ import annotations

import argparse
import math


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
