"""Never a traceback, never a runaway: a named regression test for each defect found by
trying the commands as a new user (and an attacker) would, and Hypothesis properties over
hostile graph strings, moves, SGF files, GTP streams, conjecture files and command lines
(see tests/hostile_inputs.py; the GTP server's own tests are in test_gtp_hostile.py, the
sweep's in test_hostile_sweep.py).  The long campaign is benchmarks/hostile_campaign.py."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from gorules.cli import main, quiet_memory_errors
from gorules.errors import json_text, strict
from tests.hostile_inputs import (
    COMMAND_LINES,
    HUGE,
    check_command_line,
    check_conjecture_file,
    check_graph_string,
    check_gtp_stream,
    check_moves,
    check_sgf,
    conjecture_files,
    fresh_directory,
    graph_strings,
    gtp_streams,
    move_lists,
    partial_files,
    run_cli,
    sgf_texts,
)


def one_line_error(argv, words: str, seconds: float = 30, directory: Path | None = None) -> str:
    """Run ``gorules ARGV`` in-process: exit 2 within ``seconds``, one line naming ``words``."""
    started = time.perf_counter()
    code, _, err = run_cli(argv, directory)
    assert code == 2, err
    assert time.perf_counter() - started < seconds
    assert words in err, err
    return err


# ------------------------------------------------------------------ the one error path


def test_argparse_errors_are_one_line():
    """A missing argument, an unknown flag, a bad choice: one line each, exit 2."""
    one_line_error(["count"], "required: graph")
    one_line_error(["count", "grid:3x3", "--bogus"], "unrecognized arguments: --bogus")
    one_line_error(["count", "grid:3x3", "--method", "magic"], "invalid choice")
    one_line_error(["frobnicate"], "invalid choice")


def test_abbreviated_flags_are_not_expanded():
    """``--ko simple`` is not read as ``--komi simple`` (argparse's prefix matching, off): an
    unknown flag, one line, exit 2; the full flag still works."""
    one_line_error(["solve", "path:2", "--ko", "simple", "--no-progress"], "unrecognized arguments: --ko")
    one_line_error(["count", "grid:2x2", "--long"], "unrecognized arguments: --long")
    code, out, _ = run_cli(["solve", "path:2", "--komi", "1", "--no-progress"], None)
    assert code == 0 and "komi=1" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "political", "path:4", "--players", "A,B,C", "--option", "players=A,B,C,D", "--moves", "1"],
        ["best-play", "path:3", "--ruleset", "political", "--players", "A,B", "--option", "players=A,B,C"],
        ["play", "tromp-taylor", "path:3", "--komi", "2", "--option", "komi=7", "--moves", "0"],
    ],
)
def test_a_flag_and_an_option_that_disagree_are_refused(argv):
    """``--players A,B,C`` beside ``--option players=A,B,C,D`` used to keep one of them
    silently; now the contradiction is one line naming both, exit 2."""
    one_line_error(argv, "contradicts --option")


def test_a_flag_and_an_option_that_agree_are_accepted():
    """The same value given twice is no contradiction (the mutant "refuse any repetition" fails here)."""
    code, out, err = run_cli(
        ["play", "political", "path:4", "--players", "A,B,C", "--option", "players=A,B,C", "--moves", "1"]
    )
    assert code == 0, err
    assert "to move: B" in out


def test_internal_error_is_one_line_exit_3_and_debug_shows_the_traceback(monkeypatch, capsys):
    """An unforeseen exception (a bug) is one line with exit 3; ``--debug`` or GORULES_DEBUG=1
    shows its traceback."""
    from gorules.commands import count

    def broken(args):
        raise ZeroDivisionError("deliberately broken")

    monkeypatch.setattr(count, "run", broken)
    assert main(["count", "path:3"]) == 3  # parser built afresh, so it picks up the broken run
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: ZeroDivisionError" in err and "--debug" in err
    assert main(["count", "path:3", "--debug"]) == 3
    assert "Traceback" in capsys.readouterr().err
    monkeypatch.setenv("GORULES_DEBUG", "1")
    assert main(["count", "path:3"]) == 3
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(
    "error,words",
    [(MemoryError(), "out of memory"), (RecursionError("deep"), "recursed too deeply")],
    ids=["memory", "recursion"],
)
def test_memory_and_recursion_errors_are_one_line(error, words, monkeypatch, capsys):
    """MemoryError and RecursionError from any command: one line naming them, exit 2."""
    from gorules.commands import count

    def exhausted(args):
        raise error

    monkeypatch.setattr(count, "run", exhausted)
    assert main(["count", "path:3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


MEMORY_SCRIPT = """
import sys
from gorules.cli import address_space, build_parser, machine_memory, main
import gorules.commands.count as count
build_parser()
count.refuse_if_too_costly = lambda *args: None  # a mutant estimate that lets grid:10x10 (0.8 GB) start
fraction = (address_space() + 200_000_000) / machine_memory()
sys.exit(main(["--memory-limit", repr(fraction), "count", "grid:10x10", "--method", sys.argv[1], "--seconds", "250"]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("method", ["dp", "packed"])
def test_memory_ceiling_turns_exhaustion_into_one_line(method):
    """A count of grid:10x10 under a ceiling 0.2 GB above what the program uses (its estimate
    disabled so that it starts): the exact dictionary program (dp) needs 0.8 GB; the packed
    program's compiled kernels load native libraries (OpenBLAS, through numba) that cannot map
    their memory there.  Each exhaustion ends in the one-line error naming --memory-limit,
    exit 2, never a killed process, a hang or an internal error."""
    if method == "packed":  # its kernels compiled and cached first, outside the ceiling
        warm = [sys.executable, "-m", "gorules", "count", "grid:6x6", "--method", "packed"]
        assert subprocess.run(warm, capture_output=True, text=True, timeout=300).returncode == 0
    script = [sys.executable, "-c", MEMORY_SCRIPT, method]
    finished = subprocess.run(script, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 2, finished.stderr
    assert finished.stderr.count("\n") == 1 and "out of memory" in finished.stderr


@pytest.mark.slow
@pytest.mark.parametrize("attempt", range(3))
def test_memory_ceiling_met_while_the_kernels_compile_is_one_line(attempt, tmp_path):
    """The packed count with an empty kernel cache, so that numba compiles its kernels under
    the ceiling: where the memory runs out (in numba's generators as they are freed, or as
    the ceiling is lifted after the work) varies from run to run, and every run ends in the
    one line, exit 2."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    script = [sys.executable, "-c", MEMORY_SCRIPT, "packed"]
    finished = subprocess.run(script, capture_output=True, text=True, timeout=300, env=environment)
    assert finished.returncode == 2, finished.stderr
    assert finished.stderr.count("\n") == 1 and "out of memory" in finished.stderr, finished.stderr


class Unraisable:
    """An object whose destructor raises ``error``: Python can only report it, not raise it."""

    def __init__(self, error: BaseException):
        self.error = error

    def __del__(self):
        raise self.error


def test_only_memory_errors_that_cannot_be_raised_are_kept_quiet(capsys):
    with quiet_memory_errors():
        Unraisable(MemoryError())
        assert capsys.readouterr().err == ""
        seen = []
        previous, sys.unraisablehook = sys.unraisablehook, seen.append
        try:
            with quiet_memory_errors():
                Unraisable(ValueError("a bug to see"))
        finally:
            sys.unraisablehook = previous
        assert [type(u.exc_value) for u in seen] == [ValueError]


def test_bad_memory_limit_is_one_line(monkeypatch):
    """The ceiling's flag and variable are checked like any input."""
    one_line_error(["--memory-limit", "2", "count", "path:3"], "--memory-limit")
    one_line_error(["--memory-limit", "0.0000001", "count", "path:3"], "already uses")
    monkeypatch.setenv("GORULES_MEMORY_LIMIT", "lots")
    one_line_error(["count", "path:3"], "GORULES_MEMORY_LIMIT")


def test_strict_json_writes_infinities_as_strings():
    """±inf and NaN are not JSON: written as strings, nested anywhere; finite numbers kept."""
    data = {"value": -float("inf"), "rows": [float("inf"), float("nan"), 1.5, (2, None)]}
    assert strict(data) == {"value": "-inf", "rows": ["inf", "nan", 1.5, [2, None]]}
    assert json_text(data) == '{"value": "-inf", "rows": ["inf", "nan", 1.5, [2, null]]}'


# ------------------------------------------------------------------ graph strings


@pytest.mark.parametrize("command", [["count"], ["replay"], ["prove", "--graph"], ["gtp", "--graph"]])
@pytest.mark.parametrize("graph", [f"path:{HUGE}", f"grid:{HUGE}x3", f"edges:0-{HUGE}", f"star:{HUGE}"])
def test_graph_numbers_beyond_the_digit_limit(command, graph):
    """Numbers of 5,000 digits (beyond Python's 4,300-digit conversion limit) in a graph string:
    one line, quoting the value cut short, for every command that reads a graph."""
    err = one_line_error([*command, graph], "bad graph")
    assert len(err) < 400


def test_error_lines_are_cut_short(tmp_path):
    """Whatever a library puts in its message, the error line stays short."""
    write_records(tmp_path, bad=f"(;SZ[{HUGE}];B[cc])")
    err = one_line_error(["replay-sgf", str(tmp_path / "bad.sgf")], "SZ")
    assert len(err) < 600


@pytest.mark.parametrize(
    "argv,words",
    [
        (["count", "path:100000000000000000000000"], "too large"),
        (["replay", "path:100000000", "--moves", "0"], "at most 100,000 points"),
        (["count", "complete:2000"], "arcs"),
    ],
)
def test_huge_graphs_refused_as_read(argv, words):
    """``count path:10^23`` ran on without an answer; ``replay path:100000000`` ended in
    MemoryError: both are refused as the graph is read, in well under a second of work."""
    one_line_error(argv, words, seconds=10)


# ------------------------------------------------------------------ budgets before work


def test_replay_on_a_large_graph_refused_before_work():
    """The spec's replay takes time quadratic in the points: ``replay path:100000`` ran on
    silently; refused now, naming --seconds (and path:50 with a tiny budget, so the estimate
    is not blind)."""
    one_line_error(["replay", "path:100000", "--moves", "0, 5, pass"], "--seconds", seconds=10)
    one_line_error(["replay", "path:50", "--moves", "0", "--seconds", "1e-9"], "--seconds")
    assert run_cli(["replay", "path:50", "--moves", "0", "--json"])[0] == 0


def test_count_grid_14x14_refused_before_work():
    """``count grid:14x14`` took 10.5 GB: refused at once, naming the memory ceiling's flag."""
    one_line_error(["count", "grid:14x14"], "--memory-limit", seconds=10)


def test_count_complete_200_refused_at_once():
    """Refusing ``count complete:200`` took long (the ordering search ran first): the
    degeneracy bound refuses it before any ordering is sought."""
    one_line_error(["count", "complete:200"], "frontier of at least 199", seconds=5)


def test_count_beyond_the_time_budget_names_the_flag():
    """A count estimated beyond ``--seconds`` is refused, naming the flag; the estimate is not
    blind (a mutant budget of 1e-9 s refuses even path:3's enumeration)."""
    one_line_error(["count", "grid:12x12"], "--seconds", seconds=10)
    one_line_error(["count", "grid:9x9", "--seconds", "1"], "--seconds", seconds=10)
    one_line_error(["count", "path:3", "--seconds", "1e-9"], "--seconds")
    one_line_error(["count", "path:3", "--seconds", "inf"], "--seconds")
    assert run_cli(["count", "grid:4x4", "--seconds", "30"])[0] == 0


def test_count_stops_when_the_deadline_passes(monkeypatch):
    """A count that runs past its budget stops with one line saying how far it got."""
    from gorules.commands import count

    monkeypatch.setattr(count, "refuse_if_too_costly", lambda *args: None)  # let it start
    one_line_error(["count", "grid:7x7", "--seconds", "0.05"], "ran out after")


def test_generic_solve_stops_when_its_time_budget_passes():
    """``solve grid:3x3 --ruleset topological``, searched through the interface's alpha-beta,
    runs far longer than a second: ``--seconds`` stops it with one line saying how far it got
    (a search without the clock would run on for hours, far past the bound below)."""
    started = time.perf_counter()
    err = one_line_error(
        ["solve", "grid:3x3", "--ruleset", "topological", "--seconds", "1", "--no-progress"], "time budget"
    )
    assert "nodes" in err and "--seconds" in err
    assert time.perf_counter() - started < 120


def test_solve_refuses_a_ruleset_without_a_value_before_its_progress_bar():
    """Political Go's spec implementation (without the best-play solve capability of its
    engine twin) has no two-player value: one line on stderr, no progress bar drawn first."""
    err = one_line_error(
        ["solve", "grid:2x2", "--ruleset", "political", "--implementation", "spec"], "not a two-player game"
    )
    assert len(err.strip().splitlines()) == 1 and "nodes/s" not in err


def test_prove_large_graph_refused_before_any_encoding():
    """``prove … grid:9x9`` ran with no output and no budget: refused at once, naming the flag."""
    one_line_error(["prove", "clear-characterization", "--graph", "grid:9x9"], "--max-points", seconds=10)


@pytest.mark.parametrize("points", ["12", "99999999999"])
def test_readings_004_beyond_the_atlas_is_one_line(points):
    """``readings 004 --points 99999999999`` gave no answer: the atlas ends at 7 points."""
    one_line_error(["readings", "004", "--points", points], "must be 1..7", seconds=10)


def test_readings_004_of_seven_points_is_refused_by_its_estimate():
    """The estimate reads the atlas once, so a size the time does not allow is refused at once."""
    one_line_error(["readings", "004", "--points", "7"], "raise --seconds", seconds=10)


def test_prove_on_the_empty_graph_is_one_line():
    """``prove --graph atlas:0`` (the graph of no points) was an internal error in the encoding."""
    one_line_error(["prove", "well-formedness", "--graph", "atlas:0"], "has no points", seconds=10)


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "0", "-3"])
def test_prove_timeout_must_be_finite_and_positive(value):
    """``--timeout inf`` ended in an OverflowError traceback."""
    one_line_error(["prove", "clear-characterization", "--graph", "grid:2x2", "--timeout", value], "--timeout")


TIME_LIMITS = [
    ["solve", "grid:2x2", "--seconds"],
    ["best-play", "path:3", "--seconds"],
    ["fundamental-score", "path:3", "--seconds"],
    ["analyse", "graph: path:3; board: ...; to move: B", "--seconds"],
    ["count", "path:3", "--seconds"],
    ["replay", "path:3", "--seconds"],
    ["readings", "001", "--seconds"],
    ["topological-sweep", "--seconds"],
    ["ultimate-table", "--area-seconds"],
]


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
@pytest.mark.parametrize("argv", TIME_LIMITS, ids=lambda argv: argv[0])
def test_every_time_limit_is_finite_and_positive(argv, value):
    """``solve --seconds nan`` ran without a limit, ``best-play --seconds nan`` ended as an
    internal error (exit 3), ``fundamental-score --seconds nan`` was refused only after its
    progress bar had started: every time limit is now read as a positive finite number."""
    one_line_error([*argv, value], f"{argv[-1]}: expected a positive finite number", seconds=10)


# ------------------------------------------------------------------ files whole or not at all


def test_prove_writes_nothing_unless_asked(tmp_path, monkeypatch):
    """``prove`` wrote SVG and SGF files into the current directory without being asked."""
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(["prove", "move-definedness", "--graph", "grid:2x2", "--as-written"])
    assert code == 1 and "refuted" in out
    assert list(tmp_path.iterdir()) == []


def test_prove_pictures_appear_whole_or_not_at_all(tmp_path, monkeypatch):
    """A failure while drawing (here the second picture) leaves no directory and no partial
    files; the same run without the failure makes the whole directory."""
    from gorules import pictures

    real = pictures.save_picture
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(args[2]))
        return real(*args, **kwargs)

    target = tmp_path / "out"
    argv = ["prove", "move-definedness", "--graph", "grid:2x2", "--as-written", "--pictures", str(target)]
    monkeypatch.setattr(pictures, "save_picture", failing)
    one_line_error(argv, "No space left on device")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(pictures, "save_picture", real)
    assert run_cli(argv, tmp_path)[0] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and len(list(target.iterdir())) >= 2


@pytest.mark.slow
def test_errata_pictures_appear_whole_or_not_at_all(tmp_path, monkeypatch):
    """``errata --pictures`` left some pictures behind when it failed part way."""
    from gorules import pictures

    real = pictures.save_picture
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(args[2]))
        return real(*args, **kwargs)

    monkeypatch.setattr(pictures, "save_picture", failing)
    one_line_error(["errata", "--pictures", str(tmp_path / "out")], "No space left on device")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "grid:3x3", "--moves", "B B2", "--picture", "{blocker}/x.svg"],
        ["errata", "--pictures", "{blocker}/dir"],
        ["prove", "move-definedness", "--graph", "grid:2x2", "--pictures", "{blocker}/dir"],
    ],
    ids=["replay", "errata", "prove"],
)
def test_unwritable_picture_path_refused_before_work(argv, tmp_path):
    """An unwritable picture path (under a file) is refused with one line before any work."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    one_line_error([a.replace("{blocker}", str(blocker)) for a in argv], "not a directory", seconds=20)
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


# ------------------------------------------------------------------ SGF records


def write_records(directory: Path, **records: str) -> None:
    """SGF files NAME.sgf with the given texts."""
    directory.mkdir(exist_ok=True)
    for name, text in records.items():
        (directory / f"{name}.sgf").write_text(text)


@pytest.mark.parametrize(
    "text,words",
    [
        ("(;GM[1]SZ[9]HA[abc];B[cc])", "HA[abc] is not a number"),
        ("(;GM[x]SZ[9];B[cc])", "GM[x] is not a number"),
        ("(;SZ[26];B[cc])", "SZ[26] is outside"),
        (f"(;SZ[{HUGE}];B[cc])", "SZ"),
        ("not sgf", "not a readable SGF record"),
    ],
)
def test_single_broken_record_is_one_line(text, words, tmp_path):
    """One file that cannot be read: one line naming the file and the problem, exit 2."""
    write_records(tmp_path, bad=text)
    one_line_error(["replay-sgf", str(tmp_path / "bad.sgf")], words)


def test_size_1_record_replays(tmp_path):
    """``SZ[1]`` ended in a traceback from sgfmill's board: the record replays (sgfmill has no
    1x1 board, so it is not asked)."""
    write_records(tmp_path, one="(;SZ[1];B[];W[])")
    assert run_cli(["replay-sgf", str(tmp_path / "one.sgf")])[0] == 0


def test_one_broken_record_does_not_abort_a_directory(tmp_path):
    """``HA[abc]`` in one file aborted the whole directory replay: now it is listed as
    unreadable, the other records are replayed, and the exit code is 1 (not 0)."""
    write_records(tmp_path, bad="(;SZ[9]HA[abc];B[cc])", good="(;SZ[9];B[cc];W[dd])", big="(;SZ[30];B[aa])")
    code, out, _ = run_cli(["replay-sgf", str(tmp_path), "--json"])
    assert code == 1
    import json

    summary = json.loads(out)["summary"]
    assert summary["records"] == 3 and len(summary["unreadable"]) == 2 and summary["moves"] == 2


def test_all_records_readable_exits_0(tmp_path):
    """The exit code is not always 1: readable, agreeing records give 0."""
    write_records(tmp_path, a="(;SZ[9];B[cc];W[dd])", b="(;SZ[5];B[aa])")
    assert run_cli(["replay-sgf", str(tmp_path)])[0] == 0


def test_gnugo_with_a_board_larger_than_19_is_one_line(tmp_path):
    """``--gnugo`` on a 21x21 record (GNU Go stops at 19x19): one line before GNU Go starts."""
    write_records(tmp_path, big="(;SZ[21];B[aa])")
    one_line_error(["replay-sgf", str(tmp_path / "big.sgf"), "--gnugo"], "GNU Go plays boards up to 19x19")


# ------------------------------------------------------------------ properties (Hypothesis)


@given(graph_strings())
def test_any_graph_string(text):
    """Any graph string: read or refused with one line, count keeps the error path."""
    check_graph_string(text)


@given(move_lists())
def test_any_move_list(text):
    """Any move list on grid:3x3: replayed or refused with one line."""
    check_moves(text)


@given(sgf_texts())
@settings(max_examples=40)
def test_any_sgf_file(data):
    """Any SGF text (huge and wrong sizes, wrong property values, deep variations, cut short):
    read or refused with one line, no partial file."""
    with tempfile.TemporaryDirectory() as directory:
        check_sgf(data, Path(directory))


@given(gtp_streams())
def test_any_gtp_stream(lines):
    """Any stream of GTP lines: every line answered, never an internal error."""
    check_gtp_stream(lines)


@given(conjecture_files())
@settings(max_examples=25)
def test_any_conjecture_file(source):
    """Any conjecture file: swept or refused with one line; refused means no results file."""
    with tempfile.TemporaryDirectory() as directory:
        check_conjecture_file(source, Path(directory))


@given(COMMAND_LINES)
def test_any_command_line(argv):
    """Any command line of real and broken pieces: exit 0, 1 or 2, never a traceback."""
    with fresh_directory() as directory:
        check_command_line(argv, directory)
        assert partial_files(directory) == []


def test_properties_are_not_blind(monkeypatch):
    """The checks fail on a deliberately broken command: a count that raises a plain
    exception (exit 3) is caught by the property's assertion."""
    from gorules.commands import count

    def broken(args):
        raise ValueError("deliberately broken")

    monkeypatch.setattr(count, "run", broken)
    with pytest.raises(AssertionError, match="exit 3"):
        check_graph_string("path:3")


def test_record_file_too_large_is_refused_unread(tmp_path, monkeypatch):
    """A record file beyond the reader's limit is one line, read no further than the limit."""
    from gorules.impl.formats import sgf

    monkeypatch.setattr(sgf, "LARGEST_RECORD", 1000)
    write_records(tmp_path, big="(;SZ[9]" + ";B[aa];W[bb]" * 200 + ")", small="(;SZ[9];B[aa])")
    one_line_error(["replay-sgf", str(tmp_path / "big.sgf")], "not a game record this reader takes")
    assert run_cli(["replay-sgf", str(tmp_path / "small.sgf")])[0] == 0


# ------------------------------------------------------------------ the solvers' and rulesets' defects


def test_play_topological_4x4_plays_and_the_spec_refuses_in_one_line():
    """Once a 6.8 GB memory bomb: the twin plays grid:4x4, the spec (every open set stored)
    refuses it in one line that names the twin."""
    code, out, _ = run_cli(["play", "topological", "grid:4x4", "--moves", "A1"])
    assert code == 0 and "to move: W" in out
    one_line_error(["play", "topological", "grid:4x4", "--implementation", "spec"], "--implementation engine")


@pytest.mark.parametrize("graph", ["path:5", "grid:2x3"])
def test_fundamental_score_on_five_and_six_points_ends_with_a_score(graph):
    """Once out-of-memory tracebacks: now a score (or bounds) within the node budget."""
    import json

    code, out, _ = run_cli(["fundamental-score", graph, "--max-nodes", "200000", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["graph"] == graph and ("score" in data or "lower" in data)


def test_fundamental_score_grid_3x3_refused_in_one_line():
    """Once a RecursionError: refused before any search, naming the flag."""
    one_line_error(["fundamental-score", "grid:3x3"], "--max-points")


def test_solve_out_of_budget_reports_bounds_in_strict_json():
    """Once minutes without a word: the budget ends the search with proven bounds, and the
    JSON holds no Infinity."""
    import json

    code, out, _ = run_cli(["solve", "path:12", "--seconds", "1", "--json", "--no-progress"])
    assert code == 0

    def refuse(constant: str):
        raise AssertionError(f"not JSON: {constant}")

    data = json.loads(out, parse_constant=refuse)
    assert data["status"] == "bounds" and data["value"] is None and data["lower"] <= data["upper"]
