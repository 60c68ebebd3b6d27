"""The compiled core of the Ultimate/Fundamental searches on one question, measured.

    python benchmarks/bench_ultimate_core.py atlas:208 --nodes 1000000

Asks Black's first question of the Fundamental score ("can Black win with no komi?") of the
empty board (``--ultimate``: "can Black win Ultimate Go?"; ``--komi K``: with K more
prisoners for Black, −K for White; ``--after delay`` or ``ultimate-delay``: the question of
White to move after Black's first move, a delay or the ultimate delay), in the fixed move order alone (no
race; ``--hints 1`` the hinted order, ``--hints 2`` the proof-number search), within
``--nodes`` nodes, and prints the start-up time (numbering 3^n boards, worked out in
Python), the nodes searched, the processor time of the search and its pace, then the
table's counters: lookups at keys holding no proof, reusing a proof, refusing every proof
of their key (and the proofs read in full and refused), stores that overwrote a proof, the
deepest line.  The kernel is compiled (or loaded from numba's
cache) before the clock starts.
"""

from __future__ import annotations

import argparse
import time

from gorules.impl.kernels import ultimate as kernel
from gorules.impl.rulesets.ultimate.compiled import DFPN, SLICE, CompiledQuestions
from gorules.impl.rulesets.ultimate.search import DELAY, ULTIMATE_DELAY, Engine
from gorules.spec import ultimate
from gorules.spec.graph import parse_graph


def main() -> None:
    """Measure one question."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--hints", type=int, default=0, help="1: the hinted order, 2: the proof-number search")
    parser.add_argument("--goal", type=int, default=0, help="0 win, 1 draw")
    parser.add_argument("--ultimate", action="store_true", help="the Ultimate question, not the Fundamental one")
    parser.add_argument("--komi", type=int, default=0, help="more prisoners for Black (negative: for White)")
    parser.add_argument("--off", type=int, action="append", default=[], help="a part switched off (F_*)")
    parser.add_argument("--stabiliser", action="store_true", help="fold histories under the board's stabiliser")
    parser.add_argument(
        "--after",
        choices=("delay", "ultimate-delay"),
        help="ask the opponent's question after Black's first move (a delay or the ultimate delay)",
    )
    parser.add_argument("--keep", type=int, default=kernel.KEEP, help="proofs kept per table key")
    args = parser.parse_args()
    kernel.KEEP = args.keep
    graph = parse_graph(args.graph)
    engine = Engine(graph, compiled=True)
    p = engine.from_situation(ultimate.initial_situation(graph, not args.ultimate))
    if not args.ultimate:
        p = engine.fundamental(p)
    if args.komi:
        p = engine.with_komi(p, 0 if args.komi > 0 else 1, abs(args.komi))
    if args.after:
        move = DELAY if args.after == "delay" else ULTIMATE_DELAY
        p = next(child for m, child, _ in engine.children(p)[0] if m == move)
    started = time.process_time()
    core = CompiledQuestions(engine, tuple(args.off), orders=(args.hints,), stabiliser=args.stabiliser)
    setup = time.process_time() - started
    black, white, player, bb, wb, ult, first, draw, history, _ = p
    board = int(core.number_of[black | white << engine.n])
    d = bb - wb if player == 0 else wb - bb
    root = (board, player, d, ult, first, draw, args.goal, core.history_words(history))
    if args.hints == DFPN:
        search = core.dfpn_search(root)
    else:
        core.st[kernel.S_HINTS] = args.hints
        kernel.begin(core.stack, core.st, *root)

        def search(limit: int) -> int:
            """The depth-first kernel on until ``limit`` nodes."""
            return kernel.resume(core.game, core.tables, core.stack, core.st, limit)

    search(1)  # compile or load first
    started = time.process_time()
    status = kernel.RUNNING
    while status == kernel.RUNNING and core.st[kernel.S_NODES] < args.nodes:
        step = min(SLICE, args.nodes - int(core.st[kernel.S_NODES]))
        status = search(int(core.st[kernel.S_NODES]) + step)
        if core.st[kernel.S_FULL]:
            core.grow()
    spent = time.process_time() - started
    nodes = int(core.st[kernel.S_NODES])
    answer = {kernel.FINISHED: str(bool(core.st[kernel.S_RESULT])), kernel.OVERFLOWED: "overflowed"}.get(
        status, "unanswered"
    )
    print(
        f"{args.graph}: start-up {setup:.2f} s; {nodes:,} nodes in {spent:.2f} s CPU ({nodes / spent:,.0f}/s); answer {answer}; table keys used {int(core.st[kernel.S_CHUNKS]):,}"
    )
    st = core.st
    print(
        f"lookups: {int(st[kernel.S_EMPTY]):,} at keys holding no proof, {int(st[kernel.S_REUSED]):,} reused a proof, "
        f"{int(st[kernel.S_REFUSED]):,} refused all ({int(st[kernel.S_READ]):,} proofs read in full and refused); "
        f"stores overwriting the oldest: {int(st[kernel.S_OVERWRITTEN]):,}; deepest ply {int(st[kernel.S_DEEPEST])}"
    )


if __name__ == "__main__":
    main()
