"""Fuzzing any engine against the spec: real GNU Go and Leela Zero processes, mutant engines
(gorules' own GTP endpoint over a ruleset broken on purpose, run as a subprocess), ruleset
classes given as ``module:Class``, and engines that hang, crash or answer out of protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from gorules.impl.differential.campaign import SpecGame, parse_margin, replay
from gorules.impl.differential.conventions import UNEXPLAINED
from gorules.impl.differential.engines import GtpContender, parse_diagram, resolve_command
from gorules.impl.differential.leela_net import rows, write_network
from gorules.impl.differential.shrinking import ddmin, minimal
from gorules.impl.differential.targets import engine_campaign, implementation_campaign
from gorules.spec.graph import grid, parse_point
from gorules.spec.tromp_taylor import PASS, PRESETS

MUTANT = f"{sys.executable} -m gorules.impl.differential.mutant_gtp"


def run_cli(*args):
    """Run ``gorules`` in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "gorules", *args], capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def gone(pid: int) -> bool:
    """Whether no process (nor a zombie of ours) has that id any more."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# --------------------------------------------------------------------------- GNU Go


def test_gnugo_campaign_finds_its_known_superko_convention_and_shrinks_it():
    campaign = engine_campaign("gnugo --mode gtp", "gnugo-tromp-taylor", max_side=5)
    try:
        campaign.run(25, None, seed=0)
    finally:
        campaign.close()
    summary = campaign.as_json()
    assert "--positional-superko" in summary["engine"] and "--allow-all-suicide" in summary["engine"]
    assert summary["games"] == 25 and summary["boards_compared"] > 100 and summary["scores_compared"] > 0
    found = {entry["class"]: entry for entry in summary["disagreements"]}
    assert "superko-skips-suicide" in found
    assert len(found["superko-skips-suicide"]["moves"]) <= 6
    assert not [e for e in summary["disagreements"] if e["kind"] in ("refused", "board")]
    assert summary["faults"] == []


def test_gnugo_showboard_reads_as_its_list_stones():
    contender = GtpContender(resolve_command("gnugo --mode gtp"), PRESETS["gnugo-tromp-taylor"])
    try:
        contender.start()
        graph = grid(5, 5)
        contender.new_game(graph)
        for player, name in (("B", "C3"), ("W", "D3"), ("B", "A1"), ("W", "E5")):
            assert contender.play(graph, player, parse_point(graph, name))[0]
        assert contender.reading == "list_stones"
        listed = contender.board(graph)
        contender.reading = "showboard"
        assert contender.board(graph) == listed
        assert listed.count("B") == 2 and listed.count("W") == 2
    finally:
        contender.close()


def test_the_fuzz_command_against_gnugo_prints_what_it_compared(tmp_path):
    code, out, err = run_cli(
        "fuzz",
        "--engine",
        "gnugo --mode gtp",
        "--preset",
        "gnugo-tromp-taylor",
        "--games",
        "20",
        "--out",
        str(tmp_path),
    )
    assert code == 1, err
    assert "preset: gnugo-tromp-taylor (ko=positional suicide=allowed scoring=area komi=0)" in out
    assert "told: --chinese-rules --allow-all-suicide --positional-superko --komi 0" in out
    assert "20 games" in out and "superko-skips-suicide" in out
    sgf = sorted(tmp_path.glob("*superko-skips-suicide.sgf"))
    assert sgf and b"superko-skips-suicide" in sgf[0].read_bytes()
    vector = json.loads(sorted(tmp_path.glob("*superko-skips-suicide.json"))[0].read_text())
    assert vector["engine_answer"].startswith("=") and vector["spec_verdict"].startswith("illegal")


# --------------------------------------------------------------------------- Leela Zero


def test_leela_zero_network_has_the_rows_of_one_block_of_eight_filters():
    layout = rows(8, 1)
    assert len(layout) + 1 == 1 + 4 + 8 + 14
    assert layout[0][0] == 18 * 8 * 9 and layout[1][0] == 8


def test_leela_zero_campaign_compares_its_showboard_with_the_spec(tmp_path):
    network = write_network(tmp_path / "tiny.txt")
    command = f"leelaz --gtp -w {network} --noponder -p 1 -t 1 --cpu-only"
    campaign = engine_campaign(command, "tromp-taylor")
    campaign.shrink = lambda d: d  # the 19×19 case is shrunk by the campaigns in docs/fuzzing.md
    try:
        campaign.run(6, None, seed=0)
    finally:
        campaign.close()
    summary = campaign.as_json()
    assert summary["board_sizes"] == [19] and "Leela Zero" in summary["engine"]
    assert summary["boards_compared"] > 50
    assert summary["scores_compared"] > 0
    assert all(entry["kind"] == "accepted" for entry in summary["disagreements"])


# --------------------------------------------------------------------------- mutant engines


def test_a_correct_gtp_engine_shows_no_disagreement(tmp_path):
    code, out, err = run_cli("fuzz", "--engine", f"{MUTANT} --broken none", "--games", "40", "--out", str(tmp_path))
    assert code == 0, out + err
    assert "0 classes of disagreement" in out and "40 games" in out


def test_a_gtp_engine_that_ignores_superko_is_caught_and_shrunk(tmp_path):
    code, out, err = run_cli(
        "fuzz", "--engine", f"{MUTANT} --broken superko", "--games", "100", "--seed", "3", "--json",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert code == 1, err
    summary = json.loads(out)
    recapture = [e for e in summary["disagreements"] if e["kind"] == "accepted" and e["class"] == UNEXPLAINED]
    assert recapture and len(recapture[0]["moves"]) <= 8
    assert "board repeats" in recapture[0]["spec"] and recapture[0]["engine"].startswith("=")


def test_a_gtp_engine_that_keeps_suicided_stones_is_caught_on_a_small_board(tmp_path):
    code, out, err = run_cli(
        "fuzz", "--engine", f"{MUTANT} --broken suicide", "--games", "30", "--json", "--out", str(tmp_path)
    )
    assert code == 1, err
    summary = json.loads(out)
    boards = [e for e in summary["disagreements"] if e["kind"] == "board"]
    assert boards and len(boards[0]["moves"]) <= 6 and boards[0]["board"] in ("grid:2x2", "grid:3x3")


@pytest.mark.parametrize("kind", ["hang", "crash", "garble"])
def test_a_faulty_engine_is_reported_with_its_command_restarted_and_killed(kind):
    campaign = engine_campaign(f"{MUTANT} --broken none --fault {kind}:3", "tromp-taylor", max_side=3, timeout=1)
    pids = []
    start = campaign.contender.start

    def start_and_note():
        start()
        pids.append(campaign.contender.process.process.pid)

    campaign.contender.start = start_and_note
    try:
        campaign.run(3, None, seed=1)
    finally:
        campaign.close()
    expected = {"hang": "hang", "crash": "crash", "garble": "protocol"}[kind]
    assert len(campaign.faults) == 3
    assert all(f.kind == expected and f.command.startswith("play ") for f in campaign.faults)
    assert len(pids) == 3 and all(gone(pid) for pid in pids)


# --------------------------------------------------------------------------- ruleset classes


def test_a_correct_ruleset_class_shows_no_disagreement():
    campaign = implementation_campaign("gorules.impl.rulesets.tromp_taylor:TrompTaylor", "tromp-taylor")
    campaign.run(150, None, seed=2)
    assert campaign.tally.games == 150 and campaign.tally.boards > 500
    assert campaign.findings == {}


def test_openspiel_go_meets_the_spec_but_for_its_repetition_rule():
    """OpenSpiel's ``go`` through the implementation route, on the square boards it plays,
    under the preset of its documented rules: every move, refusal and board agrees, but for
    its known convention (a stone move that recreates an earlier board ends the game)."""
    campaign = implementation_campaign("gorules.impl.formats.spiel:OpenSpielGo", "openspiel")
    campaign.run(300, None, seed=3)
    assert campaign.tally.games == 300 and campaign.tally.boards > 1000
    assert all(graph_is_square(f.case.graph) for f in campaign.findings.values())
    assert {f.case.convention for f in campaign.findings.values()} <= {"repetition-ends-game"}
    assert campaign.faults == []


def test_openspiel_go_under_tromp_taylor_is_told_apart():
    """Under positional superko and suicide allowed, OpenSpiel's own rules show: its
    refused suicides are found and classified."""
    campaign = implementation_campaign("gorules.impl.formats.spiel:OpenSpielGo", "tromp-taylor")
    campaign.run(100, None, seed=3)
    assert "suicide-forbidden" in {f.case.convention for f in campaign.findings.values()}


def graph_is_square(graph) -> bool:
    """Whether a graph is a square grid."""
    rows, columns = graph.shape
    return rows == columns


@pytest.mark.parametrize(
    ("name", "kind"),
    [("SuperkoBlindRuleset", "accepted"), ("SuicideKeepingRuleset", "board")],
)
def test_a_broken_ruleset_subclass_is_caught(name, kind):
    campaign = implementation_campaign(f"gorules.impl.differential.mutants:{name}", "tromp-taylor")
    campaign.run(150, None, seed=2)
    kinds = {f.case.kind for f in campaign.findings.values()}
    assert kind in kinds
    case = next(f.case for f in campaign.findings.values() if f.case.kind == kind)
    assert len(case.played) <= 8


def test_bad_engine_arguments_are_one_line_and_exit_2():
    for args in (
        ["--engine", "no-such-engine-program"],
        ["--engine", "true"],
        ["--engine", "gnugo --mode gtp", "--preset", "no-such-preset"],
        ["--implementation", "no_such_module:Class"],
        ["--implementation", "gorules.spec.graph:Graph"],
        ["--engine", "gnugo --mode gtp", "--implementation", "gorules.spec.tromp_taylor:TrompTaylor"],
    ):
        code, _, err = run_cli("fuzz", *args)
        assert code == 2, args
        assert err.count("\n") == 1 and "Traceback" not in err


# --------------------------------------------------------------------------- parts


def test_ddmin_finds_a_one_minimal_failing_subsequence():
    def fails(items):
        return 3 in items and 7 in items and items.index(3) < items.index(7)

    assert ddmin(list(range(10)), fails) == [3, 7]
    assert minimal([1, 3, 5, 7, 9], fails) == [3, 7]


def test_showboard_diagrams_of_gnugo_and_leela_zero_are_read():
    gnugo = "   A B C\n 3 . X .  3\n 2 O + .  2     WHITE (O) has captured 0 stones\n 1 . . X  1\n   A B C\n"
    leela = "   a b c \n 3 . X . 3\n 2 O . . 2\n 1 . .(X) 1\n   a b c \n"
    expected = (".", "B", ".", "W", ".", ".", ".", ".", "B")
    assert parse_diagram(gnugo, 3) == expected
    assert parse_diagram(leela, 3) == expected
    assert parse_diagram(leela, 4) is None


def test_final_score_answers_are_read_as_black_margins():
    assert parse_margin("B+3.5") == 3.5 and parse_margin("W+2") == -2 and parse_margin("0") == 0
    assert parse_margin("resign") is None


def test_a_replay_is_the_spec_against_the_contender():
    campaign = implementation_campaign("gorules.impl.differential.mutants:SuicideKeepingRuleset", "tromp-taylor")
    graph = grid(3, 3)
    names = ["B2", "B3", "A2", "pass", "C3", "A3"]
    d = replay(
        campaign.contender,
        graph,
        PRESETS["tromp-taylor"],
        [PASS if n == "pass" else parse_point(graph, n) for n in names],
    )
    assert d is not None and d.kind == "board" and d.disputed == ("W", parse_point(graph, "A3"))
    assert d.spec == "..BBB...." and d.engine == "W.BBB...."
    spec = SpecGame(graph, PRESETS["tromp-taylor"])
    assert spec.player == "B" and not spec.over


def test_a_ruleset_class_that_fails_is_reported_as_a_crash_with_its_call():
    campaign = implementation_campaign("gorules.spec.ultimate:Ultimate", "tromp-taylor")
    campaign.run(3, None, seed=0)
    assert len(campaign.faults) == 3
    assert all(f.kind == "crash" and f.command.startswith("initial(") for f in campaign.faults)
