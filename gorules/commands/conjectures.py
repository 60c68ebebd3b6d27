"""``gorules conjectures 000``: source 000's conjectures executed on every small digraph.

Each conjecture is checked per graph in the fragment without ko bids and without history
deletion (solved exactly on its finite arena, :mod:`gorules.impl.rulesets.directed.arena`), under
the named readings (``--option NAME=VALUE``, also spelt ``--reading``), and counted as holds /
fails / unknown.
The smallest counterexample of each (graph, start board, line of play) is printed, drawn
as SVG into the JSON and, with ``--pictures DIR``, written as files.  ``--graph G`` solves
one graph from one start board instead: value, the result at a komi, the perfect komi, the
stability class and the line of play of both value plans.
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

from tqdm import tqdm

from gorules import flags
from gorules.arguments import positive_int
from gorules.errors import UsageError
from gorules.full_conjectures import full_report
from gorules.impl.rulesets.directed import conjectures as dc
from gorules.impl.rulesets.directed.arena import arena_of, plan_table, replay_against, values_of
from gorules.impl.rulesets.directed.graphs import MAX_ENUMERATED_POINTS, digraphs, parse
from gorules.impl.rulesets.directed.pairs import pairs, pairs_table
from gorules.pictures import board_svg, save_picture
from gorules.spec.graph import Graph, GraphError, grid, parse_point
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

SOURCES = ("000",)
DEFAULT_MAX_POSITIONS = 200_000
GRIDS = ((1, 1), (1, 2), (1, 3), (2, 2), (1, 4), (1, 5), (2, 3))


def register(subparsers) -> None:
    """Add the ``conjectures`` subcommand."""
    parser = subparsers.add_parser(
        "conjectures",
        help="execute a source's conjectures on every small digraph (source 000: Go on directed graphs)",
    )
    parser.add_argument("source", help="the source whose conjectures to run: 000")
    flags.add_points(
        parser,
        3,
        "digraphs on 1..N points",
        aliases=("--max-points",),
        reason="every digraph of the size is solved; topological-sweep covers 4 points of its go-spaces",
    )
    flags.add_options(
        parser,
        help="a reading of an ambiguous phrase (repeatable): "
        + "; ".join(f"{n}={'|'.join(c)} (default {d})" for n, (c, d, _) in dc.READINGS.items()),
        aliases=("--reading",),
    )
    parser.add_argument("--only", metavar="NAMES", help="comma-separated conjecture names")
    flags.add_output(parser, "every verdict", json_file=True)
    flags.add_output_path(parser, "--pictures", "write an SVG of each smallest counterexample into DIR", directory=True)
    parser.add_argument(
        "--max-positions",
        type=positive_int,
        default=DEFAULT_MAX_POSITIONS,
        help=f"refuse runs whose arenas hold more positions in all (default {DEFAULT_MAX_POSITIONS})",
    )
    flags.add_graph(parser, flag=True, help="solve this one graph instead (e.g. digraph:3:0>1,1>2 or grid:2x2)")
    parser.add_argument("--board", help="with --graph: the start board, one of B W . per point (default empty)")
    parser.add_argument("--komi", default=None, help="with --graph: White's komi, a rational number such as 1/2")
    parser.add_argument(
        "--plan",
        choices=("B", "W"),
        help="with --graph: print the value plan of this colour (komi = value) as a table of position, memory, move",
    )
    parser.add_argument(
        "--against",
        metavar="MOVES",
        help="with --graph and --plan: play these opponent moves (points or pass, comma-separated) against the plan",
    )
    parser.add_argument(
        "--differ",
        metavar="READING",
        help="instead: for each conjecture that uses this reading, the smallest graph whose verdict "
        "differs between its values",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        metavar="N",
        help="instead: isolated pairs 1..N: the value in this game, and the forced game length under "
        "positional superko (exact or bounds) against 2^N",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="the whole game (ko bids, history deletion, unsustainability): one table per reading of the "
        "unsustainability order, on the digraphs of 1..--points points and 2..--pairs pairs (the normal board on "
        "the grids, the settled boards on the sums within --points); readings bids=halves|units|zero, "
        "unsustainable=source|older, passing=stones|quiet",
    )
    flags.add_nodes(
        parser,
        1_000_000,
        reason="each length search alone, which reports bounds when it stops",
        help="with --pairs: states per length search before it stops and reports bounds only",
    )
    parser.set_defaults(func=run)


def parse_readings(items: list[str] | None) -> dict:
    """The readings, defaults overridden by NAME=VALUE items; UsageError on an unknown one."""
    readings = dc.default_readings()
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or name not in dc.READINGS:
            raise UsageError(f"unknown reading {item!r}: expected one of {', '.join(dc.READINGS)} as NAME=VALUE")
        choices = dc.READINGS[name][0]
        if value not in choices:
            raise UsageError(f"unknown value {value!r} of reading {name}: expected one of {', '.join(choices)}")
        readings[name] = value
    return readings


def parse_board(graph: Graph, text: str | None) -> tuple:
    """A start board of the graph: one of B, W, '.' per point; UsageError otherwise."""
    if text is None:
        return tuple(EMPTY for _ in graph.points)
    board = tuple(text.strip())
    if len(board) != graph.order or any(c not in (BLACK, WHITE, EMPTY) for c in board):
        raise UsageError(
            f"{text!r} is not a board of {graph.name}: expected {graph.order} characters, each B, W or '.'"
        )
    return board


def parse_rational(text: str, what: str) -> Fraction:
    """A rational number written as an integer, a fraction a/b or a decimal; UsageError otherwise."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{what} must be a rational number such as 3, -1/2 or 0.5, got {text!r}") from None
    return value


def parse_nonnegative_rational(text: str, what: str) -> Fraction:
    """A nonnegative rational number (a ko bid's amount); UsageError otherwise."""
    value = parse_rational(text, what)
    if value < 0:
        raise UsageError(f"{what} must be a nonnegative rational number, got {text!r}")
    return value


def selected(only: str | None) -> list:
    """The conjectures named by --only (all if None)."""
    if not only:
        return list(dc.CONJECTURES)
    chosen = []
    for name in only.split(","):
        try:
            chosen.append(dc.find(name.strip()))
        except KeyError:
            names = ", ".join(c.name for c in dc.CONJECTURES)
            raise UsageError(f"unknown conjecture {name.strip()!r}: expected one of {names}") from None
    return chosen


def grids_within(max_points: int) -> list[Graph]:
    """The small grids (rows ≤ columns) with at most max_points points."""
    return [grid(r, c) for r, c in GRIDS if r * c <= max_points]


def positions_of(graph: Graph) -> int:
    """The arena size of a graph: boards × player to move × last turn a pass or not."""
    return 4 * 3**graph.order


def check_budget(families: dict, max_positions: int) -> int:
    """The total arena positions of the run; UsageError naming --max-positions above the limit."""
    total = sum(positions_of(g) for graphs in families.values() for g in graphs)
    if total > max_positions:
        raise UsageError(
            f"the arenas of this run hold {total:,} positions, above --max-positions {max_positions:,}: "
            "raise --max-positions or lower --points"
        )
    return total


def ascii_picture(graph: Graph, board: str) -> str:
    """A board drawn as text: each point with its stone and its arcs."""
    parts = []
    for v in graph.points:
        arcs = ",".join(str(w) for w in graph.neighbours[v])
        parts.append(f"{v}:{board[v]}" + (f">{arcs}" if arcs else ""))
    return " ".join(parts)


def family(name: str, max_points: int, readings: dict) -> list[Graph]:
    """The graphs a conjecture is checked on: every digraph, the small grids, or the sums of a
    digraph and a stable digraph (see :func:`gorules.impl.rulesets.directed.conjectures.settled_sums`)."""
    if name == "digraphs":
        return digraphs(max_points)
    if name == "grids":
        return grids_within(max_points)
    return dc.settled_sums(max_points, readings)


def run_conjectures(conjectures: list, max_points: int, readings: dict, progress: bool = True) -> list[dict]:
    """Run each conjecture on its family, graph by graph (all conjectures of a graph together,
    so that its arena is solved once); per conjecture the counts, the verdicts and the
    smallest counterexample (graphs come smallest first)."""
    families = {c.family: family(c.family, max_points, readings) for c in conjectures}
    counts: dict = {c.name: Counter() for c in conjectures}
    verdicts: dict = {c.name: [] for c in conjectures}
    smallest: dict = {c.name: None for c in conjectures}
    work = sum(len(families[c.family]) for c in conjectures)
    bar = tqdm(total=work, desc="conjectures 000", unit="check", disable=not progress or None, file=sys.stderr)
    try:
        for name, graphs in families.items():
            members = [c for c in conjectures if c.family == name]
            for graph in graphs:
                for c in members:
                    verdict = c.check(graph, readings)
                    counts[c.name][verdict.status] += 1
                    verdicts[c.name].append({"graph": graph.name, "status": verdict.status, "detail": verdict.detail})
                    if verdict.status == "fails" and smallest[c.name] is None:
                        smallest[c.name] = counterexample_record(c, graph, verdict)
                    bar.update(1)
    finally:
        bar.close()
    return [
        {
            "conjecture": c.name,
            "statement": c.statement,
            "reading": c.reading,
            "readings": {name: readings[name] for name in c.readings_used},
            "fragment": dc.FRAGMENT,
            "family": f"{c.family} on 1..{max_points} points",
            "counts": {s: counts[c.name].get(s, 0) for s in ("holds", "fails", "unknown")},
            "smallest_counterexample": smallest[c.name],
            "unknown_why": next((v["detail"] for v in verdicts[c.name] if v["status"] == "unknown"), None),
            "note": c.note or None,
            "verdicts": verdicts[c.name],
        }
        for c in conjectures
    ]


def counterexample_record(c, graph: Graph, verdict) -> dict:
    """A failing verdict's counterexample with its detail, its start board drawn as text and as SVG."""
    record = dict(verdict.counterexample or {"graph": graph.name})
    record["detail"] = verdict.detail
    start = record.get("start")
    if start is not None:
        record["ascii"] = ascii_picture(graph, start)
        record["svg"] = board_svg(graph, start, title=f"{c.name}: {graph.name}")
    return record


def table(results: list[dict]) -> str:
    """The counts per conjecture, then each smallest counterexample and each reason for unknown."""
    width = max(len(r["conjecture"]) for r in results)
    lines = [f"{'conjecture':<{width}}  graphs  holds  fails  unknown"]
    for r in results:
        k = r["counts"]
        total = sum(k.values())
        lines.append(f"{r['conjecture']:<{width}}  {total:>6}  {k['holds']:>5}  {k['fails']:>5}  {k['unknown']:>7}")
    for r in results:
        example = r["smallest_counterexample"]
        if example:
            lines.append(f"{r['conjecture']}: smallest counterexample {example['graph']}: {example['detail']}")
            if "ascii" in example:
                lines.append(f"    start {example['ascii']}")
            line = example.get("line")
            if line:
                lines.append(f"    play {' '.join(line['prefix'])} | repeat {' '.join(line['cycle'])}")
        if r["unknown_why"]:
            lines.append(f"{r['conjecture']}: unknown: {r['unknown_why']}")
        if r.get("note"):
            lines.append(f"{r['conjecture']}: {r['note']}")
    return "\n".join(lines)


def write_pictures(results: list[dict], folder: str) -> None:
    """One SVG per smallest counterexample, named after the conjecture."""
    for r in results:
        example = r["smallest_counterexample"]
        if example and example.get("start"):
            graph = parse(example["graph"])
            path = Path(folder) / f"{r['conjecture']}.svg"
            save_picture(graph, example["start"], path, title=f"{r['conjecture']}: {graph.name}")
            example["picture"] = path.name


def solve_one(args, readings: dict) -> int:
    """Value, result at the komi, perfect komi, stability class and the value plans' play of one start."""
    graph = parse(args.graph)
    if graph.order > MAX_ENUMERATED_POINTS + 1 or positions_of(graph) > args.max_positions:
        raise UsageError(
            f"{graph.name} has an arena of {positions_of(graph):,} positions, above --max-positions "
            f"{args.max_positions:,}: raise --max-positions"
        )
    board = parse_board(graph, args.board)
    komi = parse_rational(args.komi, "komi") if args.komi is not None else None
    arena = arena_of(graph)
    start = arena.start(board)
    value = values_of(graph).of(start)
    komis = dc.first_player_komis(graph, start)
    one = dict(readings, starts="all")
    classes = dc.stability_classes(graph, one)
    line = dc.optimal_lasso(arena, start)
    result = {
        "graph": graph.name,
        "start": "".join(board),
        "fragment": dc.FRAGMENT,
        "value": value,
        "perfect_komi": [str(Fraction(k)) for k in komis],
        "stability": classes[board],
        "readings": readings,
        "line": line,
    }
    if komi is not None:
        result["komi"] = str(komi)
        result["result_at_komi"] = "B" if value > komi else "W" if value < komi else "draw"
    if args.plan:
        side = 0 if args.plan == BLACK else 1
        _, _, black, white = dc.value_plans(graph, start)
        plan = (black, white)[side][0]
        if plan is None:
            raise UsageError(f"{args.plan} has nothing to keep from this start: every play keeps the value")
        result["plan"] = {"colour": args.plan, "table": plan_table(arena, plan, side, start)}
        if args.against is not None:
            moves = [parse_move(graph, m) for m in args.against.split(",") if m.strip()]
            try:
                result["plan"]["replay"] = replay_against(arena, plan, side, start, moves)
            except ValueError as error:
                raise UsageError(str(error)) from None
    elif args.against is not None:
        raise UsageError("--against goes with --plan")
    lines = [
        f"{graph.name} from {''.join(board)} (Black to move), {dc.FRAGMENT}",
        f"value {value:+d} (live Black stones minus live White stones under perfect play)",
        f"first player's win-or-draw komi: {', '.join(result['perfect_komi'])}",
    ]
    if komi is not None:
        lines.append(f"at komi {komi}: {result['result_at_komi']}")
    lines.append(f"stability (passes={readings['passes']}): {classes[board]}")
    lines.append(f"play of the value plans: {' '.join(line['prefix'])} | repeat {' '.join(line['cycle'])}")
    if "plan" in result:
        lines.append(f"{args.plan}'s plan (board, to move, last turn a pass, memory -> move):")
        for row in result["plan"]["table"]:
            last = "pass" if row["last_was_pass"] else "stone"
            lines.append(f"  {row['board']} {row['to_move']} {last:<5} m{row['memory']} -> {row['move']}")
        for turn in result["plan"].get("replay", []):
            lines.append(f"  {turn}")
    flags.emit(args, result, "\n".join(lines), indent=2)
    return 0


def parse_move(graph: Graph, text: str):
    """A move: a point number (or a grid point's name) or pass; UsageError otherwise."""
    text = text.strip()
    if text.lower() == "pass":
        return "pass"
    if text.isdigit() and int(text) < graph.order:
        return int(text)
    try:
        return parse_point(graph, text)
    except GraphError:
        raise UsageError(f"{text!r} is not a point of {graph.name} or pass") from None


def pairs_report(args) -> int:
    """Isolated pairs: the value of the empty board in source 000's game (the fragment), and the
    forced length of a game under positional superko with each side prolonging, against 2^N."""
    if not 1 <= args.pairs <= 3:
        raise UsageError(f"--pairs must be 1..3 (the arena of 4 pairs has {4 * 3**8:,} positions), got {args.pairs}")
    if positions_of(pairs(args.pairs)) > args.max_positions:
        raise UsageError(
            f"{args.pairs} pairs need {positions_of(pairs(args.pairs)):,} positions: raise --max-positions"
        )
    values = {}
    for n in range(1, args.pairs + 1):
        graph = pairs(n)
        values[n] = values_of(graph).of(arena_of(graph).start())
    rows = pairs_table(args.pairs, args.nodes)
    lines = ["pairs  value  prolonger  2^N  forced length under positional superko (exact, or lower..upper)"]
    for row in rows:
        lines.append(
            f"{row['pairs']:>5}  {values[row['pairs']]:>+5d}  {row['prolonger']:>9}  {row['two_to_the_n']:>3}  {shown(row)}"
        )
    document = {"values": {str(n): v for n, v in values.items()}, "forced_length": rows}
    flags.emit(args, document, "\n".join(lines), indent=2)
    return 0


def shown(row: dict) -> str:
    """A forced length as text: exact, or its bounds (? where a bound's search stopped)."""
    if row["exact"] is not None:
        return str(row["exact"])
    lower = "?" if row["lower"] is None else row["lower"]
    upper = "?" if row["upper"] is None else row["upper"]
    return f"{lower}..{upper}"


def readings_differ(args, readings: dict) -> int:
    """For each conjecture using the reading, the first graph (smallest first) whose verdict
    changes with the reading's value, or that none does within --max-points."""
    if args.differ not in dc.READINGS:
        raise UsageError(f"unknown reading {args.differ!r}: expected one of {', '.join(dc.READINGS)}")
    chosen = [c for c in selected(args.only) if args.differ in c.readings_used]
    if not chosen:
        raise UsageError(f"no selected conjecture uses the reading {args.differ!r}")
    choices = dc.READINGS[args.differ][0]
    max_points = flags.largest(args)
    runs = {v: run_conjectures(chosen, max_points, dict(readings, **{args.differ: v})) for v in choices}
    found = {}
    lines = []
    for k, c in enumerate(chosen):
        verdicts = {v: runs[v][k]["verdicts"] for v in choices}
        first = None
        for i, row in enumerate(verdicts[choices[0]]):
            statuses = {v: verdicts[v][i]["status"] for v in choices}
            if len(set(statuses.values())) > 1:
                first = {"graph": row["graph"], "verdicts": {v: verdicts[v][i]["detail"] for v in choices}}
                break
        found[c.name] = first
        if first is None:
            lines.append(f"{c.name}: the values of {args.differ} agree on every graph up to {max_points} points")
        else:
            lines.append(f"{c.name}: smallest graph where {args.differ} matters: {first['graph']}")
            for v in choices:
                lines.append(f"    {args.differ}={v}: {first['verdicts'][v]}")
    flags.emit(args, {"reading": args.differ, "smallest": found}, "\n".join(lines), indent=2)
    return 0


def run(args) -> int:
    """Run the conjectures of the source, or solve one graph with --graph, or the pairs with --pairs."""
    if args.source not in SOURCES:
        raise UsageError(
            f"no conjectures are executed for source {args.source!r}: expected one of {', '.join(SOURCES)}"
        )
    if args.full:
        return full_run(args)
    readings = parse_readings(args.options)
    if args.pairs is not None:
        return pairs_report(args)
    if args.differ is not None:
        return readings_differ(args, readings)
    if args.graph:
        return solve_one(args, readings)
    if args.board is not None or args.komi is not None:
        raise UsageError("--board and --komi go with --graph")
    max_points = flags.largest(args)
    if not 1 <= max_points <= MAX_ENUMERATED_POINTS:
        raise UsageError(f"--points must be 1..{MAX_ENUMERATED_POINTS}, got {max_points}")
    conjectures = selected(args.only)
    # the sums of a digraph and a stable one are counted as all digraphs of the size: an upper bound
    families = {
        c.family: family(c.family if c.family != "sums" else "digraphs", max_points, readings) for c in conjectures
    }
    total = check_budget(families, args.max_positions)
    print(f"source 000, {dc.FRAGMENT}; {total:,} arena positions", file=sys.stderr)
    results = run_conjectures(conjectures, max_points, readings)
    if args.pictures:
        write_pictures(results, args.pictures)
    document = {"source": "000_ca8046d90d75ceee.txt", "max_points": max_points, "readings": readings}
    document["conjectures"] = results
    flags.emit(args, document, table(results), indent=2)
    return 0


def full_run(args) -> int:
    """``--full``: the conjectures in the whole game, one table per reading."""
    if args.graph or args.differ or args.board is not None or args.komi is not None:
        raise UsageError("--full goes with --points, --pairs, --only, --option and --max-positions only")
    points = flags.largest(args)
    names = [c.name for c in selected(args.only)]
    document, text = full_report(names, points, args.pairs or 0, args.options, args.max_positions)
    flags.emit(args, document, text, indent=2)
    return 0
