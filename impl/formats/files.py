"""Files written whole or not at all: a temporary file in the same folder, then a rename;
several files into a staged directory that appears only when all are written.

What is at an output path decides how it is written, and :func:`output_problem` checks a
path by the same rules before any work:

- a regular file, or no file yet: written whole or not at all (a temporary file renamed);
- a symbolic link: followed, its target written whole or not at all, the link kept;
- a character device or a FIFO (``/dev/null``, a named pipe): written into in place, as it
  cannot be replaced (a FIFO waits for its reader); a write error such as a full device is
  raised, never taken for success;
- one of the process's open files (``/dev/stdout``, ``/dev/fd/N``): written through it, as
  the shell opened it (``>> log`` appends);
- a directory, a socket or a block device: refused;
- an empty path: refused (it names no file).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

STDOUT = "-"
"""The output path that means standard output."""


def _umask() -> int:
    """The process's file-creation mask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mode(path: str | os.PathLike) -> int | None:
    """The mode of what ``path`` names, symbolic links followed; None if nothing is there."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None


def written_in_place(path: str | os.PathLike) -> bool:
    """Whether ``path`` names (through links) a character device or a FIFO, which an output
    is written into rather than renamed onto."""
    mode = _mode(path)
    return mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode))


DESCRIPTOR_NAMES = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
DESCRIPTOR_FOLDERS = ("/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/")


def descriptor(path: str | os.PathLike) -> int | None:
    """The number of this process's open file that ``path`` names, through links
    (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``), or None.  Such an output is
    written through the descriptor, as the shell opened it: ``--out /dev/stdout >> log``
    appends to the log and replaces nothing."""
    current = os.path.abspath(path)
    own = (*DESCRIPTOR_FOLDERS, f"/proc/{os.getpid()}/fd/")
    for _ in range(40):  # the kernel's own limit on links followed
        if current in DESCRIPTOR_NAMES:
            return DESCRIPTOR_NAMES[current]
        for folder in own:
            if current.startswith(folder) and current[len(folder) :].isdigit():
                return int(current[len(folder) :])
        if not os.path.islink(current):
            return None
        current = os.path.join(os.path.dirname(current), os.readlink(current))
    return None


def _kind(mode: int | None) -> str:
    """What a file of this mode is, in words (None: nothing is there)."""
    if mode is None:
        return "nothing"
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISREG, "a regular file"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _real(path: str | os.PathLike) -> Path:
    """The file a path names: a symbolic link's target (the link itself is kept)."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def _refused(path: str | os.PathLike) -> OSError:
    """The error for an output path that is not a file to write (a directory, a socket, a
    block device)."""
    mode = _mode(path)
    code = errno.EISDIR if mode is not None and stat.S_ISDIR(mode) else errno.EINVAL
    return OSError(code, f"{_kind(mode)} is not written as an output file", str(path))


def write_atomically(path: str | os.PathLike, write: Callable[[str], object]) -> Path:
    """Call ``write(file_path)`` so that ``path`` holds the result whole or not at all: on a
    temporary file renamed to the path (its folder made if need be, a symbolic link's target
    replaced and the link kept, the permissions a new file gets); ``-`` is standard output,
    and a character device or FIFO is written in place (see the module docstring)."""
    if str(path) == "":
        raise FileNotFoundError(errno.ENOENT, "an empty path names no file", "''")
    if str(path) == STDOUT:
        _write_to_stdout(write)
        return Path(STDOUT)
    number = descriptor(path)
    if number is not None and _mode(path) is not None:
        _write_to_descriptor(write, number, path)
        return Path(path)
    if written_in_place(path):
        _write_in_place(path, write)
        return Path(path)
    mode = _mode(path)
    if mode is not None and not stat.S_ISREG(mode):
        raise _refused(path)
    real = _real(path)
    real.parent.mkdir(parents=True, exist_ok=True)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    except OSError as error:  # name the file asked for, not the hidden temporary one
        raise OSError(error.errno, error.strerror, str(path)) from None
    os.close(handle)
    try:
        write(temporary)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, real)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return Path(path)


def _write_in_place(path: str | os.PathLike, write: Callable[[str], object]) -> None:
    """``write(path)`` into a device or FIFO; an error names the path."""
    try:
        write(str(path))
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from None


def _written(write: Callable[[str], object]) -> bytes:
    """The bytes ``write`` puts in a file (a temporary one, removed after)."""
    handle, temporary = tempfile.mkstemp(prefix=".gorules.", suffix=".tmp")
    os.close(handle)
    try:
        write(temporary)
        return Path(temporary).read_bytes()
    finally:
        os.unlink(temporary)


def _write_to_descriptor(write: Callable[[str], object], number: int, path: str | os.PathLike) -> None:
    """``write``'s bytes through this process's open file ``number``, after what Python's
    own streams hold; an error names the path."""
    data = _written(write)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(number, view) :]
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from None


def _write_to_stdout(write: Callable[[str], object]) -> None:
    """``write`` into a temporary file, then its bytes to standard output: all or nothing."""
    data = _written(write)
    sys.stdout.flush()
    binary = getattr(sys.stdout, "buffer", None)
    if binary is not None:
        binary.write(data)
        binary.flush()
    else:  # a text stream without bytes underneath
        sys.stdout.write(data.decode("utf-8", errors="replace"))


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
    """A new, empty directory to write several files into, whose files appear in ``target``
    only when the block completes; if the block fails, nothing of it is left.

    When ``target`` does not exist, the files are written into a hidden temporary directory
    beside it (its parent made if need be), renamed to ``target`` at the end, so the
    directory appears whole.  When it is already a directory (a symbolic link to one is
    followed), the hidden directory is made inside it and each finished file is moved into
    ``target`` (a rename on one file system; into a device or FIFO, or onto a link's target,
    by the module's rules), so no file appears before all are written.  NotADirectoryError if ``target`` is something else; an empty path is refused."""
    if str(target) == "":
        raise FileNotFoundError(errno.ENOENT, "an empty path names no directory", "''")
    target = _real(target)
    if target.exists() and not target.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", str(target))
    existing = target.is_dir()
    if not existing:
        target.parent.mkdir(parents=True, exist_ok=True)
    folder = target if existing else target.parent
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=folder))
    try:
        yield staging
        os.chmod(staging, 0o777 & ~_umask())
        if not existing:
            os.replace(staging, target)
            return
        for item in sorted(staging.iterdir()):
            _place(item, target / item.name)
        staging.rmdir()
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _place(item: Path, destination: Path) -> None:
    """Move a finished file to ``destination`` by the module's rules: renamed onto a regular
    file or a new name (a link's target, the link kept), copied into a device or a FIFO;
    a directory or a socket there is refused."""
    if written_in_place(destination):
        _write_in_place(destination, lambda path: Path(path).write_bytes(item.read_bytes()))
        item.unlink()
        return
    mode = _mode(destination)
    if mode is not None and not stat.S_ISREG(mode):
        raise _refused(destination)
    os.replace(item, _real(destination))


def output_problem(path: str | os.PathLike, *, directory: bool = False) -> str | None:
    """Why an output file (``directory``: a directory of files) could not be written at
    ``path`` by the rules of the module docstring, or None if it could; checked before any
    work.  ``-`` is standard output (not a directory)."""
    text = str(path)
    if text == "":
        return "an empty path names no " + ("directory" if directory else "file")
    if text == STDOUT and not directory:
        return None
    try:
        mode = _mode(text)
    except NotADirectoryError:
        mode = None  # a path under a file: the ancestors' check names it
    except OSError as error:
        return f"{text}: {error.strerror or error}"
    if directory:
        if mode is None:
            return _uncreatable(_real(text))
        if not stat.S_ISDIR(mode):
            return f"{text} exists and is not a directory"
        return _unwritable_folder(_real(text))
    if mode is not None and descriptor(text) is not None:
        return None  # written through the open file, whatever it is
    if mode is None or stat.S_ISREG(mode):
        return _uncreatable(_real(text))
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return None if os.access(text, os.W_OK) else f"{text} is not writable"
    return f"{text} is {_kind(mode)}: only a file, a character device or a FIFO is written"


def _uncreatable(path: Path) -> str | None:
    """Why ``path`` could not be created or replaced: its nearest existing ancestor is not a
    directory, or no file can be made in it."""
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"{ancestor} is not a directory"
    return _unwritable_folder(ancestor)


def _unwritable_folder(folder: Path) -> str | None:
    """Why no file can be made in ``folder`` (tried: a hidden file made and removed), or None.
    Trying is the only sure test: permissions say nothing to the superuser, nor of a file
    system mounted read-only or one such as /proc."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".gorules-probe.", suffix=".tmp", dir=folder)
    except OSError as error:
        return f"{folder} is not writable ({error.strerror or error})"
    os.close(handle)
    os.unlink(probe)
    return None


def unwritable(path: str | os.PathLike) -> str | None:
    """Why a file or directory could not be made at ``path`` (whichever is there now), or None."""
    return output_problem(path, directory=os.path.isdir(path))
