"""``gorules check-certificate FILE [--expect CLAIM]``: re-verify a solver's certificate with
the spec alone, and say what it proves.

The verdict states the certificate's whole claim: the graph, the ruleset, every option and
the proven bounds (``certificate_check.claim``), so that a certificate valid for other
options than a reader assumes is seen to be about those options.  ``--expect`` compares the
claim with what the reader believes, field by field.

A certificate in lines (format 4, what ``gorules solve --certificate`` writes,
``certificate_lines``) is read a line at a time into arrays and checked there; one of
format 3 (one JSON document) is read whole.  Either is read as strict JSON: ``NaN`` and
``Infinity`` are not numbers, a number of more than 30 digits is refused before it is
converted, and an object naming a field twice is refused (a reader of the file would see
one of the two, the checker the other).

Exit 0 if the certificate is valid (and its claim the expected one), 1 if it is invalid (the
first bad node or field is named) or its claim is not the expected one (each field that
differs is named), 2 if the file cannot be read as a certificate or the expectation is
malformed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from gorules import flags
from gorules.errors import UsageError, shown

LONGEST_NUMBER = 30
"""The most digits a number of a certificate or an expectation may have: node numbers, moves,
bounds and komi are far shorter, and Python's conversion of a long literal is slow, then refused."""
LONG_DIGITS = re.compile(rf"\d{{{LONGEST_NUMBER + 1},}}")
"""A run of more digits than a number may have."""
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
EXPECT_HELP = (
    "the claim the certificate should prove, e.g. 'grid:2x3 tromp-taylor komi=0 value=0': the graph, "
    "the ruleset, any of the options ko=, suicide=, scoring=, komi=, and value=V or lower=L, upper=U; "
    "a field given that differs from the certificate's is exit 1, each named"
)


def register(subparsers) -> None:
    """Add the ``check-certificate`` subcommand."""
    parser = subparsers.add_parser(
        "check-certificate",
        help="re-verify every move and final score of a certificate written by 'gorules solve --certificate' "
        "with the executable spec alone, and state the graph, ruleset, options and value it proves",
    )
    parser.add_argument("file", help="the certificate (in lines, or one JSON document)")
    parser.add_argument("--expect", metavar="CLAIM", default=None, help=EXPECT_HELP)
    flags.add_output(parser, "the verdict")
    parser.set_defaults(func=run)


def literal(text: str) -> str:
    """A number's text, ValueError if it has more than LONGEST_NUMBER digits."""
    digits = sum(c.isdigit() for c in text)
    if digits > LONGEST_NUMBER:
        raise ValueError(f"a number of {digits:,} digits (at most {LONGEST_NUMBER} are read)")
    return text


def real(text: str) -> float:
    """A float literal, ValueError if it is too long or beyond the floats (``1e999``)."""
    value = float(literal(text))
    if value - value != 0:
        raise ValueError(f"{shown(text)} is beyond the floating-point numbers")
    return value


def constant(text: str):
    """``NaN``, ``Infinity`` or ``-Infinity``, which JSON does not have: ValueError."""
    raise ValueError(f"{text} is not a JSON number")


def distinct(pairs: list) -> dict:
    """An object from its fields, ValueError if one is named twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        names = [name for name, _ in pairs]
        twice = next(name for name in names if names.count(name) > 1)
        raise ValueError(f"the field {shown(twice)} is given twice in one object")
    return found


def strict(text: str, number: Callable[[str], int] = lambda text: int(literal(text))):
    """The strict JSON of ``text`` (ValueError otherwise): no ``NaN`` or ``Infinity``, no
    number of more than LONGEST_NUMBER digits, no field named twice in one object;
    ``number`` makes each integer."""
    return json.loads(text, parse_int=number, parse_float=real, parse_constant=constant, object_pairs_hook=distinct)


def strict_line(text: str):
    """The strict JSON of one line of a certificate in lines, as :func:`strict` reads it: a
    line's integers are made by Python's own reader after a search for a run of digits too
    long (the search is much quicker than a conversion called for each integer, and an
    integer is its run of digits)."""
    long = LONG_DIGITS.search(text)
    if long is not None:
        raise ValueError(f"a number of {len(long.group()):,} digits (at most {LONGEST_NUMBER} are read)")
    return json.loads(text, parse_float=real, parse_constant=constant, object_pairs_hook=distinct)


def read(path: Path):
    """The strict JSON of ``path`` (ValueError otherwise), each integer made once: a
    certificate names the same node and key numbers over and over, and shared they take a
    pointer each: less memory for a large certificate, at the price of a slower read
    (docs/solver.md, the 4×4 certificate).  A certificate in lines is read whole too, as the
    document of format 3 with the same content (``certificate_lines.document``)."""
    from gorules.impl.solving.certificate_lines import LONGEST_LINE, Lines, document

    with opened(path) as stream:
        first = stream.readline(LONGEST_LINE + 1)
        if in_lines(first):
            return document(Lines(stream, strict_line, first))
        return whole(first + stream.read())


def in_lines(first: bytes) -> bool:
    """Whether a file's first line is the header of a certificate in lines (format 4)."""
    from gorules.impl.solving.certificate_lines import LONGEST_LINE, is_header

    if not first.endswith(b"\n") or len(first) > LONGEST_LINE:
        return False
    try:
        return is_header(strict_line(first.decode("utf-8")))
    except ValueError:
        return False


@contextlib.contextmanager
def opened(path: Path) -> Iterator[BinaryIO]:
    """The file at ``path`` opened for reading in binary: a regular file, or a pipe or FIFO
    that a writer holds open (``<(zcat cert.json.gz)``, ``/dev/stdin`` fed by a pipe).  A
    FIFO with no writer would block for ever: it is opened without waiting and refused
    (ValueError), as is anything else (a directory, a device, a socket)."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        with open(path, "rb") as stream:
            yield stream
        return
    if not stat.S_ISFIFO(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "neither a regular file nor a pipe"
        raise ValueError(f"it is {kind}: only a file or a pipe is read")
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(descriptor, "rb") as pipe:
        try:
            first = os.read(descriptor, 1 << 16)
        except BlockingIOError:  # a writer holds it open and has written nothing yet
            first = None
        if first == b"":
            raise ValueError("it is a FIFO with no writer (or an empty one): nothing to read")
        os.set_blocking(descriptor, True)
        yield io.BufferedReader(Joined(first or b"", pipe))


class Joined(io.RawIOBase):
    """The bytes already read from a pipe, then the rest of the pipe."""

    def __init__(self, first: bytes, rest):
        """Give ``first``, then what ``rest`` (a binary file) gives."""
        self.first = first
        self.rest = rest

    def readable(self) -> bool:
        """A stream to read."""
        return True

    def readinto(self, buffer) -> int:
        """Fill ``buffer`` from the bytes read first, then from the pipe."""
        if self.first:
            size = min(len(buffer), len(self.first))
            buffer[:size] = self.first[:size]
            self.first = self.first[size:]
            return size
        data = self.rest.read1(len(buffer)) if hasattr(self.rest, "read1") else self.rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def expected_value(name: str, text: str):
    """The value of one field of ``--expect``, as the certificate would hold it; UsageError
    if it is not one the field can have."""
    from gorules import rulesets
    from gorules.spec.graph import GraphError, parse_graph
    from gorules.spec.tromp_taylor import KO_RULES, SCORING_RULES, SUICIDE_RULES

    if name == "graph":
        try:
            return parse_graph(text).name
        except (GraphError, ValueError) as error:
            raise UsageError(f"--expect graph {shown(text)}: {error}") from None
    choices = {"ruleset": rulesets.names(), "ko": KO_RULES, "suicide": SUICIDE_RULES, "scoring": SCORING_RULES}
    if name in choices:
        if text not in choices[name]:
            raise UsageError(f"--expect {name}={shown(text)}: expected one of {', '.join(choices[name])}")
        return text
    try:
        if not NUMBER.fullmatch(text):
            raise ValueError(f"{shown(text)} is not a number")
        return real(text) if set(text) & set(".eE") else int(literal(text))
    except ValueError as error:
        raise UsageError(f"--expect {name}: {error}") from None


def expectation(text: str) -> dict:
    """The fields of ``--expect``: words ``NAME=VALUE`` and at most two bare words, the graph
    then the ruleset; UsageError for an unknown name, a name given twice, a value the field
    cannot have, or no field at all."""
    from gorules.impl.solving.certificate_check import OPTION_NAMES

    known = ("graph", "ruleset", *OPTION_NAMES, "value", "lower", "upper")
    fields: dict = {}
    bare = iter(("graph", "ruleset"))
    for word in text.split():
        name, equals, value = word.partition("=")
        if not equals:
            taken = next(bare, None)
            if taken is None:
                raise UsageError(f"--expect: {shown(word)} is not NAME=VALUE (only the graph and the ruleset go bare)")
            name, value = taken, word
        elif name not in known:
            raise UsageError(f"--expect: unknown field {shown(name)} (known: {', '.join(known)})")
        if name in fields:
            raise UsageError(f"--expect names {name} twice")
        fields[name] = expected_value(name, value)
    if not fields:
        raise UsageError(f"--expect names no field (e.g. --expect {shown('grid:2x3 tromp-taylor komi=0 value=0')})")
    return fields


def differences(expected: dict, data: dict) -> list[dict]:
    """Each field of ``expected`` that the valid certificate ``data`` does not state:
    ``{"field", "expected", "certified"}``, in the order the claim names them; ``value``
    differs unless both bounds are it."""
    from gorules.impl.solving.certificate_check import OPTION_NAMES

    certified = {"graph": data["graph"], "ruleset": data["ruleset"]}
    certified.update((name, data["options"][name]) for name in OPTION_NAMES)
    certified.update(value=[data["lower"], data["upper"]], lower=data["lower"], upper=data["upper"])
    found = []
    for name, wanted in sorted(expected.items(), key=lambda field: list(certified).index(field[0])):
        agrees = data["lower"] == wanted == data["upper"] if name == "value" else certified[name] == wanted
        if not agrees:
            found.append({"field": name, "expected": wanted, "certified": certified[name]})
    return found


def difference_text(difference: dict) -> str:
    """One difference as the verdict says it: ``komi expected 0, certified -10``."""
    from gorules.impl.solving.certificate_check import number_text

    signed = difference["field"] in ("value", "lower", "upper")

    def text(x) -> str:
        if isinstance(x, list):
            lower, upper = x
            return text(lower) if lower == upper else f"[{text(lower)}, {text(upper)}]"
        return number_text(x, signed) if isinstance(x, (int, float)) else str(x)

    return f"{difference['field']} expected {text(difference['expected'])}, certified {text(difference['certified'])}"


def verdict_text(verdict: dict) -> str:
    """The verdict's one line: ``valid: CLAIM, ...``, ``not as expected: ...; the certificate
    proves CLAIM``, or ``invalid: PROBLEM``."""
    if not verdict["valid"]:
        return f"invalid: {verdict['problem']}"
    found = verdict["differences"]
    if found:
        said = "; ".join(difference_text(d) for d in found)
        return f"not as expected: {said}; the certificate proves {verdict['claim']}"
    agreed = ", as expected" if verdict["expected"] is not None else ""
    return (
        f"valid: {verdict['claim']}{agreed}, {verdict['positions']} positions checked with the spec "
        f"in {verdict['seconds']:.2f}s"
    )


def run(args) -> int:
    """Check the certificate, compare its claim with ``--expect``, print the verdict; 0 valid
    (and as expected), 1 invalid or not as expected."""
    from gorules.impl.solving.certificate_check import claim

    expected = None if args.expect is None else expectation(args.expect)
    started = time.perf_counter()
    try:
        data, positions, problem = checked(Path(args.file))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise UsageError(f"cannot read the certificate {args.file}: {error}") from None
    valid = problem is None
    verdict = {
        "file": args.file,
        "valid": valid,
        "problem": problem,
        "claim": claim(data) if valid else None,
        "graph": data["graph"],
        "ruleset": data["ruleset"],
        "options": data["options"],
        "value": data.get("value"),
        "lower": data["lower"],
        "upper": data["upper"],
        "positions": positions,
        "seconds": round(time.perf_counter() - started, 3),
        "expected": expected,
        "differences": differences(expected, data) if valid and expected is not None else [],
    }
    flags.emit(args, verdict, verdict_text(verdict))
    return 0 if valid and not verdict["differences"] else 1


def checked(path: Path) -> tuple[dict, int, str | None]:
    """The certificate's stated fields (its header, for one in lines), its number of
    positions and its first problem (None if valid): a certificate in lines (format 4) read
    a line at a time into compact arrays and checked there, one of format 3 read whole;
    UsageError naming the file if it is not a certificate; OSError, ValueError or
    RecursionError (JSON nested too deep) if it cannot be read."""
    from gorules.impl.solving import certificate_lines
    from gorules.impl.solving.certificate_check import CertificateError, check

    with opened(path) as stream:
        first = stream.readline(certificate_lines.LONGEST_LINE + 1)
        try:
            if in_lines(first):
                return certificate_lines.check(certificate_lines.Lines(stream, strict_line, first))
            data = whole(first + stream.read())
            problem = check(data)  # CertificateError first if the nodes are not a list
            return data, len(data["nodes"]), problem
        except CertificateError as error:
            raise UsageError(f"{path}: {error}") from None


def whole(text: bytes):
    """A certificate of format 3: its strict JSON, each integer made once (:func:`read`)."""
    made: dict = {}

    def number(literal_text: str) -> int:
        found = made.get(literal_text)
        if found is None:
            found = made[literal_text] = int(literal(literal_text))
        return found

    return strict(text.decode("utf-8"), number)
