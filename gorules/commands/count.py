"""``gorules count GRAPH``: legal positions, and on small graphs games and the game graph.

``gorules count grid:1xn`` (also ``grid:2xn``, ``grid:3xn``, ``cycle:n``) names a family
instead of one graph: it prints the family's transfer matrix size, first terms, shortest
linear recurrence, rational generating function and growth constant, derived with sympy.

The counting method is chosen from the graph: the packed, compiled frontier program row by
row on grids of at most 13 columns on their shorter side (``packed``), the frontier dynamic
program on exact integers along a vertex ordering with small vertex separation on other
undirected graphs (``dp``), and enumeration of all 3^n boards on tiny or directed graphs.
``--method`` overrides it; the method used is printed.

Budgets before work: the packed count's border states, time and memory are estimated from
the grid's width, printed, and set beside the largest number of states and the peak memory
measured; the dynamic program's time and memory are estimated from the
frontier of the ordering (a lower bound, the graph's degeneracy, is tried first, so that
``complete:200`` is refused at once); a count that would exceed the time budget
(``--seconds``, default 600) or the memory ceiling (``gorules --memory-limit``) is refused
with one line naming the flag, and one that runs out of time stops with the same kind of
line.

Progress: while it works, a bar on stderr follows the points placed (the steps of the packed
count and of the dynamic program) or, split by modulus, the primes done; it is drawn only
when stderr is a terminal, and never with ``--json`` or ``--no-progress``.

Split by modulus (``--workers N``, ``--scheduler ADDRESS`` or ``--db FILE``): the packed
count runs one task per prime (:mod:`gorules.modular_count`), on a local pool of worker
processes or on the Dask cluster at ADDRESS as ``gorules sweep`` does, each task keeping
one count a state; each finished residue is stored in the results database ``--db`` (a
rerun computes only the primes missing), the exact count is recombined by the Chinese
remainder theorem and checked against one prime more.  The estimate is per task; a task
that would exceed the memory ceiling, or its time budget ``--seconds``, is refused before
any work.  With ``--shards N`` the moduli are computed one after another on the cluster,
each with its states in N shards by ranges of their hash (:mod:`gorules.shard_tasks`), and
the estimate is per shard.
"""

from __future__ import annotations

import math
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from types import SimpleNamespace

from tqdm import tqdm

from gorules import flags, rulesets
from gorules.errors import BudgetRefused, UsageError
from gorules.game_estimates import add_estimate_arguments, estimate_result, games_estimate_text
from gorules.impl.counting.game_graph import game_graph
from gorules.impl.counting.games import SEARCH_LIMITS, search_kind
from gorules.impl.counting.longest import CONVENTIONS, longest
from gorules.impl.counting.packed import WIDEST, count_legal_grid, fits, packed_cost
from gorules.impl.counting.positions import (
    count_legal,
    degeneracy,
    dp_cost,
    enumerate_legal,
    frontier_sizes,
    good_ordering,
)
from gorules.modular_count import ModularCount, count_by_moduli, moduli_for, peak_memory
from gorules.processes import workers_for
from gorules.spec.api import Ruleset
from gorules.spec.graph import parse_graph, point_name
from gorules.store import Store

TINY = 6  # points: enumerate all boards
ENUMERATION_LIMIT = 16  # points: 3^16 ≈ 43 million boards is the most we enumerate
GAME_GRAPH_LIMIT = 16  # points
DEFAULT_SECONDS = 600.0
ENUMERATION_SECONDS_PER_BOARD = 2e-6
MOST_SHARDS = 1 << 16
PACKED_FROM = 6  # columns on the shorter side: narrower grids are counted faster on exact integers
GENERIC_NODES = 20_000_000
"""The situations the generic game count visits at most (a ruleset without ``count-games``)."""


def register(subparsers) -> None:
    """Add the ``count`` subcommand."""
    parser = subparsers.add_parser(
        "count",
        help="count legal positions (and on small graphs the games under a preset's ko and "
        "suicide rules, the longest game and the game graph)",
    )
    flags.add_graph(
        parser,
        help="a graph: grid:RxC, path:N, cycle:N, petersen, edges:0-1,... ; or a family "
        "grid:1xn, grid:2xn, grid:3xn, cycle:n for its recurrence and generating function",
    )
    parser.add_argument(
        "--method",
        choices=("auto", "packed", "dp", "enumerate"),
        default="auto",
        help="the compiled frontier program on packed states (grids of at most 13 columns on the shorter "
        "side), the frontier dynamic program on exact integers (any undirected graph), enumeration of all "
        "boards, or chosen from the graph (default)",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--game-graph",
        action="store_true",
        help="nodes and edges of the game graph (GoGameGraphs conventions)",
    )
    flags.add_seconds(
        parser,
        DEFAULT_SECONDS,
        reason="the counts of the largest graphs take minutes, and a count has no bounds to report when it stops",
        help="time budget: refuse a count estimated to take longer, stop one that does (split by modulus: "
        "each task's budget)",
    )
    add_split_arguments(parser)
    flags.add_no_progress(parser)
    flags.add_output(parser)
    parser.set_defaults(func=run)


def add_split_arguments(parser) -> None:
    """The flags of the packed count split by modulus, spelt as ``gorules sweep`` spells them."""
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="split the packed count by modulus: one task per prime on this many local worker processes "
        "(0: in this process; default with --db: as many as the cores)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="split the packed count by modulus: one task per prime on the Dask cluster at ADDRESS",
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="split the packed count by modulus, storing each residue in this SQLite results file as it is "
        "found; a rerun computes only the primes missing",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=1,
        metavar="N",
        help="with --scheduler: compute the moduli one after another, each with its states in N shards by ranges "
        "of their hash (N a power of two), each shard of each step a task on the cluster (default 1: one task "
        "per modulus)",
    )


def add_game_arguments(parser) -> None:
    """The options of --games and --longest: the rules, the longest game's convention, the limit."""
    parser.add_argument(
        "--games",
        action="store_true",
        help="count the games from the start under the ruleset: Tromp–Taylor's with the preset's ko and "
        "suicide options (simple ko and no ko: refused with a line of play that repeats forever, when "
        "there is one); a ruleset without the count-games capability, by following every line of play "
        "through the ruleset interface (finite games only), and without the engine capability, the games "
        "are all that is counted",
    )
    parser.add_argument(
        "--longest",
        action="store_true",
        help="find a longest game under positional superko (suicide as the preset says)",
    )
    parser.add_argument(
        "--convention",
        choices=CONVENTIONS,
        default="turns",
        help="how --longest measures a game: 'turns' (default) counts every turn of the Tromp–Taylor game, "
        "passes included (the passes between two moves of one colour, before a White first move, and the "
        "two that end it); 'gogamegraphs' counts stone moves only, colours free, passes not counted: the "
        "length in edges of the longest simple path from the empty position in the game graph, as "
        "Farnebäck's GoGameGraphs tables give it (1×3: 14, 1×4: 40)",
    )
    add_estimate_arguments(parser)
    flags.add_ruleset_flags(parser)
    parser.add_argument(
        "--max-positions",
        type=int,
        default=None,
        metavar="N",
        help="let --games and --longest search boards with up to N legal positions (the default and the "
        "largest allowed depend on the search; a refusal names both)",
    )


def require_searchable(graph, what: str, positions: int, kind: str, requested: int | None) -> None:
    """Refuse a game search over the limit of its kind (raised by --max-positions up to the
    largest the search can take), naming the measured cost and the flag."""
    default, largest, measured = SEARCH_LIMITS[kind]
    if requested is not None and requested > largest:
        raise UsageError(f"--max-positions {requested} is over the largest the {kind} search takes, {largest}")
    limit = requested if requested is not None else default
    if positions <= limit:
        return
    if positions > largest:
        hint = "; estimate the games instead with --estimate N" if what == "--games" else ""
        raise BudgetRefused(
            f"{what} on {graph.name} is refused: it has {positions:,} legal positions and the {kind} search "
            f"cannot take more than {largest} ({measured}){hint}"
        )
    raise BudgetRefused(
        f"{what} on {graph.name} is refused: it has {positions:,} legal positions, over the limit of {limit} "
        f"({measured}); raise it with --max-positions {positions}"
    )


def games_result(graph, ruleset: Ruleset, positions: int | None, args) -> dict:
    """{"games", "options"} for --games by the ruleset's ``count-games`` capability, else
    the generic count through the interface (``games_method``: generic); a one-line refusal
    naming the capability when neither applies."""
    from gorules.impl.counting.repeating import InfiniteGames

    if args.estimate is not None:
        return estimate_result(graph, ruleset, positions, args)
    counter = ruleset.capability("count-games")
    if counter is None:
        return generic_games(graph, ruleset)
    engine = ruleset.capability("engine")
    label = ruleset.describe()
    if engine is not None and positions is not None:
        options = engine(ruleset)
        require_searchable(graph, "--games", positions, search_kind(options.ko), args.max_positions)
        label = f"ko={options.ko} suicide={options.suicide}"
    try:
        found = counter(ruleset, graph)
    except InfiniteGames as infinite:
        raise UsageError(str(infinite)) from None
    return {"games": found.games, "options": label}


def generic_games(graph, ruleset: Ruleset) -> dict:
    """The games of a finite ruleset counted through the interface, each line of play
    followed to its end (memoised on situations), within :data:`GENERIC_NODES` nodes."""
    from gorules.impl.solving.search import SearchError
    from gorules.impl.solving.search import count_games as count_through_interface

    if not ruleset.finite:
        raise UsageError(
            f"counting the games is refused: {ruleset.capability_gap('count-games')}, and the generic count needs a finite "
            f"game, which {ruleset.describe()} is not"
        )
    try:
        games = count_through_interface(ruleset.initial(graph), max_nodes=GENERIC_NODES)
    except SearchError as error:
        raise BudgetRefused(
            f"--games on {graph.name}: {error} (the generic count; no count-games capability)"
        ) from None
    return {"games": games, "options": ruleset.describe(), "games_method": "generic"}


def longest_result(graph, options, positions: int, args) -> dict:
    """{"longest_game": ...} for --longest, or a one-line refusal."""
    if options.ko != "positional":
        raise UsageError(f"--longest is computed under positional superko only, not ko={options.ko}")
    require_searchable(graph, "--longest", positions, "longest", args.max_positions)
    found = longest(graph, args.convention, options.suicide)
    return {
        "longest_game": {
            "convention": args.convention,
            "length": found.length,
            "turns": len(found.moves),
            "stone_moves": found.stone_moves,
            "options": f"ko={options.ko} suicide={options.suicide}",
            "moves": [m if m == "pass" else point_name(graph, m) for m in found.moves],
        }
    }


def memory_ceiling() -> float:
    """The bytes this process may still use: its address-space limit, else the machine's memory."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            return float(soft)
    except (ImportError, ValueError, OSError):
        pass
    from gorules.cli import machine_memory

    return float(machine_memory() or math.inf)


def refuse_if_too_costly(graph, cost, seconds: float, what: str) -> None:
    """BudgetRefused naming the flag to raise when the estimate exceeds time or memory."""
    if cost.bytes > memory_ceiling():
        raise BudgetRefused(
            f"counting {graph.name} is refused: {what} needs about {cost.bytes / 1e9:,.3g} GB, "
            f"more than the memory ceiling of {memory_ceiling() / 1e9:,.3g} GB (raise it with gorules --memory-limit)"
        )
    if cost.seconds > seconds:
        raise BudgetRefused(
            f"counting {graph.name} is refused: {what} is estimated at {cost.seconds:,.3g} s, "
            f"beyond the time budget of {seconds:g} s (raise it with --seconds)"
        )


class Deadline:
    """A progress bar's stand-in that also stops the count when the time budget runs out."""

    def __init__(self, graph, bar, seconds: float):
        self.graph, self.bar, self.seconds = graph, bar, seconds
        self.started = time.perf_counter()
        self.done = 0

    def update(self, steps: int = 1) -> None:
        """One more point placed; BudgetRefused once the budget is spent."""
        self.done += steps
        self.bar.update(steps)
        if time.perf_counter() - self.started > self.seconds:
            raise BudgetRefused(
                f"counting {self.graph.name} stopped: the time budget of {self.seconds:g} s ran out after "
                f"{self.done} of {self.graph.order} points (raise it with --seconds)"
            )


def split_by_modulus(args) -> bool:
    """Whether the count is asked for split by modulus (a flag of :func:`add_split_arguments`)."""
    return args.workers is not None or bool(args.scheduler) or args.db is not None or args.shards != 1


def choose_split_method(graph, requested: str) -> str:
    """The packed method, the only one a count split by modulus runs; UsageError otherwise."""
    if graph.is_grid and not graph.directed and min(graph.shape) > WIDEST:
        raise UsageError(
            f"{graph.name} is refused: {min(graph.shape)} columns on the shorter side, and a border state of the "
            f"packed count is one 64-bit word, 29 codes a column, which holds {WIDEST} columns "
            "(docs/counting-table.md says what a wider grid would take)"
        )
    if requested not in ("auto", "packed") or not fits(graph):
        raise UsageError(
            f"--workers, --scheduler and --db split the packed count by modulus, which takes undirected grids "
            f"only; {graph.name} is counted by --method dp or enumerate in one process"
        )
    return "packed"


def choose_method(graph, requested: str) -> str:
    """The counting method for a graph: the one requested, or the natural one."""
    if requested == "dp" and graph.directed:
        raise UsageError(
            f"{graph.name} is directed: the dynamic program needs an undirected graph; use --method enumerate"
        )
    if requested == "packed" and not fits(graph):
        raise UsageError(
            f"{graph.name} is not an undirected grid of at most 13 columns on its shorter side: "
            "the packed count takes only those; use --method dp"
        )
    if requested != "auto":
        return requested
    if graph.directed or (graph.order <= TINY and not graph.is_grid):
        return "enumerate"
    if fits(graph) and min(graph.shape) >= PACKED_FROM:
        return "packed"
    return "dp"


def legal_positions(graph, method: str, show_progress: bool, seconds: float = DEFAULT_SECONDS) -> tuple[int, dict]:
    """The number of legal positions by a method, with facts about how it was found; refused
    before any work when the estimate exceeds the time budget or the memory ceiling."""
    if method == "enumerate":
        if graph.order > ENUMERATION_LIMIT:
            raise UsageError(
                f"{graph.name} has {graph.order} points: enumeration stops at {ENUMERATION_LIMIT} points; "
                "use --method dp"
            )
        estimate = ENUMERATION_SECONDS_PER_BOARD * 3**graph.order
        if estimate > seconds:
            raise BudgetRefused(
                f"counting {graph.name} is refused: enumerating its {3**graph.order:,} boards is estimated at "
                f"{estimate:,.0f} s, beyond the time budget of {seconds:g} s (raise it with --seconds)"
            )
        return enumerate_legal(graph), {"method": "enumerate"}
    if method == "packed":
        return packed_positions(graph, show_progress, seconds)
    least = degeneracy(graph)  # every ordering has a frontier at least this wide, for a step at least
    refuse_if_too_costly(graph, dp_cost([least]), seconds, f"a frontier of at least {least} points")
    order = good_ordering(graph)
    sizes = frontier_sizes(graph, order)
    width = max(sizes, default=0)
    refuse_if_too_costly(graph, dp_cost(sizes), seconds, f"the dynamic program (frontier {width})")
    with tqdm(total=graph.order, desc="count", unit="point", file=sys.stderr, disable=not show_progress) as bar:
        count = count_legal(graph, order, progress=Deadline(graph, bar, seconds))
    return count, {"method": "dp", "frontier": width}


def packed_positions(graph, show_progress: bool, seconds: float) -> tuple[int, dict]:
    """The legal positions of a grid by the packed count, refused before any work when its
    estimate exceeds the time budget or the memory ceiling; the estimate is reported beside
    the states and peak memory measured."""
    cost = packed_cost(graph)
    refuse_if_too_costly(
        graph, cost, seconds, f"the packed count (width {cost.width}, about {cost.states:,.0f} states)"
    )
    if show_progress:
        print(estimate_text(cost), file=sys.stderr)
    with tqdm(total=graph.order, desc="count", unit="point", file=sys.stderr, disable=not show_progress) as bar:
        count, largest = count_legal_grid(graph, progress=Deadline(graph, bar, seconds))
    how = {
        "method": "packed",
        "frontier": cost.width,
        "estimate": {"states": round(cost.states), "bytes": round(cost.bytes), "seconds": round(cost.seconds, 3)},
        "states": largest,
        "peak_bytes": peak_memory(),
    }
    return count, how


def estimate_text(cost, per: str = "") -> str:
    """The packed count's estimate (``per``: of what, when not of the whole count), one line."""
    return (
        f"estimate         {per}about {cost.states:,.0f} border states, {cost.bytes / 1e9:,.3g} GB, "
        f"{cost.seconds:,.3g} s"
    )


def split_how(split: dict) -> str:
    """How a split count was computed, for the legal positions line."""
    if split.get("shards", 1) == 1:
        return ", one task per prime"
    return f", one prime after another in {split['shards']} shards"


def per_task(shards: int) -> str:
    """What a split count's estimate is of: a task, or a shard of a modulus."""
    return "per task: " if shards == 1 else "per shard: "


def check_split_arguments(args) -> None:
    """UsageError, before any work, for a negative --workers or a --db that cannot be written."""
    if args.workers is not None and args.workers < 0:
        raise UsageError("--workers must be 0 or more")
    if not 1 <= args.shards <= MOST_SHARDS or args.shards & (args.shards - 1):
        raise UsageError(f"--shards must be a power of two from 1 to {MOST_SHARDS}, not {args.shards}")
    if args.shards > 1 and not args.scheduler:
        raise UsageError("--shards runs the shards of a modulus on a Dask cluster: give --scheduler ADDRESS")
    if args.db is None:
        return
    problem = "it names standard output" if args.db == flags.STDOUT else flags.output_problem(args.db)
    if problem:
        raise UsageError(f"--db {args.db!r} cannot hold the results: {problem}")


def refuse_split_if_too_costly(graph, cost, tasks_at_once: int, seconds: float, shards: int = 1) -> None:
    """BudgetRefused naming the flag when one task (one shard of a modulus), or the local
    tasks that run at once, exceed the memory ceiling, or a task its time budget."""
    task = "one task" if shards == 1 else f"one of {shards} shards of a modulus"
    refuse_if_too_costly(
        graph,
        cost,
        seconds,
        f"{task} of the packed count split by modulus (width {cost.width}, about {cost.states:,.0f} states, "
        "one count a state)",
    )
    if tasks_at_once * cost.bytes > memory_ceiling():
        raise BudgetRefused(
            f"counting {graph.name} is refused: {tasks_at_once} tasks at once need about "
            f"{tasks_at_once * cost.bytes / 1e9:,.3g} GB, more than the memory ceiling of "
            f"{memory_ceiling() / 1e9:,.3g} GB (lower --workers)"
        )


def split_positions(graph, args, show_progress: bool) -> tuple[int | None, dict]:
    """The legal positions of a grid by the packed count split by modulus (None when a
    residue is missing or the check disagrees), refused before any work when one task's
    estimate exceeds the time budget or the memory ceiling."""
    moduli = moduli_for(graph)
    cost = packed_cost(graph, moduli=1, shards=args.shards)
    at_once = 1 if args.scheduler or args.workers == 0 else workers_for(args.workers, len(moduli.primes))
    refuse_split_if_too_costly(graph, cost, at_once, args.seconds, args.shards)
    if show_progress:
        print(estimate_text(cost, per_task(args.shards)) + f"; {len(moduli.primes)} moduli", file=sys.stderr)
    with Store(args.db) if args.db else nullcontext() as store:
        stored = len(store.residues(graph.name)) if store is not None else 0
        progress = tqdm(
            total=len(moduli.primes),
            initial=stored,
            desc="count",
            unit="prime",
            file=sys.stderr,
            disable=not show_progress,
        )
        with progress as bar:
            found = count_by_moduli(
                graph,
                args.seconds,
                store,
                args.scheduler,
                args.workers,
                lambda _: bar.update(1),
                args.shards.bit_length() - 1,
            )
    return found.count(), split_facts(found, cost, args)


def split_facts(found: ModularCount, cost, args) -> dict:
    """What the JSON and the text say of a count split by modulus."""
    ran = len(found.computed) + len(found.lost)
    if ran == 0:
        where = "no worker (every residue from the database)"
    elif args.scheduler:
        where = f"the Dask cluster at {args.scheduler}"
        where += f", each modulus in {args.shards} shards by ranges of the state hash" if args.shards > 1 else ""
    elif args.workers == 0:
        where = "this process"
    else:
        where = f"a local pool of {workers_for(args.workers, ran)} worker processes"
    tasks = [
        {
            "prime": p,
            "residue": r.residue,
            "seconds": round(r.seconds, 3),
            "states": r.states,
            "peak_bytes": found.peaks.get(p),
            "from_database": p in found.from_database,
        }
        for p, r in sorted(found.residues.items(), key=lambda item: found.moduli.primes.index(item[0]))
    ]
    peaks = [b for b in found.peaks.values() if b is not None]
    return {
        "method": "packed",
        "frontier": cost.width,
        "split": {
            "by": "modulus",
            "shards": args.shards,
            "on": where,
            "database": args.db,
            "moduli": list(found.moduli.needed),
            "check_prime": found.moduli.check,
            "from_database": found.from_database,
            "computed_now": found.computed,
            "lost": [{"prime": p, "reason": why} for p, why in found.lost.items()],
            "check": found.check(),
            "tasks": tasks,
        },
        "estimate": {"states": round(cost.states), "bytes": round(cost.bytes), "seconds": round(cost.seconds, 3)},
        "states": max((r.states for r in found.residues.values()), default=0),
        "peak_bytes": max(peaks, default=None),
    }


def family_system(text: str):
    """The transfer system of a family named ``grid:Kxn`` (K = 1..4) or ``cycle:n``, or None."""
    from gorules.impl.counting.transfer import cycle_system, strip_system

    name = text.strip().lower()
    if name == "cycle:n":
        return cycle_system()
    match = re.fullmatch(r"grid:(\d+)x[n]|grid:[n]x(\d+)", name)
    if not match:
        return None
    rows = int(match.group(1) or match.group(2))
    if not 1 <= rows <= 4:
        raise UsageError(f"{text}: transfer matrices are built for strips of 1 to 4 rows")
    return strip_system(rows)


def run_family(system, args) -> int:
    """Derive and print what sympy finds for a family of strips or cycles."""
    from gorules.impl.counting.transfer import derivation_text, derive

    d = derive(system)
    data = {
        "family": d.name,
        "first_size": d.first,
        "border_states": d.states,
        "terms": d.terms[:12],
        "recurrence": d.recurrence,
        "recurrence_text": d.recurrence_text(),
        "characteristic_polynomial": str(d.characteristic),
        "generating_function": str(d.generating_function),
        "growth_constant": d.growth_value,
    }
    flags.emit(args, data, derivation_text(d))
    return 0


def run(args) -> int:
    """Count and print."""
    system = family_system(args.graph) if isinstance(args.graph, str) else None
    if system is not None:
        return run_family(system, args)
    graph = parse_graph(args.graph)
    ruleset = rulesets.from_arguments(args)
    engine = ruleset.capability("engine")
    if engine is None:
        return run_games(graph, ruleset, args)
    split = split_by_modulus(args)
    if split:
        check_split_arguments(args)
        choose_split_method(graph, args.method)
    else:
        method = choose_method(graph, args.method)
    show_progress = flags.shows_progress(args)
    start = time.perf_counter()
    if split:
        legal, how = split_positions(graph, args, show_progress)
    else:
        legal, how = legal_positions(graph, method, show_progress, args.seconds)
    result = {"graph": graph.name, "points": graph.order, "legal_positions": legal, **how}
    if legal is None:
        result["seconds"] = round(time.perf_counter() - start, 3)
        flags.emit(args, result, text(result))
        return 1
    if args.games:
        result.update(games_result(graph, ruleset, legal, args))
    if args.longest:
        result.update(longest_result(graph, engine(ruleset), legal, args))
    if args.game_graph:
        if graph.order > GAME_GRAPH_LIMIT:
            raise UsageError(f"--game-graph on {graph.name} is refused: it stops at {GAME_GRAPH_LIMIT} points")
        result["game_graph"] = game_graph(graph).summary()
    result["seconds"] = round(time.perf_counter() - start, 3)
    with long_integers():
        flags.emit(args, result, text(result))
    return 0


def run_games(graph, ruleset: Ruleset, args) -> int:
    """Count the games of a ruleset without the ``engine`` capability (its legal positions,
    longest game and game graph are the engine's, refused naming the capability)."""
    asked = [flag for flag, given in (("--longest", args.longest), ("--game-graph", args.game_graph)) if given]
    if args.method != "auto":
        asked.append("--method")
    if asked:
        raise UsageError(
            f"{asked[0]} is refused: {ruleset.capability_gap('engine')} (legal positions, the longest game and "
            "the game graph are the Tromp–Taylor engine's); the games are counted without it"
        )
    start = time.perf_counter()
    result = {
        "graph": graph.name,
        "points": graph.order,
        "ruleset": ruleset.name,
        **games_result(graph, ruleset, None, args),
    }
    result["seconds"] = round(time.perf_counter() - start, 3)
    with long_integers():
        flags.emit(args, result, text(result))
    return 0


@contextmanager
def long_integers() -> Iterator[None]:
    """Let exact counts of any length be written out (Python refuses to convert integers of
    more than 4,300 digits to text by default, to guard parsing; the count is already made)."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: None)()
    if limit is None:
        yield
        return
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def text(result: dict) -> str:
    """The result for people, one fact a line."""
    lines = [f"graph            {result['graph']} ({result['points']} points)"]
    split = result.get("split")
    if "legal_positions" in result:
        how = f"by {result['method']}" + (split_how(split) if split else "")
        how += f", frontier {result['frontier']}" if "frontier" in result else ""
        legal = result["legal_positions"]
        shown = f"{legal:,}" if legal is not None else "not known (see below)"
        lines.append(f"legal positions  {shown}  ({how})")
    if split:
        lines += split_lines(split)
    if "estimate" in result:
        lines.append(estimate_text(SimpleNamespace(**result["estimate"]), per_task(split["shards"]) if split else ""))
        peak = "" if result["peak_bytes"] is None else f", peak memory {result['peak_bytes'] / 1e9:,.3g} GB"
        lines.append(f"measured         {result['states']:,} border states at most{peak}")
    if "games" in result:
        how = ", counted through the ruleset interface" if result.get("games_method") == "generic" else ""
        lines.append(f"games            {result['games']:,}  ({result['options']}{how})")
    if "games_estimate" in result:
        lines.append(games_estimate_text(result["games_estimate"]))
    if "longest_game" in result:
        lines.append(longest_text(result["longest_game"]))
    if "game_graph" in result:
        gg = result["game_graph"]
        lines.append(f"game graph       {gg['nodes']:,} nodes, {gg['edges']:,} edges")
    lines.append(f"time             {result['seconds']:.2f} s")
    return "\n".join(lines)


def needed(split: dict) -> str:
    """``the 3 primes needed`` (or ``prime``), as the check line says it."""
    count = len(split["moduli"])
    return f"{count} prime{'s' if count > 1 else ''} needed"


def split_lines(split: dict) -> list[str]:
    """The lines of a count split by modulus: where it ran, each prime's residue and whence,
    the check against the extra prime, and what is missing."""
    lines = [
        f"split            by modulus, on {split['on']}"
        + (f", residues in {split['database']}" if split["database"] else "")
    ]
    for task in split["tasks"]:
        role = "check " if task["prime"] == split["check_prime"] else ""
        whence = "from the database" if task["from_database"] else f"computed in {task['seconds']:,.1f} s"
        peak = "" if task["peak_bytes"] is None else f", worker peak {task['peak_bytes'] / 1e9:,.3g} GB"
        lines.append(
            f"  {role}mod {task['prime']}  residue {task['residue']}  ({whence}, {task['states']:,} states{peak})"
        )
    for lost in split["lost"]:
        lines.append(f"  mod {lost['prime']}  missing: {lost['reason']} (a rerun with the same --db computes it)")
    check = split["check"]
    if check is None:
        lines.append("check            not made: a residue is missing")
    elif check["agrees"]:
        lines.append(
            f"check            the count recombined from the {needed(split)} is "
            f"{check['count_modulo']} modulo the check prime {check['prime']}, its residue: they agree"
        )
    else:
        lines.append(
            f"check            FAILED: the count recombined from the {needed(split)} is "
            f"{check['count_modulo']} modulo the check prime {check['prime']}, whose residue is {check['residue']}: "
            "a residue is wrong (a stored one? count again with another --db)"
        )
    return lines


def longest_text(found: dict) -> str:
    """The longest-game line: its length in the convention asked for, then the game."""
    unit = "turns" if found["convention"] == "turns" else "stone moves (GoGameGraphs)"
    return f"longest game     {found['length']} {unit}, {found['options']}: {' '.join(found['moves'])}"
