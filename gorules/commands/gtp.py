"""``gorules gtp``: a GTP version 2 endpoint on stdin and stdout, for any ruleset.

The ruleset's ``gtp`` capability serves it (Tromp–Taylor: the engine's endpoint); a ruleset
without one whose games are points and passes between Black and White is served through the
ruleset interface (:mod:`gorules.impl.formats.interface`); any other is refused naming the
capability.

With ``--json`` the commands are still read from stdin, and the session is printed once it
ends as one JSON document: each command with its answer and whether it succeeded.
"""

from __future__ import annotations

import re
import sys

from gorules import flags, rulesets
from gorules.errors import UsageError
from gorules.impl.formats.gtp_server import GtpEndpoint, lines
from gorules.spec.api import OptionError, Ruleset
from gorules.spec.graph import Graph, parse_graph


def register(subparsers) -> None:
    """Add the ``gtp`` subcommand."""
    parser = subparsers.add_parser(
        "gtp",
        help="speak GTP version 2 on stdin/stdout (play against GNU Go, GoGui, ...)",
        description="Speak the Go Text Protocol (version 2) on stdin and stdout: "
        "play, undo, showboard and final_score under the chosen rules; genmove "
        "plays a random legal move that does not fill the mover's own eye.",
    )
    flags.add_graph(parser, flag=True, default="grid:19x19", help="the board (default grid:19x19)")
    flags.add_ruleset_flags(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed of genmove's random choices")
    flags.add_output(parser, "the session (each command, its answer, whether it succeeded) once it ends")
    parser.set_defaults(func=run)


def exchange(line: str | None, answer: str) -> dict:
    """One command and its GTP answer as JSON-able data: the command line, whether it
    succeeded (``=``) or failed (``?``), the id it echoes, and the answer's text."""
    body = answer.rstrip("\n")
    match = re.match(r"([=?])([0-9]*) ?", body)
    mark, ident = (match.group(1), match.group(2)) if match else ("?", "")
    return {
        "command": line.strip() if line is not None else None,
        "success": mark == "=",
        "id": ident or None,
        "answer": body[match.end() :] if match else body,
    }


def session(endpoint: GtpEndpoint, source) -> tuple[list[dict], str]:
    """Answer every command of ``source`` until ``quit`` or its end: the exchanges as
    JSON-able data, and the answers as GTP writes them."""
    exchanges, answers = [], []
    for line in lines(source):
        answer = endpoint.respond(line) if line is not None else "? line too long\n\n"
        if answer is None:
            continue
        exchanges.append(exchange(line, answer))
        answers.append(answer)
        if endpoint.finished:
            break
    return exchanges, "".join(answers)


def endpoint_of(ruleset: Ruleset, graph: Graph, seed: int | None) -> GtpEndpoint:
    """The ruleset's own GTP endpoint (its ``gtp`` capability), else the interface's for a
    game of points and passes between Black and White; UsageError naming the capability
    the ruleset lacks otherwise."""
    from gorules.impl.formats import interface

    own = ruleset.capability("gtp")
    if own is not None:
        return own(ruleset, graph, seed)
    problem = interface.unplayable(ruleset, graph)
    if problem is not None:
        raise UsageError(f"gtp is refused: {ruleset.capability_gap('gtp')}, and {problem}")
    return interface.endpoint(ruleset, graph, seed)


def run(args) -> int:
    """Serve GTP until ``quit`` or the end of the input."""
    graph = parse_graph(args.graph)
    try:
        ruleset = rulesets.from_arguments(args)
    except OptionError as error:
        raise UsageError(str(error)) from None
    endpoint = endpoint_of(ruleset, graph, args.seed)
    if not args.json and flags.destination(args) is None:
        endpoint.serve(sys.stdin, sys.stdout)
        return 0
    exchanges, answers = session(endpoint, sys.stdin)
    data = {"graph": graph.name, "ruleset": ruleset.name, "preset": ruleset.preset, "exchanges": exchanges}
    flags.emit(args, data, answers.rstrip("\n"))
    return 0
