"""No write ever harms what it should not; no hang, no internal error.

Output paths by what is at them (``gorules.impl.formats.files``): a regular file or a new
path is written whole or not at all; a character device or a FIFO is written in place and
never replaced (a private copy of /dev/null and /dev/full made with ``os.mknod``); a link
is followed and kept; a directory, a socket or an empty path is refused before any work.
Inputs that are not regular files, worker counts beyond the machine, closed standard
streams and an encoding without the output's characters end in an answer or one line.
SIGTERM, SIGHUP and Ctrl-C end a long command with their exit codes, leaving no partial
file and no worker behind.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gorules.impl.formats.files import staged_directory
from tests.hostile_inputs import KILL_FAMILY, alive, children, fresh_directory, partial_files, run_cli, waiting_writer

GORULES = [sys.executable, "-m", "gorules"]
NULL_DEVICE = (1, 3)  # the numbers of /dev/null
FULL_DEVICE = (1, 7)  # the numbers of /dev/full: every write fails with ENOSPC

needs_mknod = pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs the superuser")
needs_proc = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")


def device(folder: Path, name: str, numbers: tuple[int, int]) -> Path:
    """A character device node in ``folder`` with the given major and minor numbers."""
    path = folder / name
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*numbers))
    return path


def is_character_device(path: Path) -> bool:
    """Whether ``path`` itself (not a link's target) is a character device."""
    return stat.S_ISCHR(os.lstat(path).st_mode)


def gorules(argv: list[str], seconds: float = 120, **settings) -> subprocess.CompletedProcess:
    """``gorules ARGV`` as a real process (a hang fails the test after ``seconds``)."""
    return subprocess.run([*GORULES, *argv], capture_output=True, text=True, timeout=seconds, **settings)


def one_error_line(stderr: str, words: str) -> None:
    """``stderr`` is one line naming ``words``, no traceback."""
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert words in stderr and "Traceback" not in stderr, stderr


# ------------------------------------------------------------------ devices, FIFOs, sockets, links


@needs_mknod
def test_a_record_onto_a_device_writes_into_it_and_keeps_it(tmp_path):
    """``play --record`` renamed a file onto the path: run as the superuser, a device node
    there (here a private /dev/null) became a regular file.  It is written into, and stays."""
    null = device(tmp_path, "null", NULL_DEVICE)
    code, _, err = run_cli(["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record", str(null)], tmp_path)
    assert code == 0, err
    assert is_character_device(null)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


@needs_mknod
@pytest.mark.parametrize(
    "argv",
    [
        ["count", "grid:1x2", "--out"],
        ["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record"],
        ["solve", "grid:1x2", "--no-progress", "--certificate"],
    ],
)
def test_a_full_device_is_an_error_never_success(argv, tmp_path):
    """Writing onto a private /dev/full reported success (the device was replaced by a
    regular file): the write is made into the device, and its ENOSPC is one line, exit 2."""
    full = device(tmp_path, "full", FULL_DEVICE)
    code, _, err = run_cli([*argv, str(full)], tmp_path)
    assert code == 2, err
    one_error_line(err, "No space left on device")
    assert str(full) in err
    assert is_character_device(full)


def test_a_fifo_is_written_in_place_for_its_reader(tmp_path):
    """A named pipe at the output path was replaced by a regular file (its reader waited for
    ever): the result goes through the pipe, which stays a pipe."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    try:
        code, _, err = run_cli(["count", "grid:1x2", "--json", "--out", str(fifo)], tmp_path)
        received, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert code == 0, err
    expected = json.loads(run_cli(["count", "grid:1x2", "--json"])[1])
    assert json.loads(received)["legal_positions"] == expected["legal_positions"] == 5
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_socket_is_refused_before_any_work(tmp_path):
    """A socket at the output path was replaced by a regular file: it is refused, one line."""
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        code, _, err = run_cli(["count", "grid:1x2", "--out", str(path)], tmp_path)
    finally:
        server.close()
    assert code == 2
    one_error_line(err, "is a socket")
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "grid:1x2", "--out"],
        ["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record"],
        ["replay", "grid:2x2", "--moves", "B A1", "--picture"],
    ],
)
def test_a_link_is_followed_and_kept(argv, tmp_path):
    """A symbolic link at the output path was replaced by a regular file: its target is
    written whole and the link stays a link."""
    target = tmp_path / "kept" / "target.svg"
    target.parent.mkdir()
    target.write_text("before")
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    code, _, err = run_cli([*argv, str(link)], tmp_path)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() != "before"
    assert sorted(p.name for p in target.parent.iterdir()) == ["target.svg"]


def test_a_record_to_stdout(tmp_path):
    """``--record -`` is stdout: the record a file receives is printed."""
    argv = ["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record"]
    assert run_cli([*argv, str(tmp_path / "game")], tmp_path)[0] == 0
    code, out, _ = run_cli([*argv, "-"], tmp_path)
    assert code == 0
    assert (tmp_path / "game").read_text() in out


def test_a_certificate_to_stdout_is_the_files_text(tmp_path):
    """``solve --certificate -`` (to pipe it, ``| gzip``): stdout holds the certificate
    alone, the one that a file receives, and the report goes to stderr."""
    argv = ["solve", "grid:1x2", "--no-progress", "--certificate"]
    assert run_cli([*argv, str(tmp_path / "proof.json")], tmp_path)[0] == 0
    done = gorules([*argv, "-"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (tmp_path / "proof.json").read_text()
    assert "principal variation" in done.stderr


def test_an_output_to_dev_stdout_appends_where_the_shell_said(tmp_path):
    """``--out /dev/stdout >> log`` followed the link to the log and renamed a file onto it:
    the log's earlier lines were lost.  The output goes through the open file, appended."""
    log = tmp_path / "log"
    log.write_text("earlier line\n")
    done = in_shell(f">> {log}", ["count", "grid:1x2", "--json", "--out", "/dev/stdout"])
    assert done.returncode == 0, done.stderr
    first, second, *text = log.read_text().splitlines()
    assert first == "earlier line" and json.loads(second)["legal_positions"] == 5
    assert "legal positions" in "\n".join(text)  # and the text, printed after the file is written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log"]


@needs_mknod
def test_files_moved_into_a_directory_keep_its_links_and_devices(tmp_path):
    """The files of ``--pictures DIR`` were renamed into DIR over whatever had their names:
    a link there is followed (its target written, the link kept), a device written into."""
    folder, elsewhere = tmp_path / "pictures", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (elsewhere / "a.svg").write_text("before")
    (folder / "a.svg").symlink_to(elsewhere / "a.svg")
    null = device(folder, "b.svg", NULL_DEVICE)
    with staged_directory(folder) as staging:
        (staging / "a.svg").write_text("<svg/>")
        (staging / "b.svg").write_text("<svg/>")
        (staging / "c.svg").write_text("<svg/>")
    assert (folder / "a.svg").is_symlink() and (elsewhere / "a.svg").read_text() == "<svg/>"
    assert is_character_device(null)
    assert sorted(p.name for p in folder.iterdir()) == ["a.svg", "b.svg", "c.svg"]


@needs_mknod
def test_a_picture_onto_a_device_is_refused_before_the_proof(tmp_path):
    """``prove --picture PATH`` draws further boards beside PATH, by renames in its folder:
    a device there is refused at once, and stays."""
    null = device(tmp_path, "board.svg", NULL_DEVICE)
    code, _, err = run_cli(["prove", "well-formedness", "--graph", "path:2", "--picture", str(null)], tmp_path)
    assert code == 2
    one_error_line(err, "is not a file")
    assert is_character_device(null)


# ------------------------------------------------------------------ refused before any work


EMPTY_PATHS = [
    ["count", "grid:1x2", "--out", ""],
    ["count", "grid:1x2", "--json", "--out", ""],
    ["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record", ""],
    ["solve", "grid:1x2", "--certificate", ""],
    ["conjectures", "000", "--points", "1", "--json", ""],
    ["conjectures", "000", "--points", "1", "--pictures", ""],
    ["readings", "004", "--max-points", "2", "--pictures", ""],
    ["errata", "--pictures", ""],
    ["prove", "well-formedness", "--graph", "path:2", "--pictures", ""],
    ["prove", "well-formedness", "--graph", "path:2", "--picture", ""],
    ["replay", "grid:2x2", "--moves", "B A1", "--picture", ""],
    ["fuzz", "--examples", "1", "--out", ""],
    ["sweep", "going-first-is-good", "--graphs", "paths:1-2", "--db", ""],
]


@pytest.mark.parametrize("argv", EMPTY_PATHS, ids=lambda argv: " ".join(argv[:1] + argv[-2:-1]))
def test_an_empty_output_path_is_refused_at_once(argv):
    """An empty path was accepted and the output dropped (``errata --pictures ''`` wrote its
    pictures into the working directory): one line, exit 2, before any work, nothing written."""
    with fresh_directory() as directory:
        started = time.perf_counter()
        code, _, err = run_cli(argv, directory)
        assert code == 2, err
        one_error_line(err, "empty path")
        assert time.perf_counter() - started < 10
        assert list(directory.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "grid:1x2", "--out"],
        ["play", "tromp-taylor", "grid:2x2", "--moves", "A1", "--record"],
        ["solve", "grid:1x2", "--no-progress", "--certificate"],
        ["replay", "grid:2x2", "--moves", "B A1", "--picture"],
    ],
)
def test_a_directory_is_refused_and_left_alone(argv, tmp_path):
    """An output file onto a directory: one line naming it, the directory unchanged."""
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    code, _, err = run_cli([*argv, str(folder)], tmp_path)
    assert code == 2
    one_error_line(err, "is a directory")
    assert folder.is_dir() and list(folder.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where no file can be made")
def test_an_output_where_no_file_can_be_made_is_refused_before_the_work():
    """``conjectures --json FILE`` in a folder no file can be made in (/proc, even for the
    superuser, whom permissions do not stop) ran the whole computation, then named the
    hidden temporary file: it is refused at once, naming the folder."""
    started = time.perf_counter()
    code, _, err = run_cli(["conjectures", "000", "--points", "3", "--json", "/proc/verdicts.json"])
    assert code == 2
    one_error_line(err, "/proc is not writable")
    assert ".tmp" not in err
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize(
    "argv", [["fuzz", "--examples", "1", "--out"], ["conjectures", "000", "--points", "2", "--pictures"]]
)
def test_a_directory_flag_takes_an_existing_directory(argv, tmp_path):
    """A flag naming a directory of files takes one that is there: no error, nothing left
    half-written, and ``fuzz --out DIR`` names no result file (it once did, and failed)."""
    folder = tmp_path / "folder"
    folder.mkdir()
    code, _, err = run_cli([*argv, str(folder)], tmp_path)
    assert code in (0, 1), err
    assert ": error:" not in err and folder.is_dir()


def test_pictures_into_a_linked_directory_keep_the_link(tmp_path):
    """``--pictures LINK`` to a directory: the pictures go into the directory, the link stays."""
    target = tmp_path / "pictures"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    code, _, err = run_cli(["conjectures", "000", "--points", "2", "--pictures", str(link)], tmp_path)
    assert code in (0, 1), err
    assert link.is_symlink()
    assert all(p.suffix == ".svg" for p in target.iterdir())


# ------------------------------------------------------------------ inputs, workers, streams


def test_a_named_fifo_is_refused_as_a_record(tmp_path):
    """``replay-sgf FIFO`` blocked for ever waiting for a writer: refused, one line."""
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    done = gorules(["replay-sgf", str(fifo)], seconds=60)
    assert done.returncode == 2
    one_error_line(done.stderr, "is not a regular file")


def test_a_fifo_in_a_folder_of_records_is_skipped_with_a_note(tmp_path):
    """A FIFO met while scanning a folder blocked the replay for ever: it is skipped, with a
    note on stderr, and the records are replayed."""
    (tmp_path / "good.sgf").write_text("(;SZ[9];B[cc];W[dd])")
    os.mkfifo(tmp_path / "pipe.sgf")
    done = gorules(["replay-sgf", str(tmp_path), "--json"], seconds=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["records"] == 1
    assert "skipped" in done.stderr and "pipe.sgf" in done.stderr


def test_a_certificate_fifo_without_a_writer_is_refused(tmp_path):
    """``check-certificate FIFO`` with no writer blocked for ever in open(): the FIFO is
    opened without waiting and refused, one line, exit 2 (the timeout only guards the test
    against the hang)."""
    fifo = tmp_path / "proof.json"
    os.mkfifo(fifo)
    done = gorules(["check-certificate", str(fifo)], seconds=60)
    assert done.returncode == 2
    one_error_line(done.stderr, "no writer")


def test_a_certificate_is_read_from_a_fifo_its_writer_holds(tmp_path):
    """A FIFO with a writer (the use of ``<(zcat proof.json.gz)``) is read to its end: the
    certificate is checked as from a file."""
    proof = tmp_path / "proof.json"
    assert run_cli(["solve", "grid:1x3", "--no-progress", "--certificate", str(proof)], tmp_path)[0] == 0
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(proof), str(fifo)])
    waiting_writer(writer.pid)
    try:
        done = gorules(["check-certificate", str(fifo), "--expect", "grid:1x3 value=3"], seconds=60)
    finally:
        writer.wait(timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("valid: grid:1x3")


@pytest.mark.parametrize("path", ["/dev/zero", "."], ids=["endless-device", "directory"])
def test_a_certificate_that_is_not_a_file_or_pipe_is_refused(path, tmp_path):
    """A device without end (``/dev/zero`` was read until memory ran out) or a directory:
    refused, one line, exit 2."""
    done = gorules(["check-certificate", path], seconds=60, cwd=tmp_path)
    assert done.returncode == 2
    one_error_line(done.stderr, "only a file or a pipe is read")


def test_a_million_workers_are_capped_by_the_work(tmp_path):
    """``sweep --workers 1000000`` sat at 0/3 until killed: the workers are capped by the
    graphs and the cores, and the sweep finishes."""
    db = tmp_path / "capped.sqlite"
    argv = ["sweep", "going-first-is-good", "--graphs", "paths:1-3", "--db", str(db), "--workers", "1000000"]
    done = gorules([*argv, "--json"], seconds=120)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["graphs"] == 3


def test_readings_beyond_the_atlas_is_one_line():
    """``readings 004 --max-points 99999999999`` is refused at once."""
    code, _, err = run_cli(["readings", "004", "--max-points", "99999999999"])
    assert code == 2
    one_error_line(err, "--max-points")


def test_proving_on_the_empty_graph_is_one_line():
    """``prove well-formedness --graph atlas:0`` (no points) was an IndexError."""
    code, _, err = run_cli(["prove", "well-formedness", "--graph", "atlas:0"])
    assert code == 2
    one_error_line(err, "no points")


@pytest.mark.parametrize("argv", [["count", "grid:1xn"], ["errata"]])
def test_an_ascii_terminal_gets_transliterated_output(argv):
    """``PYTHONIOENCODING=ascii gorules count grid:1xn`` (and ``errata``) ended in exit 3 on a
    UnicodeEncodeError: the characters the encoding lacks are spelt in ASCII."""
    environment = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = gorules(argv, seconds=300, env=environment)
    assert done.returncode in (0, 1), done.stderr
    assert "internal error" not in done.stderr
    assert done.stdout.isascii() and done.stdout.strip()


def in_shell(redirection: str, argv: list[str], **settings) -> subprocess.CompletedProcess:
    """``gorules ARGV`` started by a shell with a redirection (``<&-`` closes stdin)."""
    script = f'exec "$@" {redirection}'
    return subprocess.run(
        ["sh", "-c", script, "sh", *GORULES, *argv], capture_output=True, text=True, timeout=120, **settings
    )


def test_gtp_with_stdin_closed_ends_cleanly():
    """``gorules gtp <&-`` ended in exit 3 (no stdin to read): it reads nothing and ends, 0."""
    done = in_shell("<&-", ["gtp"])
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_with_stderr_closed_the_error_never_lands_on_stdout():
    """With stderr closed (``2>&-``) the error line went to stdout, where a script reads data."""
    done = in_shell("2>&-", ["count", "grid:0x0x"])
    assert done.returncode == 2
    assert done.stdout == ""


# ------------------------------------------------------------------ signals


def results(db: Path) -> int:
    """The results a sweep has stored so far (0 while the file is being made)."""
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.Error:
        return 0


class Signalled:
    """A long ``gorules`` command in its own process group, signalled once it is under way:
    its exit code, its stderr and the workers it had."""

    def __init__(self, argv: list[str], folder: Path):
        """Start ``gorules ARGV`` in ``folder``."""
        self.process = subprocess.Popen(
            [*GORULES, *argv],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.workers: set[int] = set()

    def wait_until(self, ready, seconds: float = 120) -> None:
        """Watch the workers until ``ready()``; the command must still be running then."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None and not ready():
            self.workers |= children(self.process.pid)
            time.sleep(0.05)
        self.workers |= children(self.process.pid)
        assert self.process.poll() is None, "the command ended before it could be signalled"

    def signal(self, number: int, group: bool = False) -> tuple[int, str, str]:
        """Send the signal (to the whole group, as a terminal's Ctrl-C does, with ``group``);
        (exit code, stdout, stderr) once the command has ended."""
        try:
            if group:
                os.killpg(self.process.pid, number)
            else:
                os.kill(self.process.pid, number)
            out, err = self.process.communicate(timeout=60)
        finally:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # whatever a failure left behind
            except ProcessLookupError:
                pass
        return self.process.returncode, out, err

    def left(self, seconds: float = 10) -> list[int]:
        """The workers still running once they have had ``seconds`` to stop."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and any(alive(w) for w in self.workers):
            time.sleep(0.1)
        return [w for w in self.workers if alive(w)]


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize(
    ("number", "group", "code", "words"),
    [
        (signal.SIGTERM, False, 143, "terminated by SIGTERM"),
        (signal.SIGHUP, False, 129, "terminated by SIGHUP"),
        (signal.SIGINT, True, 130, "interrupted"),
    ],
    ids=["SIGTERM", "SIGHUP", "Ctrl-C"],
)
def test_a_signalled_sweep_ends_with_its_code_and_leaves_nothing(number, group, code, words, tmp_path):
    """A sweep on workers, signalled part way: the signal's exit code and one line, no
    result file nor temporary file, and no worker left running (SIGTERM ended the sweep
    with no clean-up at all; Ctrl-C reached the workers, which printed tracebacks)."""
    db, out = tmp_path / "signalled.sqlite", tmp_path / "summary.json"
    argv = ["sweep", "going-first-is-good", "--graphs", KILL_FAMILY, "--db", str(db), "--workers", "2"]
    sweep = Signalled([*argv, "--json", "--out", str(out)], tmp_path)
    sweep.wait_until(lambda: results(db) >= 1 and len(sweep.workers) >= 2)
    exit_code, stdout, stderr = sweep.signal(number, group)
    assert exit_code == code, stderr
    one_error_line(stderr, words)
    assert stdout == ""
    assert sweep.workers and sweep.left() == []
    assert not out.exists() and partial_files(tmp_path) == []


@pytest.mark.slow
def test_errata_pictures_interrupted_leave_no_directory(tmp_path):
    """Ctrl-C during ``errata --pictures DIR``: exit 130, one line, and no DIR nor a
    partial directory of pictures."""
    errata = Signalled(["errata", "--pictures", "pictures"], tmp_path)
    started = time.monotonic()
    errata.wait_until(lambda: time.monotonic() - started > 3)
    code, _, stderr = errata.signal(signal.SIGINT, group=True)
    assert code == 130, stderr
    one_error_line(stderr, "interrupted")
    assert list(tmp_path.iterdir()) == []
