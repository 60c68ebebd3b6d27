"""Hostile inputs and the properties every command must keep on them.

The strategies generate graph strings, move lists, SGF files, GTP streams, conjecture
files and command lines, mixing valid pieces with broken ones (numbers of thousands of
digits, foreign digits, control characters, wrong property values, deep variation trees).
Each ``check_*`` function runs one input (in-process through ``gorules.cli.main``, or
through the GTP endpoint) and asserts the rules of the one error path:

- the exit code is 0, 1 or 2 (3 would be an internal error, a bug);
- stderr is empty or one line, and never holds a traceback;
- the command ends within its time bound;
- no partial file is left behind (no ``*.tmp``, no ``*.partial`` directory).

``COUNTS`` counts the inputs tried and commands run (the campaign script reports them).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import strategies as st

from gorules.cli import main
from gorules.impl.formats.gtp_server import GtpEndpoint
from gorules.impl.formats.sgf import RecordError, parse_sgf
from gorules.spec.graph import parse_graph

COUNTS: Counter = Counter()
TIME_BOUND = 60.0  # seconds for one in-process command

HUGE = "9" * 5000
NUMBERS = st.one_of(
    st.integers(0, 30).map(str),
    st.sampled_from(["0", "00", "-1", "1e3", "²", "٣", "4300", HUGE, "1" + "0" * 23, "99999999999", " 3", "3 "]),
)
KINDS = st.sampled_from(["grid", "path", "cycle", "complete", "star", "atlas", "edges", "digraph", "petersen", "", "x"])


@st.composite
def graph_strings(draw) -> str:
    """A graph string, often well-formed, often not."""
    kind = draw(KINDS)
    if kind == "grid":
        body = draw(NUMBERS) + draw(st.sampled_from(["x", "X", "×", "*", ""])) + draw(NUMBERS)
    elif kind in ("edges", "digraph"):
        arrow = "-" if kind == "edges" else ">"
        arcs = draw(st.lists(st.tuples(NUMBERS, NUMBERS), min_size=0, max_size=5))
        body = ",".join(f"{a}{draw(st.sampled_from([arrow, '-', '>', '']))}{b}" for a, b in arcs)
    elif kind == "petersen":
        body = draw(st.sampled_from(["", "3"]))
    else:
        body = draw(NUMBERS)
    text = f"{kind}:{body}" if draw(st.booleans()) or kind != "petersen" else kind
    if draw(st.integers(0, 9)) == 0:
        text += draw(st.text(max_size=5))
    return text


MOVE_WORDS = st.one_of(
    st.sampled_from(["pass", "B", "W", "A1", "B2", "C3", "J9", "Z1", "aa", "zz", "0", "4", "8", "9", HUGE, "²", ""]),
    st.text(max_size=4),
)


@st.composite
def move_lists(draw) -> str:
    """A move list for ``gorules replay``: colours, points, passes and junk, comma-separated."""
    moves = draw(st.lists(st.tuples(st.sampled_from(["", "B ", "W ", "X "]), MOVE_WORDS), max_size=12))
    return ", ".join(f"{c}{w}" for c, w in moves)


SGF_PROPERTIES = st.sampled_from(
    ["SZ[9]", "SZ[1]", "SZ[26]", "SZ[0]", f"SZ[{HUGE}]", "SZ[abc]", "SZ[5:7]", "HA[abc]", "HA[2]", "KM[x]", "KM[6.5]"]
    + ["GM[1]", "GM[2]", "GM[x]", "FF[4]", "AB[aa][bb]", "AW[zz]", "AE[cc]", "RE[B+R]", "C[\\]]", "PL[W]"]
)
SGF_MOVES = st.sampled_from(["B[aa]", "W[bb]", "B[]", "W[tt]", "B[zz]", "W[ab", "B[cc]", "W[dd]", "B[A1]", "X[aa]"])


@st.composite
def sgf_texts(draw) -> bytes:
    """SGF text: a root of chosen properties, a main line, sometimes deep variations or junk."""
    root = "".join(draw(st.lists(SGF_PROPERTIES, max_size=5)))
    moves = "".join(f";{m}" for m in draw(st.lists(SGF_MOVES, max_size=20)))
    depth = draw(st.sampled_from([0, 0, 0, 5, 2000]))
    variations = "(;B[aa]" * depth + ")" * depth
    text = f"(;{root}{moves}{variations})"
    cut = draw(st.integers(0, 20))
    if cut == 0:
        text = text[: draw(st.integers(0, len(text)))]
    elif cut == 1:
        text += draw(st.text(max_size=10))
    return text.encode("utf-8", errors="replace")


GTP_WORDS = st.sampled_from(
    ["play", "genmove", "undo", "boardsize", "clear_board", "komi", "showboard", "final_score", "list_stones"]
    + ["known_command", "name", "quit", "frobnicate", "b", "w", "black", "white", "pass", "A1", "C3", "Z25"]
    + ["3", "5", "0", "26", "²", HUGE, "nan", "inf", "-7.5", "#", "\t", "\x00"]
)


@st.composite
def gtp_streams(draw) -> list[str]:
    """Lines of GTP: words from commands, arguments and junk, with optional ids."""
    lines = []
    for _ in range(draw(st.integers(1, 30))):
        words = draw(st.lists(GTP_WORDS, min_size=0, max_size=4))
        ident = draw(st.sampled_from(["", "", "7 ", "0 ", HUGE + " "]))
        lines.append(ident + " ".join(words))
    return lines


CONJECTURE_TEMPLATE = """\
from gorules.conjectures import conjecture

@conjecture(figures={figures!r}, ruleset={ruleset!r}{preset})
def mine(graph, figures):
    {body}
"""


@st.composite
def conjecture_files(draw) -> str:
    """A conjecture file: known and unknown figures and rulesets, predicates that hold, fail,
    raise or return junk, and files that are not Python at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["this is not python", "import nonexistent_module_xyz", "", "x = 1"]))
    figures = draw(st.lists(st.sampled_from(["boards", "no-such-figure"]), min_size=1, max_size=2, unique=True))
    ruleset = draw(st.sampled_from(["tromp-taylor", "no-such-rules", "directed"]))
    preset = draw(st.sampled_from(["", ", preset='no-such-preset'", ", preset='no-suicide'"]))
    body = draw(
        st.sampled_from(
            [
                "return True",
                "return False",
                "raise RuntimeError('deliberately')",
                "return figures['missing']",
                "return 1 / 0",
                "return None",
                "while False: pass",
            ]
        )
    )
    return CONJECTURE_TEMPLATE.format(figures=figures, ruleset=ruleset, preset=preset, body=body)


COMMAND_LINES = st.lists(
    st.one_of(
        st.sampled_from(["count", "replay", "replay-sgf", "sweep", "gtp-nope", "--json", "--bogus", "-h"]),
        st.sampled_from(["--method", "dp", "enumerate", "--seconds", "0", "-1", "inf", "nan", "2", "--moves", "B A1"]),
        st.sampled_from(["--graphs", "paths:1-3", "--list", "--memory-limit", "0.5", "7", "--preset", "bogus"]),
        st.sampled_from(["--option", "ko=simple", "ko=", "=", "--workers", "0", "path:3", "grid:2x2", HUGE]),
        st.sampled_from(["--out", "--picture", "--pictures", "", "-", ".", "/proc/out.json", "--workers", "999999"]),
        graph_strings(),
    ),
    max_size=6,
)


def partial_files(directory: Path) -> list[str]:
    """Files a half-finished write would leave: temporary files and partial directories."""
    return sorted(str(p) for p in directory.rglob("*") if p.name.endswith((".tmp", ".partial")))


def run_cli(argv: list[str], directory: Path | None = None, stdin: str = "") -> tuple[int, str, str]:
    """``gorules ARGV`` in this process; assert the one error path; (code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        import sys

        saved_stdin = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            code = main(argv)
        except SystemExit as stop:  # only --help may end this way
            code = stop.code if isinstance(stop.code, int) else 2
        finally:
            sys.stdin = saved_stdin
    seconds = time.perf_counter() - started
    COUNTS["commands"] += 1
    stderr = err.getvalue()
    assert code in (0, 1, 2), f"exit {code} for {argv!r}: {stderr}"
    assert "Traceback" not in stderr, f"traceback for {argv!r}: {stderr}"
    if code == 2:
        assert len(stderr.strip().splitlines()) == 1, f"not one line for {argv!r}: {stderr!r}"
    assert seconds < TIME_BOUND, f"{argv!r} took {seconds:.1f} s"
    if directory is not None:
        assert partial_files(directory) == [], f"partial files after {argv!r}"
    return code, out.getvalue(), stderr


def check_graph_string(text: str) -> None:
    """A graph string is read or refused with a GraphError, quickly; and ``count`` on it keeps
    the one error path within its budget."""
    COUNTS["inputs"] += 1
    started = time.perf_counter()
    try:
        parse_graph(text)
    except ValueError:
        pass
    assert time.perf_counter() - started < 5
    run_cli(["count", text, "--method", "enumerate", "--seconds", "2", "--json"])


def check_moves(text: str) -> None:
    """A move list on grid:3x3 is replayed or refused with one line."""
    COUNTS["inputs"] += 1
    run_cli(["replay", "grid:3x3", "--moves", text, "--json"])


def check_sgf(data: bytes, directory: Path) -> None:
    """SGF bytes are read into a record or refused with RecordError; ``replay-sgf`` on the file
    keeps the one error path."""
    COUNTS["inputs"] += 1
    try:
        parse_sgf(data, "hostile.sgf")
    except RecordError as error:
        assert "\n" not in str(error)
    path = directory / "hostile.sgf"
    path.write_bytes(data)
    run_cli(["replay-sgf", str(path), "--json"], directory)


def check_gtp_stream(lines: list[str]) -> None:
    """Every line gets an answer (or none for blank and comment lines), never an internal
    error, and the session goes on."""
    COUNTS["inputs"] += 1
    endpoint = GtpEndpoint(parse_graph("grid:3x3"), "tromp-taylor", 1)
    for line in lines:
        answer = endpoint.respond(line)
        COUNTS["commands"] += 1
        if answer is not None:
            assert answer[0] in "=?" and answer.endswith("\n\n"), (line, answer)
            assert "internal error" not in answer, (line, answer)
        endpoint.finished = False
    assert endpoint.respond("name") == "= gorules\n\n"


def check_conjecture_file(source: str, directory: Path) -> None:
    """A conjecture file is swept or refused with one line; a refused sweep makes no results
    file."""
    COUNTS["inputs"] += 1
    path = directory / "mine.py"
    path.write_text(source)
    db = directory / "results.sqlite"
    if db.exists():
        db.unlink()
    code, _, _ = run_cli(
        ["sweep", "--conjecture-file", str(path), "--graphs", "paths:1-2", "--db", str(db), "--workers", "0"],
        directory,
    )
    if code == 2:
        assert not db.exists()


def check_command_line(argv: list[str], directory: Path) -> None:
    """Any command line made of real and broken pieces keeps the one error path."""
    COUNTS["inputs"] += 1
    run_cli([*argv, "--db", str(directory / "r.sqlite")] if "sweep" in argv else argv, directory)


# ------------------------------------------------------------------ killed sweeps

KILL_FAMILY = "paths:1-6+cycles:3-6+graph:atlas:44+graph:atlas:46+graph:atlas:48+graph:atlas:49"


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextlib.contextmanager
def fresh_directory():
    """A new temporary directory (its path given to the block), the working directory while
    the block runs."""
    with tempfile.TemporaryDirectory() as directory:
        cwd = os.getcwd()
        os.chdir(directory)
        try:
            yield Path(directory)
        finally:
            os.chdir(cwd)


def still_running(workers: set[int], seconds: float = 10) -> list[int]:
    """The workers still running once they have had ``seconds`` to stop."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.1)
    return [w for w in workers if alive(w)]


def waiting_writer(pid: int) -> None:
    """Return once process ``pid`` waits in open() for a FIFO's reader (Linux names that wait
    ``wait_for_partner``), so that the reader finds a writer; give up after a few seconds."""
    for _ in range(100):
        try:
            if Path(f"/proc/{pid}/wchan").read_text() == "wait_for_partner":
                return
        except OSError:
            return
        time.sleep(0.05)
