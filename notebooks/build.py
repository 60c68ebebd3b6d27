"""Write the notebooks of this directory from the cells below, without outputs.

    python notebooks/build.py            # rewrite every notebook
    python notebooks/build.py --execute  # rewrite, then execute each one to check it runs

The notebooks are thin: every code cell imports the library and calls it; the rules,
proofs and counts live in ``spec``, ``impl``, ``proofs`` and ``gorules``.  They are
committed without outputs so that their diffs stay small; ``tests/test_notebooks.py``
executes each of them from a clean kernel.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent


def markdown(text: str) -> nbformat.NotebookNode:
    """A markdown cell holding ``text`` (dedented)."""
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text: str) -> nbformat.NotebookNode:
    """A code cell holding ``text`` (dedented), with no outputs."""
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))


# --------------------------------------------------------------------------- 1: spec and errata

SPEC_TOUR = [
    markdown(
        """
        # A tour of the Tromp–Taylor spec and its errata

        This notebook walks through the executable specification of the Tromp–Taylor rules
        (`spec/tromp_taylor.md` and `spec/tromp_taylor.py`), set beside the formalization it
        follows, `002_8835c2492dce8849.txt`. It plays a short game with the spec, draws the
        boards, and then shows where the source, read literally, says something other than
        what it means: each literal reading is kept in `spec/errata.py`, and the errata
        checker (`gorules errata`) finds the smallest board on which it goes wrong.
        """
    ),
    code(
        """
        import re

        from IPython.display import SVG, Markdown, display

        import gorules.impl.engine as engine
        from gorules.errata import errata_table
        from gorules.pictures import board_svg
        from gorules.spec import errata as literal
        from gorules.spec import tromp_taylor as tt
        from gorules.spec.graph import parse_graph, point_name
        from gorules.spec.literate import SPEC_DIR, compare, markdown_definitions
        """
    ),
    markdown(
        """
        ## The spec is written twice, and both say the same

        `spec/tromp_taylor.md` has one heading per definition of the source, in the source's
        order, each with the mathematics, our prose and a Python block; `spec/tromp_taylor.py`
        holds exactly those blocks. `spec.literate.compare` lists every way the two differ:
        an empty list means the markdown and the module agree, definition by definition.
        """
    ),
    code(
        """
        spec_text = (SPEC_DIR / "tromp_taylor.md").read_text()
        definitions = markdown_definitions(spec_text)
        print("differences between tromp_taylor.md and tromp_taylor.py:", compare("tromp_taylor"))
        for d in definitions:
            print(f"{d.heading:28} {', '.join(d.names)}")
        assert compare("tromp_taylor") == []
        """
    ),
    markdown(
        """
        ## One definition beside the source: `reaches`

        The source defines `reaches(b, v, c)` by a recursive equation in which every step
        stays on the colour of `v`. Read literally, a stone can then never reach an empty
        point, since the path may not leave the stone's colour. The spec keeps the source's
        name for the corrected equation: the last step may land on colour `c`. Here is the
        section as `spec/tromp_taylor.md` states it, then the erratum as `spec/errata.md`
        records it.
        """
    ),
    code(
        """
        sections = re.split(r"^## ", spec_text, flags=re.M)
        display(Markdown("## " + next(s for s in sections if s.startswith("reaches"))))
        errata_text = (SPEC_DIR / "errata.md").read_text()
        display(Markdown("## " + next(s for s in re.split(r"^## ", errata_text, flags=re.M) if s.startswith("E1"))))
        """
    ),
    markdown(
        """
        ## A short game, played by the spec

        On the 3×3 grid (points numbered row by row from the top left), Black plays 1,
        White 0 in the corner, Black 3 takes White's last liberty, and both pass. `game`
        returns the states s₀ … s_N of the source's definition; `winner` compares the area
        scores of the final board. The engine (`impl.engine`) gives the same answers.
        """
    ),
    code(
        """
        grid = parse_graph("grid:3x3")
        moves = [1, 0, 3, tt.PASS, tt.PASS]
        states = tt.game(grid, moves)
        for i, v in enumerate(moves):
            label = v if v == tt.PASS else point_name(grid, v)
            display(SVG(board_svg(grid, states[i + 1].board, title=f"after {states[i].player} {label}",
                                  marks=[] if v == tt.PASS else [v])))
        final = states[-1].board
        print("score B:", tt.score(grid, final, tt.BLACK), " score W:", tt.score(grid, final, tt.WHITE))
        print("winner (spec):", tt.winner(grid, moves), " winner (engine):", engine.winner(grid, moves))
        print("engine's states equal the spec's:", engine.game(grid, moves) == states)
        assert tt.winner(grid, moves) == engine.winner(grid, moves) == tt.BLACK
        """
    ),
    markdown(
        """
        ## E1: `reaches` as written never lets a stone reach an empty point

        On the path with two points, a lone Black stone beside an empty point has a liberty.
        The corrected `reaches` says so; the literal reading does not, so `clear` as written
        removes the stone, and `move` as written removes every stone as soon as it is played.
        """
    ),
    code(
        """
        path = parse_graph("path:2")
        b = ("B", ".")
        print("reaches(b, 0, Empty): corrected", tt.reaches(path, b, 0, tt.EMPTY),
              "| as written", literal.reaches_as_written(path, b, 0, tt.EMPTY))
        print("clear(b, Black):      corrected", tt.clear(path, b, tt.BLACK),
              "| as written", literal.clear_as_written(path, b, tt.BLACK))
        s0 = tt.initial_state(path)
        print("move(s0, 0):          corrected", tt.move(path, s0, 0).board,
              "| as written", literal.move_as_written(path, s0, 0).board)
        display(SVG(board_svg(path, b, title="B at 0 has a liberty at 1", marks=[0])))
        """
    ),
    markdown(
        """
        ## E2: `score` swaps the arguments of `reaches`

        The source writes `reaches(b, p, v)`: a player where a point belongs and a point
        where a colour belongs. Run literally, that condition never holds, and the score
        counts stones only. The corrected score adds the empty points that reach `p` and not
        `p*`. On the 3×3 board of the game above:
        """
    ),
    code(
        """
        for p in (tt.BLACK, tt.WHITE):
            print(p, "corrected:", tt.score(grid, final, p), " as written:", literal.score_as_written(grid, final, p))
        """
    ),
    markdown(
        """
        ## The whole errata table

        `errata_table()` checks every definition and every theorem statement of the source,
        as written and as corrected, against an independent reference on every board (or
        state, or game prefix) of all small graphs. A row that holds was *checked*
        exhaustively within the bounds it states; that is not a proof for every graph (the
        proofs notebook does that with Z3 for fixed graphs and for all graphs of an order).
        """
    ),
    code(
        """
        findings = errata_table()
        rows = ["| statement | as written | corrected |", "|---|---|---|"]
        rows += [f"| {f.key} | {f.as_written.word} | {f.corrected.word} |" for f in findings]
        display(Markdown("\\n".join(rows)))
        print("every corrected statement holds:", all(f.corrected.holds for f in findings))
        assert all(f.corrected.holds for f in findings)
        """
    ),
    markdown(
        """
        ## The smallest counterexamples

        For every statement that fails as written, the checker keeps the smallest board on
        which it fails (fewest points, then arcs, then stones), with a game that reaches it
        when there is one.
        """
    ),
    code(
        """
        for f in findings:
            example = f.as_written.counterexample or f.corrected.counterexample
            if example is None:
                continue
            print(f"{f.key}: {f.statement}")
            print("   " + example.text().replace("\\n", "\\n   "))
            display(SVG(board_svg(example.graph, example.board, title=f"{f.key} on {example.graph.name}",
                                  marks=example.marks)))
        """
    ),
]


# --------------------------------------------------------------------------- 2: differential fuzzing

FUZZING = [
    markdown(
        """
        # Differential fuzzing: the engine against the spec, and a counterexample replayed

        The engine (`impl/engine.py`) keeps boards as bitsets and looks only at the chains
        next to the point played; the spec (`spec/tromp_taylor.py`) follows the mathematics
        literally. The fuzzer (`impl/vectors.py`, behind `gorules fuzz`) plays random games
        on random graphs on both and compares the whole state after every move, plus
        `clear`, `reaches`, `score`, `game` and `winner`.

        A fuzzer that cannot fail shows nothing, so the second half gives it a broken engine:
        the real engine, except that its `Game` forbids suicide (as GNU Go's and OpenSpiel's
        defaults do), which the Tromp–Taylor rules allow. The fuzzer must find the difference,
        shrink it to a short move sequence, and we replay that sequence in the spec and in
        both engines and draw the board.
        """
    ),
    code(
        """
        import functools
        import types

        from IPython.display import SVG, display

        import gorules.impl.engine as engine
        from gorules.pictures import board_svg
        from gorules.impl.rules import PRESETS
        from gorules.impl.vectors import compare_game, disagreement_vector, fuzz, replay, replay_engine_game
        from gorules.spec import tromp_taylor as tt
        from gorules.spec.graph import point_name
        """
    ),
    markdown(
        """
        ## The real engine: no disagreement

        Random graphs of up to 8 points (grids up to 4×4, cycles, stars, the Petersen graph,
        digraphs), from a fixed seed, until ten thousand moves have been compared.
        """
    ),
    code(
        """
        report = fuzz(None, seed=0, max_order=8, max_side=4, min_moves=10_000)
        print(report.as_json())
        print("disagreements:", [d.what for d in report.disagreements])
        assert report.disagreements == [] and report.moves >= 10_000
        """
    ),
    markdown(
        """
        ## A broken engine

        The broken engine is assembled from library parts only: the engine module's functions
        as they are, with `Game` bound to the `no-suicide` preset of `impl.rules`. Every
        module-level function still agrees with the spec; only the game's legality check
        differs.
        """
    ),
    code(
        """
        print("no-suicide preset:", PRESETS["no-suicide"].describe())
        broken = types.SimpleNamespace(**vars(engine))
        broken.Game = functools.partial(engine.Game, rules="no-suicide")
        broken_report = fuzz(300, seed=1, engine=broken, max_order=6, max_side=3)
        print(broken_report.as_json())
        assert broken_report.disagreements
        shortest = min(broken_report.disagreements, key=lambda d: len(d.moves))
        print(f"shortest case: {shortest.graph.name}, moves {shortest.moves}")
        print(f"what differs: {shortest.what}")
        """
    ),
    markdown(
        """
        ## The counterexample, replayed

        The shrunk case is written as a test vector from the spec's point of view (the states
        the spec goes through). The real engine replays it without a difference; the broken
        engine's `Game` refuses a move that the spec allows, and names its reason.
        """
    ),
    code(
        """
        vector = disagreement_vector(shortest, 0)
        print("vector:", vector["name"], "| moves", vector["moves"], "| winner", vector["winner"])
        print("real engine, module functions:", replay(vector, engine) or "no difference")
        print("real engine, Game:           ", replay_engine_game(vector) or "no difference")
        print("broken engine, Game:         ", replay_engine_game(vector, rules="no-suicide"))
        print("fuzzer's comparison, real engine:  ", compare_game(shortest.graph, shortest.moves)[1])
        print("fuzzer's comparison, broken engine:", compare_game(shortest.graph, shortest.moves, broken)[1])
        assert replay(vector, engine) == [] and replay_engine_game(vector) == []
        assert replay_engine_game(vector, rules="no-suicide") != []
        """
    ),
    markdown(
        """
        ## The boards of the counterexample

        The spec's states, move by move. The last move is the suicide that the broken engine
        refuses: under the Tromp–Taylor rules the stone is placed and then removed with its
        chain (its point is ringed).
        """
    ),
    code(
        """
        graph = shortest.graph
        states = [tt.initial_state(graph)]
        for v in shortest.moves:
            states.append(tt.move(graph, states[-1], v))
            label = v if v == tt.PASS else point_name(graph, v)
            display(SVG(board_svg(graph, states[-1].board, title=f"{graph.name}: after {states[-2].player} {label}",
                                  marks=[] if v == tt.PASS else [v])))
        """
    ),
]


# --------------------------------------------------------------------------- 3: proofs

PROOFS = [
    markdown(
        """
        # Proofs with Z3 and SAT: timings per encoding, and a refuted statement drawn

        `proofs/` states the source's theorems over a symbolic board: one variable per point,
        and `reaches` as a least fixed point. A *proof* on a graph means the solver showed
        that no board of that graph breaks the statement (the negation is unsatisfiable);
        a refutation comes with a concrete board, which can be replayed on the spec (as
        below).

        The least fixed point can be encoded several ways. For Z3 (`proofs/encoding.py`):
        `ranked` (every reaching point is supported by a neighbour of smaller rank) and
        `layered` (the iteration unrolled to depth n). For CDCL SAT solvers (`proofs/sat.py`,
        CaDiCaL through python-sat): `layers`, `unary` ranks and `binary` ranks. Below, the
        same statement, the step of the well-formedness theorem (every move keeps a
        well-formed board well-formed), is proved on grids of growing size with each.
        """
    ),
    code(
        """
        import time

        import matplotlib.pyplot as plt
        from IPython.display import SVG, display

        from gorules.pictures import board_svg
        from gorules.proofs import well_formedness
        from gorules.proofs.extras import rebuild_graph
        from gorules.proofs.graphs import SymbolicGraph
        from gorules.proofs.registry import theorem
        from gorules.spec import tromp_taylor as tt
        from gorules.spec.graph import parse_graph
        """
    ),
    markdown(
        """
        ## Seconds against board size

        Times are the processor time of this process around each `prove` call (the solvers
        run in-process, single-threaded), so that other work on the machine does not distort
        them. The slow `layered` encoding stops at 3×3 to keep the notebook quick;
        `python benchmarks/bench_proofs.py` runs the comparison on larger boards, with time
        limits and the solver's optional lemmas and reductions. The two sides do not split the work the
        same way: Z3 proves the statement in one query, while the CNF runs split it into one
        cube per played point and player, with the points reduced to one per orbit of the
        grid's automorphisms (so the square 4×4 grid, with more symmetry than 3×4, costs the
        `unary` encoding little more). Each figure is one run on this machine, not an
        average.
        """
    ),
    code(
        """
        grids = ["grid:2x2", "grid:2x3", "grid:3x3", "grid:3x4", "grid:4x4"]
        runs = {
            "z3 ranked": (well_formedness.prove_step, "ranked", grids),
            "z3 layered": (well_formedness.prove_step, "layered", grids[:3]),
            "cnf layers": (theorem("well-formedness-step-cnf").prove, "layers", grids),
            "cnf unary": (theorem("well-formedness-step-cnf").prove, "unary", grids),
            "cnf binary": (theorem("well-formedness-step-cnf").prove, "binary", grids),
        }
        timings = {}
        for label, (prove, encoding, names) in runs.items():
            prove(parse_graph("grid:1x2"), encoding=encoding)  # warm up: the first call builds caches
            for name in names:
                graph = parse_graph(name)
                start = time.process_time()
                result = prove(graph, encoding=encoding)
                timings.setdefault(label, []).append((graph.order, time.process_time() - start, result.status))
        for label, rows in timings.items():
            print(f"{label:11}", "  ".join(f"{n} points: {s:.2f}s {status}" for n, s, status in rows))
        assert all(status == "proved" for rows in timings.values() for _, _, status in rows)
        """
    ),
    code(
        """
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for label, rows in timings.items():
            ax.plot([n for n, _, _ in rows], [s for _, s, _ in rows], marker="o", label=label)
        ax.set_yscale("log")
        ax.set_xlabel("points of the grid (2×2, 2×3, 3×3, 3×4, 4×4)")
        ax.set_ylabel("processor seconds")
        ax.set_title("T1's step proved on grids, per encoding of reaches")
        ax.legend()
        plt.show()
        """
    ),
    markdown(
        """
        ## A statement refuted as written

        The source's one-step clearing theorem says which points a move empties. As written,
        one letter `v` names both the played point and the inspected point, and the
        conditions look at `b_i(v)`, which at the played point is Empty: no exception applies
        there, so the statement claims that the played point stays empty, and any stone that
        survives its own move refutes it. Z3 refutes the written statement on the 2×2 grid
        and on every graph of four points at once (the adjacency symbolic too), while the
        corrected statement (played point `m` and inspected point `v` kept apart, the second
        clearing read on `clear(b', p*)`) is proved on both.
        """
    ),
    code(
        """
        clearing = theorem("clear-characterization")
        print(clearing.statement_as_written)
        for target in (parse_graph("grid:2x2"), SymbolicGraph(4)):
            written = clearing.prove(target, as_written=True)
            corrected = clearing.prove(target)
            print(f"{written.graph}: as written {written.status}, corrected {corrected.status} ({corrected.scope})")
            assert written.refuted and corrected.proved
            drawn = rebuild_graph(written.counterexample["graph"])
            for item in written.counterexample["boards"]:
                display(SVG(board_svg(drawn, item["board"], title=f"{drawn.name}: {item['label']}",
                                      marks=item.get("marks", []))))
        """
    ),
    markdown(
        """
        The counterexample is a real move: the spec, replayed on the board the solver chose,
        gives the board drawn after it.
        """
    ),
    code(
        """
        cx = written.counterexample
        before = tuple(cx["boards"][0]["board"])
        after = tt.move(drawn, tt.State(before, cx["player"], 0), cx["point"]).board
        print("spec's board after the move:", "".join(after), "| solver's:", cx["boards"][-1]["board"])
        assert "".join(after) == cx["boards"][-1]["board"]
        """
    ),
    markdown(
        """
        ## Mutants: a proof that cannot fail proves nothing

        Each theorem comes with deliberately broken rules that it must refute. On the 3×3 grid:
        """
    ),
    code(
        """
        for name in ("well-formedness", "clear-characterization"):
            module = theorem(name)
            for mutant in module.mutants:
                result = module.prove(parse_graph("grid:3x3"), mutant=mutant)
                board = result.counterexample["boards"][-1]["board"] if result.counterexample else ""
                print(f"{name:24} mutant {mutant:20} {result.status:8} {board}")
                assert result.refuted
        """
    ),
]


# --------------------------------------------------------------------------- 4: conjectures

CONJECTURES = [
    markdown(
        """
        # Counting and solving on tiny graphs

        Exact figures for small boards, computed by the toolkit and set beside the published
        ones: the number of legal positions (every chain has a liberty) and its growth on
        1×n strips, the number of games and the game graph of tiny boards, and the value of
        2×2 under perfect play.
        """
    ),
    code(
        """
        import tempfile
        from pathlib import Path

        import matplotlib.pyplot as plt
        import sympy
        from IPython.display import Markdown, SVG, display

        from gorules.conjectures import built_in
        from gorules.pictures import board_svg
        from gorules.store import Store
        from gorules.sweep import run_sweep, summary_table
        from gorules.impl.counting import count_legal
        from gorules.impl.game_graph import game_graph
        from gorules.impl.games import count_games, longest_game
        from gorules.impl.solve import solve
        from gorules.impl.transfer import derivation_text, derive, strip_system
        from gorules.spec import tromp_taylor as tt
        from gorules.spec.graph import grid, parse_graph
        """
    ),
    markdown(
        """
        ## Legal positions

        `count_legal` counts the well-formed boards by a frontier dynamic program over the
        points. Published figures (John Tromp's tables; OEIS A094777, A102620, A266278):
        1×1: 1, 2×2: 57, 3×3: 12,675, 4×4: 24,318,165; 2×n: 5, 57, 489, 4125.
        """
    ),
    code(
        """
        published = {(1, 1): 1, (2, 2): 57, (3, 3): 12_675, (4, 4): 24_318_165,
                     (2, 1): 5, (2, 3): 489, (2, 4): 4125, (5, 5): None}
        computed = {(r, c): count_legal(grid(r, c)) for r, c in published}
        rows = ["| board | legal positions | published |", "|---|---|---|"]
        rows += [f"| {r}×{c} | {computed[r, c]:,} | {'' if published[r, c] is None else format(published[r, c], ',')} |"
                 for r, c in published]
        display(Markdown("\\n".join(rows)))
        assert all(computed[k] == v for k, v in published.items() if v is not None)
        """
    ),
    markdown(
        """
        ## L(1×n) and its growth constant

        On a strip the same columns are added again and again, so the counts are a transfer
        matrix's powers. `impl.transfer` builds the matrix, finds the shortest recurrence of
        its counts (Berlekamp–Massey over the rationals), and has sympy derive the
        generating function and the growth constant λ, the largest root of the recurrence's
        characteristic polynomial (Tromp's recurrence L(n+3) = 3·L(n+2) − L(n+1) + L(n)
        comes out of it). The generating function G(x) = P(x)/Q(x) has its pole nearest to 0
        at x₀ = 1/λ, simple, so L(1×n) ≈ C·λⁿ with C = −λ·P(x₀)/Q′(x₀). The plot sets the
        counts of `count_legal` for n = 1..20 (each strip counted on its own, not through
        powers of the matrix)
        against C·λⁿ.
        """
    ),
    code(
        """
        strip = strip_system(1)
        derivation = derive(strip)
        print(derivation_text(derivation))
        x = sympy.Symbol("x")
        lam = derivation.growth
        P, Q = sympy.fraction(sympy.cancel(derivation.generating_function))
        C = sympy.simplify(-lam * P.subs(x, 1 / lam) / sympy.diff(Q, x).subs(x, 1 / lam))
        print("λ =", lam.evalf(30))
        print("C =", sympy.N(C, 30))
        """
    ),
    code(
        """
        ns = list(range(1, 21))
        counts = [count_legal(grid(1, n)) for n in ns]
        growth, constant = float(lam), float(C)
        print("L(1×n), n = 1..20:", counts)
        assert counts[:8] == [1, 5, 15, 41, 113, 313, 867, 2401]  # published: OEIS A102620
        print("the transfer matrix gives the same:", strip.terms(20) == counts)
        print("Tromp's recurrence L(n+3) = 3·L(n+2) − L(n+1) + L(n) holds for n = 1..17:",
              all(counts[i + 3] == 3 * counts[i + 2] - counts[i + 1] + counts[i] for i in range(17)))
        print("L(n) / (C·λⁿ) for n = 1, 5, 10, 20:",
              [round(counts[n - 1] / (constant * growth**n), 12) for n in (1, 5, 10, 20)])

        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.semilogy(ns, counts, "o", label="L(1×n), count_legal")
        ax.semilogy(ns, [constant * growth**n for n in ns], "-",
                    label=f"C·λⁿ, λ = {growth:.6f}, C = {constant:.6f}")
        ax.set_xticks(range(1, 21, 2))
        ax.set_xlabel("n")
        ax.set_ylabel("legal positions")
        ax.set_title("Legal positions of the 1×n strip")
        ax.legend()
        plt.show()
        """
    ),
    markdown(
        """
        ## Games and game graphs

        `count_games` counts the games of the source's definition (positional superko, suicide
        allowed, two passes end the game); Tromp and Farnebäck's Table 7 gives 1, 9 and 907 for
        1×1, 1×2 and 1×3. `game_graph` builds the graph whose nodes are legal positions and
        whose edges are moves, under Farnebäck's GoGameGraphs conventions (published: 1×2 has
        5 nodes and 12 edges, 1×3 15 and 42, 2×2 57 and 192). Each longest game found is
        checked to be a game by the spec's `game`. (`gorules count` goes further, to 1×4 and
        2×2, in seconds to minutes; this notebook stays with the quick ones.)
        """
    ),
    code(
        """
        published_games = {1: 1, 2: 9, 3: 907}
        for n, figure in published_games.items():
            counted = count_games(grid(1, n))
            longest = longest_game(grid(1, n))
            print(f"games on 1×{n}: {counted.games} (published {figure}); a longest game has {len(longest)} turns")
            assert counted.games == figure and tt.game(grid(1, n), longest) is not None
        published_graphs = {"grid:1x2": (5, 12), "grid:1x3": (15, 42), "grid:2x2": (57, 192)}
        for name, figure in published_graphs.items():
            size = game_graph(parse_graph(name)).summary()
            print(f"game graph of {name}: {size} (published nodes, edges: {figure})")
            assert (size["nodes"], size["edges"]) == figure
        """
    ),
    markdown(
        """
        ## 2×2 solved

        The exact solver (`impl.solve`) searches the game tree under positional superko, with a
        transposition table that is sound for histories. Tromp's 2×2 solver finds a Black win
        by 1 point (area scoring, suicide allowed, no komi). The principal variation is
        replayed by the spec and drawn.
        """
    ),
    code(
        """
        board_2x2 = grid(2, 2)
        solution = solve(board_2x2)
        print(f"value {solution.value} (Black minus White), principal variation {solution.principal_variation}, "
              f"{solution.nodes} nodes")
        states = tt.game(board_2x2, solution.principal_variation)
        final = states[-1].board
        print("spec's winner of that game:", tt.winner(board_2x2, solution.principal_variation),
              "| scores", tt.score(board_2x2, final, "B"), tt.score(board_2x2, final, "W"))
        display(SVG(board_svg(board_2x2, final, title="2×2 after perfect play")))
        assert solution.value == 1  # published: a Black win by 1 point
        """
    ),
    markdown(
        """
        ## A conjecture swept over tiny graphs

        Source 000 conjectures that going first is good: on every graph that starts empty,
        a win-or-draw strategy chooses a non-negative komi (its rules divide and choose the
        komi). `gorules.conjectures` states the form the solver can test: Black's
        perfect-play value on the empty board is at least 0 (area scoring, no komi; a second
        form uses stone scoring, as 000 does). `gorules.sweep` tests it graph by graph over a family,
        writing each graph's figures to a SQLite store as soon as they are computed. Here:
        paths, cycles, stars, complete graphs, every connected graph of up to 4 points and
        the grids up to 2×3, solved in this process. A sweep that holds has *checked* the
        statement on those graphs only; it proves nothing about larger ones.
        """
    ),
    code(
        """
        scratch = tempfile.TemporaryDirectory()
        store = Store(Path(scratch.name) / "sweep.sqlite")
        family = "paths:1-6+cycles:3-6+stars:1-5+complete:1-4+atlas-connected:4+grids:2x3"
        going_first = built_in("going-first-is-good")
        print(going_first.description)
        summary = run_sweep(going_first, family, store, workers=0, progress=False)
        rows = ["| graph | value | search nodes | holds |", "|---|---|---|---|"]
        rows += [f"| {r.graph} | {r.figures['value']['value']} | {r.figures['value']['nodes']} | {r.holds} |"
                 for r in summary.rows]
        display(Markdown("\\n".join(rows)))
        print(summary_table(summary).splitlines()[-1])
        assert not summary.counterexamples and len(summary.rows) == len(set(r.graph for r in summary.rows))
        """
    ),
    markdown(
        """
        The store makes a sweep resumable: run again on the same file, it computes nothing
        and reads every row back. The stone-scoring form and the source's own theorem (a
        board occurs in some game iff it is well-formed, here decided by search over the
        boards rather than proved) are swept the same way.
        """
    ),
    code(
        """
        again = run_sweep(going_first, family, store, workers=0, progress=False)
        print(f"second run: {again.computed} computed, {again.skipped} already in the store")
        assert again.computed == 0 and again.skipped == len(summary.rows)
        for name, other in (("going-first-is-good-stone", "paths:1-5+atlas-connected:4"),
                            ("well-formed-iff-occurs", "atlas-connected:5+grids:2x3")):
            print(summary_table(run_sweep(built_in(name), other, store, workers=0, progress=False)).splitlines()[-1],
                  f"— {name} on {other}")
        scratch.cleanup()
        """
    ),
    markdown(
        """
        ## Values under other rules

        The same solver under other presets of `impl.rules`, on a few tiny graphs. Under
        `simple` ko play can cycle; the solver scores a repeated state as a draw and says so
        (its `cycle_rule`).
        """
    ),
    code(
        """
        rows = ["| graph | rules | value | nodes | cycle rule |", "|---|---|---|---|---|"]
        for name in ("path:3", "grid:1x4", "cycle:4", "grid:2x2", "star:5"):
            for rules in ("tromp-taylor", "no-suicide", "situational", "gnugo-chinese"):
                s = solve(parse_graph(name), rules)
                rows.append(f"| {name} | {rules} | {s.value:g} | {s.nodes} | {s.cycle_rule or ''} |")
        display(Markdown("\\n".join(rows)))
        """
    ),
]


NOTEBOOKS = {
    "01_spec_and_errata.ipynb": SPEC_TOUR,
    "02_differential_fuzzing.ipynb": FUZZING,
    "03_proofs.ipynb": PROOFS,
    "04_tiny_graphs.ipynb": CONJECTURES,
}


def notebook(cells: list, stem: str) -> nbformat.NotebookNode:
    """A notebook of the given cells for the python3 kernel; cell ids are numbered, not
    random, so that rebuilding an unchanged notebook changes nothing."""
    for i, cell in enumerate(cells):
        cell.id = f"{stem[:2]}-{i:02d}"
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def write(name: str, cells: list) -> Path:
    """Write one notebook (to a temporary name, then renamed); return its path."""
    path = HERE / name
    temporary = path.with_name(f".{path.name}.tmp")
    nbformat.write(notebook(cells, path.stem), temporary)
    temporary.replace(path)
    return path


def execute(path: Path) -> float:
    """Execute a notebook from a clean kernel in a scratch copy; return the seconds taken."""
    import tempfile
    import time

    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": scratch}}).execute()
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    """Write every notebook; with ``--execute`` also run each and print its time."""
    for name, cells in NOTEBOOKS.items():
        path = write(name, cells)
        print(f"wrote {path.name}")
        if "--execute" in argv:
            print(f"  executed in {execute(path):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
