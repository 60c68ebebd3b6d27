"""Checks of source 000's game in the fragment without ko bids or history deletion: the
arena solver against known values, and one plan checked on the product with the arena,
with a mutant (a plan claimed to reach more than the value) that the check must refute."""

from __future__ import annotations

from gorules.impl.rulesets.directed import arena as da
from gorules.impl.rulesets.directed.conjectures import default_readings, stability_classes
from gorules.spec.graph import parse_graph
from gorules.verify import Check, Outcome

# The empty board's value (live Black minus live White stones) on small graphs: an isolated
# pair is worth 0 (source 000), a 3-point path +1 (Black keeps the middle point).
KNOWN_VALUES = {"edges:0-1": 0, "path:3": 1, "digraph:0>1,1>2,2>0": 0}


def values_check() -> Check:
    """The empty board's value on three small graphs."""

    def run() -> Outcome:
        found = {}
        for spec in KNOWN_VALUES:
            graph = parse_graph(spec)
            found[spec] = da.values_of(graph).of(da.arena_of(graph).start())
        return Outcome(found == KNOWN_VALUES, ", ".join(f"{g} {v:+d}" for g, v in found.items()), found)

    return Check("000 fragment: values (isolated pair 0, path:3 +1)", ", ".join(KNOWN_VALUES), run, "directed")


def plan_check() -> Check:
    """Black's plan on path:3 keeps the margin at the value against every reply, and the same
    plan claimed to keep one more is refuted (the mutant)."""

    def run() -> Outcome:
        graph = parse_graph("path:3")
        arena = da.arena_of(graph)
        start = arena.start()
        v = da.values_of(graph).of(start)
        plan = da.values_of(graph).by_threshold[v].plans[0]
        holds = da.check_plan(arena, plan, 0, start, da.objective(3, v)) is None
        mutant_refuted = da.check_plan(arena, plan, 0, start, da.objective(3, v + 1)) is not None
        kind = stability_classes(graph, dict(default_readings(), starts="empty"))[start_board(graph)]
        return Outcome(
            holds and mutant_refuted and kind.startswith("mixed"),
            f"plan keeps {v:+d}: {holds}; mutant (keeps {v + 1:+d}) refuted: {mutant_refuted}; empty board {kind}",
        )

    return Check("000 fragment: a plan checked, its mutant refuted", "path:3", run, "directed")


def start_board(graph) -> tuple:
    """The empty board."""
    return tuple("." for _ in graph.points)


def checks() -> list[Check]:
    """The source-000 fragment checks."""
    return [values_check(), plan_check()]
