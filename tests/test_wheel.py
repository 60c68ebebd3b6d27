"""The package as a user gets it: the wheel built from the source tree, installed where the
source tree is out of sight, holds every module of the source tree and imports each one,
and the old flat names of ``gorules.impl`` (``gorules.impl.solve``...) still import.

``pyproject.toml`` lists the packages one by one (spec/, impl/ and proofs/ install inside
the ``gorules`` namespace), so a new folder that the list leaves out would be missing from
the wheel while every test run from the source tree passes; the comparison by file below
is what notices it."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGE_DIRS: dict[str, str] = PYPROJECT["tool"]["setuptools"]["package-dir"]
"""Package name -> its folder in the source tree (``gorules.spec`` -> ``spec``)."""

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
import gorules
import gorules.impl

imported, failed = ["gorules"], {}
for module in pkgutil.walk_packages(gorules.__path__, "gorules."):
    if module.name.rpartition(".")[2] == "__main__":
        continue  # running it is the command, not an import
    try:
        importlib.import_module(module.name)
        imported.append(module.name)
    except Exception as error:
        failed[module.name] = f"{type(error).__name__}: {error}"
moved = {}
for old, new in gorules.impl.MOVED.items():
    try:
        moved[old] = importlib.import_module(f"gorules.impl.{old}") is importlib.import_module(f"gorules.impl.{new}")
    except Exception as error:
        failed[f"gorules.impl.{old}"] = f"{type(error).__name__}: {error}"
print(json.dumps({"file": gorules.__file__, "imported": imported, "failed": failed, "moved": moved}))
"""


def source_modules() -> set[str]:
    """Every module file of the source tree as a path inside the installed package
    (``spec/graph.py`` -> ``gorules/spec/graph.py``), by the folders ``package-dir`` names."""
    found = set()
    for package, folder in PACKAGE_DIRS.items():
        for path in (ROOT / folder).rglob("*.py"):
            inside = path.relative_to(ROOT / folder)
            if "__pycache__" in inside.parts:
                continue
            found.add(Path(*package.split("."), inside).as_posix())
    return found


def installed_modules(site: Path) -> set[str]:
    """Every module file under ``site/gorules``, as a path relative to ``site``."""
    return {p.relative_to(site).as_posix() for p in (site / "gorules").rglob("*.py") if "__pycache__" not in p.parts}


def backend_installed() -> bool:
    """Whether this environment holds every requirement of the build system, so that the
    wheel can be built without an isolated environment."""
    for text in PYPROJECT["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


def source_copy(into: Path) -> Path:
    """The files the build reads (pyproject.toml, the README, the package folders), copied,
    so that the build writes nothing into the source tree."""
    into.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, into / name)
    for folder in sorted(set(PACKAGE_DIRS.values())):
        shutil.copytree(ROOT / folder, into / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return into


def pip(*arguments: str, cwd: Path) -> None:
    """Run pip of this interpreter; fail the test with its output if it fails."""
    done = subprocess.run([sys.executable, "-m", "pip", *arguments], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"pip {' '.join(arguments)} failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The folder the wheel of the source tree is installed into (without dependencies)."""
    work = tmp_path_factory.mktemp("wheel")
    source = source_copy(work / "source")
    flags = ["--no-build-isolation"] if backend_installed() else []
    pip("wheel", "--no-deps", *flags, "--wheel-dir", str(work / "dist"), str(source), cwd=work)
    wheels = sorted((work / "dist").glob("gorules-*.whl"))
    assert len(wheels) == 1, wheels
    site = work / "site"
    pip("install", "--no-deps", "--no-compile", "--target", str(site), str(wheels[0]), cwd=work)
    return site


@pytest.fixture(scope="module")
def imports(installed, tmp_path_factory) -> dict:
    """What importing every module of the installed package gives, in a fresh interpreter
    run from an empty folder with only the installed package on its path."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "GORULES"))}
    environment["PYTHONPATH"] = str(installed)
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING], cwd=elsewhere, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_wheel_holds_every_module_of_the_source_tree(installed):
    assert installed_modules(installed) == source_modules()


def test_the_installed_package_is_the_one_imported(installed, imports):
    """Not the source tree (the editable install, the working folder): the wheel's copy."""
    assert Path(imports["file"]).resolve().is_relative_to(installed.resolve())


def test_every_module_of_the_installed_package_imports(installed, imports):
    assert imports["failed"] == {}
    expected = {
        m.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for m in installed_modules(installed)
        if not m.endswith("__main__.py")
    }
    assert set(imports["imported"]) == expected


def test_the_old_flat_paths_of_impl_give_the_moved_modules(imports):
    assert imports["moved"] and all(imports["moved"].values()), imports["moved"]
    assert {"solve", "ultimate_search", "games", "vectors"} <= set(imports["moved"])


def test_the_comparison_sees_a_folder_left_out(installed, tmp_path):
    """The check can fail: a package missing from the installed copy is reported."""
    site = tmp_path / "site"
    shutil.copytree(installed / "gorules", site / "gorules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(site / "gorules" / "impl" / "counting")
    missing = source_modules() - installed_modules(site)
    assert "gorules/impl/counting/games.py" in missing
    assert all(m.startswith("gorules/impl/counting/") for m in missing)
