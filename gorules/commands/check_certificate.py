"""``gorules check-certificate FILE``: re-verify a solver's certificate with the spec alone.

Exit 0 if the certificate is valid, 1 if it is not (the first bad node is named), 2 if the
file cannot be read as a certificate.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from gorules import flags
from gorules.errors import UsageError


def register(subparsers) -> None:
    """Add the ``check-certificate`` subcommand."""
    parser = subparsers.add_parser(
        "check-certificate",
        help="re-verify every move and final score of a certificate written by 'gorules solve --certificate' "
        "with the executable spec alone",
    )
    parser.add_argument("file", help="the certificate (JSON)")
    flags.add_output(parser, "the verdict")
    parser.set_defaults(func=run)


def read(path: Path):
    """The JSON of ``path`` with each integer made once: a certificate names the same node
    and key numbers over and over, and shared they take a pointer each: less memory for a
    large certificate, at the price of a slower read (docs/solver.md, the 4×4 certificate)."""
    made: dict = {}

    def number(text: str) -> int:
        found = made.get(text)
        if found is None:
            found = made[text] = int(text)
        return found

    with path.open(encoding="utf-8") as source:
        return json.load(source, parse_int=number)


def run(args) -> int:
    """Check the certificate and print the verdict; 0 valid, 1 invalid."""
    from gorules.impl.solving.certificate_check import CertificateError, check

    try:
        data = read(Path(args.file))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read the certificate {args.file}: {error}") from None
    started = time.perf_counter()
    try:
        problem = check(data)
    except CertificateError as error:
        raise UsageError(f"{args.file}: {error}") from None
    seconds = time.perf_counter() - started
    verdict = {
        "file": args.file,
        "valid": problem is None,
        "problem": problem,
        "graph": data.get("graph"),
        "options": data.get("options"),
        "lower": data.get("lower"),
        "upper": data.get("upper"),
        "positions": len(data.get("nodes", [])),
        "seconds": round(seconds, 3),
    }
    if problem is None:
        text = (
            f"valid: {data['graph']} value in [{data['lower']:+g}, {data['upper']:+g}] for Black, "
            f"{verdict['positions']} positions checked with the spec in {seconds:.2f}s"
        )
    else:
        text = f"invalid: {problem}"
    flags.emit(args, verdict, text)
    return 0 if problem is None else 1
