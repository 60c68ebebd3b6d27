"""``gorules explore``: the page's data against the certificate and the spec's checker, every
artefact kind recognised and anything else refused in one line, and the page itself in a
real browser (headless Chromium driven by Selenium): a 3×3 certificate walked from the root
along Black's strategy to a leaf, and the served page walked two positions, then stopped by
Ctrl-C.

The browser comes from the Debian packages ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them); where they are missing the browser tests fail, saying the browser was not run.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from gorules.cli import main
from gorules.commands.check_certificate import read
from gorules.explore import kind_of, page_data
from gorules.explore_page import html
from gorules.impl.solving import certificate_check as checker
from gorules.spec import benson
from gorules.spec.graph import parse_graph
from gorules.spec.text import move_name
from gorules.spec.tromp_taylor import BLACK, PASS, State
from tests.hostile_inputs import waiting_writer

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
"""The one address a page names: the namespace of its SVG, which loads nothing."""
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30
"""Seconds a browser step may take before the test gives up on it (a bound, not a measure)."""


def solved(tmp: Path, graph: str) -> Path:
    """The certificate of ``gorules solve GRAPH --certificate``."""
    path = tmp / f"{graph.replace(':', '-')}.json"
    assert main(["solve", graph, "--no-progress", "--certificate", str(path)]) == 0
    return path


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, Path]:
    """The certificates of the 2×2 and 3×3 boards."""
    tmp = tmp_path_factory.mktemp("certificates")
    return {graph: solved(tmp, graph) for graph in ("grid:2x2", "grid:3x3")}


def loaded(path: Path) -> dict:
    """A JSON file, or a certificate in lines read whole (as ``explore`` reads it)."""
    return read(path)


# ------------------------------------------------------------------ the page's data


@pytest.mark.parametrize("graph", ["grid:2x2", "grid:3x3"])
def test_every_position_is_on_the_page_with_the_checkers_verdict(certificates, graph):
    data = loaded(certificates[graph])
    page = page_data(data)
    assert checker.check(data) is None
    assert set(page["nodes"]) == {str(node["id"]) for node in data["nodes"]}
    assert page["embedded"] == page["positions"] == len(data["nodes"])
    spec_graph = parse_graph(data["graph"])
    for node in data["nodes"]:
        view = page["nodes"][str(node["id"])]
        assert view["board"] == node["board"]
        expected = [["pass" if m == PASS else move_name(spec_graph, m), c] for m, c in node.get("moves", [])]
        assert [[m["move"], m["child"]] for m in view["moves"]] == expected
        assert view["kind"] == ("static" if "static" in node else "over" if "over" in node else "inner")
        assert view["verdict"] == {"ok": True, "text": "passes the checker"}


def test_a_tampered_position_gets_the_checkers_problem(certificates):
    data = loaded(certificates["grid:2x2"])
    root = data["strategies"]["lower"]["root"]
    child = next(n for n in data["nodes"] if n["id"] == root)["moves"][0][1]
    tampered = next(n for n in data["nodes"] if n["id"] == child)
    tampered["board"] = "W" + tampered["board"][1:] if tampered["board"][0] != "W" else "B" + tampered["board"][1:]
    problem = checker.check(data)
    assert problem is not None and f"node {child}:" in problem
    page = page_data(data)
    verdicts = {number: view["verdict"] for number, view in page["nodes"].items()}
    assert verdicts[str(child)]["ok"] is False and problem.endswith(verdicts[str(child)]["text"])
    assert sum(not v["ok"] for v in verdicts.values()) == 1


def test_a_leaf_says_why_it_is_one(certificates):
    data = loaded(certificates["grid:3x3"])
    page = page_data(data)
    graph, ruleset = checker.ruleset_of(data)
    kinds = {view["kind"] for view in page["nodes"].values()}
    assert {"static", "over", "inner"} <= kinds
    for view in page["nodes"].values():
        if view["kind"] == "over":
            assert view["leaf"].startswith("game over") and view["moves"] == []
            margin = ruleset.value(graph, (State(tuple(view["board"]), BLACK, 2),))
            assert view["value"].startswith(f"final margin {checker.number_text(margin, True)} ")
        if view["kind"] == "static":
            owner = checker.PLAYERS[view["strategy"]]
            kept = sorted(benson.kept(graph, ruleset.options, tuple(view["board"]), owner))
            bound = 2 * len(kept) - 9 if owner == BLACK else 9 - 2 * len(kept)
            assert view["kept"] == kept and f"keeps {len(kept)} of 9 points" in view["leaf"]
            assert view["value"].endswith(f" {checker.number_text(bound, True)} (static bound)")


def test_the_moves_refused_by_the_history_are_named_with_the_specs_reason(certificates):
    page = page_data(loaded(certificates["grid:3x3"]))
    refused = [(view, r) for view in page["nodes"].values() for r in view["refused"]]
    assert any("superko" in r["why"] for _, r in refused)
    for view, r in refused:
        assert r["move"] not in [m["move"] for m in view["moves"]]


def test_a_page_embeds_at_most_its_limit(certificates):
    data = loaded(certificates["grid:3x3"])
    page = page_data(data, limit=10)
    assert page["embedded"] == len(page["nodes"]) == 10 and page["positions"] == len(data["nodes"])
    roots = {str(r) for r in page["roots"].values()}
    assert roots <= set(page["nodes"])


def test_every_artefact_kind_is_recognised(certificates, tmp_path, capsys):
    solve = tmp_path / "solve.json"
    assert main(["solve", "grid:2x2", "--no-progress", "--json", "--out", str(solve)]) == 0
    prove = tmp_path / "prove.json"
    assert (
        main(["prove", "move-definedness", "--graph", "grid:2x2", "--as-written", "--json", "--out", str(prove)]) == 1
    )
    sweep = tmp_path / "sweep.json"
    db = str(tmp_path / "sweep.sqlite")
    argv = ["sweep", "going-first-is-good", "--graphs", "paths:1-3", "--workers", "0", "--db", db, "--json"]
    assert main([*argv, "--out", str(sweep)]) == 0
    conjectures = tmp_path / "conjectures.json"
    assert main(["conjectures", "000", "--points", "1", "--json", "--out", str(conjectures)]) == 0
    capsys.readouterr()
    artefacts = {"certificate": certificates["grid:2x2"], "solve": solve, "prove": prove, "sweep": sweep}
    artefacts["conjectures"] = conjectures
    for kind, path in artefacts.items():
        assert kind_of(loaded(path)) == kind
        page = tmp_path / f"{kind}.html"
        assert main(["explore", str(path), "--out", str(page)]) == 0
        text = page.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>") and "<link" not in text and " src=" not in text
        assert set(re.findall(r"https?://[\w./-]*", text)) <= {SVG_NAMESPACE}


@pytest.mark.parametrize(
    "ruleset,graph", [("tromp-taylor", "grid:2x2"), ("political", "path:3"), ("ultimate", "path:3")]
)
def test_a_solves_variation_is_played_move_by_move(ruleset, graph, tmp_path, capsys):
    solve = tmp_path / "solve.json"
    assert main(["solve", graph, "--ruleset", ruleset, "--no-progress", "--json", "--out", str(solve)]) == 0
    data = loaded(solve)
    page = page_data(data)
    assert [s["move"] for s in page["steps"]] == ["start", *data["principal_variation"]]
    assert page["problem"] is None and page["summary"]["value"] == data["value"]


def test_a_variant_of_ones_own_is_played_once_its_file_is_given(tmp_path, capsys):
    variant = Path(__file__).resolve().parent.parent / "docs" / "examples" / "misere.py"
    solve = tmp_path / "solve.json"
    command = ["solve", "path:3", "--ruleset-file", str(variant), "--ruleset", "misere", "--json", "--out", str(solve)]
    assert main([*command, "--no-progress"]) == 0
    pages = {}
    for given in (False, True):
        page = tmp_path / f"page-{given}.html"
        extra = ["--ruleset-file", str(variant)] if given else []
        run = [sys.executable, "-m", "gorules", "explore", str(solve), "--out", str(page), *extra]
        assert subprocess.run(run, capture_output=True, text=True, timeout=120).returncode == 0
        pages[given] = page.read_text(encoding="utf-8")
    assert "unknown ruleset" in pages[False] and "without boards" in pages[False]
    assert "without boards" not in pages[True] and "unknown ruleset" not in pages[True]


def test_a_refuted_theorem_shows_its_counterexample_move_by_move(tmp_path, capsys):
    prove = tmp_path / "prove.json"
    assert (
        main(["prove", "move-definedness", "--graph", "grid:2x2", "--as-written", "--json", "--out", str(prove)]) == 1
    )
    data = loaded(prove)
    theorem = page_data(data)["theorems"][0]
    assert theorem["status"] == "refuted"
    boards = theorem["counterexample"]["boards"]
    assert [b["board"] for b in boards] == [b["board"] for b in data["counterexample"]["boards"]]
    assert all(b["svg"].startswith("<svg") for b in boards)
    grid = parse_graph("grid:2x2")
    named = [move_name(grid, m) for m in data["counterexample"]["moves"]]
    assert theorem["counterexample"]["moves"] == named and all(name == "pass" or name[0] in "AB" for name in named)


def test_verify_rows_become_a_table_with_the_refutation_move_by_move(tmp_path, capsys):
    rows = tmp_path / "verify.json"
    assert main(["verify", "--only", "prove move-definedness (as written)", "--json", "--out", str(rows)]) == 0
    data = loaded(rows)
    page = page_data(data)
    assert page["kind"] == "verify" and [r["check"] for r in page["rows"]] == [r["check"] for r in data]
    found = data[0]["detail"]["counterexample"]
    shown = page["rows"][0]["counterexample"]
    assert [b["board"] for b in shown["boards"]] == [b["board"] for b in found["boards"]]
    graph = parse_graph(found["graph"]["name"]) if isinstance(found.get("graph"), dict) else None
    assert shown["moves"] == [move_name(graph, m) if graph else str(m) for m in found["moves"]]


@pytest.mark.parametrize(
    "content",
    ['{"a": 1}', "[]", "[1, 2]", '{"format": "gorules-certificate/3"}', "not json", '{"a": NaN}'],
)
def test_anything_else_is_one_line_and_no_page(content, tmp_path, capsys):
    path = tmp_path / "artefact.json"
    path.write_text(content, encoding="utf-8")
    page = tmp_path / "page.html"
    assert main(["explore", str(path), "--out", str(page)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("gorules explore: error:")
    assert not page.exists()


def test_the_artefacts_text_cannot_close_the_data_element(tmp_path):
    sweep = {
        "conjecture": "</script><script>alert(1)</script>",
        "family": "x",
        "rows": [{"graph": "<b>", "holds": True, "figures": {}}],
    }
    text = html(page_data(sweep))
    assert "</script><script>alert(1)" not in text and "\\u003c/script>" in text


def test_port_without_serve_is_refused(certificates, capsys):
    assert main(["explore", str(certificates["grid:2x2"]), "--port", "8000"]) == 2
    assert "--port is for --serve" in capsys.readouterr().err


# ------------------------------------------------------------------ in a real browser


def browser():
    """Headless Chromium under Selenium; the test fails, saying so, if none is installed."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]
    if missing:
        pytest.fail(
            f"the browser was not run: {', '.join(missing)} missing "
            "(apt-get install chromium chromium-driver, as .ci/run does)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1600"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def shown_id(driver) -> int:
    """The number of the position the page shows."""
    from selenium.webdriver.common.by import By

    return int(driver.find_element(By.ID, "node-id").text)


def showing(driver, number: int) -> None:
    """Wait until the page shows position ``number``."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements("id", "node-id") and shown_id(d) == number)


def text_of(driver, element: str) -> str:
    """The text of the element with id ``element``."""
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element).text


def expected_value(graph, ruleset, state, node: dict, strategy: str) -> str:
    """What the page must say of a position's value, from the spec: a finished game's margin,
    a static leaf's bound from Benson's kept points."""
    if "over" in node:
        return f"final margin {checker.number_text(ruleset.value(graph, (state,)), True)}"
    if "static" in node:
        bound = checker.static_bound(graph, ruleset, state, checker.PLAYERS[strategy])
        return f"{checker.number_text(bound, True)} (static bound)"
    return "inner position"


def stones_drawn(driver) -> str:
    """The board as the page draws it: for each point, B, W or '.' from the stones' circles."""
    from selenium.webdriver.common.by import By

    script = (
        "const f = JSON.parse(document.getElementById('page-data').textContent).frame;"
        "const out = f.points.map(() => '.');"
        "for (const c of document.querySelectorAll('#node-board circle.stone-B, #node-board circle.stone-W')) {"
        "  const i = f.points.findIndex(p => Math.abs(p[0] - c.cx.baseVal.value) < 0.5 &&"
        "                                    Math.abs(p[1] - c.cy.baseVal.value) < 0.5);"
        "  out[i] = c.getAttribute('class').slice(-1); }"
        "return out.join('');"
    )
    assert driver.find_elements(By.CSS_SELECTOR, "#node-board svg")
    return driver.execute_script(script)


def walk_to_a_leaf(driver, data: dict) -> list[int]:
    """Click through the page from the lower strategy's root along the strategy (each
    position's first move) to a leaf, checking at each position what the page shows against
    the certificate and the spec, the line played by the spec with its whole history; the
    positions walked."""
    from selenium.webdriver.common.by import By

    graph, ruleset = checker.ruleset_of(data)
    nodes = {node["id"]: node for node in data["nodes"]}
    number = data["strategies"]["lower"]["root"]
    line = ruleset.start(graph)
    walked = []
    while True:
        showing(driver, number)
        walked.append(number)
        node, state = nodes[number], line[-1]
        assert node["board"] == "".join(state.board) == stones_drawn(driver)
        assert expected_value(graph, ruleset, state, node, "lower") in text_of(driver, "node-value")
        assert text_of(driver, "node-strategy") == "lower"
        assert driver.find_element(By.ID, "node-verdict").get_attribute("data-ok") == "true"
        buttons = driver.find_elements(By.CSS_SELECTOR, "#node-moves button.move")
        expected = [("pass" if m == PASS else move_name(graph, m), c) for m, c in node.get("moves", [])]
        assert [(b.text, int(b.get_attribute("data-child"))) for b in buttons] == expected
        if not expected:
            leaf = text_of(driver, "node-leaf")
            assert leaf.startswith("game over" if "over" in node else "static")
            return walked
        assert text_of(driver, "node-to-move").startswith(node["to_move"])
        raw, child = node["moves"][0]
        line = ruleset.apply(graph, line, raw)
        buttons[0].click()
        number = child


def test_a_3x3_certificate_walked_in_the_browser(certificates, tmp_path, capsys):
    data = loaded(certificates["grid:3x3"])
    page = tmp_path / "page.html"
    assert main(["explore", str(certificates["grid:3x3"]), "--out", str(page)]) == 0
    capsys.readouterr()
    driver = browser()
    try:
        driver.get(page.as_uri())
        assert text_of(driver, "claim") == checker.claim(data)
        assert f"embeds {len(data['nodes'])} of the certificate's {len(data['nodes'])}" in text_of(
            driver, "embedded-note"
        )
        walked = walk_to_a_leaf(driver, data)
        assert len(walked) >= 2
        back = driver.find_element("css selector", f"#path button[data-node='{walked[0]}']")
        back.click()
        showing(driver, walked[0])
        shown_beyond_the_limit(driver, certificates["grid:3x3"], tmp_path, len(data["nodes"]))
    finally:
        driver.quit()


def shown_beyond_the_limit(driver, certificate: Path, tmp_path: Path, positions: int) -> None:
    """A page that embeds 2 positions (the two roots) says so, and a move from a root to a
    position it does not hold says that position is not on the page."""
    small = tmp_path / "small.html"
    assert main(["explore", str(certificate), "--positions", "2", "--out", str(small)]) == 0
    driver.get(small.as_uri())
    assert f"embeds 2 of the certificate's {positions} positions (at most 2" in text_of(driver, "embedded-note")
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_element("css selector", "#node-moves button.move").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements("id", "node-missing"))
    assert "is not on this page" in text_of(driver, "node-missing")


def free_port() -> int:
    """A port no process listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_served_page_walks_two_positions_then_ends_on_ctrl_c(certificates):
    data = loaded(certificates["grid:3x3"])
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gorules",
        "explore",
        str(certificates["grid:3x3"]),
        "--serve",
        "--port",
        str(port),
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    driver = None
    try:
        address = server.stdout.readline().split()[1]
        assert address == f"http://127.0.0.1:{port}/"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(address + "position/999999999", timeout=WAIT)
        assert refused.value.code == 404
        driver = browser()
        driver.get(address)
        assert "served" in text_of(driver, "embedded-note")
        nodes = {node["id"]: node for node in data["nodes"]}
        number = data["strategies"]["lower"]["root"]
        driver.find_element("id", "root-lower").click()
        for _ in range(2):
            showing(driver, number)
            node = nodes[number]
            assert text_of(driver, "node-strategy") == "lower"
            assert driver.find_element("id", "node-verdict").get_attribute("data-ok") == "true"
            buttons = driver.find_elements("css selector", "#node-moves button.move")
            assert [int(b.get_attribute("data-child")) for b in buttons] == [c for _, c in node["moves"]]
            children = [c for _, c in node["moves"]]
            going = next((i for i, c in enumerate(children) if "moves" in nodes[c]), 0)
            number = children[going]
            buttons[going].click()
        showing(driver, number)
    finally:
        if driver is not None:
            driver.quit()
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=WAIT)
    assert server.returncode == 130
    assert err == "gorules explore: error: interrupted\n"


@pytest.mark.parametrize(("path", "why"), [("/dev/null", "neither a regular file nor a pipe"), (".", "a directory")])
def test_only_a_file_or_a_pipe_is_read(path, why, capsys):
    assert main(["explore", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_a_fifo_with_a_writer_is_read_and_one_without_is_refused(tmp_path, capsys):
    """As check-certificate: a pipe that a writer holds open is read to its end; a FIFO that
    no one writes is refused at once, never waited on."""
    source = tmp_path / "2x2.json"
    assert main(["solve", "grid:2x2", "--no-progress", "--certificate", str(source)]) == 0
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    capsys.readouterr()
    assert main(["explore", str(fifo)]) == 2
    assert "FIFO with no writer" in capsys.readouterr().err
    writer = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", str(source), str(fifo)])
    waiting_writer(writer.pid)
    try:
        page = tmp_path / "page.html"
        assert main(["explore", str(fifo), "--out", str(page)]) == 0
        assert "291 of 291 positions" in capsys.readouterr().out and page.stat().st_size > 0
    finally:
        writer.wait(timeout=WAIT)
