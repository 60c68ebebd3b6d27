"""One vocabulary and one set of flags across the commands: ``--json`` prints one JSON document
on stdout in every command, ``--out FILE`` writes the result, ``--json FILE`` still writes its
file with a note, and the older spellings of the shared flags still work."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest

from gorules.cli import build_parser, main
from gorules.flags import PointRange, point_range


def small_runs(tmp_path: Path) -> dict[str, list[str]]:
    """One small run of each command (without ``--json``)."""
    from gorules.impl.engine.rules import Game
    from gorules.impl.formats.sgf import save_sgf
    from gorules.spec.graph import grid

    certificate = tmp_path / "certificate.json"
    assert main(["solve", "path:3", "--no-progress", "--certificate", str(certificate)]) == 0
    record = tmp_path / "game.sgf"
    board = grid(3, 3)
    game = Game(board)
    game.play(4)
    game.play(0)
    save_sgf(board, list(game.moves), record, komi=0.5)
    return {
        "analyse": ["analyse", "graph: path:2; board: ..; to move: B"],
        "best-play": ["best-play", "path:3", "--horizon", "1"],
        "check-certificate": ["check-certificate", str(certificate)],
        "conjectures": ["conjectures", "000", "--points", "1"],
        "count": ["count", "path:3"],
        "errata": ["errata"],
        "explore": ["explore", str(certificate)],
        "fundamental-score": ["fundamental-score", "path:2"],
        "fuzz": ["fuzz", "--examples", "3", "--out", str(tmp_path / "vectors")],
        "gtp": ["gtp", "--graph", "grid:3x3"],
        "play": ["play", "tromp-taylor", "path:3", "--moves", "1"],
        "prove": ["prove", "well-formedness", "--graph", "path:2"],
        "readings": ["readings", "001", "--points", "1", "--quiet"],
        "replay": ["replay", "path:3", "--moves", "B 1"],
        "replay-sgf": ["replay-sgf", str(record)],
        "solve": ["solve", "path:3", "--no-progress"],
        "sweep": ["sweep", "--list"],
        "topological-sweep": ["topological-sweep", "--points", "1", "--quiet"],
        "ultimate-claims": ["ultimate-claims", "path:2"],
        "ultimate-examples": ["ultimate-examples", "--points", "11", "--exact-points", "0"],
        "ultimate-table": ["ultimate-table", "--points", "2"],
        "verify": ["verify", "--only", "1×n transfer matrix"],
    }


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, by name."""
    parser = build_parser()
    found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(found.choices)


GTP_SESSION = "protocol_version\n1 play b B2\nbogus\nquit\n"


def run(argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one command (gtp reads a short session on stdin)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(GTP_SESSION))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_every_command_prints_one_json_document_on_stdout(tmp_path, capsys, monkeypatch):
    runs = small_runs(tmp_path)
    capsys.readouterr()
    assert set(runs) == set(commands()), "a command without a small run here"
    for name, argv in runs.items():
        code, out, err = run([*argv, "--json"], capsys, monkeypatch)
        assert code in (0, 1), (name, err)
        json.loads(out)  # one document: text before or after it would not parse


def test_every_command_takes_json_and_out_or_says_why_not():
    for name, parser in commands().items():
        options = {o for action in parser._actions for o in action.option_strings}
        assert "--json" in options, name
        if "--out" in options:
            out = next(a for a in parser._actions if "--out" in a.option_strings)
            assert out.metavar in ("FILE", "DIR"), name


def test_gtp_session_as_json(capsys, monkeypatch):
    code, out, _ = run(["gtp", "--graph", "grid:3x3", "--json"], capsys, monkeypatch)
    assert code == 0
    session = json.loads(out)
    assert [e["command"] for e in session["exchanges"]] == ["protocol_version", "1 play b B2", "bogus", "quit"]
    assert [e["success"] for e in session["exchanges"]] == [True, True, False, True]
    assert session["exchanges"][0]["answer"] == "2"
    assert session["exchanges"][1]["id"] == "1"


def test_out_dash_is_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["count", "path:3", "--json", "--out", "-"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(out)["legal_positions"] == 15
    assert not (tmp_path / "-").exists()


def test_out_file_holds_the_json_and_stdout_the_text(tmp_path, capsys, monkeypatch):
    target = tmp_path / "count.json"
    code, out, _ = run(["count", "path:3", "--json", "--out", str(target)], capsys, monkeypatch)
    assert code == 0
    assert json.loads(target.read_text())["legal_positions"] == 15
    assert "legal positions  15" in out


def test_out_file_without_json_holds_the_text(tmp_path, capsys, monkeypatch):
    target = tmp_path / "count.txt"
    code, out, _ = run(["count", "path:3", "--out", str(target)], capsys, monkeypatch)
    assert code == 0
    assert "legal positions  15" in target.read_text()
    assert "legal positions  15" in out


def test_out_into_a_directory_is_refused_before_work(tmp_path, capsys, monkeypatch):
    code, _, err = run(["count", "path:3", "--out", str(tmp_path)], capsys, monkeypatch)
    assert code == 2
    assert "is a directory" in err and len(err.strip().splitlines()) == 1


def test_json_file_still_writes_the_file_and_says_it_is_deprecated(tmp_path, capsys, monkeypatch):
    target = tmp_path / "verdicts.json"
    argv = ["topological-sweep", "--points", "1", "--quiet", "--json", str(target)]
    code, out, err = run(argv, capsys, monkeypatch)
    assert code == 0
    assert json.loads(target.read_text())["max_points"] == 1
    assert "deprecated" in err and f"--json --out {target}" in err
    assert out.strip() and not out.lstrip().startswith("{")  # the text, as before


def test_json_dash_prints_json_and_makes_no_file_named_dash(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["topological-sweep", "--points", "1", "--quiet", "--json", "-"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(out)["max_points"] == 1
    assert not (tmp_path / "-").exists()


def test_json_file_and_another_out_file_are_refused(tmp_path, capsys, monkeypatch):
    argv = [
        "topological-sweep",
        "--points",
        "1",
        "--quiet",
        "--json",
        str(tmp_path / "a"),
        "--out",
        str(tmp_path / "b"),
    ]
    code, _, err = run(argv, capsys, monkeypatch)
    assert code == 2 and "two files" in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_points_one_to_three_is_the_older_max_points_three(capsys, monkeypatch):
    code, new, _ = run(["conjectures", "000", "--points", "1..3", "--json"], capsys, monkeypatch)
    assert code == 0
    code, old, _ = run(["conjectures", "000", "--max-points", "3", "--json"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(new) == json.loads(old)
    assert json.loads(new)["max_points"] == 3


def test_a_range_that_starts_above_one_is_refused_where_sweeps_start_at_one(capsys, monkeypatch):
    code, _, err = run(["conjectures", "000", "--points", "2..3"], capsys, monkeypatch)
    assert code == 2 and "--points 1..3" in err


def test_point_ranges():
    assert point_range("4") == PointRange(1, 4)
    assert point_range("2..5") == PointRange(2, 5)
    assert str(point_range("2..5")) == "2..5"
    for bad in ("0", "3..2", "a..b", "", "1..", "-1"):
        with pytest.raises(argparse.ArgumentTypeError):
            point_range(bad)


def test_rules_is_still_the_preset(capsys, monkeypatch):
    code, out, _ = run(["play", "tromp-taylor", "path:3", "--rules", "no-suicide", "--json"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(out)["options"]["suicide"] == "forbidden"


def test_timeout_is_still_seconds(capsys, monkeypatch):
    code, out, _ = run(
        ["prove", "well-formedness", "--graph", "path:2", "--timeout", "30", "--json"], capsys, monkeypatch
    )
    assert code == 0
    assert json.loads(out)["status"] == "proved"
    parser = commands()["prove"]
    assert parser.parse_args(["--graph", "path:2", "--timeout", "7"]).seconds == 7


def test_max_order_is_still_the_range_of_fuzz(tmp_path, capsys, monkeypatch):
    argv = ["fuzz", "--examples", "5", "--out", str(tmp_path)]
    code, old, _ = run([*argv, "--max-order", "3", "--json"], capsys, monkeypatch)
    assert code == 0
    code, new, _ = run([*argv, "--points", "3", "--json"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(old) == json.loads(new)


def test_reading_is_still_the_option(capsys, monkeypatch):
    argv = ["conjectures", "000", "--points", "1", "--json"]
    code, old, _ = run([*argv, "--reading", "starts=empty"], capsys, monkeypatch)
    assert code == 0
    code, new, _ = run([*argv, "--option", "starts=empty"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(old) == json.loads(new)
    assert json.loads(new)["readings"]["starts"] == "empty"


def test_max_nodes_is_still_nodes():
    for name in ("solve", "best-play", "analyse", "ultimate-examples", "conjectures"):
        parser = commands()[name]
        dests = {o: a.dest for a in parser._actions for o in a.option_strings}
        assert dests["--max-nodes"] == dests["--nodes"] == "nodes", name


def test_the_topological_scoring_option_and_its_older_name(capsys, monkeypatch):
    argv = ["play", "topological", "path:2", "--json"]
    code, new, _ = run([*argv, "--option", "scoring=primitive"], capsys, monkeypatch)
    assert code == 0
    code, old, _ = run([*argv, "--option", "rules=primitive"], capsys, monkeypatch)
    assert code == 0
    assert json.loads(new) == json.loads(old)
    assert json.loads(new)["options"]["scoring"] == "primitive"
    assert "rules" not in json.loads(new)["options"]
    code, _, err = run([*argv, "--option", "rules=primitive", "--option", "scoring=stone"], capsys, monkeypatch)
    assert code == 2 and "twice" in err


def test_help_states_why_a_default_differs(capsys):
    for name, flag in (("solve", "--max-points"), ("prove", "--max-points"), ("count", "--seconds")):
        parser = commands()[name]
        action = next(a for a in parser._actions if flag in a.option_strings)
        assert "(default " in action.help and ":" in action.help.split("(default ", 1)[1], (name, flag)


def test_solve_writes_what_it_prints_to_out_whole_or_not_at_all(tmp_path, capsys, monkeypatch):
    target = tmp_path / "solve.json"
    code, out, _ = run(["solve", "path:3", "--no-progress", "--json", "--out", str(target)], capsys, monkeypatch)
    assert code == 0 and out == ""
    assert json.loads(target.read_text())["value"] == 3
    text = tmp_path / "solve.txt"
    code, out, _ = run(["solve", "path:3", "--no-progress", "--out", str(text)], capsys, monkeypatch)
    assert code == 0 and "value +3 for Black" in out and text.read_text() == out
    refused = tmp_path / "refused.txt"
    code, _, err = run(["solve", "path:3", "--max-points", "2", "--out", str(refused)], capsys, monkeypatch)
    assert code == 2 and "--max-points" in err
    assert not refused.exists()
