"""Literate definitions: a ruleset's markdown and its Python module must say the same thing.

A ruleset NAME is written twice: ``spec/NAME.md`` (one ``##`` heading per definition,
each with the mathematics, some prose and exactly one python block) and
``spec/NAME.py`` (the same code, in the same order).  The functions here read both
and pair them up, so that a test can assert that they agree.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Definition:
    """One definition: its heading (or None in a module), the names its code binds, the code."""

    heading: str | None
    names: tuple[str, ...]
    code: str


def bound_names(statement: ast.stmt) -> tuple[str, ...]:
    """The top-level names that one statement defines."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (statement.name,)
    if isinstance(statement, ast.Assign):
        return tuple(t.id for t in statement.targets if isinstance(t, ast.Name))
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return (statement.target.id,)
    return ()


def markdown_definitions(markdown: str) -> list[Definition]:
    """The (heading, code) pairs of a literate markdown file, in order.

    Every ``##`` section that holds a python block is a definition; a section may hold
    at most one python block.
    """
    definitions = []
    for section in re.split(r"^## ", markdown, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        blocks = FENCE.findall(body)
        if len(blocks) > 1:
            raise ValueError(f"section {heading!r} holds {len(blocks)} python blocks, not one")
        if blocks:
            code = blocks[0].strip("\n")
            names = tuple(n for s in ast.parse(code).body for n in bound_names(s))
            definitions.append(Definition(heading.strip(), names, code))
    return definitions


def module_definitions(source: str) -> list[tuple[str, str]]:
    """The (name, statement source) pairs of a module's top level, in order.

    Imports, the module docstring and ``from __future__`` lines are not definitions.
    A decorated function's source includes its decorators.
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    pairs = []
    for statement in tree.body:
        names = bound_names(statement)
        if not names:
            continue
        first = min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
        code = "\n".join(lines[first - 1 : statement.end_lineno])
        for name in names:
            pairs.append((name, code))
    return pairs


def module_code_for(source: str, names: tuple[str, ...]) -> str:
    """The module's source for the statements binding ``names``, joined as they stand."""
    by_name = dict(module_definitions(source))
    codes: list[str] = []
    for name in names:
        code = by_name[name]
        if code not in codes:
            codes.append(code)
    return "\n\n\n".join(codes)


def normalise(code: str) -> str:
    """Code compared without blank lines (the markdown and the module space it differently)."""
    return "\n".join(line.rstrip() for line in code.splitlines() if line.strip())


def compare(ruleset: str) -> list[str]:
    """Every way in which ``spec/<ruleset>.md`` and ``spec/<ruleset>.py`` disagree (empty if none)."""
    markdown = (SPEC_DIR / f"{ruleset}.md").read_text()
    source = (SPEC_DIR / f"{ruleset}.py").read_text()
    problems = []
    md = markdown_definitions(markdown)
    md_names = [n for d in md for n in d.names]
    py_names = [n for n, _ in module_definitions(source)]
    for name in sorted(set(md_names) - set(py_names)):
        problems.append(f"{ruleset}.md defines {name}, which {ruleset}.py lacks")
    for name in sorted(set(py_names) - set(md_names)):
        problems.append(f"{ruleset}.py defines {name}, which {ruleset}.md lacks")
    if not problems and md_names != py_names:
        problems.append(f"order differs: md {md_names} vs py {py_names}")
    for d in md:
        if all(n in py_names for n in d.names):
            if normalise(d.code) != normalise(module_code_for(source, d.names)):
                problems.append(f"section {d.heading!r}: code differs from {ruleset}.py")
    return problems
