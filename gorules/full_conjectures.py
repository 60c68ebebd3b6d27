"""``gorules conjectures 000 --full``: source 000's conjectures in the whole game (ko bids,
history deletion, unsustainability), one table per reading of the unsustainability order.

Every digraph on 1..N points and 2..P isolated pairs is solved from the empty board at one
komi of each class under the readings of
:mod:`gorules.impl.rulesets.directed.full_arena`; an arena that outgrows
``--max-positions`` nodes leaves its graph's verdicts unknown with the size reached.
"""

from __future__ import annotations

import sys
from collections import Counter

from gorules.errors import UsageError
from gorules.impl.rulesets.directed import full_arena as fa
from gorules.impl.rulesets.directed import full_conjectures as fc
from gorules.impl.rulesets.directed.conjectures import CONJECTURES
from gorules.impl.rulesets.directed.graphs import digraphs, parse
from gorules.impl.rulesets.directed.pairs import pairs
from gorules.spec.graph import Graph

FULL_POINTS = 3
"""The most points --full takes: on 3 points the history alone makes many arenas too large to build."""

FULL_PAIRS = 3


def full_readings(items: list[str] | None) -> list[fa.Reading]:
    """The readings to run: the bid step and the reading of "eventually passes" given or their
    defaults, and the unsustainability order given or both (the source's, then the older one);
    UsageError on an unknown one."""
    chosen: dict = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or name not in fa.READINGS:
            raise UsageError(
                f"unknown reading {item!r} with --full: expected one of {', '.join(fa.READINGS)} as NAME=VALUE"
            )
        if value not in fa.READINGS[name][0]:
            raise UsageError(
                f"unknown value {value!r} of reading {name}: expected one of {', '.join(fa.READINGS[name][0])}"
            )
        chosen[name] = value
    bids = chosen.get("bids", fa.READINGS["bids"][1])
    orders = [chosen["unsustainable"]] if "unsustainable" in chosen else list(fa.READINGS["unsustainable"][0])
    passing = chosen.get("passing", fa.READINGS["passing"][1])
    return [fa.Reading(bids, order, passing) for order in orders]


def graphs_of(points: int, pair_count: int) -> list[Graph]:
    """Every digraph on 1..points points, then 2..pair_count isolated pairs (one pair is the
    2-point digraph 0>1,1>0)."""
    if not 1 <= points <= FULL_POINTS:
        raise UsageError(f"--points with --full must be 1..{FULL_POINTS}, got {points}")
    if not 0 <= pair_count <= FULL_PAIRS:
        raise UsageError(f"--pairs with --full must be 0..{FULL_PAIRS}, got {pair_count}")
    return digraphs(points) + [pairs(k) for k in range(2, pair_count + 1)]


def run_full(names: list[str], graphs: list[Graph], reading: fa.Reading, max_positions: int, points: int) -> list[dict]:
    """Per conjecture: counts, verdicts and the smallest counterexample under one reading, each
    on its graphs (the grids and the sums with settled boards within `points` for the two
    conjectures about them)."""
    rows = []
    for name in names:
        counts: Counter = Counter()
        verdicts = []
        smallest = None
        unknown_why = None
        for graph in fc.members(name, graphs, points, reading, max_positions):
            verdict = fc.check(name, graph, reading, max_positions)
            counts[verdict.status] += 1
            verdicts.append({"graph": graph.name, "status": verdict.status, "detail": verdict.detail})
            if verdict.status == "fails" and smallest is None:
                smallest = dict(verdict.counterexample or {"graph": graph.name}, detail=verdict.detail)
            if verdict.status == "unknown" and unknown_why is None:
                unknown_why = f"{graph.name}: {verdict.detail}"
        rows.append(
            {
                "conjecture": name,
                "reading": fc.READINGS_OF.get(name, fc.NOT_EXECUTED.get(name)),
                "counts": {s: counts.get(s, 0) for s in ("holds", "fails", "unknown")},
                "smallest_counterexample": smallest,
                "unknown_why": unknown_why,
                "verdicts": verdicts,
            }
        )
    return rows


def example_parts(example: dict) -> list[str]:
    """A counterexample's start board (each point with its stone and its arcs) and its line of
    play, as lines of text."""
    parts = []
    if example.get("start"):
        graph = parse(example["graph"])
        drawn = " ".join(
            f"{v}:{example['start'][v]}"
            + (">" + ",".join(str(w) for w in graph.neighbours[v]) if graph.neighbours[v] else "")
            for v in graph.points
        )
        parts.append(f"start {drawn}")
    line = example.get("line")
    if line:
        parts.append(f"play {' '.join(line['prefix']) or '-'} then for ever {' '.join(line['cycle'])}")
    return parts


def full_table(reading: fa.Reading, rows: list[dict]) -> str:
    """One reading's table: counts per conjecture, the smallest counterexamples, why unknown."""
    width = max(len(r["conjecture"]) for r in rows)
    lines = [f"whole game, {reading.describe()}", f"{'conjecture':<{width}}  graphs  holds  fails  unknown"]
    for r in rows:
        k = r["counts"]
        lines.append(
            f"{r['conjecture']:<{width}}  {sum(k.values()):>6}  {k['holds']:>5}  {k['fails']:>5}  {k['unknown']:>7}"
        )
    for r in rows:
        if r["smallest_counterexample"]:
            example = r["smallest_counterexample"]
            lines.append(f"{r['conjecture']}: smallest counterexample {example['graph']}: {example['detail']}")
            lines.extend(f"  {part}" for part in example_parts(example))
        if r["unknown_why"]:
            lines.append(f"{r['conjecture']}: unknown on {r['unknown_why']}")
    return "\n".join(lines)


def full_report(names: list[str], points: int, pair_count: int, items: list[str] | None, max_positions: int) -> tuple:
    """The document and the text of ``--full``: one table per reading."""
    graphs = graphs_of(points, pair_count)
    readings = full_readings(items)
    names = [c.name for c in CONJECTURES if c.name in names]
    document: dict = {"source": "000_ca8046d90d75ceee.txt", "game": "whole", "max_points": points, "tables": []}
    texts = []
    for reading in readings:
        print(f"source 000, whole game, {reading.describe()}: {len(graphs)} graphs", file=sys.stderr)
        rows = run_full(names, graphs, reading, max_positions, points)
        document["tables"].append({"reading": reading.describe(), "conjectures": rows})
        texts.append(full_table(reading, rows))
    return document, "\n\n".join(texts)
