"""Files written whole or not at all: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
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


def write_bytes_atomically(path: str | os.PathLike, data: bytes) -> Path:
    """Write bytes to ``path`` atomically."""
    return write_atomically(path, lambda temporary: Path(temporary).write_bytes(data))
