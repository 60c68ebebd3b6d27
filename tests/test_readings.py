"""``gorules readings``: the finder of source 001 on go-spaces of up to three points, a
mutant it must catch, and the command's output, files and one-line errors."""

import json
from xml.etree import ElementTree

import pytest

from gorules.cli import main
from gorules.readings_common import Disagreement
from gorules.readings_topological import search_readings
from gorules.spec import topological as spec


@pytest.fixture(scope="module")
def finding():
    return search_readings(3, None, False)


def test_defn_7_readings_first_disagree_on_three_points(finding):
    d7 = [d for d in finding.disagreements if d.clause == "Defn 7 (string of a stone)"]
    assert [d.points for d in d7] == [3]
    (d,) = d7
    assert d.readings == ("intended", "literal")
    assert d.situation.startswith("space:3;S=2,0+1;")  # three discrete points, a two-point stone
    assert d.line == ("0+1",)
    assert "not a turn" in d.difference and "0:B 1:B 2:." in d.difference
    assert d.count == finding.compared["string: intended vs literal"][3]["disagreeing"] == 216
    assert d.picture is not None and d.picture.lstrip().startswith("<")
    # Three boards: before the play (the placement marked), after it under each reading.
    assert d.picture.count("<svg") == 4 and "string=literal" in d.picture and "S = {0,1}, {2}" in d.picture
    ElementTree.fromstring(d.picture)


def test_defn_7_readings_change_who_wins_the_primitive_rules(finding):
    """Perfect play on three discrete points with a two-point stone and a far placement:
    under intended Black has no turn at all and loses; under literal Black's 0+1 lives
    and White is left without a turn."""
    (d,) = [d for d in finding.disagreements if d.clause == "Defn 7 (string of a stone); winner of the primitive rules"]
    assert d.points == 3 and d.situation.startswith("space:3;S=2,0+1;")
    assert "string=intended W wins" in d.difference and "string=literal B wins (0+1," in d.difference
    assert (
        d.count
        == finding.compared["string: intended vs literal, winner of the primitive rules"][3]["disagreeing"]
        == 20
    )


def test_every_clause_is_compared_and_closure_readings_never_disagree(finding):
    assert set(finding.compared) == {
        "scoring: stone vs primitive",
        "string: intended vs literal",
        "string: intended vs literal, winner of the primitive rules",
        "closure: closure-of-union vs union-of-closures",
        "placement: empty vs overlap",
        "placement: empty vs overlap, winner of the primitive rules",
        "clearing: restricted vs unrestricted",
        "clearing: restricted vs unrestricted, winner of the primitive rules",
    }
    closure = finding.compared["closure: closure-of-union vs union-of-closures"]
    assert [closure[n]["go_spaces"] for n in (1, 2, 3)] == [1, 9, 113]
    assert all(c["compared"] > 0 and c["disagreeing"] == 0 for c in closure.values())
    assert finding.complete_up_to == 3
    assert all(isinstance(d, Disagreement) for d in finding.disagreements)


def test_the_finder_catches_a_mutant_defn_5(monkeypatch):
    """A union-of-closures reading that forgets the closures must be found to disagree."""
    original = spec.go_connected

    def forgetful(space, G, readings=spec.INTENDED):
        if readings.closure == "union-of-closures":
            return spec.connected(space, frozenset().union(*G))
        return original(space, G, readings)

    monkeypatch.setattr(spec, "go_connected", forgetful)
    mutant = search_readings(3, None, False)
    assert any(c["disagreeing"] for c in mutant.compared["closure: closure-of-union vs union-of-closures"].values())


def test_command_prints_writes_json_and_pictures(tmp_path, capsys):
    out = tmp_path / "readings.json"
    pictures = tmp_path / "pictures"
    assert (
        main(
            [
                "readings",
                "001_463c45151ac4bff4",
                "--max-points",
                "3",
                "--json",
                str(out),
                "--pictures",
                str(pictures),
                "--quiet",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "Defn 7 (string of a stone): intended vs literal" in printed and "line: 0+1" in printed
    assert "no disagreement on any of the 123 spaces compared" in printed
    data = json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert data["complete_up_to"] == 3
    assert data["counts"]["Defn 7 (string of a stone)"]["intended vs literal"] == {"3": 216}
    smallest = {d["clause"]: d for d in data["smallest"]}
    assert (pictures / smallest["Defn 7 (string of a stone)"]["picture_file"]).read_text().lstrip().startswith("<")


@pytest.mark.parametrize(
    "argv, problem",
    [
        (["readings", "002"], "no finder for source '002'"),
        (["readings", "001", "--max-points", "5"], "--max-points must be 1..4"),
        (["readings", "001", "--max-points", "4", "--seconds", "1"], "raise --seconds or lower --max-points"),
    ],
)
def test_command_refuses_in_one_line(argv, problem, capsys):
    assert main([*argv, "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and problem in err
