"""The ``gorules`` command: discovers the subcommands in ``gorules.commands`` and runs one.

Bad input of any kind (a malformed graph, an unknown point, an illegal move, a broken
SGF) ends with one line on stderr naming the problem and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import gorules.commands
from gorules.errors import UsageError
from gorules.spec.api import IllegalMove, OptionError
from gorules.spec.graph import GraphError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per module of ``gorules.commands``."""
    parser = argparse.ArgumentParser(
        prog="gorules",
        description="A formal-methods toolkit for the rules of Go on arbitrary graphs.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in sorted(pkgutil.iter_modules(gorules.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"gorules.commands.{module.name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``gorules`` with the given arguments; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (UsageError, GraphError, OptionError, IllegalMove) as error:
        print(f"gorules {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``gorules ... | head``): stop quietly, as Unix tools do
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
