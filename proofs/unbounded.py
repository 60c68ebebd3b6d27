"""The source's theorems for every graph: verification conditions over an uninterpreted sort
of points, discharged by Z3 and cvc5, strung together by lemmas checked by Coq.

A theorem here is a list of obligations (``proofs/unbounded_obligations.py``) and the Coq
lemmas (``proofs/coq/Reaches.v``) that turn them into the statement:

- each obligation is proved when Z3 answers unsat for facts ∧ ¬goal, and cvc5 answers
  unsat for the same formula, read from the SMT-LIB text Z3 writes;
- Coq checks, with ``reaches`` an inductive predicate, that the facts asserted about each
  ``reaches`` symbol hold of the least fixed point (closure, minimality for a closed set,
  ranks), and the inductions that carry a one-move obligation to every game;
- a non-vacuity witness: the obligation's hypotheses met by a non-empty board of a
  concrete graph, found as a finite model and replayed on the spec.

Under a mutant, or as written, the same builder is asked for a finite model (quantifiers
expanded over k points, k = 1, 2, …), which is read back as a graph and a board and
replayed on the spec: a refutation is reported only when the replay confirms it.

What is trusted, and said in every result's ``scope``: the solvers' unsat answers, Coq's
kernel, and the correspondence between the Python-built formulas and the spec's
definitions (which the replays test on every model, but do not prove).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import z3

from gorules.proofs import unbounded_logic as U
from gorules.proofs import unbounded_obligations as O
from gorules.proofs import unbounded_rules as UR
from gorules.proofs.result import ProofResult, Status
from gorules.spec.graph import graph_to_json, make_graph

COQ_FILE = Path(__file__).parent / "coq" / "Reaches.v"
MAX_MODEL_POINTS = 6
SOLVER_SECONDS = 60.0


def trusted(coq: bool) -> str:
    """What a proof for every graph rests on besides what was checked."""
    kernel = " Coq's kernel," if coq else ""
    return (
        f"trusted: the unsat answers of Z3 and cvc5,{kernel} and the correspondence of the formulas of "
        "proofs/unbounded_obligations.py with spec/tromp_taylor.py"
    )


@dataclass(frozen=True)
class UnboundedTheorem:
    """A theorem for every graph: its obligations, the Coq lemmas that assemble them, the
    mutants it must refute (each with the obligation it breaks), what it covers, and the
    as-written obligation that fails (if any)."""

    name: str
    obligations: tuple[str, ...]
    coq: tuple[str, ...]
    mutants: dict[str, str]
    covers: str
    as_written: str | None = None
    on_digraphs: str | None = None
    builders: Mapping[str, Callable] = field(default_factory=dict)
    hypotheses: Callable = O.hypotheses
    conclusion: Callable = O.conclusion

    def build(self, obligation: str, rules: UR.Rules, mode: str) -> O.Query:
        """The obligation's query: the theorem's own builder, or the one of
        ``proofs/unbounded_obligations.py`` of that name."""
        return (self.builders.get(obligation) or O.BUILDERS[obligation])(rules, mode)

    def replays(self, obligation: str, graph, case: dict, rules: UR.Rules) -> bool:
        """Whether the statement holds on the concrete case: hypotheses fail, or conclusion holds."""
        return not self.hypotheses(obligation, graph, case) or self.conclusion(obligation, graph, case, rules)


THEOREMS: dict[str, UnboundedTheorem] = {
    t.name: t
    for t in (
        UnboundedTheorem(
            "well-formedness",
            ("emptying", "step", "replay"),
            (
                "reaches_closed",
                "reaches_least",
                "supported_reaches",
                "emptying_preserves",
                "move_well_formed",
                "games_well_formed",
                "replay",
                "well_formed_reachable",
            ),
            {"reaches-as-written": "replay", "no-second-clear": "step", "gfp-reaches": "step"},
            "every graph and digraph, every well-formed board: (⇒) every board reachable by moves from the "
            "empty board is well-formed; (⇐) every well-formed board of a finite graph is reached from the "
            "empty board by stone moves, one stone at a time, each adding a stone (the passes and the count of "
            "stones that make these moves a game of the source are argued, not checked)",
        ),
        UnboundedTheorem(
            "move-definedness",
            ("definedness",),
            (),
            {"occupied-overwrite": "definedness"},
            "every graph and digraph, every non-final state, every set of earlier boards containing the current one "
            "(that a game prefix gives such a state and set is argued, not checked)",
            as_written="definedness-as-written",
        ),
        UnboundedTheorem(
            "clear-characterization",
            ("characterization",),
            ("reaches_closed", "reaches_least", "supported_reaches"),
            {
                "own-first": "characterization",
                "reaches-as-written": "characterization",
                "no-second-clear": "characterization",
                "gfp-reaches": "characterization",
            },
            "every graph and digraph, every board, player and empty point",
            as_written="characterization-as-written",
        ),
        UnboundedTheorem(
            "capture-locality",
            ("locality",),
            ("reaches_closed", "reaches_least", "supported_reaches"),
            {"own-first": "locality"},
            "every graph and digraph, every well-formed board, player and empty point: a stone the second "
            "clearing removes has a path to the played point through the mover's stones",
        ),
        UnboundedTheorem(
            "capture-exclusive",
            ("exclusive",),
            ("reaches_closed", "reaches_least", "supported_reaches"),
            {"simultaneous": "exclusive"},
            "every undirected graph, every well-formed board, player and empty point",
            on_digraphs="exclusive-on-digraphs",
        ),
        UnboundedTheorem(
            "colour-symmetry",
            ("colour-symmetry",),
            ("reaches_closed", "reaches_least", "supported_reaches"),
            {"colour-biased": "colour-symmetry"},
            "every graph and digraph, every board, player and empty point",
        ),
        UnboundedTheorem(
            "automorphism",
            ("automorphism",),
            ("reaches_closed", "reaches_least", "supported_reaches"),
            {"spare-point-0": "automorphism"},
            "every graph and digraph, every bijection of its points that preserves ↔, every board, player "
            "and empty point: move(σb, σm) = σ move(b, m)",
        ),
        UnboundedTheorem(
            "score-bound",
            ("score",),
            ("reaches_closed", "supported_reaches", "disjoint_count"),
            {"dame-counted": "score"},
            "every finite graph and digraph, every board: no point counts for both players, so "
            "score(b, Black) + score(b, White) ≤ |Point|",
        ),
    )
}


def theorem(name: str) -> UnboundedTheorem:
    """The unbounded theorem of that name (a KeyError naming the known ones)."""
    if name not in THEOREMS:
        raise KeyError(f"no unbounded proof of {name!r}; known: {', '.join(THEOREMS)}")
    return THEOREMS[name]


# --- the solvers ----------------------------------------------------------------------------


def z3_answer(query: O.Query, seconds: float) -> str:
    """Z3's answer for facts ∧ ¬goal: unsat, sat or unknown."""
    s = z3.Solver()
    s.set("timeout", int(seconds * 1000))
    s.add(query.facts)
    s.add(z3.Not(query.goal))
    return str(s.check())


def smt2(query: O.Query) -> str:
    """facts ∧ ¬goal as an SMT-LIB script (what cvc5 reads)."""
    s = z3.Solver()
    s.add(query.facts)
    s.add(z3.Not(query.goal))
    return "(set-logic ALL)\n" + s.to_smt2()


def cvc5_answer(query: O.Query, seconds: float) -> str:
    """cvc5's answer for the same formula, parsed from its SMT-LIB text."""
    import cvc5

    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    solver.setOption("tlimit-per", str(int(seconds * 1000)))
    symbols = cvc5.SymbolManager(terms)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, smt2(query), "obligation")
    answers = []
    while not (command := parser.nextCommand()).isNull():
        out = command.invoke(solver, symbols).strip()
        if out:
            answers.append(out)
    return answers[-1].split()[0] if answers else "unknown"


# --- finite models --------------------------------------------------------------------------


def finite_model(query: O.Query, max_points: int = MAX_MODEL_POINTS, seconds: float = SOLVER_SECONDS):
    """The smallest model of facts ∧ ¬goal on a universe of k ≤ max_points points, with the
    elements; (None, []) if there is none that small."""
    for k in range(1, max_points + 1):
        elements = [z3.Const(f"point_{i}", U.Point) for i in range(k)]
        s = z3.Solver()
        s.set("timeout", int(seconds * 1000))
        if k > 1:
            s.add(z3.Distinct(elements))
        named = list(query.points.values()) + [f(e) for f in query.maps.values() for e in elements]
        s.add([z3.Or([x == e for e in elements]) for x in named])
        s.add([U.ground(f, elements) for f in query.facts])
        s.add(U.ground(z3.Not(query.goal), elements))
        if s.check() == z3.sat:
            return s.model(), elements
    return None, []


def read_case(model, elements, query: O.Query) -> dict:
    """The concrete graph, boards, points and player a finite model gives."""
    index = {str(model.eval(e)): i for i, e in enumerate(elements)}

    def point(x):
        return index[str(model.eval(x, model_completion=True))]

    order = len(elements)
    arcs = [
        (i, j)
        for i in range(order)
        for j in range(order)
        if i != j and z3.is_true(model.eval(U.adj(elements[i], elements[j]), model_completion=True))
    ]
    directed = any((j, i) not in arcs for i, j in arcs)
    kept = arcs if directed else [(i, j) for i, j in arcs if i < j]
    text = ",".join(f"{i}{'>' if directed else '-'}{j}" for i, j in kept)
    name = f"{'digraph' if directed else 'edges'}:{text}" if kept else f"empty:{order}"
    graph = make_graph(order, kept, name, directed=directed)
    boards = {
        label: "".join(U.NAME[str(model.eval(b(e), model_completion=True))] for e in elements)
        for label, b in query.boards.items()
    }
    player = U.NAME[str(model.eval(query.player, model_completion=True))] if query.player is not None else None
    return {
        "graph": graph,
        "boards": boards,
        "points": {name: point(x) for name, x in query.points.items()},
        "player": player,
        "maps": {name: [point(f(e)) for e in elements] for name, f in query.maps.items()},
    }


def counterexample_record(obligation: str, case: dict) -> dict:
    """A case as a result's counterexample (the format of ``proofs/result.py``)."""
    marks = list(case["points"].values())
    played = f"after {case['player']} plays {marks[0]}" if marks and case["player"] else "after the move"
    return {
        "part": obligation,
        "graph": graph_to_json(case["graph"]),
        "boards": [
            {"label": played if label.startswith("after") else label, "board": board, "marks": marks}
            for label, board in case["boards"].items()
        ],
        "player": case["player"],
        "points": case["points"],
        "maps": case["maps"],
        "point": marks[0] if marks else None,
        "moves": marks[:1],
    }


# --- proving, refuting ------------------------------------------------------------------------


def prove_obligation(t: UnboundedTheorem, name: str, seconds: float = SOLVER_SECONDS) -> dict:
    """One obligation under the spec's rules: both solvers' answers and a non-vacuity witness."""
    query = t.build(name, UR.SPEC, O.PROOF)
    start = time.perf_counter()
    answers = {"z3": z3_answer(query, seconds), "cvc5": cvc5_answer(query, seconds)}
    witness = non_vacuity(t, name, seconds)
    status = "proved" if set(answers.values()) == {"unsat"} and witness else "unknown"
    return {
        "part": name,
        "status": status,
        "seconds": round(time.perf_counter() - start, 3),
        "solvers": answers,
        "witness": witness,
    }


def non_vacuity(t: UnboundedTheorem, name: str, seconds: float) -> dict | None:
    """A finite model of the obligation's facts with a stone on the board, replayed on the
    spec: the hypotheses are met by a real, non-empty board."""
    query = t.build(name, UR.SPEC, O.MODEL)
    first = next(iter(query.boards.values()))
    x = z3.Const("stone_x", U.Point)
    satisfiable = O.Query(
        query.facts, z3.Not(z3.Exists([x], first(x) != U.EMPTY)), query.boards, query.points, query.player, query.maps
    )
    model, elements = finite_model(satisfiable, 3, seconds)
    if model is None:
        return None
    case = read_case(model, elements, query)
    graph = case["graph"]
    holds = t.hypotheses(name, graph, case) and t.conclusion(name, graph, case, UR.SPEC)
    if not holds or set(next(iter(case["boards"].values()))) == {"."}:
        return None
    return {"graph": case["graph"].name, "boards": case["boards"], "points": case["points"]}


def refute_obligation(
    t: UnboundedTheorem, name: str, rules: UR.Rules, seconds: float = SOLVER_SECONDS
) -> tuple[Status, dict | None]:
    """Look for a finite model of the obligation's negation under the rules; ("refuted",
    counterexample) only when the replay on the spec confirms it."""
    query = t.build(name, rules, O.MODEL)
    model, elements = finite_model(query, MAX_MODEL_POINTS, seconds)
    if model is None:
        return "unknown", None
    case = read_case(model, elements, query)
    if t.replays(name, case["graph"], case, rules):
        return "unknown", {"part": name, "note": "the model did not replay as a counterexample"}
    return "refuted", counterexample_record(name, case)


@functools.lru_cache(maxsize=1)
def coq_check() -> dict:
    """Compile ``proofs/coq/Reaches.v`` with coqc; its lemmas and the axioms they rest on."""
    coqc = shutil.which("coqc")
    if coqc is None:
        return {"status": "unknown", "note": "coqc is not installed"}
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / COQ_FILE.name
        source.write_text(COQ_FILE.read_text())
        run = subprocess.run([coqc, source.name], cwd=folder, capture_output=True, text=True, timeout=600)
    printed = COQ_FILE.read_text().count("Print Assumptions")
    closed = run.returncode == 0 and run.stdout.count("Closed under the global context") == printed
    status = "proved" if closed else "unknown"
    return {
        "status": status,
        "coqc": run.returncode,
        "axioms": "none" if closed else run.stdout[-400:] + run.stderr[-400:],
    }


def prove(name: str | UnboundedTheorem, seconds: float = SOLVER_SECONDS) -> ProofResult:
    """The theorem for every graph: each obligation by Z3 and cvc5 with its witness, and the
    Coq lemmas that assemble them."""
    t = name if isinstance(name, UnboundedTheorem) else theorem(name)
    start = time.perf_counter()
    parts = [prove_obligation(t, o, seconds) for o in t.obligations]
    if t.coq:
        coq = coq_check()
        missing = [
            lemma for lemma in t.coq if not re.search(rf"(Lemma|Theorem) {re.escape(lemma)}\b", COQ_FILE.read_text())
        ]
        coq_status = coq["status"] if not missing else "unknown"
        axioms = coq.get("axioms") if not missing else f"no such lemma in {COQ_FILE.name}: {', '.join(missing)}"
        parts.append({"part": "coq", "status": coq_status, "lemmas": list(t.coq), "axioms": axioms})
    status: Status = "proved" if all(p["status"] == "proved" for p in parts) else "unknown"
    failed = [p["part"] for p in parts if p.get("solvers") and "unsat" not in p["solvers"].values()]
    if failed:
        return refuted_by_spec(t, failed[0], parts, start, seconds)
    checked = ", ".join(t.obligations)
    coq_text = f"; assembled in Coq ({', '.join(t.coq)}; no axioms)" if t.coq else ""
    scope = f"{t.covers}. Obligations {checked} unsat in Z3 and in cvc5{coq_text}. {trusted(bool(t.coq))}"
    return ProofResult(
        t.name, "every graph", status, time.perf_counter() - start, scope=scope, parts=parts, encoding="unbounded"
    )


def refuted_by_spec(t: UnboundedTheorem, obligation: str, parts: list, start: float, seconds: float) -> ProofResult:
    """An obligation neither solver proves, under the spec's rules: refuted when a finite
    model of its negation replays as a counterexample on the spec, unknown otherwise."""
    status, counterexample = refute_obligation(t, obligation, UR.SPEC, seconds)
    scope = (
        f"a finite model of the unbounded encoding of {obligation} (at most {MAX_MODEL_POINTS} points), "
        "replayed on the spec (spec/tromp_taylor.py)"
        if status == "refuted"
        else f"{obligation} is not proved by either solver, and no finite model replays as a counterexample"
    )
    return ProofResult(
        t.name,
        "every graph",
        status,
        time.perf_counter() - start,
        counterexample if status == "refuted" else None,
        encoding="unbounded",
        scope=scope,
        parts=parts,
    )


def refuted_obligation(t: UnboundedTheorem, mutant: str | None, as_written: bool, directed: bool = False) -> str:
    """The obligation a mutant breaks, the as-written one, or the one that fails on digraphs
    (a ValueError if there is none)."""
    if directed:
        if t.on_digraphs is None or mutant is not None or as_written:
            raise ValueError(f"{t.name} as corrected holds on digraphs too (or is proved for them): drop --directed")
        return t.on_digraphs
    if as_written:
        if t.as_written is None:
            raise ValueError(f"{t.name} has no as-written statement that fails for every graph")
        return t.as_written
    if mutant not in t.mutants:
        known = f"known: {', '.join(t.mutants)}" if t.mutants else "it lists none"
        raise ValueError(f"unknown mutant {mutant!r} for {t.name}; {known}")
    return t.mutants[mutant]


def refute(
    name: str | UnboundedTheorem,
    mutant: str | None = None,
    as_written: bool = False,
    seconds: float = SOLVER_SECONDS,
    directed: bool = False,
) -> ProofResult:
    """The theorem under a mutant's rules, as written, or (``directed``) without the symmetry
    of ↔: refuted when a finite model of the obligation broken replays as a counterexample
    on the spec."""
    t = name if isinstance(name, UnboundedTheorem) else theorem(name)
    variant = UR.rules_named(mutant)
    obligation = refuted_obligation(t, mutant, as_written, directed)
    start = time.perf_counter()
    status, counterexample = refute_obligation(t, obligation, variant, seconds)
    parts = [{"part": obligation, "status": status}]
    scope = (
        f"a finite model of the unbounded encoding of {obligation} (at most {MAX_MODEL_POINTS} points), "
        "read back as a graph and a board and replayed on the spec (spec/tromp_taylor.py)"
    )
    return ProofResult(
        t.name,
        "every digraph" if directed else "every graph",
        status,
        time.perf_counter() - start,
        counterexample if status == "refuted" else None,
        encoding="unbounded",
        as_written=as_written,
        mutant=mutant,
        scope=scope,
        parts=parts,
    )
