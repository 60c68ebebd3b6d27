"""Docstrings and comments say what the code does and why: no measurements, no history.

A timing, a node count or a memory figure in a docstring goes stale without a word when the
code or the machine changes, and nothing shows which command produced it; so figures live
in ``docs/`` and ``benchmarks/README.md``, beside the command that reproduces them, and the
code's prose may only point there ("measured faster; see docs/solver.md, ...").  Likewise a
docstring says what holds, not what the code once did.

The scan reads every docstring (``ast``: module, class and function docstrings, and the bare
strings that document an attribute) and every comment (``tokenize``) of the Python code in
``impl/``, ``spec/``, ``proofs/``, ``gorules/`` and ``benchmarks/``.  Inline code (````...````)
is left out of the prose: it names things or shows an output's form.  ``tests/`` is not
scanned: a test's docstring states the budgets it runs under and the figures it asserts,
which are its parameters and its claims, not measurements of the code.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("impl", "spec", "proofs", "gorules", "benchmarks")

_NUMBER = r"\d[\d,]*(?:\.\d+)?"
MEASUREMENTS = {
    "a time": rf"\b{_NUMBER}\s*(?:µs|us|ms|s|secs?|seconds?|mins?|minutes?|h|hours?)\b",
    "a memory size": rf"\b{_NUMBER}\s*(?:[KMGT]i?B|kB|bytes)\b",
    "a count in millions or thousands": rf"\b{_NUMBER}\s*(?:[kKM]|million|thousand)\s+(?:nodes|keys|positions|states)\b",
    "an abbreviated count": r"\b\d+(?:\.\d+)?\s*M\b",
    "a node count": r"\b\d{1,3}(?:,\d{3})+\s+(?:nodes|keys|states|positions|solver nodes)\b",
    "nodes in a figure": r"\bnodes in (?:about |under )?\d",
    "a rate": rf"\b{_NUMBER}\s*(?:nodes|moves|playouts)\s*(?:/s|per second|a second)\b",
    "a measured ratio": r"\b\d+\.\d+\s*×|\b\d+(?:\.\d+)?\s*(?:×|x|times)\s+(?:faster|slower)\b|\bten times faster\b",
    "a percentage": r"\b\d+(?:\.\d+)?\s?%",
}
HISTORY = {
    "was once": r"\b(?:was|were) once\b|\bonce was\b",
    "used to": r"\bused to\b",
    "before or after the fix": r"\b(?:before|after|since) the fix\b",
    "no longer": r"\bno longer\b",
    "previously": r"\bpreviously\b|\bformerly\b",
    "anymore": r"\banymore\b",
    "is now": r"\b(?:is|are) now\b",
    "now does": r"\bnow (?:takes|uses|keeps|asks|runs|gives|empties|splits|solves|checks)\b",
    "a commit": r"\b(?:at|since|before) [0-9a-f]{7}\b",
}

ALLOWED = [
    (
        "benchmarks/bench_proofs.py",
        "within 60 s",
        "the --largest option's time limit per size, a parameter of the benchmark",
    ),
    (
        "benchmarks/hostile_campaign.py",
        "running 10 s after the kill",
        "how long the campaign waits before it counts the workers left, a parameter",
    ),
]
"""(path, phrase, why) for prose that matches a pattern without being a measurement or
history; a finding is allowed when its line holds the phrase."""


def _is_docstring_holder(node: ast.AST) -> bool:
    return isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))


def prose(source: str) -> list[tuple[int, str, str]]:
    """(line, kind, text) for each line of each docstring and comment of ``source``: kind is
    ``docstring`` (module, class, function, or the bare string after an assignment that
    documents it) or ``comment``."""
    found: list[tuple[int, str, str]] = []
    tree = ast.parse(source)
    strings: list[ast.Expr] = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for index, statement in enumerate(body):
                is_string = (
                    isinstance(statement, ast.Expr)
                    and isinstance(statement.value, ast.Constant)
                    and isinstance(statement.value.value, str)
                )
                if is_string and (index > 0 or (field == "body" and _is_docstring_holder(node))):
                    strings.append(statement)
    for statement in strings:
        assert isinstance(statement.value, ast.Constant)
        for offset, line in enumerate(statement.value.value.splitlines()):
            found.append((statement.lineno + offset, "docstring", line))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], "comment", token.string.lstrip("#").strip()))
    return sorted(found)


def findings(source: str, path: str = "<planted>") -> list[str]:
    """Every line of the docstrings and comments of ``source`` that carries a measurement or
    tells history, not allowed by ``ALLOWED``, as ``path:line: kind, what: text``."""
    allowed = [phrase for where, phrase, _ in ALLOWED if where == path]
    out = []
    for line, kind, text in prose(source):
        plain = re.sub(r"``[^`]*``", "``…``", text)
        for what, pattern in {**MEASUREMENTS, **HISTORY}.items():
            if re.search(pattern, plain, re.IGNORECASE if what in HISTORY else 0):
                if not any(phrase in text for phrase in allowed):
                    out.append(f"{path}:{line}: {kind}, {what}: {text.strip()}")
                break
    return out


def python_files() -> list[Path]:
    """The project's Python files that the scan reads."""
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def test_the_scan_reads_the_project():
    """The scan reaches the code (a scan of nothing would pass)."""
    files = python_files()
    assert len(files) > 100
    assert any(path.name == "solve.py" and path.parent.name == "solving" for path in files)
    source = (ROOT / "impl" / "solving" / "solve.py").read_text()
    kinds = {kind for _, kind, _ in prose(source)}
    assert kinds == {"docstring", "comment"}


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_measurement_or_history_in_prose(path: Path):
    """No docstring or comment of the file carries a timing, a node count, a memory figure,
    a measured ratio, or tells the code's history."""
    relative = str(path.relative_to(ROOT))
    assert findings(path.read_text(), relative) == []


def test_every_allowance_is_used():
    """Each allowance names a phrase still in its file's prose, so that the list stays small."""
    for where, phrase, why in ALLOWED:
        assert why
        texts = [text for _, _, text in prose((ROOT / where).read_text())]
        assert any(phrase in text for text in texts), (where, phrase)


PLANTED = [
    ('X = 1\n"""Set so: 1×8 solved in 9.4 s."""\n', "a time"),
    ("def f():\n    '''The table, 1.9 GB on 1×12.'''\n", "a memory size"),
    ('"""Module.\n\natlas:199 open after 60 M nodes."""\n', "a count in millions or thousands"),
    ("class C:\n    '''Solved in 1,831,687 nodes.'''\n", "a node count"),
    ("y = 2  # 14.1 M every 2^20\n", "an abbreviated count"),
    ("z = 3  # 3.2× faster than the Python core\n", "a measured ratio"),
    ("w = 4  # 55% of the samples fell there\n", "a percentage"),
    ('def g():\n    """The writer now takes the held move."""\n', "now does"),
    ("v = 5  # this was once refused\n", "was once"),
    ('"""Module."""\n# before the fix the workers wrote into one table\n', "before or after the fix"),
]


@pytest.mark.parametrize(("source", "what"), PLANTED)
def test_a_planted_figure_or_history_is_flagged(source: str, what: str):
    """The mutant check: a docstring or comment planted with a measurement or a piece of
    history is flagged, under the pattern that names it."""
    found = findings(source)
    assert len(found) == 1, found
    assert f", {what}: " in found[0]


def test_clean_prose_and_code_are_not_flagged():
    """Parameters, board names, code spans and figures in code (not prose) pass."""
    source = (
        '"""Solve 1×8 and 2×5; each test within ``60 s, 10,000,000 nodes`` as an example."""\n'
        "CHUNK = 1 << 20  # the kernel's nodes between returns to Python, 2^20\n"
        'LIMITS = {"positional": "1×4: ~12 s, 33 M keys"}\n'
        "def f():\n"
        '    """None if v is legal now, else the reason; the count is exact."""\n'
    )
    assert findings(source) == []
