"""Checks of the rulesets beyond Tromp–Taylor: topological Go on graphs is Tromp–Taylor,
the propositions of source 001 on every small go-space, and the claims of source 003 on
small boards (each a few seconds at most)."""

from __future__ import annotations

import functools
import itertools

from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate import examples as ux
from gorules.proofs.extras import board_after
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


def propositions_counterexample(max_size: int, readings: topological.Readings):
    """The first (proposition, space, colouring) where Proposition 2's inductive step or
    Proposition 3 fails on a go-space with |X| <= max_size under the given readings, with
    the numbers checked."""
    counts = {"spaces": 0, "steps": 0, "strings": 0}
    for space in small_go_spaces(max_size):
        counts["spaces"] += 1
        for colouring in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=space.size):
            for c in (tt.BLACK, tt.WHITE):
                for s in topological.stones(space, colouring, c):
                    counts["strings"] += 1
                    if not topological.proposition_3(space, colouring, s, readings):
                        return ("proposition 3", space, colouring), counts
            if not topological.proposition_2(space, colouring):
                continue
            for p in (tt.BLACK, tt.WHITE):
                for e in topological.legal_placements(space, colouring, p, readings):
                    counts["steps"] += 1
                    after = topological.board_play(space, colouring, e, p, readings)
                    if after is None or not topological.proposition_2(space, after):
                        return ("proposition 2", space, colouring), counts
    return None, counts


def proposition_2_step_failure(max_size: int, readings: topological.Readings):
    """The first (space, colouring, placement, player) on a go-space with |X| <= max_size
    where a board play under the readings breaks Proposition 2's invariant though the
    colouring kept it (None if none), and the number of steps checked."""
    steps = 0
    for space in small_go_spaces(max_size):
        for colouring in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=space.size):
            if not topological.proposition_2(space, colouring):
                continue
            for p in (tt.BLACK, tt.WHITE):
                for e in topological.legal_placements(space, colouring, p, readings):
                    steps += 1
                    after = topological.board_play(space, colouring, e, p, readings)
                    if after is None or not topological.proposition_2(space, after):
                        return (space, colouring, e, p), steps
    return None, steps


def proposition_verdicts(max_size: int, readings: topological.Readings) -> dict:
    """Proposition 3's verdict for every stone of every colouring of every go-space with
    |X| <= max_size under the readings (how many hold, hold vacuously, fail), and whether
    each failure is a stone that the literal Defn 7 gives the empty string."""
    literal = readings._replace(string="literal")
    tally = {"holds": 0, "vacuous": 0, "fails": 0, "fails_where_literal_string_is_empty": 0}
    for space in small_go_spaces(max_size):
        for colouring in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=space.size):
            for c in (tt.BLACK, tt.WHITE):
                for s in topological.stones(space, colouring, c):
                    verdict = topological.proposition_3_verdict(space, colouring, s, readings)
                    tally[verdict] += 1
                    if verdict == "fails" and not topological.string(space, colouring, s, literal):
                        tally["fails_where_literal_string_is_empty"] += 1
    return tally


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
                expected = board_after(graph, b, p, v) + edge_points
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


def propositions_check(string_reading: str) -> Check:
    """Propositions 2 (inductive step) and 3 of source 001 on every go-space with |X| <= 3,
    under one reading of Defn 7: Proposition 2's step always holds; Proposition 3 holds
    (literal: vacuously for the stones whose string is empty) or fails (intended) exactly
    for the stones whose literal string is empty."""

    def run() -> Outcome:
        """Do the check."""
        readings = topological.Readings(string=string_reading)
        failure, steps = proposition_2_step_failure(3, readings)
        tally = {**proposition_verdicts(3, readings), "steps": steps}
        step_holds = failure is None
        if string_reading == "literal":
            good = step_holds and tally["fails"] == 0
            summary = f"Prop 3 holds on {tally['holds']} strings, vacuously (string = ∅) on {tally['vacuous']}"
        else:
            good = (
                step_holds and tally["fails"] == tally["fails_where_literal_string_is_empty"] and tally["vacuous"] == 0
            )
            summary = (
                f"Prop 3 holds on {tally['holds']} strings and fails on {tally['fails']}, "
                "exactly the stones whose literal string is empty"
            )
        return Outcome(good, ("Prop 2 step holds; " if step_holds else "Prop 2 step FAILS; ") + summary, tally)

    return Check(f"topological Propositions 2 and 3 (string={string_reading})", "|X| <= 3", run, "rulesets")


def twin_check() -> Check:
    """The bitset twin of Topological Go makes the spec's board play on every colouring,
    placement and player of every go-space with |X| <= 3 (up to isomorphism), under the
    default readings, the literal Defn 7 and the unrestricted Defn 8."""

    def run() -> Outcome:
        """Do the check."""
        from gorules.impl.rulesets import topological as engine

        cases = bad = 0
        others = (topological.Readings(string="literal"), topological.Readings(clearing="unrestricted"))
        for readings in (topological.INTENDED, *others):
            for n in (1, 2, 3):
                for neighbourhoods in engine.go_space_classes(n):
                    literal = topological.go_space(n, neighbourhoods.minimal, neighbourhoods.placements)
                    fast = engine.space_from(neighbourhoods)
                    for board in itertools.product((tt.BLACK, tt.WHITE, tt.EMPTY), repeat=n):
                        colouring = engine.colouring_of(board)
                        for i, e in enumerate(fast.sets):
                            for p in (tt.BLACK, tt.WHITE):
                                cases += 1
                                got = engine.board_play(fast, colouring, i, p, readings)
                                got_board = None if got is None else engine.board_of_colouring(fast, got)
                                bad += got_board != topological.board_play(literal, board, e, p, readings)
        return Outcome(bad == 0, f"{cases - bad}/{cases} board plays agree", {"cases": cases, "disagreements": bad})

    return Check("topological bitset twin = spec board play", "|X| <= 3", run, "rulesets")


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


POLITICAL_DIFFER_BY_TWO = ("dead", "previous_turn", "territory", "friendship", "enemy")
"""The readings of Political Go that change play or scores on a settled board of at most two
vertices (three players): ``credit`` needs three vertices, ``overlap`` a fourth player."""


def political_paradox_check(max_points: int = 3) -> Check:
    """The author's paradox on every settled board of at most `max_points` vertices (three
    players, every alliance structure): it must occur under credit=adjacent, as written,
    and never under credit=survivors."""

    def run() -> Outcome:
        """Do the check."""
        from gorules import readings_political as R

        found: dict = {}
        allied: dict = {}
        starts = 0
        for n in range(1, max_points + 1):
            for index, graph in enumerate(R.connected_graphs(n)):
                for order, s in enumerate(R.start_situations(graph)):
                    starts += 1
                    R.look_for_paradox(graph, s, (index, order), allied if s.alliances else found)
        written = found.get((R.PARADOX, ("adjacent", "survivors")), R.Found())
        by_alliances = allied.get((R.PARADOX, ("adjacent", "survivors")), R.Found())
        survivors = found.get((R.PARADOX, ("survivors", "adjacent")), R.Found())
        survivors_allied = allied.get((R.PARADOX, ("survivors", "adjacent")), R.Found())
        ok = written.count > 0 and survivors.count == survivors_allied.count == 0
        smallest = f"{written.best['start'].board} then {' '.join(written.best['line'])}" if written.count else "none"
        return Outcome(
            ok,
            f"as written: {written.count} plays without alliances (smallest: {smallest}), "
            f"{by_alliances.count} with; credit=survivors: {survivors.count + survivors_allied.count} plays",
            {
                "starts": starts,
                "as_written": written.count,
                "as_written_with_alliances": by_alliances.count,
                "survivors": survivors.count + survivors_allied.count,
            },
        )

    return Check(
        "political: a dragon both captured and capturing", f"settled boards <= {max_points} points", run, "rulesets"
    )


def political_readings_check(max_points: int = 2) -> Check:
    """`gorules readings 004` up to `max_points` vertices finds a disagreement for each
    reading of POLITICAL_DIFFER_BY_TWO."""

    def run() -> Outcome:
        """Do the check."""
        from gorules import readings_political as R

        done = R.search(max_points, None, False)
        smallest: dict = {}
        for d in done.disagreements:
            option = d.clause.split(":")[0]
            smallest[option] = min(smallest.get(option, d.points), d.points)
        missing = [r for r in POLITICAL_DIFFER_BY_TWO if r not in smallest]
        sizes = ", ".join(f"{option} at {n}" for option, n in sorted(smallest.items()))
        return Outcome(not missing, f"smallest disagreements: {sizes}" + (f"; none for {missing}" if missing else ""))

    return Check("political: readings disagree", f"settled boards <= {max_points} points", run, "rulesets")


def plain_max_n(ruleset, graph, state, depth: int, allowed) -> dict:
    """Max-n by plain recursion (no table): the scores of the line on which each player in
    turn takes the first move best for emself, `depth` moves ahead."""
    moves = [m for m in ruleset.moves(graph, state) if allowed(m)]
    if ruleset.is_over(graph, state) or depth == 0 or not moves:
        return ruleset.value(graph, state)
    mover = ruleset.player(state)
    outcomes = [plain_max_n(ruleset, graph, ruleset.apply(graph, state, m), depth - 1, allowed) for m in moves]
    return max(outcomes, key=lambda scores: scores[mover])


def political_best_play_check(name: str = "path:4", horizon: int = 3) -> Check:
    """Max-n best play for three players (placements and passes) found by the search of
    `gorules best-play` equals a plain recursion written apart."""

    def run() -> Outcome:
        """Do the check."""
        from gorules import rulesets
        from gorules.impl.rulesets.political.best_play import best_play
        from gorules.impl.solving.budget import Budget

        graph = parse_graph(name)
        ruleset = rulesets.make("political")
        start = ruleset.initial(graph)

        def allowed(move) -> bool:
            """Placements and passes."""
            return move.kind in ("place", "pass")

        found = best_play(start, "max-n", horizon, Budget(seconds=30), allowed=allowed)[0][-1]
        plain = plain_max_n(ruleset, graph, start.state, horizon, allowed)
        scores = ", ".join(f"{p} {v}" for p, v in found.scores.items())
        return Outcome(found.scores == plain, f"max-n to {horizon} moves: {scores} (plain recursion: {plain})")

    return Check("political best play = plain recursion", name, run, "rulesets")


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
            board = "" if found.situation is None else ultimate.situation_text(parse_graph(name), found.situation)
            return Outcome(False, f"fails: {found.detail}", {**detail, "counterexample": board})
        return Outcome(refuted, f"{found.status} at {found.asked} situations; mutant '{mutant}' refuted", detail)

    return Check(f"source 003: {claim}", name, run, "rulesets")


def section_vii_check() -> Check:
    """The worked examples of source 003, section VII: on the 13- and 14-point positions
    every variation the text describes has its stated result, margin and move numbers; the
    mutant without the draw option must break the first example."""

    def run() -> Outcome:
        """Do the check: both examples, then the mutant."""
        differences = []
        for example, shape in zip(ux.EXAMPLES, (ux.Shape(2, 2, 3, tt.BLACK), ux.Shape(3, 2, 3, tt.WHITE))):
            engine = ux.Sensible(ux.example_graph(shape))
            if not ux.stated(example, ux.properties(engine, shape)):
                differences.append(f"{example.name}: not the stated properties")
            differences += [
                f"{c.variation.title}: {d}" for c in ux.compute(engine, shape, example) for d in c.differences
            ]
        first = ux.Shape(2, 2, 3, tt.BLACK)
        mutant = ux.properties(ux.NoDrawOption(ux.example_graph(first)), first)
        refuted = not ux.stated(ux.EXAMPLES[0], mutant)
        detail = {"differences": differences, "mutant": f"no draw option: {'refuted' if refuted else 'NOT refuted'}"}
        if differences:
            return Outcome(False, f"{len(differences)} differences from the text: {differences[0]}", detail)
        return Outcome(refuted, "both examples as the text numbers them; mutant 'no draw option' refuted", detail)

    return Check("source 003 section VII: the worked examples", "edges (13 and 14 points)", run, "rulesets")


def checks() -> list[Check]:
    """The checks of the rulesets beyond Tromp–Taylor."""
    return [
        topological_check("grid:2x2"),
        topological_check("path:5"),
        propositions_check("intended"),
        propositions_check("literal"),
        twin_check(),
        fundamental_check("path:2"),
        fundamental_check("path:3"),
        political_paradox_check(),
        political_readings_check(),
        political_best_play_check(),
        *(ultimate_claim_check("path:3", claim) for claim in ultimate_claims.CLAIMS),
        section_vii_check(),
    ]
