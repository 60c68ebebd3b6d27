"""``gorules solve GRAPH``: the perfect-play value of a game of any two-player ruleset.

The search runs within a budget (``--seconds``, ``--nodes``) and shows its progress on
stderr: the test it is running (depth of the iterative deepening, or the full search),
nodes per second and the bounds proved so far.  When the budget runs out under the
Tromp–Taylor ruleset it prints status ``bounds`` with the proven lower and upper bounds
and exits 0; ``--certificate FILE`` writes the proof of the value (checked by
``gorules check-certificate FILE``).
"""

from __future__ import annotations

import contextlib
import json
import numbers
import sys
from fractions import Fraction
from typing import Any

from gorules import flags, rulesets, situations
from gorules.arguments import worker_count
from gorules.conjectures import as_number
from gorules.errors import UsageError
from gorules.impl.formats.files import write_atomically, write_text_atomically
from gorules.impl.rulesets.political.best_play import CONCEPTS
from gorules.impl.solving.budget import Budget
from gorules.impl.solving.certificate import MAX_POSITIONS
from gorules.impl.solving.certificate_lines import lines
from gorules.impl.solving.search import SearchError, Solution, SolveRequest, solve
from gorules.impl.solving.solve import DESCENTS, MAX_POINTS
from gorules.impl.solving.split import default_jobs
from gorules.point_names import coordinate_system
from gorules.records import line_record

DEFAULT_SECONDS = 120.0
DEFAULT_NODES = 50_000_000


def register(subparsers) -> None:
    """Add the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a small graph exactly under any two-player ruleset: perfect-play value and a principal variation",
    )
    flags.add_graph(parser)
    flags.add_ruleset_flags(parser)
    flags.add_seconds(
        parser,
        DEFAULT_SECONDS,
        help="time budget; when it runs out the proven bounds are reported",
    )
    flags.add_nodes(parser, DEFAULT_NODES)
    flags.add_max_points(
        parser,
        MAX_POINTS,
        reason="the largest boards ever solved, rectangles of 30 intersections; smaller graphs run within the "
        "budget and give the value or proven bounds; analyse and fundamental-score stop at 7 and prove at 16, "
        "where their own methods reach",
    )
    parser.add_argument(
        "--core",
        choices=("python", "compiled"),
        help="the core of the Tromp–Taylor solver's threshold tests and of the Ultimate and Fundamental "
        "yes/no searches (default: compiled, numba, where it applies: Tromp–Taylor under superko rules on "
        "undirected graphs; Ultimate and Fundamental Go: python for 50,000 nodes, then compiled on graphs of at "
        "most 7 points; python elsewhere)",
    )
    parser.add_argument(
        "--search",
        choices=("deepening", "dfpn"),
        help="how the compiled core decides each threshold test: iterative deepening then a proof search "
        "without horizon (deepening), or depth-first proof-number search (dfpn); default: dfpn",
    )
    parser.add_argument(
        "--territory",
        action="store_true",
        help="count the secure regions of alive stones in the static bounds (checked on small graphs, "
        "not proved sound under superko; default: their one-point eyes only)",
    )
    parser.add_argument(
        "--jobs",
        type=worker_count,
        help="worker processes over which a Tromp–Taylor df-pn test that resists is split; they share the "
        "solving process's table of answers and each copies its private arrays, and a number that does not fit "
        f"in memory is refused, and more than the machine's cores ({default_jobs()}) are capped to them (default: "
        "the cores, as many as fit; 1: one process, no split)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="split the Tromp–Taylor df-pn tests that resist over the Dask cluster at ADDRESS instead of "
        "forked processes: each leaf of a split test a task, each worker keeping its own table from leaf to "
        "leaf; a task whose worker dies is run again (not with --jobs)",
    )
    parser.add_argument(
        "--descent",
        choices=DESCENTS,
        help="how the Tromp–Taylor tests walk down from the upper bound in their turns: the upper bound "
        "itself, one point per failed test (step, the default), or the middle of the bounds proved so far "
        "(bisect: a failed test halves them; for wide bounds such as 4×4's)",
    )
    parser.add_argument(
        "--concept",
        choices=CONCEPTS,
        help="games of several players (political): the solution concept of best play, max-n (each player "
        "maximises eir own score) or paranoid (the first player against all the others); default max-n",
    )
    parser.add_argument(
        "--horizon",
        type=int,
        metavar="MOVES",
        help="games of several players (political): the moves best play looks ahead (default 6)",
    )
    flags.add_output_path(
        parser,
        "--certificate",
        "write the proof of the value, a JSON value a line (- for stdout, a device or FIFO in place)",
    )
    flags.add_output_path(
        parser,
        "--sgf",
        "write the principal variation as a game record: SGF (GM[1]) on a square grid under a ruleset "
        "SGF can hold, else the gorules form that play --record writes; replay-sgf reads both",
    )
    parser.add_argument(
        "--certificate-positions",
        metavar="N",
        type=int,
        default=MAX_POSITIONS,
        help="the most positions the certificate may have: beyond, no file is written and the command "
        f"exits 2 (default {MAX_POSITIONS:,}; the writer holds them all in memory)",
    )
    flags.add_no_progress(parser)
    flags.add_output(parser)
    situations.add_argument(parser)
    parser.set_defaults(func=flags.printing_to_out(run))


def report(solution: Solution, ruleset, graph) -> dict:
    """The solution as JSON-able data (with :func:`json_number` for rational numbers), moves by
    name; a solver that states the fragment of the game it solved (``details["fragment"]``:
    source 000's infinite game, best play for several players) has its details carried whole."""
    data = {
        "graph": solution.graph,
        "ruleset": solution.ruleset,
        "preset": ruleset.preset,
        "options": solution.options,
        "status": solution.status,
        "value": as_number(solution.value) if solution.value is not None else None,
        "lower": as_number(solution.lower) if solution.lower is not None else None,
        "upper": as_number(solution.upper) if solution.upper is not None else None,
        "principal_variation": [ruleset.move_text(graph, m) for m in solution.principal_variation],
        "coordinates": coordinate_system(ruleset),
        "principal_variation_cut": solution.details.get("principal_variation"),
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 4),
        "nodes_per_second": round(solution.nodes_per_second),
        "method": solution.method,
        "core": solution.details.get("core"),
        "search": solution.details.get("search"),
        "territory": solution.details.get("territory"),
        "compile_seconds": round(solution.details.get("compile_seconds", 0.0), 4),
        "jobs": solution.details.get("jobs"),
        "scheduler": solution.details.get("scheduler"),
        "descent": solution.details.get("descent"),
        "splits": solution.details.get("splits"),
        "note": solution.note,
    }
    if "fragment" in solution.details:
        data["details"] = solution.details
    return data


def json_number(value):
    """A rational number in JSON: an integer when whole, else its fraction as text (``-1/2``)."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def numeric(value) -> bool:
    """Whether a value is a score (Tromp–Taylor, Fundamental Go, source 000), not an outcome word
    (B, draw, W) or several players' scores."""
    return isinstance(value, numbers.Real)


def shown(value) -> str:
    """A value as the text output writes it: a score with its sign (+9, -0.5), an outcome as
    its word, a bound not proved as an ellipsis."""
    if value is None:
        return "…"
    if isinstance(value, Fraction):
        return ("+" if value >= 0 else "") + str(value)
    return f"{value:+g}" if numeric(value) else str(value)


def value_text(value, details: dict) -> str:
    """The value in words: a number for Black, with the perfect komi and the stability class
    where the solver found them (source 000); several players' scores under the concept and
    horizon of best play; an outcome as its word."""
    if isinstance(value, dict):
        scores = ", ".join(f"{player} {score}" for player, score in value.items())
        text = f"best play under {details['concept']} (horizon {details['horizon']}): scores {scores}"
        if details.get("root") is not None:
            text += f"; {details['root']} can make sure of {details['guaranteed']}"
        return text
    text = f"value {shown(value)}" + (" for Black" if numeric(value) else "")
    if "perfect_komi" in details:
        text += f"; perfect komi {', '.join(details['perfect_komi']) or 'none'}"
    if "stability" in details:
        readings = " ".join(f"{name}={reading}" for name, reading in details.get("readings", {}).items())
        text += f"; stability class {details['stability']}" + (f", under {readings}" if readings else "")
    return text


def write_certificate(path: str, certificate: dict) -> None:
    """Write the certificate to ``path`` whole or not at all, in lines (format 4,
    ``certificate_lines``), a line at a time: its million positions never become one string."""

    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as out:
            out.writelines(lines(certificate))

    write_atomically(path, write)


def write_line_record(path: str, start, solution) -> None:
    """Write the principal variation from ``start`` as a game record (``gorules.records``),
    with the value as its result when the value is exact."""
    value = solution.value if solution.status == "exact" else None
    write_text_atomically(path, line_record(start, list(solution.principal_variation), value))


def variation_text(result: dict, details: dict) -> str:
    """The principal variation: its moves (each with its player where the solver names them),
    the turns that repeat for ever after a bar, or where the line was cut short."""
    moves = result["principal_variation"]
    if "movers" in details:
        moves = [f"{player} {move}" for player, move in zip(details["movers"], moves)]
    repeating = details.get("cycle")
    if repeating:
        return " ".join(moves[:-repeating]) + " | repeat " + " ".join(moves[-repeating:])
    cut = result["principal_variation_cut"]
    return " ".join(moves) + (f" … ({cut})" if cut else "")


class Progress:
    """A tqdm bar on stderr fed by the solver: nodes, nodes/s, the test running, the bounds."""

    def __init__(self, komi: float):
        """No bar yet: it appears with the solver's first report, so that a solve refused
        before it starts prints its one line alone; bounds are shown for Black with ``komi``
        taken off."""
        self.komi = komi
        self.bar: Any = None
        self.shown = 0

    def __call__(self, solver) -> None:
        """Show the solver's nodes, its current test and the bounds proved so far."""
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=None, unit=" nodes", unit_scale=True, file=sys.stderr, leave=False, mininterval=0.5)
        self.bar.update(solver.nodes - self.shown)
        self.shown = solver.nodes
        if getattr(solver, "phase", None) == "compiling":
            self.bar.set_postfix_str("compiling the core (numba; once after an install)", refresh=True)
            return
        if not hasattr(solver, "black_bounds"):  # the interface's alpha-beta proves no bounds on the way
            self.bar.set_postfix_str("alpha-beta", refresh=False)
            return
        lower, upper = solver.black_bounds()
        test = "full" if getattr(solver, "search_kind", None) != "dfpn" else "df-pn"
        if solver.depth is not None:
            test = f"depth {solver.depth}"
        self.bar.set_postfix_str(f"{test}, bounds [{lower - self.komi:+g}, {upper - self.komi:+g}]", refresh=False)

    def close(self) -> None:
        """Remove the bar, if it appeared."""
        if self.bar is not None:
            self.bar.close()


def run(args) -> int:
    """Solve the game from the ruleset's start and print the value (or the bounds), the
    principal variation, the effort; write the certificate if asked."""
    from gorules.spec.graph import parse_graph

    if args.nodes <= 0:
        raise UsageError(f"--nodes must be at least 1, got {args.nodes}")
    if args.certificate_positions <= 0:
        raise UsageError(f"--certificate-positions must be at least 1, got {args.certificate_positions}")
    if args.scheduler and args.jobs is not None:
        raise UsageError("--jobs and --scheduler: the split tests run in forked processes or on the cluster, not both")
    if args.sgf == flags.STDOUT and args.certificate == flags.STDOUT:
        raise UsageError("--certificate - and --sgf - both ask for stdout: send one of them to a file")
    graph = parse_graph(args.graph)
    ruleset = rulesets.from_arguments(args)
    if graph.order > args.max_points:
        raise UsageError(
            f"{graph.name} has {graph.order} points: the solver takes at most {args.max_points} "
            "(raise the limit with --max-points)"
        )
    start = situations.read(ruleset, graph, args.situation)
    progress = None if args.no_progress else Progress(getattr(ruleset.options, "komi", 0))
    request = SolveRequest(
        budget=Budget(seconds=args.seconds, nodes=args.nodes),
        max_points=args.max_points,
        progress=progress,
        bounds_on_budget=True,
        certify=bool(args.certificate),
        certificate_positions=args.certificate_positions,
        jobs=args.jobs,
        tuning={
            "core": args.core,
            "search": args.search,
            "territory": args.territory,
            "descent": args.descent,
            "scheduler": args.scheduler,
            "concept": args.concept,
            "horizon": args.horizon,
        },
    )
    try:
        solution = solve(start, request)
    except SearchError as error:
        raise UsageError(str(error)) from error
    finally:
        if progress is not None:
            progress.close()
    if args.certificate and solution.certificate is not None:
        write_certificate(args.certificate, solution.certificate)
    if args.sgf:
        write_line_record(args.sgf, start, solution)
    result = report(solution, ruleset, graph)
    if args.sgf == flags.STDOUT:  # stdout holds the record alone; the report goes to stderr
        with contextlib.redirect_stdout(sys.stderr):
            return show(args, solution, result, ruleset, graph)
    if args.certificate == flags.STDOUT and solution.certificate is not None:
        # stdout holds the certificate alone, its lines each ending in a newline; the report goes to stderr
        with contextlib.redirect_stdout(sys.stderr):
            return show(args, solution, result, ruleset, graph)
    return show(args, solution, result, ruleset, graph)


def show(args, solution, result: dict, ruleset, graph) -> int:
    """Print the solve's report (JSON with ``--json``); the exit code, 0."""
    if args.json:
        print(json.dumps(result, default=json_number))
        return 0
    if solution.status == "bounds":
        stopped = solution.details.get("stopped") or "the budget ran out"
        print(
            f"{graph.name} under {ruleset.describe()}: status bounds, value in "
            f"[{shown(result['lower'])}, {shown(result['upper'])}] for Black ({stopped}; raise --seconds / --nodes)"
        )
    else:
        print(f"{graph.name} under {ruleset.describe()}: {value_text(result['value'], solution.details)}")
        print("principal variation: " + variation_text(result, solution.details))
    print(
        f"{solution.nodes} nodes in {solution.seconds:.2f}s ({result['nodes_per_second']} nodes/s); {solution.method}"
    )
    if result["scheduler"]:
        print(f"split tests: on the Dask cluster at {result['scheduler']} ({result['jobs']} worker threads)")
    if result["compile_seconds"] >= 1:
        print(
            f"before the search: {result['compile_seconds']:.1f}s readying the compiled core (numba compiles it once, then loads it)"
        )
    if solution.note:
        print(f"note: {solution.note}")
    if args.certificate and solution.certificate is not None:
        print(f"certificate: {args.certificate} ({len(solution.certificate['nodes'])} positions)")
    elif args.certificate:
        print("certificate: not written (the value was not found within the budget)")
    return 0
