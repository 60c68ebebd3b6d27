"""Checks of the rulesets beyond Tromp–Taylor: topological Go on graphs is Tromp–Taylor,
the propositions of source 001 on every small go-space, and the claims of source 003 on
small boards (each a few seconds at most)."""

from __future__ import annotations

import functools
import itertools

from gorules.impl import ultimate_claims
from gorules.spec import topological, ultimate
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph
from gorules.verify import Check, Outcome


def small_topologies(n: int):
    """Every topology on {0..n-1}."""
    X = frozenset(range(n))
    middle = [frozenset(c) for k in range(1, n) for c in itertools.combinations(range(n), k)]
    for k in range(len(middle) + 1):
        for family in itertools.combinations(middle, k):
            T = frozenset(family) | {frozenset(), X}
            if topological.is_topology(n, T):
                yield T


def small_go_spaces(max_size: int):
    """Every go-space (X, T, S) with |X| <= max_size: every topology, every non-empty S."""
    for n in range(1, max_size + 1):
        for T in small_topologies(n):
            nonempty = sorted((U for U in T if U), key=sorted)
            for k in range(1, len(nonempty) + 1):
                for S in itertools.combinations(nonempty, k):
                    yield topological.go_space(n, T, S)


def propositions_counterexample(max_size: int):
    """The first (proposition, space, colouring) where Proposition 2's inductive step or
    Proposition 3 fails on a go-space with |X| <= max_size, with the numbers checked."""
    counts = {"spaces": 0, "steps": 0, "strings": 0}
    for space in small_go_spaces(max_size):
        counts["spaces"] += 1
        for colouring in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=space.size):
            for c in (tt.BLACK, tt.WHITE):
                for s in topological.stones(space, colouring, c):
                    counts["strings"] += 1
                    if not topological.proposition_3(space, colouring, s):
                        return ("proposition 3", space, colouring), counts
            if not topological.proposition_2(space, colouring):
                continue
            for e in topological.legal_placements(space, colouring):
                for p in (tt.BLACK, tt.WHITE):
                    counts["steps"] += 1
                    if not topological.proposition_2(space, topological.board_play(space, colouring, e, p)):
                        return ("proposition 2", space, colouring), counts
    return None, counts


def board_play_disagreements(graph) -> tuple[int, int]:
    """(disagreements, cases): board plays on the graph's go-space against the Tromp–Taylor
    move, over every board, empty point and player."""
    space = topological.graph_go_space(graph)
    edge_points = (tt.EMPTY,) * (space.size - graph.order)
    bad = cases = 0
    for b in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=graph.order):
        for v in graph.points:
            if b[v] != tt.EMPTY:
                continue
            for p in (tt.BLACK, tt.WHITE):
                cases += 1
                expected = tt.move(graph, tt.State(b, p, 0), v).board + edge_points
                bad += topological.board_play(space, b + edge_points, frozenset({v}), p) != expected
    return bad, cases


def reachable_situations(graph, start, depth=None) -> set:
    """Every Ultimate/Fundamental Go situation reachable from `start` by moves (by at most
    `depth` moves, if given)."""
    seen, layer = {start}, [start]
    while layer and (depth is None or depth > 0):
        depth = None if depth is None else depth - 1
        following = []
        for s in layer:
            for after in ultimate.moves(graph, s).values():
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        layer = following
    return seen


def topological_check(name: str) -> Check:
    """On every board of the graph, topological board play is the Tromp–Taylor move."""

    def run() -> Outcome:
        """Do the check."""
        bad, cases = board_play_disagreements(parse_graph(name))
        return Outcome(bad == 0, f"{cases - bad}/{cases} board plays agree", {"cases": cases, "disagreements": bad})

    return Check("topological board play = Tromp–Taylor move", name, run, "rulesets")


def propositions_check() -> Check:
    """Propositions 2 (inductive step) and 3 of source 001 on every go-space with |X| <= 3."""

    def run() -> Outcome:
        """Do the check."""
        failure, counts = propositions_counterexample(3)
        if failure is not None:
            return Outcome(False, f"{failure[0]} fails", {"colouring": failure[2], **counts})
        return Outcome(
            True, f"hold on {counts['spaces']} go-spaces ({counts['steps']} steps, {counts['strings']} strings)", counts
        )

    return Check("topological Propositions 2 and 3", "|X| <= 3", run, "rulesets")


def fundamental_check(name: str, depth=None) -> Check:
    """Section IV of source 003 on every situation of Fundamental Go reachable (within
    `depth` moves, if given): no Black move raises the score, no White move lowers it, one
    more prisoner each changes nothing."""

    def run() -> Outcome:
        """Do the check."""
        graph = parse_graph(name)
        situations = reachable_situations(graph, ultimate.initial_situation(graph, fundamental=True), depth)
        improving = [s for s in situations if not ultimate.no_move_improves(graph, s)]
        shifted = [
            s
            for s in situations
            if ultimate.score(graph, ultimate.add_prisoners(ultimate.add_prisoners(s, tt.BLACK, 1), tt.WHITE, 1))
            != ultimate.score(graph, s)
        ]
        ok = not improving and not shifted
        score = ultimate.score(graph, ultimate.initial_situation(graph, fundamental=True))
        return Outcome(
            ok,
            f"score {score:+}; claims hold at {len(situations) - len(improving) - len(shifted)}/{len(situations)} situations",
            {"situations": len(situations), "improving": len(improving), "shifted": len(shifted)},
        )

    where = "" if depth is None else f" (within {depth} moves)"
    return Check(f"fundamental score: no move improves it{where}", name, run, "rulesets")


@functools.lru_cache(maxsize=None)
def claims_report(name: str, mutant: str | None = None) -> ultimate_claims.Report:
    """Sections IV–VI's claims on every situation of Ultimate Go reachable on the graph
    (under a mutant of the game or score, if named)."""
    graph = parse_graph(name)
    engine = ultimate_claims.MUTANTS[mutant](graph) if mutant else ultimate_claims.Engine(graph)
    return ultimate_claims.check_claims(engine, engine.from_situation(ultimate.Ultimate().start(graph)))


def ultimate_claim_check(name: str, claim: str) -> Check:
    """One claim of source 003 (sections IV–VI) on every reachable situation of the graph,
    with the mutant it must refute."""

    def run() -> Outcome:
        """Do the check: the claim's status, and the mutant's."""
        found = next(c for c in claims_report(name).claims if c.claim == claim)
        mutant = ultimate_claims.REFUTING[claim]
        caught = next(c for c in claims_report("path:2", mutant).claims if c.claim == claim)
        refuted = caught.status == "fails"
        detail = {"situations": claims_report(name).situations, "asked": found.asked, "status": found.status}
        detail["mutant"] = f"{mutant}: {'refuted' if refuted else 'NOT refuted'} on path:2"
        if found.status == "fails":
            board = ultimate.situation_text(parse_graph(name), found.situation)
            return Outcome(False, f"fails: {found.detail}", {**detail, "counterexample": board})
        return Outcome(refuted, f"{found.status} at {found.asked} situations; mutant '{mutant}' refuted", detail)

    return Check(f"source 003: {claim}", name, run, "rulesets")


def checks() -> list[Check]:
    """The checks of the rulesets beyond Tromp–Taylor."""
    return [
        topological_check("grid:2x2"),
        topological_check("path:5"),
        propositions_check(),
        fundamental_check("path:2"),
        fundamental_check("path:3"),
        *(ultimate_claim_check("path:3", claim) for claim in ultimate_claims.CLAIMS),
    ]
