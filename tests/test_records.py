"""Game records written and read back: ``solve --sgf`` as SGF on a square grid (read by
sgfmill and by ``replay-sgf``), the gorules form elsewhere and from ``play --record``
(read by ``replay-sgf``, its result compared)."""

from __future__ import annotations

import json

from sgfmill import sgf

from gorules.cli import main
from gorules.impl.rulesets.political.record import is_record_text


def solve_record(tmp_path, capsys, *words) -> str:
    """The record ``solve ... --sgf`` writes, and the principal variation it printed."""
    path = tmp_path / "line.sgf"
    assert main(["solve", *words, "--no-progress", "--json", "--sgf", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    return path, result


def replay(capsys, path) -> tuple[int, dict]:
    """replay-sgf's exit code and JSON report of one file."""
    code = main(["replay-sgf", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_solved_square_grid_is_standard_sgf(tmp_path, capsys):
    path, result = solve_record(tmp_path, capsys, "grid:2x2")
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    root = game.get_root()
    assert game.get_size() == 2 and root.get("GM") == 1
    assert root.get("RU") == "tromp-taylor: ko=positional suicide=allowed scoring=area komi=0"
    assert root.get("RE") == "B+1"
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert len(moves) == len(result["principal_variation"])
    assert [colour for colour, _ in moves] == ["b", "w"] * (len(moves) // 2)
    passes = [i for i, (_, point) in enumerate(moves) if point is None]
    assert passes == [i for i, m in enumerate(result["principal_variation"]) if m == "pass"]
    code, report = replay(capsys, path)
    assert code == 0 and report["summary"]["opinions"]["sgfmill"]["disagreements"] == 0


def test_other_graphs_and_rulesets_take_the_gorules_form(tmp_path, capsys):
    path, _ = solve_record(tmp_path, capsys, "grid:2x2", "--ruleset", "ultimate")
    text = path.read_text()
    assert text.startswith("(;GM[ultimate]AP[gorules]") and "GR[grid:2x2]" in text and "RE[draw]" in text
    code, report = replay(capsys, path)
    record = report["records"][0]
    assert code == 0 and record["result"] == "draw" and record["unclean"] is None
    assert record["opinions"]["result"] == {"compared": 1, "disagreement": None}


def test_a_path_solve_reads_back(tmp_path, capsys):
    path, result = solve_record(tmp_path, capsys, "path:3")
    assert "GR[path:3]" in path.read_text()
    code, report = replay(capsys, path)
    assert code == 0 and report["records"][0]["moves"] == len(result["principal_variation"])


def test_play_records_read_back(tmp_path, capsys):
    path = tmp_path / "game.sgf"
    assert main(["play", "tromp-taylor", "grid:2x2", "--moves", "A1 pass pass", "--record", str(path)]) == 0
    capsys.readouterr()
    assert "GM[tromp-taylor]" in path.read_text()
    code, report = replay(capsys, path)
    assert code == 0 and report["records"][0]["result"] == "4"


def test_a_wrong_result_is_a_disagreement(tmp_path, capsys):
    path = tmp_path / "game.sgf"
    assert main(["play", "tromp-taylor", "path:3", "--moves", "1 pass pass", "--record", str(path)]) == 0
    capsys.readouterr()
    path.write_text(path.read_text().replace("RE[3]", "RE[2]"))
    code, report = replay(capsys, path)
    assert code == 1
    assert "the record's result is '2'" in report["records"][0]["opinions"]["result"]["disagreement"]


def test_an_illegal_move_stops_the_replay(tmp_path, capsys):
    path = tmp_path / "game.sgf"
    path.write_text(
        "(;GM[tromp-taylor]AP[gorules]CA[UTF-8]RU[ko=positional suicide=allowed scoring=area komi=0]"
        "GR[path:3]PL[B,W]\n;P[B]M[1]\n;P[W]M[1]\n;P[B]M[pass])\n"
    )
    _, report = replay(capsys, path)
    assert report["records"][0]["unclean"].startswith("move 2 (1):")
    assert report["records"][0]["result"] is None


def test_a_record_without_its_graph_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "broken.sgf"
    path.write_text("(;GM[tromp-taylor]AP[gorules]RU[komi=0]\n;P[B]M[1])\n")
    assert main(["replay-sgf", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lacks GR" in err


def test_a_graph_from_a_file_travels_in_the_record(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kite.edgelist").write_text("0 1\n1 2\n2 3\n3 0\n3 4\n5\n")
    assert main(["solve", "kite.edgelist", "--no-progress", "--sgf", "kite.sgf"]) == 0
    capsys.readouterr()
    (tmp_path / "kite.edgelist").unlink()  # the record alone gives the graph back
    text = (tmp_path / "kite.sgf").read_text()
    assert '"order":6' in text
    code, report = replay(capsys, tmp_path / "kite.sgf")
    assert code == 0 and report["records"][0]["result"] == "5"


def test_a_record_on_stdout_stands_alone(capsys):
    assert main(["solve", "grid:2x2", "--no-progress", "--sgf", "-"]) == 0
    captured = capsys.readouterr()
    game = sgf.Sgf_game.from_bytes(captured.out.encode())
    assert game.get_root().get("RE") == "B+1"
    assert "value +1 for Black" in captured.err
    assert main(["solve", "grid:2x2", "--no-progress", "--sgf", "-", "--certificate", "-"]) == 2


def test_only_a_game_other_than_go_is_the_gorules_form():
    assert is_record_text("(;GM[political]AP[gorules]RU[]GR[path:3])")
    assert not is_record_text("(;FF[4]AP[gorules]GM[1]SZ[9])")
    assert not is_record_text("(;FF[4]GM[1]SZ[9];B[aa])")
