"""The proofs for every graph (proofs/unbounded.py): real Z3, real cvc5, real coqc.

Each theorem is proved with both solvers and a non-empty witness; the Coq file compiles
with no axioms, and a broken copy of it does not; every cell of the theorem × mutant matrix
of proofs/README.md comes out as the table says, with each counterexample replayed on the
spec; the exact encoding is forced to the spec's reaches on concrete graphs; the proofs
need the minimality instances they state; the CLI and verify rows say so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gorules.proofs import unbounded as UB
from gorules.proofs import unbounded_logic as U
from gorules.proofs import unbounded_obligations as O
from gorules.proofs import unbounded_rules as UR
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph, graph_from_json, make_graph, parse_graph

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "proofs" / "README.md"

pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")


def matrix() -> list[tuple[str, str, str, str]]:
    """The rows (theorem, mutant, obligation broken, expected) of the README's table."""
    text = README.read_text()
    table = text[text.index("| theorem | mutant | obligation broken | expected |") :].split("\n\n")[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    return [tuple(cell.strip() for cell in row) for row in rows]


def test_the_matrix_lists_every_theorem_mutant_and_failing_reading():
    """The README's table has a row for each proof, each mutant and each as-written refutation."""
    listed = {(t, m, o) for t, m, o, _ in matrix()}
    wanted = set()
    for name, t in UB.THEOREMS.items():
        wanted.add((name, "(none)", "—"))
        wanted |= {(name, mutant, obligation) for mutant, obligation in t.mutants.items()}
        if t.as_written:
            wanted.add((name, "as written", t.as_written))
        if t.on_digraphs:
            wanted.add((name, "on digraphs", t.on_digraphs))
    assert listed == wanted


@pytest.mark.parametrize("row", matrix(), ids=lambda row: f"{row[0]}-{row[1]}")
def test_every_cell_of_the_matrix(row):
    """Each cell's outcome is the expected one; a refutation replays on the spec, where the
    case meets the hypotheses, breaks the conclusion under the broken rules and keeps it
    under the spec's (as written and on digraphs, the spec's move is what breaks it)."""
    name, mutant, obligation, expected = row
    if mutant == "(none)":
        result = UB.prove(name)
        assert result.status == expected
        for part in result.parts:
            if part["part"] == "coq":
                assert part["axioms"] == "none"
            else:
                assert part["solvers"] == {"z3": "unsat", "cvc5": "unsat"}
                assert set(next(iter(part["witness"]["boards"].values()))) != {"."}
        assert "trusted" in result.scope
        return
    as_written, directed = mutant == "as written", mutant == "on digraphs"
    broken = None if as_written or directed else mutant
    result = UB.refute(name, broken, as_written=as_written, directed=directed)
    assert result.status == expected
    cx = result.counterexample
    assert cx["part"] == obligation
    case = case_of(obligation, cx)
    graph = case["graph"]
    variant = UR.rules_named(broken)
    assert O.hypotheses(obligation, graph, case)
    assert not O.conclusion(obligation, graph, case, variant)
    if broken:
        assert O.conclusion(obligation, graph, case, UR.SPEC)
    if directed:
        assert graph.directed


def case_of(obligation: str, cx: dict) -> dict:
    """The concrete case back from a counterexample record, as the replay reads it."""
    query = O.BUILDERS[obligation](UR.SPEC, O.MODEL)
    labels = list(query.boards)
    boards = {label: item["board"] for label, item in zip(labels, cx["boards"])}
    graph = graph_from_json(cx["graph"])
    return {"graph": graph, "boards": boards, "points": cx["points"], "player": cx["player"], "maps": cx["maps"]}


def compile_coq(text: str, folder: Path) -> subprocess.CompletedProcess:
    """coqc run on the text, in a folder of its own."""
    (folder / "Reaches.v").write_text(text)
    return subprocess.run(["coqc", "Reaches.v"], cwd=folder, capture_output=True, text=True, timeout=600)


def test_the_coq_file_compiles_with_no_axioms(tmp_path):
    """coqc accepts Reaches.v and every theorem it prints is closed under the global context."""
    run = compile_coq(UB.COQ_FILE.read_text(), tmp_path)
    assert run.returncode == 0, run.stderr
    printed = UB.COQ_FILE.read_text().count("Print Assumptions")
    assert printed >= 8
    assert run.stdout.count("Closed under the global context") == printed


def test_the_coq_check_can_fail(tmp_path):
    """With reaches as the source writes it (a step only to v's own colour), the emptying
    induction no longer goes through and coqc rejects the file."""
    text = UB.COQ_FILE.read_text()
    written = text.replace(
        "| reaches_step : forall v w, adj v w -> (b w = b v \\/ b w = c) -> reaches b c w -> reaches b c v.",
        "| reaches_step : forall v w, adj v w -> b w = b v -> reaches b c w -> reaches b c v.",
    )
    assert written != text
    assert compile_coq(written, tmp_path).returncode != 0


@pytest.mark.parametrize("name", ["step", "replay"])
def test_the_proofs_need_their_minimality_instances(name):
    """Without the emptying instances, closure alone does not give T1: Z3 no longer answers unsat."""
    query = O.BUILDERS[name](UR.SPEC, O.PROOF)
    kept = [f for f in query.facts if "kept" not in str(f)]
    assert len(kept) < len(query.facts)
    assert UB.z3_answer(O.Query(kept, query.goal), 20) != "unsat"


def test_each_obligation_alone_is_unsat_in_both_solvers():
    """The obligations the theorems list, asked of each solver directly."""
    for name in ("emptying", "step", "replay", "definedness", "characterization"):
        query = O.BUILDERS[name](UR.SPEC, O.PROOF)
        assert UB.z3_answer(query, 60) == "unsat"
        assert UB.cvc5_answer(query, 60) == "unsat"


def test_t3_as_written_is_satisfiable_for_the_solvers():
    """The as-written obligation is not provable: both solvers fail to refute its negation."""
    query = O.BUILDERS["characterization-as-written"](UR.SPEC, O.PROOF)
    assert UB.z3_answer(query, 20) != "unsat"
    assert UB.cvc5_answer(query, 20) != "unsat"


GRAPHS = ["grid:2x3", "cycle:5", "digraph:0>1,1>2,2>0,2>3", "path:4"]


@pytest.mark.parametrize("graph_name", GRAPHS)
@pytest.mark.parametrize("greatest", [False, True])
def test_the_exact_encoding_is_forced_to_the_spec(graph_name, greatest):
    """On concrete graphs and boards, the ranked (or dual-ranked) facts leave the solver one
    choice for reaches: the spec's least fixed point (or the greatest one)."""
    import random

    graph = parse_graph(graph_name)
    rng = random.Random(graph_name)
    points = [z3.Const(f"q{i}", U.Point) for i in graph.points]
    code = {".": U.EMPTY, "B": U.BLACK, "W": U.WHITE}
    for _ in range(4):
        board = tuple(rng.choice(".BW") for _ in graph.points)
        f = z3.Function(f"fixed_{''.join(board)}", U.Point, U.Colour)
        R = U.Reaching("R_fixed", lambda x, f=f: f(x), U.EMPTY, greatest=greatest)
        s = z3.Solver()
        s.add(z3.Distinct(points))
        s.add([f(points[v]) == code[board[v]] for v in graph.points])
        s.add([U.adj(points[v], points[w]) == (w in graph.neighbours[v]) for v in graph.points for w in graph.points])
        s.add([U.ground(fact, points) for fact in R.exact()])
        assert s.check() == z3.sat
        model = s.model()
        found = {v for v in graph.points if z3.is_true(model.eval(R(points[v]), model_completion=True))}
        want = UR.greatest_reaching(graph, board, tt.EMPTY) if greatest else tt.reaching(graph, board, tt.EMPTY)
        assert found == set(want)
        s.add(z3.Or([R(points[v]) != (v in want) for v in graph.points]))
        assert s.check() == z3.unsat


@pytest.mark.parametrize("name", ["move-definedness", "clear-characterization"])
def test_the_as_written_counterexample_agrees_with_the_errata(name):
    """The solver's counterexample to T2 or T3 as written breaks the errata's literal reading
    too, and the errata's smallest counterexample is as small."""
    from gorules.checks.unbounded_checks import errata_agrees

    result = UB.refute(name, as_written=True)
    assert result.refuted
    agrees, note = errata_agrees(result.counterexample)
    assert agrees, note


def test_the_well_formed_counterexample_board_occurs_in_a_game():
    """The board of T3's written counterexample is well-formed, so (T1) a game reaches it."""
    from gorules.proofs.well_formedness import game_through

    cx = UB.refute("clear-characterization", as_written=True).counterexample
    graph, board = graph_from_json(cx["graph"]), tuple(cx["boards"][0]["board"])
    states = tt.game(graph, game_through(graph, board))
    assert states is not None and any(s.board == board for s in states)


def run_cli(*arguments: str) -> subprocess.CompletedProcess:
    """gorules run as a user runs it."""
    gorules = ROOT / ".venv" / "bin" / "gorules"
    command = [str(gorules)] if gorules.exists() else ["gorules"]
    return subprocess.run(command + list(arguments), capture_output=True, text=True, timeout=600)


def test_the_cli_proves_for_every_graph():
    """``prove --unbounded`` prints the verdict and the trusted base, exit 0."""
    run = run_cli("prove", "clear-characterization", "--unbounded")
    assert run.returncode == 0, run.stderr
    assert "proved for every graph" in run.stdout
    assert "trusted: the unsat answers of Z3 and cvc5, Coq's kernel" in run.stdout


def test_the_cli_draws_a_mutants_counterexample(tmp_path):
    """Under a mutant the counterexample is printed and drawn; exit 1."""
    run = run_cli(
        "prove", "well-formedness", "--unbounded", "--mutant", "no-second-clear", "--pictures", str(tmp_path / "cx")
    )
    assert run.returncode == 1
    assert "refuted" in run.stdout and "counterexample graph" in run.stdout
    assert list((tmp_path / "cx").glob("*.svg"))


@pytest.mark.parametrize(
    "arguments",
    [
        ("prove", "--unbounded"),
        ("prove", "well-formedness-step-cnf", "--unbounded"),
        ("prove", "colour-symmetry", "--unbounded", "--directed"),
        ("prove", "well-formedness", "--unbounded", "--mutant", "own-first"),
        ("prove", "well-formedness", "--unbounded", "--as-written"),
        ("prove", "capture-exclusive", "--unbounded", "--directed", "--mutant", "simultaneous"),
    ],
)
def test_bad_unbounded_requests_are_one_line_and_exit_2(arguments):
    """Bad input: one line on stderr, exit 2, no traceback."""
    run = run_cli(*arguments)
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr


def test_verify_has_a_row_for_each_cell():
    """gorules verify lists one row per proof, per mutant and per failing as-written reading."""
    from gorules.verify import registered_checks

    names = {c.name for c in registered_checks() if "--unbounded" in c.name}
    assert len(names) == len(matrix())
    for theorem, mutant, _, _ in matrix():
        label = {"(none)": "", "as written": " (as written)", "on digraphs": " (on digraphs)"}.get(
            mutant, f" [mutant {mutant}]"
        )
        assert f"prove {theorem} --unbounded{label}" in names


def test_a_mutant_row_of_verify_passes_and_reports_the_graph():
    """One verify row run: passed, naming the counterexample's graph."""
    from gorules.checks.unbounded_checks import refuted_check

    outcome = refuted_check("well-formedness", "gfp-reaches").run()
    assert outcome.passed
    assert re.search(r"refuted on \S+", outcome.result)


EXAMPLE = ROOT / "docs" / "examples" / "clear_idempotent.py"


def test_a_theorem_file_is_proved_for_every_graph():
    """The example theorem of docs/examples is proved, with both solvers and Coq named."""
    run = run_cli("prove", "--theorem-file", str(EXAMPLE))
    assert run.returncode == 0, run.stderr
    assert "clear-idempotent (corrected): proved for every graph" in run.stdout
    assert "z3 unsat, cvc5 unsat" in run.stdout


def test_a_false_theorem_file_is_refuted_by_a_replayed_model(tmp_path):
    """The same file claiming clear(b, p) = b is refuted, with a board drawn."""
    text = EXAMPLE.read_text()
    claim = "return UR.concrete_clear(graph, once, p, UR.concrete_reaching(graph, once, rules)) == once"
    assert claim in text
    false = text.replace("twice(x) == once(x)", "once(x) == b(x)").replace(claim, "return once == b")
    (tmp_path / "false.py").write_text(false)
    run = run_cli("prove", "--theorem-file", str(tmp_path / "false.py"))
    assert run.returncode == 1
    assert "refuted" in run.stdout and "counterexample graph" in run.stdout


@pytest.mark.parametrize("text", [None, "x = 1\n", "raise RuntimeError('broken')\n"])
def test_bad_theorem_files_are_one_line_and_exit_2(tmp_path, text):
    """No such file, no THEOREM, a file that fails: one line, exit 2."""
    path = tmp_path / "theorem.py"
    if text is not None:
        path.write_text(text)
    run = run_cli("prove", "--theorem-file", str(path))
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr


@st.composite
def sparse_graphs(draw, max_order: int) -> Graph:
    """A graph or digraph on up to ``max_order`` points, each point given up to three arcs to
    points drawn at random (isolated points and several components included)."""
    n = draw(st.integers(1, max_order))
    directed = draw(st.booleans())
    chance = draw(st.randoms(use_true_random=False))
    arcs = {(v, chance.randrange(n)) for v in range(n) for _ in range(chance.randint(0, 3))}
    arcs = {(v, w) if directed else (min(v, w), max(v, w)) for v, w in arcs if v != w}
    return make_graph(n, sorted(arcs), f"sparse:{n}", directed=directed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_converse_construction_reaches_every_well_formed_board(data):
    """T1 (⇐) as a construction: on graphs and digraphs of up to 300 points, every
    well-formed board is a board of the game ``game_through`` builds, a game the spec
    accepts move by move (each stone legal, no board repeated, two passes at the end only)."""
    from gorules.proofs.well_formedness import game_through

    graph = data.draw(sparse_graphs(300))
    colours = data.draw(st.randoms(use_true_random=False))
    empty_share = data.draw(st.sampled_from((0.1, 0.3, 0.6)))
    drawn = tuple(tt.EMPTY if colours.random() < empty_share else colours.choice("BW") for _ in graph.points)
    board = tt.clear(graph, tt.clear(graph, drawn, tt.BLACK), tt.WHITE)
    assert tt.reaching(graph, board, tt.EMPTY) == frozenset(graph.points)
    moves = game_through(graph, board)
    states = tt.game(graph, moves)
    assert states is not None and states[-1].passes == 2
    assert states[-1].board == board
