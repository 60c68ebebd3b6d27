"""Every command reaches every ruleset: ``play``, ``replay``, ``replay-sgf``, ``count``,
``sweep``, ``gtp``, ``analyse`` and ``verify`` each take ``--ruleset`` and, for each of the
six registered rulesets, either work (exit 0 with output) or refuse in one line on stderr
(exit 2) naming the capability the ruleset lacks.  Which pairs are refused is written out,
so that a command that stops reaching a ruleset, or starts refusing one, is caught.

A misère subclass of the fast Tromp–Taylor ruleset, loaded with ``--ruleset-file``, changes
one rule (the value): it keeps none of the fast ruleset's capabilities, so ``count`` gives
the generic count (compared with ``count_games`` through the interface), ``replay``,
``replay-sgf`` and ``gtp`` report the misère result, and ``analyse`` refuses it.  The mutant of the capability
lookup that ignores overrides sends it down the fast Tromp–Taylor paths, and each of those
commands then says so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gorules.cli import main
from gorules.impl.solving.search import count_games
from gorules.rulesets import load_ruleset_file, make
from gorules.spec import api
from gorules.spec.graph import parse_graph

ROOT = Path(__file__).resolve().parents[1]
GORULES = str(ROOT / ".venv" / "bin" / "gorules")
RULESETS = ("tromp-taylor", "directed", "topological", "ultimate", "fundamental", "political")
SGF = "(;GM[1]FF[4]SZ[3];B[bb];W[aa];B[ab])"
GTP_SESSION = "play b 1\ngenmove w\nshowboard\nquit\n"

REFUSED = {
    ("gtp", "ultimate"): "gtp",
    ("gtp", "fundamental"): "gtp",
    ("gtp", "political"): "gtp",
    ("count", "directed"): "count-games",
    ("count", "political"): "count-games",
    ("replay-sgf", "political"): "sgf",
    ("sweep", "political"): "value kind",
    **{("analyse", name): "analyse" for name in ("tromp-taylor", "directed", "topological", "political")},
}
"""The (command, ruleset) pairs refused, each with the word its refusal must name."""

MISERE = '''
from gorules.impl.rulesets.tromp_taylor import TrompTaylor


class Misere(TrompTaylor):
    """The fast Tromp-Taylor ruleset with the value negated: the smaller score wins."""

    name = "misere"

    def value(self, graph, state):
        return -super().value(graph, state)
'''


def arguments(command: str, ruleset: str, tmp: Path) -> list[str]:
    """The command line of a command on a small graph under a ruleset (``--ruleset`` given)."""
    chosen = ["--ruleset", ruleset]
    if command == "play":
        return ["play", *chosen, "path:3", "--moves", "1"]
    if command == "replay":
        return ["replay", "path:3", "--moves", "1", *chosen]
    if command == "replay-sgf":
        record = tmp / "game.sgf"
        record.write_text(SGF)
        return ["replay-sgf", str(record), *chosen]
    if command == "count":
        return ["count", "path:2", *chosen]
    if command == "sweep":
        return ["sweep", "going-first-is-good", "--graphs", "paths:3-3", "--workers", "0"] + [
            "--db",
            str(tmp / "sweep.sqlite"),
            *chosen,
        ]
    if command == "gtp":
        return ["gtp", "--graph", "path:3", "--seed", "1", *chosen]
    if command == "analyse":
        return ["analyse", "graph: path:2; board: ..; to move: B", *chosen]
    assert command == "verify"
    return ["verify", *chosen, "--only", "interface plays"]


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """The installed ``gorules`` with these arguments (GTP commands on stdin)."""
    stdin = GTP_SESSION if argv[0] == "gtp" else ""
    return subprocess.run([GORULES, *argv], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("command", ["play", "replay", "replay-sgf", "count", "sweep", "gtp", "analyse", "verify"])
def test_a_command_works_or_refuses_naming_the_capability(command, ruleset, tmp_path):
    finished = run(arguments(command, ruleset, tmp_path), tmp_path)
    refusal = REFUSED.get((command, ruleset))
    if refusal is None:
        assert finished.returncode == 0, finished.stderr
        assert finished.stdout.strip()
        return
    assert finished.returncode == 2, finished.stdout
    lines = [line for line in finished.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, finished.stderr
    assert refusal in lines[0] and ruleset in lines[0]
    assert "Traceback" not in finished.stderr


def test_every_refusal_names_a_capability_or_the_value_kind():
    names = set(api.CAPABILITIES) | {"value kind"}
    assert set(REFUSED.values()) <= names


# ---- a subclass that changes a rule takes the generic path


@pytest.fixture
def misere(tmp_path) -> list[str]:
    """The flags choosing the misère ruleset from a ruleset file."""
    path = tmp_path / "misere.py"
    path.write_text(MISERE)
    return ["--ruleset", "misere", "--ruleset-file", str(path)]


def misere_ruleset(flags: list[str]):
    """The misère ruleset the file defines, made as the commands make it."""
    load_ruleset_file(flags[-1])
    return make("misere")


def test_misere_loses_every_capability_of_the_fast_ruleset(misere):
    ruleset = misere_ruleset(misere)
    assert ruleset.capability_names() == []
    assert make("tromp-taylor").capability("count-games") is not None


def counted(flags: list[str], capsys) -> dict:
    """``gorules count path:3 --json`` under the flags, in this process."""
    assert main(["count", "path:3", "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def replayed(flags: list[str], capsys) -> str:
    """``gorules replay path:3`` of a game Black wins by 3 on the board, in this process."""
    assert main(["replay", "path:3", "--moves", "B 2, W pass, B pass", *flags]) == 0
    return capsys.readouterr().out


def record_report(flags: list[str], capsys, tmp_path) -> dict:
    """``gorules replay-sgf --json`` of the same game as a record, in this process."""
    record = tmp_path / "won.sgf"
    record.write_text("(;GM[1]FF[4]SZ[3];B[bb];W[];B[])")
    assert main(["replay-sgf", str(record), "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)["records"][0]


def final_score(flags: list[str], capsys, monkeypatch) -> str:
    """GTP's final score of the same game on path:3, in this process."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("play b 1\nplay w pass\nplay b pass\nfinal_score\nquit\n"))
    assert main(["gtp", "--graph", "path:3", "--json", *flags]) == 0
    exchanges = json.loads(capsys.readouterr().out)["exchanges"]
    return exchanges[3]["answer"]


def test_misere_is_counted_replayed_and_served_by_the_generic_path(misere, capsys, monkeypatch, tmp_path):
    ruleset = misere_ruleset(misere)
    data = counted(misere, capsys)
    assert data["games_method"] == "generic" and "legal_positions" not in data
    assert data["games"] == count_games(ruleset.initial(parse_graph("path:3"))) == 907
    text = replayed(misere, capsys)
    assert "result: -3" in text and "winner: black" not in text
    report = record_report(misere, capsys, tmp_path)
    assert report["opinions"] == {} and report["replayed"] == 3 and report["result"] == -9
    assert final_score(misere, capsys, monkeypatch) == "W+3"
    assert final_score([], capsys, monkeypatch) == "B+3"


def test_misere_is_refused_by_analyse(misere, tmp_path):
    finished = run(["analyse", "graph: path:2; board: ..; to move: B", *misere], tmp_path)
    assert finished.returncode == 2
    assert finished.stderr.count("\n") == 1 and "analyse" in finished.stderr and "misere" in finished.stderr


def test_a_lookup_that_ignores_overrides_is_caught(misere, capsys, monkeypatch, tmp_path):
    """The mutant: a capability found on the class that declares it, whatever the subclass
    changed.  The misère ruleset then gets the fast Tromp–Taylor count (legal positions
    and all), the Tromp–Taylor replay (Black the winner) and the engine's GTP score."""

    def ignoring_overrides(self, name):
        found = next((cls for cls in type(self).__mro__ if name in vars(cls).get("capabilities", {})), None)
        return found if found is not None else f"the {self.name} ruleset has no {name} capability"

    monkeypatch.setattr(api.Ruleset, "capability_gap", ignoring_overrides)
    data = counted(misere, capsys)
    assert "legal_positions" in data and "games_method" not in data
    assert "winner: black" in replayed(misere, capsys)
    assert "sgfmill" in record_report(misere, capsys, tmp_path)["opinions"]
    assert final_score(misere, capsys, monkeypatch) == "B+3"


# ---- the interface's GTP endpoint answers as the engine's does


SESSION = [
    "play b B2",
    "play w B2",
    "play w A1",
    "showboard",
    "play b A2",
    "play w B1",
    "list_stones black",
    "undo",
    "play w C3",
    "play b pass",
    "komi 0.5",
    "play w pass",
    "final_score",
    "play b C1",
    "clear_board",
    "play w A3",
    "list_stones white",
    "showboard",
]


def answers(endpoint, session: list[str]) -> list[tuple[bool, str]]:
    """Whether each command succeeded, and its answer when it did (refusals word their
    reasons each in the ruleset's own terms)."""
    found = []
    for line in session:
        answer = endpoint.respond(line).rstrip("\n")
        found.append((answer.startswith("="), answer if answer.startswith("=") else ""))
    return found


@pytest.mark.parametrize("graph", ["grid:3x3", "grid:2x3"])
def test_the_interface_endpoint_answers_as_the_engine_endpoint(graph):
    """The spec's Tromp–Taylor ruleset has no gtp capability: served through the interface,
    it gives the engine's endpoint's answers to a session of plays, refusals, undo, komi and
    the final score."""
    from gorules.commands.gtp import endpoint_of

    spec = make("tromp-taylor", implementation="spec")
    assert spec.capability("gtp") is None
    through_interface = endpoint_of(spec, parse_graph(graph), 1)
    engine = endpoint_of(make("tromp-taylor"), parse_graph(graph), 1)
    assert type(through_interface) is not type(engine)
    found = answers(through_interface, SESSION)
    assert found == answers(engine, SESSION)
    assert found[12] == (True, {"grid:3x3": "= W+0.5", "grid:2x3": "= B+0.5"}[graph])
