"""``gorules ultimate-examples``: the two worked examples of section VII of source 003, rebuilt.

For each example: the shapes searched (two living stones with their eyes and some dame) and
their computed properties (Fundamental score, Ultimate result, margin), the position chosen
(the smallest with the stated properties whose lines the text's move numbers fit, else the
smallest with the stated properties), drawn point by point, and every variation the text
describes, move by move, with where it differs from the text.  Then the comparison of
sensible play with the full search on the smaller shapes.  Exit 1 if an example has no
shape with the stated properties, a variation's result differs from the text's, or sensible
play and the full search disagree.
"""

from __future__ import annotations

import sys
import time

from tqdm import tqdm

from gorules import flags
from gorules.errors import BudgetRefused, UsageError
from gorules.impl.rulesets.ultimate import examples as ux
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.spec.text import board_diagram
from gorules.spec.ultimate import situation_text

MAX_POINTS = 14
"""The default largest shape (``--points``): the text's move numbers need 13 and 14 points."""
LEAST_POINTS = 11
"""The first example's smallest shape with its stated properties has 11 points."""
MOST_POINTS = 20
EXACT_POINTS = 9
"""The default largest shape on which sensible play is compared with the full search."""


def register(subparsers) -> None:
    """Add the ``ultimate-examples`` subcommand."""
    parser = subparsers.add_parser(
        "ultimate-examples",
        help="the worked examples of source 003 section VII: positions, computed lines, comparison with the text",
    )
    flags.add_points(
        parser,
        MAX_POINTS,
        f"search shapes of up to N points (N from {LEAST_POINTS} to {MOST_POINTS})",
        aliases=("--max-points",),
        reason="the text's move numbers need 13 and 14 points",
        least=LEAST_POINTS,
    )
    parser.add_argument(
        "--exact-points",
        type=int,
        default=EXACT_POINTS,
        help=f"compare sensible play with the full search on shapes up to this many points (default {EXACT_POINTS}; "
        "0: skip)",
    )
    flags.add_nodes(parser, None, help="give up after this many search nodes in all", reason=flags.BOUNDED_BY_SIZE)
    flags.add_seconds(parser, None, help="give up after this many seconds", reason=flags.BOUNDED_BY_SIZE)
    flags.add_output(parser, "the report")
    parser.set_defaults(func=run)


def checked(args) -> Budget:
    """The budget; UsageError for a limit out of range."""
    largest = flags.largest(args, LEAST_POINTS)
    if not LEAST_POINTS <= largest <= MOST_POINTS:
        raise UsageError(
            f"--points must be between {LEAST_POINTS} (the first example needs 11 points) and {MOST_POINTS}, "
            f"got {largest}"
        )
    if not 0 <= args.exact_points <= 10:
        raise UsageError(
            f"--exact-points must be between 0 and 10 (the full search is slow beyond), got {args.exact_points}"
        )
    try:
        return Budget(seconds=args.seconds, nodes=args.nodes)
    except ValueError as error:
        raise UsageError(str(error)) from None


def step_data(step: ux.Step) -> dict:
    """One move as JSON-able data."""
    return {"number": step.number, "player": step.player, "move": step.move, "cost": step.cost, "result": step.result}


def choose_shape(example: ux.Example, found: list, engines: dict) -> tuple:
    """The shape shown: the smallest with the stated properties whose variations match the
    text's numbered moves, else the smallest with the stated properties; with its computed
    variations.  (None, []) if no shape has the stated properties."""
    first = None
    for properties in found:
        if not ux.stated(example, properties):
            continue
        computed = ux.compute(engines[properties.shape], properties.shape, example)
        if first is None:
            first = (properties.shape, computed)
        if not any(c.differences for c in computed):
            return properties.shape, computed
    return first if first is not None else (None, [])


def example_report(example: ux.Example, args, meter, progress) -> dict:
    """One example: the shapes searched, the chosen position and its variations."""
    found = []
    engines: dict = {}
    for shape in ux.shapes(example, flags.largest(args, LEAST_POINTS)):
        engines[shape] = ux.Sensible(ux.example_graph(shape), meter=meter)
        found.append(ux.properties(engines[shape], shape))
        progress.update(1)
    shape, computed = choose_shape(example, found, engines)
    report: dict = {
        "example": example.name,
        "stated": {"to_move": example.to_move, "score": example.score, "result": example.variations[0].result},
        "shapes": [
            {"shape": p.shape.describe(), "points": p.shape.order, **p.as_dict(), "stated": ux.stated(example, p)}
            for p in found
        ],
    }
    if shape is None:
        report["failed"] = f"no shape up to {flags.largest(args, LEAST_POINTS)} points has the stated properties"
        return report
    graph = ux.example_graph(shape)
    report["position"] = {
        "shape": shape.describe(),
        "graph": graph.name,
        "regions": shape.regions(),
        "situation": situation_text(graph, ux.example_situation(shape)),
        "diagram": board_diagram(graph, ux.example_situation(shape).board),
    }
    report["variations"] = [
        {
            "title": c.variation.title,
            "line": [step_data(s) for s in c.steps],
            "events": c.events,
            "text_events": c.variation.text_events,
            "result": c.result,
            "margin": c.margin,
            "territory_filled": ux.territory_fills(shape, c.steps),
            "differences": c.differences,
        }
        for c in computed
    ]
    wrong = [c for c in computed if c.result != c.variation.result or c.margin != c.variation.margin]
    if wrong:
        report["failed"] = f"{wrong[0].variation.title}: the result differs from the text"
    return report


def agreement_report(args, meter, progress) -> list[dict]:
    """Sensible play against the full search on the smaller shapes."""
    rows = []
    for shape in ux.agreement_shapes(args.exact_points):
        full, sensible = ux.agreement(shape, meter)
        rows.append(
            {
                "shape": shape.describe(),
                "points": shape.order,
                "full": full.as_dict(),
                "sensible": sensible.as_dict(),
                "agree": full.as_dict() == sensible.as_dict(),
            }
        )
        progress.update(1)
    return rows


def move_text(move) -> str:
    """A move as the line shows it: ``point 5`` or the word."""
    return f"point {move}" if isinstance(move, int) else str(move)


def text_report(report: dict) -> str:
    """The report for people."""
    lines = [
        "Section VII of source 003 rebuilt: Black's stone on point 0, White's on 1, the dame next to both,",
        "each stone's eye points next to it alone (territory + the 2-point group tax).",
        "Computed with sensible play (no placement that puts its own string in atari without capturing).",
        "",
    ]
    for ex in report["examples"]:
        stated = ex["stated"]
        lines.append(f"== {ex['example']}: {'Black' if stated['to_move'] == 'B' else 'White'} to play, no prisoners")
        lines.append(f"   the text: score {stated['score']:+g}, optimal play: {stated['result']}")
        lines.append("   shapes searched:")
        for row in ex["shapes"]:
            mark = "  <- the stated properties" if row["stated"] else ""
            lines.append(
                f"     {row['points']:>2} points, {row['shape']}: score {row['score']:+g}, "
                f"result {row['ultimate_result']}, margin {row['margin']}{mark}"
            )
        if "position" not in ex:
            lines += [f"   FAILED: {ex['failed']}", ""]
            continue
        position = ex["position"]
        lines += [f"   the position: {position['shape']}", f"   graph: {position['graph']}"]
        lines += ["     " + row for row in position["diagram"].splitlines()]
        regions = position["regions"]
        lines.append(f"   dame {regions['dame']}, Black's eyes {regions['B']}, White's eyes {regions['W']}")
        for v in ex["variations"]:
            margin = f", a {v['margin']}-point win" if v["margin"] else ""
            lines.append(f"   -- {v['title']}: result {v['result']}{margin}")
            for step in v["line"]:
                cost = "" if step["cost"] is None else f" (cost {step['cost']:g})"
                lines.append(f"      {step['player']}{step['number']:<3} {move_text(step['move'])}{cost}")
            lines.append(f"      text numbers:     {', '.join(v['text_events'])}")
            lines.append(f"      computed numbers: {', '.join(v['events'])}")
            filled = v["territory_filled"]
            lines.append(f"      own eye points filled: Black {filled['B']}, White {filled['W']}")
            lines.append("      differences: " + ("; ".join(v["differences"]) or "none"))
        if "failed" in ex:
            lines.append(f"   FAILED: {ex['failed']}")
        lines.append("")
    if report["agreement"]:
        lines.append("== sensible play against the full search (score, result, margin):")
        for row in report["agreement"]:
            full = row["full"]
            lines.append(
                f"   {row['points']:>2} points, {row['shape']}: score {full['score']:+g}, result {full['ultimate_result']}, "
                f"margin {full['margin']}: {'agree' if row['agree'] else 'DISAGREE: sensible ' + str(row['sensible'])}"
            )
    lines.append(f"{report['nodes']:,} nodes in {report['seconds']:.1f} s")
    return "\n".join(lines)


def run(args) -> int:
    """Rebuild both examples, compare with the full search, print, exit 1 on a failure."""
    budget = checked(args)
    meter = budget.meter()
    total = sum(len(ux.shapes(e, flags.largest(args, LEAST_POINTS))) for e in ux.EXAMPLES) + len(
        ux.agreement_shapes(args.exact_points)
    )
    progress = tqdm(total=total, desc="shapes", file=sys.stderr, disable=args.json)
    started = time.perf_counter()
    report: dict = {"examples": [], "agreement": []}
    try:
        for example in ux.EXAMPLES:
            report["examples"].append(example_report(example, args, meter, progress))
        report["agreement"] = agreement_report(args, meter, progress)
    except BudgetSpent as spent:
        done = ", ".join(e["example"] for e in report["examples"]) or "no example"
        raise BudgetRefused(
            f"{spent} after {meter.nodes:,} nodes: settled {done}"
            + (" and the comparison" if report["agreement"] else "")
            + " (raise --nodes or --seconds, or lower --exact-points)"
        ) from None
    finally:
        progress.close()
    report["nodes"] = meter.nodes
    report["seconds"] = round(time.perf_counter() - started, 2)
    flags.emit(args, report, text_report(report))
    failed = any("failed" in e for e in report["examples"]) or not all(r["agree"] for r in report["agreement"])
    return 1 if failed else 0
