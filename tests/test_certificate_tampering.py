"""Tampered certificates: every field of a certificate written by ``gorules solve`` is
changed, removed, retyped or given a number JSON does not have, and ``gorules
check-certificate`` either refuses the file (exit 1 or 2, one line, no traceback) or finds
it valid with a verdict, in its text and its JSON, that states exactly the claim the file
now makes: a valid verdict never names a graph, ruleset, option or bound the file does
not hold."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gorules.cli import main
from gorules.commands.check_certificate import read

OPTIONS = ("ko", "suicide", "scoring", "komi")
CLAIM = re.compile(r"(\S+) (\S+) ko=(\S+) suicide=(\S+) scoring=(\S+) komi=(\S+): value in \[(\S+), (\S+)\] for Black")
VALID = re.compile(r"valid: (.*), (\d+) positions checked with the spec in \d+\.\d\ds")
ERROR = "gorules check-certificate: error: "


def solved(folder: Path, graph: str) -> dict:
    """The certificate ``gorules solve GRAPH --certificate`` writes, as the document of
    format 3 with its content (the whole-document form this catalogue edits)."""
    path = folder / f"{graph.replace(':', '-')}.json"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["solve", graph, "--no-progress", "--certificate", str(path)]) == 0
    return read(path)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("certificates")


@pytest.fixture(scope="module")
def two_by_two(folder) -> dict:
    return solved(folder, "grid:2x2")


@pytest.fixture(scope="module")
def two_by_three(folder) -> dict:
    return solved(folder, "grid:2x3")


@pytest.fixture(scope="module")
def path_four(folder) -> dict:
    return solved(folder, "path:4")


def checked(folder: Path, text: str, *flags: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``gorules check-certificate`` on a file holding ``text``."""
    path = folder / "tampered.json"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check-certificate", str(path), *flags])
    return code, out.getvalue(), err.getvalue()


def exact(text: str, number) -> bool:
    """Whether the verdict's ``text`` is exactly ``number``: an integer in full, a float by a
    text that reads back as the same float."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return False
    try:
        return (int(text) if isinstance(number, int) else float(text)) == number
    except ValueError:
        return False


def states_the_file(claim: str, data: dict) -> bool:
    """Whether a claim read off a verdict is the file's: its graph, ruleset, every option
    and both bounds."""
    read = CLAIM.fullmatch(claim)
    if read is None:
        return False
    graph, ruleset, ko, suicide, scoring, komi, lower, upper = read.groups()
    options = data["options"]
    return (
        (graph, ruleset) == (data["graph"], data["ruleset"])
        and (ko, suicide, scoring) == (options["ko"], options["suicide"], options["scoring"])
        and exact(komi, options["komi"])
        and exact(lower.removeprefix("+"), data["lower"])
        and exact(upper.removeprefix("+"), data["upper"])
    )


def honest(folder: Path, text: str) -> str:
    """Check ``text`` as a certificate, as text and as JSON, and assert that it is refused on
    one line (exit 1 with ``invalid:``, or 2 with one error line) or found valid with a
    verdict stating the file's own claim; the outcome: ``valid``, ``invalid`` or ``unreadable``."""
    code, out, err = checked(folder, text)
    assert "Traceback" not in out + err
    if code == 2:
        assert out == "" and err.startswith(ERROR) and err.count("\n") == 1, (out, err)
        return "unreadable"
    assert err == "" and out.count("\n") == 1, (out, err)
    if code == 1:
        assert out.startswith("invalid: ")
        code, out, _ = checked(folder, text, "--json")
        verdict = json.loads(out, parse_constant=refuse)
        assert code == 1 and not verdict["valid"] and verdict["claim"] is None and verdict["problem"]
        return "invalid"
    assert code == 0, (code, out, err)
    data = json.loads(text)
    line = VALID.fullmatch(out.strip())
    assert line is not None and states_the_file(line.group(1), data), out
    code, out, err = checked(folder, text, "--json")
    verdict = json.loads(out, parse_constant=refuse)
    assert code == 0 and verdict["valid"] and verdict["problem"] is None
    assert verdict["claim"] == line.group(1)
    for field in ("graph", "ruleset", "options", "lower", "upper"):
        assert verdict[field] == data[field], field
    assert verdict["value"] == data.get("value")
    return "valid"


def as_text(data: dict) -> str:
    """A certificate's JSON text, as the writer's ``json.dumps`` spaces it."""
    return json.dumps(data)


def refuse(text: str):
    """``NaN`` or ``Infinity`` in the verdict's JSON, which strict JSON does not have."""
    raise AssertionError(f"{text} in the verdict's JSON")


def test_the_written_certificate_is_valid_and_its_verdict_names_every_option(folder, two_by_three):
    code, out, _ = checked(folder, as_text(two_by_three))
    assert code == 0
    assert out.startswith(
        "valid: grid:2x3 tromp-taylor ko=positional suicide=allowed scoring=area komi=0: value in [+0, +0] for Black, "
    )
    assert honest(folder, as_text(two_by_three)) == "valid"


def shifted(data: dict, komi) -> dict:
    """``data`` with komi ``komi`` and every bound and the value moved with it: the
    strategies prove exactly this (Black's margin has komi taken off)."""
    data = copy.deepcopy(data)
    change = komi - data["options"]["komi"]
    data["options"]["komi"] = komi
    for name in ("lower", "upper"):
        data[name] = data["strategies"][name]["bound"] = data[name] - change
    data["value"] -= change
    return data


def test_komi_edited_alone_is_invalid_and_with_its_value_is_stated(folder, two_by_three):
    """The issue's case: 2×3's certificate (value 0) with komi −10. Alone the edit is
    invalid (White's strategy does not keep Black's margin at most 0); with the bounds
    moved to +10 it is a proof about komi −10, and the verdict says so."""
    edited = copy.deepcopy(two_by_three)
    edited["options"]["komi"] = -10
    code, out, _ = checked(folder, as_text(edited))
    assert code == 1 and out.startswith("invalid: upper bound (White's strategy)")
    edited = shifted(two_by_three, -10)
    code, out, _ = checked(folder, as_text(edited))
    assert code == 0
    assert "komi=-10: value in [+10, +10] for Black" in out
    code, out, _ = checked(folder, as_text(edited), "--json")
    verdict = json.loads(out)
    assert verdict["options"]["komi"] == -10 and verdict["lower"] == verdict["upper"] == 10
    assert "komi=-10" in verdict["claim"]


@given(komi=st.one_of(st.integers(-50, 50), st.floats(-50, 50, allow_nan=False).map(lambda x: round(x, 3))))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_komi_with_its_bounds_is_valid_and_named(folder, path_four, komi):
    """Every komi, the bounds moved with it: valid, and the verdict names that komi and the
    bounds it proves."""
    assert honest(folder, as_text(shifted(path_four, komi))) == "valid"


def test_expect_names_each_field_that_differs(folder, two_by_three):
    text = as_text(shifted(two_by_three, -10))
    code, out, _ = checked(folder, text, "--expect", "grid:2x3 tromp-taylor ko=positional komi=-10 value=10")
    assert code == 0 and ", as expected, " in out
    code, out, err = checked(folder, text, "--expect", "grid:2x3 tromp-taylor komi=0 value=0")
    assert code == 1 and err == "" and out.count("\n") == 1
    assert out.startswith("not as expected: komi expected 0, certified -10; value expected +0, certified +10; ")
    assert "graph" not in out.split(";")[0] and "ruleset expected" not in out
    code, out, _ = checked(folder, text, "--expect", "path:4 lower=11", "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["valid"]
    assert verdict["differences"] == [
        {"field": "graph", "expected": "path:4", "certified": "grid:2x3"},
        {"field": "lower", "expected": 11, "certified": 10},
    ]


@pytest.mark.parametrize(
    "expect",
    [
        "",
        "vlue=0",
        "grid:2x3 tromp-taylor extra",
        "komi=abc",
        "komi=1e999",
        "komi=" + "9" * 40,
        "ko=simpl",
        "grid:2xx",
        "ruleset=chess",
        "komi=1 komi=2",
        "grid:2x3 graph=grid:2x3",
        "value=",
        "=3",
        "komi=nan",
    ],
)
def test_a_malformed_expectation_is_one_line_and_exit_two(folder, two_by_two, expect):
    code, out, err = checked(folder, as_text(two_by_two), "--expect", expect)
    assert code == 2 and out == "" and err.startswith(ERROR) and err.count("\n") == 1, (out, err)


# --------------------------------------------------------------------------- the catalogue


WRONG_TYPES = [None, "x", 1.5, True, [], {}, -1]


def node_of(data: dict, kind: str) -> dict:
    """The first node of a kind: ``B`` or ``W`` to move (with a stone move first), ``over``,
    ``static``."""
    if kind in ("B", "W"):
        return next(n for n in data["nodes"] if n.get("to_move") == kind and n["moves"][0][0] != "pass")
    return next(n for n in data["nodes"] if kind in n)


def setter(path: tuple, value):
    """An edit setting the value at ``path`` (fields or indices, one after another)."""

    def edit(d):
        target = d
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return edit


def deleter(path: tuple):
    """An edit deleting the value at ``path``."""

    def edit(d):
        target = d
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return edit


def edits(data: dict) -> list:
    """Every edit of the catalogue: (name, function changing a copy of the certificate)."""
    found: list = []

    for field, value in data.items():
        found.append((f"delete {field}", deleter((field,))))
        for wrong in WRONG_TYPES:
            found.append((f"{field}={wrong!r}", setter((field,), wrong)))
        if isinstance(value, int):
            for change in (-1, 1, 10**6):
                found.append((f"{field}{change:+d}", setter((field,), value + change)))
            found.append((f"{field} as a float", setter((field,), float(value))))
    for value in ("gorules-certificate/2", "gorules-certificate/4"):
        found.append((f"format={value}", setter(("format",), value)))
    for value in ("grid:2x3", "path:4", "GRID:2x2", "grid:02x2", "grid:2x2 "):
        found.append((f"graph={value}", setter(("graph",), value)))
    for value in ("political", "Tromp-Taylor", "tromp-taylor "):
        found.append((f"ruleset={value}", setter(("ruleset",), value)))
    found.append(("unknown field", setter(("comment",), "proved by hand")))
    choices = {
        "ko": ["situational", "simple", "none", "superko"],
        "suicide": ["forbidden", "sometimes"],
        "scoring": ["stone", "territory"],
        "komi": [-10, -1, 0.5, 7.5, 1e20, -(10**29), "0"],
    }
    for option in OPTIONS:
        found.append((f"delete option {option}", deleter(("options", option))))
        for value in choices[option] + [None, True, []]:
            found.append((f"{option}={value!r}", setter(("options", option), value)))
    found.append(("option name", setter(("options", "name"), "tromp-taylor")))
    for name in ("lower", "upper"):
        strategy = data["strategies"][name]
        for field in list(strategy):
            found.append((f"delete {name}.{field}", deleter(("strategies", name, field))))
            for wrong in WRONG_TYPES:
                found.append((f"{name}.{field}={wrong!r}", setter(("strategies", name, field), wrong)))
        for player in ("B", "W", "X"):
            found.append((f"{name}.player={player}", setter(("strategies", name, "player"), player)))
        found.append((f"{name}.bound+1", setter(("strategies", name, "bound"), strategy["bound"] + 1)))
        found.append((f"{name}.bound-1", setter(("strategies", name, "bound"), strategy["bound"] - 1)))
        found.append((f"{name}.root+1", setter(("strategies", name, "root"), strategy["root"] + 1)))
        found.append((f"{name}.extra", setter(("strategies", name, "note"), 1)))
    found.append(("extra strategy", setter(("strategies", "middle"), data["strategies"]["lower"])))

    def swap_players(d):
        d["strategies"]["lower"]["player"], d["strategies"]["upper"]["player"] = "W", "B"

    found.append(("players swapped", swap_players))
    for kind in ("B", "W", "over", "static"):
        node = node_of(data, kind)
        place = ("nodes", data["nodes"].index(node))
        for field in list(node):
            found.append((f"{kind} node: delete {field}", deleter((*place, field))))
            for wrong in WRONG_TYPES:
                found.append((f"{kind} node: {field}={wrong!r}", setter((*place, field), wrong)))
        board = node["board"]
        flipped = ("W" if board[0] != "W" else "B") + board[1:]
        found.append((f"{kind} node: board {flipped}", setter((*place, "board"), flipped)))
        found.append((f"{kind} node: score", setter((*place, "score"), 5)))
        found.append((f"{kind} node: id of another", setter((*place, "id"), (node["id"] + 1) % len(data["nodes"]))))
        found.append((f"{kind} node: id as text", setter((*place, "id"), str(node["id"]))))
        found.append((f"{kind} node: both leaves", setter((*place, "over" if kind == "static" else "static"), True)))
        if "moves" in node:
            point, child = node["moves"][0]
            other = next(v for v in range(len(board)) if v != point)
            found.append((f"{kind} node: move {other}", setter((*place, "moves", 0, 0), other)))
            found.append((f"{kind} node: move pass", setter((*place, "moves", 0, 0), "pass")))
            found.append((f"{kind} node: child+1", setter((*place, "moves", 0, 1), child + 1)))
            found.append((f"{kind} node: a move more", setter((*place, "moves"), [*node["moves"], ["pass", child]])))
            found.append((f"{kind} node: to_move swapped", setter((*place, "to_move"), "W" if kind == "B" else "B")))
        if node.get("q"):
            found.append((f"{kind} node: q less one", setter((*place, "q"), node["q"][1:])))
            found.append((f"{kind} node: d = q", setter((*place, "d"), node["q"])))
            found.append((f"{kind} node: q out of range", setter((*place, "q"), [len(data["keys"])])))
    found.append(("a node more", lambda d: d["nodes"].append(None)))
    found.append(
        ("an unreached node", lambda d: d["nodes"].append({"id": len(d["nodes"]), "board": "....", "static": True}))
    )
    found.append(("a key more", lambda d: d["keys"].append("." * len(d["keys"][0]))))
    found.append(("a key twice", lambda d: d["keys"].append(d["keys"][0])))
    found.append(("a key changed", setter(("keys", 0), "W" + data["keys"][0][1:])))
    found.append(("a key removed", lambda d: d["keys"].pop()))
    found.append(("a key too short", setter(("keys", 0), data["keys"][0][1:])))
    return found


def test_every_edit_of_the_catalogue_is_refused_or_stated(folder, two_by_two):
    """Each edit of every field of 2×2's certificate: refused on one line, or valid with the
    file's own claim in the verdict. The edits that change what the file claims (komi,
    options, bounds, value, players) are refused unless the strategies prove the new claim."""
    outcomes = {}
    for name, edit in edits(two_by_two):
        data = copy.deepcopy(two_by_two)
        edit(data)
        outcomes[name] = honest(folder, as_text(data))
    assert len(outcomes) > 250
    refused = {name for name, outcome in outcomes.items() if outcome != "valid"}
    for name in (
        "value+1",
        "value-1",
        "value=1.5",
        "lower+1",
        "upper-1",
        "players swapped",
        "lower.player=W",
        "upper.player=X",
        "komi=-10",
        "komi=0.5",
        "scoring='stone'",
        "graph=grid:2x3",
        "unknown field",
        "option name",
        "delete option komi",
        "format=gorules-certificate/2",
        "an unreached node",
        "a key more",
        "a key twice",
        "W node: score",
        "over node: score",
        "static node: both leaves",
        "B node: id as text",
        "graph=GRID:2x2",
        "lower.extra",
        "extra strategy",
        "komi=True",
    ):
        assert name in refused, name
    # Deleting the value keeps the claim (the bounds); reading 1 as 1.0 is the same number.
    assert outcomes["delete value"] == outcomes["value as a float"] == "valid"


# --------------------------------------------------------------------------- numbers JSON lacks


@pytest.mark.parametrize("written", ["Infinity", "-Infinity", "NaN", "1e999", "-1e999", "9" * 5000, "-" + "9" * 31])
@pytest.mark.parametrize("field", ['"komi": 0', '"value": 1', '"lower": 1', '"bound": 1', '"id": 0'])
def test_numbers_json_lacks_or_too_long_are_one_line_and_exit_two(folder, two_by_two, written, field):
    text = as_text(two_by_two)
    assert field in text
    name = field.split(":")[0]
    code, out, err = checked(folder, text.replace(field, f"{name}: {written}", 1))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(ERROR + "cannot read the certificate")


def test_a_field_given_twice_is_refused(folder, two_by_two):
    """``"komi": 0, "komi": -10``: a reader sees the first, a JSON reader keeps the last."""
    text = as_text(two_by_two).replace('"komi": 0', '"komi": 0, "komi": -10', 1)
    code, out, err = checked(folder, text)
    assert code == 2 and "'komi' is given twice" in err and out == ""


def test_infinity_and_long_numbers_in_a_separate_process(folder, two_by_two):
    """The whole command in its own process: one line on stderr, exit 2, for -Infinity komi
    and a 5,000-digit value (the conversion Python itself refuses)."""
    for written in ("-Infinity", "9" * 5000):
        path = folder / "process.json"
        path.write_text(as_text(two_by_two).replace('"komi": 0', f'"komi": {written}', 1))
        done = subprocess.run(
            [sys.executable, "-m", "gorules", "check-certificate", str(path), "--json"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(ERROR)


# --------------------------------------------------------------------------- generated edits


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(-1e6, 1e6, allow_nan=False)
    | st.sampled_from(["pass", "B", "W", "positional", "forbidden", "stone", "grid:2x2", "...."])
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=4,
)


@st.composite
def tampered(draw, data: dict) -> dict:
    """A copy of ``data`` with one place, found by walking down from the top, replaced,
    deleted, or given a field more."""
    data = copy.deepcopy(data)
    target = data
    while True:
        places = list(target) if isinstance(target, dict) else list(range(len(target)))
        place = draw(st.sampled_from(places))
        inner = target[place]
        if isinstance(inner, (dict, list)) and inner and draw(st.booleans()):
            target = inner
            continue
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            target[place] = draw(JSON_VALUES)
        elif action == "delete":
            del target[place]
        elif isinstance(target, dict):
            target[draw(st.text(min_size=1, max_size=6))] = draw(JSON_VALUES)
        else:
            target.append(draw(JSON_VALUES))
        return data


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_generated_edits_are_refused_or_stated(folder, path_four, data):
    """Any one place of 1×4's certificate replaced by any JSON value, deleted or joined by
    another field: refused on one line, or valid with the file's own claim."""
    honest(folder, as_text(data.draw(tampered(path_four))))
