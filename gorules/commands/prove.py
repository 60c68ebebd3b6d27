"""``gorules prove``: prove the source's theorems with Z3, or show a counterexample.

    gorules prove [THEOREM] (--graph G | --all-graphs N [--directed] | --unbounded [--directed])
                  [--as-written] [--mutant NAME] [--encoding NAME] [--json]
                  [--pictures DIR | --picture PATH] [--seconds S] [--max-points N] [--out FILE]

Without THEOREM every registered theorem runs.  ``--unbounded`` proves one theorem for
every graph of every size (``proofs/unbounded.py``): "proved for every graph" with what was
machine-checked and what is trusted, or, under ``--mutant``, ``--as-written`` or (for a
statement that needs ↔ symmetric) ``--directed``, refuted with a counterexample drawn.  A counterexample is printed as boards;
it is drawn only when asked (one file per board, SVG or PNG; on square grids its moves
also as SGF): ``--pictures DIR`` writes every file into a directory that appears only
when all are written, ``--picture PATH`` names the first board's file.  Nothing is
written when a proof fails part way.  Exit code: 0 when every statement asked for is
proved, 1 when one is refuted or unknown, 2 on bad input or a refused budget.

Budgets before work: a fixed graph of more than ``--max-points`` points (by default
each theorem's own limit: 16, or 225 for T1's step through CNF), or ``--all-graphs N``
beyond it, is refused before any encoding is built, and each solver call gives up after
``--seconds`` seconds (default 120; ``--timeout`` is its older spelling), reporting
``unknown``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from tqdm import tqdm

from gorules import flags
from gorules.errors import BudgetRefused, UsageError
from gorules.impl.formats.files import descriptor, staged_directory, written_in_place
from gorules.proofs.theorem import MAX_POINTS
from gorules.spec.graph import Graph, graph_from_json, parse_graph
from gorules.spec.text import board_text
from gorules.user_files import load_python_file

MAX_ALL_GRAPHS = 64
"""The most vertices --all-graphs takes even with --max-points raised: the symbolic adjacency
alone has N² variables, built before any solver call (which --seconds bounds)."""
MAX_PARTS_SHOWN = 12
DEFAULT_SECONDS = 120.0


def register(subparsers) -> None:
    """Add the ``prove`` subcommand."""
    parser = subparsers.add_parser(
        "prove",
        help="prove a theorem of the source with Z3 on one graph or on every graph on N vertices",
        description="Prove a theorem on every board of a graph (or of every graph on N vertices), "
        "or find a counterexample and draw it.",
    )
    parser.add_argument(
        "theorem",
        nargs="?",
        metavar="THEOREM",
        help="well-formedness, move-definedness, clear-characterization, ... (default: all)",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    flags.add_graph(where, flag=True, metavar="G", help="a graph: grid:3x3, cycle:5, petersen, digraph:0>1,1>0, ...")
    where.add_argument("--all-graphs", metavar="N", type=int, help="every graph on N vertices at once")
    where.add_argument(
        "--theorem-file",
        metavar="F",
        help="a theorem of your own for every graph: a Python file defining THEOREM (proofs/README.md, 'A theorem of your own')",
    )
    where.add_argument(
        "--unbounded",
        action="store_true",
        help="every graph and digraph of every size: Z3 and cvc5 on an uninterpreted sort of points, Coq for the inductions",
    )
    parser.add_argument(
        "--directed",
        action="store_true",
        help="with --all-graphs: every directed graph; with --unbounded: a statement that needs symmetry, refuted on digraphs",
    )
    parser.add_argument("--as-written", action="store_true", help="the statement as the source writes it")
    parser.add_argument("--mutant", metavar="NAME", help="check against deliberately broken rules")
    parser.add_argument(
        "--encoding", metavar="NAME", default="ranked", help="how reaches is encoded: ranked (default), layered, ..."
    )
    parser.add_argument(
        "--depth", metavar="K", type=int, help="move-definedness: the longest game prefix to check or search"
    )
    flags.add_seconds(
        parser,
        DEFAULT_SECONDS,
        reason="each solver call alone; an unanswered call is reported unknown",
        help="give up on each solver call after this many seconds: unknown",
    )
    flags.add_max_points(
        parser,
        None,
        reason=f"{MAX_POINTS} points, beyond which most encodings grow exponentially; 225 for well-formedness-step-cnf",
        shown="each theorem's own",
    )
    drawing = parser.add_mutually_exclusive_group()
    flags.add_output_path(
        drawing,
        "--pictures",
        "draw each counterexample into DIR (THEOREM-GRAPH.svg, -2.svg, ... and .sgf), all or nothing",
        directory=True,
    )
    flags.add_output_path(
        drawing, "--picture", "draw a counterexample to FILE (.svg or .png), further boards beside it"
    )
    flags.add_output(parser, "the result(s)")
    parser.set_defaults(func=run)


def chosen_theorems(name) -> list:
    """The theorems to run: the one asked for, or all."""
    from gorules.proofs import registry

    if name is None:
        return list(registry.THEOREMS)
    if name not in registry.names():
        raise UsageError(f"unknown theorem {name!r}; known: {', '.join(registry.names())}")
    return [registry.theorem(name)]


def chosen_graph(args):
    """The fixed graph, or the symbolic graph standing for every graph on N vertices."""
    from gorules.proofs.graphs import SymbolicGraph

    if args.graph is not None:
        if args.directed:
            raise UsageError("--directed goes with --all-graphs; name a directed graph as digraph:0>1,...")
        graph = parse_graph(args.graph)
        if graph.order < 1:
            raise UsageError(f"{graph.name} has no points: the theorems are stated on graphs of 1 point or more")
        if graph.order > args.max_points:
            raise BudgetRefused(
                f"proving on {graph.name} is refused: it has {graph.order} points, more than {args.max_points}, "
                "beyond which the encodings outgrow the default budget (raise the limit with --max-points)"
            )
        return graph
    if not 1 <= args.all_graphs <= MAX_ALL_GRAPHS:
        raise UsageError(f"--all-graphs takes N from 1 to {MAX_ALL_GRAPHS}, got {args.all_graphs}")
    if args.all_graphs > args.max_points:
        raise BudgetRefused(
            f"proving on every graph on {args.all_graphs} vertices is refused: the encodings grow beyond "
            f"{args.max_points} (raise the limit with --max-points)"
        )
    return SymbolicGraph(args.all_graphs, directed=args.directed)


def check_options(args) -> None:
    """Reject a negative depth, a refusal limit below 1, or a picture that is not SVG/PNG or
    not a file (a device or a FIFO: the boards beyond the first are drawn beside it)."""
    if args.depth is not None and args.depth < 0:
        raise UsageError(f"--depth must be at least 0, got {args.depth}")
    if args.max_points is not None and args.max_points < 1:
        raise UsageError(f"--max-points must be at least 1, got {args.max_points}")
    if args.picture is not None and Path(args.picture).suffix.lower() not in (".svg", ".png"):
        raise UsageError(f"--picture must end in .svg or .png, got {args.picture!r}")
    if args.picture is not None and (written_in_place(args.picture) or descriptor(args.picture) is not None):
        raise UsageError(
            f"--picture {args.picture!r} is not a file: further boards are drawn beside the picture, "
            "so it names a file in a folder (or --pictures DIR)"
        )


def accepts(theorem, args) -> bool:
    """Whether the theorem can run with the mutant and encoding asked for."""
    if args.mutant is not None and args.mutant not in theorem.mutants_available:
        return False
    return args.encoding in theorem.encodings


def runnable(theorems, args, named: bool) -> list:
    """The theorems to run: all of the chosen ones that accept the options.  A theorem named
    on the command line that does not accept them is bad input."""
    chosen = [t for t in theorems if accepts(t, args)]
    if chosen:
        return chosen
    first = theorems[0]
    if args.mutant is not None and args.mutant not in first.mutants_available:
        raise UsageError(
            f"unknown mutant {args.mutant!r} for {'these theorems' if not named else first.name}; "
            f"known: {', '.join(sorted({x for t in theorems for x in t.mutants_available}))}"
        )
    encodings = sorted({x for t in theorems for x in t.encodings})
    raise UsageError(f"unknown encoding {args.encoding!r}; known: {', '.join(encodings)}")


def counterexample_graph(graph, counterexample: dict) -> Graph:
    """The graph to draw a counterexample on: the fixed graph, or the one the solver chose."""
    if isinstance(graph, Graph):
        return graph
    return graph_from_json(counterexample["graph"])


def slug(text: str) -> str:
    """A file-name-safe version of a theorem or graph name."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def picture_paths(base: Path, count: int) -> list[Path]:
    """One path per board: the base path, then base-2, base-3, ..."""
    return [base] + [base.with_name(f"{base.stem}-{i}{base.suffix}") for i in range(2, count + 1)]


def draw(result, graph, base: Path) -> dict:
    """Draw every board of a counterexample (the first to ``base``, then base-2, ...); write SGF
    beside it when it is a game on a square grid.  Returns the names of the files written."""
    from gorules.pictures import save_picture

    drawn = counterexample_graph(graph, result.counterexample)
    boards = result.counterexample["boards"]
    names = []
    for path, item in zip(picture_paths(base, len(boards)), boards):
        save_picture(
            drawn, item["board"], path, title=f"{result.theorem}: {item['label']}", marks=item.get("marks") or None
        )
        names.append(path.name)
    files: dict[str, str | list[str]] = {"pictures": names}
    sgf = write_sgf(drawn, result, base.with_suffix(".sgf"))
    if sgf:
        files["sgf"] = Path(sgf).name
    return files


def draw_all(results, graph, args) -> None:
    """Draw the counterexamples asked for, all or nothing: into ``--pictures DIR`` (which
    appears only when every file is written), or beside ``--picture PATH``.  Each
    counterexample's ``files`` name the files where they end up."""
    found = [r for r in results if r.counterexample]
    if not found or not (args.pictures or args.picture):
        return
    if args.pictures:
        destination = Path(args.pictures)
        if destination.exists() and not destination.is_dir():
            raise UsageError(f"--pictures {args.pictures!r} exists and is not a directory")
    else:
        destination = Path(os.path.realpath(args.picture)).parent  # a link is followed
    with staged_directory(destination) as staging:
        for result in found:
            if args.pictures:
                name = f"{slug(result.theorem)}-{slug(result.graph)}.svg"
            else:
                chosen = Path(os.path.realpath(args.picture))
                several = len(results) > 1
                name = f"{chosen.stem}-{slug(result.theorem)}{chosen.suffix}" if several else chosen.name
            files = draw(result, graph, staging / name)
            result.counterexample["files"] = {
                kind: [str(destination / n) for n in value] if isinstance(value, list) else str(destination / value)
                for kind, value in files.items()
            }


def write_sgf(graph: Graph, result, path: Path):
    """SGF of the counterexample on a square grid (its first board as setup unless it is a
    game from the empty board); None where SGF does not apply."""
    try:
        from gorules.impl.formats.sgf import RecordError, save_sgf
    except ImportError:
        return None
    cx = result.counterexample
    if not graph.is_grid or "moves" not in cx:
        return None
    first = cx["boards"][0]["board"]
    from_start = cx.get("part", "").startswith("history")
    player = cx.get("player", "B")
    moves = list(cx["moves"]) if from_start else [(player, cx["moves"][0])]
    options = {} if from_start else {"setup": first}
    try:
        save_sgf(graph, moves, path, comment=f"{result.theorem}: counterexample", **options)
    except RecordError:
        return None
    return str(path)


def move_label(graph: Graph, v) -> str:
    """A move as printed: the point number, with its GTP name on a grid."""
    if v == "pass" or not graph.is_grid:
        return str(v)
    from gorules.spec.graph import gtp_name

    return f"{v}({gtp_name(graph, v)})"


def report(result, graph) -> str:
    """The human-readable lines for one result."""
    reading = "as written" if result.as_written else "corrected"
    mutant = f", rules: mutant {result.mutant}" if result.mutant else ""
    lines = [
        f"{result.theorem} ({reading}{mutant}) on {result.graph}: {result.status} "
        f"in {result.seconds:.2f}s [encoding {result.encoding}]"
    ]
    if result.scope:
        lines.append(f"  scope: {result.scope}")
    for part in result.parts[:MAX_PARTS_SHOWN]:
        label = part.get("part") or (f"cube {part['cube']}" if "cube" in part else "part")
        lines.append(f"  {label}: {part.get('status', '?')} ({part.get('seconds', 0):.2f}s)")
    if len(result.parts) > MAX_PARTS_SHOWN:
        lines.append(f"  ... and {len(result.parts) - MAX_PARTS_SHOWN} more parts (see --json)")
    cx = result.counterexample
    if cx:
        drawn = counterexample_graph(graph, cx)
        if not isinstance(graph, Graph):
            lines.append(f"  counterexample graph: {drawn.name}")
        if cx.get("moves"):
            lines.append(f"  moves: {' '.join(move_label(drawn, m) for m in cx['moves'])}")
        for item in cx["boards"]:
            lines.append(f"  {item['label']}:")
            lines.append(board_text(drawn, item["board"], separator=" ", indent="    "))
        for kind in ("pictures", "sgf"):
            if kind in cx.get("files", {}):
                value = cx["files"][kind]
                lines.append(f"  {kind}: {', '.join(value) if isinstance(value, list) else value}")
    return "\n".join(lines)


def unbounded_result(args):
    """The theorem for every graph (``proofs/unbounded.py``): proved, or, under a mutant or
    as written, refuted by a counterexample replayed on the spec."""
    from gorules.proofs import unbounded

    if args.theorem_file is not None:
        t = theorem_from_file(args.theorem_file)
        if args.theorem not in (None, t.name):
            raise UsageError(f"{args.theorem_file} defines {t.name!r}, not {args.theorem!r}")
    elif args.theorem is None:
        raise UsageError(f"--unbounded needs a theorem: {', '.join(unbounded.THEOREMS)}")
    try:
        t = t if args.theorem_file is not None else unbounded.theorem(args.theorem)
        if args.mutant is None and not args.as_written and not args.directed:
            return unbounded.prove(t, seconds=args.seconds)
        return unbounded.refute(t, args.mutant, args.as_written, args.seconds, directed=args.directed)
    except (KeyError, ValueError) as error:
        raise UsageError(str(error).strip("'\"")) from error
    except Exception as error:  # a theorem file's own code failed: one line, exit 2
        if args.theorem_file is None:
            raise
        raise UsageError(f"{args.theorem_file}: {type(error).__name__}: {error}") from error


def theorem_from_file(path: str):
    """The UnboundedTheorem named THEOREM in a Python file; bad input if there is none."""
    from gorules.proofs.unbounded import UnboundedTheorem

    module = load_python_file(path, "--theorem-file", f"theorem_file_{slug(Path(path).stem)}", UsageError)
    theorem = getattr(module, "THEOREM", None)
    if not isinstance(theorem, UnboundedTheorem):
        raise UsageError(f"--theorem-file {path} defines no THEOREM (an UnboundedTheorem of gorules.proofs.unbounded)")
    return theorem


def unbounded_report(result) -> str:
    """The lines for an unbounded result: the verdict, each obligation's solvers and witness,
    the Coq check, what is trusted, and a counterexample drawn as boards."""
    reading = "as written" if result.as_written else "corrected"
    mutant = f", rules: mutant {result.mutant}" if result.mutant else ""
    verdict = "proved for every graph" if result.proved else f"on {result.graph}: {result.status}"
    lines = [
        f"{result.theorem} ({reading}{mutant}): {verdict} in {result.seconds:.2f}s",
        f"  scope: {result.scope}",
    ]
    for part in result.parts:
        answers = ", ".join(f"{name} {answer}" for name, answer in part.get("solvers", {}).items())
        witness = part.get("witness")
        shown = f"; non-empty witness on {witness['graph']}" if witness else ""
        lemmas = f" ({', '.join(part['lemmas'])}; axioms: {part['axioms']})" if "lemmas" in part else ""
        lines.append(f"  {part['part']}: {part['status']}{' (' + answers + shown + ')' if answers else ''}{lemmas}")
    if result.counterexample:
        lines += report(result, None).splitlines()[1 + bool(result.scope) + len(result.parts) :]
    return "\n".join(lines)


def run(args) -> int:
    """Prove the chosen theorems; exit 0 only if all were proved."""
    if args.unbounded or args.theorem_file is not None:
        check_options(args)
        result = unbounded_result(args)
        draw_all([result], None, args)
        flags.emit(args, result.to_json() if args.json else None, unbounded_report(result), indent=2)
        return 0 if result.proved else 1
    theorems = chosen_theorems(args.theorem)
    check_options(args)
    if args.max_points is None:
        args.max_points = min(t.max_points for t in theorems)
    graph = chosen_graph(args)
    chosen = runnable(theorems, args, named=args.theorem is not None)
    results = []
    progress = tqdm(chosen, desc="prove", unit="theorem", file=sys.stderr, disable=len(chosen) == 1 or None)
    for theorem in progress:
        progress.set_postfix_str(theorem.name)
        options = {"depth": args.depth} if args.depth is not None else {}
        try:
            result = theorem.prove(
                graph,
                as_written=args.as_written,
                encoding=args.encoding,
                mutant=args.mutant,
                timeout=args.seconds,
                **options,
            )
        except ValueError as error:  # an option the theorem's encoding does not know
            raise UsageError(f"{theorem.name}: {error}") from error
        results.append(result)
    draw_all(results, graph, args)
    data = [r.to_json() for r in results] if args.json else [None]
    flags.emit(args, data[0] if len(data) == 1 else data, "\n\n".join(report(r, graph) for r in results), indent=2)
    return 0 if all(r.proved for r in results) else 1
