"""The import direction the README draws: spec imports nothing of the project but itself;
impl and proofs import spec (and themselves) only; the application imports anything.
One leaf module, ``gorules.processes`` (pool workers that die with their parent), imports
nothing of the project and every layer may use it.  And no module reaches itself again
through the modules it imports: the graph of imports between the project's files has no
circle.  Every import is read from the source, those inside functions (and those only for
type checking) included."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"spec": ROOT / "spec", "impl": ROOT / "impl", "proofs": ROOT / "proofs", "gorules": ROOT / "gorules"}
LEAVES = {"gorules.processes": ROOT / "gorules" / "processes.py"}
ALLOWED = {
    "spec": {"spec", "leaf"},
    "impl": {"spec", "impl", "leaf"},
    "proofs": {"spec", "proofs", "leaf"},
}
PACKAGE_OF = {"spec": "gorules.spec", "impl": "gorules.impl", "proofs": "gorules.proofs", "gorules": "gorules"}
"""Each folder's package name once installed (``spec/graph.py`` is ``gorules.spec.graph``)."""


def layer_of(module: str) -> str | None:
    """The layer a module of the project belongs to (``gorules.spec.graph`` → spec), or None."""
    parts = module.split(".")
    if ".".join(parts[:2]) in LEAVES:
        return "leaf"
    if parts[0] != "gorules":
        return None
    if len(parts) > 1 and parts[1] in ("spec", "impl", "proofs"):
        return parts[1]
    return "gorules"


def imported_modules(path: Path) -> list[str]:
    """The absolute module names a file imports (``from . import`` is not used in the project)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def violations(layer: str) -> list[str]:
    """The imports of a layer's files that reach a layer it may not import."""
    found = []
    for path in sorted(FOLDERS[layer].rglob("*.py")):
        for module in imported_modules(path):
            target = layer_of(module)
            if target is not None and target not in ALLOWED[layer]:
                found.append(f"{layer}/{path.relative_to(FOLDERS[layer])} imports {module}")
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_go_one_way(layer):
    assert violations(layer) == []


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_leaves_import_nothing_of_the_project(leaf):
    assert [m for m in imported_modules(LEAVES[leaf]) if layer_of(m) is not None] == []


def test_the_check_sees_a_wrong_import(tmp_path, monkeypatch):
    """The check can fail: a spec module that imports the engine is reported."""
    (tmp_path / "bad.py").write_text("from gorules.impl.engine.rules import move\n")
    monkeypatch.setitem(FOLDERS, "spec", tmp_path)
    assert violations("spec") == [
        "spec/bad.py imports gorules.impl.engine.rules",
        "spec/bad.py imports gorules.impl.engine.rules.move",
    ]


# ---- circles


def project_modules(folders: dict[str, Path]) -> dict[str, Path]:
    """Every module of the project (``gorules.impl.solving.split``; a package by its name) -> its file."""
    modules = {}
    for folder, root in folders.items():
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([PACKAGE_OF.get(folder, folder), *parts])] = path
    return modules


def lazy_source(path: Path) -> str | None:
    """The module whose names a package's ``__init__.py`` hands out when first asked for
    (a module-level ``__getattr__``, defined or assigned, that names the module), or None."""
    if path.name != "__init__.py":
        return None
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        defines = isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        assigns = isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__getattr__" for t in node.targets
        )
        if defines or assigns:
            named = [
                c.value
                for c in ast.walk(node)
                if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.startswith("gorules.")
            ]
            if named:
                return named[0]
    return None


def moved_names(package: str, path: Path) -> dict[str, str]:
    """The old module names a package's ``__init__.py`` keeps importable (its ``MOVED`` table:
    ``gorules.impl.solve`` -> ``gorules.impl.solving.solve``), or {}."""
    if path.name != "__init__.py":
        return {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "MOVED" for t in node.targets):
            return {f"{package}.{old}": f"{package}.{new}" for old, new in ast.literal_eval(node.value).items()}
    return {}


def absolute(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The absolute name of the module a ``from`` import reads (relative ones resolved)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def targets(
    module: str, path: Path, modules: dict[str, Path], lazy: dict[str, str], moved: dict[str, str]
) -> list[tuple[str, int]]:
    """The project modules a file imports, each with the line of its first import:
    ``import a.b.c`` reads ``a.b.c``; ``from a.b import c`` reads ``a.b.c`` if that is a
    module, else ``a.b`` (or, for a package that hands out another module's names lazily,
    that module); a moved module's old name reads the module.  The packages on the way are
    not counted."""
    found: dict[str, int] = {}

    def add(name: str, line: int) -> None:
        name = moved.get(name, name)
        if name in modules and name != module:
            found.setdefault(name, line)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, module, path)
            for alias in node.names:
                if f"{base}.{alias.name}" in modules or f"{base}.{alias.name}" in moved:
                    add(f"{base}.{alias.name}", node.lineno)
                else:
                    add(lazy.get(base, base), node.lineno)
    return sorted(found.items())


def import_graph(folders: dict[str, Path]) -> nx.DiGraph:
    """The project's modules, an arc a -> b where a's file imports module b (``line``: where)."""
    modules = project_modules(folders)
    lazy = {name: source for name, path in modules.items() if (source := lazy_source(path)) is not None}
    moved = {old: new for name, path in modules.items() for old, new in moved_names(name, path).items()}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        for target, line in targets(module, path, modules, lazy, moved):
            graph.add_edge(module, target, line=line)
    return graph


def circles(folders: dict[str, Path]) -> list[str]:
    """Each strongly connected component of more than one module, as one of its circles
    (``a (line 3) -> b (line 7) -> a``) followed by every module in it."""
    graph = import_graph(folders)
    found = []
    for component in sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1):
        arcs = nx.find_cycle(graph.subgraph(component), source=component[0])
        circle = " -> ".join(f"{a} (line {graph.edges[a, b]['line']})" for a, b in arcs) + f" -> {arcs[0][0]}"
        found.append(f"{circle}; the component: {', '.join(component)}")
    return found


def test_no_module_imports_itself_round_a_circle():
    found = circles(FOLDERS)
    assert found == [], "import circles:\n" + "\n".join(found)


def test_the_check_sees_a_circle(tmp_path):
    """The check can fail: two planted modules that import each other (one of them inside a
    function) are reported, and a module importing them both is not part of the circle."""
    (tmp_path / "first.py").write_text("from gorules.second import helper\n")
    (tmp_path / "second.py").write_text("def helper():\n    from gorules import first\n\n    return first\n")
    (tmp_path / "third.py").write_text("import gorules.first\nimport gorules.second\n")
    assert circles({"gorules": tmp_path}) == [
        "gorules.first (line 1) -> gorules.second (line 2) -> gorules.first; the component: gorules.first, gorules.second"
    ]


def test_a_lazy_package_is_read_as_the_module_it_hands_out(tmp_path):
    """``from a.room import name``, where a.room's ``__init__`` hands out a module's names
    lazily, is an import of that module, and a moved module's old name is the module; the
    package itself imports nothing, so a module of the room importing the room closes no circle."""
    room = tmp_path / "room"
    room.mkdir()
    (room / "__init__.py").write_text(
        'import importlib\n\nMOVED = {"old": "rules"}\n\n\ndef __getattr__(name):\n'
        '    return getattr(importlib.import_module("gorules.room.rules"), name)\n'
    )
    other_room = tmp_path / "other_room"
    other_room.mkdir()
    (other_room / "__init__.py").write_text(
        'from gorules.room import lazily\n\n__getattr__ = lazily(__name__, "gorules.other_room.names")\n'
    )
    (other_room / "names.py").write_text("Y = 2\n")
    (room / "rules.py").write_text("from gorules.room import other\n")
    (room / "other.py").write_text("import gorules.room\n")
    (tmp_path / "user.py").write_text("from gorules.room import X\nfrom gorules.other_room import Y\n")
    (tmp_path / "old_user.py").write_text("import gorules.room.old\n")
    graph = import_graph({"gorules": tmp_path})
    assert sorted(graph.edges) == [
        ("gorules.old_user", "gorules.room.rules"),
        ("gorules.other_room", "gorules.room.rules"),
        ("gorules.room.other", "gorules.room"),
        ("gorules.room.rules", "gorules.room.other"),
        ("gorules.user", "gorules.other_room.names"),
        ("gorules.user", "gorules.room.rules"),
    ]
    assert circles({"gorules": tmp_path}) == []
