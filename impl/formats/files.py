"""Files written whole or not at all: a temporary file in the same folder, then a rename;
several files into a staged directory that appears only when all are written."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str | os.PathLike, write: Callable[[str], object]) -> Path:
    """Call ``write(temporary_path)`` and rename the result to ``path`` (its folder made if
    need be), with the permissions a new file gets; nothing is ever half-written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path


def write_text_atomically(path: str | os.PathLike, text: str) -> Path:
    """Write text (UTF-8) to ``path`` atomically."""
    return write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))


def write_json_atomically(path: str | os.PathLike, data: dict) -> Path:
    """Write the JSON object ``data`` to ``path`` atomically, compactly (the text of
    ``json.dumps(data, separators=(",", ":"))``), encoding the items of its list values one at
    a time: a certificate's million positions never become one string in memory."""

    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write("{")
            for i, (name, value) in enumerate(data.items()):
                out.write(("," if i else "") + json.dumps(name) + ":")
                if isinstance(value, list):
                    out.write("[")
                    for j, item in enumerate(value):
                        out.write(("," if j else "") + json.dumps(item, separators=(",", ":")))
                    out.write("]")
                else:
                    out.write(json.dumps(value, separators=(",", ":")))
            out.write("}")

    return write_atomically(path, write)


def write_bytes_atomically(path: str | os.PathLike, data: bytes) -> Path:
    """Write bytes to ``path`` atomically."""
    return write_atomically(path, lambda temporary: Path(temporary).write_bytes(data))


@contextmanager
def staged_directory(target: str | os.PathLike) -> Iterator[Path]:
    """A new, empty directory to write several files into, which appears as ``target`` only
    when the block completes; if the block fails, nothing of it is left.

    Files are written into a hidden temporary directory beside ``target`` (its parent made
    if need be).  When ``target`` does not exist the temporary directory is renamed to it, so
    the directory appears whole; when it is already a directory, each finished file is
    moved into it (every move a rename), so no file appears before all are written.
    NotADirectoryError if ``target`` is an existing file."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(f"{target} exists and is not a directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        yield staging
        os.chmod(staging, 0o777 & ~_umask())
        if not target.exists():
            os.replace(staging, target)
            return
        for item in sorted(staging.iterdir()):
            os.replace(item, target / item.name)
        staging.rmdir()
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def unwritable(path: str | os.PathLike) -> str | None:
    """Why a file or directory could not be created at ``path``, or None if it could: checked
    before any work, on the nearest existing ancestor."""
    path = Path(path)
    if path.exists():
        return None if os.access(path, os.W_OK) or path.is_file() else f"{path} is not writable"
    ancestor = path.parent
    while not ancestor.exists():
        if ancestor == ancestor.parent:
            break
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"{ancestor} is not a directory"
    if not os.access(ancestor, os.W_OK | os.X_OK):
        return f"{ancestor} is not writable"
    return None
