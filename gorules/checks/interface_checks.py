"""Checks of the common ruleset interface: every registered ruleset plays through it, the two
Tromp–Taylor twins agree under every preset (and a broken twin is caught), and the generic
game counter reproduces the published counts."""

from __future__ import annotations

import random

from gorules import rulesets
from gorules.spec.api import IllegalMove, Ruleset
from gorules.spec.graph import parse_graph
from gorules.verify import Check, Outcome

PLAY_GRAPHS = ("path:3", "cycle:3", "grid:2x2")
TWIN_GRAPHS = ("grid:2x2", "grid:2x3", "cycle:4", "path:3", "digraph:0>1,1>2,2>0,1>0")
SEEDS = 30


def random_plays(ruleset: Ruleset, graph_name: str, plays: int, turns: int, seed: int) -> tuple[int, int]:
    """(moves played, plays that ended) in random plays; IllegalMove if a listed move is refused."""
    graph = parse_graph(graph_name)
    rng = random.Random(seed)
    moves = ended = 0
    for _ in range(plays):
        s = ruleset.initial(graph)
        for _ in range(turns):
            if s.over:
                break
            s = s.play(rng.choice(s.legal_moves()))
            moves += 1
        ended += s.over
    return moves, ended


def ruleset_check(name: str) -> Check:
    """Random plays of a ruleset through the interface: every listed move is legal, and a
    ruleset that calls itself finite ends every play."""

    def run() -> Outcome:
        ruleset = rulesets.make(name)
        total = ended = plays = 0
        for i, graph in enumerate(PLAY_GRAPHS):
            try:
                moves, finished = random_plays(ruleset, graph, 10, 2000, i)
            except IllegalMove as error:
                return Outcome(False, f"{graph}: a listed move was refused: {error}")
            total, ended, plays = total + moves, ended + finished, plays + 10
        ok = ended == plays if ruleset.finite else True
        kind = "finite" if ruleset.finite else "infinite"
        return Outcome(ok, f"{plays} random plays, {total} moves, {ended} ended ({kind} game, {ruleset.value_kind})")

    return Check(f"ruleset interface plays {name}", ", ".join(PLAY_GRAPHS), run, "interface")


def twins_disagree(spec_rules: Ruleset, engine_rules: Ruleset, seeds: int) -> str | None:
    """Where the two twins first list different moves, boards or results, or None."""
    for name in TWIN_GRAPHS:
        graph = parse_graph(name)
        for seed in range(seeds):
            rng = random.Random(seed)
            a, b = spec_rules.initial(graph), engine_rules.initial(graph)
            for turn in range(60):
                if a.legal_moves() != b.legal_moves() or (a.board, a.result()) != (b.board, b.result()):
                    return f"{name}, seed {seed}, turn {turn}"
                if a.over:
                    break
                move = rng.choice(a.legal_moves())
                a, b = a.play(move), b.play(move)
    return None


def twins_check(mutant: bool = False) -> Check:
    """The spec's and the engine's Tromp–Taylor rulesets agree move by move under every
    preset; with ``mutant``, a twin that forgets forbidden suicide must be told apart."""

    def run() -> Outcome:
        presets = list(rulesets.ruleset_class("tromp-taylor").presets)
        found = {}
        for preset in presets:
            spec_rules = rulesets.make("tromp-taylor", preset, implementation="spec")
            # The mutant is an engine twin that forgets forbidden suicide: it always allows it.
            changed = {"suicide": "allowed"} if mutant else None
            engine_rules = rulesets.make("tromp-taylor", preset, changed, implementation="engine")
            found[preset] = twins_disagree(spec_rules, engine_rules, SEEDS)
        if mutant:
            caught = {p: where for p, where in found.items() if where}
            forbidding = {p for p in presets if rulesets.make("tromp-taylor", p).options.suicide == "forbidden"}
            ok = set(caught) == forbidding
            return Outcome(ok, f"refuted under {', '.join(sorted(caught)) or 'no preset'} (suicide forbidden there)")
        bad = {p: where for p, where in found.items() if where}
        if bad:
            return Outcome(False, f"disagree: {bad}")
        return Outcome(True, f"{len(presets)} presets, {len(TWIN_GRAPHS)} graphs, {SEEDS} plays each: 0 disagreements")

    name = "tromp-taylor twins agree (spec, engine)" + (" [mutant forgets no-suicide]" if mutant else "")
    return Check(name, "5 small graphs", run, "interface")


def game_count_check() -> Check:
    """The generic game counter of the interface reproduces Tromp & Farnebäck's Table 7."""

    def run() -> Outcome:
        from gorules.impl.solving.search import count_games

        ruleset = rulesets.make("tromp-taylor", implementation="spec")
        counts = [count_games(ruleset.initial(parse_graph(f"grid:1x{n}"))) for n in (1, 2, 3)]
        return Outcome(counts == [1, 9, 907], f"{counts} (published 1, 9, 907)")

    return Check("games through the interface (spec)", "grid:1x1..1x3", run, "interface")


def checks() -> list[Check]:
    """The interface checks: one per registered ruleset, the twins and their mutant, the counts."""
    return [
        *(ruleset_check(name) for name in rulesets.names()),
        twins_check(),
        twins_check(mutant=True),
        game_count_check(),
    ]
