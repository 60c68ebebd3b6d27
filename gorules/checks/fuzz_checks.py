"""Checks that the engine agrees with the executable spec: fuzzing, vectors, a mutant."""

from __future__ import annotations

from gorules.impl.differential.fuzzing import fuzz
from gorules.impl.differential.mutants import NoSuicideMutant
from gorules.impl.differential.vectors import corpus, replay
from gorules.impl.engine import rules as engine
from gorules.verify import Check, Outcome

FUZZ_MOVES = 20_000


def fuzz_check() -> Check:
    """Spec and engine agree on 2·10^4 fuzzed moves on small graphs (seed 0)."""

    def run() -> Outcome:
        report = fuzz(None, seed=0, max_order=8, max_side=4, min_moves=FUZZ_MOVES)
        found = len(report.disagreements)
        result = f"{report.moves} moves in {report.examples} examples, {found} disagreements"
        return Outcome(found == 0, result, report.as_json())

    return Check("engine agrees with spec (differential fuzzing)", "random ≤8 points", run, "engine")


def vectors_check() -> Check:
    """The engine replays the spec's vector corpus (regenerated from the spec) without a difference."""

    def run() -> Outcome:
        vectors = corpus(seed=0)
        failing = [v["name"] for v in vectors if replay(v, engine)]
        invalid = sum(v["name"].startswith("invalid_") for v in vectors)
        result = f"{len(vectors) - len(failing)} of {len(vectors)} vectors replayed ({invalid} invalid_*)"
        return Outcome(not failing, result, {"failing": failing})

    return Check("engine replays the spec's vectors", "grids, cycles, petersen, digraphs", run, "engine")


def mutant_check() -> Check:
    """Fuzzing refutes an engine that never removes the mover's own stones (a fuzzer that
    cannot fail shows nothing)."""

    def run() -> Outcome:
        report = fuzz(300, seed=1, engine=NoSuicideMutant(), max_order=6, max_side=3)
        if not report.disagreements:
            return Outcome(False, "the mutant survived 300 examples")
        shortest = min(report.disagreements, key=lambda d: len(d.moves))
        return Outcome(True, f"refuted: {shortest.what} after {len(shortest.moves)} moves on {shortest.graph.name}")

    return Check("fuzzing refutes a no-suicide mutant", "random ≤6 points", run, "engine")


def checks() -> list[Check]:
    """The engine's checks against the spec."""
    return [fuzz_check(), vectors_check(), mutant_check()]
