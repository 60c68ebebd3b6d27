"""How fast the proofs are: encoding × graph × theorem → seconds, in one run.

The key figure is T1's step ("a move keeps a well-formed board well-formed"): Z3 with
ranked or layered reaches (``proofs/well_formedness.py``) against the CNF encodings of
``proofs/sat.py`` on CaDiCaL: without lemmas, with the solver-checked rank lemmas or with
the least lost stone (``proofs/well_formedness_cnf.py``), on cubes by played point with and
without the automorphism and colour reductions, or in one query.  The extra theorems run
on the three CNF encodings of reaches.  Each cell is one proof attempt with a time limit; a cell
that is not "proved" says what happened instead.  Ratios are taken between cells of
this run only.

    python benchmarks/bench_proofs.py                      # the table (its duration: benchmarks/README.md)
    python benchmarks/bench_proofs.py --largest            # + largest grid / order within 60 s
    python benchmarks/bench_proofs.py --theorems "" --largest   # only the largest sizes
    python benchmarks/bench_proofs.py --grids 3,4,5,6,7 --timeout 120   # bigger boards
    python benchmarks/bench_proofs.py --theorems well-formedness-step --grids 6,7,8,9 --orders 16 --timeout 60
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import sys
import time

from gorules.proofs import registry
from gorules.proofs import well_formedness as z3_well_formedness
from gorules.proofs.graphs import SymbolicGraph

CNF_THEOREMS = tuple(t.name for t in registry.cnf_theorems())
CNF_ENCODINGS = ("unary", "binary", "layers")
BEST_ENCODING = {"colour-symmetry": "layers", "automorphism": "layers"}  # the rest: unary


def graph_named(name: str):
    """A graph string, or ``all-graphs:N`` / ``all-digraphs:N`` for every graph of order N."""
    if name.startswith("all-graphs:"):
        return SymbolicGraph(int(name.split(":")[1]))
    if name.startswith("all-digraphs:"):
        return SymbolicGraph(int(name.split(":")[1]), directed=True)
    return name


def configurations(theorem: str) -> list[tuple[str, callable]]:
    """(label, attempt(graph, timeout, processes) -> ProofResult) for each way of proving."""
    if theorem == "well-formedness-step":
        return [
            ("z3-ranked", lambda g, t, _p: z3_well_formedness.prove_step(graph_named(g), encoding="ranked", timeout=t)),
            (
                "z3-layered",
                lambda g, t, _p: z3_well_formedness.prove_step(graph_named(g), encoding="layered", timeout=t),
            ),
        ] + cnf_configurations("well-formedness-step-cnf", variants=True)
    return cnf_configurations(theorem, variants=False)


def cnf_configurations(theorem: str, variants: bool) -> list:
    """The CNF ways of proving a theorem (and, for T1's step, the speed-ups one by one:
    the rank-by-rank lemmas and the least lost stone, on cubes by played point with and
    without the reductions, and the whole statement in one query)."""
    proved = registry.theorem(theorem)
    cubes = {"split": True} if variants else {}
    found = []
    for encoding in CNF_ENCODINGS:
        found.append((f"cnf-{encoding}", _cnf(proved, encoding, lemmas=False, **cubes)))
    if not variants:
        found.append(("cnf-unary+lemmas", _cnf(proved, "unary")))
    if variants:
        ranks = {"induction": "ranks", **cubes}
        found += [
            ("cnf-unary+rank lemmas", _cnf(proved, "unary", **ranks)),
            ("cnf-unary+rank lemmas+colours", _cnf(proved, "unary", colours=True, **ranks)),
            ("cnf-unary+least, 1 process, no symmetry", _cnf(proved, "unary", symmetry=False, processes=1, **cubes)),
            ("cnf-unary+least, 1 process", _cnf(proved, "unary", processes=1, **cubes)),
            ("cnf-unary+least", _cnf(proved, "unary", **cubes)),
            ("cnf-unary+least+colours", _cnf(proved, "unary", colours=True, **cubes)),
            ("cnf-unary+least, one query", _cnf(proved, "unary", processes=1, split=False)),
        ]
    return found


def _cnf(
    theorem,
    encoding: str,
    lemmas: bool = True,
    symmetry: bool = True,
    colours: bool = False,
    processes=None,
    **options,
):
    """An attempt with one CNF configuration (``options``: the theorem's own, and
    ``split``)."""

    def attempt(graph, timeout, default_processes):
        return theorem.prove(
            graph_named(graph),
            encoding=encoding,
            timeout=timeout,
            lemmas=lemmas,
            symmetry=symmetry,
            colours=colours,
            processes=processes if processes is not None else default_processes,
            **options,
        )

    return attempt


def cell(attempt, graph: str, timeout: float, processes: int) -> dict:
    """One proof attempt, timed: seconds if proved, else what happened."""
    start = time.perf_counter()
    result = attempt(graph, timeout, processes)
    seconds = time.perf_counter() - start
    return {"status": result.status, "seconds": round(seconds, 2), "scope": result.scope}


def shown(entry: dict, timeout: float) -> str:
    """A cell as the table shows it."""
    if entry["status"] == "proved":
        return f"{entry['seconds']:.1f}"
    if entry["status"] == "unknown":
        return f"timeout ({timeout:g} s)"
    return entry["status"]


def table(theorems, graphs, timeout: float, processes: int, skip_after_timeout: bool = True) -> list[dict]:
    """Every (theorem, configuration, graph) cell; a configuration that timed out on a graph
    is not tried on the larger graphs of the same family after it."""
    rows = []
    for theorem in theorems:
        for label, attempt in configurations(theorem):
            timed_out: set = set()
            for graph in graphs:
                family = graph.split(":")[0]
                if family in timed_out and skip_after_timeout:
                    entry = {"status": "skipped", "seconds": None, "scope": "timed out on a smaller graph"}
                else:
                    entry = cell(attempt, graph, timeout, processes)
                    if entry["status"] == "unknown":
                        timed_out.add(family)
                rows.append({"theorem": theorem, "encoding": label, "graph": graph, **entry})
                print(f"  {theorem:26} {label:42} {graph:16} {shown(entry, timeout)}", file=sys.stderr, flush=True)
    return rows


def largest(theorem: str, family: str, limit: float, processes: int, sizes) -> tuple[str, list]:
    """The largest member of a family (square grids, all graphs or all digraphs of an order)
    proved within ``limit`` seconds: the theorem's defaults (lemmas; cubes by orbit of the
    played point, both colours, or one query where the theorem asks for it), and the
    encoding of reaches that did best in the table (BEST_ENCODING)."""
    proved = registry.theorem(theorem)
    encoding = BEST_ENCODING.get(theorem, "unary")
    best, tried = "-", []
    for k in sizes:
        name = f"grid:{k}x{k}" if family == "grid" else f"{family}:{k}"
        start = time.perf_counter()
        result = proved.prove(graph_named(name), timeout=limit, processes=processes, encoding=encoding)
        seconds = time.perf_counter() - start
        tried.append((name, result.status, round(seconds, 1)))
        print(f"  largest {theorem:26} {name:16} {result.status} {seconds:.1f}", file=sys.stderr, flush=True)
        if result.status != "proved":
            break
        best = f"{name} ({seconds:.1f} s)"
    return best, tried


def markdown(rows: list[dict], graphs, timeout: float) -> str:
    """The table: one line per (theorem, configuration), one column per graph."""
    lines = ["| theorem | encoding | " + " | ".join(graphs) + " |", "|---|---|" + "---|" * len(graphs)]
    keys = list(dict.fromkeys((r["theorem"], r["encoding"]) for r in rows))
    for theorem, label in keys:
        cells = {r["graph"]: r for r in rows if r["theorem"] == theorem and r["encoding"] == label}
        line = " | ".join(shown(cells[g], timeout) if cells[g]["status"] != "skipped" else "—" for g in graphs)
        lines.append(f"| {theorem} | {label} | {line} |")
    return "\n".join(lines)


def ratios(rows: list[dict]) -> list[str]:
    """Speed-ups between configurations of T1's step on the same graph, in this run."""

    def seconds(label, graph):
        for r in rows:
            if (
                r["theorem"] == "well-formedness-step"
                and r["encoding"] == label
                and r["graph"] == graph
                and r["status"] == "proved"
            ):
                return r["seconds"]
        return None

    out = []
    graphs = list(dict.fromkeys(r["graph"] for r in rows))
    pairs = [
        ("z3-ranked", "cnf-unary+least"),
        ("cnf-unary", "cnf-unary+rank lemmas"),
        ("cnf-unary+rank lemmas", "cnf-unary+least"),
        ("cnf-unary+least, 1 process, no symmetry", "cnf-unary+least, 1 process"),
        ("cnf-unary+least, 1 process", "cnf-unary+least"),
        ("cnf-unary+least", "cnf-unary+least+colours"),
        ("cnf-unary+rank lemmas+colours", "cnf-unary+least, one query"),
    ]
    for slow, fast in pairs:
        for graph in graphs:
            a, b = seconds(slow, graph), seconds(fast, graph)
            if a is not None and b:
                out.append(f"T1 step on {graph}: {slow} / {fast} = {a / b:.1f}x")
    return out


def main(argv=None) -> int:
    """Run the benchmark and print its figures and the command that reproduces them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", default="3,4,5", help="square grid sides for the table (default 3,4,5)")
    parser.add_argument("--orders", default="5", help="orders N for all graphs / all digraphs (default 5)")
    parser.add_argument(
        "--theorems", default=",".join(("well-formedness-step",) + CNF_THEOREMS[1:]), help="theorems in the table"
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per cell (default 30)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes for the cubes (default 2)")
    parser.add_argument(
        "--largest",
        action="store_true",
        help="also find, per theorem, the largest square grid and order N proved within --limit",
    )
    parser.add_argument("--limit", type=float, default=60.0, help="seconds allowed in --largest (default 60)")
    parser.add_argument("--max-side", type=int, default=9, help="largest grid side tried by --largest (default 9)")
    parser.add_argument("--max-order", type=int, default=10, help="largest order N tried by --largest (default 10)")
    parser.add_argument("--only", default=",".join(CNF_THEOREMS), help="theorems for --largest")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    graphs = [f"grid:{k}x{k}" for k in args.grids.split(",") if k] + [
        f"{family}:{n}" for family in ("all-graphs", "all-digraphs") for n in args.orders.split(",") if n
    ]
    theorems = [t for t in args.theorems.split(",") if t]
    command = "python benchmarks/bench_proofs.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])
    )
    print(
        f"# bench_proofs: {platform.processor() or platform.machine()}, {args.processes} processes, "
        f"{args.timeout:g} s per cell",
        flush=True,
    )
    rows = table(theorems, graphs, args.timeout, args.processes)
    print(markdown(rows, graphs, args.timeout))
    print()
    for line in ratios(rows):
        print(line)
    found = {}
    if args.largest:
        print()
        print(
            f"| theorem | largest square grid within {args.limit:g} s (sides up to {args.max_side}) "
            f"| all graphs (N up to {args.max_order}) | all digraphs |"
        )
        print("|---|---|---|---|")
        sides, orders = range(3, args.max_side + 1), range(4, args.max_order + 1)
        for theorem in [t for t in args.only.split(",") if t]:
            grid_best, _ = largest(theorem, "grid", args.limit, args.processes, sides)
            graph_best, _ = largest(theorem, "all-graphs", args.limit, args.processes, orders)
            digraph_best, _ = largest(theorem, "all-digraphs", args.limit, args.processes, orders)
            found[theorem] = (grid_best, graph_best, digraph_best)
            print(
                f"| {theorem} ({BEST_ENCODING.get(theorem, 'unary')}) | {grid_best} | {graph_best} | {digraph_best} |",
                flush=True,
            )
    print()
    print(f"reproduce: {command.strip()}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"rows": rows, "largest": found, "command": command.strip()}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
