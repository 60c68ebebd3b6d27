"""Python files a user names on the command line (rulesets, conjectures, theorems), run as
modules: one loader, so that each kind of file fails the same way, on one line."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType


def load_python_file(
    path: str | Path, what: str, module_name: str, error: Callable[[str], Exception], keep: bool = False
) -> ModuleType:
    """The module that the file at ``path`` defines, run once.  ``error(message)`` is raised,
    its message naming ``what`` the file is, when the file does not exist, cannot be loaded as
    Python, or fails while it runs (any exception of the user's code is bad input).  With
    ``keep`` the module stays in ``sys.modules`` under ``module_name``, so that worker
    processes forked later can unpickle what it defines."""
    path = Path(path)
    if not path.is_file():
        raise error(f"{what} {str(path)!r} does not exist")
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise error(f"{what} {str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    if keep:
        sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as failure:
        raise error(f"{what} {path.name} failed to load: {type(failure).__name__}: {failure}") from failure
    return module
