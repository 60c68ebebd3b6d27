"""``gorules gtp``: the engine as a GTP version 2 endpoint on stdin and stdout."""

from __future__ import annotations

import sys

from gorules.errors import UsageError
from gorules.impl.engine.options import OptionError
from gorules.impl.formats.gtp_server import GtpEndpoint
from gorules.spec.graph import parse_graph


def register(subparsers) -> None:
    """Add the ``gtp`` subcommand."""
    parser = subparsers.add_parser(
        "gtp",
        help="speak GTP version 2 on stdin/stdout (play against GNU Go, GoGui, ...)",
        description="Speak the Go Text Protocol (version 2) on stdin and stdout: "
        "play, undo, showboard and final_score under the chosen rules; genmove "
        "plays a random legal move that does not fill the mover's own eye.",
    )
    parser.add_argument("--graph", default="grid:19x19", help="the board (default grid:19x19)")
    parser.add_argument(
        "--preset",
        "--rules",
        dest="preset",
        default="tromp-taylor",
        help="a Tromp–Taylor preset (default tromp-taylor)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of genmove's random choices")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Serve GTP until ``quit`` or the end of the input."""
    graph = parse_graph(args.graph)
    try:
        endpoint = GtpEndpoint(graph, args.preset, args.seed)
    except OptionError as error:
        raise UsageError(str(error)) from None
    endpoint.serve(sys.stdin, sys.stdout)
    return 0
