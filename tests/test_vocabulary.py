"""The word ``rules`` names the rules themselves, never options or a preset.

Options are called ``options`` (an :class:`Options`, or a preset's name where a parameter
accepts either) and a preset's name alone is ``preset``.  ``rules`` stays where it is the
source's function API (``move``, ``reaches``, ``score``... of a module such as
``gorules.spec.tromp_taylor`` or ``gorules.impl.engine.rules``, or a reading of them such as
the errata's and the proofs' ``Rules``) and in the modules named rules.

The test walks the project's Python code with :mod:`ast` and reports every binding of the
name ``rules`` (a parameter, a keyword argument, an attribute, an assigned, looped or
imported name, a function or class) that is neither a parameter annotated with a ``Rules``
class, nor an import of a module named rules, nor in a place the allow-list names.
"""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("impl", "gorules", "spec", "tests", "notebooks", "benchmarks", "proofs")
WORD = "rules"

# The modules named rules: importing one binds the name to the module itself.
RULES_MODULES = {"gorules.spec.rules", "gorules.impl.engine.rules"}

# Where ``rules`` is the function API (a module or a reading that has ``move``, ``reaches``,
# ``score``...), by file and the qualified name of the function (a pattern) it is bound in.
ALLOWED = {
    # The move functions a record is replayed or written with: the spec's module by default.
    "impl/differential/oracle.py": ("legal_reason",),
    "impl/differential/vectors.py": ("record", "replay", "random_game", "refused_move"),
    "impl/formats/sgf_replay.py": ("replay",),
    # The errata's readings (``CORRECTED``, ``AS_WRITTEN``) chosen by name.
    "gorules/errata/rows.py": ("prefixes_enumerated", "well_formed_row.both"),
    # The proofs' variants of the rules of play (the spec's or a mutant's), chosen by name.
    "proofs/move_definedness.py": ("abstract_part", "history_part"),
    "proofs/well_formedness.py": ("lemma_part",),
    # The fixture that runs each behavioural test over every module with the function API.
    "tests/conftest.py": ("rules",),
    "tests/test_rules_behaviour.py": ("after", "test_*"),
    "tests/test_differential.py": ("test_vector_replays",),
}


def is_rules_class(annotation: ast.expr | None) -> bool:
    """Whether an annotation names a class called ``Rules`` (``Rules`` or ``module.Rules``)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.split(".")[-1] == "Rules"
    return (isinstance(annotation, ast.Name) and annotation.id == "Rules") or (
        isinstance(annotation, ast.Attribute) and annotation.attr == "Rules"
    )


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def bindings(source: str) -> list[tuple[int, str, str]]:
    """(line, what, qualified name of the enclosing function or ``<module>``) of every place
    ``source`` binds or reaches for the name ``rules``, but for the parameters annotated with a
    ``Rules`` class and the modules named rules."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, scope: str) -> None:
        """Note what ``node`` binds and go on into its children under their scope."""
        inner = scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            name = getattr(node, "name", "<lambda>")
            inner = name if scope == "<module>" else f"{scope}.{name}"
            if name == WORD:
                found.append((node.lineno, "function or class", inner))
        if isinstance(node, ast.arg) and node.arg == WORD and not is_rules_class(node.annotation):
            found.append((node.lineno, "parameter", scope))
        elif isinstance(node, ast.keyword) and node.arg == WORD:
            found.append((node.value.lineno, "keyword argument", scope))
        elif isinstance(node, ast.Attribute) and node.attr == WORD and dotted(node) not in RULES_MODULES:
            found.append((node.lineno, "attribute", scope))
        elif isinstance(node, ast.Name) and node.id == WORD and not isinstance(node.ctx, ast.Load):
            found.append((node.lineno, "variable", scope))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                # ``import a.b.c`` binds ``a``; ``from a.b import c`` binds ``c``.
                bound = alias.asname or (alias.name if isinstance(node, ast.ImportFrom) else alias.name.split(".")[0])
                module = f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
                if bound == WORD and module not in RULES_MODULES:
                    found.append((node.lineno, "imported name", scope))
        own: list[ast.AST] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            # A function's parameters and body are its own; its decorators belong to the
            # scope around it.
            own = [node.args, *(node.body if isinstance(node.body, list) else [node.body])]
        for child in ast.iter_child_nodes(node):
            own_child = isinstance(node, ast.ClassDef) or any(child is c for c in own)
            visit(child, inner if own_child else scope)

    visit(ast.parse(source), "<module>")
    return found


def allowed(path: str, scope: str) -> bool:
    """Whether the allow-list lets ``rules`` be bound in ``scope`` of ``path``."""
    return any(fnmatch.fnmatchcase(scope, pattern) for pattern in ALLOWED.get(path, ()))


def python_files() -> list[Path]:
    """The project's Python files."""
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def misnamed(path: str, source: str) -> list[str]:
    """``path:line: what in scope`` for every binding of ``rules`` the allow-list does not cover."""
    return [
        f"{path}:{line}: {what} {WORD!r} in {scope}"
        for line, what, scope in bindings(source)
        if not allowed(path, scope)
    ]


def test_no_name_rules_holds_options_or_a_preset():
    problems = []
    for p in python_files():
        problems += misnamed(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
    assert problems == []


def test_every_allowed_place_still_binds_rules():
    """An entry of the allow-list that matches nothing is stale and would hide a new name."""
    stale = []
    for path, patterns in ALLOWED.items():
        scopes = [scope for _, _, scope in bindings((ROOT / path).read_text(encoding="utf-8"))]
        stale += [(path, pattern) for pattern in patterns if not fnmatch.filter(scopes, pattern)]
    assert stale == []


def test_a_planted_name_is_reported():
    planted = {
        "def f(rules=None):\n    return rules\n": "1: parameter 'rules' in f",
        "def f(graph):\n    return Game(graph, rules='no-suicide')\n": "2: keyword argument 'rules' in f",
        "class G:\n    def __init__(self, options):\n        self.rules = options\n": "3: attribute 'rules' in G.__init__",
        "def f(game):\n    return game.rules.ko\n": "2: attribute 'rules' in f",
        "for rules in PRESETS:\n    pass\n": "1: variable 'rules' in <module>",
        "from gorules.spec.tromp_taylor import PRESETS as rules\n": "1: imported name 'rules' in <module>",
        "def f(rules: Options):\n    pass\n": "1: parameter 'rules' in f",
        "f = lambda rules: rules\n": "1: parameter 'rules' in <lambda>",
    }
    for source, report in planted.items():
        assert misnamed("impl/planted.py", source) == [f"impl/planted.py:{report}"]
    # In a file of the allow-list, outside its allowed functions.
    assert misnamed("tests/test_rules_behaviour.py", "def helper(rules=None):\n    pass\n") == [
        "tests/test_rules_behaviour.py:1: parameter 'rules' in helper"
    ]


def test_the_rules_api_and_the_modules_named_rules_are_not_reported():
    source = (
        "from gorules.impl.engine import rules\n"
        "import gorules.spec.rules\n"
        "def f(rules: Rules, other: api.Rules):\n"
        "    return gorules.spec.rules.Rules\n"
    )
    assert misnamed("impl/planted.py", source) == []
