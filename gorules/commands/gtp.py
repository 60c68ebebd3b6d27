"""``gorules gtp``: the engine as a GTP version 2 endpoint on stdin and stdout.

With ``--json`` the commands are still read from stdin, and the session is printed once it
ends as one JSON document: each command with its answer and whether it succeeded.
"""

from __future__ import annotations

import re
import sys

from gorules import flags
from gorules.errors import UsageError
from gorules.impl.engine.options import OptionError
from gorules.impl.formats.gtp_server import GtpEndpoint, lines
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
    flags.add_graph(parser, flag=True, default="grid:19x19", help="the board (default grid:19x19)")
    flags.add_preset(parser, default="tromp-taylor", help="a Tromp–Taylor preset")
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


def run(args) -> int:
    """Serve GTP until ``quit`` or the end of the input."""
    graph = parse_graph(args.graph)
    try:
        endpoint = GtpEndpoint(graph, args.preset, args.seed)
    except OptionError as error:
        raise UsageError(str(error)) from None
    if not args.json and flags.destination(args) is None:
        endpoint.serve(sys.stdin, sys.stdout)
        return 0
    exchanges, answers = session(endpoint, sys.stdin)
    flags.emit(args, {"graph": graph.name, "preset": args.preset, "exchanges": exchanges}, answers.rstrip("\n"))
    return 0
