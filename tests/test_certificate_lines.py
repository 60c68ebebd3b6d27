"""Certificates in lines (``gorules-certificate/4``): the file ``gorules solve --certificate``
writes checks valid, says what the document of format 3 with the same content says, and
every field of it, and every line, changed, removed, retyped, repeated or given a number
JSON does not have is refused by ``gorules check-certificate`` (exit 1 or 2, one line, no
traceback) or found valid with a verdict that states exactly the claim the file now
makes."""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import json
import random
from pathlib import Path

import pytest

from gorules.cli import main
from gorules.commands.check_certificate import read, strict_line
from gorules.impl.solving import certificate_lines
from gorules.impl.solving.certificate import certificate
from gorules.impl.solving.certificate_check import CertificateError, check
from gorules.impl.solving.solve import Solver
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS
from tests.test_certificate_tampering import (
    ERROR,
    VALID,
    WRONG_TYPES,
    deleter,
    refuse,
    setter,
    states_the_file,
)


def solved(folder: Path, graph: str) -> list:
    """The lines of the certificate ``gorules solve GRAPH --certificate`` writes, parsed."""
    path = folder / f"{graph.replace(':', '-')}.cert"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["solve", graph, "--no-progress", "--certificate", str(path)]) == 0
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("certificates")


@pytest.fixture(scope="module")
def two_by_two(folder) -> list:
    return solved(folder, "grid:2x2")


def as_text(rows: list) -> str:
    """The lines of a certificate, each value as the writer writes it."""
    return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)


def checked(folder: Path, text: str, *flags: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``gorules check-certificate`` on a file holding ``text``."""
    path = folder / "tampered.cert"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check-certificate", str(path), *flags])
    return code, out.getvalue(), err.getvalue()


def honest(folder: Path, text: str) -> str:
    """Check ``text`` and assert that it is refused on one line (exit 1 with ``invalid:``, or
    2 with one error line) or found valid with a verdict stating the file's own claim and
    number of positions; the outcome: ``valid``, ``invalid`` or ``unreadable``."""
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
    rows = text.splitlines()
    header = json.loads(rows[0])
    line = VALID.fullmatch(out.strip())
    assert line is not None and states_the_file(line.group(1), header), out
    assert int(line.group(2)) == header["nodes"] == len(rows) - 1 - header["keys"]
    code, out, err = checked(folder, text, "--json")
    verdict = json.loads(out, parse_constant=refuse)
    assert code == 0 and verdict["valid"] and verdict["problem"] is None
    assert verdict["claim"] == line.group(1)
    for field in ("graph", "ruleset", "options", "lower", "upper"):
        assert verdict[field] == header[field], field
    assert verdict["value"] == header.get("value")
    return "valid"


def in_lines(data: dict) -> str:
    """The text of a format-3 document's certificate in lines."""
    return "".join(certificate_lines.lines(data))


def checked_in_lines(text: str) -> str | None:
    """The problem the checker of lines finds in ``text`` (None if valid)."""
    rows = certificate_lines.Lines(io.BytesIO(text.encode()), strict_line)
    return certificate_lines.check(rows)[2]


def test_the_checker_of_lines_reads_only_the_spec():
    """certificate_lines imports the standard library's readers, the spec and the format-3
    checker (which imports only the spec), nothing of the engine or the solver."""
    tree = ast.parse(Path(certificate_lines.__file__).read_text(encoding="utf-8"))
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    allowed = {"__future__", "typing", "json", "itertools", "array", "collections.abc"}
    assert all(
        m in allowed or m.startswith("gorules.spec") or m == "gorules.impl.solving.certificate_check" for m in modules
    ), modules


def test_the_written_certificate_is_valid_and_names_every_option(folder, two_by_two):
    text = as_text(two_by_two)
    assert two_by_two[0]["format"] == "gorules-certificate/4"
    code, out, _ = checked(folder, text)
    assert code == 0
    assert out.startswith(
        "valid: grid:2x2 tromp-taylor ko=positional suicide=allowed scoring=area komi=0: value in [+1, +1] for Black, "
    )
    assert honest(folder, text) == "valid"


def test_the_lines_read_back_as_the_document_of_the_same_certificate(folder, two_by_two):
    """The lines are the writer's document: read whole, they give it back, ids and all, and
    written again they are the same text."""
    path = folder / "again.cert"
    path.write_text(as_text(two_by_two))
    data = read(path)
    assert data["format"] == "gorules-certificate/3" and check(data) is None
    assert [node["id"] for node in data["nodes"]] == list(range(two_by_two[0]["nodes"]))
    assert in_lines(data) == as_text(two_by_two)


@pytest.mark.parametrize(
    "name, preset",
    [("grid:2x3", "tromp-taylor"), ("path:4", "situational"), ("cycle:4", "no-suicide"), ("path:4", "stone")],
)
def test_both_checkers_agree_on_mutants(name, preset):
    """The checker of lines finds what the checker of documents finds, problem for problem,
    on the certificate and on 150 mutants of it (a claim shortened or changed, a move, a
    child, a board, a bound)."""
    solver = Solver(parse_graph(name), PRESETS[preset])
    data = certificate(solver, solver.solve().raw_value)
    assert checked_in_lines(in_lines(data)) is None is check(data)
    chance = random.Random(name + preset)
    invalid = 0
    for _ in range(150):
        mutant = mutated(data, chance)
        try:
            found = check(mutant)
        except CertificateError as error:
            found = f"unreadable: {error}"
        try:
            in_lines_found = checked_in_lines(in_lines(mutant))
        except CertificateError as error:
            in_lines_found = f"unreadable: {error}"
        assert in_lines_found == found
        invalid += found is not None
    assert invalid > 50


def mutated(data: dict, chance: random.Random) -> dict:
    """A copy of ``data`` with one node's claim, move, child or board changed, or a bound
    raised, each change still well formed."""
    mutant = copy.deepcopy(data)
    node = chance.choice(mutant["nodes"])
    what = chance.choice(["q", "d", "move", "child", "board", "bound"])
    if what == "q" and node.get("q"):
        node["q"] = node["q"][1:] if chance.random() < 0.5 else node["q"][:-1]
        node["d"] = [k for k in node.get("d", []) if k in node["q"]]
    elif what == "d" and node.get("q"):
        node["d"] = sorted(set(node.get("d", [])) ^ {chance.choice(node["q"])})
    elif what == "move" and "moves" in node:
        node["moves"][0][0] = chance.choice(["pass", *range(len(node["board"]))])
    elif what == "child" and "moves" in node:
        node["moves"][-1][1] = chance.randrange(len(mutant["nodes"]))
    elif what == "board":
        board = list(node["board"])
        board[chance.randrange(len(board))] = chance.choice("BW.")
        node["board"] = "".join(board)
    else:
        mutant["lower"] = mutant["value"] = mutant["upper"] = mutant["lower"] + 1
        mutant["strategies"]["lower"]["bound"] = mutant["strategies"]["upper"]["bound"] = mutant["lower"]
    return mutant


# --------------------------------------------------------------------------- the catalogue


def place_of(rows: list, kind: str) -> int:
    """The line of the first node of a kind: ``B`` or ``W`` to move (a stone move first),
    ``over``, ``static``."""
    start = 1 + rows[0]["keys"]
    for place in range(start, len(rows)):
        node = rows[place]
        if kind in ("B", "W") and node.get("to_move") == kind and node["moves"][0][0] != "pass":
            return place
        if kind in node:
            return place
    raise AssertionError(kind)


def header_edits(rows: list) -> list:
    """Every edit of the header's fields."""
    header = rows[0]
    found: list = []
    for field, value in header.items():
        found.append((f"delete {field}", deleter((0, field))))
        found.extend((f"{field}={wrong!r}", setter((0, field), wrong)) for wrong in WRONG_TYPES)
        if isinstance(value, int):
            for change in (-1, 1, 10**6, 10**15):
                found.append((f"{field}{change:+d}", setter((0, field), value + change)))
            found.append((f"{field} as a float", setter((0, field), float(value))))
    for value in ("gorules-certificate/3", "gorules-certificate/5"):
        found.append((f"format={value}", setter((0, "format"), value)))
    for value in ("grid:2x3", "path:4", "GRID:2x2", "grid:2x2 "):
        found.append((f"graph={value}", setter((0, "graph"), value)))
    found.append(("ruleset=political", setter((0, "ruleset"), "political")))
    found.append(("unknown field", setter((0, "comment"), "proved by hand")))
    choices = {
        "ko": ["situational", "simple", "none"],
        "suicide": ["forbidden", "sometimes"],
        "scoring": ["stone", "territory"],
        "komi": [-10, 0.5, 7.5, -(10**29), "0", None, True],
    }
    for option, values in choices.items():
        found.append((f"delete option {option}", deleter((0, "options", option))))
        found.extend((f"{option}={value!r}", setter((0, "options", option), value)) for value in values)
    found.append(("option name", setter((0, "options", "name"), "tromp-taylor")))
    for name in ("lower", "upper"):
        strategy = header["strategies"][name]
        for field in list(strategy):
            found.append((f"delete {name}.{field}", deleter((0, "strategies", name, field))))
            found.extend(
                (f"{name}.{field}={wrong!r}", setter((0, "strategies", name, field), wrong)) for wrong in WRONG_TYPES
            )
        for player in ("B", "W", "X"):
            found.append((f"{name}.player={player}", setter((0, "strategies", name, "player"), player)))
        for change in (-1, 1):
            found.append(
                (f"{name}.bound{change:+d}", setter((0, "strategies", name, "bound"), strategy["bound"] + change))
            )
            found.append(
                (f"{name}.root{change:+d}", setter((0, "strategies", name, "root"), strategy["root"] + change))
            )
        found.append((f"{name}.extra", setter((0, "strategies", name, "note"), 1)))
    found.append(("extra strategy", setter((0, "strategies", "middle"), header["strategies"]["lower"])))
    return found


def node_edits(rows: list) -> list:
    """Every edit of a node line of each kind."""
    found: list = []
    keys = rows[0]["keys"]
    for kind in ("B", "W", "over", "static"):
        place = place_of(rows, kind)
        node = rows[place]
        found.append((f"{kind} node: not an object", setter((place,), [node])))
        for field in list(node):
            found.append((f"{kind} node: delete {field}", deleter((place, field))))
            found.extend((f"{kind} node: {field}={wrong!r}", setter((place, field), wrong)) for wrong in WRONG_TYPES)
        board = node["board"]
        flipped = ("W" if board[0] != "W" else "B") + board[1:]
        found.append((f"{kind} node: board {flipped}", setter((place, "board"), flipped)))
        found.append((f"{kind} node: score", setter((place, "score"), 5)))
        found.append((f"{kind} node: an id", setter((place, "id"), place - 1 - keys)))
        found.append((f"{kind} node: both leaves", setter((place, "over" if kind == "static" else "static"), True)))
        if "moves" in node:
            point, child = node["moves"][0]
            other = next(v for v in range(len(board)) if v != point)
            found.append((f"{kind} node: move {other}", setter((place, "moves", 0, 0), other)))
            found.append((f"{kind} node: move pass", setter((place, "moves", 0, 0), "pass")))
            found.append((f"{kind} node: move off the board", setter((place, "moves", 0, 0), len(board))))
            found.append((f"{kind} node: child+1", setter((place, "moves", 0, 1), child + 1)))
            found.append((f"{kind} node: child beyond", setter((place, "moves", 0, 1), rows[0]["nodes"])))
            found.append((f"{kind} node: a move more", setter((place, "moves"), [*node["moves"], ["pass", child]])))
            found.append((f"{kind} node: to_move swapped", setter((place, "to_move"), "W" if kind == "B" else "B")))
        if node.get("q"):
            q = node["q"]
            found.append((f"{kind} node: q less one", setter((place, "q"), q[1:])))
            found.append((f"{kind} node: d = q", setter((place, "d"), q)))
            found.append((f"{kind} node: q out of range", setter((place, "q"), [keys])))
            found.append((f"{kind} node: q twice", setter((place, "q"), [q[0], *q])))
            found.append((f"{kind} node: q reversed", setter((place, "q"), q[::-1])))
    return found


def line_edits(rows: list) -> list:
    """Every edit of the lines themselves: keys and nodes added, removed, repeated, swapped."""
    keys, nodes = rows[0]["keys"], rows[0]["nodes"]
    first_node = 1 + keys

    def counted(edit, keys_change: int = 0, nodes_change: int = 0):
        def both(rows):
            edit(rows)
            rows[0]["keys"] += keys_change
            rows[0]["nodes"] += nodes_change

        return both

    unreached = {"board": "." * len(rows[1]), "static": True}
    return [
        ("a key changed", setter((1,), "W" + rows[1][1:])),
        ("a key too short", setter((1,), rows[1][1:])),
        ("a key not a string", setter((1,), 5)),
        ("a key twice", setter((2,), rows[1])),
        ("a key more", lambda r: r.insert(first_node, "." * len(r[1]))),
        ("a key more, counted", counted(lambda r: r.insert(first_node, "." * len(r[1])), keys_change=1)),
        ("a key removed, counted", counted(lambda r: r.pop(first_node - 1), keys_change=-1)),
        ("a key line more", lambda r: r.insert(1, r[1])),
        ("a node more", lambda r: r.append(unreached)),
        ("an unreached node, counted", counted(lambda r: r.append(unreached), nodes_change=1)),
        ("a node removed", lambda r: r.pop()),
        ("a node removed, counted", counted(lambda r: r.pop(), nodes_change=-1)),
        ("two nodes swapped", swapped(first_node, first_node + nodes // 2)),
        ("two keys swapped", swapped(1, 2)),
        ("the header last", lambda r: r.append(r.pop(0))),
        ("a null line", lambda r: r.append(None)),
    ]


def swapped(i: int, j: int):
    """An edit swapping lines i and j."""

    def edit(rows):
        rows[i], rows[j] = rows[j], rows[i]

    return edit


def test_every_edit_of_the_catalogue_is_refused_or_stated(folder, two_by_two):
    """Each edit of every field and line of 2×2's certificate in lines: refused on one line,
    or valid with the file's own claim. The edits that change what the file claims (komi,
    options, bounds, value, players) are refused unless the strategies prove the new claim,
    and every edit of a node's content or a line's place is refused."""
    outcomes = {}
    for name, edit in header_edits(two_by_two) + node_edits(two_by_two) + line_edits(two_by_two):
        rows = copy.deepcopy(two_by_two)
        edit(rows)
        if as_text(rows) != as_text(two_by_two):  # an edit to the value already there is none
            outcomes[name] = honest(folder, as_text(rows))
    assert len(outcomes) > 250
    valid = {name for name, outcome in outcomes.items() if outcome == "valid"}
    # Deleting the value keeps the claim (the bounds); reading 1 as 1.0 is the same number;
    # 2×2's strategies make no suicide, so they prove the same bounds with suicide forbidden,
    # and the verdict says so (``honest``).
    allowed = {"delete value", "value as a float", "lower as a float", "upper as a float", "suicide='forbidden'"}
    assert valid <= allowed, valid
    assert "delete value" in valid


# --------------------------------------------------------------------------- the lines as text


@pytest.mark.parametrize("written", ["Infinity", "-Infinity", "NaN", "1e999", "9" * 5000, "-" + "9" * 31])
@pytest.mark.parametrize("field", ['"komi":0', '"bound":1', '"nodes":', '"q":['])
def test_numbers_json_lacks_or_too_long_are_one_line_and_exit_two(folder, two_by_two, written, field):
    text = as_text(two_by_two)
    assert field in text
    code, out, err = checked(
        folder, text.replace(field, field.split(":")[0] + ":" + written + ("," if "[" in field else ""), 1)
    )
    if field == '"nodes":':
        code, out, err = checked(folder, text.replace('"nodes":', '"nodes":' + written + ',"x":', 1))
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert err.startswith(ERROR + "cannot read the certificate") or err.startswith(ERROR), err


@pytest.mark.parametrize(
    "name, change",
    [
        ("the last newline cut", lambda text: text[:-1]),
        ("the last line cut", lambda text: text[: text.rindex("\n", 0, -1) + 5]),
        ("an empty line at the end", lambda text: text + "\n"),
        ("an empty line inside", lambda text: text.replace("\n", "\n\n", 3)),
        ("a line of two values", lambda text: text.replace("\n", " 1\n", 2)),
        ("a field twice in the header", lambda text: text.replace('"komi":0', '"komi":0,"komi":-10', 1)),
        ("a field twice in a node", lambda text: text.replace('{"board"', '{"board":"....","board"', 1)),
        ("a line not JSON", lambda text: text.replace("\n", "\n{not json\n", 2)),
        ("nothing", lambda text: ""),
    ],
)
def test_a_changed_text_is_refused(folder, two_by_two, name, change):
    """Lines cut, emptied, doubled or joined: one line, exit 1 or 2, never valid."""
    assert honest(folder, change(as_text(two_by_two))) in ("invalid", "unreadable"), name


def test_white_space_within_lines_is_json_and_the_claim_is_the_same(folder, two_by_two):
    """Spaces after the separators and a carriage return before each newline are JSON's
    white space: the file is valid and its verdict states the same claim."""
    text = "".join(json.dumps(row) + "\r\n" for row in two_by_two)
    assert honest(folder, text) == "valid"
