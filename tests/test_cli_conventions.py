"""Conventions of the command line: the empty board of a graph analysed, options given
repeated or comma-separated, a --only that selects nothing, and grid names that a ruleset
reads otherwise than GTP."""

from __future__ import annotations

import json

import pytest

from gorules import rulesets
from gorules.cli import main


def test_analyse_takes_a_graph_for_its_empty_board(capsys):
    assert main(["analyse", "grid:1x2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["graph"] == "grid:1x2" and data["situation"]["board"] == [".", "."]
    assert data["to_move"] == "B"


def test_analyse_refuses_two_graphs(capsys):
    assert main(["analyse", "grid:1x2", "--graph", "path:2"]) == 2
    assert "give the graph once" in capsys.readouterr().err


def test_comma_and_repeated_options_agree():
    together = rulesets.parse_options(["ko=situational,suicide=forbidden"])
    apart = rulesets.parse_options(["ko=situational", "suicide=forbidden"])
    assert together == apart == {"ko": "situational", "suicide": "forbidden"}
    assert rulesets.make("tromp-taylor", options=together) == rulesets.make("tromp-taylor", options=apart)


def test_a_comma_inside_a_value_stays_there():
    options = rulesets.parse_options(["players=A,B,C,D,seed=3"])
    assert options == {"players": "A,B,C,D", "seed": "3"}


def test_an_option_given_twice_is_refused(capsys):
    assert main(["count", "grid:1x2", "--games", "--option", "ko=simple", "--option", "ko=positional"]) == 2
    assert "given twice" in capsys.readouterr().err


def test_verify_only_without_a_match_lists_the_names(capsys):
    assert main(["verify", "--only", "no check is named this"]) == 2
    captured = capsys.readouterr()
    names = captured.out.splitlines()
    assert "solve 2x2 = Black +1 (Tromp)" in names and len(names) > 10
    assert captured.err.count("\n") == 1 and f"the {len(names)} names are listed" in captured.err


def test_a_name_read_otherwise_than_gtp_is_noted(capsys):
    moves = ["--moves", "s19"]
    assert main(["play", "political", "grid:19x19", "--preset", "five", *moves]) == 0
    err = capsys.readouterr().err
    assert "s19 is column 19 under political's coordinates=text, column 18 in GTP's names" in err
    assert main(["play", "political", "grid:19x19", "--preset", "five", "--option", "coordinates=gtp", *moves]) == 0
    assert "note" not in capsys.readouterr().err
    assert main(["play", "political", "grid:19x19", "--preset", "five", "--moves", "c3"]) == 0
    assert "note" not in capsys.readouterr().err


def test_every_command_that_takes_political_moves_notes_such_names(capsys):
    """replay (through the interface) and best-play read political names too, and say so."""
    main(["replay", "--ruleset", "political", "--preset", "five", "grid:19x19", "--moves", "s19"])
    assert "gorules replay: note: s19 is column 19" in capsys.readouterr().err
    main(["best-play", "grid:19x19", "--moves", "s19", "--horizon", "1", "--nodes", "1"])
    assert "gorules best-play: note: s19 is column 19" in capsys.readouterr().err
    main(["replay", "grid:19x19", "--moves", "S19"])
    assert "note" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "command,shown",
    [
        (["play", "political", "grid:3x3", "--moves", "a1", "--json"], "text"),
        (["play", "political", "grid:3x3", "--option", "coordinates=gtp", "--moves", "A1", "--json"], "gtp"),
        (["play", "tromp-taylor", "grid:3x3", "--moves", "A1", "--json"], "gtp"),
        (["replay", "grid:2x2", "--ruleset", "ultimate", "--moves", "B A1", "--json"], "gtp"),
        (["replay", "grid:3x3", "--ruleset", "political", "--moves", "a1", "--json"], "text"),
        (["best-play", "grid:2x2", "--horizon", "1", "--json"], "text"),
        (["solve", "grid:2x2", "--json", "--no-progress"], "gtp"),
        (["solve", "path:2", "--ruleset", "political", "--json", "--no-progress"], "text"),
    ],
)
def test_the_json_states_the_coordinates_its_point_names_are_in(command, shown, capsys):
    assert main(command) == 0
    assert json.loads(capsys.readouterr().out)["coordinates"] == shown
