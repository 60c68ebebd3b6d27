"""A GTP engine broken on purpose: the ruleset interface's GTP endpoint over a mutant ruleset.

``python -m gorules.impl.differential.mutant_gtp [--broken RULE] [--fault KIND:N]`` speaks
GTP on stdin and stdout like ``gorules gtp``, on 19×19 until told another ``boardsize``,
under the preset told by nothing but the mutant's own options (``tromp-taylor``):

- ``--broken superko`` forgets the ko rule (:class:`~gorules.impl.differential.mutants.SuperkoBlindRuleset`),
  ``--broken suicide`` keeps a stone that removes its own chain
  (:class:`~gorules.impl.differential.mutants.SuicideKeepingRuleset`), ``--broken none`` is
  the spec's ruleset itself;
- ``--fault hang:N`` stops answering, ``crash:N`` exits and ``garble:N`` writes a line that
  is not GTP, at the N-th ``play`` command of the process.

A campaign must catch the broken rule, and report each fault with its command.
"""

from __future__ import annotations

import argparse
import sys
import time

from gorules.impl.differential.mutants import SuicideKeepingRuleset, SuperkoBlindRuleset
from gorules.impl.formats.gtp_server import lines
from gorules.impl.formats.interface import InterfaceEndpoint
from gorules.spec.graph import grid
from gorules.spec.tromp_taylor import TrompTaylor

BROKEN = {"none": TrompTaylor, "superko": SuperkoBlindRuleset, "suicide": SuicideKeepingRuleset}


def misbehave(kind: str) -> None:
    """Hang, crash or write what is not GTP."""
    if kind == "hang":
        while True:
            time.sleep(60)
    if kind == "crash":
        sys.stdout.flush()
        raise SystemExit(3)
    sys.stdout.write("this is not a GTP response\n\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """Serve GTP until ``quit`` or the end of input."""
    parser = argparse.ArgumentParser(prog="python -m gorules.impl.differential.mutant_gtp")
    parser.add_argument("--broken", choices=sorted(BROKEN), default="superko")
    parser.add_argument("--fault", default=None, metavar="KIND:N", help="hang, crash or garble at the N-th play")
    args = parser.parse_args(argv)
    kind, _, count = (args.fault or "").partition(":")
    if args.fault and (kind not in ("hang", "crash", "garble") or not count.isdigit()):
        parser.error("--fault wants hang:N, crash:N or garble:N")
    endpoint = InterfaceEndpoint(BROKEN[args.broken](), grid(19, 19))
    plays = 0
    for line in lines(sys.stdin):
        if line is not None and line.strip().lower().startswith("play"):
            plays += 1
            if kind and plays == int(count):
                misbehave(kind)
                continue
        answer = endpoint.respond(line) if line is not None else "? line too long\n\n"
        if answer is None:
            continue
        sys.stdout.write(answer)
        sys.stdout.flush()
        if endpoint.finished:
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
